//! Picking a body with the mouse and pulling it about: Box2D's mouse joint, a soft
//! spring-damper from a point of the body to the cursor's target, solved as one
//! implicit impulse per step so it is stable at any stiffness, with a force limit so a
//! held box cannot be pushed through the ground. Letting go keeps the body's velocity:
//! that is the throw.

use glam::DVec3;

use crate::collision::geometry::Geom;
use crate::hierarchy::rig::Mount;
use crate::joints::point_block::point_mass;
use crate::solver::Softness;
use crate::solver::body::SolverBody;
use crate::solver::soft::soft_impulse;
use crate::world::World;

/// The spring's frequency and damping ratio.
const HERTZ: f64 = 5.0;
const DAMPING_RATIO: f64 = 0.9;
/// The strongest pull, as a multiple of the body's weight under 1 g.
const MAX_PULL_G: f64 = 40.0;
const STANDARD_G: f64 = 9.81;

/// A body held at one of its points by a soft spring to a target.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Grab {
    /// The held body's index.
    pub body: usize,
    /// The held point in the body's own frame.
    pub local: DVec3,
    /// Where the point is pulled to (world coordinates of its world).
    pub target: DVec3,
}

impl Grab {
    /// The body the ray `origin + t dir` (unit `dir`) hits first, held where it hits.
    /// Only free bodies of worlds with contacts can be held: elsewhere the comparison
    /// with the exact solution, or a frame's drive, owns the motion.
    pub fn pick(world: &World, origin: DVec3, dir: DVec3) -> Option<(Grab, f64)> {
        world.contacts.as_ref()?;
        let mut best: Option<(Grab, f64)> = None;
        for (i, (body, mount)) in world.bodies.iter().zip(&world.mounts).enumerate() {
            if !matches!(mount, Mount::World) {
                continue;
            }
            let s = &body.state;
            for part in &body.parts {
                let geom = Geom::of_part(part, s.position, s.orientation);
                if let Some(t) = geom.ray(origin, dir)
                    && best.is_none_or(|(_, b)| t < b)
                {
                    let point = origin + dir * t;
                    let grab = Grab {
                        body: i,
                        local: s.orientation.inverse() * (point - s.position),
                        target: point,
                    };
                    best = Some((grab, t));
                }
            }
        }
        best
    }

    /// The held point in world coordinates, if the body still exists.
    pub fn anchor(&self, world: &World) -> Option<DVec3> {
        let s = &world.bodies.get(self.body)?.state;
        Some(s.position + s.orientation * self.local)
    }

    /// One step's pull, applied before the step: the impulse that takes the held point
    /// toward the target as the soft constraint `v + bias·C = 0` asks, through the
    /// body's effective mass at that point (a joint's point block against the world).
    /// Wakes the body.
    pub fn pull(&self, world: &mut World, h: f64) {
        if !matches!(world.mounts.get(self.body), Some(Mount::World)) {
            return;
        }
        let body = &mut world.bodies[self.body];
        let (props, s) = (&body.props, &mut body.state);
        let r = s.orientation * self.local;
        let error = s.position + r - self.target;
        // The world is the row's first body, the held one its second.
        let held = SolverBody::new(props, s);
        let mass = point_mass(&SolverBody::STATIC, &held, DVec3::ZERO, r);
        let soft = Softness::new(HERTZ, DAMPING_RATIO, h);
        let v = held.point_velocity(r);
        let mut impulse = soft_impulse(soft, mass, v, error * soft.bias_rate, DVec3::ZERO);
        let max = MAX_PULL_G * props.mass * STANDARD_G * h;
        if impulse.length() > max {
            impulse *= max / impulse.length();
        }
        if !impulse.is_finite() {
            return;
        }
        s.velocity += impulse / props.mass;
        s.angular_momentum += r.cross(impulse);
        if let Some(contacts) = world.contacts.as_mut() {
            contacts.wake(self.body);
        }
    }
}
