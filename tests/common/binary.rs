//! The gyrolab binary this test build made, run with arguments.

use std::process::{Command, Output};

/// The binary's path.
pub const BIN: &str = env!("CARGO_BIN_EXE_gyrolab");

/// `gyrolab ARGS`, run to its end: its status and what it printed.
pub fn gyrolab(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("binary runs")
}
