//! Kinematic colliders: shapes that move by a prescribed motion (the parts of a driven
//! frame: a tank's deck, a van's walls, a turning table) and push bodies without being
//! pushed. As Box2D's kinematic bodies [Catto 2024], they have infinite mass, and a
//! contact sees the velocity of their motion at the contact point, `v + ω × r`.

use glam::{DQuat, DVec3};

use crate::body::Material;
use crate::body::inertia::Part;
use crate::collision::pose::Pose;
use crate::solver::body::SolverBody;

/// A kinematic collider: shapes moved by a prescribed motion, with infinite mass.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Kinematic {
    /// Where the collider is at the start of the step.
    pub pose: Pose,
    /// Its velocity and angular velocity through the step, about `pose.position`.
    pub velocity: DVec3,
    /// Its angular velocity (rad/s), world axes.
    pub angular_velocity: DVec3,
    /// Shapes in the collider's own coordinates.
    pub parts: Vec<Part>,
    /// Its surfaces' friction and restitution.
    pub material: Material,
}

impl Kinematic {
    /// Whether it moves this step (a moving collider wakes the sleeping bodies it reaches).
    pub fn moves(&self) -> bool {
        self.velocity != DVec3::ZERO || self.angular_velocity != DVec3::ZERO
    }

    /// The solver's view: its motion, and no inverse mass, so impulses do not move it.
    pub fn solver_body(&self) -> SolverBody {
        SolverBody {
            v: self.velocity,
            w: self.angular_velocity,
            ..SolverBody::STATIC
        }
    }

    /// The pose `h` later, moving with its velocity (first order, like a sub-step of the
    /// bodies' own positions).
    pub fn advanced(pose: &Pose, body: &SolverBody, h: f64) -> Pose {
        Pose {
            position: pose.position + body.v * h,
            orientation: (DQuat::from_scaled_axis(body.w * h) * pose.orientation).normalize(),
        }
    }

    /// How far a part can move in a step of `h`: a contact with it must start this far
    /// ahead.
    pub fn reach(&self, part: &Part, h: f64) -> f64 {
        h * (self.velocity.length() + self.angular_velocity.length() * part.radius_from_centre())
    }
}
