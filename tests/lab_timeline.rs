//! The timeline: scrubbing back, stepping back and replaying reproduce the recorded
//! states bitwise; a setting changed under a replay trips the divergence flag (and
//! nothing else does); a branch discards the old future; the history stays within its
//! memory budget over a long run.

use glam::DVec3;
use gyrolab::body::inertia::Shape;
use gyrolab::integrators::Integrator;
use gyrolab::lab::Input;
use gyrolab::lab::Lab;
use gyrolab::scene::Scene;
use gyrolab::world::grab::Grab;

/// Every bit of every body's state in every lane and the ghost, and the times.
fn bits(lab: &Lab) -> Vec<u64> {
    let mut out = Vec::new();
    for run in lab.lanes().iter().chain(lab.ghost()) {
        out.push(run.world().time().to_bits());
        for b in run.world().bodies() {
            let s = &b.state;
            let all = [
                s.position.to_array(),
                s.velocity.to_array(),
                s.angular_momentum.to_array(),
            ];
            out.extend(all.iter().flatten().map(|x| x.to_bits()));
            out.extend(s.orientation.to_array().map(f64::to_bits));
        }
    }
    out
}

fn lab(name: &str) -> Lab {
    Lab::new(Scene::load(name).unwrap())
}

/// A run with inputs of every kind a multi-body scene takes: a body held, dragged and
/// let go, an integrator switch, a setting change, a box dropped in. The states of every
/// step, from step 0.
fn eventful_run(lab: &mut Lab, steps: u64) -> Vec<Vec<u64>> {
    let mut seen = vec![bits(lab)];
    for i in 1..=steps {
        match i {
            20 => {
                let p = lab.world().bodies()[1].state.position;
                lab.apply(Input::Hold {
                    lane: 0,
                    grab: Grab {
                        body: 1,
                        local: DVec3::ZERO,
                        target: p,
                    },
                })
                .unwrap();
            }
            21..=40 => lab
                .apply(Input::DragTo(DVec3::new(0.0, 3.0, 0.05 * i as f64)))
                .unwrap(),
            41 => lab.apply(Input::Release).unwrap(),
            50 => lab.apply(Input::SwitchIntegrator(Integrator::Rk4)).unwrap(),
            60 => lab.apply(Input::SetFriction(0.2)).unwrap(),
            70 => lab
                .apply(Input::Spawn {
                    shape: Shape::Box {
                        half_extents: DVec3::splat(0.2),
                    },
                    velocity: DVec3::new(-2.0, 0.0, 0.0),
                    position: None,
                })
                .unwrap(),
            _ => {}
        }
        lab.step();
        assert_eq!(lab.step_index(), i);
        seen.push(bits(lab));
    }
    seen
}

#[test]
fn seeking_stepping_back_and_replaying_reproduce_the_recording_bitwise() {
    let mut lab = lab("stack");
    let seen = eventful_run(&mut lab, 120);
    let r = lab.recorded();
    assert_eq!((r.first, r.last), (0, 120));
    assert_eq!(r.last_time, lab.time());
    // Anywhere, in any order: just after a keyframe, just before, across every input.
    for step in [37, 0, 120, 15, 71, 69, 8, 7, 55, 100] {
        assert!(lab.seek(step), "step {step} matched its recording");
        assert_eq!(lab.step_index(), step);
        assert_eq!(bits(&lab), seen[step as usize], "seek to {step}");
    }
    lab.seek(30);
    for step in (10..30).rev() {
        assert!(lab.step_back());
        assert_eq!(bits(&lab), seen[step], "back to {step}");
    }
    let mut step = 10;
    while let Some(matched) = lab.replay_step() {
        step += 1;
        assert!(matched);
        assert_eq!(bits(&lab), seen[step], "replayed {step}");
    }
    assert_eq!(step, 120);
    assert_eq!(lab.diverged(), None, "nothing changed, nothing diverged");
    assert_eq!(lab.world().bodies().len(), 11, "the dropped box is back");
}

