//! Property tests: identities and invariants over random inputs.

use glam::{DQuat, DVec3};
use gyrolab_physics::body::inertia::{Inertia, Part, Shape, compound};
use gyrolab_physics::integrators::analytic::TorqueFreeTop;
use gyrolab_physics::integrators::{ImplicitRule, Midpoint, ObjectTrapezoid, WorldTrapezoid};
use gyrolab_physics::math::dual::jacobian3;
use gyrolab_physics::math::{quat, so3};
use proptest::prelude::*;

fn vec3(range: f64) -> impl Strategy<Value = DVec3> {
    (-range..range, -range..range, -range..range).prop_map(|(x, y, z)| DVec3::new(x, y, z))
}

/// Principal moments of a real body: positive and satisfying the triangle inequality.
fn moments() -> impl Strategy<Value = DVec3> {
    (0.2f64..3.0, 0.2f64..3.0, 0.0f64..1.0).prop_map(|(a, b, t)| {
        let (lo, hi) = ((a - b).abs(), a + b);
        DVec3::new(a, b, lo + t * (hi - lo))
    })
}

fn max_abs(m: glam::DMat3) -> f64 {
    m.to_cols_array().iter().fold(0.0, |a, e| a.max(e.abs()))
}

fn check_rule<R: ImplicitRule>(i: DVec3, k: DVec3, v: DVec3) -> Result<(), TestCaseError> {
    let (_, j) = R::residual_jacobian(i, i.recip(), k, v);
    let ad = jacobian3(|x| R::residual(i, k, x), v);
    prop_assert!(max_abs(j - ad) < 1e-12 * (1.0 + max_abs(ad)));
    Ok(())
}

proptest! {
    #[test]
    fn rotation_matches_the_quaternion_exponential(v in vec3(4.0), x in vec3(2.0)) {
        let via_series = so3::rotation_matrix(v) * x;
        let via_quat = quat::exp(v) * x;
        prop_assert!((via_series - via_quat).length() < 1e-13 * (1.0 + x.length()));
    }

    #[test]
    fn tangent_inverse_inverts_tangent(v in vec3(3.0), x in vec3(2.0)) {
        let back = so3::tangent_inv_matrix(v) * (so3::tangent_matrix(v) * x);
        prop_assert!((back - x).length() < 1e-11 * (1.0 + x.length()));
    }

    #[test]
    fn log_inverts_exp_below_pi(v in vec3(1.8)) {
        prop_assert!((quat::log(quat::exp(v)) - v).length() < 1e-14 * (1.0 + v.length()));
    }

    #[test]
    fn every_newton_jacobian_matches_dual_numbers(i in moments(), k in vec3(2.0), v in vec3(1.5)) {
        check_rule::<Midpoint>(i, k, v)?;
        check_rule::<ObjectTrapezoid>(i, k, v)?;
        check_rule::<WorldTrapezoid>(i, k, v)?;
    }

    #[test]
    fn compounds_of_valid_shapes_are_valid_bodies(
        dims in proptest::collection::vec((0.01f64..1.0, 0.0f64..1.0, 0.1f64..5.0, vec3(1.0), vec3(3.0)), 1..5)
    ) {
        let parts: Vec<Part> = dims.iter().enumerate().map(|(n, &(r, l, m, offset, angles))| Part {
            shape: match n % 4 {
                0 => Shape::Sphere { radius: r },
                1 => Shape::Box { half_extents: DVec3::new(r, l + 0.01, r * 0.5) },
                2 => Shape::Cylinder { radius: r, length: l },
                _ => Shape::Capsule { radius: r, length: l },
            },
            mass: m,
            offset,
            rotation: DQuat::from_euler(glam::EulerRot::XYZ, angles.x, angles.y, angles.z),
        }).collect();
        let props = compound(&parts);
        prop_assert!(Inertia::new(props.principal).is_ok(), "{:?}", props.principal);
        prop_assert!((props.mass - dims.iter().map(|d| d.2).sum::<f64>()).abs() < 1e-12);
    }

    #[test]
    fn exact_solution_conserves_energy_and_momentum(i in moments(), w in vec3(5.0), t in 0.0f64..50.0) {
        prop_assume!(w.length() > 0.1);
        let top = TorqueFreeTop::new(i, w);
        let wt = top.omega(t);
        let (e0, l0) = ((i * w * w).element_sum(), (i * w).length_squared());
        prop_assert!(((i * wt * wt).element_sum() - e0).abs() < 1e-11 * e0);
        prop_assert!(((i * wt).length_squared() - l0).abs() < 1e-11 * l0);
    }
}
