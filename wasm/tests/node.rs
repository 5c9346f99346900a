//! The wasm32 build against the native one, bitwise: the comparison's runs
//! ([`gyrolab_wasm::check`]) made here and in the module under Node give the same digest,
//! so every pose, energy and readout has the same bits. The module is built by
//! scripts/build-wasm; where no wasm32 toolchain or no Node is found the comparison is
//! skipped and says why, unless GYROLAB_REQUIRE_WASM is set (CI), where that fails.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use gyrolab_wasm::check;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The module, built now (a no-op when it is current), or why it cannot be had.
fn module() -> Result<PathBuf, String> {
    if Command::new("node").arg("--version").output().is_err() {
        return Err("node is not installed".into());
    }
    let out = Command::new(repo().join("scripts/build-wasm"))
        .output()
        .map_err(|e| format!("scripts/build-wasm: {e}"))?;
    let err = String::from_utf8_lossy(&out.stderr);
    match out.status.code() {
        Some(0) => Ok(PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())),
        Some(3) => Err(err.trim().to_string()),
        _ => panic!("scripts/build-wasm failed:\n{err}"),
    }
}

/// The module or, where it cannot be had and CI does not require it, `None` after saying
/// why the comparison was skipped.
fn module_or_skip() -> Option<PathBuf> {
    match module() {
        Ok(path) => Some(path),
        Err(why) if std::env::var_os("GYROLAB_REQUIRE_WASM").is_none() => {
            eprintln!("skipped: the wasm32 comparison needs its toolchain and Node ({why})");
            None
        }
        Err(why) => {
            panic!("GYROLAB_REQUIRE_WASM is set, and the wasm32 build cannot be made: {why}")
        }
    }
}

/// Each run's digest from the module under Node, with its wall time in ms.
fn in_node(module: &Path, runs: &[String]) -> Vec<(String, f64)> {
    let out = Command::new("node")
        .arg(repo().join("wasm/node/check.mjs"))
        .arg(module)
        .args(runs)
        .output()
        .expect("node runs");
    let text = String::from_utf8(out.stdout).unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "node failed:\n{err}\n{text}");
    let times: Vec<f64> = (err.lines())
        .filter_map(|l| l.rsplit(": ").next()?.strip_suffix(" ms")?.parse().ok())
        .collect();
    let digests: Vec<String> = text
        .split("== ")
        .skip(1)
        .map(|d| d.split_once('\n').unwrap().1.to_string())
        .collect();
    assert_eq!(digests.len(), runs.len(), "{text}");
    digests.into_iter().zip(times).collect()
}

/// The first line where two digests part, for the failure message.
fn first_difference(native: &str, wasm: &str) -> String {
    let lines = native.lines().zip(wasm.lines()).enumerate();
    match lines.into_iter().find(|(_, (a, b))| a != b) {
        Some((k, (a, b))) => format!("line {}: native `{a}`, wasm32 `{b}`", k + 1),
        None => "one digest is longer".into(),
    }
}

#[test]
fn the_wasm_build_gives_the_native_bits() {
    let Some(module) = module_or_skip() else {
        return;
    };
    let code = check::code_at_first_try("energy-drift").unwrap();
    let mut runs: Vec<String> = check::RUNS.iter().map(|r| r.to_string()).collect();
    runs.push(format!("setup:{code}"));
    let wasm = in_node(&module, &runs);
    for (run, (wasm, wasm_ms)) in runs.iter().zip(wasm) {
        let start = Instant::now();
        let native = check::run(run).unwrap();
        let native_ms = start.elapsed().as_secs_f64() * 1e3;
        let name = run.split_once(':').map_or(run.as_str(), |(n, _)| n);
        eprintln!(
            "{name}: native {native_ms:.0} ms, wasm32 {wasm_ms:.0} ms ({:.2}x)",
            wasm_ms / native_ms
        );
        assert!(native.lines().count() > 1, "{run}: {native}");
        assert!(
            native == wasm,
            "{name}: wasm32 parts from x86-64 at {}",
            first_difference(&native, &wasm)
        );
    }
}

/// Every shipped scene and lesson loads in the module: the load-all run names each, and
/// none failed.
#[test]
fn every_shipped_scene_and_lesson_loads_in_wasm() {
    let Some(module) = module_or_skip() else {
        return;
    };
    let (text, _) = in_node(&module, &["load-all".to_string()]).remove(0);
    let scenes = gyrolab_lab::scene::scene_names();
    let lessons = gyrolab_lab::lesson::lesson_names();
    assert_eq!(text.lines().count(), scenes.len() + lessons.len(), "{text}");
    for line in text.lines() {
        let ok = line.starts_with("scene ")
            && line.rsplit(": ").next().unwrap().parse::<usize>().is_ok()
            || line.starts_with("lesson ") && line.contains(": Ok(");
        assert!(ok, "did not load in wasm32: {line}");
    }
}
