//! Where things go in the 3D view: lanes side by side along x, and the scale of a body's
//! arrows and trails.

use bevy::prelude::*;

use crate::body::Body;
use crate::integrators::Integrator;
use crate::lab::Lab;

/// Distance between lanes: room for a lane's bodies to fall over in any direction (a 2 m
/// pole standing in `dancing-pole`), and no less than half the scene's size, so a ball
/// dropped from high up keeps its label and arrows apart from its neighbours'.
pub fn lane_spacing(lab: &Lab) -> f32 {
    2.6 * lab.reach().max(0.5 * lab.radius()) as f32
}

/// World offset of lane `i`, the lanes centred on the origin along x.
pub fn lane_offset(lab: &Lab, i: usize) -> Vec3 {
    let n = lab.lanes().len() as f32;
    Vec3::X * (i as f32 - 0.5 * (n - 1.0)) * lane_spacing(lab)
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
    let b = &lab.lanes()[lane].world.bodies()[body];
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
