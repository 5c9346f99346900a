//! A step's work follows the awake bodies, as Box2D v3's awake solver set makes it
//! (Catto, "Solver2D" and `solver_set.c`): one box awake beside an asleep heap makes and
//! walks as many single-body entries (proxies, solver bodies, poses, island members,
//! finalised states) as it would beside a heap a quarter the size.

use glam::{DQuat, DVec3};
use gyrolab::body::BodyState;
use gyrolab::scene::Scene;
use gyrolab::world::World;

const H: f64 = 1.0 / 60.0;

/// The clear-start pile of `size` boxes, stepped until every box is asleep (within
/// twelve seconds, as `tests/physics_rest.rs` requires of such heaps).
fn rested_pile(size: usize) -> World {
    let mut scene = Scene::load("pile").expect("built-in scene");
    scene.set_generated_size(size).expect("size in range");
    let mut world = scene.build();
    world.change_solver_settings(|s| s.sleep = true);
    for _ in 0..(12.0 / H) as usize {
        world.advance(H).expect("finite step");
        let contacts = world.contacts().expect("contacts");
        if (0..world.bodies().len()).all(|b| contacts.is_asleep(b)) {
            return world;
        }
    }
    panic!("the {size}-box pile is not asleep after 12 s");
}

/// The box farthest from any other: an island of its own, whatever it does.
fn lone_box(world: &World) -> usize {
    let centres: Vec<_> = world.bodies().iter().map(|b| b.state.position).collect();
    let nearest = |i: usize| {
        (centres.iter().enumerate())
            .filter(|&(j, _)| j != i)
            .map(|(_, c)| c.distance(centres[i]))
            .fold(f64::INFINITY, f64::min)
    };
    (0..centres.len())
        .max_by(|&i, &j| nearest(i).total_cmp(&nearest(j)))
        .expect("boxes")
}

/// The most single-body entries a step made while the lone box, thrown up at 5 m/s,
/// flew and landed beside the asleep rest of the pile (which stays asleep), after the
/// first step.
fn most_made_beside(mut world: World) -> usize {
    let lone = lone_box(&world);
    let contacts = world.contacts_mut().expect("contacts");
    contacts.wake(lone);
    world.bodies_mut()[lone].state.velocity.y = 5.0;
    let mut most = 0;
    for step in 0..90 {
        world.advance(H).expect("finite step");
        let contacts = world.contacts().expect("contacts");
        let others_asleep = (0..world.bodies().len()).all(|b| b == lone || contacts.is_asleep(b));
        assert!(others_asleep, "the lone box woke the pile");
        // The first step remakes, once, the proxies of the boxes that fell asleep after
        // the detection that made them (they were made with their speed's reach).
        if step > 0 {
            most = most.max(contacts.stats().made);
        }
    }
    most
}

#[test]
fn one_box_awake_beside_an_asleep_heap_costs_the_same_whatever_the_heap() {
    let small = most_made_beside(rested_pile(250));
    let large = most_made_beside(rested_pile(1000));
    // One box makes one proxy, solver body, pose, island member and finalised state a
    // step: 5, not hundreds.
    assert!(large <= 8, "one awake box made {large} entries a step");
    assert_eq!(small, large, "the work grew with the asleep heap");
}

/// The single-body entries of the next step of `world`.
fn made_next(world: &mut World) -> usize {
    world.advance(H).expect("finite step");
    world.contacts().expect("contacts").stats().made
}

/// An asleep box changed from outside without being woken (moved, turned, pushed or
/// spun through the public fields, as the lab and tests do) has its proxy made again:
/// the step makes exactly one entry more than the same step without the change, so the
/// check that finds it makes nothing for the boxes that kept their state. A box moved
/// into the lone box's place is where the lone box lands: it comes to rest on it, three
/// half-heights up, not through it on the ground.
#[test]
fn an_asleep_box_changed_from_outside_is_found_and_nothing_else_is_made() {
    let mut world = rested_pile(250);
    let lone = lone_box(&world);
    let rest = world.bodies()[lone].state;
    world.contacts_mut().expect("contacts").wake(lone);
    world.bodies_mut()[lone].state.velocity.y = 10.0;
    // Half a second: the lone box is more than three metres up (the first step remakes,
    // once, the proxies of the boxes that fell asleep after the detection that made
    // them).
    (0..30).for_each(|_| world.advance(H).expect("finite step"));
    let other = (lone + 1) % world.bodies().len();
    let contacts = world.contacts().expect("contacts");
    assert!(contacts.is_asleep(other), "box {other} is asleep");
    type Edit = fn(&mut BodyState);
    let edits: [(&str, Edit, usize); 4] = [
        ("moved", |s| s.position.x += 1e-3, 0),
        (
            "turned",
            |s| s.orientation *= DQuat::from_rotation_y(1e-3),
            0,
        ),
        // Asleep with a velocity, its reach covers the move it could make: made again
        // every step, as before (nothing moves it).
        ("pushed", |s| s.velocity = DVec3::X, 1),
        ("spun", |s| s.angular_momentum = DVec3::Y, 1),
    ];
    for (what, edit, after) in edits {
        let mut changed = world.clone();
        edit(&mut changed.bodies_mut()[other].state);
        let plain = made_next(&mut world.clone());
        assert_eq!(
            made_next(&mut changed),
            plain + 1,
            "{what}: the step's entries"
        );
        let mut unchanged = world.clone();
        unchanged.advance(H).expect("finite step");
        let plain = made_next(&mut unchanged);
        assert_eq!(
            made_next(&mut changed),
            plain + after,
            "{what}: the next step's"
        );
    }
    // Into the lone box's place on the ground, as it rested there.
    let state = &mut world.bodies_mut()[other].state;
    (state.position, state.orientation) = (rest.position, rest.orientation);
    (0..150).for_each(|_| world.advance(H).expect("finite step"));
    let half = rest.position.y;
    let y = world.bodies()[lone].state.position.y;
    assert!(
        (y - 3.0 * half).abs() < 0.02,
        "the lone box rests {y} m up, not on the moved box ({} m)",
        3.0 * half
    );
}
