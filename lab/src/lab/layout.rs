//! Where a lab's lanes stand side by side: along x, centred on the origin, as far apart
//! as the first lane's bodies need at the start. The app's view and the web page place
//! the lanes alike from it.

use glam::DVec3;

use super::Lab;
use super::lanes::radius_of;
use crate::world::World;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LaneLayout {
    /// Radius of a sphere about the origin holding one lane's bodies: the scale for
    /// camera distance and arrows.
    pub radius: f64,
    /// How far one lane's bodies reach from the vertical axis through the lane's
    /// centre: room to fall over in any direction, the scale for lane spacing.
    pub reach: f64,
    pub lanes: usize,
}

impl LaneLayout {
    /// The layout of `lab`'s lanes as they start.
    pub fn of(lab: &Lab) -> Self {
        let world = lab.lanes()[0].start_world();
        Self {
            radius: radius_of(world),
            reach: reach_of(world),
            lanes: lab.lanes().len(),
        }
    }

    /// Distance between lanes: room for a lane's bodies to fall over in any direction
    /// (a 2 m pole standing in `dancing-pole`), and no less than half the scene's size,
    /// so a ball dropped from high up keeps its label and arrows apart from its
    /// neighbours'.
    pub fn spacing(&self) -> f64 {
        2.6 * self.reach.max(0.5 * self.radius)
    }

    /// World offset of lane `i`.
    pub fn offset(&self, i: usize) -> DVec3 {
        let n = self.lanes as f64;
        DVec3::X * (i as f64 - 0.5 * (n - 1.0)) * self.spacing()
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
