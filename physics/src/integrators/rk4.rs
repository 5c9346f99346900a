//! Classical fourth-order Runge-Kutta on `(q, ω_b)`.

use glam::{DQuat, DVec3};

use crate::body::{BodyState, MassProps};

use super::{Loads, StepInfo, linear_exact};

pub(super) fn step(props: &MassProps, s: &mut BodyState, loads: Loads, h: f64) -> StepInfo {
    let (inertia, inv) = (props.inertia.principal(), props.inertia.inverse());
    let deriv = |q: DQuat, w: DVec3| {
        // Stage quaternions drift off the unit sphere; the torque needs a rotation.
        let tau_b = if loads.torque == DVec3::ZERO {
            DVec3::ZERO
        } else {
            q.normalize().inverse() * loads.torque
        };
        let qdot = q * DQuat::from_xyzw(w.x, w.y, w.z, 0.0) * 0.5;
        let wdot = (tau_b - w.cross(inertia * w)) * inv;
        (qdot, wdot)
    };
    let (q, w) = (s.orientation, s.body_omega(props));
    let (q1, w1) = deriv(q, w);
    let (q2, w2) = deriv(q + q1 * (0.5 * h), w + w1 * (0.5 * h));
    let (q3, w3) = deriv(q + q2 * (0.5 * h), w + w2 * (0.5 * h));
    let (q4, w4) = deriv(q + q3 * h, w + w3 * h);
    let q_new = (q + (q1 + q2 * 2.0 + q3 * 2.0 + q4) * (h / 6.0)).normalize();
    let w_new = w + (w1 + w2 * 2.0 + w3 * 2.0 + w4) * (h / 6.0);
    s.orientation = q_new;
    s.angular_momentum = q_new * (inertia * w_new);
    linear_exact(props, s, loads.force, h);
    StepInfo::default()
}
