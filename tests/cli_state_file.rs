//! `simulate --save-state` and `--state`: the command line goes on from a saved moment
//! exactly where one longer run would be, and refuses corrupted, truncated and
//! mismatched files with one line on stderr and exit code 2.

mod common;
use common::binary::gyrolab;
use common::saved_scenes::{SAVED_SCENES, steps_before_save};
use std::path::{Path, PathBuf};
use std::process::Output;
use tempfile::TempDir;

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// A fresh directory for one test's files, removed when the test ends.
fn dir(name: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("gyrolab-state-{name}-"))
        .tempdir()
        .unwrap()
}

fn ok(args: &[&str]) -> Output {
    let o = gyrolab(args);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    o
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The second line of a state file: the whole state.
fn state_line(p: &Path) -> String {
    std::fs::read_to_string(p)
        .unwrap()
        .lines()
        .nth(1)
        .unwrap()
        .to_owned()
}

/// The CSV rows of the last time written.
fn last_rows(csv: &[u8]) -> Vec<String> {
    let text = String::from_utf8(csv.to_vec()).unwrap();
    let rows: Vec<&str> = text.lines().skip(1).collect();
    let t = rows.last().unwrap().split(',').next().unwrap();
    rows.iter()
        .filter(|r| r.split(',').next() == Some(t))
        .map(|r| r.to_string())
        .collect()
}

/// 2N steps in one run, against N, save, load, N more: the same rows at the end and the
/// same state, bitwise (the files' state lines are equal text, and JSON keeps every bit).
/// Returns the state line saved after N steps.
fn continues(scene: &str, n: u64) -> String {
    let d = dir(scene);
    let (half, whole, on) = (
        d.path().join("half.json"),
        d.path().join("whole.json"),
        d.path().join("on.json"),
    );
    let n_s = n.to_string();
    let two_n = (2 * n).to_string();
    ok(&[
        "simulate",
        scene,
        "--steps",
        &n_s,
        "--every",
        "1000000",
        "--save-state",
        s(&half),
    ]);
    let straight = ok(&[
        "simulate",
        scene,
        "--steps",
        &two_n,
        "--save-state",
        s(&whole),
    ]);
    let resumed = ok(&[
        "simulate",
        "--state",
        s(&half),
        "--steps",
        &n_s,
        "--save-state",
        s(&on),
    ]);
    assert_eq!(
        last_rows(&resumed.stdout),
        last_rows(&straight.stdout),
        "{scene}"
    );
    assert_eq!(
        state_line(&on),
        state_line(&whole),
        "{scene}: the whole state"
    );
    state_line(&half)
}

/// Every scene of the shared table goes on bitwise from its state file.
#[test]
fn every_saved_scene_goes_on_bitwise() {
    // These three have tests of their own below, which check what they save as well.
    let own = ["tank", "pile", "wrecking-ball"];
    for (scene, steps, _) in SAVED_SCENES.iter().filter(|(s, ..)| !own.contains(s)) {
        continues(scene, *steps);
    }
}

/// The gun fires at 0.75 s and 2.25 s: one shot before the save, one after.
#[test]
fn tank_goes_on_bitwise() {
    let half = continues("tank", steps_before_save("tank"));
    assert!(half.contains("\"fired\":1"));
}

/// Saved asleep: the file says so, and the boxes sleep on.
#[test]
fn pile_goes_on_bitwise() {
    let half = continues("pile", steps_before_save("pile"));
    assert!(half.contains("\"asleep\":true"));
}

/// The wrecking ball saved after its first blow (the file keeps which joints broke, and
/// when) and before its second goes on bitwise.
#[test]
fn the_wrecking_ball_saves_its_break() {
    let half = continues("wrecking-ball", steps_before_save("wrecking-ball"));
    assert!(
        half.contains("\"broken\":{\"time\":1.2"),
        "the break is saved"
    );
}

/// Going on with another integrator: a switch at the save point.
#[test]
fn a_moment_goes_on_with_another_integrator() {
    let d = dir("switch");
    let (half, on) = (d.path().join("half.json"), d.path().join("on.json"));
    ok(&[
        "simulate",
        "tumbling-crowd",
        "--steps",
        "50",
        "--save-state",
        s(&half),
    ]);
    let o = ok(&[
        "simulate",
        "--state",
        s(&half),
        "--integrator",
        "rk4",
        "--steps",
        "50",
        "--save-state",
        s(&on),
    ]);
    let rows = last_rows(&o.stdout);
    assert!(rows.iter().all(|r| r.contains(",rk4,")), "{rows:?}");
    let header = std::fs::read_to_string(&on).unwrap();
    assert!(
        header
            .lines()
            .next()
            .unwrap()
            .contains("\"integrators\":[\"rk4\"]")
    );
    // And from there on with the integrator it was saved with.
    let o = ok(&["simulate", "--state", s(&on), "--steps", "3"]);
    assert!(last_rows(&o.stdout).iter().all(|r| r.contains(",rk4,")));
}

/// Exit 2, one line naming the file, no panic, nothing on stdout.
fn refused(args: &[&str], file: &Path, needle: &str) {
    let o = gyrolab(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    assert!(err.contains(s(file)), "{args:?}: names the file: {err}");
    assert!(err.contains(needle), "{args:?}: '{needle}' not in {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(o.stdout.is_empty());
}

/// A state file of `tank` after 20 steps in a new directory, and its text.
fn saved_tank(name: &str) -> (TempDir, PathBuf, String) {
    let d = dir(name);
    let good = d.path().join("good.json");
    ok(&[
        "simulate",
        "tank",
        "--steps",
        "20",
        "--save-state",
        s(&good),
    ]);
    let text = std::fs::read_to_string(&good).unwrap();
    (d, good, text)
}

/// Writes `content` as file `name` in `d`; its path.
fn write_in(d: &TempDir, name: &str, content: &str) -> PathBuf {
    let p = d.path().join(name);
    std::fs::write(&p, content).unwrap();
    p
}

/// Damaged state files, and a missing one, are refused with one line.
#[test]
fn damaged_state_files_are_refused_with_one_line() {
    let (d, _, text) = saved_tank("bad");
    let write = |name: &str, content: &str| write_in(&d, name, content);
    // Truncated in the state, and in the header.
    let p = write("cut.json", &text[..text.len() * 2 / 3]);
    refused(&["simulate", "--state", s(&p)], &p, "truncated");
    let p = write("cut-header.json", &text[..40]);
    refused(&["simulate", "--state", s(&p)], &p, "truncated");
    // A digit changed in the state; bytes that are not text.
    let at = text.rfind("0.5").unwrap();
    let p = write(
        "digit.json",
        &format!("{}0.6{}", &text[..at], &text[at + 3..]),
    );
    refused(&["simulate", "--state", s(&p)], &p, "corrupted");
    let p = d.path().join("binary.json");
    std::fs::write(&p, [0xff, 0xfe, 0x00, 0x41]).unwrap();
    refused(&["simulate", "--state", s(&p)], &p, "cannot read");
    let p = write("empty.json", "");
    refused(
        &["simulate", "--state", s(&p)],
        &p,
        "not a gyrolab state file",
    );
}

/// A state file of another format version, another scene, another version of its scene,
/// or another format is refused with one line saying which.
#[test]
fn foreign_state_files_are_refused_with_one_line() {
    let (d, good, text) = saved_tank("foreign");
    let write = |name: &str, content: &str| write_in(&d, name, content);
    // Another version of the format; another scene asked for; another version of the
    // scene.
    // (This gyrolab writes version 2: 1 is the last one's, before contacts kept their
    // manifolds' origins; 3 a later one's.)
    assert!(text.contains("\"version\":2"));
    for other in ["1", "3"] {
        let p = write(
            &format!("v{other}.json"),
            &text.replacen("\"version\":2", &format!("\"version\":{other}"), 1),
        );
        refused(
            &["simulate", "--state", s(&p)],
            &p,
            &format!("version {other}"),
        );
    }
    refused(
        &["simulate", "pile", "--state", s(&good)],
        &good,
        "a moment of scene 'tank'",
    );
    let header = text.lines().next().unwrap();
    let hash = header.split("\"scene_hash\":\"").nth(1).unwrap()[..16].to_owned();
    let p = write(
        "edited-scene.json",
        &text.replacen(&hash, "0123456789abcdef", 1),
    );
    refused(
        &["simulate", "--state", s(&p)],
        &p,
        "another version of scene 'tank'",
    );
    let p = write(
        "other.json",
        &text.replacen("gyrolab-state", "other-format", 1),
    );
    refused(
        &["simulate", "--state", s(&p)],
        &p,
        "not a gyrolab state file",
    );
    // A missing file.
    let p = d.path().join("missing.json");
    refused(&["simulate", "--state", s(&p)], &p, "cannot read");
}

/// `--save-state` replaces a file only when the run succeeds, and never leaves a
/// partial one.
#[test]
fn save_state_is_written_only_by_a_run_that_succeeds() {
    let d = dir("atomic");
    let target = d.path().join("keep.json");
    std::fs::write(&target, "precious").unwrap();
    let o = gyrolab(&[
        "simulate",
        "dzhanibekov",
        "--dt",
        "0.9",
        "--integrator",
        "explicit-euler-world",
        "--steps",
        "200",
        "--save-state",
        s(&target),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "precious");
    ok(&[
        "simulate",
        "dzhanibekov",
        "--steps",
        "5",
        "--save-state",
        s(&target),
    ]);
    assert!(
        std::fs::read_to_string(&target)
            .unwrap()
            .starts_with("{\"format\":\"gyrolab-state\"")
    );
    assert_eq!(
        std::fs::read_dir(d.path()).unwrap().count(),
        1,
        "no temporary file left"
    );
    let o = gyrolab(&[
        "simulate",
        "--steps",
        "5",
        "--save-state",
        "/nonexistent-dir/x.json",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o).trim_end().lines().count(), 1);
}

/// A moment of several lanes side by side (the app's) is refused by the command line,
/// which steps one world.
#[test]
fn a_moment_of_several_lanes_is_refused() {
    let d = dir("lanes");
    let p = d.path().join("lanes.json");
    let lab = gyrolab::lab::Lab::new(gyrolab::scene::Scene::load("dzhanibekov").unwrap());
    gyrolab::state_file::save_lab(&lab, &p).unwrap();
    refused(&["simulate", "--state", s(&p)], &p, "4 lanes side by side");
}

/// `--out`, `--save-state` and `--state` naming one file would overwrite the trajectory
/// or the moment being read: refused before the run, the file untouched; a
/// `--save-state` in a missing directory is refused before the run too, with nothing
/// written to `--out`.
#[test]
fn files_that_would_overwrite_each_other_are_refused_before_the_run() {
    let d = dir("same-file");
    let f = d.path().join("run.out");
    std::fs::write(&f, "precious\n").unwrap();
    for args in [
        vec![
            "simulate",
            "--steps",
            "3",
            "--out",
            s(&f),
            "--save-state",
            s(&f),
        ],
        vec!["simulate", "--state", s(&f), "--steps", "3", "--out", s(&f)],
    ] {
        let o = gyrolab(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains("name the same file"), "{err}");
        assert_eq!(std::fs::read(&f).unwrap(), b"precious\n");
    }
    let out = d.path().join("trajectory.csv");
    let o = gyrolab(&[
        "simulate",
        "--steps",
        "3",
        "--out",
        s(&out),
        "--save-state",
        "/nonexistent/dir/moment.json",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--save-state: cannot write"),
        "{}",
        stderr(&o)
    );
    assert!(!out.exists(), "the run did not start");
}

/// A new state file gets the permissions `fs::write` gives (not a temporary file's
/// private 0600), like `--out`, and an existing one keeps its own.
#[test]
fn state_files_keep_the_usual_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let d = dir("modes");
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let plain = d.path().join("plain");
    std::fs::write(&plain, "").unwrap();
    let state = d.path().join("state.json");
    ok(&["simulate", "--steps", "2", "--save-state", s(&state)]);
    assert_eq!(mode(&state), mode(&plain));
    std::fs::set_permissions(&state, std::fs::Permissions::from_mode(0o640)).unwrap();
    ok(&["simulate", "--steps", "3", "--save-state", s(&state)]);
    assert_eq!(mode(&state), 0o640);
}
