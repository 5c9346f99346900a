//! The implicit integrators in exponential coordinates [Mizerski 2020]: implicit midpoint
//! (midpoint.rs) and the two trapezoidal rules (trapezoid.rs), the residuals of the
//! object-space ones written once (object_space.rs), solved here by Newton's method, a step too large for one
//! Newton solve split into equal safe sub-steps.
//!
//! Over a (sub-)step the attitude moves by `q1 = q0 ⊗ exp(v)`; `v` solves `g(v) = 0`.
//! World angular momentum is untouched, so it is conserved exactly. Everything is in body
//! axes with `h` folded into `k = h L_b`.

use glam::{DMat3, DQuat, DVec3};

use crate::body::{BodyState, MassProps};
use crate::math::quat;
use crate::math::scalar::{Scalar, V3};

use super::{Loads, StepError, StepInfo, linear_exact};

mod midpoint;
mod object_space;
mod trapezoid;

pub use midpoint::Midpoint;
pub use object_space::ObjectSpaceRule;
pub use trapezoid::{ObjectTrapezoid, WorldTrapezoid};

/// Newton stops once the error it predicts for `v` is below this fraction of `|v|`: a
/// few ulps, far below any integrator's truncation error.
const PRECISION: f64 = 1e-14;
/// Once an update is this small relative to `|v|`, the Jacobian is frozen: the next
/// updates then contract by at least this factor each, at a third of the cost.
const FREEZE: f64 = 1e-4;
const MAX_ITERATIONS: u32 = 16;
/// The simple iterator's limit: it converges linearly, so it is given more than Newton.
pub const MAX_FIXED_POINT: u32 = 100;
/// Safe sub-steps doubled on non-convergence up to this many before giving up.
const MAX_SAFE_SUBSTEPS: u32 = 1 << 14;

/// One implicit rule: its residual, Jacobian and Newton step bound.
pub trait ImplicitRule {
    /// Largest `h|L|/I_min` solved in one Newton solve; larger steps are split into
    /// safe sub-steps. For the midpoint (√2) and the object trapezoid (1) it is the
    /// Kantorovich bound \[Kantorovich\] for Newton started at `v = 0`, as
    /// [Mizerski 2020] states it; this Newton starts from [`ImplicitRule::predictor`] and
    /// freezes its Jacobian, and the world trapezoid's √2 is derived nowhere, so for the
    /// iteration as run every bound is measured, not proved: the tests check convergence
    /// at each bound.
    const SAFE_STEP: f64;

    /// Residual `g(v)` and Jacobian `∂g/∂v`, the fast f64 path.
    fn residual_jacobian(inertia: DVec3, inv_inertia: DVec3, k: DVec3, v: DVec3) -> (DVec3, DMat3);

    /// Residual alone, for iterations with a frozen Jacobian.
    fn residual_only(inertia: DVec3, inv_inertia: DVec3, k: DVec3, v: DVec3) -> DVec3;

    /// The same residual for any scalar, so tests can differentiate it with dual numbers.
    fn residual<S: Scalar>(inertia: DVec3, k: DVec3, v: V3<S>) -> V3<S>;

    /// Starting guess. All three rules expand to `I v = k − ½ v × k + O(v²)`; rules that
    /// know their quadratic term override this with a third-order guess.
    #[inline]
    fn predictor(inv_inertia: DVec3, k: DVec3) -> DVec3 {
        let v0 = k * inv_inertia;
        (k - 0.5 * v0.cross(k)) * inv_inertia
    }
}

/// A 3×3 matrix factored for repeated solves by Cramer's rule: the rows of the inverse
/// are cross products of the columns, so no general inverse is formed.
struct Factored {
    rows: [DVec3; 3],
    inv_det: f64,
}

impl Factored {
    #[inline]
    fn new(m: DMat3) -> Option<Self> {
        let rows = [
            m.y_axis.cross(m.z_axis),
            m.z_axis.cross(m.x_axis),
            m.x_axis.cross(m.y_axis),
        ];
        let det = m.x_axis.dot(rows[0]);
        (det.abs() > 1e-300).then(|| Self {
            rows,
            inv_det: 1.0 / det,
        })
    }

