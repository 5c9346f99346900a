//! Lessons against the simulation: every shipped lesson's readouts, taken headless, are
//! the values the lesson states within the tolerance it states, so a lesson that claims
//! something the simulation does not do fails here; and a lesson file with a mistake gets
//! one line naming file:line:field.

use gyrolab::lesson::{self, Lesson, Step};

#[test]
fn every_shipped_lesson_states_what_the_simulation_measures() {
    for name in lesson::lesson_names() {
        let l = lesson::load(name).unwrap();
        let readouts = l
            .steps
            .iter()
            .filter(|s| matches!(s, Step::Readout { .. }))
            .count();
        let measured = lesson::run::run(&l).unwrap();
        assert_eq!(measured.len(), readouts, "{name}");
        assert!(readouts > 0, "{name}: a lesson measures something");
        for m in measured {
            eprintln!("{name}: {m}");
            assert!(m.agrees(), "{name}: {m}");
            if let Some(theory) = m.theory {
                let off = ((theory - m.stated) / m.stated).abs();
                assert!(
                    off <= m.tolerance,
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
        "steps[1].set.Friction",
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
        "steps[0].answer",
        "4 is not among the 4 choices",
    ),
    (
        "ApexRatio(body: \"ball\")",
        "ApexRatio(body: \"puck\")",
        "\"puck\"",
        "steps[2].quantity.body",
        "no body 'puck'",
    ),
    (
        "ApexRatio(body: \"ball\")",
        "SwingPlanePeriod",
        "SwingPlanePeriod",
        "steps[2].quantity",
        "needs a scene with a Foucault readout",
    ),
    (
        "ApexRatio(body: \"ball\")",
        "EnergyChange(integrator: \"eulr\")",
        "\"eulr\"",
        "steps[2].quantity.integrator",
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
            "steps[1].quantity.integrator: 'rk4' is not among the lesson's integrators",
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
    let finer = |lab: &mut Lab| lab.set_dt(0.002).unwrap();
    let restarted_finer = |lab: &mut Lab| {
        lab.set_dt(0.002).unwrap();
        lab.restart().unwrap();
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
    let scene = include_str!("../assets/scenes/free-body.ron")
        .replace("name: \"free-body\"", "name: \"boom\"")
        .replace("dt: 0.01", "dt: 0.05")
        .replace("integrator: \"midpoint\"", "integrator: \"explicit-euler\"")
        .replace("omega: (0.4, 0.3, 6.0)", "omega: (300.0, 200.0, 600.0)");
    let scene_path = dir.path().join("boom.ron");
    std::fs::write(&scene_path, scene).unwrap();
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
    let (t, event) = walk.events[1].expect("the flip came");
    assert_eq!(event, Event::Flip);
    assert!((1.0..12.0).contains(&t), "first flip at {t} s");
    assert_eq!(Some(t), lab.lanes()[0].flips.first());
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

/// What energy-drift's "now try" says of halving the step, as the simulation measures
/// it: explicit Euler's loss is slower at first (9% instead of 16% after 2 s), but
/// within 10 s at either step it has all but stopped (no more than half a per cent lost
/// between 10 and 30 s), tumbling over about twice a second; midpoint's largest error
/// shrinks to a quarter.
#[test]
fn halving_the_step_delays_explicit_euler_s_loss_but_not_its_end() {
    use gyrolab::integrators::Integrator;
    use gyrolab::scene::Scene;
    let scene = Scene::load("dzhanibekov").unwrap();
    // (energy change at 2, 10 and 30 s, largest |dE/E|, flips in the last 10 s)
    let run = |integrator: Integrator, dt: f64| {
        let mut world = scene.build();
        world.integrator = integrator;
        let energy = |w: &gyrolab::world::World| w.bodies[0].energy(w.gravity);
        let e0 = energy(&world);
        let (mut at, mut largest, mut flips, mut last) = ([0.0; 3], 0.0f64, 0, 0.0);
        // The spin axis, whose sign changes are the flips the lab counts.
        let b = &world.bodies[0];
        let axis = b.state.body_omega(&b.props).abs().max_position();
        let steps = (30.0 / dt).round() as usize;
        for k in 1..=steps {
            world.step(dt).unwrap();
            let change = (energy(&world) - e0) / e0;
            largest = largest.max(change.abs());
            for (i, t) in [2.0, 10.0, 30.0].iter().enumerate() {
                if (k as f64 * dt - t).abs() < 0.5 * dt {
                    at[i] = change;
                }
            }
            let b = &world.bodies[0];
            let w = b.state.body_omega(&b.props)[axis];
            if k as f64 * dt > 20.0 && w * last < 0.0 {
                flips += 1;
            }
            last = w;
        }
        (at, largest, flips)
    };
    let (coarse, _, _) = run(Integrator::ExplicitEuler, 0.01);
    let (fine, _, flips) = run(Integrator::ExplicitEuler, 0.005);
    eprintln!(
        "explicit Euler: {coarse:?} at 0.01 s, {fine:?} at 0.005 s, {flips} sign changes in 10 s"
    );
    assert!((-0.17..-0.15).contains(&coarse[0]), "{coarse:?}");
    assert!((-0.10..-0.085).contains(&fine[0]), "{fine:?}");
    for at in [coarse, fine] {
        assert!(
            (at[2] - at[1]).abs() < 0.005,
            "still losing after 10 s: {at:?}"
        );
        assert!((-0.26..-0.22).contains(&at[2]), "{at:?}");
    }
    assert!((15..=30).contains(&flips), "{flips} in 10 s");
    let (_, mid_coarse, _) = run(Integrator::Midpoint, 0.01);
    let (_, mid_fine, _) = run(Integrator::Midpoint, 0.005);
    let ratio = mid_coarse / mid_fine;
    assert!(
        (3.6..4.4).contains(&ratio),
        "midpoint's error shrank {ratio}×"
    );
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
            "steps[0].text",
        ),
        (
            original.replace("\"all of it\"", "\" \""),
            "\" \"]",
            "steps[0].choices[3]",
        ),
        (
            emptied(original, "theory: \"", ""),
            "theory: \"\"",
            "steps[2].theory",
        ),
        (
            emptied(original, "Explain(\n            text: \"", " \n "),
            "text: \" \n \"",
            "steps[3].text",
        ),
    ];
    for (text, needle, path) in cases {
        refused_at(&text, needle, path, "must not be empty (or only blanks)");
    }
    refused_at(
        &original.replace("\"0.4\"", "\" 0.8 \""),
        "\" 0.8 \"",
        "steps[0].choices[2]",
        "choice 2 repeats choice 0",
    );
    refused_at(
        &original.replace("\"all of it\"", "\"0.64\""),
        "\"0.64\"]",
        "steps[0].choices[3]",
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
        "steps[3].text",
        "must not be empty",
    );
    refused_at(
        &tried("Try(text: \"t\", set: Integrators([\"rk4\", \"rk4\"]))"),
        "Try(",
        "steps[3].set.Integrators[1]",
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
