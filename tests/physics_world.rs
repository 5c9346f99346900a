//! The world's own tests that build their worlds from scenes (a later layer than the
//! physics crate, so they live here, not beside the code).

use glam::DVec3;
use gyrolab::scene::Scene;
use gyrolab::world::grab::Grab;

/// A box picked off the top of the stack is lifted to the target and hangs there
/// (within the spring's sag under gravity); let go, it falls back.
#[test]
fn a_held_box_follows_the_target_and_falls_when_released() {
    let mut world = Scene::load("stack").unwrap().build();
    let top = world.bodies().len() - 1;
    let above = world.bodies()[top].state.position + DVec3::Y * 5.0;
    let (grab, t) = Grab::pick(&world, above, -DVec3::Y).expect("the top box");
    assert_eq!(grab.body, top);
    let gyrolab::body::inertia::Shape::Box { half_extents } = world.bodies()[top].parts[0].shape
    else {
        panic!("the stack is boxes");
    };
    assert!(
        (t - (5.0 - half_extents.y)).abs() < 1e-9,
        "hit the top face, t = {t}"
    );
    let grab = Grab {
        target: grab.target + DVec3::new(1.0, 1.0, 0.0),
        ..grab
    };
    let h = 1.0 / 60.0;
    for _ in 0..180 {
        grab.pull(&mut world, h);
        world.advance(h).unwrap();
    }
    let miss = (grab.anchor(&world).unwrap() - grab.target).length();
    // Static sag of a 5 Hz spring under g: g / ω² ≈ 1 cm.
    assert!(miss < 0.03, "held point is {miss} m from the target");
    let height = world.bodies()[top].state.position.y;
    for _ in 0..120 {
        world.advance(h).unwrap();
    }
    assert!(
        world.bodies()[top].state.position.y < height - 0.5,
        "falls when let go"
    );
}

/// A snapshot taken mid-run and restored into a world that ran on steps on exactly as
/// the original: bodies, frames, riders, the turret's joint, the gun, contacts.
#[test]
fn a_restored_world_steps_on_bitwise() {
    let mut world = Scene::load("tank").unwrap().build();
    let h = 0.01;
    for _ in 0..150 {
        world.advance(h).unwrap();
    }
    let snap = world.snapshot();
    let mut other = world.clone();
    for _ in 0..77 {
        other.advance(h).unwrap();
    }
    other.restore(&snap);
    for _ in 0..200 {
        world.advance(h).unwrap();
        other.advance(h).unwrap();
    }
    let bits = |w: &gyrolab::world::World| -> Vec<[u64; 13]> {
        w.bodies()
            .iter()
            .map(|b| {
                let s = &b.state;
                let mut out = [0; 13];
                let v = [
                    s.position.to_array(),
                    s.velocity.to_array(),
                    s.angular_momentum.to_array(),
                ]
                .concat();
                for (o, x) in out
                    .iter_mut()
                    .zip(v.iter().chain(&s.orientation.to_array()))
                {
                    *o = x.to_bits();
                }
                out
            })
            .collect()
    };
    assert_eq!(bits(&world), bits(&other));
    assert_eq!(world.time().to_bits(), other.time().to_bits());
    assert!(world.gun().unwrap().fired > 0, "the gun fired");
}

/// A joint to a moving frame is drawn from the frame where it is: before the first step
/// (when the contacts have placed no collider yet) and after steps alike, its end on the
/// frame is the frame's pose now; the contacts' own pose of it lags a step.
#[test]
fn a_joint_to_a_frame_ends_where_the_frame_is_now() {
    let scene = gyrolab::scene::Scene::load("foucault").unwrap();
    let mut world = scene.build();
    let c = world.contacts().unwrap();
    let k = (c.joints().iter())
        .position(|j| j.b.is_none() && j.frame.is_some())
        .unwrap();
    let f = c.joints()[k].frame.unwrap();
    for steps in [0, 1, 50] {
        for _ in 0..steps {
            world.advance(scene.dt).unwrap();
        }
        let poses = gyrolab::contacts::Contacts::poses(world.bodies());
        let (_, end) = world.joint_poses(&poses, k).unwrap();
        let frame = &world.frames()[f].global.transform;
        assert_eq!(
            (end.position, end.orientation),
            (frame.translation, frame.rotation)
        );
        let (_, lagging) = world.contacts().unwrap().joint_poses(&poses, k);
        assert_ne!(lagging.position, frame.translation, "after {steps} steps");
    }
}
