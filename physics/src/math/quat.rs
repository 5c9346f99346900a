//! Quaternion exponential and logarithm of rotation vectors, and the normalised
//! third-order exponential of the Magnus update [cwzx, Magnus].

use glam::{DQuat, DVec3};

use super::so3::coeffs_ab;

/// The unit quaternion of the rotation by `|v|` about `v`. The half-angle sine and cosine
/// come from the same series as `R(v)`, so small angles cost no trigonometry.
#[inline]
pub fn exp(v: DVec3) -> DQuat {
    let quarter = 0.25 * v.length_squared();
    let (a, b) = coeffs_ab(quarter);
    let xyz = v * (0.5 * a);
    DQuat::from_xyzw(xyz.x, xyz.y, xyz.z, 1.0 - quarter * b)
}

/// The rotation vector of `q` (angle in [0, π]); the inverse of [`exp`].
pub fn log(q: DQuat) -> DVec3 {
    let q = if q.w < 0.0 { -q } else { q };
    let xyz = DVec3::new(q.x, q.y, q.z);
    let s = xyz.length();
    // atan2(s, w)/s → 1/w with relative error s²/3: below 1e-8 that is under an ulp.
    let scale = if s < 1e-8 {
        2.0 / q.w
    } else {
        2.0 * libm::atan2(s, q.w) / s
    };
    xyz * scale
}

/// `normalize(1 − θ²/8, (1 − θ²/24) Ω/2)` with `θ = |Ω|`: the cheap exponential of [cwzx, Magnus],
/// exact to third order in θ, a unit quaternion by construction.
#[inline]
pub fn exp_third_order(omega: DVec3) -> DQuat {
    let t2 = omega.length_squared();
    let xyz = omega * (0.5 * (1.0 - t2 / 24.0));
    DQuat::from_xyzw(xyz.x, xyz.y, xyz.z, 1.0 - t2 / 8.0).normalize()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exp_matches_axis_angle_and_log_inverts_it() {
        for t in [0.0, 1e-12, 1e-5, 0.3, 0.9, 1.7, 3.0] {
            let v = DVec3::new(1.0, 2.0, -0.5).normalize() * t;
            let q = exp(v);
            let expected = if t == 0.0 {
                DQuat::IDENTITY
            } else {
                DQuat::from_axis_angle(v.normalize(), t)
            };
            assert!((q - expected).length() < 1e-15, "exp at {t}");
            assert!((q.length() - 1.0).abs() < 1e-15);
            assert!((log(q) - v).length() < 1e-15 * (1.0 + t), "log at {t}");
        }
    }

    #[test]
    fn third_order_exponential_has_fifth_order_angle_error() {
        // Exact to θ³ in tan(θ/2), so the angle error shrinks as θ⁵.
        let axis = DVec3::new(0.2, 0.9, -0.4).normalize();
        let err = |t: f64| (log(exp_third_order(axis * t)).length() - t).abs();
        let order = (err(0.2) / err(0.1)).log2();
        assert!((order - 5.0).abs() < 0.1, "order {order}");
        // About 1% angle error near 86° per step, the largest safe midpoint step.
        let t = 86f64.to_radians();
        assert!((err(t) / t - 0.01).abs() < 0.002, "{}", err(t) / t);
    }
}
