//! Plain-Rust mathematics on glam's f64 types: no Bevy, no physics state.

pub mod dual;
pub mod elliptic;
pub mod norm;
pub mod quat;
pub mod scalar;
pub mod so3;
