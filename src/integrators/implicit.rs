//! The implicit integrators in exponential coordinates (seed 003): implicit midpoint and
//! the two trapezoidal rules, solved by Newton's method with safe adaptive sub-steps.
//!
//! Over a (sub-)step the attitude moves by `q1 = q0 ⊗ exp(v)`; `v` solves `g(v) = 0`.
//! World angular momentum is untouched, so it is conserved exactly. Everything is in body
//! axes with `h` folded into `k = h L_b`.

use glam::{DMat3, DQuat, DVec3};

use crate::body::{BodyState, MassProps};
use crate::math::quat;
use crate::math::scalar::{Scalar, V3};
use crate::math::so3::{self, coeffs, coeffs_ab, quadratic, skew};

use super::{Loads, StepError, StepInfo, linear_exact};

/// Newton stops once the error it predicts for `v` is below this fraction of `|v|`: a
/// few ulps, far below any integrator's truncation error.
const PRECISION: f64 = 1e-14;
/// Once an update is this small relative to `|v|`, the Jacobian is frozen: the next
/// updates then contract by at least this factor each, at a third of the cost.
const FREEZE: f64 = 1e-4;
const MAX_ITERATIONS: u32 = 16;
/// Sub-steps doubled on non-convergence up to this many before giving up.
const MAX_SUBSTEPS: u32 = 1 << 14;

/// One implicit rule: its residual, Jacobian and Kantorovich step bound.
pub trait ImplicitRule {
    /// Largest `h|L|/I_min` for which Newton from the predictor is guaranteed to converge.
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

/// Third-order guess for rules of the form `I v = k − ½ v×k + q v×(v×k) + O(v³)`.
#[inline]
fn predictor_third_order(inv_inertia: DVec3, k: DVec3, q: f64) -> DVec3 {
    let v0 = k * inv_inertia;
    let v1 = (k - 0.5 * v0.cross(k)) * inv_inertia;
    (k - 0.5 * v1.cross(k) + q * v0.cross(v0.cross(k))) * inv_inertia
}

/// Implicit midpoint: `I v = R(−v/2) k`.
pub struct Midpoint;

impl ImplicitRule for Midpoint {
    const SAFE_STEP: f64 = std::f64::consts::SQRT_2;

    #[inline]
    fn residual_jacobian(inertia: DVec3, _inv: DVec3, k: DVec3, v: DVec3) -> (DVec3, DMat3) {
        let u = -0.5 * v;
        let c = coeffs(u.length_squared());
        let uk = u.cross(k);
        let m = k + c.a * uk + c.b * u.cross(uk);
        let t = quadratic(u, c.b, c.c);
        let j = DMat3::from_diagonal(inertia) - skew(m) * t * 0.5;
        (inertia * v - m, j)
    }

    #[inline]
    fn residual_only(inertia: DVec3, _inv: DVec3, k: DVec3, v: DVec3) -> DVec3 {
        let u = -0.5 * v;
        let (a, b) = coeffs_ab(u.length_squared());
        let uk = u.cross(k);
        inertia * v - (k + a * uk + b * u.cross(uk))
    }

    #[inline]
    fn predictor(inv_inertia: DVec3, k: DVec3) -> DVec3 {
        predictor_third_order(inv_inertia, k, 0.125)
    }

    fn residual<S: Scalar>(inertia: DVec3, k: DVec3, v: V3<S>) -> V3<S> {
        let u = v.scale(S::from_f64(-0.5));
        v.mul_diag(inertia) - so3::rotate(u, V3::from_dvec3(k))
    }
}

/// Object-space trapezoid: `I v = ½(k + R(−v) k)`; conserves energy exactly.
pub struct ObjectTrapezoid;

impl ImplicitRule for ObjectTrapezoid {
    const SAFE_STEP: f64 = 1.0;

    #[inline]
    fn residual_jacobian(inertia: DVec3, _inv: DVec3, k: DVec3, v: DVec3) -> (DVec3, DMat3) {
        let u = -v;
        let c = coeffs(u.length_squared());
        let uk = u.cross(k);
        let m = k + c.a * uk + c.b * u.cross(uk);
        let t = quadratic(u, c.b, c.c);
        let j = DMat3::from_diagonal(inertia) - skew(m) * t * 0.5;
        (inertia * v - 0.5 * (k + m), j)
    }

    #[inline]
    fn residual_only(inertia: DVec3, _inv: DVec3, k: DVec3, v: DVec3) -> DVec3 {
        let u = -v;
        let (a, b) = coeffs_ab(u.length_squared());
        let uk = u.cross(k);
        inertia * v - 0.5 * (k + k + a * uk + b * u.cross(uk))
    }

    #[inline]
    fn predictor(inv_inertia: DVec3, k: DVec3) -> DVec3 {
        predictor_third_order(inv_inertia, k, 0.25)
    }

