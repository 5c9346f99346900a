//! Seed 002: orientation under constant angular acceleration by the Magnus expansion.
//!
//! The angular acceleration (gyroscopic term included) is evaluated once and held over
//! the step, so ω advances by explicit Euler; the orientation then follows that linear ω
//! far more accurately than `q + ½hω⊗q` would.

use glam::DVec3;

use crate::body::{BodyState, MassProps};
use crate::math::quat;

use super::{Loads, StepInfo, linear_exact};

/// The world-frame Magnus vector `Ω` for `ω(t) = ω + αt` over `h`, to use as
/// `q' = exp(Ω) ⊗ q`: `Ω₁ + Ω₂ + Ω₃` and the same-order `h⁵/720` term
/// (reference/rotation.md), so the local error is O(h⁷).
#[inline]
pub fn magnus_rotation(omega: DVec3, alpha: DVec3, h: f64) -> DVec3 {
    let w_new = omega + alpha * h;
    let w_mid = 0.5 * (omega + w_new);
    let h2 = h * h;
    let h5 = h2 * h2 * h;
    let o1 = w_mid * h;
    let o2 = (h2 / 12.0) * w_new.cross(omega);
    let o3 = (h5 / 240.0) * alpha.cross(alpha.cross(omega));
    let o4 = (h5 / 720.0) * w_mid.cross(w_mid.cross(w_mid.cross(alpha)));
    o1 + o2 + o3 + o4
}

pub(super) fn step(props: &MassProps, s: &mut BodyState, loads: Loads, h: f64) -> StepInfo {
    let lb = s.body_momentum();
    let wb = lb * props.inertia.inverse();
    let tau_b = s.orientation.inverse() * loads.torque;
    let alpha = s.orientation * ((tau_b - wb.cross(lb)) * props.inertia.inverse());
    let omega = s.orientation * wb;
    let omega_rot = magnus_rotation(omega, alpha, h);
    s.orientation = (quat::exp_third_order(omega_rot) * s.orientation).normalize();
    s.set_world_omega(props, omega + alpha * h);
    linear_exact(props, s, loads.force, h);
    StepInfo::default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DQuat;

    /// Reference: RK4 on q̇ = ½ ω(t) ⊗ q with ω(t) = ω + αt, many tiny steps.
    fn reference(omega: DVec3, alpha: DVec3, h: f64) -> DQuat {
        let n = 4000;
        let dt = h / n as f64;
        let f = |t: f64, q: DQuat| {
            let w = omega + alpha * t;
            DQuat::from_xyzw(w.x, w.y, w.z, 0.0) * q * 0.5
        };
        let mut q = DQuat::IDENTITY;
        for i in 0..n {
            let t = i as f64 * dt;
            let k1 = f(t, q);
            let k2 = f(t + 0.5 * dt, q + k1 * (0.5 * dt));
            let k3 = f(t + 0.5 * dt, q + k2 * (0.5 * dt));
            let k4 = f(t + dt, q + k3 * dt);
            q = (q + (k1 + k2 * 2.0 + k3 * 2.0 + k4) * (dt / 6.0)).normalize();
        }
        q
    }

    #[test]
    fn magnus_rotation_has_seventh_order_local_error() {
        let omega = DVec3::new(1.0, 2.0, -0.5);
        let alpha = DVec3::new(-3.0, 1.0, 4.0);
        let err = |h: f64| {
            let q = quat::exp(magnus_rotation(omega, alpha, h));
            q.angle_between(reference(omega, alpha, h))
        };
        let order = (err(0.4) / err(0.2)).log2();
        assert!(order > 6.5, "local error order {order}");
    }
}
