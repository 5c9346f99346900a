//! Lessons against the simulation: every shipped lesson's readouts, taken headless, are
//! the values the lesson states within the tolerance it states, so a lesson that claims
//! something the simulation does not do fails here; and a lesson file with a mistake gets
//! one line naming file:line:field.

mod common;
use common::exploding;

use gyrolab::lab::Input;
use gyrolab::lesson::{self, Card, Lesson};

#[test]
fn every_shipped_lesson_states_what_the_simulation_measures() {
    for name in lesson::lesson_names() {
        let l = lesson::load(name).unwrap();
        let readouts = l
            .steps
            .iter()
            .filter(|s| matches!(s, Card::Readout { .. }))
            .count();
        let measured = lesson::run::run(&l).unwrap();
        assert_eq!(measured.len(), readouts, "{name}");
        assert!(readouts > 0, "{name}: a lesson measures something");
        for m in measured {
            eprintln!("{name}: {m}");
            assert!(m.agrees(), "{name}: {m}");
            if let Some(theory) = m.theory {
                assert!(
                    m.tolerance.agrees(theory, m.stated),
                    "{name}: the stated value is not theory's: {m}"
                );
            }
        }
    }
}

/// A lesson that states something false fails: the turntable's ball does not circle at
/// the table's rate.
#[test]
fn a_false_claim_disagrees() {
    let text =
        include_str!("../assets/lessons/turntable.ron").replace("stated: 0.2857", "stated: 1.0");
    let l = Lesson::parse("false.ron", &text).unwrap();
    let measured = lesson::run::run(&l).unwrap();
    assert!(!measured[0].agrees(), "{}", measured[0]);
}

/// `(from, to, needle, path, message)`: an edit of the restitution lesson, where its
/// error points and what it says.
const MISTAKES: [(&str, &str, &str, &str, &str); 9] = [
    (
        "locked: [",
        "hidden: [\"gravity\"], locked: [",
        "\"gravity\"",
        "hidden[0]",
        "no control 'gravity'",
    ),
    (
        "Run(until: 2.0)",
        "Try(text: \"x\", set: Friction(-1.0))",
        "-1.0",
        "step 2, set.Friction",
        "-1 is outside the accepted friction range",
    ),
    ("title:", "titel:", "titel", "", "titel"),
    (
        "scene: \"bounce\"",
        "scene: \"bouncy\"",
        "\"bouncy\"",
        "scene",
        "unknown scene 'bouncy'",
    ),
    (
        "(\"scene\", \"this lesson",
        "(\"gravity\", \"this lesson",
        "\"gravity\"",
        "locked[0]",
        "no control 'gravity'",
    ),
    (
        "answer: 1,",
        "answer: 4,",
        "4,",
        "step 1, answer",
        "4 is not among the 4 choices",
    ),
    (
        "ApexRatio(body: \"ball\")",
        "ApexRatio(body: \"puck\")",
        "\"puck\"",
        "step 3, quantity.body",
        "unknown body 'puck' (its bodies: ball)",
    ),
    (
        "ApexRatio(body: \"ball\")",
        "SwingPlanePeriod",
        "SwingPlanePeriod",
        "step 3, quantity",
        "needs a scene with a Foucault readout",
    ),
    (
        "ApexRatio(body: \"ball\")",
        "EnergyChange(integrator: \"eulr\")",
        "\"eulr\"",
        "step 3, quantity.integrator",
        "eulr",
    ),
];

