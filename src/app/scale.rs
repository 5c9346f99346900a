//! The view's scale of a scene: how big one lane's bodies are and how far they reach,
//! worked out by the app from the first lane's start (the lab and its moment files keep
//! no view scale).

use bevy::prelude::*;
use glam::DVec3;

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
    /// The scales of `lab`'s lanes as they start.
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
