//! The command line as scripts use it: formats, columns and every bad-input path.

mod common;
use common::binary::gyrolab;
use gyrolab::lab::Input;
use std::process::{Command, Output};

use gyrolab::integrators::Integrator;

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// Exit code 2, one line on stderr containing `needle`, no panic, nothing on stdout.
fn assert_bad_input(args: &[&str], needle: &str) {
    let o = gyrolab(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "{args:?}: one line expected, got {err}"
    );
    assert!(err.contains(needle), "{args:?}: '{needle}' not in {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(o.stdout.is_empty(), "{args:?}");
}

#[test]
fn csv_has_the_required_header_and_full_rows() {
    let o = gyrolab(&[
        "simulate",
        "dzhanibekov",
        "--steps",
        "10",
        "--integrator",
        "rk4",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let mut lines = text.lines();
    assert_eq!(
        lines.next().unwrap(),
        "t,body,integrator,px,py,pz,qw,qx,qy,qz,wx,wy,wz,wbx,wby,wbz,lx,ly,lz,energy,vx,vy,vz"
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 11, "initial state plus 10 steps");
    for r in &rows {
        assert_eq!(r.len(), 23);
        assert_eq!(r[1], "t-handle");
        assert_eq!(r[2], "rk4");
        for v in &r[3..] {
            assert!(v.parse::<f64>().unwrap().is_finite());
        }
    }
    // Full precision: the time column reads back exactly as 10 steps of the scene's dt.
    let t: f64 = rows[10][0].parse().unwrap();
    assert!((t - 0.1).abs() < 1e-15);
    // The quaternion is a unit quaternion and ω = R ω_b (a consistency check of columns).
    let f = |i: usize| rows[10][i].parse::<f64>().unwrap();
    let q = glam::DQuat::from_xyzw(f(7), f(8), f(9), f(6));
    assert!((q.length() - 1.0).abs() < 1e-14);
    let w = q * glam::DVec3::new(f(13), f(14), f(15));
    assert!((w - glam::DVec3::new(f(10), f(11), f(12))).length() < 1e-12);
}

#[test]
fn every_and_jsonl_and_out_file() {
    let dir = std::env::temp_dir().join(format!("gyrolab-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("run.jsonl");
    let o = gyrolab(&[
        "simulate",
        "free-body",
        "--steps",
        "10",
        "--every",
        "3",
        "--format",
        "jsonl",
        "--out",
        path.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&path).unwrap();
    let times: Vec<f64> = text
        .lines()
        .map(|l| {
            let row: serde_json::Value = serde_json::from_str(l).expect("each line is JSON");
            for key in [
                "t",
                "body",
                "integrator",
                "qw",
                "wbz",
                "lx",
                "energy",
                "vx",
                "vy",
                "vz",
            ] {
                assert!(row.get(key).is_some(), "{key} missing in {l}");
            }
            assert_eq!(row["body"], "box");
            row["t"].as_f64().unwrap()
        })
        .collect();
    assert_eq!(times.len(), 5, "steps 0, 3, 6, 9 and the last");
    assert!((times[4] - 0.1).abs() < 1e-12);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn inertia_and_omega_overrides_set_the_first_body() {
    let o = gyrolab(&[
        "simulate",
        "--steps",
        "1",
        "--inertia",
        "1,2,3",
        "--omega",
        "0.5,-1,2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let row: Vec<f64> = text
        .lines()
        .nth(1)
        .unwrap()
        .split(',')
        .skip(3)
        .map(|v| v.parse().unwrap())
        .collect();
    // Initial row: identity orientation, ω_b as given, L = Iω, E = ½ω·Iω (at rest).
    assert_eq!(&row[3..7], &[1.0, 0.0, 0.0, 0.0]);
    assert_eq!(&row[10..13], &[0.5, -1.0, 2.0]);
    assert_eq!(&row[13..16], &[0.5, -2.0, 6.0]);
    assert!((row[16] - 0.5 * (0.25 + 2.0 + 12.0)).abs() < 1e-15);
}

#[test]
fn compare_shows_baselines_drifting_and_midpoint_on_the_analytic_period() {
    let o = gyrolab(&["compare", "dzhanibekov", "--format", "csv"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let rows: Vec<Vec<String>> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(String::from).collect())
        .collect();
    let get = |name: &str| {
        rows.iter()
            .find(|r| r[0] == name)
            .unwrap_or_else(|| panic!("{name} missing"))
    };
    assert_eq!(
        rows.len(),
        Integrator::ALL.len(),
        "every integrator applies to a single free body"
    );
    let num = |r: &Vec<String>, i: usize| r[i].parse::<f64>().unwrap();
    let midpoint = get("midpoint");
    let (measured, exact) = (num(midpoint, 5), num(midpoint, 6));
    assert!(
        (measured - exact).abs() / exact < 2e-3,
        "midpoint {measured} vs {exact}"
    );
    assert_eq!(num(midpoint, 3), 0.0, "midpoint keeps L exactly");
    // Without the gyroscopic term nothing flips.
    assert_eq!(get("no-gyro")[4], "0");
    // Symplectic Euler and explicit Euler on body ω gain energy; explicit Euler on world ω
    // loses it; all far beyond midpoint.
    assert!(num(get("symplectic-euler"), 2) > 0.01);
    assert!(num(get("explicit-euler-body"), 2) > 0.01);
    assert!(num(get("explicit-euler-world"), 2) < -0.01);
    assert!(num(midpoint, 1) < 1e-3);
    // The table form has a header and a line per integrator.
    let table = stdout(&gyrolab(&[
        "compare",
        "--integrators",
        "midpoint,rk4",
        "--duration",
        "5",
    ]));
    assert_eq!(table.lines().count(), 3);
    assert!(table.lines().next().unwrap().contains("analytic"));
}

#[test]
fn listings_name_every_scene_and_integrator() {
    let scenes = stdout(&gyrolab(&["scenes"]));
    assert!(scenes.contains("dzhanibekov") && scenes.contains("free-body"));
    let integrators = stdout(&gyrolab(&["integrators"]));
    for name in Integrator::ALL.map(Integrator::name) {
        assert!(integrators.contains(name), "{name}");
    }
}

#[test]
fn bad_input_is_one_line_exit_two_no_panic() {
    assert_bad_input(
        &["simulate", "dzhanibeckov"],
        "valid: dzhanibekov, free-body",
    );
    assert_bad_input(
        &["simulate", "--integrator", "euler"],
        "valid: explicit-euler-body, explicit-euler-world",
    );
    assert_bad_input(&["compare", "--integrators", "midpoint,rk5"], "rk5");
    assert_bad_input(&["simulate", "--dt", "abc"], "--dt");
    let dt_range = "is outside the accepted time step range, 1e-6 to 1 s";
    assert_bad_input(
        &["simulate", "--dt", "0"],
        &format!("'--dt <DT>': 0 {dt_range}"),
    );
    assert_bad_input(
        &["simulate", "--dt", "-0.01"],
        &format!("'--dt <DT>': -0.01 {dt_range}"),
    );
    assert_bad_input(
        &["simulate", "--dt", "1e6"],
        &format!("'--dt <DT>': 1e6 {dt_range}"),
    );
    assert_bad_input(
        &["simulate", "--dt", "NaN"],
        &format!("'--dt <DT>': NaN {dt_range}"),
    );
}

/// Vectors and seconds out of range or malformed: one line naming the flag and the range.
#[test]
fn bad_vectors_are_one_line_exit_two() {
    assert_bad_input(&["simulate", "--inertia", "1,1,5"], "triangle inequality");
    assert_bad_input(
        &["--screenshot", "x.png", "--seek-back", "-1"],
        "'--seek-back <S>': must be a positive number of seconds, got -1",
    );
    assert_bad_input(
        &["--screenshot", "x.png", "--seek-back", "NaN"],
        "'--seek-back <S>': must be a positive number of seconds, got NaN",
    );
    assert_bad_input(
        &["simulate", "--inertia", "1,-2,2"],
        "--inertia: I2: -2 is outside the accepted moment of inertia range",
    );
    // L² overflowed to inf, although the energy fits a double.
    assert_bad_input(
        &["simulate", "--inertia", "1e200,2e200,2.5e200"],
        "--inertia: I1: 1e200 is outside the accepted moment of inertia range, 1e-13 to 1e14 kg·m²",
    );
    assert_bad_input(
        &["simulate", "--omega", "0,1e5,0"],
        "--omega: y: 1e5 is outside the accepted angular velocity range",
    );
    assert_bad_input(
        &["simulate", "--inertia", "1,2"],
        "three finite comma-separated numbers",
    );
    assert_bad_input(
        &["simulate", "--omega", "1,nan,0"],
        "three finite comma-separated numbers",
    );
}

/// Durations and counts out of range: one line naming the flag and the range.
#[test]
fn bad_durations_and_counts_are_one_line_exit_two() {
    let dt_range = "is outside the accepted time step range, 1e-6 to 1 s";
    for flag in ["--duration", "--dt"] {
        for value in ["-3", "0", "nan", "inf", "1e9999", "-inf"] {
            assert_bad_input(&["simulate", flag, value], flag);
        }
    }
    assert_bad_input(
        &["simulate", "--duration", "-3"],
        "must be a positive number of seconds, got -3",
    );
    assert_bad_input(&["compare", "--duration", "-3"], "--duration");
    assert_bad_input(&["simulate", "--dt", "-3"], dt_range);
    // Whole numbers: --steps is bounded like --duration (by the same total), and a
    // negative one is a bad value, not an unknown flag.
    for flag in ["--steps", "--every"] {
        for value in ["0", "-1", "1e9999", "2.5", "100000001", "x"] {
            assert_bad_input(
                &["simulate", flag, value],
                &format!("'{flag} <N>': must be a whole number from 1 to 100000000"),
            );
        }
    }
    for value in ["0", "-3", "1e9999", "x"] {
        assert_bad_input(&["simulate", "pyramid", "--rows", value], "--rows");
    }
    assert_bad_input(
        &["compare", "free-body", "--sweep", "--duration", "1e9"],
        "at most 100000000",
    );
    // The sweep's exact reference turns the T-handle (|ω| ≈ 10 rad/s) 1e4 rad at most:
    // the flag is named, not ω or dt.
    assert_bad_input(
        &["compare", "dzhanibekov", "--sweep", "--duration", "1001"],
        "--duration: 1001 s is too long for a sweep of this scene",
    );
    assert_bad_input(
        &["simulate", "--duration", "1e12", "--dt", "1e-6"],
        "at most",
    );
    assert_bad_input(&["simulate", "--format", "xml"], "xml");
}

#[test]
fn scene_file_errors_name_the_file_and_line_and_write_nothing() {
    let dir = std::env::temp_dir().join(format!("gyrolab-scene-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = include_str!("../assets/scenes/free-body.ron");
    let typo = dir.join("typo.ron");
    std::fs::write(&typo, good.replace("duration:", "duraton:")).unwrap();
    let out = dir.join("out.csv");
    let o = gyrolab(&[
        "simulate",
        typo.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("typo.ron:") && err.contains("duraton"),
        "{err}"
    );
    assert!(!out.exists(), "no partial file");

    let two = dir.join("two.ron");
    let body_start = good.find("        (\n            name: \"box\"").unwrap();
    let body_end = good.rfind("    ],").unwrap();
    let body = &good[body_start..body_end];
    let other = body.replacen("\"box\"", "\"box 2\"", 1);
    std::fs::write(&two, good.replace(body, &format!("{body}{other}"))).unwrap();
    assert_bad_input(
        &[
            "simulate",
            two.to_str().unwrap(),
            "--integrator",
            "analytic",
        ],
        "analytic",
    );
    let missing = dir.join("missing.ron");
    assert_bad_input(&["simulate", missing.to_str().unwrap()], "missing.ron");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--rows` sizes a generated scene (a pyramid of n rows has n(n+1)/2 boxes) and
/// `--solver` picks the contact solver; both refuse what they cannot apply.
#[test]
fn rows_and_solver_flags() {
    for (rows, boxes) in [("3", 6), ("7", 28)] {
        let o = gyrolab(&["simulate", "pyramid", "--rows", rows, "--steps", "1"]);
        assert!(o.status.success(), "{}", stderr(&o));
        // A header, then one row per body at t = 0 and after the step.
        assert_eq!(stdout(&o).lines().count(), 1 + 2 * boxes, "rows {rows}");
    }
    let o = gyrolab(&["simulate", "stack", "--solver", "pgs", "--steps", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_bad_input(&["simulate", "pyramid", "--rows", "0"], "--rows");
    assert_bad_input(
        &["simulate", "dzhanibekov", "--rows", "4"],
        "no generated bodies",
    );
    assert_bad_input(
        &["simulate", "stack", "--solver", "pgx"],
        "unknown solver 'pgx'",
    );
    assert_bad_input(
        &["simulate", "dzhanibekov", "--solver", "pgs"],
        "no contacts",
    );
}

#[test]
fn sweep_writes_the_work_precision_table_as_csv() {
    let o = gyrolab(&[
        "compare",
        "free-body",
        "--sweep",
        "--duration",
        "2",
        "--integrators",
        "midpoint,dmv6",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let mut lines = text.lines();
    assert_eq!(
        lines.next().unwrap(),
        "integrator,h,steps,error,ns_per_simulated_second,substeps,listed_order,measured_order,failure"
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 14, "seven step sizes per integrator");
    for r in &rows {
        let (h, steps): (f64, f64) = (r[1].parse().unwrap(), r[2].parse().unwrap());
        assert!((h * steps - 2.0).abs() < 1e-12, "{r:?}");
        assert!(r[3].parse::<f64>().unwrap() >= 0.0);
        assert!(r[4].parse::<f64>().unwrap() > 0.0);
        let measured: f64 = r[7].parse().unwrap();
        let listed: f64 = r[6].parse().unwrap();
        assert!((measured - listed).abs() < 0.25, "{r:?}");
    }
    assert!(o.stderr.is_empty(), "{}", stderr(&o));
}

#[test]
fn sweep_refuses_a_scene_without_an_exact_solution() {
    assert_bad_input(&["compare", "stack", "--sweep"], "--sweep");
}

/// The progress bar is drawn only on a terminal: a run long enough to show it (well over
/// its one-second delay) writes nothing on a captured stderr.
#[test]
fn long_runs_stay_silent_when_stderr_is_not_a_terminal() {
    let start = std::time::Instant::now();
    let o = gyrolab(&[
        "simulate",
        "free-body",
        "--integrator",
        "momentum-clamp",
        "--steps",
        "20000000",
        "--every",
        "100000000",
    ]);
    let took = start.elapsed().as_secs_f64();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        took > 1.2,
        "the run must outlast the bar's delay, took {took} s"
    );
    assert!(o.stderr.is_empty(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 3, "header, first and last row");
}

/// The one-world scene fields refuse bad input with one line naming the file, the line
/// and the field: a rider of an unknown frame, a joint to an unknown frame, a frame part
/// of non-positive size.
#[test]
fn bad_frame_fields_name_the_file_line_and_field() {
    let dir = std::env::temp_dir().join(format!("gyrolab-frames-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let tank = include_str!("../assets/scenes/tank.ron");
    let line_of =
        |text: &str, needle: &str| text.lines().position(|l| l.contains(needle)).unwrap() + 1;
    let cases = [
        (
            "rider.ron",
            tank.replacen(
                "            frame: Some(\"hull\"),\n            parts: [\n                (shape: Cylinder",
                "            frame: Some(\"hul\"),\n            parts: [\n                (shape: Cylinder",
                1,
            ),
            "unknown frame 'hul'",
            "frame: Some(\"hul\")",
        ),
        (
            "joint.ron",
            tank.replacen("            frame: Some(\"hull\"),\n            anchor", "            frame: Some(\"hul\"),\n            anchor", 1),
            "joints[0].frame: unknown frame 'hul' (its frames: hull)",
            "frame: Some(\"hul\")",
        ),
        (
            "part.ron",
            tank.replacen("Box(half_extents: (2.2, 0.4, 1.3))", "Box(half_extents: (2.2, -0.4, 1.3))", 1),
            "frames[0].parts[0].shape.half_extents.y: -0.4 is outside the accepted size range",
            "(2.2, -0.4, 1.3)",
        ),
    ];
    for (name, text, field, at) in cases {
        assert_ne!(text, tank, "{name}: the edit applies");
        let path = dir.join(name);
        std::fs::write(&path, &text).unwrap();
        let line = line_of(&text, at);
        let file = path.to_str().unwrap();
        assert_bad_input(&["simulate", file, "--steps", "1"], field);
        assert_bad_input(
            &["simulate", file, "--steps", "1"],
            &format!("{file}:{line}:"),
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A failed write to stdout is an I/O error like any other: one line and exit 2, never a
/// panic; a reader that closes the pipe early ends the program quietly.
#[test]
fn writing_to_a_full_or_closed_stdout_never_panics() {
    let commands: [&[&str]; 6] = [
        &["scenes"],
        &["integrators"],
        &["--help"],
        &["--version"],
        &["compare", "free-body", "--duration", "0.5"],
        &["compare", "free-body", "--sweep", "--duration", "0.5"],
    ];
    for args in commands {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_gyrolab"))
            .args(args)
            .stdout(full)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains("cannot write to stdout"), "{args:?}: {err}");
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_gyrolab"))
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let o = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// With stderr full too, an error still exits with code 2 instead of panicking.
#[test]
fn an_error_with_a_full_stderr_is_still_exit_two() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_gyrolab"))
        .args(["simulate", "--dt", "nan"])
        .stderr(full)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}

/// A scene path that never ends (`/dev/zero`) is refused after a bounded read, and a
/// `--save-state` that is a pipe is refused before the run, the pipe left as it was.
#[test]
fn endless_and_special_files_are_refused() {
    let o = gyrolab(&["simulate", "/dev/zero.ron"]);
    assert_eq!(o.status.code(), Some(2));
    let dir = std::env::temp_dir().join(format!("gyrolab-special-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let zero = dir.join("zero.ron");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    let o = gyrolab(&["simulate", zero.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("larger than 16 MiB"), "{}", stderr(&o));
    let fifo = dir.join("fifo");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let o = gyrolab(&[
        "simulate",
        "--steps",
        "2",
        "--save-state",
        fifo.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--save-state: cannot write"),
        "{}",
        stderr(&o)
    );
    assert!(!std::fs::symlink_metadata(&fifo).unwrap().is_file());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A huge generated count is refused before any body is made: one line, exit 2, at once.
#[test]
fn huge_generated_counts_are_refused_before_allocating() {
    for scene in ["dominoes", "pyramid", "pile"] {
        let start = std::time::Instant::now();
        assert_bad_input(
            &[
                "simulate",
                scene,
                "--rows",
                "18446744073709551615",
                "--steps",
                "1",
            ],
            "--rows",
        );
        assert!(
            start.elapsed().as_secs_f64() < 5.0,
            "{scene} took {:?}",
            start.elapsed()
        );
    }
}

/// Hostile scene edits: (scene, edit from, edit to, where the error points, its field and
/// range).
const HOSTILE: [(&str, &str, &str, &str, &str); 6] = [
    // Panicked in the contact rows' clamp (min > max).
    (
        "pile",
        "friction: 0.6",
        "friction: 1e160",
        "1e160",
        "contacts.friction: 1e160 is outside the accepted friction range, 0 to 10",
    ),
    // Panicked in scene/frames.rs ("validated when parsed").
    (
        "tank",
        "radius: 0.1), mass: 5.0",
        "radius: 1e-170), mass: 5.0",
        "1e-170",
        "gun.shell.shape.radius: 1e-170 is outside the accepted size range",
    ),
    // One pile step took a second.
    (
        "pile",
        "-9.81",
        "-1e10",
        "-1e10",
        "gravity.y: -1e10 is outside the accepted acceleration range",
    ),
    // "inertia [NaN, NaN, NaN] is not finite" without naming the part.
    (
        "free-body",
        "(0.3, 0.2, 0.1)",
        "(0.3, 1e300, 0.1)",
        "1e300",
        "bodies[0].parts[0].shape.half_extents.y: 1e300 is outside",
    ),
    // Wrote "energy":inf.
    (
        "free-body",
        "omega: (0.4",
        "velocity: (1e160, 0.0, 0.0), omega: (0.4",
        "1e160",
        "bodies[0].velocity.x: 1e160 is outside the accepted velocity range",
    ),
    // A joint took the wrong ball.
    (
        "newtons-cradle",
        "name: \"ball 2\"",
        "name: \"ball 1\"",
        "\"ball 1\",\n            parts: [(shape: Sphere(radius: 0.1), mass: 1.0)],\n            position: (-0.215",
        "bodies[1].name: the body name 'ball 1' is already used by bodies[0]",
    ),
];

/// Scene values that panicked, hung or wrote inf or NaN are refused before the run with
/// one line naming the file, line, column, field, value and accepted range; duplicate
/// body names are refused at the second.
#[test]
fn hostile_scene_values_are_refused_at_their_field() {
    let dir = std::env::temp_dir().join(format!("gyrolab-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let scene = |name: &str| {
        std::fs::read_to_string(format!(
            "{}/assets/scenes/{name}.ron",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    };
    for (i, (name, from, to, at, message)) in HOSTILE.into_iter().enumerate() {
        let text = scene(name).replacen(from, to, 1);
        assert_ne!(text, scene(name), "{name}: the edit applies");
        let offset = text.find(at).unwrap_or_else(|| panic!("{at}"));
        let line = 1 + text[..offset].matches('\n').count();
        let column = 1 + text[..offset].rsplit('\n').next().unwrap().chars().count();
        let path = dir.join(format!("case{i}.ron"));
        std::fs::write(&path, &text).unwrap();
        let file = path.to_str().unwrap();
        let start = std::time::Instant::now();
        assert_bad_input(
            &["simulate", file, "--steps", "1"],
            &format!("{file}:{line}:{column}: {message}"),
        );
        assert!(
            start.elapsed().as_secs_f64() < 5.0,
            "{name}: {:?}",
            start.elapsed()
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A byte-order mark before a scene file is skipped.
#[test]
fn a_byte_order_mark_is_skipped() {
    let dir = std::env::temp_dir().join(format!("gyrolab-bom-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let scene = std::fs::read_to_string(format!(
        "{}/assets/scenes/free-body.ron",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let bom = dir.join("bom.ron");
    std::fs::write(&bom, format!("\u{feff}{scene}")).unwrap();
    let o = gyrolab(&["simulate", bom.to_str().unwrap(), "--steps", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 3);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `gyrolab setup CODE` says what a code opens; `--setup` and `setup` refuse a damaged
/// code with one line, exit 2, before any window.
#[test]
fn set_up_codes_on_the_command_line() {
    use gyrolab::lab::Lab;
    use gyrolab::lesson::setup::Setup;
    let mut lab = Lab::new(gyrolab::scene::Scene::load("dzhanibekov").unwrap());
    lab.apply(Input::SetDt(0.002)).unwrap();
    let code = Setup::of(&lab, None).unwrap().to_code();
    let o = gyrolab(&["setup", &code]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("scene dzhanibekov; changed: dt\n"), "{out}");
    assert!(
        out.contains("at t = 0.0000 s, dt = 0.002 s, 4 lanes:"),
        "{out}"
    );
    let damaged = format!("{}x", &code[..code.len() - 4]);
    assert_bad_input(&["setup", &damaged], "set-up code: damaged");
    // `--setup` opens the app: a build without it says so first.
    if cfg!(feature = "app") {
        assert_bad_input(&["--setup", &damaged], "set-up code: damaged");
        assert_bad_input(&["--setup", "GL9-abc"], "set-up format 9");
    }
}

/// `gyrolab lesson NAME --out FILE` writes what a student takes home as CSV: a row for
/// each question answered and each readout taken, with the lesson's title, the step
/// (from 1, as `gyrolab lesson` prints it), the readout's time, the answer and the
/// theory's text; numbers to six significant figures, not a float's last digits.
#[test]
fn a_lesson_s_readouts_export_to_csv() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("readouts.csv");
    let o = gyrolab(&["lesson", "restitution", "--out", path.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let mut csv = csv::Reader::from_path(&path).unwrap();
    let header: Vec<String> = csv.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(header, gyrolab::lesson::run::CSV_COLUMNS);
    let rows: Vec<csv::StringRecord> = csv.records().map(Result::unwrap).collect();
    let field = |row: &csv::StringRecord, name: &str| {
        row[header.iter().position(|h| h == name).unwrap()].to_string()
    };
    let title = "Restitution: how high does a ball bounce back?";
    assert_eq!(rows.len(), 2, "one question and one readout");
    let (question, readout) = (&rows[0], &rows[1]);
    assert_eq!(
        ["lesson", "step", "kind", "answer", "right", "measured"].map(|n| field(question, n)),
        [title, "1", "question", "0.64", "true", ""]
    );
    assert!(field(question, "text").starts_with("This ball leaves the ground"));
    assert_eq!(
        [
            "lesson", "step", "kind", "time", "quantity", "stated", "theory", "agrees"
        ]
        .map(|n| field(readout, n)),
        [
            title,
            "3",
            "readout",
            "2",
            "ball's first bounce over its drop",
            "0.64",
            "height goes with the square of speed: e² = 0.64",
            "true"
        ]
    );
    let measured = field(readout, "measured");
    let digits = measured
        .trim_start_matches(['-', '0', '.'])
        .replace('.', "");
    assert!(digits.len() <= 6, "{measured}");
    let printed = stdout(&o);
    let shown = printed.lines().find(|l| l.starts_with("step 3, ")).unwrap();
    let value: f64 = measured.parse().unwrap();
    assert!(shown.contains(&format!("measured {value:.4}")), "{shown}");
    // `lesson --help` names every column, so that the help cannot drift from the file.
    let help = stdout(&gyrolab(&["lesson", "--help"]))
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for column in gyrolab::lesson::run::CSV_COLUMNS {
        assert!(
            help.contains(&format!(" {column},")) || help.contains(&format!(" {column} ")),
            "{column}: {help}"
        );
    }
    // A directory that is not there: refused before the lesson runs, nothing written.
    let nowhere = dir.path().join("no/such/dir/r.csv");
    assert_bad_input(
        &["lesson", "restitution", "--out", nowhere.to_str().unwrap()],
        "--out: cannot write",
    );
}

/// `gyrolab share` makes the code `gyrolab setup` reads: a lesson at a step with an
/// answer; a step or an answer the lesson lacks is refused with one line.
#[test]
fn share_makes_a_code_of_a_lesson_part_way() {
    let o = gyrolab(&[
        "share",
        "--lesson",
        "restitution",
        "--step",
        "3",
        "--answers",
        "1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let code = stdout(&o).trim().to_owned();
    let o = gyrolab(&["setup", &code]);
    let out = stdout(&o);
    assert!(out.contains("lesson restitution at step 3"), "{out}");
    assert!(out.contains("at t = 2.0000 s"), "{out}");
    assert!(
        out.ends_with("it asks 1 question; the code carries 1 answer:\n  step 1: b) 0.64: right\n"),
        "{out}"
    );
    assert_bad_input(
        &[
            "share",
            "--lesson",
            "restitution",
            "--step",
            "3",
            "--answers",
            "1,2",
        ],
        "--answers: 2 given, lesson 'restitution' asks 1 question up to step 3",
    );
    // Two answers, one wrong, of the three questions energy-drift asks.
    let code = gyrolab(&[
        "share",
        "--lesson",
        "energy-drift",
        "--step",
        "4",
        "--answers",
        "1,0",
    ]);
    let out = stdout(&gyrolab(&["setup", stdout(&code).trim()]));
    assert!(
        out.ends_with(
            "it asks 3 questions; the code carries 2 answers:\n  \
             step 1: b) adds energy: the spin speeds up: right\n  \
             step 2: a) keeps it, like the true motion: the answer is c) loses energy: the spin slows\n"
        ),
        "{out}"
    );
    // Letters, as `setup` and `--ask` show the choices, give the same code.
    let lettered = [
        "share",
        "--lesson",
        "energy-drift",
        "--step",
        "4",
        "--answers",
        "b,a",
    ];
    assert_eq!(stdout(&gyrolab(&lettered)), stdout(&code));
    assert_bad_input(
        &["share", "--lesson", "restitution", "--step", "9"],
        "--step 9: lesson 'restitution' has 4 steps",
    );
    assert_bad_input(
        &["share", "--lesson", "restitution", "--answers", "7"],
        "question 1 has choices a to d (0 to 3)",
    );
    assert_bad_input(
        &["share", "pile", "--lesson", "restitution"],
        "cannot be used with",
    );
}

/// `gyrolab share` refuses answers to questions past the step it opens at.
#[test]
fn share_refuses_answers_past_its_step() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("two.ron");
    std::fs::write(
        &path,
        r#"(title: "two", scene: "bounce", steps: [
            Question(text: "a?", choices: ["x", "y"], answer: 0),
            Run(until: 1.0),
            Question(text: "b?", choices: ["x", "y"], answer: 1),
            Explain(text: "z"),
        ])"#,
    )
    .unwrap();
    let file = path.to_str().unwrap();
    assert_bad_input(
        &["share", "--lesson", file, "--step", "2", "--answers", "0,1"],
        "--answers: 2 given, lesson",
    );
    let o = gyrolab(&["share", "--lesson", file, "--step", "3", "--answers", "0,1"]);
    assert!(o.status.success(), "{}", stderr(&o));
}
