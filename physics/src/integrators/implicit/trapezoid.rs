//! The two trapezoidal rules in exponential coordinates [Mizerski 2020]: the object
//! trapezoid (energy exact) and the world trapezoid (Roblox's).

use glam::{DMat3, DVec3};

use super::{ImplicitRule, ObjectSpaceRule};
use crate::math::scalar::{Scalar, V3};
use crate::math::so3::{self, coeffs, coeffs_ab, quadratic, rotate_ab, skew};

/// Object-space trapezoid: `I v = ½(k + R(−v) k)`; conserves energy exactly.
pub struct ObjectTrapezoid;

impl ObjectSpaceRule for ObjectTrapezoid {
    const WEIGHT: f64 = 0.5;
    const SCALE: f64 = 1.0;
    const NEWTON_BOUND: f64 = 1.0;
}

/// World-space trapezoid (Roblox): `v = ½(I⁻¹k + R(v) I⁻¹ R(−v) k)`, both angular
/// velocities in the start frame.
pub struct WorldTrapezoid;

impl ImplicitRule for WorldTrapezoid {
    const SAFE_STEP: f64 = std::f64::consts::SQRT_2;

    #[inline]
    fn residual_jacobian(_inertia: DVec3, inv: DVec3, k: DVec3, v: DVec3) -> (DVec3, DMat3) {
        let c = coeffs(v.length_squared());
        let m = rotate_ab(c.a, c.b, -v, k);
        let y = m * inv;
        let ry = rotate_ab(c.a, c.b, v, y);
        let (t_plus, t_minus) = (quadratic(v, c.b, c.c), quadratic(-v, c.b, c.c));
        let r_plus = quadratic(v, c.a, c.b);
        let inner = -skew(ry) * t_plus + r_plus * DMat3::from_diagonal(inv) * skew(m) * t_minus;
        let j = DMat3::IDENTITY - inner * 0.5;
        (v - 0.5 * (k * inv + ry), j)
    }

    #[inline]
    fn residual_only(_inertia: DVec3, inv: DVec3, k: DVec3, v: DVec3) -> DVec3 {
        let (a, b) = coeffs_ab(v.length_squared());
        v - 0.5 * (k * inv + rotate_ab(a, b, v, rotate_ab(a, b, -v, k) * inv))
    }

    fn residual<S: Scalar>(inertia: DVec3, k: DVec3, v: V3<S>) -> V3<S> {
        let inv = inertia.recip();
        let kk = V3::from_dvec3(k);
        let y = so3::rotate(-v, kk).mul_diag(inv);
        v - (kk.mul_diag(inv) + so3::rotate(v, y)).scale(S::from_f64(0.5))
    }
}