/// Box2D's samples flag a replay that diverges: a setting changed under the replay
/// trips the flag at the first step after the change, and it stays set.
#[test]
fn a_setting_changed_under_a_replay_trips_the_divergence_flag() {
    let mut lab = lab("stack");
    eventful_run(&mut lab, 100);
    lab.seek(75);
    for _ in 0..5 {
        assert_eq!(lab.replay_step(), Some(true));
    }
    assert_eq!(lab.diverged(), None);
    let mut settings = *lab.world().contacts().unwrap().settings();
    settings.substeps += 1;
    lab.apply(Input::SetSolverSettings(settings)).unwrap();
    assert_eq!(lab.replay_step(), Some(false));
    assert_eq!(lab.diverged(), Some(81));
    while lab.replay_step().is_some() {}
    assert_eq!(
        lab.diverged(),
        Some(81),
        "sticky: the first step that differed"
    );
}

/// Play from a moment scrubbed back to discards the old future: plots, export and the
/// timeline end there and go on from it.
#[test]
fn playing_from_the_past_branches() {
    let mut lab = lab("tumbling-crowd");
    let seen = eventful_run_free(&mut lab, 60);
    lab.seek(25);
    let t = lab.time();
    lab.step();
    assert_eq!(lab.recorded().last, 26);
    assert_eq!(lab.step_index(), 26);
    assert_eq!(
        bits(&lab),
        seen[26],
        "the same inputs before the branch, the same step"
    );
    assert!(
        lab.recorders().series()[0]
            .samples
            .iter()
            .all(|s| s.t <= lab.time())
    );
    assert!(
        lab.recorders().switches().iter().all(|&(at, _)| at <= t),
        "the switch at step 30 went"
    );
    assert_eq!(lab.lanes()[0].integrator(), Integrator::Midpoint);
    lab.seek(0);
    assert_eq!(bits(&lab), seen[0]);
    assert!(lab.seek(26));
}

fn eventful_run_free(lab: &mut Lab, steps: u64) -> Vec<Vec<u64>> {
    let mut seen = vec![bits(lab)];
    for i in 1..=steps {
        if i == 30 {
            lab.apply(Input::SwitchIntegrator(Integrator::ExplicitEulerWorld))
                .unwrap();
        }
        if i == 40 {
            lab.apply(Input::SetStepsPerDt(3)).unwrap();
        }
        lab.step();
        seen.push(bits(lab));
    }
    seen
}

/// An edit under a replay, then play: the branch starts at the edit, and the steps from
/// there to the moment shown are recorded as they ran, so seeking among them gives back
/// what was shown.
#[test]
fn a_branch_keeps_the_edits_made_under_a_replay() {
    let mut lab = lab("stack");
    eventful_run(&mut lab, 80);
    lab.seek(60);
    lab.apply(Input::SetFriction(0.05)).unwrap();
    let mut shown = vec![bits(&lab)];
    for _ in 0..10 {
        lab.replay_step();
        shown.push(bits(&lab));
    }
    lab.step();
    assert_eq!(lab.recorded().last, 71);
    assert_eq!(lab.diverged(), None, "the branch is its own recording");
    for (k, expected) in shown.iter().enumerate() {
        assert!(lab.seek(60 + k as u64));
        assert_eq!(&bits(&lab), expected, "step {}", 60 + k);
    }
}

/// A small budget and a long run of the pile: the history's measured size stays under
/// it, the oldest history goes, and every moment left can still be shown.
#[test]
fn the_history_stays_within_its_memory_budget() {
    let mut lab = lab("pile");
    let budget = 32 << 20;
    lab.set_history_budget(budget);
    let mut seen = std::collections::BTreeMap::new();
    for i in 1..=3000u64 {
        if i == 1000 {
            // Wakes the pile: keyframes of moving boxes are the largest.
            lab.apply(Input::Spawn {
                shape: Shape::Sphere { radius: 0.5 },
                velocity: DVec3::new(-15.0, 0.0, 0.0),
                position: None,
            })
            .unwrap();
        }
        lab.step();
        assert!(
            lab.timeline().heap_bytes() <= budget,
            "step {i}: {} bytes",
            lab.timeline().heap_bytes()
        );
        if i % 50 == 0 {
            seen.insert(i, bits(&lab));
        }
    }
    let r = lab.recorded();
    assert!(r.first > 0, "the oldest history went");
    let keyframes: Vec<u64> = lab.timeline().keyframe_steps().collect();
    assert!(keyframes.len() >= 2, "{keyframes:?}");
    assert!(
        keyframes
            .windows(2)
            .all(|w| w[1] - w[0] <= gyrolab::lab::timeline::MAX_GAP),
        "thinned within the widest gap: {keyframes:?}"
    );
    assert!(
        keyframes
            .windows(2)
            .any(|w| w[1] - w[0] > gyrolab::lab::timeline::KEYFRAME_INTERVAL),
        "the older history thinned: {keyframes:?}"
    );
    for (&step, expected) in seen.range(r.first..) {
        assert!(lab.seek(step));
        assert_eq!(&bits(&lab), expected, "step {step}");
    }
}

