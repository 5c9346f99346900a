//! Where things go in the 3D view: lanes side by side along x, and the scale of a body's
//! arrows and trails.

use bevy::prelude::*;

use super::physics::Sim;
use crate::body::Body;
use crate::integrators::Integrator;
use crate::lab::Lab;

/// Distance between the lanes shown (see `Scale::lane_spacing`).
pub fn lane_spacing(sim: &Sim) -> f32 {
    sim.scale().lane_spacing()
}

/// World offset of lane `i` shown (see `Scale::lane_offset`).
pub fn lane_offset(sim: &Sim, i: usize) -> Vec3 {
    sim.scale().lane_offset(i)
}

/// Radius of a sphere about the body's centre of mass holding all its parts: the scale of
/// its arrows and trails.
pub fn body_size(body: &Body) -> f32 {
    body.radius().max(0.05) as f32
}

/// Length of ω's arrow per rad/s, for the body: its start ω spans 1.2 body sizes, and
/// so does one turn a second for a body that starts slower. A body that starts at rest
/// (its ω round-off at most: dividing by that drew trails across the whole view, as
/// the crash's boxes did) has no ω arrow or trail: 0.
pub fn omega_scale(lab: &Lab, lane: usize, body: usize) -> f32 {
    const FLOOR: f32 = std::f32::consts::TAU;
    const AT_REST: f32 = 1e-6;
    let b = &lab.lanes()[lane].world().bodies()[body];
    let start = lab.recorders().trails()[lane][body]
        .world
        .front()
        .map_or(0.0, |w| w.length() as f32);
    if start > AT_REST {
        1.2 * body_size(b) / start.max(FLOOR)
    } else {
        0.0
    }
}

/// The lane whose ω is plotted by default: midpoint's, which follows the exact dashes.
pub fn omega_lane(lab: &Lab) -> usize {
    lab.lanes()
        .iter()
        .position(|r| r.integrator() == Integrator::Midpoint)
        .unwrap_or(0)
}
