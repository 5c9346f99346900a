//! What `simulate` and `compare` write, under hostile input: CSV that keeps its columns,
//! output streamed in bounded memory, an `--out` file replaced only by a run that
//! succeeded, and never a NaN or inf.

mod common;
use common::binary::{BIN, gyrolab};
use common::listing;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const HEADER: &str =
    "t,body,integrator,px,py,pz,qw,qx,qy,qz,wx,wy,wz,wbx,wby,wbz,lx,ly,lz,energy,vx,vy,vz";

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Exit code 2 and one line on stderr containing `needle`, no panic.
fn assert_one_line_error(o: &Output, needle: &str) {
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "one line expected: {err}"
    );
    assert!(err.contains(needle), "'{needle}' not in {err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gyrolab-output-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// free-body with its box renamed and other edits: `(from, to)` pairs.
fn free_body_with(dir: &Path, edits: &[(&str, &str)]) -> PathBuf {
    let mut scene = include_str!("../assets/scenes/free-body.ron").to_owned();
    for (from, to) in edits {
        assert!(scene.contains(from), "{from}");
        scene = scene.replacen(from, to, 1);
    }
    let path = dir.join("scene.ron");
    std::fs::write(&path, scene).unwrap();
    path
}

/// Every number in a CSV output is finite and every record has the header's columns.
fn assert_finite_csv(csv_text: &str) -> Vec<csv::StringRecord> {
    let mut reader = csv::Reader::from_reader(csv_text.as_bytes());
    assert_eq!(
        reader
            .headers()
            .unwrap()
            .iter()
            .collect::<Vec<_>>()
            .join(","),
        HEADER
    );
    let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    for r in &records {
        assert_eq!(r.len(), 23, "{r:?}");
        for (i, field) in r.iter().enumerate().filter(|(i, _)| *i != 1 && *i != 2) {
            let v: f64 = field
                .parse()
                .unwrap_or_else(|_| panic!("column {i}: {field}"));
            assert!(v.is_finite(), "column {i}: {field}");
        }
    }
    records
}

/// A body named with a comma, quotes and a line break keeps every column in place in
/// CSV (read back by a CSV reader) and in JSON lines.
#[test]
fn a_body_name_with_commas_quotes_and_newlines_keeps_its_columns() {
    let dir = scratch("names");
    let name = "a,b \"c\"\nd";
    let scene = free_body_with(&dir, &[("name: \"box\"", "name: \"a,b \\\"c\\\"\\nd\"")]);
    let scene = scene.to_str().unwrap();
    let o = gyrolab(&["simulate", scene, "--steps", "3"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let records = assert_finite_csv(&text(&o.stdout));
    assert_eq!(records.len(), 4);
    for r in &records {
        assert_eq!(&r[1], name);
        assert_eq!(&r[2], "midpoint");
    }
    let o = gyrolab(&["simulate", scene, "--steps", "3", "--format", "jsonl"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    for line in text(&o.stdout).lines() {
        let row: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(row["body"], name);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The peak resident memory of a child run, from wait4(2).
#[expect(
    clippy::zombie_processes,
    reason = "wait4 reaps the child: std's wait cannot report its resource usage"
)]
fn peak_rss_bytes(command: &mut Command) -> (std::process::ExitStatus, i64) {
    use std::os::unix::process::ExitStatusExt;
    let child = command.spawn().unwrap();
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: `rusage` is plain data that wait4 fills in; `status` is a valid pointer.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid);
    // ru_maxrss is in kilobytes on Linux.
    (
        std::process::ExitStatus::from_raw(status),
        usage.ru_maxrss * 1024,
    )
}

/// `simulate` writes rows as it computes them: 500,000 steps make 140 MB of CSV, and the
/// process's peak memory stays a small fraction of that.
#[test]
fn simulate_streams_its_output_in_bounded_memory() {
    let mut command = Command::new(BIN);
    command
        .args(["simulate", "free-body", "--steps", "500000"])
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let (status, peak) = peak_rss_bytes(&mut command);
    assert!(status.success());
    let limit = 48 << 20;
    assert!(
        peak < limit,
        "peak resident memory {peak} bytes, limit {limit}"
    );
}

/// A run that fails mid-way leaves a pre-existing `--out` file byte for byte, and no
/// temporary file; the error names the body, the step, the time and the cause.
#[test]
fn a_run_that_fails_mid_way_leaves_the_old_file() {
    let dir = scratch("failed");
    let out = dir.join("run.csv");
    std::fs::write(&out, "precious\n").unwrap();
    let o = gyrolab(&[
        "simulate",
        "dzhanibekov",
        "--integrator",
        "explicit-euler-world",
        "--dt",
        "1",
        "--duration",
        "100",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_one_line_error(
        &o,
        "body 't-handle' at step 12 (t = 12.000 s): energy overflowed",
    );
    assert_one_line_error(&o, "the time step is too large");
    assert_eq!(std::fs::read(&out).unwrap(), b"precious\n");
    assert_eq!(listing::listing(&dir), ["run.csv"]);
    // The same run, successful, replaces the file.
    let o = gyrolab(&[
        "simulate",
        "dzhanibekov",
        "--steps",
        "5",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(
        assert_finite_csv(&std::fs::read_to_string(&out).unwrap()).len(),
        6
    );
    assert_eq!(listing::listing(&dir), ["run.csv"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A new `--out` file gets the permissions `fs::write` gives (not a temporary file's
/// private 0600), an existing one keeps its own, and a device is written directly.
#[test]
fn out_files_keep_the_usual_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("modes");
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let plain = dir.join("plain");
    std::fs::write(&plain, "").unwrap();
    let new = dir.join("new.csv");
    let o = gyrolab(&["simulate", "--steps", "1", "--out", new.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(mode(&new), mode(&plain));
    std::fs::set_permissions(&new, std::fs::Permissions::from_mode(0o640)).unwrap();
    let o = gyrolab(&["simulate", "--steps", "2", "--out", new.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(mode(&new), 0o640);
    assert_eq!(
        assert_finite_csv(&std::fs::read_to_string(&new).unwrap()).len(),
        3
    );
    let o = gyrolab(&["simulate", "--steps", "2", "--out", "/dev/null"]);
    assert!(
        o.status.success() && o.stdout.is_empty(),
        "{}",
        text(&o.stderr)
    );
    assert_eq!(listing::listing(&dir), ["new.csv", "plain"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A disk that fills up mid-run (here a file-size limit, with SIGXFSZ ignored so that
/// the write fails with EFBIG) leaves the old file as it was: one line, exit 2.
#[test]
fn a_full_disk_leaves_the_old_file() {
    let dir = scratch("full");
    let out = dir.join("run.csv");
    std::fs::write(&out, "precious\n").unwrap();
    let o = Command::new("sh")
        .args([
            "-c",
            "trap '' XFSZ; ulimit -f 16; exec \"$0\" \"$@\"",
            BIN,
            "simulate",
            "free-body",
            "--steps",
            "5000",
            "--out",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_one_line_error(&o, &format!("cannot write {}", out.display()));
    assert_eq!(std::fs::read(&out).unwrap(), b"precious\n");
    assert_eq!(listing::listing(&dir), ["run.csv"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An `--out` in a directory that cannot hold a file is refused before the run.
#[test]
fn an_unwritable_out_directory_is_one_line() {
    let dir = scratch("unwritable");
    let file = dir.join("plain");
    std::fs::write(&file, "").unwrap();
    let out = file.join("run.csv");
    let o = gyrolab(&["simulate", "--out", out.to_str().unwrap()]);
    assert_one_line_error(&o, "--out: cannot write");
    assert!(o.stdout.is_empty());
    let o = gyrolab(&["simulate", "--out", dir.to_str().unwrap()]);
    assert_one_line_error(&o, "is a directory");
    assert_eq!(listing::listing(&dir), ["plain"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A run that overflows stops with the body, the step, the time and the cause, before a
/// single non-finite number is written, and leaves `--out` alone. Input within the
/// accepted ranges can still blow up: explicit Euler at the largest spin and a one-second
/// step squares ω's error every step.
#[test]
fn overflowing_states_stop_before_a_non_finite_value_is_written() {
    let dir = scratch("overflow");
    let out = dir.join("run.jsonl");
    std::fs::write(&out, "precious\n").unwrap();
    let unstable = [
        "simulate",
        "--omega",
        "1e4,100,0",
        "--dt",
        "1",
        "--integrator",
        "explicit-euler-world",
        "--steps",
        "100",
        "--format",
        "jsonl",
    ];
    let o = gyrolab(&[&unstable[..], &["--out", out.to_str().unwrap()]].concat());
    assert_one_line_error(&o, "body 't-handle' at step ");
    assert_one_line_error(
        &o,
        "the time step is too large: |ω| = 1.00e4 rad/s at the start needs a time step below",
    );
    assert_eq!(std::fs::read(&out).unwrap(), b"precious\n");
    // To stdout: the rows before the failure, every one finite.
    let o = gyrolab(&unstable);
    assert_one_line_error(&o, "overflowed");
    let stdout = text(&o.stdout);
    assert!(stdout.lines().count() > 1, "{stdout}");
    assert!(
        !stdout.contains("inf") && !stdout.contains("NaN"),
        "{stdout}"
    );
    assert_eq!(listing::listing(&dir), ["run.jsonl"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The heaviest accepted body, moments up to 1e14 kg·m², keeps an exact energy: ½ω·L in body
/// axes is written as a number that stays put under a conserving step.
#[test]
fn the_energy_of_a_heavy_body_is_finite() {
    let o = gyrolab(&[
        "simulate",
        "--inertia",
        "4e13,8e13,1e14",
        "--integrator",
        "rk4",
        "--steps",
        "10",
        "--format",
        "jsonl",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let rows: Vec<serde_json::Value> = text(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("valid JSON"))
        .collect();
    assert_eq!(rows.len(), 11);
    // dzhanibekov's ω_b = (10, 0.05, 0): E = ½(4e13·100 + 8e13·0.0025).
    let exact = 2.0001e15;
    for r in &rows {
        let e = r["energy"].as_f64().unwrap();
        assert!((e / exact - 1.0).abs() < 1e-9, "{e}");
    }
}

/// `compare` never prints NaN: with no energy at the start the relative energy error
/// does not exist and is printed as `-` (table) or an empty field (CSV); with the
/// heaviest accepted moments it is a number.
#[test]
fn compare_prints_no_nan() {
    let o = gyrolab(&[
        "compare",
        "--omega",
        "0,0,0",
        "--duration",
        "0.5",
        "--integrators",
        "rk4,midpoint",
        "--format",
        "csv",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let mut reader = csv::Reader::from_reader(out.as_bytes());
    for r in reader.records().map(Result::unwrap) {
        assert_eq!((&r[1], &r[2]), ("", ""), "{r:?}");
        assert_eq!(&r[3], "0");
    }
    let table = text(
        &gyrolab(&[
            "compare",
            "--omega",
            "0,0,0",
            "--duration",
            "0.5",
            "--integrators",
            "rk4",
        ])
        .stdout,
    );
    let row: Vec<&str> = table.lines().nth(1).unwrap().split_whitespace().collect();
    assert_eq!(&row[..3], ["rk4", "-", "-"], "{table}");

    let o = gyrolab(&[
        "compare",
        "--inertia",
        "4e13,8e13,1e14",
        "--duration",
        "0.5",
        "--integrators",
        "rk4,dmv",
        "--format",
        "csv",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let mut reader = csv::Reader::from_reader(out.as_bytes());
    for r in reader.records().map(Result::unwrap) {
        for i in 1..=3 {
            let v: f64 = r[i].parse().unwrap();
            assert!(v.is_finite() && v < 1e-6, "{r:?}");
        }
    }
}

/// A reader that closes the pipe mid-run ends the program at once and quietly; a full
/// stdout is one line and exit 2.
#[test]
fn a_closed_pipe_ends_a_streaming_run_quietly() {
    use std::io::Read;
    let start = std::time::Instant::now();
    let mut child = Command::new(BIN)
        .args(["simulate", "free-body", "--steps", "100000000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut head = [0u8; 4096];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut head)
        .unwrap();
    assert!(text(&head).starts_with(HEADER));
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(o.stderr.is_empty(), "{}", text(&o.stderr));
    let took = start.elapsed().as_secs_f64();
    assert!(
        took < 10.0,
        "a run of 1e8 steps must stop with its reader, took {took} s"
    );

    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let o = Command::new(BIN)
        .args(["simulate", "free-body", "--steps", "1000"])
        .stdout(full)
        .output()
        .unwrap();
    assert_one_line_error(&o, "cannot write to stdout");
}