/// The app's timeline drags by time: the nearest recorded step is shown, times outside
/// the range go to its ends, and the trail points ahead of the moment are counted.
#[test]
fn seeking_by_time_shows_the_nearest_recorded_step() {
    let mut lab = lab("dzhanibekov");
    for _ in 0..50 {
        lab.step();
    }
    let r = lab.recorded();
    assert_eq!((r.first_time, r.last_time), (0.0, lab.time()));
    let dt = lab.dt();
    assert!(lab.seek_time(37.0 * dt + 0.4 * dt));
    assert_eq!(lab.step_index(), 37);
    assert_eq!(lab.steps_ahead(), 13);
    lab.seek_time(12.0 * dt - 0.3 * dt);
    assert_eq!(lab.step_index(), 12);
    lab.seek_time(-5.0);
    assert_eq!(lab.step_index(), 0);
    lab.seek_time(1e9);
    assert_eq!((lab.step_index(), lab.steps_ahead()), (50, 0));
}

/// With the history off nothing is recorded and there is nowhere to go back to; turned
/// on again, it starts at the next step.
#[test]
fn the_history_can_be_turned_off_and_on() {
    let mut lab = lab("stack");
    for _ in 0..20 {
        lab.step();
    }
    lab.seek(10);
    lab.set_history(false);
    assert_eq!(lab.step_index(), 10, "the moment shown became the present");
    for _ in 0..20 {
        lab.step();
    }
    assert!(lab.timeline().is_empty());
    assert_eq!(lab.timeline().heap_bytes(), 0);
    let here = bits(&lab);
    assert!(lab.step_back());
    assert_eq!(bits(&lab), here, "nothing to go back to");
    lab.set_history(true);
    for _ in 0..5 {
        lab.step();
    }
    let r = lab.recorded();
    assert_eq!((r.first, r.last), (31, 35));
    assert!(lab.seek(31));
}

/// A plugin that pushes between the forces and frames stages, as the app's plugins do
/// (`PhysicsSet` in `src/app/physics.rs`): its loads are logged inputs, so seeking,
/// stepping back and replaying reproduce the pushed run bitwise, with two integrator
/// steps per physics step and a push in only some of them.
#[test]
fn seek_and_replay_are_bitwise_with_a_plugin_that_adds_loads_between_stages() {
    use gyrolab::integrators::Loads;
    use gyrolab::world::Stage;
    let mut lab = lab("stack");
    lab.apply(Input::SetStepsPerDt(2)).unwrap();
    let mut seen = vec![bits(&lab)];
    let mut unpushed = lab.clone();
    for i in 1..=80u64 {
        for sub in 0..2u64 {
            lab.begin_integrator_step();
            for stage in Stage::ALL {
                lab.run_stage(stage);
                if stage == Stage::Forces && (i + sub) % 3 != 0 {
                    let load = Loads {
                        force: DVec3::new(30.0, 0.0, 0.1 * i as f64),
                        torque: DVec3::new(0.0, 2.0, 0.0),
                    };
                    lab.apply(Input::AddLoad {
                        lane: 0,
                        body: 1 + (i % 5) as usize,
                        load,
                    })
                    .unwrap();
                }
            }
            lab.end_integrator_step();
        }
        unpushed.step();
        seen.push(bits(&lab));
    }
    assert_ne!(bits(&lab), bits(&unpushed), "the pushes moved the stack");
    for step in [37, 0, 80, 15, 71, 69, 8] {
        assert!(lab.seek(step), "step {step} matched its recording");
        assert_eq!(bits(&lab), seen[step as usize], "seek to {step}");
    }
    lab.seek(30);
    for step in (20..30).rev() {
        assert!(lab.step_back());
        assert_eq!(bits(&lab), seen[step], "back to {step}");
    }
    let mut step = 20;
    while let Some(matched) = lab.replay_step() {
        step += 1;
        assert!(matched, "replayed {step} matched");
        assert_eq!(bits(&lab), seen[step], "replayed {step}");
    }
    assert_eq!(step, 80);
    assert_eq!(lab.diverged(), None);
    assert!(
        lab.apply(Input::AddLoad {
            lane: 0,
            body: 99,
            load: Loads::default()
        })
        .is_err()
    );
}

