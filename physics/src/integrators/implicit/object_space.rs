//! The object-space implicit rules, written once for the midpoint and the object
//! trapezoid [Mizerski 2020].

use glam::{DMat3, DVec3};

use super::ImplicitRule;
use crate::math::scalar::{Scalar, V3};
use crate::math::so3::{self, coeffs, coeffs_ab, quadratic, rotate_ab, skew};

/// The object-space rules `I v = (1 − w) k + w R(−s v) k`: the midpoint (`w = 1`,
/// `s = ½`) and the object trapezoid (`w = ½`, `s = 1`) [Mizerski 2020]. With
/// `m = R(−s v) k`, `∂m/∂v = s [m] T(−s v)` [Mizerski 2020], so the Jacobian is
/// `I − w s [m] T(−s v)`, and `I v = k − w s v×k + ½ w s² v×(v×k) + O(v³)`.
pub trait ObjectSpaceRule {
    /// `w`, the weight of the end-of-step momentum.
    const WEIGHT: f64;
    /// `s`, the fraction of the step's rotation at which that momentum is taken.
    const SCALE: f64;
    /// The rule's [`ImplicitRule::SAFE_STEP`].
    const NEWTON_BOUND: f64;
}

impl<R: ObjectSpaceRule> ImplicitRule for R {
    const SAFE_STEP: f64 = R::NEWTON_BOUND;

    #[inline]
    fn residual_jacobian(inertia: DVec3, _inv: DVec3, k: DVec3, v: DVec3) -> (DVec3, DMat3) {
        let u = -R::SCALE * v;
        let c = coeffs(u.length_squared());
        let m = rotate_ab(c.a, c.b, u, k);
        let t = quadratic(u, c.b, c.c);
        let j = DMat3::from_diagonal(inertia) - skew(m) * t * (R::WEIGHT * R::SCALE);
        (inertia * v - ((1.0 - R::WEIGHT) * k + R::WEIGHT * m), j)
    }

    #[inline]
    fn residual_only(inertia: DVec3, _inv: DVec3, k: DVec3, v: DVec3) -> DVec3 {
        let u = -R::SCALE * v;
        let (a, b) = coeffs_ab(u.length_squared());
        inertia * v - ((1.0 - R::WEIGHT) * k + R::WEIGHT * rotate_ab(a, b, u, k))
    }

    fn residual<S: Scalar>(inertia: DVec3, k: DVec3, v: V3<S>) -> V3<S> {
        let kk = V3::from_dvec3(k);
        let m = so3::rotate(v.scale(S::from_f64(-R::SCALE)), kk);
        v.mul_diag(inertia)
            - (kk.scale(S::from_f64(1.0 - R::WEIGHT)) + m.scale(S::from_f64(R::WEIGHT)))
    }

    /// Third-order guess from the expansion above.
    #[inline]
    fn predictor(inv_inertia: DVec3, k: DVec3) -> DVec3 {
        let (ws, q) = (R::WEIGHT * R::SCALE, 0.5 * R::WEIGHT * R::SCALE * R::SCALE);
        let v0 = k * inv_inertia;
        let v1 = (k - ws * v0.cross(k)) * inv_inertia;
        (k - ws * v1.cross(k) + q * v0.cross(v0.cross(k))) * inv_inertia
    }
}
