//! A body's pose (position and orientation) as the contact stages read it: detection
//! places shapes at it, manifolds are carried on by it, and rows and joints are
//! prepared from it.

use glam::DVec3;

use crate::body::BodyState;

/// A body's position and orientation, as the contact stages read them.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Pose {
    /// The centre of mass, world coordinates.
    pub position: DVec3,
    /// The orientation, body to world.
    pub orientation: glam::DQuat,
}

impl Pose {
    /// The pose of a body's state.
    pub fn of(state: &BodyState) -> Self {
        Self {
            position: state.position,
            orientation: state.orientation,
        }
    }

    /// The pose the fraction `t` of the way to `end`: the position on the straight line,
    /// the orientation on the shortest arc.
    pub fn toward(&self, end: &Pose, t: f64) -> Self {
        Self {
            position: self.position.lerp(end.position, t),
            orientation: self.orientation.slerp(end.orientation, t),
        }
    }
}

/// The pose the solver uses for the world (the ground, world-anchored joints).
pub(crate) const WORLD_POSE: Pose = Pose {
    position: DVec3::ZERO,
    orientation: glam::DQuat::IDENTITY,
};
