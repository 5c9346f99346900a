//! Physics of the rotational integrators against the exact torque-free solution and
//! exact invariants.

use glam::{DQuat, DVec3};
use gyrolab::body::inertia::Inertia;
use gyrolab::body::{BodyState, MassProps};
use gyrolab::integrators::analytic::TorqueFreeTop;
use gyrolab::integrators::{Integrator, Loads};
use gyrolab::lab::metrics::FlipCounter;

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

/// A constant world torque on a tumbling body.
const TORQUE: DVec3 = DVec3::new(0.5, -0.3, 0.8);

/// The body and start of the torque runs: those of [`global_error`].
fn torque_start() -> (MassProps, BodyState) {
    let p = props(DVec3::new(1.0, 2.0, 3.0));
    let s = BodyState::from_body_omega(&p, DQuat::IDENTITY, DVec3::new(0.4, 1.5, -0.6));
    (p, s)
}

/// One second under [`TORQUE`] from [`torque_start`].
fn torque_run(integrator: Integrator, h: f64) -> BodyState {
    let (p, mut s) = torque_start();
    let loads = Loads {
        force: DVec3::ZERO,
        torque: TORQUE,
    };
    for _ in 0..(1.0 / h).round() as usize {
        integrator.step(&p, &mut s, loads, h).unwrap();
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

/// The implicit methods add the torque impulse in two halves around the rotation and
/// never touch L otherwise, so under a constant world torque `L(t) = L₀ + tτ` holds to
/// round-off; a missing or doubled half, or a rotation written into L, breaks it.
#[test]
fn implicit_methods_apply_a_constant_torque_exactly() {
    let expected = torque_start().1.angular_momentum + TORQUE;
    for integrator in [
        Integrator::Midpoint,
        Integrator::Trapezoid,
        Integrator::ObjectTrapezoid,
    ] {
        let s = torque_run(integrator, 0.02);
        let err = (s.angular_momentum - expected).length() / expected.length();
        assert!(err < 1e-13, "{integrator}: {err:e}");
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
        let info = integrator.info();
        if info.order == 0 {
            // Exactness: the torque-free solution itself at any step size.
            let err = global_error(integrator, 0.1, 2.0);
            assert!(err < 1e-9, "{integrator}: {err:e}");
            continue;
        }
        if info.other_equation.is_some() {
            continue;
        }
        let claimed = info.order as f64;
        // Large enough that the error stays far above round-off and the reference's.
        let h = match info.order {
            6.. => 0.1,
            4..6 => 0.04,
            _ => 0.005,
        };
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
}

/// `no-gyro` drops the gyroscopic term, so it converges to `ω̇ = I⁻¹τ`, not to the rigid
/// body: halving h leaves its error against the exact motion where it was, while every
/// other integrator's shrinks.
#[test]
fn no_gyro_error_does_not_shrink_with_h_while_the_others_do() {
    for integrator in Integrator::ALL {
        // The exact ones have nothing to shrink.
        if integrator.info().order == 0 {
            continue;
        }
        // At 0.01 a sixth-order error is already down at the reference's round-off.
        let h = if integrator.info().order >= 6 {
            0.1
        } else {
            0.01
        };
        let t_end = 2.0;
        let errors = [1.0, 0.5, 0.25].map(|f| global_error(integrator, f * h, t_end));
        if integrator.info().other_equation.is_some() {
            assert!(errors[0] > 0.1, "{integrator}: {errors:?}");
            assert!(errors[2] > 0.9 * errors[0], "{integrator}: {errors:?}");
        } else {
            assert!(errors[1] < 0.6 * errors[0], "{integrator}: {errors:?}");
            assert!(errors[2] < 0.6 * errors[1], "{integrator}: {errors:?}");
        }
    }
}

/// What `no-gyro` does converge to, it converges to at its stated order: its errors
/// against its own fine-step run (the solution of its equation) shrink as h¹ under a
/// torque, where the orientation update is first order.
#[test]
fn no_gyro_converges_to_its_own_equation_at_its_stated_order() {
    let p = torque_start().0;
    let own = torque_run(Integrator::NoGyro, 1.0 / 65536.0);
    let err = |h: f64| {
        let s = torque_run(Integrator::NoGyro, h);
        angle(s.orientation, own.orientation) + (s.world_omega(&p) - own.world_omega(&p)).length()
    };
    let order = (err(0.01) / err(0.005)).log2();
    let claimed = Integrator::NoGyro.info().order as f64;
    assert!((order - claimed).abs() < 0.25, "order {order:.3}");
}

#[test]
fn implicit_methods_stay_second_order_under_constant_torque() {
    let reference = torque_run(Integrator::Rk4, 1.0 / 4096.0);
    let err = |s: BodyState| {
        angle(s.orientation, reference.orientation)
            + (s.angular_momentum - reference.angular_momentum).length()
    };
    for integrator in [
        Integrator::Midpoint,
        Integrator::Trapezoid,
        Integrator::ObjectTrapezoid,
    ] {
        let order = (err(torque_run(integrator, 0.01)) / err(torque_run(integrator, 0.005))).log2();
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

/// The baselines step world ω and hand back L; the others step L or body ω. Switching
/// converts between them: a wrong conversion (body ω taken for world ω, L without the
/// rotation) changes E or L by order one at the switch. A right one changes them by one
/// ordinary step of the new integrator: O(h²) for the consistent first-order ones (at
/// most 2.4 h² here, explicit Euler's), bound 10 h²; O(h) for L under `no-gyro`, which
/// drops `h ω×L` every step (1.07 h here), bound 2h.
#[test]
fn switching_integrators_mid_run_keeps_energy_and_momentum_continuous() {
    let p = props(DVec3::new(1.0, 2.0, 3.0));
    let h = 0.01;
    for from in Integrator::ALL {
        // A second of motion: the body has turned about 2 rad, so body and world axes
        // differ by order one.
        let before = run(from, &p, DVec3::new(0.3, 2.0, -0.7), h, 100);
        let (e0, l0) = (before.rotational_energy(&p), before.angular_momentum);
        for to in Integrator::ALL {
            let mut after = before;
            to.step(&p, &mut after, Loads::default(), h).unwrap();
            let de = (after.rotational_energy(&p) - e0).abs() / e0;
            let dl = (after.angular_momentum - l0).length() / l0.length();
            let dl_bound = if to.info().other_equation.is_some() {
                2.0 * h
            } else {
                10.0 * h * h
            };
            assert!(
                de < 10.0 * h * h && dl < dl_bound,
                "{from} → {to}: ΔE/E {de:e}, ΔL/L {dl:e}"
            );
        }
    }
}

#[test]
fn names_round_trip_and_unknown_names_list_the_valid_ones() {
    for i in Integrator::ALL {
        assert_eq!(i.name().parse::<Integrator>().unwrap(), i);
    }
    let err = "euler".parse::<Integrator>().unwrap_err().to_string();
    assert!(
        err.contains("midpoint") && err.contains("explicit-euler-body"),
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

/// The sign of explicit Euler's energy error is the frame's, not the method's. On Euler's
/// equations in the body frame, one torque-free step gains exactly `½h² aᵀIa` (`a` the
/// body angular acceleration; the first-order term `h ω·Ia` vanishes, `Ia = Iω × ω`).
/// On the world ω that engines store, the body sees the new ω turned back by `hω`, which
/// turns the gain into a loss of the same `½h² aᵀIa` to leading order. Checked on one step
/// of the T-handle mid-flip (body: 1e-12; world: the relative gap shrinks like h), then on every
/// step of the two lessons' runs (the T-handle for 30 s, the space pole for 20 s, at
/// 0.01 s): the body variant gains on each, the world variant loses on each (beyond
/// round-off, once the T-handle spins steadily).
#[test]
fn explicit_euler_gains_on_body_omega_and_loses_on_world_omega() {
    use gyrolab::scene::Scene;
    let first_body = |name: &str| {
        let world = Scene::load(name).unwrap().build();
        (world.bodies()[0].props, world.bodies()[0].state)
    };
    // Mid-flip, where the angular acceleration is large: at the start it is small, and
    // the gain would be lost in the energy's round-off.
    let (p, mut start) = first_body("dzhanibekov");
    for _ in 0..117 {
        (Integrator::Midpoint.step(&p, &mut start, Loads::default(), 0.01)).unwrap();
    }
    let omega = start.body_omega(&p);
    let a = (p.inertia.principal() * omega).cross(omega) * p.inertia.inverse();
    let e0 = start.rotational_energy(&p);
    let one_step = |integrator: Integrator, h: f64| {
        let mut s = start;
        integrator.step(&p, &mut s, Loads::default(), h).unwrap();
        let predicted = 0.5 * h * h * a.dot(p.inertia.principal() * a);
        (s.rotational_energy(&p) - e0, predicted)
    };
    for h in [0.02, 0.01] {
        let (gain, predicted) = one_step(Integrator::ExplicitEulerBody, h);
        assert!(
            (gain - predicted).abs() <= 1e-12 * predicted,
            "body: {gain:e} against ½h²aᵀIa = {predicted:e} at h {h}"
        );
    }
    let gap = |h: f64| {
        let (change, predicted) = one_step(Integrator::ExplicitEulerWorld, h);
        assert!(change < 0.0, "world: {change:e} at h {h}");
        (change + predicted).abs() / predicted
    };
    let (coarse, fine) = (gap(0.004), gap(0.001));
    assert!(
        coarse < 0.2 && fine < 0.3 * coarse,
        "world: loss off ½h²aᵀIa by {coarse:e} at h 0.004, {fine:e} at h 0.001"
    );
    // The T-handle ends in a steady spin about a principal axis, where a step changes the
    // energy by less than its round-off; the pole tumbles to the end.
    for (scene, seconds, round_off) in [("dzhanibekov", 30.0, 1e-13), ("space-pole", 20.0, 0.0)] {
        let (p, start) = first_body(scene);
        for (integrator, sign) in [
            (Integrator::ExplicitEulerBody, 1.0),
            (Integrator::ExplicitEulerWorld, -1.0),
        ] {
            let (mut s, mut e) = (start, start.rotational_energy(&p));
            for k in 0..(seconds / 0.01) as usize {
                integrator.step(&p, &mut s, Loads::default(), 0.01).unwrap();
                let next = s.rotational_energy(&p);
                assert!(
                    sign * (next - e) > -round_off * e,
                    "{scene}, {integrator}, step {k}: {e} -> {next}"
                );
                e = next;
            }
        }
    }
}
