//! A world of bodies and the order of one physics step.
//!
//! One step of length `h`:
//! 1. **forces**: gravity and user forces become per-body [`Loads`];
//! 2. **hierarchy** (transform-hierarchy issue): parents' global dynamics are propagated
//!    top-down and free children get the inertial forces of their moving frame;
//! 3. **velocities** and 4. **contacts** ([`crate::contact`]): gravity, then the solver
//!    turns contacts and joints into impulses on linear and angular momentum before
//!    positions move;
//! 5. **positions**: the selected integrator advances each body (its rotation is where
//!    the integrators differ);
//! 6. **render sync** happens outside, in the app, which reads the states.

use glam::DVec3;
use rayon::prelude::*;

use crate::body::{BodyState, MassProps};
use crate::contact::{Contacts, Material};
use crate::hierarchy::rig::{self, Frame, Gun, Mount};
use crate::hierarchy::{DynamicTransform, step_in_frame};
use crate::inertia::Part;
use crate::integrators::{Integrator, Loads, StepError};

#[derive(Clone, Debug)]
pub struct Body {
    pub name: String,
    pub props: MassProps,
    pub state: BodyState,
    /// Shapes in the principal body frame, for rendering.
    pub parts: Vec<Part>,
    /// The world, or a frame of the hierarchy the body moves in.
    pub mount: Mount,
    /// Friction and restitution against other bodies and the ground.
    pub material: Material,
}

impl Body {
    /// Kinetic plus gravitational potential energy.
    pub fn energy(&self, gravity: DVec3) -> f64 {
        self.state.kinetic_energy(&self.props) - self.props.mass * gravity.dot(self.state.position)
    }
}

#[derive(Clone, Debug)]
pub struct World {
    pub bodies: Vec<Body>,
    pub gravity: DVec3,
    pub integrator: Integrator,
    pub time: f64,
    /// Driven frames of a transform hierarchy, parents first; empty for most scenes.
    pub frames: Vec<Frame>,
    pub gun: Option<Gun>,
    /// Collision detection, the contact graph, joints and the solver; `None` for the
    /// scenes of free bodies, which never touch.
    pub contacts: Option<Box<Contacts>>,
}

/// Below this many bodies a step is cheaper on one thread than the fork-join.
const PARALLEL_THRESHOLD: usize = 4096;

impl World {
    /// Whether the exact solution applies: one body, no torque.
    pub fn analytic_applies(&self) -> bool {
        self.bodies.len() == 1 && self.frames.is_empty() && self.contacts.is_none()
    }

    /// Advances every body by `h`, in place and on all cores for large worlds. A body
    /// whose step fails keeps its state and the first error is returned; the world is then
    /// not consistent in time and callers stop (the CLI exits, the app shows the error).
    pub fn step(&mut self, h: f64) -> Result<(), StepError> {
        if self.integrator == Integrator::Analytic && !self.analytic_applies() {
            return Err(StepError::AnalyticNeedsTorqueFree);
        }
        if !self.frames.is_empty() {
            return self.step_hierarchy(h);
        }
        if let Some(contacts) = &mut self.contacts {
            contacts.step(&mut self.bodies, self.gravity, self.integrator, h)?;
            self.time += h;
            return Ok(());
        }
        let (integrator, gravity) = (self.integrator, self.gravity);
        let advance = |body: &mut Body| {
            let loads = Loads {
                force: gravity * body.props.mass,
                torque: DVec3::ZERO,
            };
            integrator
                .step(&body.props, &mut body.state, loads, h)
                .map(|_| ())
        };
        if self.bodies.len() >= PARALLEL_THRESHOLD {
            self.bodies.par_iter_mut().try_for_each(advance)?;
        } else {
            self.bodies.iter_mut().try_for_each(advance)?;
        }
        self.time += h;
        Ok(())
    }