    #[inline]
    fn solve(&self, b: DVec3) -> DVec3 {
        DVec3::new(
            self.rows[0].dot(b),
            self.rows[1].dot(b),
            self.rows[2].dot(b),
        ) * self.inv_det
    }
}

/// Newton's method from the predictor. Returns `v` and the iterations used, or `None`
/// if it did not converge.
///
/// After an update of relative size `d`, the remaining error is about `d²` with a fresh
/// Jacobian and about `d·d_J` with one frozen when the update was `d_J`; iteration stops
/// when that estimate is below `PRECISION`.
#[inline]
pub fn newton_solve<R: ImplicitRule>(inertia: DVec3, inv: DVec3, k: DVec3) -> Option<(DVec3, u32)> {
    // Equal moments: a rotation about `k` leaves `k` unchanged, so `I v = k` is every
    // rule's root exactly, found with no iteration (a cube in a pile, every sub-step).
    if inertia.x == inertia.y && inertia.y == inertia.z {
        return Some((k * inv, 0));
    }
    let mut v = R::predictor(inv, k);
    let mut jacobian: Option<Factored> = None;
    // Relative size of the update made with the current Jacobian when it was fresh.
    let mut frozen_at = f64::INFINITY;
    for it in 1..=MAX_ITERATIONS {
        let fresh = frozen_at > FREEZE || jacobian.is_none();
        let g = if fresh {
            let (g, j) = R::residual_jacobian(inertia, inv, k, v);
            jacobian = Some(Factored::new(j)?);
            g
        } else {
            R::residual_only(inertia, inv, k, v)
        };
        let delta = jacobian.as_ref()?.solve(g);
        v -= delta;
        let (d2, v2) = (delta.length_squared(), v.length_squared());
        if !(d2.is_finite() && v2.is_finite()) {
            return None;
        }
        if d2 == 0.0 {
            return Some((v, it));
        }
        let remaining2 = if fresh {
            d2 * d2 / v2
        } else {
            d2 * frozen_at * frozen_at
        };
        if remaining2 <= PRECISION * PRECISION * v2 {
            return Some((v, it));
        }
        if fresh {
            frozen_at = (d2 / v2).sqrt();
        }
    }
    None
}

/// The simple iterator of [Mizerski 2020], section 8: the rule's own equation
/// `I v = f(v)` applied as a map, `v ← I⁻¹ f(v)`, from `v = 0`, until an update is below
/// `PRECISION` of `v`. It contracts only near `k = 0`, and there slowly; shown beside
/// Newton's map, it is why Newton is used. Returns `v` and the iterations used, or
/// `None` if it did not converge in [`MAX_FIXED_POINT`] iterations.
pub fn fixed_point_solve<R: ObjectSpaceRule>(
    inertia: DVec3,
    inv: DVec3,
    k: DVec3,
) -> Option<(DVec3, u32)> {
    let mut v = DVec3::ZERO;
    for it in 1..=MAX_FIXED_POINT {
        // `g = I v − f(v)`, so `I⁻¹ f(v) = v − I⁻¹ g`.
        let delta = R::residual_only(inertia, inv, k, v) * inv;
        v -= delta;
        let (d2, v2) = (delta.length_squared(), v.length_squared());
        if !(d2.is_finite() && v2.is_finite()) {
            return None;
        }
        if d2 <= PRECISION * PRECISION * v2 {
            return Some((v, it));
        }
    }
    None
}

/// `n` equal safe sub-steps from `q0`; `None` if any Newton solve fails.
#[inline]
fn advance<R: ImplicitRule>(
    props: &MassProps,
    q0: DQuat,
    l_world: DVec3,
    h: f64,
    n: u32,
) -> Option<(DQuat, u32)> {
    let (inertia, inv) = (props.inertia.principal(), props.inertia.inverse());
    let hs = h / n as f64;
    let mut q = q0;
    let mut iterations = 0;
    for _ in 0..n {
        let k = hs * (q.inverse() * l_world);
        let (v, it) = newton_solve::<R>(inertia, inv, k)?;
        q *= quat::exp(v);
        // One Newton step towards |q| = 1: no square root, error squared each step.
        q = q * (1.5 - 0.5 * q.length_squared());
        iterations += it;
    }
    Some((q, iterations))
}

