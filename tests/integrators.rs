//! Physics of the rotational integrators against the exact torque-free solution and
//! exact invariants.

use glam::{DQuat, DVec3};
use gyrolab::analytic::TorqueFreeTop;
use gyrolab::body::{BodyState, MassProps};
use gyrolab::inertia::Inertia;
use gyrolab::integrators::{Integrator, Loads};
use gyrolab::metrics::FlipCounter;

/// Angle between two attitudes; glam's `angle_between` uses acos and bottoms out at 3e-8.
fn angle(a: DQuat, b: DQuat) -> f64 {
    gyrolab::math::quat::log(a.inverse() * b).length()
}

fn props(i: DVec3) -> MassProps {
    MassProps {
        mass: 1.0,
        inertia: Inertia::new(i).unwrap(),
    }
}

fn run(integrator: Integrator, p: &MassProps, omega: DVec3, h: f64, steps: usize) -> BodyState {
    let mut s = BodyState::from_body_omega(p, DQuat::IDENTITY, omega);
    for _ in 0..steps {
        integrator.step(p, &mut s, Loads::default(), h).unwrap();
    }
    s
}

/// Flip period measured from a midpoint run over several flips.
fn measured_flip_period(integrator: Integrator, i: DVec3, omega: DVec3, h: f64, flips: f64) -> f64 {
    let p = props(i);
    let axis = p.inertia.intermediate_axis().unwrap();
    let t_exact = TorqueFreeTop::new(i, omega).flip_period().unwrap();
    let steps = (flips * t_exact / h).ceil() as usize;
    let mut s = BodyState::from_body_omega(&p, DQuat::IDENTITY, omega);
    let mut counter = FlipCounter::default();
    for k in 1..=steps {
        integrator.step(&p, &mut s, Loads::default(), h).unwrap();
        counter.record(k as f64 * h, s.body_omega(&p)[axis]);
    }
    counter.mean_period().unwrap()
}

#[test]
fn midpoint_flip_period_matches_analytic_on_both_sides_of_the_separatrix() {
    // (inertia, initial ω): spins near the intermediate axis; the sign of
    // Δ = L² − 2E·I₂ decides which side of the separatrix the motion is on.
    let cases = [
        (DVec3::new(1.0, 2.0, 3.0), DVec3::new(0.1, 4.0, 0.05)),
        (DVec3::new(1.0, 2.0, 3.0), DVec3::new(0.05, 4.0, 0.1)),
        (DVec3::new(2.5, 1.4, 1.3), DVec3::new(0.02, 6.0, 0.3)),
        (DVec3::new(2.5, 1.4, 1.3), DVec3::new(0.3, 6.0, 0.02)),
        (
            DVec3::new(0.00812, 0.00403, 0.01197),
            DVec3::new(10.0, 0.05, 0.0),
        ),
        (DVec3::new(5.0, 3.0, 4.0), DVec3::new(-0.2, 0.1, 3.0)),
    ];
    let mut sides = [false, false];
    for (i, w) in cases {
        let l2 = (i * w).length_squared();
        let e2 = (i * w * w).element_sum();
        let mid = i.to_array().iter().copied().fold(0.0, |a: f64, b| a + b)
            - i.max_element()
            - i.min_element();
        sides[(l2 - e2 * mid > 0.0) as usize] = true;
        let exact = TorqueFreeTop::new(i, w).flip_period().unwrap();
        // h|ω| = 0.02: the second-order period error is then about 1e-4 relative.
        let h = 0.02 / w.length();
        let got = measured_flip_period(Integrator::Midpoint, i, w, h, 6.0);
        let rel = (got - exact).abs() / exact;
        assert!(
            rel < 1e-3,
            "I={i} ω={w}: measured {got}, analytic {exact} ({rel:e})"
        );
    }
    assert_eq!(
        sides,
        [true, true],
        "cases must cover both sides of the separatrix"
    );
}

#[test]
fn momentum_conserving_methods_keep_world_l_bitwise() {
    let p = props(DVec3::new(1.0, 2.0, 3.0));
    let omega = DVec3::new(0.3, 2.0, -0.7);
    let l0 = BodyState::from_body_omega(&p, DQuat::IDENTITY, omega).angular_momentum;
    for integrator in [
        Integrator::Midpoint,
        Integrator::Trapezoid,
        Integrator::ObjectTrapezoid,
    ] {
        let s = run(integrator, &p, omega, 0.02, 2000);
        assert_eq!(s.angular_momentum, l0, "{integrator}");
        assert!((s.orientation.length() - 1.0).abs() < 1e-14, "{integrator}");
    }
}

