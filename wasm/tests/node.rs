//! The wasm32 build against the native one, bitwise: the comparison's runs
//! ([`gyrolab_wasm::check`]) made here and in the module under Node give the same digest,
//! so every pose, energy and readout has the same bits. The module is built by
//! scripts/build-wasm; where no wasm32 toolchain or no Node is found the comparison is
//! skipped and says why, unless GYROLAB_REQUIRE_WASM is set (CI), where that fails.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use gyrolab_wasm::check;

#[path = "../../tests/common/wasm_module.rs"]
mod wasm_module;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The module or `None`, the comparison skipped (see the helper).
fn module_or_skip() -> Option<PathBuf> {
    wasm_module::module_or_skip(&repo(), "the wasm32 comparison")
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
    let times: std::collections::HashMap<&str, f64> = (err.lines())
        .filter_map(|l| {
            let (run, ms) = l.rsplit_once(": ")?;
            Some((run, ms.strip_suffix(" ms")?.parse().ok()?))
        })
        .collect();
    let digests: Vec<String> = text
        .split("== ")
        .skip(1)
        .map(|d| d.split_once('\n').unwrap().1.to_string())
        .collect();
    assert_eq!(digests.len(), runs.len(), "{text}");
    let time = |run: &String| *times.get(run.as_str()).unwrap_or(&f64::NAN);
    digests.into_iter().zip(runs.iter().map(time)).collect()
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
    // The step alone, timed: dzhanibekov's four lanes and ghost, and the 1,000-box pile.
    runs.extend(["steps:dzhanibekov:3000".into(), "steps:pile:180".into()]);
    let wasm = in_node(&module, &runs);
    for (run, (wasm, wasm_ms)) in runs.iter().zip(wasm) {
        let start = Instant::now();
        let native = check::run(run).unwrap();
        let native_ms = start.elapsed().as_secs_f64() * 1e3;
        // A code is long: its run is named for what it is.
        let name = if run.starts_with("setup:") {
            "setup"
        } else {
            run
        };
        eprintln!(
            "{name}: native {native_ms:.0} ms, wasm32 {wasm_ms:.0} ms ({:.2}x)",
            wasm_ms / native_ms
        );
        assert!(!native.is_empty(), "{run}: an empty digest");
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
