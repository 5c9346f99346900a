//! The velocity-based integrators other engines use. They think in world angular
//! velocity, so each converts from momentum at the start and back at the end, keeping
//! the world ω (as the engines store it) after the orientation moved.

use crate::body::{BodyState, MassProps};
use crate::math::so3::skew;

use super::{Loads, StepInfo, integrate_orientation, linear_explicit, linear_symplectic};
use glam::{DMat3, DVec3};

/// Body-frame angular acceleration `I⁻¹(τ_b − ω_b × Iω_b)`.
#[inline]
fn body_acceleration(props: &MassProps, state: &BodyState, torque_world: DVec3) -> DVec3 {
    let lb = state.body_momentum();
    let wb = lb * props.inertia.inverse();
    let tau_b = state.orientation.inverse() * torque_world;
    (tau_b - wb.cross(lb)) * props.inertia.inverse()
}

/// Explicit Euler on Euler's equations as textbooks write them, in the body frame
/// (`I ω̇_b = τ_b − ω_b × Iω_b`): torque-free, it gains exactly `½h² aᵀIa` a step, `a` the
/// body angular acceleration, since `ω_b·Ia = 0` (Hairer, Lubich, Wanner, "Geometric
/// Numerical Integration", IV.1).
pub fn explicit_euler_body(props: &MassProps, s: &mut BodyState, loads: Loads, h: f64) -> StepInfo {
    let wb = s.body_omega(props);
    let wb_new = wb + h * body_acceleration(props, s, loads.torque);
    s.orientation = integrate_orientation(s.orientation, s.orientation * wb, h);
    s.angular_momentum = s.orientation * (props.inertia.principal() * wb_new);
    linear_explicit(props, s, loads.force, h);
    StepInfo::default()
}

/// Explicit Euler on the world angular velocity, as engines store it: the same update
/// of ω, kept in world axes while the body turns under it, so the body sees it turned back
/// by `hω`; to second order that turns the gain above into a loss of `½h² aᵀIa` a step.
pub fn explicit_euler_world(
    props: &MassProps,
    s: &mut BodyState,
    loads: Loads,
    h: f64,
) -> StepInfo {
    let w = s.world_omega(props);
    let w_new = w + h * (s.orientation * body_acceleration(props, s, loads.torque));
    s.orientation = integrate_orientation(s.orientation, w, h);
    s.set_world_omega(props, w_new);
    linear_explicit(props, s, loads.force, h);
    StepInfo::default()
}

pub fn symplectic_euler(props: &MassProps, s: &mut BodyState, loads: Loads, h: f64) -> StepInfo {
    let w_new =
        s.world_omega(props) + h * (s.orientation * body_acceleration(props, s, loads.torque));
    s.orientation = integrate_orientation(s.orientation, w_new, h);
    s.set_world_omega(props, w_new);
    linear_symplectic(props, s, loads.force, h);
    StepInfo::default()
}

pub fn no_gyro(props: &MassProps, s: &mut BodyState, loads: Loads, h: f64) -> StepInfo {
    let tau_b = s.orientation.inverse() * loads.torque;
    let w_new = s.world_omega(props) + h * (s.orientation * (tau_b * props.inertia.inverse()));
    s.orientation = integrate_orientation(s.orientation, w_new, h);
    s.set_world_omega(props, w_new);
    linear_symplectic(props, s, loads.force, h);
    StepInfo::default()
}

pub fn momentum_clamp(props: &MassProps, s: &mut BodyState, loads: Loads, h: f64) -> StepInfo {
    let lb = s.body_momentum() + h * (s.orientation.inverse() * loads.torque);
    let wb = lb * props.inertia.inverse();
    let stepped = lb - h * wb.cross(lb);
    let len2 = stepped.length_squared();
    let lb_new = if len2 > 0.0 {
        stepped * (lb.length_squared() / len2).sqrt()
    } else {
        stepped
    };
    let w_new = s.orientation * (lb_new * props.inertia.inverse());
    s.orientation = integrate_orientation(s.orientation, w_new, h);
    s.set_world_omega(props, w_new);
    linear_symplectic(props, s, loads.force, h);
    StepInfo::default()
}

pub fn implicit_gyro(props: &MassProps, s: &mut BodyState, loads: Loads, h: f64) -> StepInfo {
    let inertia = props.inertia.principal();
    let lb = s.body_momentum();
    let wb = lb * props.inertia.inverse();
    let f = h * wb.cross(lb);
    let j =
        DMat3::from_diagonal(inertia) + (skew(wb) * DMat3::from_diagonal(inertia) - skew(lb)) * h;
    let tau_b = s.orientation.inverse() * loads.torque;
    let wb_new = wb - j.inverse() * f + h * tau_b * props.inertia.inverse();
    let w_new = s.orientation * wb_new;
    s.orientation = integrate_orientation(s.orientation, w_new, h);
    s.set_world_omega(props, w_new);
    linear_symplectic(props, s, loads.force, h);
    StepInfo::default()
}
