//! Helpers the test files share, one module each: every test file takes this one module
//! (`mod common;`) and uses what it needs, so each test binary leaves some unused.
#![allow(dead_code)]

pub mod binary;
pub mod bits;
pub mod browser;
pub mod counting;
pub mod crossings;
pub mod exploding;
pub mod listing;
pub mod momentum;
pub mod saved_scenes;
pub mod setup_code;
pub mod stepping;
pub mod wasm_module;