/// The number of equal safe sub-steps that keeps each within [`ImplicitRule::SAFE_STEP`].
#[inline]
pub fn safe_substeps<R: ImplicitRule>(props: &MassProps, l_squared: f64, h: f64) -> u32 {
    // Equal moments need no Newton solve, so no step is too large for one.
    if props.inertia.is_isotropic() {
        return 1;
    }
    let limit = props.inertia.min() * R::SAFE_STEP;
    // Squares first: the common case needs no square root and no division.
    if h * h * l_squared <= limit * limit {
        return 1;
    }
    (h * l_squared.sqrt() / limit)
        .ceil()
        .min(MAX_SAFE_SUBSTEPS as f64) as u32
}

/// A full step: half the torque impulse, the torque-free implicit rotation, the other half
/// (Strang splitting keeps second order under constant torque).
pub(super) fn step<R: ImplicitRule>(
    props: &MassProps,
    s: &mut BodyState,
    loads: Loads,
    h: f64,
) -> Result<StepInfo, StepError> {
    kick_rotate_kick(
        props,
        s,
        loads,
        h,
        |l| safe_substeps::<R>(props, l.length_squared(), h),
        |q, l, n| advance::<R>(props, q, l, h, n),
    )
}

/// Strang splitting with safe sub-steps, shared by the implicit rules and DMV: half the
/// torque impulse; the torque-free rotation over `h` in `first(L)` sub-steps, doubled
/// while `rotate(q, L, n)` does not converge (up to [`MAX_SAFE_SUBSTEPS`]); the other half;
/// the translation exactly.
pub(super) fn kick_rotate_kick(
    props: &MassProps,
    s: &mut BodyState,
    loads: Loads,
    h: f64,
    first: impl FnOnce(DVec3) -> u32,
    mut rotate: impl FnMut(DQuat, DVec3, u32) -> Option<(DQuat, u32)>,
) -> Result<StepInfo, StepError> {
    s.angular_momentum += 0.5 * h * loads.torque;
    let mut n = first(s.angular_momentum).clamp(1, MAX_SAFE_SUBSTEPS);
    loop {
        if let Some((q, iterations)) = rotate(s.orientation, s.angular_momentum, n) {
            s.orientation = q;
            s.angular_momentum += 0.5 * h * loads.torque;
            linear_exact(props, s, loads.force, h);
            return Ok(StepInfo {
                newton_iterations: iterations,
                safe_substeps: n,
            });
        }
        if n >= MAX_SAFE_SUBSTEPS {
            return Err(StepError::NotConverged { safe_substeps: n });
        }
        n = (n * 2).min(MAX_SAFE_SUBSTEPS);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::dual::jacobian3;

    fn check_jacobian<R: ImplicitRule>() {
        let inertia = DVec3::new(2.5, 1.4, 1.3);
        let inv = inertia.recip();
        for (k, v) in [
            (DVec3::new(0.3, -0.2, 0.1), DVec3::new(0.05, 0.1, -0.02)),
            (DVec3::new(2.0, 1.0, -0.5), DVec3::new(0.4, 0.3, 0.35)),
            (DVec3::new(-3.0, 4.0, 1.0), DVec3::new(-1.1, 1.2, 0.8)),
            (DVec3::new(0.0, 0.0, 1e-6), DVec3::ZERO),
        ] {
            let (g, j) = R::residual_jacobian(inertia, inv, k, v);
            let ad = jacobian3(|x| R::residual(inertia, k, x), v);
            let g_generic = R::residual::<f64>(inertia, k, V3::from_dvec3(v)).re();
            assert!(
                (R::residual_only(inertia, inv, k, v) - g).length() < 1e-15 * (1.0 + g.length())
            );
            assert!((g - g_generic).length() < 1e-14 * (1.0 + g.length()));
            let err = (j - ad)
                .abs()
                .to_cols_array()
                .iter()
                .fold(0.0f64, |a, e| a.max(*e));
            assert!(err < 1e-13, "Jacobian mismatch {err} at k={k} v={v}");
        }
    }

    #[test]
    fn every_jacobian_matches_dual_numbers() {
        check_jacobian::<Midpoint>();
        check_jacobian::<ObjectTrapezoid>();
        check_jacobian::<WorldTrapezoid>();
    }

    /// `v = I⁻¹ k` for equal moments: checked against each rule's own residual, and
    /// a large step is one step.
    fn check_equal_moments<R: ImplicitRule>() {
        let inertia = DVec3::splat(0.4);
        let inv = inertia.recip();
        for k in [
            DVec3::new(0.3, -0.2, 0.1),
            DVec3::new(-3.0, 4.0, 1.0),
            DVec3::new(20.0, -7.0, 13.0),
        ] {
            let (v, iterations) = newton_solve::<R>(inertia, inv, k).unwrap();
            assert_eq!((v, iterations), (k * inv, 0));
            let g = R::residual_only(inertia, inv, k, v);
            assert!(g.length() < 1e-14 * v.length(), "residual {g} at k={k}");
        }
        let props = MassProps {
            mass: 1.0,
            inertia: crate::body::inertia::Inertia::new(inertia).unwrap(),
        };
        assert_eq!(safe_substeps::<R>(&props, 1e6, 1.0), 1);
    }

    #[test]
    fn equal_moments_solve_in_closed_form() {
        check_equal_moments::<Midpoint>();
        check_equal_moments::<ObjectTrapezoid>();
        check_equal_moments::<WorldTrapezoid>();
    }

    #[test]
    fn safe_substeps_split_the_step_at_the_bound() {
        let props = MassProps {
            mass: 1.0,
            inertia: crate::body::inertia::Inertia::new(DVec3::new(1.0, 2.5, 2.0)).unwrap(),
        };
        // h|L|/I_min = 20/60 < √2: one step; 20·0.5 = 10 → ceil(10/√2) = 8 sub-steps.
        assert_eq!(safe_substeps::<Midpoint>(&props, 400.0, 1.0 / 60.0), 1);
        assert_eq!(safe_substeps::<Midpoint>(&props, 400.0, 0.5), 8);
        assert_eq!(safe_substeps::<ObjectTrapezoid>(&props, 400.0, 0.5), 10);
    }

    #[test]
    fn zero_momentum_converges_to_no_rotation() {
        let inertia = DVec3::new(2.5, 1.4, 1.3);
        let (v, _) = newton_solve::<Midpoint>(inertia, inertia.recip(), DVec3::ZERO).unwrap();
        assert_eq!(v, DVec3::ZERO);
    }

    /// Newton from the predictor at `h|L|/I_min = SAFE_STEP`, the largest step taken
    /// without sub-steps, over directions covering the sphere and bodies from a sphere to
    /// a thin rod and a flat plate. The bound is not proved for this iteration (see
    /// [`ImplicitRule::SAFE_STEP`]); this measures it.
    fn check_converges_at_the_bound<R: ImplicitRule>() {
        let bodies = [
            DVec3::new(2.5, 1.4, 1.3),
            DVec3::ONE,
            DVec3::new(1.0, 2.0, 3.0),
            DVec3::new(0.02, 1.0, 1.0),
            DVec3::new(1.0, 1.0, 2.0),
        ];
        let n = 400;
        for inertia in bodies {
            let inv = inertia.recip();
            for i in 0..n {
                // Fibonacci sphere: even coverage of the directions of L.
                let z = 1.0 - (2 * i + 1) as f64 / n as f64;
                let phi = i as f64 * std::f64::consts::PI * (3.0 - 5f64.sqrt());
                let r = (1.0 - z * z).sqrt();
                let dir = DVec3::new(r * phi.cos(), r * phi.sin(), z);
                let k = dir * inertia.min_element() * R::SAFE_STEP;
                let (v, _) = newton_solve::<R>(inertia, inv, k)
                    .unwrap_or_else(|| panic!("no convergence at I={inertia} k={k}"));
                let g = R::residual_jacobian(inertia, inv, k, v).0;
                assert!(
                    g.length() < 1e-13 * k.length(),
                    "residual {g} at I={inertia}"
                );
            }
        }
    }

    #[test]
    fn newton_converges_at_each_rules_bound() {
        check_converges_at_the_bound::<Midpoint>();
        check_converges_at_the_bound::<ObjectTrapezoid>();
        check_converges_at_the_bound::<WorldTrapezoid>();
    }
}
