//! Orientation under constant angular acceleration by the Magnus expansion [cwzx, Magnus].
//!
//! The angular acceleration (gyroscopic term included) is evaluated once and held over
//! the step, so ω advances by explicit Euler (global order 1); the orientation then
//! follows that linear ω with local error O(h⁵), where `q + ½hω⊗q` has O(h²).

use glam::{DQuat, DVec3};

use crate::body::{BodyState, MassProps};
use crate::math::quat;

use super::{Loads, StepInfo, linear_exact};

/// The world-frame Magnus vector `Ω` for `ω(t) = ω + αt` over `h`, to use as
/// `q' = exp(Ω) ⊗ q`: `Ω₁ + Ω₂ + Ω₃` and the same-order `h⁵/720` term
/// [cwzx, Magnus]. With the exact exponential the local error is O(h⁷); the
/// step uses the third-order one (`magnus_orientation`).
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

/// The orientation after `h` under `ω(t) = ω + αt` (world frame), the way the step
/// computes it: the Magnus vector through the normalised third-order exponential
/// [cwzx, Magnus]. That exponential's angle error, O(|Ω|⁵), dominates the series' O(h⁷):
/// the local error is O(h⁵).
#[inline]
pub fn magnus_orientation(q: DQuat, omega: DVec3, alpha: DVec3, h: f64) -> DQuat {
    (quat::exp_third_order(magnus_rotation(omega, alpha, h)) * q).normalize()
}

pub(super) fn step(props: &MassProps, s: &mut BodyState, loads: Loads, h: f64) -> StepInfo {
    let lb = s.body_momentum();
    let wb = lb * props.inertia.inverse();
    let tau_b = s.orientation.inverse() * loads.torque;
    let alpha = s.orientation * ((tau_b - wb.cross(lb)) * props.inertia.inverse());
    let omega = s.orientation * wb;
    s.orientation = magnus_orientation(s.orientation, omega, alpha, h);
    s.set_world_omega(props, omega + alpha * h);
    linear_exact(props, s, loads.force, h);
    StepInfo::default()
}

#[cfg(test)]
mod tests {
    use super::*;

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

    const OMEGA: DVec3 = DVec3::new(1.0, 2.0, -0.5);
    const ALPHA: DVec3 = DVec3::new(-3.0, 1.0, 4.0);

    /// Local order of an orientation update from two step sizes.
    fn local_order(update: impl Fn(f64) -> DQuat, h: f64) -> f64 {
        let err = |h: f64| quat::log(update(h).inverse() * reference(OMEGA, ALPHA, h)).length();
        (err(h) / err(h / 2.0)).log2()
    }

    #[test]
    fn magnus_series_has_seventh_order_local_error_with_the_exact_exponential() {
        // Checks the terms themselves: a wrong Ω₃ or h⁵/720 term would show here and
        // hide under the third-order exponential's error.
        let order = local_order(|h| quat::exp(magnus_rotation(OMEGA, ALPHA, h)), 0.4);
        assert!((order - 7.0).abs() < 0.5, "local error order {order}");
    }

    #[test]
    fn the_step_orientation_has_fifth_order_local_error() {
        // The path the step runs: the third-order exponential caps the order at 5.
        let order = local_order(
            |h| magnus_orientation(DQuat::IDENTITY, OMEGA, ALPHA, h),
            0.2,
        );
        assert!((order - 5.0).abs() < 0.3, "local error order {order}");
    }

    #[test]
    fn the_step_runs_magnus_orientation() {
        // A torque-free step from rest orientation: ω and α as the step evaluates them.
        let props = MassProps {
            mass: 1.0,
            inertia: crate::body::inertia::Inertia::new(DVec3::new(1.0, 2.0, 3.0)).unwrap(),
        };
        let w = DVec3::new(0.4, 1.5, -0.6);
        let mut s = BodyState::from_body_omega(&props, DQuat::IDENTITY, w);
        let alpha = -(w.cross(props.inertia.principal() * w)) * props.inertia.inverse();
        step(&props, &mut s, Loads::default(), 0.05);
        let expected = magnus_orientation(DQuat::IDENTITY, w, alpha, 0.05);
        assert!(quat::log(s.orientation.inverse() * expected).length() < 1e-15);
    }
}
