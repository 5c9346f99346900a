//! A world of bodies and the one order of an integrator step (a physics step, `dt`, is
//! one or more of them).
//!
//! [`World::advance`] runs the stages of [`Stage`] in order, for every scene, whatever it
//! mixes (free bodies, frames, riders, contacts, joints, a gun):
//! 1. **forces**: starts the step; gravity acts on every body a frame does not carry, and
//!    code between stages may add loads of its own ([`World::add_load`]);
//! 2. **frames** ([`crate::hierarchy`]): the drives advance the frames and their global
//!    dynamics are propagated top down, once; the frames' motion through the step is
//!    kept for the riders;
//! 3. **detect** ([`crate::collision`]): the frames' parts become kinematic colliders at
//!    their place at the step's start, moving with their velocity; then sweep and prune,
//!    manifolds and the contact graph;
//! 4. **solve**: islands and sleep, then the solver's stages turn contacts and joints
//!    into impulses on linear and angular momentum, in world terms, and move the bodies
//!    it solves: bodies in the world by the chosen integrator as free bodies, riders in
//!    their frame's coordinates (the soft step does this per solver sub-step);
//! 5. **integrate**: the bodies no solver moved (every body of a world without
//!    contacts) by the chosen integrator, riders in their frame's coordinates;
//! 6. **sync**: riders take the solver's last velocities into their frames, a frame's
//!    sudden stop is counteracted for the riders that must keep their world motion,
//!    riders' and carried bodies' world states follow their frames, the gun fires, and
//!    the clock advances.
//!
//! Every stage is a public method, so the app runs each as a Bevy system of its own in
//! this order, and the command line calls [`World::advance`]: both run the same code.

use glam::DVec3;
use rayon::prelude::*;

pub mod grab;
pub mod riders;
mod snapshot;

use crate::body::Body;
use crate::collision::Pose;
use crate::contacts::Contacts;
use crate::hierarchy::rig::{self, Frame, Gun, Mount};
use crate::hierarchy::{Delta, DynamicTransform};
use crate::integrators::{Integrator, Loads, StepError};
use crate::joints::Joint;
use crate::solver::SolverSettings;
use riders::{FrameMotion, RiderMovers};

/// The stages of one step, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// Gravity and the loads of the step.
    Forces,
    /// The drives advance the frames; their motion is propagated top down.
    Frames,
    /// Collision detection: proxies, pairs, manifolds and the contact graph.
    Detect,
    /// Islands and sleep, then the contact and joint solver.
    Solve,
    /// The bodies no solver moved, by the chosen integrator.
    Integrate,
    /// Riders and carried bodies follow their frames, the gun fires, the clock advances.
    Sync,
}

impl Stage {
    /// Every stage, in the order of a step.
    pub const ALL: [Stage; 6] = [
        Stage::Forces,
        Stage::Frames,
        Stage::Detect,
        Stage::Solve,
        Stage::Integrate,
        Stage::Sync,
    ];

    /// The stage's name, as the app's solver panel and the stage timings show it.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Forces => "forces",
            Stage::Frames => "frames",
            Stage::Detect => "detect",
            Stage::Solve => "solve",
            Stage::Integrate => "integrate",
            Stage::Sync => "sync",
        }
    }
}

/// Bodies, where each is mounted, frames, a gun and contacts, stepped in one order.
///
/// Its fields are private: the methods keep each body's mount beside it, frames listed
/// parents first, and the clock moved only by a step.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct World {
    bodies: Vec<Body>,
    /// Where each body's motion is described, one per body: the world, a frame it rides
    /// in, or a frame that carries it.
    mounts: Vec<Mount>,
    gravity: DVec3,
    integrator: Integrator,
    time: f64,
    /// Driven frames of a transform hierarchy, parents first; empty for most scenes.
    frames: Vec<Frame>,
    gun: Option<Gun>,
    /// Collision detection, the contact graph, joints and the solver; `None` for the
    /// scenes of free bodies, which never touch.
    contacts: Option<Box<Contacts>>,
    /// Loads on the bodies besides gravity in the step being taken, in world axes,
    /// indexed by body (shorter: no load): empty after the forces stage, for code between
    /// stages to add to with [`World::add_load`].
    #[serde(skip)]
    loads: Vec<Loads>,
    /// What the stages of the step being taken hand each other.
    #[serde(skip)]
    handoff: Handoff,
}

