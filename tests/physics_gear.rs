//! A row of one's own through the `UserRow` trait: the gear of `examples/gear.rs` holds
//! two wheels on hinges to ω_a = −r·ω_b while a motor spins the big one up; its bodies
//! share an island; and a torque limit written with the solver's step holds at any
//! number of sub-steps.

#[path = "../examples/gear.rs"]
#[allow(dead_code)]
mod gear;

use glam::DVec3;
use gyrolab::world::World;

const DT: f64 = 1.0 / 60.0;

/// Each wheel's spin about z.
fn spin(w: &World, i: usize) -> f64 {
    w.bodies()[i].state.world_omega(&w.bodies()[i].props).z
}

#[test]
fn a_gear_row_couples_two_wheels_at_their_ratio() {
    let r = gear::RADII.1 / gear::RADII.0;
    let spins = gear::spins(gear::world(true, f64::INFINITY), 3.0);
    let (_, _, last_b) = *spins.last().unwrap();
    assert!(
        (last_b - 1.0).abs() < 1e-3,
        "the motor's wheel turns at {last_b} rad/s"
    );
    for (t, a, b) in spins {
        assert!(
            (a + r * b).abs() < 1e-3 * (1.0 + b.abs()),
            "t = {t}: ω_a = {a}, ω_b = {b}, ratio {}",
            a / b
        );
    }
}

/// Without the motor both wheels fall asleep; spun by hand, the big wheel wakes the
/// small one through the gear's row, which joins their island as a joint would, and
/// they turn at the ratio. (Were the row no link, the small wheel would sleep on, the
/// row would hold the big one against it as against the ground, and it would stop.)
#[test]
fn a_gear_row_wakes_the_wheel_it_drives() {
    let r = gear::RADII.1 / gear::RADII.0;
    let mut world = gear::world(false, f64::INFINITY);
    for _ in 0..60 {
        world.advance(DT).unwrap();
    }
    let c = world.contacts_mut().unwrap();
    assert!(c.is_asleep(0) && c.is_asleep(1), "the still wheels sleep");
    c.wake(1);
    let big = &mut world.bodies_mut()[1];
    big.state.set_world_omega(&big.props, DVec3::Z);
    for _ in 0..15 {
        world.advance(DT).unwrap();
    }
    let c = world.contacts().unwrap();
    assert!(!c.is_asleep(0), "the small wheel sleeps on");
    let (a, b) = (spin(&world, 0), spin(&world, 1));
    // Sharing the big wheel's spin with the small one leaves it 0.8 rad/s.
    assert!(b > 0.5, "the big wheel turns at {b} rad/s");
    assert!(
        (a + r * b).abs() < 1e-3 * (1.0 + b.abs()),
        "ω_a = {a}, ω_b = {b}"
    );
}

/// Teeth that carry at most τ = 0.05 N·m (the row's `bounds(h)`, ±τ h) slip while the
/// motor holds the big wheel at 1 rad/s: the small wheel (I = ½ m r² = 0.02 kg·m²) spins
/// up at τ / I = 2.5 rad/s², to −1.25 rad/s in 0.5 s, at 4 and at 8 solver sub-steps
/// (1%). A bound that did not scale with the step would carry twice the torque at 8.
#[test]
fn a_gear_rows_torque_limit_is_the_same_at_any_sub_step_count() {
    let (tau, inertia, t) = (0.05, 0.5 * 1.0 * 0.2f64.powi(2), 0.5);
    for substeps in [4, 8] {
        let mut world = gear::world(true, tau);
        world.change_solver_settings(|s| s.substeps = substeps);
        for _ in 0..(t / DT).round() as usize {
            world.advance(DT).unwrap();
        }
        let expected = -tau * t / inertia;
        let a = spin(&world, 0);
        assert!(
            (a / expected - 1.0).abs() < 0.01,
            "{substeps} sub-steps: ω_a = {a} rad/s against {expected}"
        );
    }
}