/// Seeking and replaying are bitwise in the jointed scenes too, across the wrecking
/// ball's breaks: a seek to before a break unbreaks the joints, a replay breaks them again
/// at the same step.
#[test]
fn seek_and_replay_are_bitwise_across_joint_breaks() {
    let scenes = [
        ("wrecking-ball", 110),
        ("chain", 60),
        ("slider-crank", 60),
        ("elastic-pendulum", 60),
    ];
    for (name, steps) in scenes {
        let mut lab = lab(name);
        let broken = |lab: &Lab| {
            let c = lab.world().contacts().unwrap();
            c.breaks().count()
        };
        let mut seen = vec![(bits(&lab), broken(&lab))];
        for _ in 0..steps {
            lab.step();
            seen.push((bits(&lab), broken(&lab)));
        }
        if name == "wrecking-ball" {
            assert_eq!(seen[60].1, 0, "the wall stands at 1 s");
            assert!(seen[steps].1 > 10, "the ball broke the wall");
        }
        for step in [50, steps, 0, 90.min(steps), 73.min(steps)] {
            assert!(lab.seek(step as u64), "{name}: step {step} matched");
            assert_eq!(
                (bits(&lab), broken(&lab)),
                seen[step],
                "{name}: seek to {step}"
            );
        }
        lab.seek(40);
        let mut step = 40;
        while let Some(matched) = lab.replay_step() {
            step += 1;
            assert!(matched, "{name}: replayed step {step}");
            assert_eq!(
                (bits(&lab), broken(&lab)),
                seen[step],
                "{name}: replayed {step}"
            );
        }
        assert_eq!(step, steps);
    }
}

/// Every change to a run goes through the log, restores included: a seek restores a
/// keyframe mid-run, the time step is changed there and play goes on; seeking back
/// across the restore and replaying gives every state shown bitwise, at the new step.
/// Likewise changes made at the head, then a seek away and back to the head and play:
/// they hold, and the plots mark the switch once. (A branch's seek restored the keyframe's dt over the change, and
/// play from a head sought back to skipped the inputs logged there.)
#[test]
fn a_dt_changed_after_a_restore_replays_bitwise() {
    let mut lab = lab("stack");
    for _ in 0..20 {
        lab.step();
    }
    assert!(lab.seek(10));
    let dt = lab.dt() / 2.0;
    lab.apply(Input::SetDt(dt)).unwrap();
    let mut seen = vec![bits(&lab)];
    for _ in 0..10 {
        let t = lab.time();
        lab.step();
        assert_eq!(lab.time(), t + dt, "the changed dt steps");
        seen.push(bits(&lab));
    }
    lab.apply(Input::SetDt(2.0 * dt)).unwrap();
    lab.apply(Input::SwitchIntegrator(Integrator::Rk4)).unwrap();
    let switched = lab.time();
    assert!(lab.seek(4));
    assert!(lab.seek(20));
    for _ in 0..5 {
        let t = lab.time();
        lab.step();
        assert_eq!(lab.time(), t + 2.0 * dt, "the change at the head holds");
        seen.push(bits(&lab));
    }
    assert_eq!(lab.lanes()[0].integrator(), Integrator::Rk4);
    assert_eq!(
        lab.recorders().switches(),
        [(switched, Integrator::Rk4)],
        "the switch is marked once"
    );
    assert!(lab.seek(7));
    for (k, expected) in seen.iter().enumerate() {
        while lab.step_index() < 10 + k as u64 {
            assert_eq!(lab.replay_step(), Some(true));
        }
        assert_eq!(&bits(&lab), expected, "step {}", 10 + k);
    }
    assert_eq!(lab.diverged(), None);
}