/// What one step's stages hand each other.
#[derive(Clone, Debug, Default)]
struct Handoff {
    h: f64,
    /// The frames' motion through the step (empty without frames).
    motion: FrameMotion,
    /// Each frame's sudden change of local motion in this step, if any.
    jumps: Vec<Option<Delta>>,
    /// Which bodies the contact solver moved (empty without contacts).
    solved: Vec<bool>,
    /// How far into the step the solver has moved each rider (kept so that a step
    /// allocates nothing).
    elapsed: Vec<f64>,
}

/// Below this many bodies a step is cheaper on one thread than the fork-join.
const PARALLEL_THRESHOLD: usize = 4096;

impl World {
    /// A world of free bodies under `gravity`, without frames or contacts.
    ///
    /// A body spinning about its intermediate axis, stepped for 10 s by the midpoint
    /// rule: it flips (the Dzhanibekov effect), and its world angular momentum, constant
    /// without a torque, is kept to round-off.
    ///
    /// ```
    /// use glam::{DQuat, DVec3};
    /// use gyrolab_physics::body::inertia::Inertia;
    /// use gyrolab_physics::body::{Body, BodyState, MassProps, Material};
    /// use gyrolab_physics::integrators::Integrator;
    /// use gyrolab_physics::world::World;
    ///
    /// let props = MassProps { mass: 1.0, inertia: Inertia::new(DVec3::new(1.0, 2.0, 3.0))? };
    /// let spin = DVec3::new(0.01, 5.0, 0.0); // body axes: nearly about the middle one
    /// let handle = Body {
    ///     name: "T-handle".into(),
    ///     props,
    ///     state: BodyState::from_body_omega(&props, DQuat::IDENTITY, spin),
    ///     parts: Vec::new(),
    ///     material: Material::default(),
    /// };
    /// let mut world = World::new(vec![handle], DVec3::ZERO, Integrator::Midpoint);
    /// let start = world.bodies()[0].state.angular_momentum;
    /// let mut flipped = false;
    /// for _ in 0..600 {
    ///     world.advance(1.0 / 60.0)?;
    ///     let body_y = world.bodies()[0].state.orientation * DVec3::Y;
    ///     flipped |= body_y.y < 0.0;
    /// }
    /// assert!(flipped, "the handle turns over");
    /// let drift = (world.bodies()[0].state.angular_momentum - start).length();
    /// assert!(drift < 1e-12 * start.length(), "L moved by {drift}");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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
            loads: Vec::new(),
            handoff: Handoff::default(),
        }
    }

    /// Adds a body described in `mount`; returns its index.
    ///
    /// # Panics
    /// If `mount` names a frame the world does not have yet.
    pub fn add_body(&mut self, body: Body, mount: Mount) -> usize {
        let frame = match &mount {
            Mount::Riding(r) => Some(r.frame),
            Mount::Carried {
                by: rig::Carrier::Frame(f),
                ..
            } => Some(*f),
            _ => None,
        };
        assert!(
            frame.is_none_or(|f| f < self.frames.len()),
            "a body's frame is added before it"
        );
        self.bodies.push(body);
        self.mounts.push(mount);
        self.bodies.len() - 1
    }

    /// Adds a driven frame, its global motion already propagated; returns its index.
    ///
    /// # Panics
    /// If its parent is not an earlier frame: frames are listed parents first.
    pub fn add_frame(&mut self, frame: Frame) -> usize {
        assert!(
            frame.parent.is_none_or(|p| p < self.frames.len()),
            "a frame's parent is added before it"
        );
        self.frames.push(frame);
        self.frames.len() - 1
    }

    /// Mounts a gun whose shells are bodies of this world.
    pub fn set_gun(&mut self, gun: Gun) {
        assert!(
            gun.shells.iter().all(|&b| b < self.bodies.len()),
            "shells are bodies"
        );
        self.gun = Some(gun);
    }

    /// Gives the world its contacts: detection, joints and the solver.
    pub fn set_contacts(&mut self, contacts: Contacts) {
        self.contacts = Some(Box::new(contacts));
    }

    /// The bodies, in the order they were added.
    pub fn bodies(&self) -> &[Body] {
        &self.bodies
    }

    /// The bodies, to change their state, shape or material between steps; their count
    /// and mounts stay the world's. A body asleep that is moved stays asleep where it was
    /// put until a contact or [`Contacts::wake`] wakes it; the next detection with a body
    /// awake remakes its collision shapes there.
    pub fn bodies_mut(&mut self) -> &mut [Body] {
        &mut self.bodies
    }

    /// Where each body's motion is described, one per body.
    pub fn mounts(&self) -> &[Mount] {
        &self.mounts
    }

    /// The gravitational acceleration, m/s², world axes.
    pub fn gravity(&self) -> DVec3 {
        self.gravity
    }

    /// Sets the gravitational acceleration for the steps to come.
    pub fn set_gravity(&mut self, gravity: DVec3) {
        self.gravity = gravity;
    }

    /// The integrator that moves the bodies.
    pub fn integrator(&self) -> Integrator {
        self.integrator
    }

    /// Switches the integrator; the next step starts from the state the last one left.
    pub fn set_integrator(&mut self, integrator: Integrator) {
        self.integrator = integrator;
    }

    /// The world's clock, s: the sum of the steps taken.
    pub fn time(&self) -> f64 {
        self.time
    }

    /// The driven frames, parents first.
    pub fn frames(&self) -> &[Frame] {
        &self.frames
    }

    /// The gun, if the world has one.
    pub fn gun(&self) -> Option<&Gun> {
        self.gun.as_ref()
    }

    /// The contacts, if the world has them.
    pub fn contacts(&self) -> Option<&Contacts> {
        self.contacts.as_deref()
    }

    /// The joints, by index (none in a world without contacts); a broken one stays,
    /// holding nothing.
    pub fn joints(&self) -> &[Joint] {
        self.contacts.as_deref().map_or(&[], |c| c.joints())
    }

    /// The poses of joint `k`'s two ends as the world stands now, at `poses`
    /// ([`Contacts::poses`] of its bodies): a frame's end where the frame is, not where the
    /// contacts last placed its collider (the start of the last step; nowhere before the
    /// first). What a view draws a joint from.
    pub fn joint_poses(&self, poses: &[Pose], k: usize) -> Option<(Pose, Pose)> {
        let contacts = self.contacts()?;
        let joint = contacts.joints().get(k)?;
        let (pa, pb) = contacts.joint_poses(poses, k);
        Some(
            match (joint.b, joint.frame.and_then(|f| self.frames.get(f))) {
                (None, Some(frame)) => {
                    let t = &frame.global.transform;
                    let now = Pose {
                        position: t.translation,
                        orientation: t.rotation,
                    };
                    (pa, now)
                }
                _ => (pa, pb),
            },
        )
    }

    /// The contacts, to change their settings, joints or rows between steps.
    pub fn contacts_mut(&mut self) -> Option<&mut Contacts> {
        self.contacts.as_deref_mut()
    }

    /// Changes the contact solver's settings (checked ones) and wakes every body, so the
    /// change shows at once; whether the world has contacts to change.
    pub fn change_solver_settings(&mut self, change: impl FnOnce(&mut SolverSettings)) -> bool {
        let bodies = self.bodies.len();
        let Some(c) = self.contacts.as_deref_mut() else {
            return false;
        };
        let mut settings = *c.settings();
        change(&mut settings);
        c.set_settings(settings, bodies);
        true
    }

    /// The loads besides gravity of the step being taken, by body (shorter: no load).
    pub fn loads(&self) -> &[Loads] {
        &self.loads
    }

    /// Sets the friction of every surface (bodies, frames' parts, planes) and wakes every
    /// body; contacts take it at their next detection. A world without contacts has no
    /// surfaces that touch: nothing changes.
    pub fn set_friction(&mut self, friction: f64) {
        let Some(c) = &mut self.contacts else {
            return;
        };
        self.bodies
            .iter_mut()
            .for_each(|b| b.material.friction = friction);
        self.frames
            .iter_mut()
            .for_each(|f| f.material.friction = friction);
        c.set_plane_friction(friction, self.bodies.len());
    }

    /// Whether the exact solution applies: one body, no torque.
    pub fn analytic_applies(&self) -> bool {
        self.bodies.len() == 1 && self.frames.is_empty() && self.contacts.is_none()
    }

    /// Advances the world by one integrator step of `h`: the stages in order. (A physics
    /// step, `dt`, is one or more of these; the lab takes it.) A body whose step fails keeps
    /// its state and the first error is returned; the world is then not consistent in time
    /// and callers stop (the CLI exits, the app shows the error).
    pub fn advance(&mut self, h: f64) -> Result<(), StepError> {
        Stage::ALL
            .into_iter()
            .try_for_each(|stage| self.run_stage(stage, h))
    }

    /// One stage of a step of `h` (`h` is read by [`Stage::Forces`], which starts the
    /// step): what [`World::advance`] runs in order, and what the app's stage systems call.
    pub fn run_stage(&mut self, stage: Stage, h: f64) -> Result<(), StepError> {
        match stage {
            Stage::Forces => self.forces(h)?,
            Stage::Frames => self.drive_frames(),
            Stage::Detect => self.detect(),
            Stage::Solve => self.solve()?,
            Stage::Integrate => self.integrate()?,
            Stage::Sync => self.sync(),
        }
        Ok(())
    }

    /// Forces: starts a step of `h`, with gravity (acting on every body a frame does not
    /// carry) and no other load yet. Refuses the exact solution where it does not apply.
    pub fn forces(&mut self, h: f64) -> Result<(), StepError> {
        debug_assert_eq!(self.bodies.len(), self.mounts.len(), "one mount per body");
        if self.integrator == Integrator::Analytic && !self.analytic_applies() {
            return Err(StepError::AnalyticNeedsTorqueFree);
        }
        self.handoff.h = h;
        self.loads.clear();
        Ok(())
    }

    /// Adds a force and torque (world axes, about the centre of mass) on body `i` for the
    /// step being taken; between the forces stage and the solve.
    pub fn add_load(&mut self, i: usize, load: Loads) {
        if self.loads.len() <= i {
            self.loads.resize(i + 1, Loads::default());
        }
        self.loads[i].force += load.force;
        self.loads[i].torque += load.torque;
    }

    /// Frames: the drives advance every frame through the step and the global dynamics
    /// are propagated, once; the frames' motion through the step and their sudden
    /// changes are kept for the riders.
    pub fn drive_frames(&mut self) {
        if self.frames.is_empty() {
            return;
        }
        let (t, h) = (self.time, self.handoff.h);
        self.handoff.motion.restart(&self.frames, t);
        self.handoff.jumps = rig::drive_frames(&mut self.frames, t, h);
    }

    /// Detect: the frames' parts as kinematic colliders (where they were at the step's
    /// start, moving with their velocity in mid-step), the bodies a frame carries left
    /// out, then the contact detection.
    pub fn detect(&mut self) {
        let Some(contacts) = &mut self.contacts else {
            return;
        };
        let h = self.handoff.h;
        if !self.frames.is_empty() {
            let (start, mid) = (self.handoff.motion.at(0.0), self.handoff.motion.at(0.5 * h));
            // One kinematic body per frame, in frame order (joints to frames index them);
            // a frame without parts only anchors joints. Their shapes are copied once and
            // kept; each step moves them.
            let frames = &self.frames;
            contacts.place_colliders(frames.len(), |k, kin| {
                let (frame, start, mid) = (&frames[k], &start[k], &mid[k]);
                if kin.parts.len() != frame.parts.len() {
                    kin.parts.clone_from(&frame.parts);
                }
                kin.pose = Pose {
                    position: start.transform.translation,
                    orientation: start.transform.rotation,
                };
                // The velocity of the frame's point at its start position, mid-step.
                kin.velocity = mid.velocity
                    + mid
                        .angular_velocity
                        .cross(start.transform.translation - mid.transform.translation);
                kin.angular_velocity = mid.angular_velocity;
                kin.material = frame.material;
            });
        }
        let carried = (self.mounts.iter()).map(|m| matches!(m, Mount::Carried { .. }));
        contacts.set_passive(carried);
        // Riders move with their frames: they never fall asleep where they are.
        for (i, m) in self.mounts.iter().enumerate() {
            if matches!(m, Mount::Riding(_)) {
                contacts.wake(i);
            }
        }
        contacts.detect(&self.bodies, h);
    }

    /// Solve: the contact solver's stages, which also move the bodies they solve (riders
    /// in their frames).
    pub fn solve(&mut self) -> Result<(), StepError> {
        let Some(contacts) = &mut self.contacts else {
            self.handoff.solved.clear();
            return Ok(());
        };
        let h = self.handoff.h;
        let elapsed = &mut self.handoff.elapsed;
        elapsed.clear();
        elapsed.resize(self.bodies.len(), 0.0);
        let mut movers = RiderMovers {
            mounts: &mut self.mounts,
            motion: &mut self.handoff.motion,
            integrator: self.integrator,
            elapsed,
        };
        contacts.solve(
            &mut self.bodies,
            self.gravity,
            &self.loads,
            self.integrator,
            h,
            &mut movers,
        )?;
        contacts.break_joints(self.time + h);
        self.handoff.solved.clear();
        self.handoff
            .solved
            .extend(contacts.last_step().awake().iter().copied());
        Ok(())
    }

    /// Integrate: every body the solver did not move and that moves by itself (every
    /// body of a world without contacts), under its loads: bodies in the world by the
    /// chosen integrator, riders in their frame's coordinates after the loads' kick.
    pub fn integrate(&mut self) -> Result<(), StepError> {
        let (integrator, h) = (self.integrator, self.handoff.h);
        let solved = &self.handoff.solved;
        let moved_by_solver = |i: usize| solved.get(i).copied().unwrap_or(false);
        if self.frames.is_empty() && self.contacts.is_none() && self.loads.is_empty() {
            // Free bodies under gravity alone: the hot path of large worlds.
            let gravity = self.gravity;
            let advance = |body: &mut Body| {
                let loads = Loads {
                    force: gravity * body.props.mass,
                    torque: DVec3::ZERO,
                };
                integrator
                    .step(&body.props, &mut body.state, loads, h)
                    .map(|_| ())
            };
            // Every body is advanced and the first failure in body order is returned: a
            // short-circuit would leave a failed step's world depending on how the threads
            // ran, and re-simulating it could not reproduce it.
            let failed = |(i, body): (usize, &mut Body)| advance(body).err().map(|e| (i, e));
            let first = if self.bodies.len() >= PARALLEL_THRESHOLD {
                self.bodies
                    .par_iter_mut()
                    .enumerate()
                    .filter_map(failed)
                    .min_by_key(|&(i, _)| i)
            } else {
                self.bodies
                    .iter_mut()
                    .enumerate()
                    .filter_map(failed)
                    .min_by_key(|&(i, _)| i)
            };
            return first.map_or(Ok(()), |(_, e)| Err(e));
        }
        let contacts = self.contacts.as_deref();
        let asleep = |i: usize| contacts.is_some_and(|c| c.is_asleep(i));
        let globals =
            (!self.frames.is_empty()).then(|| [0.0, 0.5 * h, h].map(|s| self.handoff.motion.at(s)));
        let (gravity, added) = (self.gravity, &self.loads);
        for (i, (body, mount)) in self.bodies.iter_mut().zip(&mut self.mounts).enumerate() {
            if moved_by_solver(i) || asleep(i) {
                continue;
            }
            let extra = added.get(i).copied().unwrap_or_default();
            let loads = Loads {
                force: gravity * body.props.mass + extra.force,
                torque: extra.torque,
            };
            match mount {
                Mount::World => {
                    integrator.step(&body.props, &mut body.state, loads, h)?;
                }
                Mount::Riding(rider) => {
                    body.state.velocity += loads.force / body.props.mass * h;
                    body.state.angular_momentum += loads.torque * h;
                    let [a, b, c] = globals.as_ref().expect("riders have frames");
                    let f = rider.frame;
                    riders::advance(rider, body, [&a[f], &b[f], &c[f]], integrator, h)?;
                }
                Mount::Carried { .. } => {}
            }
        }
        Ok(())
    }

    /// Sync: riders the solver moved take its last velocities into their frames; where a
    /// drive stopped its frame dead, the riders of that frame and of the frames below it
    /// get the opposite of the change their frame's motion made at their place (its
    /// spin's change included), so they carry on in the world [cwzx, Hierarchy]; then
    /// riders' and carried bodies' world states follow their frames, the gun fires, and
    /// the clock advances.
    pub fn sync(&mut self) {
        let h = self.handoff.h;
        if !self.frames.is_empty() {
            // The frames as they moved through the step, before a sudden stop at its end.
            let moving = self.handoff.motion.at(h);
            for (i, (body, mount)) in self.bodies.iter().zip(&mut self.mounts).enumerate() {
                if let Mount::Riding(rider) = mount
                    && self.handoff.solved.get(i).copied().unwrap_or(false)
                {
                    riders::take_world_velocity(rider, body, &moving[rider.frame]);
                }
            }
            self.counteract_jumps(&moving);
        }
        if !self.frames.is_empty() || self.gun.is_some() {
            self.sync_hierarchy();
        }
        let t = self.time;
        if let Some(gun) = &mut self.gun
            && gun.due(t, h)
        {
            let shell = gun.shells[gun.fired % gun.shells.len()];
            let (muzzle, direction) = gun.muzzle_motion(&self.frames, &self.bodies);
            let body = &mut self.bodies[shell];
            self.mounts[shell] = Mount::World;
            body.state.position = muzzle.transform.translation;
            body.state.velocity = muzzle.velocity + direction * gun.speed;
            if let Some(c) = &mut self.contacts {
                c.wake(shell);
            }
            gun.fired += 1;
        }
        self.time += h;
    }

    /// The counteraction of this step's sudden frame changes, for every rider below a
    /// frame that jumped: `moving` holds the frames as they were just before.
    fn counteract_jumps(&mut self, moving: &[DynamicTransform]) {
        if self.handoff.jumps.iter().all(Option::is_none) {
            return;
        }
        for mount in &mut self.mounts {
            let Mount::Riding(rider) = mount else {
                continue;
            };
            let (now, then) = (&self.frames[rider.frame].global, &moving[rider.frame]);
            let x = rider.local.transform.translation;
            let change = now.point(x).velocity - then.point(x).velocity;
            if change != DVec3::ZERO {
                rider
                    .local
                    .apply(now.delta_to_local(Delta::velocity(-change)));
            }
        }
    }

    /// World states of the bodies that ride in frames or are carried by frames or bodies,
    /// from their carriers' current motion.
    pub fn sync_hierarchy(&mut self) {
        for i in 0..self.bodies.len() {
            let held = match &self.mounts[i] {
                Mount::Riding(rider) => {
                    let frame = self.frames[rider.frame].global;
                    riders::place(rider, &mut self.bodies[i], &frame);
                    continue;
                }
                Mount::Carried { by, at } => by.motion(&self.frames, &self.bodies).point(*at),
                Mount::World => continue,
            };
            let body = &mut self.bodies[i];
            body.state.position = held.transform.translation;
            body.state.velocity = held.velocity;
            body.state.orientation = held.transform.rotation;
            body.state
                .set_world_omega(&body.props, held.angular_velocity);
        }
    }

    /// The bodies' kinetic and gravitational potential energy, J.
    pub fn energy(&self) -> f64 {
        self.bodies.iter().map(|b| b.energy(self.gravity)).sum()
    }
}
