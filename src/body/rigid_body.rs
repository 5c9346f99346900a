//! One body of a world: what it is (name, mass, shapes, material) and where it is.

use glam::DVec3;

use super::inertia::Part;
use super::{BodyState, MassProps, Material};

#[derive(Clone, Debug)]
pub struct Body {
    pub name: String,
    pub props: MassProps,
    pub state: BodyState,
    /// Shapes in the principal body frame, for collisions and rendering.
    pub parts: Vec<Part>,
    /// Friction and restitution against other bodies and the ground.
    pub material: Material,
}

impl Body {
    /// Kinetic plus gravitational potential energy.
    pub fn energy(&self, gravity: DVec3) -> f64 {
        self.state.kinetic_energy(&self.props) - self.props.mass * gravity.dot(self.state.position)
    }
}
