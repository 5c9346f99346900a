//! A step's work follows the awake bodies, as Box2D v3's awake solver set makes it
//! (Catto, "Solver2D" and `solver_set.c`): one box awake beside an asleep heap makes and
//! walks as many single-body entries (proxies, solver bodies, poses, island members,
//! finalised states) as it would beside a heap a quarter the size.

use gyrolab::scene::Scene;
use gyrolab::world::World;

const H: f64 = 1.0 / 60.0;

/// The clear-start pile of `size` boxes, stepped until every box is asleep (within
/// twelve seconds, as `tests/rest.rs` requires of such heaps).
fn rested_pile(size: usize) -> World {
    let mut scene = Scene::load("pile").expect("built-in scene");
    scene.set_generated_size(size).expect("size in range");
    let mut world = scene.build();
    world.contacts.as_mut().expect("contacts").settings.sleep = true;
    for _ in 0..(12.0 / H) as usize {
        world.step(H).expect("finite step");
        let contacts = world.contacts.as_ref().expect("contacts");
        if (0..world.bodies.len()).all(|b| contacts.is_asleep(b)) {
            return world;
        }
    }
    panic!("the {size}-box pile is not asleep after 12 s");
}

/// The box farthest from any other: an island of its own, whatever it does.
fn lone_box(world: &World) -> usize {
    let centres: Vec<_> = world.bodies.iter().map(|b| b.state.position).collect();
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
    let contacts = world.contacts.as_mut().expect("contacts");
    contacts.wake(lone);
    world.bodies[lone].state.velocity.y = 5.0;
    let mut most = 0;
    for step in 0..90 {
        world.step(H).expect("finite step");
        let contacts = world.contacts.as_ref().expect("contacts");
        let others_asleep = (0..world.bodies.len()).all(|b| b == lone || contacts.is_asleep(b));
        assert!(others_asleep, "the lone box woke the pile");
        // The first step remakes, once, the proxies of the boxes that fell asleep after
        // the detection that made them (they were made with their speed's reach).
        if step > 0 {
            most = most.max(contacts.stats.made);
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
