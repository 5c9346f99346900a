//! Splitting the free rigid body into exact rotations about its principal axes
//! [McLachlan 1993; Reich 1994; Touma–Wisdom 1994]: `H = Σ Mᵢ²/2Iᵢ`, and the flow of one
//! term keeps `Mᵢ` and turns the body about its axis `i` by `t Mᵢ/Iᵢ`.
//!
//! The symmetric (Strang) composition is second order, symplectic and Lie–Poisson; `L` is
//! never written, so it is exact, while the energy error is `O(h²)` and bounded. Which
//! axis goes where sets the size of that error [Fassò 2003]. Measured over random
//! momenta on four bodies (flat, generic, the T-handle, Fassò's `(1, 0.75, 0.25)`), the
//! major axis outermost is the worst choice on every one, while minor outermost and
//! intermediate in the middle (`3-1-2-1-3`, 1 the major axis) is within 2× of the best
//! axis ordering on the first three; on Fassò's body `3-2-1-2-3` happens to be of order 4.

use glam::{DQuat, DVec3};

use crate::body::{BodyState, MassProps};

use super::{Loads, StepInfo, linear_exact};

/// The exact flow of `Mᵢ²/2Iᵢ` for time `t`: the body turns by `φ = t Mᵢ/Iᵢ` about its
/// axis `i`, and its momentum by `−φ` in body axes.
#[inline]
fn axis_flow(inertia: DVec3, q: &mut DQuat, m: &mut DVec3, i: usize, t: f64) {
    let phi = t * m[i] / inertia[i];
    let (s, c) = libm::sincos(0.5 * phi);
    let mut xyz = DVec3::ZERO;
    xyz[i] = s;
    *q *= DQuat::from_xyzw(xyz.x, xyz.y, xyz.z, c);
    let (j, k) = ((i + 1) % 3, (i + 2) % 3);
    let (sp, cp) = libm::sincos(phi);
    let (mj, mk) = (m[j], m[k]);
    m[j] = cp * mj + sp * mk;
    m[k] = -sp * mj + cp * mk;
}

/// Half the torque impulse, `minor(h/2) major(h/2) intermediate(h) major(h/2)
/// minor(h/2)`, the other half.
pub(super) fn step(props: &MassProps, s: &mut BodyState, loads: Loads, h: f64) -> StepInfo {
    let inertia = props.inertia.principal();
    let mut axes = [0usize, 1, 2];
    axes.sort_by(|&a, &b| inertia[b].total_cmp(&inertia[a]));
    let [major, intermediate, minor] = axes;
    s.angular_momentum += 0.5 * h * loads.torque;
    let mut q = s.orientation;
    let mut m = q.inverse() * s.angular_momentum;
    for (axis, t) in [
        (minor, 0.5 * h),
        (major, 0.5 * h),
        (intermediate, h),
        (major, 0.5 * h),
        (minor, 0.5 * h),
    ] {
        axis_flow(inertia, &mut q, &mut m, axis, t);
    }
    s.orientation = q.normalize();
    s.angular_momentum += 0.5 * h * loads.torque;
    linear_exact(props, s, loads.force, h);
    StepInfo::default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sub-flow is the exact motion of `Mᵢ²/2Iᵢ`: the momentum it carries is the
    /// world momentum seen from the turned body.
    #[test]
    fn axis_flow_keeps_the_body_momentum_consistent_with_the_attitude() {
        let inertia = DVec3::new(3.0, 2.0, 1.0);
        let l = DVec3::new(0.3, -1.2, 2.0);
        let mut q = DQuat::from_rotation_y(0.7);
        let mut m = q.inverse() * l;
        for (i, t) in [(0, 0.3), (2, 1.1), (1, -0.4)] {
            let mi = m[i];
            axis_flow(inertia, &mut q, &mut m, i, t);
            assert_eq!(m[i], mi);
            assert!((m - q.inverse() * l).length() < 1e-14 * l.length());
        }
    }
}
