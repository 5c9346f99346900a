//! Set-up codes: a code of a lab opens a lab that runs bitwise the same; a code of a
//! lesson opens it at its step; a damaged code, or one of another version, is one line.

mod common;
use common::setup_code;

use gyrolab::integrators::Integrator;
use gyrolab::lab::Input;
use gyrolab::lab::Lab;
use gyrolab::lab::fingerprint::fingerprint;
use gyrolab::lesson::{self, Card, Setting, setup::Setup, walk::Walk};
use gyrolab::scene::Scene;
use setup_code::code_of;

/// Steps both labs `steps` times and requires every lane of both to be bitwise the same
/// after each step.
fn same_run(a: &mut Lab, b: &mut Lab, steps: usize) {
    let print = |lab: &Lab| fingerprint(lab.lanes().iter().map(|r| r.world()));
    assert_eq!(print(a), print(b), "at the start");
    for k in 1..=steps {
        a.step();
        b.step();
        assert_eq!(print(a), print(b), "after step {k}");
    }
    assert_eq!(a.time(), b.time());
}

/// Copies `a`'s set-up and opens it on a lab of another scene.
fn pasted(a: &Lab, walk: Option<&Walk>) -> (Lab, Option<Walk>, String) {
    let code = Setup::of(a, walk).unwrap().to_code();
    let mut b = Lab::new(Scene::load("pile").unwrap());
    let walk = Setup::from_code(&code).unwrap().open(&mut b).unwrap();
    (b, walk, code)
}

/// The T-handle with its start, compared integrators, dt and steps per dt changed.
#[test]
fn a_side_by_side_set_up_round_trips_bitwise_for_600_steps() {
    let mut a = Lab::new(Scene::load("dzhanibekov").unwrap());
    a.apply(Input::SetCompared(vec![
        Integrator::Rk4,
        Integrator::Dmv,
        Integrator::ExplicitEulerWorld,
    ]))
    .unwrap();
    let mut start = a.start().clone();
    start.spin *= 1.3;
    start.perturbation = 0.02;
    a.apply(Input::SetStart(start)).unwrap();
    a.apply(Input::SetDt(0.004)).unwrap();
    a.apply(Input::SetStepsPerDt(3)).unwrap();
    let (mut b, walk, code) = pasted(&a, None);
    assert!(walk.is_none());
    assert!(code.starts_with("GL1-") && code.len() < 400, "{code}");
    assert_eq!(b.compared(), a.compared());
    assert_eq!((b.dt(), b.steps_per_dt()), (0.004, 3));
    same_run(&mut a, &mut b, 600);
}

/// A contact scene with the solver and friction changed, and a single lane's integrator.
#[test]
fn a_contact_set_up_round_trips_bitwise_for_600_steps() {
    let mut a = Lab::new(Scene::load("dominoes").unwrap());
    let mut settings = *a.world().contacts().unwrap().settings();
    settings.substeps += 2;
    settings.slop *= 2.0;
    a.apply(Input::SetSolverSettings(settings)).unwrap();
    a.apply(Input::SetFriction(0.3)).unwrap();
    a.apply(Input::SwitchIntegrator(Integrator::Rk4)).unwrap();
    let (mut b, _, _) = pasted(&a, None);
    assert_eq!(b.friction(), Some(0.3));
    assert_eq!(b.lanes()[0].integrator(), Integrator::Rk4);
    same_run(&mut a, &mut b, 600);
}

/// A scene's own set-up makes a short code of its name.
#[test]
fn an_unchanged_scene_is_a_short_code() {
    let a = Lab::new(Scene::load("bounce").unwrap());
    let code = Setup::of(&a, None).unwrap().to_code();
    assert!(code.len() < 120, "{code}");
    let setup = Setup::from_code(&code).unwrap();
    assert_eq!(setup.describe(), "scene bounce");
}

/// A lesson's set-up opens at its step, the runs before it taken: the readout reached is
/// the one the original walk measured.
#[test]
fn a_lesson_set_up_opens_at_its_step() {
    let l = lesson::load("restitution").unwrap();
    let mut a = Lab::new(Scene::load("free-body").unwrap());
    let mut walk = Walk::start(l, &mut a).unwrap();
    walk.answer(0);
    walk.next(&mut a).unwrap();
    walk.run_out(&mut a, 2.0, None).unwrap();
    walk.next(&mut a).unwrap();
    assert_eq!(walk.at, 2);
    let (mut b, opened, _) = pasted(&a, Some(&walk));
    let opened = opened.expect("a lesson");
    assert_eq!(opened.at, 2);
    assert_eq!(opened.answers, walk.answers, "the student's answer travels");
    assert_eq!(opened.lesson.title, walk.lesson.title);
    assert_eq!(opened.measured[2], walk.measured[2]);
    same_run(&mut a, &mut b, 100);
}