    fn residual<S: Scalar>(inertia: DVec3, k: DVec3, v: V3<S>) -> V3<S> {
        let kk = V3::from_dvec3(k);
        let m = so3::rotate(-v, kk);
        v.mul_diag(inertia) - (kk + m).scale(S::from_f64(0.5))
    }
}

/// World-space trapezoid (Roblox): `v = ½(I⁻¹k + R(v) I⁻¹ R(−v) k)`, both angular
/// velocities in the start frame.
pub struct WorldTrapezoid;

impl ImplicitRule for WorldTrapezoid {
    const SAFE_STEP: f64 = std::f64::consts::SQRT_2;

    #[inline]
    fn residual_jacobian(_inertia: DVec3, inv: DVec3, k: DVec3, v: DVec3) -> (DVec3, DMat3) {
        let c = coeffs(v.length_squared());
        let rot = |u: DVec3, x: DVec3| {
            let ux = u.cross(x);
            x + c.a * ux + c.b * u.cross(ux)
        };
        let m = rot(-v, k);
        let y = m * inv;
        let ry = rot(v, y);
        let (t_plus, t_minus) = (quadratic(v, c.b, c.c), quadratic(-v, c.b, c.c));
        let r_plus = quadratic(v, c.a, c.b);
        let inner = -skew(ry) * t_plus + r_plus * DMat3::from_diagonal(inv) * skew(m) * t_minus;
        let j = DMat3::IDENTITY - inner * 0.5;
        (v - 0.5 * (k * inv + ry), j)
    }

    #[inline]
    fn residual_only(_inertia: DVec3, inv: DVec3, k: DVec3, v: DVec3) -> DVec3 {
        let (a, b) = coeffs_ab(v.length_squared());
        let rot = |u: DVec3, x: DVec3| {
            let ux = u.cross(x);
            x + a * ux + b * u.cross(ux)
        };
        v - 0.5 * (k * inv + rot(v, rot(-v, k) * inv))
    }

    fn residual<S: Scalar>(_inertia: DVec3, k: DVec3, v: V3<S>) -> V3<S> {
        let inv = _inertia.recip();
        let kk = V3::from_dvec3(k);
        let y = so3::rotate(-v, kk).mul_diag(inv);
        v - (kk.mul_diag(inv) + so3::rotate(v, y)).scale(S::from_f64(0.5))
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
/// when that estimate is below [`PRECISION`].
#[inline]
pub fn newton_solve<R: ImplicitRule>(inertia: DVec3, inv: DVec3, k: DVec3) -> Option<(DVec3, u32)> {
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

/// `n` equal sub-steps from `q0`; `None` if any Newton solve fails.
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

/// The number of equal sub-steps the Kantorovich condition asks for.
#[inline]
pub fn safe_substeps<R: ImplicitRule>(props: &MassProps, l_squared: f64, h: f64) -> u32 {
    let limit = props.inertia.min() * R::SAFE_STEP;
    // Squares first: the common case needs no square root and no division.
    if h * h * l_squared <= limit * limit {
        return 1;
    }
    (h * l_squared.sqrt() / limit)
        .ceil()
        .min(MAX_SUBSTEPS as f64) as u32
}

/// A full step: half the torque impulse, the torque-free implicit rotation, the other half
/// (Strang splitting keeps second order under constant torque).
pub(super) fn step<R: ImplicitRule>(
    props: &MassProps,
    s: &mut BodyState,
    loads: Loads,
    h: f64,
) -> Result<StepInfo, StepError> {
    s.angular_momentum += 0.5 * h * loads.torque;
    let mut n = safe_substeps::<R>(props, s.angular_momentum.length_squared(), h);
    loop {
        if let Some((q, iterations)) = advance::<R>(props, s.orientation, s.angular_momentum, h, n)
        {
            s.orientation = q;
            s.angular_momentum += 0.5 * h * loads.torque;
            linear_exact(props, s, loads.force, h);
            return Ok(StepInfo {
                newton_iterations: iterations,
                substeps: n,
            });
        }
        if n >= MAX_SUBSTEPS {
            return Err(StepError::NotConverged { substeps: n });
        }
        n = (n * 2).min(MAX_SUBSTEPS);
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
    fn midpoint_jacobian_matches_dual_numbers() {
        check_jacobian::<Midpoint>();
    }

    #[test]
    fn object_trapezoid_jacobian_matches_dual_numbers() {
        check_jacobian::<ObjectTrapezoid>();
    }

    #[test]
    fn world_trapezoid_jacobian_matches_dual_numbers() {
        check_jacobian::<WorldTrapezoid>();
    }

    #[test]
    fn safe_substeps_follow_the_kantorovich_bound() {
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

    #[test]
    fn newton_converges_inside_the_safe_region() {
        let inertia = DVec3::new(2.5, 1.4, 1.3);
        let inv = inertia.recip();
        // |k| / I_min at the bound, in many directions.
        for i in 0..64 {
            let a = i as f64 * 0.7;
            let dir = DVec3::new(a.cos() * (0.3 * a).sin(), a.sin(), (0.3 * a).cos()).normalize();
            let k = dir * inertia.min_element() * Midpoint::SAFE_STEP;
            let (v, _) = newton_solve::<Midpoint>(inertia, inv, k).expect("converges");
            assert!(
                Midpoint::residual_jacobian(inertia, inv, k, v).0.length() < 1e-13 * k.length()
            );
        }
    }
}
