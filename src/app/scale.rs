//! The view's scale of a scene: the lanes' layout ([`LaneLayout`]), worked out by the
//! app from the first lane's start (the lab and its moment files keep no view scale),
//! cached until the lab rebuilds its lanes.

use bevy::prelude::*;

use crate::lab::Lab;
use crate::lab::layout::LaneLayout;

/// The view's scales of a lab's lanes, from the first lane's bodies at the start.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scale {
    pub layout: LaneLayout,
    /// The lab's generations they were worked out at.
    generations: (u64, u64),
}

impl Scale {
    /// The scales of `lab`'s lanes as they start.
    pub fn of(lab: &Lab) -> Self {
        Self {
            layout: LaneLayout::of(lab),
            generations: (lab.generation(), lab.scene_generation()),
        }
    }

    /// Whether these are the scales of `lab` as it is: its lanes and bodies are rebuilt
    /// only with a new generation.
    pub fn is_of(&self, lab: &Lab) -> bool {
        self.generations == (lab.generation(), lab.scene_generation())
    }

    /// Radius of a sphere about the origin holding one lane's bodies.
    pub fn radius(&self) -> f64 {
        self.layout.radius
    }

    /// Distance between lanes ([`LaneLayout::spacing`]).
    pub fn lane_spacing(&self) -> f32 {
        self.layout.spacing() as f32
    }

    /// World offset of lane `i` ([`LaneLayout::offset`]).
    pub fn lane_offset(&self, i: usize) -> Vec3 {
        let o = self.layout.offset(i);
        Vec3::new(o.x as f32, o.y as f32, o.z as f32)
    }
}