/// Opens a code on a fresh lab; its error, which must be one line.
fn refusal(code: &str) -> String {
    let mut lab = Lab::new(Scene::load("free-body").unwrap());
    let before = fingerprint(lab.lanes().iter().map(|r| r.world()));
    let err = Setup::from_code(code)
        .and_then(|s| s.open(&mut lab).map(|_| ()))
        .unwrap_err();
    assert!(!err.contains('\n'), "{err}");
    assert!(err.starts_with("set-up code"), "{err}");
    let after = fingerprint(lab.lanes().iter().map(|r| r.world()));
    assert_eq!(lab.scene().name, "free-body", "{err}");
    assert_eq!(
        before, after,
        "a refused code leaves the lab as it was: {err}"
    );
    err
}

#[test]
fn a_damaged_or_foreign_code_is_one_line() {
    let a = Lab::new(Scene::load("dzhanibekov").unwrap());
    let code = Setup::of(&a, None).unwrap().to_code();
    let mut flipped = code.clone().into_bytes();
    let last = flipped.len() - 3;
    flipped[last] = if flipped[last] == b'A' { b'B' } else { b'A' };
    let flipped = String::from_utf8(flipped).unwrap();
    for (bad, says) in [
        (flipped.as_str(), "damaged"),
        (&code[..code.len() - 5], "damaged"),
        ("GL1-", "damaged"),
        ("GL1-!!!!", "damaged"),
        ("hello", "not a gyrolab set-up code"),
        ("", "not a gyrolab set-up code"),
        (
            &code.replacen("GL1-", "GL2-", 1),
            "another version of gyrolab",
        ),
    ] {
        let err = refusal(bad);
        assert!(err.contains(says), "{bad:?}: {err}");
    }
    // A built-in scene that is not this gyrolab's, and one that does not exist.
    let other = code_of(r#"{"scene":{"Builtin":{"name":"bounce","hash":1}}}"#, 1);
    assert!(refusal(&other).contains("another version of scene 'bounce'"));
    let missing = code_of(r#"{"scene":{"Builtin":{"name":"nowhere","hash":1}}}"#, 1);
    assert!(refusal(&missing).contains("nowhere"));
    // Values the app's controls refuse are refused at the setting.
    let hash = Scene::load("bounce").unwrap().source_hash;
    let scene = format!(r#"{{"Builtin":{{"name":"bounce","hash":{hash}}}}}"#);
    for (field, says) in [
        (r#""dt":-1"#, "time step"),
        (r#""steps_per_dt":0"#, "steps per dt"),
        (r#""friction":1e300"#, "friction"),
        (r#""compared":[]"#, "at least one"),
        (
            r#""lesson":{"source":{"Builtin":{"name":"restitution","hash":0}},"step":0}"#,
            "another version of lesson",
        ),
        (r#""unknown":1"#, "made by another version of gyrolab"),
    ] {
        let err = refusal(&code_of(&format!(r#"{{"scene":{scene},{field}}}"#), 1));
        assert!(err.contains(says), "{field}: {err}");
    }
}

/// A scene opened from a file travels whole in its code: the code opens where the file
/// is gone.
#[test]
fn a_scene_file_travels_in_its_code() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mine.ron");
    let text =
        include_str!("../assets/scenes/bounce.ron").replace("name: \"bounce\"", "name: \"mine\"");
    std::fs::write(&path, &text).unwrap();
    let mut a = Lab::new(Scene::load(path.to_str().unwrap()).unwrap());
    let code = Setup::of(&a, None).unwrap().to_code();
    drop(dir);
    let mut b = Lab::new(Scene::load("free-body").unwrap());
    Setup::from_code(&code).unwrap().open(&mut b).unwrap();
    assert_eq!(b.scene().name, "mine");
    same_run(&mut a, &mut b, 200);
}

/// An answer that is not one of its question's choices, or answers past the lesson's
/// steps, are refused.
#[test]
fn a_set_up_s_answers_are_checked() {
    let hash = Scene::load("bounce").unwrap().source_hash;
    let lesson_hash = twox_hash::XxHash3_64::oneshot(
        include_str!("../assets/lessons/restitution.ron").as_bytes(),
    );
    let code = |answers: &str| {
        code_of(
            &format!(
                r#"{{"scene":{{"Builtin":{{"name":"bounce","hash":{hash}}}}},"lesson":{{"source":{{"Builtin":{{"name":"restitution","hash":{lesson_hash}}}}},"step":2,"answers":{answers}}}}}"#
            ),
            1,
        )
    };
    let mut lab = Lab::new(Scene::load("free-body").unwrap());
    let walk = Setup::from_code(&code("[1]"))
        .unwrap()
        .open(&mut lab)
        .unwrap();
    assert_eq!(walk.unwrap().answers[0], Some(1));
    assert!(refusal(&code("[99]")).contains("not one of its choices"));
    assert!(refusal(&code("[null,null,null,null,null]")).contains("5 answers"));
}

/// A hinge motor set from the panel travels in the code.
#[test]
fn a_motor_set_from_the_panel_travels() {
    let mut a = Lab::new(Scene::load("slider-crank").unwrap());
    let (joint, mut motor) = a.motors()[0];
    motor.speed *= 0.5;
    a.apply(Input::SetMotor { joint, motor }).unwrap();
    let (mut b, _, code) = pasted(&a, None);
    assert_eq!(b.motors(), a.motors());
    assert!(
        Setup::from_code(&code)
            .unwrap()
            .describe()
            .contains("motors")
    );
    same_run(&mut a, &mut b, 300);
}

/// Start conditions the lab refused (kept only as being edited) are not copied.
#[test]
fn refused_start_conditions_are_not_copied() {
    use gyrolab::lab::presets::InertiaPreset;
    let mut lab = Lab::new(Scene::load("dzhanibekov").unwrap());
    let mut start = lab.start().clone();
    start.preset = InertiaPreset::Custom;
    start.custom = glam::DVec3::new(1.0, 1.0, 5.0);
    assert!(lab.apply(Input::SetStart(start)).is_err());
    let err = Setup::of(&lab, None).unwrap_err();
    assert!(err.contains("being edited are refused"), "{err}");
}

/// A code pairing a lesson with another scene, or a lesson whose runs before its step
/// together take more than a lesson's steps, is refused with one line; a code's own
/// finer step is not the replay's, but is taken where the code was copied.
#[test]
fn a_lesson_on_another_scene_or_too_long_a_replay_is_refused() {
    let lesson_hash = twox_hash::XxHash3_64::oneshot(
        include_str!("../assets/lessons/restitution.ron").as_bytes(),
    );
    let lesson = format!(
        r#""lesson":{{"source":{{"Builtin":{{"name":"restitution","hash":{lesson_hash}}}}},"step":2}}"#
    );
    let tank = Scene::load("tank").unwrap().source_hash;
    let code = code_of(
        &format!(r#"{{"scene":{{"Builtin":{{"name":"tank","hash":{tank}}}}},{lesson}}}"#),
        1,
    );
    assert!(refusal(&code).contains("its lesson is of scene 'bounce', not of 'tank'"));
    let bounce = format!(
        r#""scene":{{"Builtin":{{"name":"bounce","hash":{}}}}}"#,
        Scene::load("bounce").unwrap().source_hash
    );
    let code = code_of(
        &format!(r#"{{{bounce},"dt":1e-6,"steps_per_dt":64,{lesson}}}"#),
        1,
    );
    let mut lab = Lab::new(Scene::load("free-body").unwrap());
    let walk = Setup::from_code(&code).unwrap().open(&mut lab).unwrap();
    assert_eq!((lab.dt(), lab.steps_per_dt()), (1e-6, 64));
    assert_eq!(
        readout_bits(&walk.unwrap()),
        readout_bits(&walked("restitution", 2).1)
    );
    let text = include_str!("../assets/lessons/restitution.ron")
        .replace("integrators: Some", "dt: Some(0.0001), integrators: Some")
        .replace(
            "Run(until: 2.0),",
            "Run(until: 9.0), Try(text: \"again\", set: Dt(0.0001)), Run(until: 9.0),",
        );
    gyrolab::lesson::Lesson::parse("long.ron", &text).expect("each run within the steps");
    let text = serde_json::to_string(&text).unwrap();
    let code = code_of(
        &format!(
            r#"{{{bounce},"lesson":{{"source":{{"File":{{"path":"long.ron","text":{text}}}}},"step":4}}}}"#
        ),
        1,
    );
    assert!(
        refusal(&code).contains("more than 100000 steps"),
        "{}",
        refusal(&code)
    );
}

/// A lesson walked as the student walks it, every question answered right, to step `to`.
fn walked(name: &str, to: usize) -> (Lab, Walk) {
    let l = lesson::load(name).unwrap();
    let mut lab = Lab::new(l.scene().unwrap());
    let mut walk = Walk::start(l, &mut lab).unwrap();
    while walk.at < to {
        match walk.card() {
            Some(Card::Question { answer, .. }) => walk.answer(*answer),
            Some(Card::Run { until, event }) => {
                walk.run_out(&mut lab, *until, event.as_ref()).unwrap()
            }
            _ => {}
        }
        let at = walk.at;
        walk.next(&mut lab).unwrap();
        assert!(walk.at > at, "{name}: stuck at step {at}");
    }
    (lab, walk)
}

/// Each readout measured so far, as bits.
fn readout_bits(walk: &Walk) -> Vec<Option<(Option<u64>, Option<u64>)>> {
    (walk.measured.iter())
        .map(|m| {
            m.as_ref()
                .map(|m| (m.measured.map(f64::to_bits), m.theory.map(f64::to_bits)))
        })
        .collect()
}

/// A code copied at any step of energy-drift, before or after its "now try" halves the
/// step, replays each earlier run at the step of its own part of the lesson: every
/// readout and every lane are bitwise as the walk that was copied had them, and both
/// run on alike. (A code copied after the try used to replay the runs before it at the
/// halved step.)
#[test]
fn a_code_copied_after_a_try_replays_its_earlier_runs_bitwise() {
    let steps = lesson::load("energy-drift").unwrap().steps;
    let first_try = (steps.iter())
        .position(|s| {
            matches!(
                s,
                Card::Try {
                    set: Setting::Dt(_),
                    ..
                }
            )
        })
        .expect("energy-drift changes the step in a \"now try\"");
    let before = (0..first_try).filter(|&k| matches!(steps[k], Card::Readout { .. }));
    assert!(before.count() > 0, "a readout before the try");
    for to in 0..steps.len() {
        let (mut a, walk) = walked("energy-drift", to);
        let (mut b, opened, code) = pasted(&a, Some(&walk));
        let opened = opened.expect("a lesson");
        assert_eq!(opened.at, to);
        assert_eq!(readout_bits(&opened), readout_bits(&walk), "at step {to}");
        assert_eq!(a.dt().to_bits(), b.dt().to_bits(), "at step {to}");
        let decoded = Setup::from_code(&code).unwrap().describe();
        assert!(
            !decoded.contains("dt"),
            "the try's step is the lesson's: {decoded}"
        );
        same_run(&mut a, &mut b, 50);
    }
    let (after, _) = walked("energy-drift", first_try + 1);
    let (start, _) = walked("energy-drift", 0);
    assert_ne!(after.dt(), start.dt(), "the try changes the step");
}

/// What the student changed at a lesson's step travels, and opens at that step: the
/// runs before it are replayed as the lesson gives them.
#[test]
fn a_change_made_during_a_lesson_applies_where_the_code_was_copied() {
    let (mut a, walk) = walked("restitution", 2);
    let dt = a.dt() / 2.0;
    a.apply(Input::SetDt(dt)).unwrap();
    let (mut b, opened, code) = pasted(&a, Some(&walk));
    assert!(Setup::from_code(&code).unwrap().describe().contains("dt"));
    assert_eq!(b.dt(), dt);
    assert_eq!(readout_bits(&opened.unwrap()), readout_bits(&walk));
    same_run(&mut a, &mut b, 100);
}

/// A scene and a lesson opened from files travel on in a code made where a code of them
/// was opened: the second code carries what the first carried, not what a file now at
/// that path holds, and opens where there is no file at all.
#[test]
fn files_travel_on_in_a_code_of_a_code() {
    let dir = tempfile::tempdir().unwrap();
    let (scene_path, lesson_path) = (dir.path().join("mine.ron"), dir.path().join("l.ron"));
    let scene_path = scene_path.to_str().unwrap().to_owned();
    let lesson_path = lesson_path.to_str().unwrap().to_owned();
    let scene_text =
        include_str!("../assets/scenes/bounce.ron").replace("name: \"bounce\"", "name: \"mine\"");
    let lesson_text = include_str!("../assets/lessons/restitution.ron")
        .replace("scene: \"bounce\"", &format!("scene: {scene_path:?}"))
        .replace("title: \"Restitution", "title: \"Mine");
    std::fs::write(&scene_path, &scene_text).unwrap();
    std::fs::write(&lesson_path, &lesson_text).unwrap();
    let mut a = Lab::new(Scene::load("free-body").unwrap());
    let mut walk = Walk::start(lesson::load(&lesson_path).unwrap(), &mut a).unwrap();
    walk.go_to(&mut a, 2, &[Some(1)]).unwrap();
    let (mut b, opened, _) = pasted(&a, Some(&walk));
    let original = walk;
    // The files change under the same paths, then go.
    let other = |t: &str| t.replace("Mine", "Other").replace("\"mine\"", "\"other\"");
    std::fs::write(&scene_path, other(&scene_text)).unwrap();
    std::fs::write(&lesson_path, other(&lesson_text)).unwrap();
    let (mut c, again, _) = pasted(&b, opened.as_ref());
    drop(dir);
    let (mut d, last, _) = pasted(&c, again.as_ref());
    for (lab, walk) in [(&b, &opened), (&c, &again), (&d, &last)] {
        let walk = walk.as_ref().expect("the lesson travels");
        assert_eq!(lab.scene().name, "mine");
        assert!(
            walk.lesson.title.starts_with("Mine"),
            "{}",
            walk.lesson.title
        );
        assert_eq!((walk.at, walk.answers[0]), (2, Some(1)));
        assert_eq!(readout_bits(walk), readout_bits(&original));
    }
    same_run(&mut a, &mut d, 100);
    same_run(&mut b, &mut c, 100);
}

/// Anything after a code's data is refused: a code pasted twice (with or without a
/// blank or a line break between), or with more characters after it. (Most doubled
/// codes used to open as the first.)
#[test]
fn a_code_pasted_twice_is_refused() {
    let mut codes = Vec::new();
    for name in [
        "dzhanibekov",
        "bounce",
        "pile",
        "dominoes",
        "slider-crank",
        "tank",
    ] {
        let mut lab = Lab::new(Scene::load(name).unwrap());
        codes.push(Setup::of(&lab, None).unwrap().to_code());
        lab.apply(Input::SetDt(lab.dt() / 2.0)).unwrap();
        codes.push(Setup::of(&lab, None).unwrap().to_code());
    }
    let (lab, walk) = walked("restitution", 2);
    codes.push(Setup::of(&lab, Some(&walk)).unwrap().to_code());
    for code in &codes {
        Setup::from_code(code).expect("the code itself opens");
        for bad in [
            format!("{code}{code}"),
            format!("{code} {code}"),
            format!("{code}\n{code}"),
            format!("{code}GL1-"),
            format!("{code}AAAA"),
        ] {
            let err = refusal(&bad);
            assert!(err.contains("damaged"), "{bad}: {err}");
        }
    }
}

/// A lesson that does not set its integrators runs the scene's own alone, whatever
/// lanes were compared when it was opened (a readout of the first lane must not measure
/// whichever integrator the student had first); its code replays it.
#[test]
fn a_lesson_s_runs_replay_the_lanes_it_was_opened_with() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lanes.ron").to_str().unwrap().to_owned();
    let text = include_str!("../assets/lessons/restitution.ron")
        .replace("integrators: Some([\"midpoint\"]),", "");
    std::fs::write(&path, text).unwrap();
    let mut a = Lab::new(Scene::load("bounce").unwrap());
    a.apply(Input::SetCompared(vec![Integrator::Rk4])).unwrap();
    let mut walk = Walk::start(lesson::load(&path).unwrap(), &mut a).unwrap();
    walk.go_to(&mut a, 2, &[]).unwrap();
    assert_eq!(a.compared(), [Integrator::Midpoint], "bounce's own");
    let (mut b, opened, _) = pasted(&a, Some(&walk));
    assert_eq!(readout_bits(&opened.unwrap()), readout_bits(&walk));
    same_run(&mut a, &mut b, 100);
}
