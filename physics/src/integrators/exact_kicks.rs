//! The exact torque-free flow between two half torque kicks [Celledoni–Fassò–Säfström–Zanna
//! 2008]: exact when nothing pushes, second order and symmetric when something does.
//!
//! The momentum `M(t)` comes from the elliptic solution ([`TorqueFreeTop`]). The attitude
//! is `R(t) = R_L Z(ψ(t)) P(M(t))`: `P` the shortest arc taking `M/|M|` to `s eₐ`, where `a`
//! is the axis whose momentum component keeps its sign `s` (the `dn` axis, so `P` is never
//! singular [Leroy, Celledoni]), and `Z(ψ)` a rotation about `s eₐ` by the precession angle
//! with rate `ψ̇ = (2E + G|Mₐ|/Iₐ)/(G + |Mₐ|)`, `G = |M|`. Over a step only `ψ` needs a
//! quadrature; 3-node Gauss–Legendre panels keep it at round-off. `L` is never written by
//! the flow, so it stays exact.

use glam::{DQuat, DVec3};

use crate::body::{BodyState, MassProps};
use crate::integrators::analytic::{MAX_STEP_ANGLE, TorqueFreeTop};
use crate::math::quat;

use super::{Loads, StepError, StepInfo, linear_exact};

/// Largest rotation per Gauss–Legendre panel of the precession quadrature: with it the
/// attitude agrees with the fine-quadrature ground truth to 1e-12 (tests).
const PANEL_ANGLE: f64 = 0.2;

/// Nodes and weights of 3-point Gauss–Legendre on [0, 1].
const GAUSS: [(f64, f64); 3] = [
    (0.5 - 0.387_298_334_620_741_7, 5.0 / 18.0),
    (0.5, 8.0 / 18.0),
    (0.5 + 0.387_298_334_620_741_7, 5.0 / 18.0),
];

/// The shortest-arc rotation taking the unit vector `m` to `target`: `normalize(1 + m·t,
/// m × t)`.
#[inline]
fn shortest_arc(m: DVec3, target: DVec3) -> DQuat {
    let c = m.cross(target);
    DQuat::from_xyzw(c.x, c.y, c.z, 1.0 + m.dot(target)).normalize()
}

/// The body increment `δq` of the exact torque-free motion over `h` from body momentum
/// `m0`, or an error when the step would need too many panels.
pub fn free_flow(inertia: DVec3, m0: DVec3, h: f64) -> Result<DQuat, StepError> {
    let w0 = m0 / inertia;
    let angle = w0.length() * h.abs();
    if angle.is_nan() || angle > MAX_STEP_ANGLE {
        return Err(StepError::ExactStepTooLarge { angle });
    }
    let top = TorqueFreeTop::new(inertia, w0);
    let Some(a) = top.steady_axis() else {
        // A spin about a principal axis or a spherical body: ω is constant.
        return Ok(quat::exp(h * w0));
    };
    let g = m0.length();
    let two_e = m0.dot(w0);
    let s = m0[a].signum();
    let rate = |t: f64| {
        let ma = (inertia[a] * top.omega(t)[a]).abs();
        (two_e + g * ma / inertia[a]) / (g + ma)
    };
    let panels = (angle / PANEL_ANGLE).ceil().max(1.0);
    let width = h / panels;
    let mut psi = 0.0;
    for p in 0..panels as usize {
        let t0 = p as f64 * width;
        psi += width
            * GAUSS
                .iter()
                .map(|&(x, w)| w * rate(t0 + x * width))
                .sum::<f64>();
    }
    let mut axis = DVec3::ZERO;
    axis[a] = s;
    let m1 = inertia * top.omega(h);
    let (sin, cos) = libm::sincos(0.5 * psi);
    let z = DQuat::from_xyzw(sin * axis.x, sin * axis.y, sin * axis.z, cos);
    Ok(shortest_arc(m0 / g, axis).inverse() * z * shortest_arc(m1 / g, axis))
}

/// Half the torque impulse, the exact free flow, the other half.
pub(super) fn step(
    props: &MassProps,
    s: &mut BodyState,
    loads: Loads,
    h: f64,
) -> Result<StepInfo, StepError> {
    s.angular_momentum += 0.5 * h * loads.torque;
    let delta = free_flow(props.inertia.principal(), s.body_momentum(), h)?;
    s.orientation = (s.orientation * delta).normalize();
    s.angular_momentum += 0.5 * h * loads.torque;
    linear_exact(props, s, loads.force, h);
    Ok(StepInfo::default())
}
