//! `simulate --lesson NAME --step K` and `simulate --setup CODE`: the run a student sees
//! at a step, written as `simulate` writes any run, with the linear velocity.

mod common;
use common::binary::gyrolab;
use gyrolab::lab::Input;
use std::path::{Path, PathBuf};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gyrolab-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The incline lesson with a "now try" that sets every surface's friction to 0.5: the
/// boxes, which had μ = 0.7 and 0.3 on the slope, both have 0.5 after it.
const FRICTION_LESSON: &str = r#"(
    title: "Friction on a slope",
    scene: "incline",
    steps: [
        Question(text: "Which slides?", choices: ["the μ = 0.3 box", "neither"], answer: 0),
        Run(until: 1.0),
        Readout(quantity: Speed(body: "slippery"), stated: 2.36, tolerance: 0.05,
            theory: "g(sin θ − μ cos θ) t with μ = 0.3"),
        Try(text: "Now every surface has μ = 0.5.", set: Friction(0.5)),
        Run(until: 1.0),
        Readout(quantity: Speed(body: "slippery"), stated: 0.657, tolerance: 0.1,
            theory: "g(sin θ − μ cos θ) t with μ = 0.5"),
    ],
)"#;

/// The rows of one body: time, position and velocity.
fn rows_of(csv_text: &str, body: &str) -> Vec<(f64, [f64; 3], [f64; 3])> {
    let mut reader = csv::Reader::from_reader(csv_text.as_bytes());
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    let at = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (p, v) = (at("px"), at("vx"));
    (reader.records().map(Result::unwrap))
        .filter(|r| &r[1] == body)
        .map(|r| {
            let f = |k: usize| r[k].parse::<f64>().unwrap();
            (f(0), [f(p), f(p + 1), f(p + 2)], [f(v), f(v + 1), f(v + 2)])
        })
        .collect()
}

