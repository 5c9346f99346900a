//! A step gives the same world whatever the threads do, even when it fails: the
//! timeline re-simulates recorded steps and checks them bit for bit.

use glam::{DQuat, DVec3};
use gyrolab_physics::body::inertia::Inertia;
use gyrolab_physics::body::{Body, BodyState, MassProps, Material};
use gyrolab_physics::integrators::Integrator;
use gyrolab_physics::world::World;

/// A world of free bodies large enough to be stepped in parallel, whose first body's
/// spin overflows explicit Euler: the step fails, and every other body has still taken
/// it, as the same step on one thread does; the error is the first body's.
#[test]
fn a_failed_parallel_step_advances_every_other_body() {
    let props = MassProps {
        mass: 1.0,
        inertia: Inertia::new(DVec3::new(1.0, 2.0, 3.0)).unwrap(),
    };
    let body = |i: usize, spin: f64| Body {
        name: format!("b{i}"),
        props,
        state: BodyState::from_body_omega(&props, DQuat::IDENTITY, DVec3::new(0.1, spin, 0.2)),
        parts: Vec::new(),
        material: Material::DEFAULT,
    };
    for n in [10, 20_000] {
        let bodies = (0..n)
            .map(|i| body(i, if i == 0 { 1e300 } else { 1.0 }))
            .collect();
        let mut world = World::new(
            bodies,
            DVec3::new(0.0, -9.81, 0.0),
            Integrator::ExplicitEulerWorld,
        );
        let before = world.bodies().to_vec();
        assert!(
            world.advance(0.01).is_err(),
            "{n} bodies: the first body overflows"
        );
        assert_eq!(
            world.bodies()[0].state,
            before[0].state,
            "the failed body is untouched"
        );
        let moved = world.bodies()[1..]
            .iter()
            .zip(&before[1..])
            .filter(|(a, b)| a.state.velocity != b.state.velocity)
            .count();
        assert_eq!(moved, n - 1, "{n} bodies: every other body took the step");
    }
}