    /// One step of a scene with frames: the drives advance the frames and the new global
    /// dynamics propagate down the tree (with a mid-step snapshot); riders move in their
    /// frames (translation by RK4 under the inertial forces of the frame's motion through
    /// the step, rotation in world terms by the chosen integrator); riders whose frame
    /// stopped dead are told not to inherit it (seed 000's counteraction); riders off
    /// their deck are handed to the world; then the gun fires.
    fn step_hierarchy(&mut self, h: f64) -> Result<(), StepError> {
        let (integrator, gravity, t) = (self.integrator, self.gravity, self.time);
        let start: Vec<DynamicTransform> = self.frames.iter().map(|f| f.global).collect();
        let mid = rig::globals_after(&self.frames, t, 0.5 * h);
        let jumps = rig::advance_frames(&mut self.frames, t, h);
        for body in &mut self.bodies {
            match &mut body.mount {
                Mount::World => {
                    let loads = Loads {
                        force: gravity * body.props.mass,
                        torque: DVec3::ZERO,
                    };
                    integrator.step(&body.props, &mut body.state, loads, h)?;
                }
                Mount::Free(rider) => {
                    let i = rider.frame;
                    let (g, tether) = (rider.gravity, rider.tether);
                    let motion = step_in_frame(
                        [&start[i], &mid[i], &self.frames[i].global],
                        rider.local.transform.translation,
                        rider.local.velocity,
                        h,
                        |x, v, inertial| {
                            g + tether.map_or(DVec3::ZERO, |rod| rod.accel(x, v, g + inertial))
                        },
                    );
                    if !(motion.position.is_finite() && motion.velocity.is_finite()) {
                        return Err(StepError::NonFinite);
                    }
                    let mut spin = body.state;
                    integrator.step(&body.props, &mut spin, Loads::default(), h)?;
                    body.state.orientation = spin.orientation;
                    body.state.angular_momentum = spin.angular_momentum;
                    rider.local.transform.translation = motion.position;
                    rider.local.velocity = motion.velocity;
                    rider.local.accel = motion.accel;
                    if jumps[i] != DVec3::ZERO {
                        rider
                            .local
                            .apply(self.frames[i].global.counteract(jumps[i]));
                    }
                }
                Mount::Held { .. } => {}
            }
        }
        self.sync_hierarchy();
        for body in &mut self.bodies {
            if let Mount::Free(rider) = &body.mount
                && rider.off_deck()
            {
                body.mount = Mount::World;
            }
        }
        if let Some(gun) = &mut self.gun
            && gun.due(t, h)
        {
            let shell = gun.shells[gun.fired % gun.shells.len()];
            let muzzle = gun.muzzle_motion(&self.frames);
            let body = &mut self.bodies[shell];
            body.mount = Mount::World;
            body.state.position = muzzle.transform.translation;
            body.state.velocity =
                muzzle.velocity + muzzle.transform.rotation * DVec3::X * gun.speed;
            gun.fired += 1;
        }
        self.time += h;
        Ok(())
    }

    /// World states of the bodies that ride in or are held by frames, from the frames'
    /// current global dynamics.
    pub fn sync_hierarchy(&mut self) {
        for body in &mut self.bodies {
            match &mut body.mount {
                Mount::Free(rider) => {
                    let frame = self.frames[rider.frame].global;
                    let global = frame * rider.local;
                    body.state.position = global.transform.translation;
                    body.state.velocity = global.velocity;
                }
                Mount::Held { frame, at } => {
                    let held = self.frames[*frame].global.point(*at);
                    body.state.position = held.transform.translation;
                    body.state.velocity = held.velocity;
                    body.state.orientation = held.transform.rotation;
                    body.state
                        .set_world_omega(&body.props, held.angular_velocity);
                }
                Mount::World => {}
            }
        }
    }

    pub fn energy(&self) -> f64 {
        self.bodies.iter().map(|b| b.energy(self.gravity)).sum()
    }
}
