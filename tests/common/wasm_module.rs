//! The lab's wasm module for a test, built by scripts/build-wasm (a no-op when current),
//! or why the test is skipped: no wasm32 toolchain or no Node. Where GYROLAB_REQUIRE_WASM
//! is set (CI) a missing toolchain fails the test instead.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The module, or why it cannot be had.
fn module_in(repo: &Path) -> Result<PathBuf, String> {
    if Command::new("node").arg("--version").output().is_err() {
        return Err("node is not installed".into());
    }
    let out = Command::new(repo.join("scripts/build-wasm"))
        .output()
        .map_err(|e| format!("scripts/build-wasm: {e}"))?;
    let err = String::from_utf8_lossy(&out.stderr);
    match out.status.code() {
        Some(0) => Ok(PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())),
        Some(3) => Err(err.trim().to_string()),
        _ => panic!("scripts/build-wasm failed:\n{err}"),
    }
}

/// The module built from the repository at `repo` or, where it cannot be had and CI
/// does not require it, `None` after saying why `what` was skipped.
pub fn module_or_skip(repo: &Path, what: &str) -> Option<PathBuf> {
    match module_in(repo) {
        Ok(path) => Some(path),
        Err(why) if std::env::var_os("GYROLAB_REQUIRE_WASM").is_none() => {
            eprintln!("skipped: {what} needs the wasm32 toolchain and Node ({why})");
            None
        }
        Err(why) => {
            panic!("GYROLAB_REQUIRE_WASM is set, and the wasm32 build cannot be made: {why}")
        }
    }
}