#[test]
fn a_mistake_in_a_lesson_file_is_one_line_at_its_field() {
    let original = include_str!("../assets/lessons/restitution.ron");
    for (from, to, needle, path, message) in MISTAKES {
        let text = original.replacen(from, to, 1);
        assert_ne!(text, original, "{from}");
        let err = Lesson::parse("edited.ron", &text).unwrap_err().to_string();
        let at = text.find(needle).unwrap();
        let line = text[..at].matches('\n').count() + 1;
        assert!(
            err.starts_with(&format!("edited.ron:{line}:")),
            "{to}: {err}"
        );
        assert!(err.contains(path) && err.contains(message), "{to}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

/// Lessons that could not be taken as written are refused at their field: no steps (the
/// run would have nothing to do), the exact solution as a lane, an empty list of
/// integrators, a lane readout of an integrator the lesson does not run.
#[test]
fn a_lesson_that_cannot_be_taken_is_refused() {
    let cases = [
        ("steps: []", "steps: a lesson needs at least one step"),
        (
            "integrators: Some([\"analytic\"]), steps: [Run(until: 1.0)]",
            "integrators[0]: the exact solution is the ghost",
        ),
        (
            "integrators: Some([]), steps: [Run(until: 1.0)]",
            "integrators: names no integrator",
        ),
        (
            "integrators: Some([\"midpoint\"]), steps: [Run(until: 1.0), Readout(quantity: \
             EnergyChange(integrator: \"rk4\"), stated: 0.0, tolerance: 0.1, theory: \"\")]",
            "step 2, quantity.integrator: 'rk4' is not among the lesson's integrators (midpoint)",
        ),
        (
            "steps: [Run(until: 1.0), Readout(quantity: EnergyChange(integrator: \"rk4\"), \
             stated: 0.0, tolerance: 0.1, theory: \"\")]",
            "step 2, quantity.integrator: 'rk4' is not among the lesson's integrators: it \
             names none; a lesson names its lanes with integrators: Some([\"rk4\", ...])",
        ),
    ];
    for (rest, message) in cases {
        let text = format!("(title: \"t\", scene: \"dzhanibekov\", {rest})");
        let err = Lesson::parse("l.ron", &text).unwrap_err().to_string();
        assert!(
            err.starts_with("l.ron:1:") && err.contains(message),
            "{rest}: {err}"
        );
    }
}

/// A step that lacks a required field is named, counted from 1 as everywhere else, and
/// the missing field said: RON reports it at the step's closing bracket, which is also
/// where the field written last ends, and the error used to name that field
/// (`step 2, tolerance` for a missing `theory`).
#[test]
fn a_missing_field_names_its_step_and_the_field() {
    let original = include_str!("../assets/lessons/restitution.ron");
    let theory = "tolerance: 0.03,\n            theory: \"height goes with the square of speed: e² = 0.64\",\n        )";
    assert!(original.contains(theory));
    let text = original.replace(theory, "tolerance: 0.03)");
    let err = Lesson::parse("l.ron", &text).unwrap_err().to_string();
    let line = text[..text.find("0.03)").unwrap()].matches('\n').count() + 1;
    assert_eq!(
        err,
        format!(
            "l.ron:{line}:28: step 3: the required field `theory` is missing from this Readout"
        )
    );
}

/// The bounce readout is read from the run as it now stands: a run restarted with
/// another step part-way measures what a run at that step from the start measures (it
/// used to keep the heights of the run before the restart).
#[test]
fn the_apex_readout_is_of_the_run_after_a_restart() {
    use gyrolab::lab::Lab;
    use gyrolab::lesson::walk::Walk;
    use gyrolab::scene::Scene;
    let ratio = |before: &dyn Fn(&mut Lab), after: &dyn Fn(&mut Lab)| {
        let l = lesson::load("restitution").unwrap();
        let mut lab = Lab::new(Scene::load("bounce").unwrap());
        let mut walk = Walk::start(l, &mut lab).unwrap();
        before(&mut lab);
        walk.answer(1);
        walk.next(&mut lab).unwrap();
        walk.run_out(&mut lab, 1.5, None).unwrap();
        after(&mut lab);
        walk.run_out(&mut lab, 2.0, None).unwrap();
        walk.next(&mut lab).unwrap();
        walk.measured[2].as_ref().unwrap().measured.unwrap()
    };
    let finer = |lab: &mut Lab| lab.apply(Input::SetDt(0.002)).unwrap();
    let restarted_finer = |lab: &mut Lab| {
        lab.apply(Input::SetDt(0.002)).unwrap();
        lab.apply(Input::Restart).unwrap();
    };
    let from_the_start = ratio(&finer, &|_| {});
    let coarse = ratio(&|_| {}, &|_| {});
    assert_ne!(from_the_start, coarse, "the step changes the measurement");
    assert_eq!(ratio(&|_| {}, &restarted_finer), from_the_start);
}

/// A lesson whose run stops on a failed step (explicit Euler overflowing) is refused
/// with one line saying where, headless and when opened part-way, instead of waiting
/// for ever for a run that no longer moves.
#[test]
fn a_run_that_stops_is_refused_not_waited_for() {
    use gyrolab::lab::Lab;
    use gyrolab::lesson::walk::Walk;
    use gyrolab::scene::Scene;
    let dir = tempfile::tempdir().unwrap();
    let scene_path = exploding::exploding_scene(dir.path());
    let lesson_text = format!(
        r#"(title: "boom", scene: "{}", steps: [Run(until: 100.0), Readout(quantity: Speed(body: "box"), stated: 0.0, tolerance: 1.0, theory: "x")])"#,
        scene_path.display()
    );
    let l = Lesson::parse("boom-lesson.ron", &lesson_text).unwrap();
    let clock = std::time::Instant::now();
    let err = lesson::run::run(&l).unwrap_err();
    assert!(err.contains("the run stopped at t = 0.4000 s"), "{err}");
    assert!(!err.contains('\n'));
    let mut lab = Lab::new(Scene::load(scene_path.to_str().unwrap()).unwrap());
    let mut walk = Walk::start(l, &mut lab).unwrap();
    let err = walk.go_to(&mut lab, 1, &[]).unwrap_err();
    assert!(err.contains("the run stopped"), "{err}");
    assert!(clock.elapsed().as_secs() < 10, "{:?}", clock.elapsed());
}

/// A run to an event stops at it: the truck's first turn-over, before the run's 12 s, is
/// kept as the step's event, at the time the lab counted the flip; an event the scene
/// cannot show is refused at its field.
#[test]
fn a_run_to_an_event_stops_at_it() {
    use gyrolab::lab::Lab;
    use gyrolab::lesson::{Event, walk::Walk};
    use gyrolab::scene::Scene;
    let l = lesson::load("truck").unwrap();
    let mut lab = Lab::new(Scene::load("free-body").unwrap());
    let mut walk = Walk::start(l, &mut lab).unwrap();
    walk.go_to(&mut lab, 2, &[Some(1)]).unwrap();
    let (t, event) = walk.events[1].clone().expect("the flip came");
    assert_eq!(event, Event::Flip);
    assert!((1.0..12.0).contains(&t), "first flip at {t} s");
    assert_eq!(Some(t), lab.lanes()[0].flips().first());
    assert!(
        lab.time() - t < 2.0 * lab.dt(),
        "stopped at {} s, flip at {t} s",
        lab.time()
    );
    let text = include_str!("../assets/lessons/restitution.ron")
        .replace("Run(until: 2.0)", "Run(until: 2.0, event: Some(Break))");
    let err = Lesson::parse("break.ron", &text).unwrap_err().to_string();
    assert!(
        err.contains("event: Break needs a scene with a joint with break_force"),
        "{err}"
    );
}

/// What energy-drift's explanations say, as the simulation measures it: explicit Euler
/// on body ω ends 30 s with almost 15 times its energy and almost 4 times its |L| at
/// dt 0.01, its gain after 2 s halves with the step (12% -> 6%) while its 30 s gain
/// shrinks to 1.5 times; on world ω it loses 16% (9% at half the step) by 2 s, a quarter
/// at either step, its |L| 38%, and from 10 s spins about the crossbar (body y) without
/// turning over; midpoint keeps L, its energy error under 0.05%, and that error shrinks
/// to a quarter with the step.
#[test]
fn energy_drift_says_what_each_lane_measures() {
    use gyrolab::integrators::Integrator;
    use gyrolab::lab::metrics::FlipCounter;
    use gyrolab::scene::Scene;
    let scene = Scene::load("dzhanibekov").unwrap();
    // (energy change at 2, 10 and 30 s, largest |dE/E|, |L| at 30 s over |L₀|, the
    // spin's share about the crossbar at 10 s, flips after 10 s)
    let run = |integrator: Integrator, dt: f64| {
        let mut world = scene.build();
        world.set_integrator(integrator);
        let energy = |w: &gyrolab::world::World| w.bodies()[0].energy(w.gravity());
        let (e0, l0) = (energy(&world), world.bodies()[0].state.angular_momentum);
        let (mut at, mut largest, mut crossbar) = ([0.0; 3], 0.0f64, 0.0);
        let (mut flips, mut by_10) = (FlipCounter::default(), 0);
        for k in 1..=(30.0 / dt).round() as usize {
            world.advance(dt).unwrap();
            let change = (energy(&world) - e0) / e0;
            largest = largest.max(change.abs());
            let t = k as f64 * dt;
            for (i, at_t) in [2.0, 10.0, 30.0].iter().enumerate() {
                if (t - at_t).abs() < 0.5 * dt {
                    at[i] = change;
                }
            }
            let b = &world.bodies()[0];
            let w = b.state.body_omega(&b.props);
            flips.record(t, w.x);
            if (t - 10.0).abs() < 0.5 * dt {
                crossbar = w.y.abs() / w.length();
                by_10 = flips.flips();
            }
        }
        let l = world.bodies()[0].state.angular_momentum.length() / l0.length();
        (at, largest, l, crossbar, flips.flips() - by_10)
    };
    let (coarse, _, l, _, _) = run(Integrator::ExplicitEulerBody, 0.01);
    let (fine, ..) = run(Integrator::ExplicitEulerBody, 0.005);
    eprintln!("body ω: {coarse:?} at 0.01 s (|L| x{l}), {fine:?} at 0.005 s");
    assert!((13.0..14.0).contains(&coarse[2]), "{coarse:?}");
    assert!((3.5..4.0).contains(&l), "|L| x{l}");
    assert!((0.11..0.13).contains(&coarse[0]) && (0.055..0.065).contains(&fine[0]));
    assert!((1.45..1.6).contains(&fine[2]), "{fine:?}");
    for dt in [0.01, 0.005] {
        let (at, _, l, crossbar, flips) = run(Integrator::ExplicitEulerWorld, dt);
        eprintln!("world ω at {dt}: {at:?}, |L| x{l}, {crossbar} about y, {flips} flips");
        let two_s = if dt == 0.01 {
            -0.17..-0.15
        } else {
            -0.10..-0.085
        };
        assert!(two_s.contains(&at[0]), "{at:?}");
        assert!(
            (at[2] - at[1]).abs() < 0.005,
            "still losing after 10 s: {at:?}"
        );
        assert!((-0.26..-0.22).contains(&at[2]), "{at:?}");
        assert!((0.6..0.64).contains(&l), "|L| x{l}");
        assert!(crossbar > 0.999 && flips == 0, "{crossbar}, {flips}");
    }
    let (_, mid_coarse, l, ..) = run(Integrator::Midpoint, 0.01);
    let (_, mid_fine, ..) = run(Integrator::Midpoint, 0.005);
    assert!(
        mid_coarse < 5e-4 && (l - 1.0).abs() < 1e-12,
        "{mid_coarse}, {l}"
    );
    let ratio = mid_coarse / mid_fine;
    assert!(
        (3.6..4.4).contains(&ratio),
        "midpoint's error shrank {ratio}×"
    );
}

/// What space-pole's explanation says: over 20 s at 0.01 s, explicit Euler on body ω
/// ends with almost 6 times the energy and |L| almost 2.5 times; on world ω, under a
/// tenth of the energy left and |L| down three quarters; both drifts slower at half the
/// step; midpoint's energy to round-off.
#[test]
fn space_pole_says_what_each_lane_measures() {
    use gyrolab::integrators::Integrator;
    use gyrolab::scene::Scene;
    let scene = Scene::load("space-pole").unwrap();
    let run = |integrator: Integrator, dt: f64| {
        let mut world = scene.build();
        world.set_integrator(integrator);
        let (e0, l0) = (
            world.energy(),
            world.bodies()[0].state.angular_momentum.length(),
        );
        for _ in 0..(20.0 / dt).round() as usize {
            world.advance(dt).unwrap();
        }
        let l = world.bodies()[0].state.angular_momentum.length();
        (world.energy() / e0, l / l0)
    };
    let (body, body_l) = run(Integrator::ExplicitEulerBody, 0.01);
    let (world, world_l) = run(Integrator::ExplicitEulerWorld, 0.01);
    eprintln!("body ω: E x{body}, |L| x{body_l}; world ω: E x{world}, |L| x{world_l}");
    assert!((5.5..6.0).contains(&body) && (2.3..2.5).contains(&body_l));
    assert!((0.05..0.1).contains(&world) && (0.22..0.28).contains(&world_l));
    assert!(run(Integrator::ExplicitEulerBody, 0.005).0 < body);
    assert!(run(Integrator::ExplicitEulerWorld, 0.005).0 > world);
    assert!((run(Integrator::Midpoint, 0.01).0 - 1.0).abs() < 1e-12);
}

/// A lesson's own settings apply at its start, in order (here the T-handle spun faster
/// and its step halved); a setting out of range is refused
/// at its field.
#[test]
fn a_lesson_s_settings_apply_at_its_start() {
    use gyrolab::lab::Lab;
    use gyrolab::lesson::walk::Walk;
    use gyrolab::scene::Scene;
    let text = include_str!("../assets/lessons/intermediate-axis.ron").replacen(
        "steps: [",
        "set: [Spin(12.0), Dt(0.005)], steps: [",
        1,
    );
    let l = Lesson::parse("faster.ron", &text).unwrap();
    let mut lab = Lab::new(Scene::load("free-body").unwrap());
    Walk::start(l, &mut lab).unwrap();
    assert_eq!(lab.start().spin, 12.0);
    assert_eq!(lab.dt(), 0.005);
    let text = include_str!("../assets/lessons/restitution.ron").replacen(
        "steps: [",
        "set: [Solver((substeps: 0))], steps: [",
        1,
    );
    let err = Lesson::parse("solver.ron", &text).unwrap_err().to_string();
    assert!(err.contains("set[0].Solver.substeps"), "{err}");
}

/// `original` with the text of the string that follows `field` replaced by `with`.
fn emptied(original: &str, field: &str, with: &str) -> String {
    let start = original.find(field).unwrap() + field.len();
    let end = start + original[start..].find('"').unwrap();
    format!("{}{with}{}", &original[..start], &original[end..])
}

/// A lesson that says nothing, or offers the same thing twice, is refused with one line
/// at its field: an empty or blank title, lock reason, question, choice, theory,
/// explanation or "now try"; a choice written twice (blanks and case aside); an
/// integrator run twice.
#[test]
fn a_lesson_that_says_nothing_is_refused_at_its_field() {
    let original = include_str!("../assets/lessons/restitution.ron");
    let cases = [
        (emptied(original, "title: \"", ""), "title: \"\"", "title"),
        (
            emptied(original, "(\"scene\", \"", "  "),
            "(\"scene\", \"  \")",
            "locked[0][1]",
        ),
        (
            emptied(original, "Question(\n            text: \"", "\t"),
            "text: \"\t\"",
            "step 1, text",
        ),
        (
            original.replace("\"all of it\"", "\" \""),
            "\" \"]",
            "step 1, choices[3]",
        ),
        (
            emptied(original, "theory: \"", ""),
            "theory: \"\"",
            "step 3, theory",
        ),
        (
            emptied(original, "Explain(\n            text: \"", " \n "),
            "text: \" \n \"",
            "step 4, text",
        ),
    ];
    for (text, needle, path) in cases {
        refused_at(&text, needle, path, "must not be empty (or only blanks)");
    }
    refused_at(
        &original.replace("\"0.4\"", "\" 0.8 \""),
        "\" 0.8 \"",
        "step 1, choices[2]",
        "choice 2 repeats choice 0",
    );
    refused_at(
        &original.replace("\"all of it\"", "\"0.64\""),
        "\"0.64\"]",
        "step 1, choices[3]",
        "choice 3 repeats choice 1",
    );
    refused_at(
        &original.replace(
            "Some([\"midpoint\"])",
            "Some([\"midpoint\", \"rk4\", \"midpoint\"])",
        ),
        "\"midpoint\"]",
        "integrators[2]",
        "integrator 2 repeats integrator 0",
    );
    let tried =
        |try_: &str| original.replace("Explain(\n", &format!("{try_},\n        Explain(\n"));
    refused_at(
        &tried("Try(text: \" \", set: Dt(0.005))"),
        "Try(",
        "step 4, text",
        "must not be empty",
    );
    refused_at(
        &tried("Try(text: \"t\", set: Integrators([\"rk4\", \"rk4\"]))"),
        "Try(",
        "step 4, set.Integrators[1]",
        "integrator 1 repeats integrator 0",
    );
}

/// Requires `text` refused on one line at `needle`'s line, naming `path` and saying
/// `message`.
fn refused_at(text: &str, needle: &str, path: &str, message: &str) {
    let err = Lesson::parse("edited.ron", text).unwrap_err().to_string();
    let line = text[..text.find(needle).unwrap()].matches('\n').count() + 1;
    assert!(
        err.starts_with(&format!("edited.ron:{line}:")),
        "{needle}: {err}"
    );
    assert!(err.contains(&format!("{path}: {message}")), "{path}: {err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// Each readout a lesson takes, by its label.
fn measured(text: &str) -> Vec<lesson::measure::Measured> {
    let l = Lesson::parse("test.ron", text).unwrap_or_else(|e| panic!("{e}"));
    lesson::run::run(&l).unwrap()
}

/// A ball thrown sideways at 3 m/s with nothing to hit, read after 0.5 s: its
/// position, height and speed are free fall's (which implicit midpoint integrates
/// exactly), the path its centre travelled the parabola's arc length (summed over the
/// steps, whose chords fall short of an arc by (κ·ds)²/24 of it: 4 parts in a million).
#[test]
fn a_thrown_ball_s_readouts_are_free_fall_s() {
    let read = |quantity: &str| {
        let text = format!(
            "(title: \"t\", scene: \"tests/lessons/throw.ron\", integrators: Some([\"midpoint\"]), \
             steps: [Run(until: 0.5), Readout(quantity: {quantity}, stated: 1.0, tolerance: 1.0, theory: \"x\")])"
        );
        measured(&text)[0].measured.unwrap()
    };
    let (g, v, t) = (9.81f64, 3.0f64, 0.5f64);
    let fall = 2.0 - g * t * t / 2.0;
    // ∫√(v² + (g s)²) ds from 0 to t.
    let arc = (g * t * (v * v + (g * t).powi(2)).sqrt() + v * v * (g * t / v).asinh()) / (2.0 * g);
    let cases = [
        ("Position(body: \"ball\", axis: X)", v * t, 1e-9),
        ("Position(body: \"ball\", axis: Y)", fall, 1e-9),
        ("Position(body: \"ball\", axis: Z)", 0.0, 1e-9),
        ("Height(body: \"ball\")", fall, 1e-9),
        ("Speed(body: \"ball\")", v.hypot(g * t), 1e-9),
        ("Distance(body: \"ball\")", arc, 1e-5 * arc),
    ];
    for (quantity, exact, within) in cases {
        let m = read(quantity);
        assert!(
            (m - exact).abs() < within,
            "{quantity}: {m} against {exact}"
        );
    }
}

/// The free-fall lesson of tests/lessons/readouts.ron, on the bounce scene, agrees:
/// every readout of a body, in free fall and at its first bounce at √(2h/g); and what it
/// states is what free fall gives, not a measurement.
#[test]
fn every_readout_of_a_body_agrees_with_free_fall_and_the_first_bounce() {
    let (g, t) = (9.81f64, 0.5f64);
    let theory = [
        2.0 - g * t * t / 2.0,
        0.0,
        2.0 - g * t * t / 2.0,
        g * t * t / 2.0,
        g * t,
        (2.0 * 1.8 / g).sqrt(),
    ];
    let all = measured(include_str!("lessons/readouts.ron"));
    assert_eq!(all.len(), theory.len());
    for (m, exact) in all.iter().zip(theory) {
        eprintln!("{m}");
        assert!(m.agrees(), "{m}");
        assert!((m.stated - exact).abs() < 1e-5, "{m}: theory gives {exact}");
    }
    // The run to the bounce stopped at it.
    let l = Lesson::parse("r.ron", include_str!("lessons/readouts.ron")).unwrap();
    let mut lab = gyrolab::lab::Lab::new(l.scene().unwrap());
    let mut walk = lesson::walk::Walk::start(l, &mut lab).unwrap();
    walk.go_to(&mut lab, 7, &[]).unwrap();
    let (at, _) = walk.events[6].clone().expect("the ball bounced");
    assert!(lab.time() - at < 2.0 * lab.h(), "{} s, {at} s", lab.time());
}

/// The pendulum lesson's swings against the simple pendulum's periods: 2π√(L/g) for the
/// 10° swing and 4√(L/g)·K(sin 45°) for the 90° one (K(1/2) = 1.8540746773, Abramowitz
/// & Stegun table 17.1), each within 0.5%; the theory beside them is the exact period.
#[test]
fn the_pendulum_swings_at_the_simple_pendulum_s_periods() {
    let root = (1.0f64 / 9.81).sqrt();
    let small = std::f64::consts::TAU * root;
    let large = 4.0 * root * 1.854_074_677_301_372;
    let theta = 10f64.to_radians();
    let exact_small = small * (1.0 + theta * theta / 16.0 + 11.0 * theta.powi(4) / 3072.0);
    let all = lesson::run::run(&lesson::load("pendulum").unwrap()).unwrap();
    let [s, l] = &all[..] else {
        panic!("two readouts: {all:?}")
    };
    let off = |m: f64, exact: f64| (m / exact - 1.0).abs();
    assert!(off(s.measured.unwrap(), small) < 0.005, "{s}");
    assert!(off(l.measured.unwrap(), large) < 0.005, "{l}");
    assert!(off(s.theory.unwrap(), exact_small) < 1e-7, "{s}");
    assert!(off(l.theory.unwrap(), large) < 1e-9, "{l}");
    assert_eq!(s.quantity.to_string(), "small's swing period");
}

/// A swing's period is read far below a step: over one period at a 4.5 ms step (446.6
/// steps to a period, so that its turning points fall between steps), the 10° swing's
/// period is its exact period within 0.01% (0.2 ms; read at the steps alone, its turning
/// points are up to a step off).
#[test]
fn a_swing_period_is_read_far_below_a_step() {
    let text = include_str!("../assets/lessons/pendulum.ron")
        .replace("dt: Some(0.001)", "dt: Some(0.0045)")
        .replace("Run(until: 10.0)", "Run(until: 4.5)");
    let s = &measured(&text)[0];
    let theta = 10f64.to_radians();
    let exact = std::f64::consts::TAU
        * (1.0f64 / 9.81).sqrt()
        * (1.0 + theta * theta / 16.0 + 11.0 * theta.powi(4) / 3072.0);
    let m = s.measured.unwrap();
    assert!((m / exact - 1.0).abs() < 1e-4, "{m} s against {exact} s");
}

/// A height as old files write it, `Height(integrator: ..)`, is the first body's on that
/// lane, labelled so; the new form names the body.
#[test]
fn an_old_height_is_the_first_body_s() {
    let new = include_str!("../assets/lessons/dancing-pole.ron");
    let old = new.replace("Height(body: \"pole\", integrator:", "Height(integrator:");
    assert_ne!(old, new);
    let (old, new) = (measured(&old), measured(new));
    assert_eq!(old, new);
    assert_eq!(old[0].quantity.to_string(), "pole's height (midpoint lane)");
}

/// A tolerance in a unit of another kind than the quantity's is refused at its field,
/// saying what is accepted; one in the quantity's kind is shown as written.
#[test]
fn a_tolerance_s_unit_must_fit_its_quantity() {
    let original = include_str!("../assets/lessons/dancing-pole.ron");
    let text = original.replacen("tolerance: \"1 cm\"", "tolerance: \"2 s\"", 1);
    assert_ne!(text, original);
    refused_at(
        &text,
        "\"2 s\"",
        "step 3, tolerance",
        "'2 s' is a time; Height is in m: write a length (m, cm, mm) or a per cent",
    );
    let text = include_str!("../assets/lessons/restitution.ron")
        .replace("tolerance: 0.03", "tolerance: \"3 mm\"");
    refused_at(
        &text,
        "\"3 mm\"",
        "step 3, tolerance",
        "'3 mm' is a length; ApexRatio is a ratio: write a per cent",
    );
    let m = &measured(original)[0];
    assert_eq!(
        (m.within(), m.tolerance.is_absolute()),
        ("1 cm".into(), true)
    );
}

/// A bounce of a body the scene lacks is refused at its field, listing the bodies.
#[test]
fn a_bounce_of_no_body_lists_the_bodies() {
    let text = include_str!("../assets/lessons/restitution.ron").replace(
        "Run(until: 2.0)",
        "Run(until: 2.0, event: Some(Bounce(body: \"bal\")))",
    );
    refused_at(
        &text,
        "Bounce",
        "step 2, event.body",
        "unknown body 'bal' (its bodies: ball)",
    );
}

/// The bottom of a swing, where the rod turns the bob's fall to a rise smoothly, is no
/// bounce: a pendulum's bob never bounces.
#[test]
fn the_bottom_of_a_swing_is_no_bounce() {
    let text = "(title: \"t\", scene: \"pendulum\", steps: [Run(until: 3.0), Readout(quantity: \
                Time(event: Bounce(body: \"large\")), stated: 1.0, tolerance: \"1 s\", theory: \"x\")])";
    let m = &measured(text)[0];
    assert_eq!(m.measured, None, "{m}");
}

/// A run to rest runs until the bouncing ball has come to rest (it used to end at once,
/// before the first step had found anything awake), and the time readout says when.
#[test]
fn a_run_to_rest_waits_for_the_ball_to_settle() {
    let text = "(title: \"t\", scene: \"bounce\", integrators: Some([\"midpoint\"]), steps: [\
                Run(until: 6.0, event: Some(Rest)), Readout(quantity: Time(event: Rest), \
                stated: 1.0, tolerance: \"1 s\", theory: \"x\")])";
    let m = &measured(text)[0];
    // The bounces alone take 0.61 s · (1 + 2·0.8 + 2·0.8² + ...) until they are slower
    // than the restitution threshold: past 2 s.
    let t = m.measured.expect("it came to rest");
    assert!((2.0..6.0).contains(&t), "{m}");
    assert_eq!(m.quantity.to_string(), "time when every body is asleep");
}

/// A lesson that names no integrators runs the scene's own alone, as the lesson README
/// says, even on a single free body, where the app compares four lanes (explicit Euler's
/// first): a readout of the first lane measures the scene's integrator.
#[test]
fn a_lesson_without_integrators_runs_the_scene_s_own() {
    use gyrolab::lab::Lab;
    use gyrolab::lesson::walk::Walk;
    use gyrolab::scene::Scene;
    let text = r#"(title: "drop", scene: "bounce", steps: [Run(until: 0.3), Readout(quantity: Height(body: "ball"), stated: 1.0, tolerance: "1 m", theory: "x")])"#;
    let l = Lesson::parse("drop.ron", text).unwrap();
    let scene = Scene::load("bounce").unwrap();
    let mut lab = Lab::new(scene.clone());
    assert!(lab.lanes().len() > 1, "the app compares several lanes");
    Walk::start(l, &mut lab).unwrap();
    let names: Vec<&str> = lab.lanes().iter().map(|r| r.integrator().name()).collect();
    assert_eq!(names, [scene.integrator.as_str()]);
}

/// The ball on a rod that docs/scenes.md gives as a complete scene file: kept beside a
/// lesson, the lesson finds it from any working folder; `gyrolab scene`'s description
/// gives the rod's length; its swing period is the exact one for 30°, which the series
/// T = T₀(1 + θ²/16 + 11θ⁴/3072 + 173θ⁶/737280) gives to 1e-6; a run too short to
/// measure a period says why it measured nothing.
#[test]
fn the_doc_s_pendulum_beside_its_lesson_swings_on_time() {
    use gyrolab::scene::Scene;
    let doc = include_str!("../docs/scenes.md");
    let start = doc.find("```ron\n").unwrap() + 7;
    let scene_text = &doc[start..start + doc[start..].find("```").unwrap()];
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("my-pendulum.ron"), scene_text).unwrap();
    let scene = Scene::load(dir.path().join("my-pendulum.ron").to_str().unwrap()).unwrap();
    assert!(
        scene
            .describe()
            .contains("to (0, 4, 0) m on the world, a rod 2 m long"),
        "{}",
        scene.describe()
    );
    let lesson = |until: f64| {
        let text = format!(
            r#"(title: "rod", scene: "my-pendulum.ron", steps: [Run(until: {until}), Readout(quantity: SwingPeriod(body: "bob"), stated: 2.8866, tolerance: "0.5%", theory: "T₀(1 + θ²/16 + ...)")])"#
        );
        let path = dir.path().join("rod.ron");
        std::fs::write(&path, text).unwrap();
        Lesson::open(path.to_str().unwrap()).unwrap()
    };
    let m = &lesson::run::run(&lesson(10.0)).unwrap()[0];
    let t0 = std::f64::consts::TAU * (2.0f64 / 9.81).sqrt();
    let th = 30f64.to_radians();
    let exact =
        t0 * (1.0 + th.powi(2) / 16.0 + 11.0 * th.powi(4) / 3072.0 + 173.0 * th.powi(6) / 737280.0);
    assert!(
        (m.theory.unwrap() - exact).abs() < 1e-5 * exact,
        "{m}: {exact}"
    );
    assert!(m.agrees(), "{m}");
    let short = &lesson::run::run(&lesson(1.0)).unwrap()[0];
    assert_eq!(short.measured, None);
    assert!(
        short
            .to_string()
            .contains("measured nothing (no two swings found: run longer, if it swings at all)"),
        "{short}"
    );
}

/// A scene with joints and no `contacts` section is told the smallest section to add.
#[test]
fn joints_without_contacts_are_told_the_section_to_add() {
    let doc = include_str!("../docs/scenes.md");
    let start = doc.find("```ron\n").unwrap() + 7;
    let text = doc[start..start + doc[start..].find("```").unwrap()]
        .replace("    contacts: Some((planes: [])),\n", "");
    let err = gyrolab::scene::Scene::parse("rod.ron", &text)
        .unwrap_err()
        .to_string();
    assert!(
        err.ends_with(
            "joints: needs a `contacts` section, the solver that holds joints and heaps \
             (the smallest: contacts: Some((planes: [])))"
        ),
        "{err}"
    );
}

/// A question offers 2 to 26 choices, one letter each where `lesson --ask` letters them
/// (27 made `--ask` and `setup` read past the alphabet and abort).
#[test]
fn a_question_offers_two_to_twenty_six_choices() {
    let question = |n: usize| {
        let choices: Vec<String> = (0..n).map(|k| format!("\"choice {k}\"")).collect();
        format!(
            r#"(title: "t", scene: "bounce", steps: [Question(text: "q", choices: [{}], answer: 0)])"#,
            choices.join(", ")
        )
    };
    for n in [2, 26] {
        Lesson::parse("q.ron", &question(n)).unwrap();
    }
    for n in [1, 27] {
        let err = Lesson::parse("q.ron", &question(n))
            .unwrap_err()
            .to_string();
        assert!(
            err.ends_with(&format!(
                "step 1, choices: a question offers 2 to 26 choices (a to z, as `lesson --ask` letters them), not {n}"
            )),
            "{err}"
        );
    }
}

/// The time of a joint's break against theory: a 1 kg ball on a 1 m rod let go level
/// carries 3mg·sin φ at φ below level (centripetal mv²/L = 2mg sin φ plus gravity's
/// mg sin φ along the rod), so a rod that breaks past 1.5mg lets go at φ = 30°, at
/// t = √(L/2g)·∫₀^φ dφ/√(sin φ) (energy: φ' = √(2g sin φ / L)); the integral is taken
/// with φ = s², which leaves a smooth integrand, by Simpson's rule.
#[test]
fn a_break_comes_when_the_rod_carries_its_limit() {
    let (g, length, mass): (f64, f64, f64) = (9.81, 1.0, 1.0);
    let scene = format!(
        r#"(name: "snap", description: "a rod that snaps", gravity: (0.0, -{g}, 0.0), dt: 0.001, duration: 2.0,
            contacts: Some((planes: [])),
            bodies: [(name: "bob", parts: [(shape: Sphere(radius: 0.02), mass: {mass})], position: (1.0, 2.0, 0.0))],
            joints: [(kind: Distance, a: "bob", anchor: (1.0, 2.0, 0.0), anchor_b: (0.0, 2.0, 0.0), break_force: Some({}))])"#,
        1.5 * mass * g
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("snap.ron"), scene).unwrap();
    let top = (std::f64::consts::FRAC_PI_6).sqrt();
    let n = 2000;
    let f = |s: f64| {
        if s == 0.0 {
            2.0
        } else {
            2.0 * s / (s * s).sin().sqrt()
        }
    };
    let h = top / n as f64;
    let simpson: f64 = (0..=n)
        .map(|k| {
            let w = if k == 0 || k == n {
                1.0
            } else if k % 2 == 1 {
                4.0
            } else {
                2.0
            };
            w * f(k as f64 * h)
        })
        .sum::<f64>()
        * h
        / 3.0;
    let exact = (length / (2.0 * g)).sqrt() * simpson;
    let text = format!(
        r#"(title: "snap", scene: "snap.ron", steps: [Run(until: 2.0, event: Some(Break)), Readout(quantity: Time(event: Break), stated: {exact}, tolerance: "1%", theory: "3mg sin φ = 1.5mg at φ = 30°")])"#
    );
    let path = dir.path().join("snap-lesson.ron");
    std::fs::write(&path, text).unwrap();
    let m = &lesson::run::run(&Lesson::open(path.to_str().unwrap()).unwrap()).unwrap()[0];
    assert!((0.3..0.5).contains(&exact), "{exact}");
    assert!(m.agrees(), "{m} (exact {exact:.4} s)");
}

/// The restitution lesson's explanation and the `bounce` scene's give the first bounce's
/// ratio at the scene's step and at half of it: both as this build measures them, and
/// each nearer e² = 0.64 as the step shrinks.
#[test]
fn the_bounce_explanation_s_figures_are_measured() {
    let l = lesson::load("restitution").unwrap();
    let explained = l
        .steps
        .iter()
        .find_map(|s| match s {
            Card::Explain { text } => Some(text.clone()),
            _ => None,
        })
        .unwrap();
    let text = r#"(title: "c", scene: "bounce", integrators: Some(["midpoint"]), steps: [
        Run(until: 2.0), Readout(quantity: ApexRatio(body: "ball"), stated: 0.629, tolerance: "0.1%", theory: "x"),
        Try(text: "half", set: Dt(0.0025)), Run(until: 2.0),
        Readout(quantity: ApexRatio(body: "ball"), stated: 0.638, tolerance: "0.1%", theory: "x")])"#;
    let measured = lesson::run::run(&Lesson::parse("c.ron", text).unwrap()).unwrap();
    for m in &measured {
        assert!(m.agrees(), "{m}");
        assert!(explained.contains(&m.stated.to_string()), "{explained}");
        let scene = gyrolab::scene::Scene::load("bounce").unwrap().explanation;
        assert!(scene.contains(&m.stated.to_string()), "{scene}");
    }
    assert!(measured[0].measured < measured[1].measured);
    assert!(measured[1].measured.unwrap() < 0.64);
}

/// The README's example of `gyrolab lesson restitution` quotes the readout as the build
/// prints it.
#[test]
fn the_readme_quotes_the_restitution_readout_as_measured() {
    let readme = std::fs::read_to_string("README.md").unwrap();
    let readme = readme.split_whitespace().collect::<Vec<_>>().join(" ");
    let measured = lesson::run::run(&lesson::load("restitution").unwrap()).unwrap();
    let line = measured[0].to_string();
    let quoted = &line[line.find("measured ").expect("a measured value")..];
    assert!(readme.contains(quoted), "README.md should quote `{quoted}`");
}