#[test]
fn object_trapezoid_and_analytic_conserve_energy_to_round_off() {
    let p = props(DVec3::new(1.0, 2.0, 3.0));
    let omega = DVec3::new(0.3, 2.0, -0.7);
    let e0 = BodyState::from_body_omega(&p, DQuat::IDENTITY, omega).rotational_energy(&p);
    for integrator in [Integrator::ObjectTrapezoid, Integrator::Analytic] {
        let s = run(integrator, &p, omega, 0.02, 2000);
        let rel = (s.rotational_energy(&p) - e0).abs() / e0;
        assert!(rel < 1e-12, "{integrator}: {rel:e}");
    }
}

#[test]
fn midpoint_energy_error_is_bounded_without_drift() {
    let p = props(DVec3::new(1.0, 2.0, 3.0));
    let mut s = BodyState::from_body_omega(&p, DQuat::IDENTITY, DVec3::new(0.3, 2.0, -0.7));
    let e0 = s.rotational_energy(&p);
    let mut window_max = [0.0f64; 2];
    for k in 0..40_000 {
        Integrator::Midpoint
            .step(&p, &mut s, Loads::default(), 0.02)
            .unwrap();
        let rel = ((s.rotational_energy(&p) - e0) / e0).abs();
        window_max[(k >= 20_000) as usize] = window_max[(k >= 20_000) as usize].max(rel);
    }
    // A drift would make the second half worse; a bounded oscillation repeats itself.
    assert!(window_max[1] < 1.2 * window_max[0], "{window_max:?}");
    assert!(window_max[1] < 1e-3);
}

#[test]
fn no_gyro_keeps_world_omega_instead_of_momentum() {
    let p = props(DVec3::new(1.0, 2.0, 3.0));
    let omega = DVec3::new(0.3, 2.0, -0.7);
    let s = run(Integrator::NoGyro, &p, omega, 0.01, 1000);
    // Only round-off moves it; the gyroscopic term would change it at order one.
    assert!((s.world_omega(&p) - omega).length() < 1e-10 * omega.length());
}

/// Error of a run against the exact solution: attitude angle plus relative ω error.
fn global_error(integrator: Integrator, h: f64, t_end: f64) -> f64 {
    let i = DVec3::new(1.0, 2.0, 3.0);
    let p = props(i);
    let omega = DVec3::new(0.4, 1.5, -0.6);
    let steps = (t_end / h).round() as usize;
    let s = run(integrator, &p, omega, h, steps);
    let top = TorqueFreeTop::new(i, omega);
    let q_exact = top.attitude(i, DQuat::IDENTITY, 0.0, t_end);
    let w_exact = top.omega(t_end);
    angle(s.orientation, q_exact) + (s.body_omega(&p) - w_exact).length() / w_exact.length()
}

#[test]
fn measured_convergence_orders_match_the_claimed_orders() {
    for integrator in Integrator::ALL {
        if integrator == Integrator::Analytic || integrator == Integrator::NoGyro {
            continue;
        }
        let claimed = integrator.info().order as f64;
        let h = if claimed >= 4.0 { 0.04 } else { 0.005 };
        let (e1, e2) = (
            global_error(integrator, h, 2.0),
            global_error(integrator, h / 2.0, 2.0),
        );
        let order = (e1 / e2).log2();
        assert!(
            (order - claimed).abs() < 0.25,
            "{integrator}: order {order:.3} (errors {e1:e}, {e2:e})"
        );
    }
    // Exactness: the analytic step is the solution itself at any step size.
    assert!(global_error(Integrator::Analytic, 0.1, 2.0) < 1e-9);
}

#[test]
fn implicit_methods_stay_second_order_under_constant_torque() {
    let p = props(DVec3::new(1.0, 2.0, 3.0));
    let loads = Loads {
        force: DVec3::ZERO,
        torque: DVec3::new(0.5, -0.3, 0.8),
    };
    let start = BodyState::from_body_omega(&p, DQuat::IDENTITY, DVec3::new(0.4, 1.5, -0.6));
    let solve = |integrator: Integrator, h: f64| {
        let mut s = start;
        for _ in 0..(1.0 / h).round() as usize {
            integrator.step(&p, &mut s, loads, h).unwrap();
        }
        s
    };
    let reference = solve(Integrator::Rk4, 1.0 / 4096.0);
    let err = |s: BodyState| {
        angle(s.orientation, reference.orientation)
            + (s.angular_momentum - reference.angular_momentum).length()
    };
    for integrator in [
        Integrator::Midpoint,
        Integrator::Trapezoid,
        Integrator::ObjectTrapezoid,
    ] {
        let order = (err(solve(integrator, 0.01)) / err(solve(integrator, 0.005))).log2();
        assert!(
            (order - 2.0).abs() < 0.2,
            "{integrator}: order {order:.3} with torque"
        );
    }
}

