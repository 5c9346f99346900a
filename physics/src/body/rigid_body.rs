//! One body of a world: what it is (name, mass, shapes, material) and where it is.

use glam::DVec3;

use super::inertia::Part;
use super::{BodyState, MassProps, Material};

/// A rigid body: its name, constant mass properties, state, shapes and material.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Body {
    /// The name it is shown and looked up by.
    pub name: String,
    /// Mass and principal inertia.
    pub props: MassProps,
    /// Position, velocity, orientation and world angular momentum.
    pub state: BodyState,
    /// Shapes in the principal body frame, for collisions and rendering.
    pub parts: Vec<Part>,
    /// Friction and restitution against other bodies and the ground.
    pub material: Material,
}

impl Body {
    /// Radius of a sphere about the centre of mass that holds every part (zero for a body
    /// without shapes).
    pub fn radius(&self) -> f64 {
        self.parts
            .iter()
            .map(Part::radius_from_centre)
            .fold(0.0, f64::max)
    }

    /// Kinetic plus gravitational potential energy.
    pub fn energy(&self, gravity: DVec3) -> f64 {
        self.state.kinetic_energy(&self.props) + self.potential_energy(gravity)
    }

    /// Gravitational potential energy, `−m g·x`: zero at the origin's height.
    pub fn potential_energy(&self, gravity: DVec3) -> f64 {
        -self.props.mass * gravity.dot(self.state.position)
    }
}
