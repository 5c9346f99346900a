//! Helpers of the fuzz suite: where to cut a scene file, what to cut it with, and how to
//! judge a run of the binary.

pub mod mutate;
pub mod ron_map;
pub mod setup_code;
pub mod verdict;
