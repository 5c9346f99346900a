//! Exact continuation: running 2N steps gives the same state, bitwise, as running N,
//! saving the moment to a file, loading it into another lab and running N more; for free
//! bodies side by side with the exact ghost, a live integrator switch, contacts with warm
//! starting and sleeping, joints, frames, riders and the gun. And JSON keeps every f64.

use gyrolab::lab::Input;
use std::path::PathBuf;

mod common;
use common::saved_scenes::{SAVED_SCENES, steps_before_save};
use glam::DVec3;
use gyrolab::body::inertia::Shape;
use gyrolab::integrators::Integrator;
use gyrolab::lab::Lab;
use gyrolab::lab::moment::Moment;
use gyrolab::scene::Scene;

fn lab(name: &str) -> Lab {
    Lab::new(Scene::load(name).unwrap())
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("gyrolab-moment-{}-{name}.json", std::process::id()))
}

/// Everything a moment holds, as its file's text: every lane's world (bodies, frames,
/// riders, gun, contact graph, impulses, sleep), measurements, ghost, settings.
fn everything(lab: &Lab) -> String {
    serde_json::to_string(&Moment::of_lab(lab)).unwrap()
}

/// Runs `name` for 2N steps, and for N, then saves, loads into a lab of another scene
/// and runs N more; `events(lab, step)` acts before each step in both. Returns the lab
/// loaded at the save.
fn continues_bitwise(name: &str, n: u64, events: impl Fn(&mut Lab, u64)) -> Lab {
    let path = temp(name);
    let mut straight = lab(name);
    for i in 0..n {
        events(&mut straight, i);
        straight.step();
    }
    gyrolab::state_file::save_lab(&straight, &path).unwrap();
    let mut loaded = lab("free-body");
    loaded.load_moment(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    let at_save = loaded.clone();
    assert_eq!(
        everything(&loaded),
        everything(&straight),
        "{name}: loaded as saved"
    );
    for i in n..2 * n {
        events(&mut straight, i);
        straight.step();
        events(&mut loaded, i);
        loaded.step();
    }
    assert_eq!(loaded.step_index(), 2 * n);
    assert_eq!(
        everything(&loaded),
        everything(&straight),
        "{name}: after 2N"
    );
    at_save
}

#[test]
fn dzhanibekov_side_by_side_with_the_ghost() {
    let at_save = continues_bitwise("dzhanibekov", steps_before_save("dzhanibekov"), |_, _| {});
    assert_eq!(at_save.lanes().len(), 4);
    assert!(at_save.ghost().is_some());
}

#[test]
fn tumbling_crowd_switched_mid_run() {
    let at_save = continues_bitwise(
        "tumbling-crowd",
        steps_before_save("tumbling-crowd"),
        |lab, i| {
            if i == 60 {
                lab.apply(Input::SwitchIntegrator(Integrator::ExplicitEulerWorld))
                    .unwrap();
            }
            if i == 130 {
                lab.apply(Input::SwitchIntegrator(Integrator::Rk4)).unwrap();
            }
        },
    );
    assert_eq!(
        at_save.lanes()[0].integrator(),
        Integrator::ExplicitEulerWorld
    );
}

/// A ball thrown into the pile as it forms; at the save (5 s) some of the heap's islands
/// sleep and others do not.
#[test]
fn pile_with_sleeping_and_waking_bodies() {
    let at_save = continues_bitwise("pile", steps_before_save("pile"), |lab, i| {
        if i == 100 {
            lab.apply(Input::Spawn {
                shape: Shape::Sphere { radius: 0.5 },
                velocity: DVec3::new(-15.0, 0.0, 0.0),
                position: None,
            })
            .unwrap();
        }
    });
    let world = at_save.world();
    let contacts = world.contacts().unwrap();
    let asleep = (0..world.bodies().len())
        .filter(|&b| contacts.is_asleep(b))
        .count();
    assert!(asleep > 0, "some sleep at the save");
    assert!(asleep < world.bodies().len(), "some are awake");
    assert!(
        contacts.graph().values().iter().any(|c| c
            .manifold
            .points()
            .iter()
            .any(|p| p.normal_impulse != 0.0)),
        "warm-start impulses are saved"
    );
}

/// Every scene of the shared table the tests above do not take with an input of their
/// own: the cradle, and the jointed scenes (a break, a chain, a motor, a spring).
#[test]
fn every_other_saved_scene_continues_bitwise() {
    let own = ["dzhanibekov", "tumbling-crowd", "pile", "tank"];
    for (scene, steps, _) in SAVED_SCENES.iter().filter(|(s, ..)| !own.contains(s)) {
        continues_bitwise(scene, *steps, |_, _| {});
    }
}

/// Frames, riders, the turret's hinge with its motor, and the gun: a shot fired before
/// the save and one after.
#[test]
fn tank_with_frames_riders_the_turret_and_the_gun() {
    let at_save = continues_bitwise("tank", steps_before_save("tank"), |_, _| {});
    let world = at_save.world();
    assert_eq!(world.gun().unwrap().fired, 1, "one shot before the save");
    assert!(!world.frames().is_empty());
    let riding = |name: &str| {
        let i = world.bodies().iter().position(|b| b.name == name).unwrap();
        matches!(world.mounts()[i], gyrolab::hierarchy::rig::Mount::Riding(_))
    };
    assert!(riding("turret"), "the turret rides the hull");
    let joints = world.joints();
    assert!(
        joints
            .iter()
            .any(|j| j.frame.is_some() && j.impulses != [0.0; 8]),
        "the turret's hinge, with its warm-start impulses"
    );
}

/// A grab held across the save goes on pulling after the load.
#[test]
fn a_held_body_stays_held_across_the_save() {
    continues_bitwise("stack", 40, |lab, i| {
        if i == 10 {
            let p = lab.world().bodies()[9].state.position;
            lab.apply(Input::Hold {
                lane: 0,
                grab: gyrolab::world::grab::Grab {
                    body: 9,
                    local: DVec3::ZERO,
                    target: p,
                },
            })
            .unwrap();
        }
        if i > 10 {
            lab.apply(Input::DragTo(DVec3::new(1.0, 4.0, 0.01 * i as f64)))
                .unwrap();
        }
    });
}

/// serde_json writes the shortest digits that read back to the same f64, and reads them
/// back exactly: awkward values keep every bit.
#[test]
fn json_keeps_every_bit_of_an_f64() {
    let values = [
        0.1,
        1.0 / 3.0,
        std::f64::consts::PI,
        1e-300,
        f64::MIN_POSITIVE,
        5e-324,
        f64::MAX,
        -0.0,
        0.016666666666666666,
        2.0_f64.sqrt() * 1e17,
        1.0 + f64::EPSILON,
    ];
    let text = serde_json::to_string(&values).unwrap();
    let back: Vec<f64> = serde_json::from_str(&text).unwrap();
    for (a, b) in values.iter().zip(&back) {
        assert_eq!(a.to_bits(), b.to_bits(), "{a:e} came back as {b:e}");
    }
    // And every number of a running world.
    let mut lab = lab("tank");
    for _ in 0..50 {
        lab.step();
    }
    let moment = Moment::of_lab(&lab);
    let back: Moment = serde_json::from_str(&serde_json::to_string(&moment).unwrap()).unwrap();
    for (a, b) in moment.state.lanes[0]
        .world()
        .bodies()
        .iter()
        .zip(back.state.lanes[0].world().bodies())
    {
        assert_eq!(format!("{:?}", a.state), format!("{:?}", b.state));
        assert_eq!(
            a.state.orientation.x.to_bits(),
            b.state.orientation.x.to_bits()
        );
    }
}

/// The app's "Load moment" refuses a bad file with one line and keeps the lab as it was.
#[test]
fn a_refused_moment_leaves_the_lab_as_it_was() {
    let path = temp("refused");
    std::fs::write(&path, "{\"format\":\"gyrolab-state\",\"version\":1").unwrap();
    let mut lab = lab("tank");
    lab.step();
    let before = everything(&lab);
    let err = lab.load_moment(&path).unwrap_err();
    std::fs::remove_file(&path).unwrap();
    assert!(err.starts_with(&path.display().to_string()), "{err}");
    assert_eq!(err.lines().count(), 1);
    assert_eq!(everything(&lab), before);
}

/// View scales are the app's, not the lab's: a moment file keeps none. A file written
/// before, with the scene's `radius` (tests/fixtures/dzhanibekov-v2-radius.json, saved
/// by the lab 50 steps into `dzhanibekov`), still loads and goes on bitwise as the lab
/// it was saved from.
#[test]
fn a_moment_file_with_the_old_view_scale_still_loads() {
    let mut straight = lab("dzhanibekov");
    for _ in 0..50 {
        straight.step();
    }
    let text = Moment::of_lab(&straight).to_text(straight.scene());
    let state: serde_json::Value = serde_json::from_str(text.lines().nth(1).unwrap()).unwrap();
    let keys: Vec<&String> = state.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["compared", "start", "state", "switches"]);
    let old = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/dzhanibekov-v2-radius.json");
    assert!(
        std::fs::read_to_string(&old)
            .unwrap()
            .contains(",\"radius\":")
    );
    let mut loaded = lab("stack");
    loaded.load_moment(&old).unwrap();
    assert_eq!(everything(&loaded), everything(&straight));
    for _ in 0..50 {
        straight.step();
        loaded.step();
    }
    assert_eq!(everything(&loaded), everything(&straight));
}
