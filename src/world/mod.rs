//! A world of bodies and the order of one physics step.
//!
//! A step of length `h` takes one of three paths, by what the scene holds:
//! - **free bodies**: gravity becomes each body's [`Loads`] and the chosen integrator
//!   advances it (its rotation is where the integrators differ);
//! - **frames** ([`crate::hierarchy`]): the drives advance the frames and their global
//!   dynamics are propagated top down (with a mid-step snapshot); riders move in their
//!   frame's coordinates under its inertial forces, their rotation in world terms by the
//!   chosen integrator; held bodies follow their frame;
//! - **contacts** ([`crate::contact`]): detection, islands and sleep, then the solver turns
//!   contacts and joints into impulses on linear and angular momentum before the chosen
//!   integrator moves each body as a free body.
//!
//! Render sync happens outside, in the app, which reads the states.

use glam::DVec3;
use rayon::prelude::*;

pub mod grab;

use crate::body::Body;
use crate::contact::Contacts;
use crate::hierarchy::rig::{self, Frame, Gun, Mount};
use crate::hierarchy::{DynamicTransform, step_in_frame};
use crate::integrators::{Integrator, Loads, StepError};

#[derive(Clone, Debug)]
pub struct World {
    pub bodies: Vec<Body>,
    /// Where each body's motion is described, one per body: the world, a frame it rides
    /// in, or a frame that holds it.
    pub mounts: Vec<Mount>,
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
    /// A world of free bodies under `gravity`, without frames or contacts.
    pub fn new(bodies: Vec<Body>, gravity: DVec3, integrator: Integrator) -> Self {
        Self {
            mounts: vec![Mount::World; bodies.len()],
            bodies,
            gravity,
            integrator,
            time: 0.0,
            frames: Vec::new(),
            gun: None,
            contacts: None,
        }
    }

    /// Adds a body described in `mount`; returns its index.
    pub fn add_body(&mut self, body: Body, mount: Mount) -> usize {
        self.bodies.push(body);
        self.mounts.push(mount);
        self.bodies.len() - 1
    }

    /// Whether the exact solution applies: one body, no torque.
    pub fn analytic_applies(&self) -> bool {
        self.bodies.len() == 1 && self.frames.is_empty() && self.contacts.is_none()
    }

    /// Advances every body by `h`, in place and on all cores for large worlds. A body
    /// whose step fails keeps its state and the first error is returned; the world is then
    /// not consistent in time and callers stop (the CLI exits, the app shows the error).
    pub fn step(&mut self, h: f64) -> Result<(), StepError> {
        debug_assert_eq!(self.bodies.len(), self.mounts.len(), "one mount per body");
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
    /// the step, rotation in world terms by the chosen integrator); the direct riders of a
    /// frame whose drive stopped it dead get the opposite of its linear velocity change,
    /// so they do not inherit it ([cwzx, Hierarchy]'s counteraction; riders of its child
    /// frames, and the change of its spin, are not counteracted); riders off their deck
    /// are handed to the world; then the gun fires.
    fn step_hierarchy(&mut self, h: f64) -> Result<(), StepError> {
        let (integrator, gravity, t) = (self.integrator, self.gravity, self.time);
        let start: Vec<DynamicTransform> = self.frames.iter().map(|f| f.global).collect();
        let mid = rig::globals_after(&self.frames, t, 0.5 * h);
        let jumps = rig::advance_frames(&mut self.frames, t, h);
        for (body, mount) in self.bodies.iter_mut().zip(&mut self.mounts) {
            match mount {
                Mount::World => {
                    let loads = Loads {
                        force: gravity * body.props.mass,
                        torque: DVec3::ZERO,
                    };
                    integrator.step(&body.props, &mut body.state, loads, h)?;
                }
                Mount::Riding(rider) => {
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
                Mount::Carried { .. } => {}
            }
        }
        self.sync_hierarchy();
        for mount in &mut self.mounts {
            if let Mount::Riding(rider) = mount
                && rider.off_deck()
            {
                *mount = Mount::World;
            }
        }
        if let Some(gun) = &mut self.gun
            && gun.due(t, h)
        {
            let shell = gun.shells[gun.fired % gun.shells.len()];
            let muzzle = gun.muzzle_motion(&self.frames);
            let body = &mut self.bodies[shell];
            self.mounts[shell] = Mount::World;
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
        for (body, mount) in self.bodies.iter_mut().zip(&self.mounts) {
            match mount {
                Mount::Riding(rider) => {
                    let frame = self.frames[rider.frame].global;
                    let global = frame * rider.local;
                    body.state.position = global.transform.translation;
                    body.state.velocity = global.velocity;
                }
                Mount::Carried { frame, at } => {
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