fn speed(v: [f64; 3]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

fn simulate_lesson(path: &Path, step: &str) -> String {
    let o = gyrolab(&[
        "simulate",
        "--lesson",
        path.to_str().unwrap(),
        "--step",
        step,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

/// The run written at the "now try" step has the new friction: the slippery box's speed
/// at 1 s is the lesson runner's readout there (the same steps, so the same number), and
/// differs from its speed before the "now try" (μ = 0.3), which is the first readout's.
/// The velocity columns are the positions' rate of change.
#[test]
fn a_now_try_steps_run_has_its_friction_and_its_velocity_is_the_positions_rate() {
    let dir = temp_dir("sim-lesson");
    let path = dir.join("slope.ron");
    std::fs::write(&path, FRICTION_LESSON).unwrap();
    let lesson = gyrolab::lesson::load(path.to_str().unwrap()).unwrap();
    let measured = gyrolab::lesson::run::run(&lesson).unwrap();
    let readout = |step: usize| {
        let m = measured.iter().find(|m| m.step == step).unwrap();
        m.measured.unwrap()
    };
    for (step, readout_step) in [("6", 5), ("5", 5), ("2", 2)] {
        let rows = rows_of(&simulate_lesson(&path, step), "slippery");
        let &(t, _, v) = rows.last().unwrap();
        assert!(
            (t - 1.0).abs() < 1e-9,
            "the part's run ends at 1 s, got {t}"
        );
        let (simulated, lesson_says) = (speed(v), readout(readout_step));
        assert!(
            (simulated - lesson_says).abs() <= 1e-12 * lesson_says,
            "step {step}: simulate {simulated}, the lesson's readout {lesson_says}"
        );
    }
    assert!(
        readout(2) > 2.0 * readout(5),
        "μ = 0.3 against 0.5: {} and {}",
        readout(2),
        readout(5)
    );
    // Central differences of p against v, while the box slides (past its first 0.1 s).
    let rows = rows_of(&simulate_lesson(&path, "5"), "slippery");
    for w in rows.windows(3).skip(20) {
        let (t0, p0, _) = w[0];
        let (t2, p2, _) = w[2];
        let v = w[1].2;
        for k in 0..3 {
            let rate = (p2[k] - p0[k]) / (t2 - t0);
            assert!(
                (rate - v[k]).abs() < 2e-3,
                "t = {}: {rate} against {}",
                w[1].0,
                v[k]
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every lane of a side-by-side lesson is written, each under its integrator's name.
#[test]
fn every_lane_is_written() {
    let o = gyrolab(&["simulate", "--lesson", "energy-drift", "--steps", "3"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    let lesson = gyrolab::lesson::load("energy-drift").unwrap();
    let lanes = lesson
        .integrators
        .expect("energy-drift compares integrators");
    for name in &lanes {
        let rows = text
            .lines()
            .filter(|l| l.split(',').nth(2) == Some(name))
            .count();
        assert_eq!(rows, 4, "{name}: the start and 3 steps\n{text}");
    }
}

/// A set-up code runs what it opens: the code of the lesson at the "now try" step runs
/// as `--lesson --step` does.
#[test]
fn a_setup_code_runs_as_its_lesson_step_does() {
    let share = gyrolab(&[
        "share",
        "--lesson",
        "incline",
        "--step",
        "2",
        "--answers",
        "1",
    ]);
    assert!(
        share.status.success(),
        "{}",
        String::from_utf8_lossy(&share.stderr)
    );
    let code = String::from_utf8(share.stdout).unwrap();
    let by_code = gyrolab(&["simulate", "--setup", code.trim()]);
    assert!(
        by_code.status.success(),
        "{}",
        String::from_utf8_lossy(&by_code.stderr)
    );
    let by_step = gyrolab(&["simulate", "--lesson", "incline", "--step", "2"]);
    assert_eq!(by_code.stdout, by_step.stdout);
    assert!(!by_code.stdout.is_empty());
}

/// A bad step or code: one line, exit 2, and no file written.
#[test]
fn a_bad_step_or_code_writes_nothing() {
    let dir = temp_dir("sim-bad");
    let out = dir.join("run.csv");
    let out_arg = out.to_str().unwrap();
    let cases: [(&[&str], &str); 5] = [
        (
            &["--lesson", "incline", "--step", "9"],
            "--step 9: lesson 'incline' has 5 steps",
        ),
        (&["--lesson", "incline", "--step", "0"], "--step"),
        (&["--lesson", "inclin"], "inclin"),
        (&["--setup", "GL1-AAAA"], "--setup: set-up code: damaged"),
        (&["incline", "--lesson", "incline"], "cannot be used with"),
    ];
    for (args, needle) in cases {
        let mut all = vec!["simulate", "--out", out_arg];
        all.extend_from_slice(args);
        let o = gyrolab(&all);
        let err = String::from_utf8(o.stderr).unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {needle} not in {err}");
        assert!(!out.exists(), "{args:?} wrote {}", out.display());
    }
    for flag in [
        ["--dt", "0.01"],
        ["--integrator", "rk4"],
        ["--state", "x.state"],
    ] {
        let o = gyrolab(&["simulate", "--setup", "GL1-AAAA", flag[0], flag[1]]);
        let err = String::from_utf8(o.stderr).unwrap();
        assert!(err.contains("cannot be used with"), "{flag:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A code whose friction was changed runs with that friction from t = 0: its rows are
/// those of the scene's world with every surface set to it, stepped alike.
#[test]
fn a_setup_code_keeps_its_friction_from_the_start() {
    use gyrolab::lab::Lab;
    use gyrolab::lesson::setup::Setup;
    use gyrolab::scene::Scene;
    let scene = Scene::load("incline").unwrap();
    let mut lab = Lab::new(scene.clone());
    lab.apply(Input::SetFriction(0.2)).unwrap();
    let code = Setup::of(&lab, None).unwrap().to_code();
    let o = gyrolab(&["simulate", "--setup", &code, "--duration", "0.5"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    let mut world = scene.build();
    world.set_friction(0.2);
    for _ in 0..100 {
        world.advance(scene.dt).unwrap();
    }
    let &(t, p, v) = rows_of(&text, "slippery").last().unwrap();
    let body = world
        .bodies()
        .iter()
        .find(|b| b.name == "slippery")
        .unwrap();
    assert_eq!(t, world.time());
    assert_eq!(p, body.state.position.to_array());
    assert_eq!(v, body.state.velocity.to_array());
    // μ = 0.2 is not the box's own 0.3: the speeds differ.
    let own = gyrolab(&["simulate", "incline", "--duration", "0.5"]);
    let (_, _, v_own) = *rows_of(&String::from_utf8(own.stdout).unwrap(), "slippery")
        .last()
        .unwrap();
    assert!(speed(v) > speed(v_own) + 0.1, "{v:?} against {v_own:?}");
}
