//! Predict first, for real: while a lesson's question waits for its answer no way of
//! stepping moves the lab, and a run stops at its `until` and takes its readout there
//! however the student steps it. The app's N key, right arrow and step button call
//! `Lab::step_forward`; play (Space, the run buttons) takes live integrator steps, the
//! stages one by one as the app's systems run them: both are driven here as the app
//! drives them.

use gyrolab::lab::Lab;
use gyrolab::lesson::{self, Card, walk::Walk};
use gyrolab::scene::Scene;
use gyrolab::world::Stage;

/// One integrator step as the app's physics systems take it while time plays.
fn play(lab: &mut Lab) {
    lab.begin_integrator_step();
    for stage in Stage::ALL {
        lab.run_stage(stage);
    }
    lab.end_integrator_step();
}

/// The key, the button and play, each pressed many times.
fn press_everything(lab: &mut Lab) {
    for _ in 0..30 {
        lab.step_forward();
        lab.step();
        play(lab);
    }
}

/// Every shipped lesson that opens on a question: nothing steps, by any way, until the
/// question is answered; answered, the lab steps.
#[test]
fn nothing_steps_before_the_question_is_answered() {
    let mut asked = 0;
    for name in lesson::lesson_names() {
        let mut lab = Lab::new(Scene::load("free-body").unwrap());
        let mut walk = Walk::start(lesson::load(name).unwrap(), &mut lab).unwrap();
        let Some(&Card::Question { answer, .. }) = walk.card() else {
            continue;
        };
        asked += 1;
        press_everything(&mut lab);
        assert_eq!((lab.step_index(), lab.time()), (0, 0.0), "{name}");
        walk.answer(answer);
        walk.hold(&mut lab);
        // A second question before the run (energy-drift, space-pole) holds it still too.
        loop {
            walk.next(&mut lab).unwrap();
            let Some(&Card::Question { answer, .. }) = walk.card() else {
                break;
            };
            press_everything(&mut lab);
            assert_eq!(
                (lab.step_index(), lab.time()),
                (0, 0.0),
                "{name}, a later question"
            );
            walk.answer(answer);
            walk.hold(&mut lab);
        }
        assert!(lab.step(), "{name}: answered, the lab steps");
    }
    assert!(asked >= 8, "{asked} lessons open on a question");
}

/// The van's readouts, stepped with N to far past each run's end or played through,
/// are taken at 1.9 s and 2.1 s, as `gyrolab lesson van` takes them: the same values,
/// and its stated 8.0 and 7.6 m/s.
#[test]
fn a_run_s_readout_is_taken_at_until_however_it_is_stepped() {
    let l = lesson::load("van").unwrap();
    let headless = lesson::run::run(&l).unwrap();
    let by = |how: &dyn Fn(&mut Lab)| {
        let mut lab = Lab::new(Scene::load("free-body").unwrap());
        let mut walk = Walk::start(l.clone(), &mut lab).unwrap();
        let mut times = Vec::new();
        while walk.at + 1 < l.steps.len() {
            if let Some(&Card::Question { answer, .. }) = walk.card() {
                walk.answer(answer);
            }
            walk.hold(&mut lab);
            for _ in 0..500 {
                how(&mut lab);
            }
            if let Some(Card::Run { .. }) = walk.card() {
                times.push(lab.time());
            }
            walk.next(&mut lab).unwrap();
        }
        (
            walk.measured.into_iter().flatten().collect::<Vec<_>>(),
            times,
        )
    };
    for (how, (measured, times)) in [
        (
            "N",
            by(&|lab| {
                lab.step_forward();
            }),
        ),
        ("play", by(&play)),
    ] {
        assert_eq!(measured, headless, "{how}");
        assert_eq!(times.len(), 2, "{how}");
        for (t, until) in times.iter().zip([1.9, 2.1]) {
            assert!(
                (t - until).abs() < 1e-9,
                "{how}: stopped at {t} s, not {until}"
            );
        }
        for m in &measured {
            assert!(m.agrees(), "{how}: {m}");
        }
    }
}
