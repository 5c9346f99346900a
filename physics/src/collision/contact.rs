//! The value the contact graph holds for each pair that touches: its manifold, the
//! mixed material, and what it was computed from.

use crate::collision::{Manifold, Origin};

/// One contact of the graph: a manifold between a part of one body and a part of
/// another, or, with `NONE` as the second body, a plane or a kinematic collider's part.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Contact {
    /// The first body's part.
    pub part_a: u32,
    /// The second body's part, the plane's index, or the kinematic collider's part.
    pub part_b: u32,
    /// The kinematic collider the second end is a part of; `NONE` for a body or a plane.
    pub(crate) kinematic: u32,
    /// The contact's points.
    pub manifold: Manifold,
    /// The mixed friction coefficient.
    pub friction: f64,
    /// The mixed restitution coefficient.
    pub restitution: f64,
    /// What the manifold between two bodies was last computed from, to carry it on while
    /// they keep their relative pose; `None` against planes and kinematic colliders.
    pub origin: Option<Origin>,
    pub(crate) stamp: u64,
}
