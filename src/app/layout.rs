//! Where things go in the 3D view: lanes side by side along x, and the scale of a body's
//! arrows and trails.

use bevy::prelude::*;
use glam::DVec3;

use super::physics::Sim;
use crate::body::Body;
use crate::integrators::Integrator;
use crate::lab::Lab;
use crate::lab::runs::radius_of;
use crate::world::World;

/// The view's scales of a lab's lanes, from the first lane's bodies at the start.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scale {
    /// Radius of a sphere about the origin holding one lane's bodies: the scale for
    /// camera distance and arrows.
    pub radius: f64,
    /// How far one lane's bodies reach from the vertical axis through the lane's
    /// centre: room to fall over in any direction, the scale for lane spacing.
    pub reach: f64,
    lanes: usize,
    /// The lab's generations they were worked out at.
    generations: (u64, u64),
}

impl Scale {
    pub fn of(lab: &Lab) -> Self {
        let world = lab.lanes()[0].start_world();
        Self {
            radius: radius_of(world),
            reach: reach_of(world),
            lanes: lab.lanes().len(),
            generations: (lab.generation(), lab.scene_generation()),
        }
    }

    /// Whether these are the scales of `lab` as it is: its lanes and bodies are rebuilt
    /// only with a new generation.
    pub fn is_of(&self, lab: &Lab) -> bool {
        self.generations == (lab.generation(), lab.scene_generation())
    }

    /// Distance between lanes: room for a lane's bodies to fall over in any direction
    /// (a 2 m pole standing in `dancing-pole`), and no less than half the scene's size,
    /// so a ball dropped from high up keeps its label and arrows apart from its
    /// neighbours'.
    pub fn lane_spacing(&self) -> f32 {
        2.6 * self.reach.max(0.5 * self.radius) as f32
    }

    /// World offset of lane `i`, the lanes centred on the origin along x.
    pub fn lane_offset(&self, i: usize) -> Vec3 {
        let n = self.lanes as f32;
        Vec3::X * (i as f32 - 0.5 * (n - 1.0)) * self.lane_spacing()
    }
}

/// How far the bodies reach sideways from the vertical axis, for spacing lanes.
fn reach_of(world: &World) -> f64 {
    world
        .bodies()
        .iter()
        .map(|b| (b.state.position * DVec3::new(1.0, 0.0, 1.0)).length() + b.radius())
        .fold(0.1, f64::max)
}

/// Distance between the lanes shown (see [`Scale::lane_spacing`]).
pub fn lane_spacing(sim: &Sim) -> f32 {
    sim.scale().lane_spacing()
}

/// World offset of lane `i` shown (see [`Scale::lane_offset`]).
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