#[test]
fn huge_steps_sub_step_safely_and_never_produce_nan() {
    let p = props(DVec3::new(1.0, 2.0, 3.0));
    let omega = DVec3::new(30.0, 40.0, -50.0);
    for integrator in [
        Integrator::Midpoint,
        Integrator::Trapezoid,
        Integrator::ObjectTrapezoid,
    ] {
        let start = BodyState::from_body_omega(&p, DQuat::IDENTITY, omega);
        let mut s = start;
        let h = 0.5;
        let info = integrator.step(&p, &mut s, Loads::default(), h).unwrap();
        let n = info.safe_substeps;
        assert!(n > 1, "{integrator} should sub-step");
        assert!(s.is_finite());
        // The huge step is n ordinary steps of h/n, each inside the safe bound.
        let mut small = start;
        for _ in 0..n {
            let one = integrator
                .step(&p, &mut small, Loads::default(), h / n as f64)
                .unwrap();
            assert_eq!(one.safe_substeps, 1, "{integrator}");
        }
        assert!(
            angle(s.orientation, small.orientation) < 1e-12,
            "{integrator}"
        );
    }
}

#[test]
fn analytic_refuses_a_torque_and_leaves_the_state_alone() {
    let p = props(DVec3::new(1.0, 2.0, 3.0));
    let mut s = BodyState::from_body_omega(&p, DQuat::IDENTITY, DVec3::new(0.1, 1.0, 0.0));
    let before = s;
    let loads = Loads {
        force: DVec3::ZERO,
        torque: DVec3::X,
    };
    assert!(Integrator::Analytic.step(&p, &mut s, loads, 0.01).is_err());
    assert_eq!(s, before);
}

#[test]
fn switching_integrators_mid_run_is_seamless() {
    // Half a run with one integrator then the other equals neither's jump: the state
    // after a switch is the same state, so a single step after it matches stepping that
    // state directly.
    let p = props(DVec3::new(1.0, 2.0, 3.0));
    let mut s = run(
        Integrator::MomentumClamp,
        &p,
        DVec3::new(0.3, 2.0, -0.7),
        0.01,
        100,
    );
    let snapshot = s;
    let w_before = s.world_omega(&p);
    Integrator::Midpoint
        .step(&p, &mut s, Loads::default(), 1e-6)
        .unwrap();
    assert!((s.world_omega(&p) - w_before).length() < 1e-5 * w_before.length());
    assert!(angle(s.orientation, snapshot.orientation) < 1e-5);
}

#[test]
fn names_round_trip_and_unknown_names_list_the_valid_ones() {
    for i in Integrator::ALL {
        assert_eq!(i.name().parse::<Integrator>().unwrap(), i);
    }
    let err = "euler".parse::<Integrator>().unwrap_err().to_string();
    assert!(
        err.contains("midpoint") && err.contains("explicit-euler"),
        "{err}"
    );
}

/// An overflowing baseline once normalised its quaternion to exactly zero: a finite but
/// meaningless orientation that made the body's ω and energy read zero. Every integrator
/// must either refuse such a step, leaving the state alone, or return a unit orientation.
#[test]
fn an_overflowing_step_fails_instead_of_zeroing_the_orientation() {
    let p = props(DVec3::new(0.3, 0.5, 0.7));
    let q = DQuat::from_rotation_y(0.3);
    let state = BodyState::from_body_omega(&p, q, DVec3::new(1e100, 1e100, 0.0));
    for integrator in Integrator::ALL {
        let mut s = state;
        match integrator.step(&p, &mut s, Loads::default(), 0.01) {
            Ok(_) => assert!(
                s.is_finite() && (s.orientation.length() - 1.0).abs() < 1e-9,
                "{integrator}: {:?}",
                s.orientation
            ),
            Err(_) => assert_eq!(s, state, "{integrator}"),
        }
    }
}
