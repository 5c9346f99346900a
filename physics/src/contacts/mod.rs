//! The contact and joint state of a world, and what its steps rebuild: [`Contacts`]
//! holds a [`ContactState`] (what a step reads: settings, planes, joints, the contact
//! graph, sleep, the broad phase's order; saved in a state file and kept by the
//! timeline) and a `Scratch` (what the stages hand each other, rebuilt every step).
//! The stages are methods of `Contacts` in their rooms: detection in
//! [`crate::collision`] (`detect.rs`, `ccd.rs`), the solve in [`crate::solver`]
//! (`solve.rs`); the joints are [`crate::joints`].

pub(crate) mod buffers;
mod snapshot;

use glam::DVec3;

use crate::body::Body;
use crate::collision::broad_phase::SweepAndPrune;
use crate::collision::pose::WORLD_POSE;
use crate::collision::proxy::{FoundBuffers, Proxy, Still};
use crate::collision::{Aabb, Contact, ContactGraph, Kinematic, Manifold, Plane, Pose};
use crate::contacts::buffers::Buffers;
use crate::joints::joint::{Break, Joint, JointKind, Motor, Placement, SLOTS};
use crate::joints::user_row::{UserRow, UserRows};
use crate::solver::choice::Teams;
use crate::solver::islands::Sleeping;
use crate::solver::settings::{SolverKind, SolverSettings};
use crate::solver::step::StepState;

/// What the last step found, for the app's readout.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Stats {
    /// Pairs of parts the broad phase found this step (none while the world is at rest,
    /// when it does not run).
    pub pairs: usize,
    /// Contacts in the graph.
    pub contacts: usize,
    /// Contact points of the contacts solved in this step (none while the world is at
    /// rest: the asleep contacts are not walked to count theirs).
    pub points: usize,
    /// Islands awake after this step's sleep test.
    pub islands: usize,
    /// Bodies awake after this step.
    pub awake: usize,
    /// Manifolds carried on from an earlier step instead of computed.
    pub recycled: usize,
    /// Entries of single bodies the last step made or walked: proxies and their boxes,
    /// solver bodies, poses with their frames, bodies in the island walk, finalised
    /// states. It follows the awake bodies (and the asleep ones their rows hold), not
    /// the asleep rest of the world.
    pub made: usize,
}

/// The contact and joint state of a world: its state, and its scratch.
#[derive(Clone, Debug, Default)]
pub struct Contacts {
    pub(crate) state: ContactState,
    pub(crate) scratch: Scratch,
}

/// What a contact step reads and leaves for the next: all a snapshot keeps.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
// The name state files' errors have always given it.
#[serde(rename = "Contacts")]
pub struct ContactState {
    /// The solver's parameters.
    pub(crate) settings: SolverSettings,
    /// The static half-spaces (ground, ramps).
    pub(crate) planes: Vec<Plane>,
    /// Colliders that move by a prescribed motion, set by the world before each step.
    pub(crate) kinematic: Vec<Kinematic>,
    /// Bodies the solver neither collides nor moves (a shell held in a gun's breech), by
    /// body index; set by the world before each step (empty: none).
    pub(crate) passive: Vec<bool>,
    /// The joints, by index; a broken one stays, holding nothing.
    pub(crate) joints: Vec<Joint>,
    /// Rows a user's code adds ([`UserRow`]); not part of a saved state.
    #[serde(skip)]
    pub(crate) user_rows: UserRows,
    /// The contacts, each linked into its bodies' lists.
    pub(crate) graph: ContactGraph<Contact>,
    /// Every body's sleep state.
    pub(crate) sleep: Sleeping,
    /// What the last step found.
    pub(crate) stats: Stats,
    /// The broad phase's sorted boxes, whose order the next sweep starts from.
    pub(crate) broad: SweepAndPrune,
    /// The count of detections so far: a contact's stamp says which found it.
    pub(crate) stamp: u64,
}

/// What one step's stages hand each other, rebuilt every step, so not a state; kept from
/// step to step because a pile's rows are megabytes, and allocating them anew each step
/// costs page faults.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scratch {
    /// The parts as this detection placed them.
    pub(crate) proxies: Vec<Proxy>,
    /// The detection (its stamp) that made the proxies: one at rest makes none.
    pub(crate) proxies_made: u64,
    /// Each proxy's box.
    pub(crate) boxes: Vec<Aabb>,
    /// The proxies of the bodies awake in this detection, ascending: the stages after
    /// the broad phase go over these only.
    pub(crate) awake_proxies: Vec<u32>,
    /// Each proxy's body and part, as the proxies were last laid out, and the count of
    /// bodies and which were passive then.
    pub(crate) owners: Vec<(u32, u32)>,
    pub(crate) owners_of: (usize, Vec<bool>),
    /// The reach at rest (half the speculative distance) of the last detection, and
    /// by body the state its proxies were made from (see [`Still`]).
    pub(crate) stills: (f64, Vec<Still>),
    /// The pairs of proxies the broad phase found.
    pub(crate) pairs: Vec<(u32, u32)>,
    /// The narrow phase's manifolds, one per new pair (or per part and plane), before
    /// they go into the graph.
    pub(crate) found: Vec<Option<Manifold>>,
    /// Per pair: its contact in the graph (`NONE` for a new pair) and whether its
    /// manifold is carried on (recycled).
    pub(crate) pair_plans: Vec<(u32, bool)>,
    /// Per contact: the same, seen from the contact: its pair (`NONE` for none) and
    /// whether it is carried on.
    pub(crate) contact_plans: Vec<(u32, bool)>,
    /// The pairs without a contact, in order.
    pub(crate) fresh: Vec<u32>,
    /// Sleeping bodies a moving kinematic collider reached in this detection: the sleep
    /// stage wakes them.
    pub(crate) woken: Vec<usize>,
    /// What the solver's stages hand each other.
    pub(crate) step: StepState,
    /// The detection's and the sleep stage's index buffers.
    pub(crate) buffers: Buffers,
    /// The detection's buffers of its own types.
    pub(crate) found_buffers: FoundBuffers,
    /// Whether detection's and the solve's teams of threads have paid.
    pub(crate) teams: Teams,
}

/// A state file holds the state alone.
impl serde::Serialize for Contacts {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.state.serialize(s)
    }
}

impl<'de> serde::Deserialize<'de> for Contacts {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        ContactState::deserialize(d).map(Contacts::from)
    }
}

impl From<ContactState> for Contacts {
    /// The state, with empty scratch (the next step fills it).
    fn from(state: ContactState) -> Self {
        Self {
            state,
            scratch: Scratch::default(),
        }
    }
}

impl Contacts {
    /// Contacts with these settings and planes, and no joint or contact yet.
    pub fn new(settings: SolverSettings, planes: Vec<Plane>) -> Self {
        Self::from(ContactState {
            settings,
            planes,
            ..ContactState::default()
        })
    }

    /// The solver's parameters.
    pub fn settings(&self) -> &SolverSettings {
        &self.state.settings
    }

    /// The static half-spaces (ground, ramps).
    pub fn planes(&self) -> &[Plane] {
        &self.state.planes
    }

    /// The joints, by index; a broken one stays, holding nothing.
    pub fn joints(&self) -> &[Joint] {
        &self.state.joints
    }

    /// The rows a user's code added.
    pub fn user_rows(&self) -> &UserRows {
        &self.state.user_rows
    }

    /// The contacts, each linked into its bodies' lists.
    pub fn graph(&self) -> &ContactGraph<Contact> {
        &self.state.graph
    }

    /// Every body's sleep state.
    pub fn sleep(&self) -> &Sleeping {
        &self.state.sleep
    }

    /// What the last step found.
    pub fn stats(&self) -> &Stats {
        &self.state.stats
    }

    /// What the solver's stages of the last step handed each other.
    pub fn last_step(&self) -> &StepState {
        &self.scratch.step
    }

    /// Sets every plane's friction coefficient and wakes every one of `bodies` bodies, so
    /// that the change shows at once.
    pub(crate) fn set_plane_friction(&mut self, friction: f64, bodies: usize) {
        self.state
            .planes
            .iter_mut()
            .for_each(|p| p.friction = friction);
        (0..bodies).for_each(|b| self.wake(b));
    }

    /// Places the kinematic colliders for the next step: one per frame of the world's
    /// `frames` (joints to frames index them), each set by `place(frame, collider)` from
    /// what it was last step (its parts are kept, so a frame's shapes are copied once).
    pub(crate) fn place_colliders(
        &mut self,
        frames: usize,
        place: impl FnMut(usize, &mut Kinematic),
    ) {
        self.state.kinematic.resize_with(frames, Kinematic::default);
        let mut place = place;
        (self.state.kinematic.iter_mut().enumerate()).for_each(|(k, kin)| place(k, kin));
    }

    /// Which bodies the solver neither collides nor moves in the next step, by body
    /// index (see [`Contacts::is_passive`]).
    pub(crate) fn set_passive(&mut self, passive: impl IntoIterator<Item = bool>) {
        self.state.passive.clear();
        self.state.passive.extend(passive);
    }

    /// Sets the contact solver (before a run: no body is woken for it, see
    /// `set_settings`).
    pub fn set_solver(&mut self, solver: SolverKind) {
        self.state.settings.solver = solver;
    }

    /// Turns sleeping on or off, waking no body now: off, the next sleep stage wakes
    /// every island; on, islands fall asleep as their timers allow.
    pub fn set_sleeping(&mut self, sleep: bool) {
        self.state.settings.sleep = sleep;
    }

    /// Whether each stage times its steps with a team of threads and alone and runs the
    /// faster way (`true`, the default), or takes a team whenever its work is worth one
    /// (`false`: what a team costs by itself, and its loops run every step, for tests).
    /// The results are the same bits either way.
    pub fn set_timed_teams(&mut self, timed: bool) {
        self.scratch.teams.timed = timed;
    }

    /// Sets the force (N) and torque (N·m) past which joint `k` breaks (`None`: never).
    pub fn set_break_limits(&mut self, k: usize, (force, torque): (Option<f64>, Option<f64>)) {
        let j = &mut self.state.joints[k];
        (j.break_force, j.break_torque) = (force, torque);
    }

    /// Solves every contact row alone on the scalar path (`true`), the reference that
    /// the rows in SIMD slots are tested against, from the next step on.
    pub fn set_scalar_rows(&mut self, scalar: bool) {
        self.scratch.step.set_scalar_rows(scalar);
    }

    /// Adds a row of a user's own; returns its index among the user rows.
    pub fn add_user_row(&mut self, row: Box<dyn UserRow>) -> usize {
        self.state.user_rows.0.push(row);
        self.state.user_rows.0.len() - 1
    }

    /// Poses of the bodies, then the world's.
    pub fn poses(bodies: &[Body]) -> Vec<Pose> {
        bodies
            .iter()
            .map(|b| Pose::of(&b.state))
            .chain(std::iter::once(WORLD_POSE))
            .collect()
    }

    /// Adds a joint at `place` between the bodies as they are now; returns its index.
    ///
    /// A pendulum: a 1 kg bob hung 1 m from a ball joint to the world (`b` is `None`),
    /// released sideways, swings down and past the bottom in a second, 1 m from the pivot
    /// all the way.
    ///
    /// ```
    /// use glam::{DQuat, DVec3};
    /// use gyrolab_physics::body::inertia::Inertia;
    /// use gyrolab_physics::body::{Body, BodyState, MassProps, Material};
    /// use gyrolab_physics::contacts::Contacts;
    /// use gyrolab_physics::joints::{JointKind, Placement};
    /// use gyrolab_physics::solver::SolverSettings;
    /// use gyrolab_physics::integrators::Integrator;
    /// use gyrolab_physics::world::World;
    ///
    /// let props = MassProps { mass: 1.0, inertia: Inertia::new(DVec3::splat(0.004))? };
    /// let mut state = BodyState::from_body_omega(&props, DQuat::IDENTITY, DVec3::ZERO);
    /// state.position = DVec3::new(1.0, 0.0, 0.0);
    /// let bob = Body { name: "bob".into(), props, state, parts: Vec::new(), material: Material::default() };
    /// let mut world = World::new(vec![bob], DVec3::new(0.0, -9.81, 0.0), Integrator::Midpoint);
    ///
    /// let mut contacts = Contacts::new(SolverSettings::default(), Vec::new());
    /// let pivot = Placement { anchor: DVec3::ZERO, anchor_b: None, axis: DVec3::Z };
    /// contacts.add_joint(world.bodies(), JointKind::Ball, (0, None), pivot);
    /// world.set_contacts(contacts);
    ///
    /// for _ in 0..60 {
    ///     world.advance(1.0 / 60.0)?;
    ///     let bob = world.bodies()[0].state.position;
    ///     assert!((bob.length() - 1.0).abs() < 1e-3, "1 m from the pivot: {bob}");
    /// }
    /// let bob = world.bodies()[0].state.position;
    /// assert!(bob.x < 0.0 && bob.y < 0.0, "past the bottom: {bob}");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn add_joint(
        &mut self,
        bodies: &[Body],
        kind: JointKind,
        (a, b): (usize, Option<usize>),
        place: Placement,
    ) -> usize {
        let poses = Self::poses(bodies);
        let pb = &poses[b.unwrap_or(bodies.len())];
        self.state
            .joints
            .push(Joint::new(kind, (a, b), place, &poses[a], pb));
        self.state.joints.len() - 1
    }

    /// Adds a joint at `place` that holds body `a` to the driven frame `frame`, now at
    /// `pose`; returns its index.
    pub fn add_joint_to_frame(
        &mut self,
        bodies: &[Body],
        kind: JointKind,
        (a, frame): (usize, usize),
        pose: Pose,
        place: Placement,
    ) -> usize {
        let pa = Pose::of(&bodies[a].state);
        let mut joint = Joint::new(kind, (a, None), place, &pa, &pose);
        joint.frame = Some(frame);
        self.state.joints.push(joint);
        self.state.joints.len() - 1
    }

    /// New solver settings (validated by the caller), with every one of `bodies` bodies
    /// woken so that the change shows at once.
    pub(crate) fn set_settings(&mut self, settings: SolverSettings, bodies: usize) {
        self.state.settings = settings;
        (0..bodies).for_each(|b| self.wake(b));
    }

    /// Sets the motor of hinge `joint` and wakes its body; whether it is a hinge with a
    /// motor.
    pub fn set_motor(&mut self, joint: usize, motor: Motor) -> bool {
        let Some(j) = self.state.joints.get_mut(joint) else {
            return false;
        };
        let JointKind::Hinge { motor: Some(m), .. } = &mut j.kind else {
            return false;
        };
        *m = motor;
        let a = j.a;
        self.wake(a);
        true
    }

    /// Breaks every joint that carried more than its limits in the step just solved (its
    /// rows' impulses summed over the step, over the step's length), at `time`, the
    /// step's end; a broken joint keeps no rows and no impulses.
    pub(crate) fn break_joints(&mut self, time: f64) {
        let (h, poses) = (self.scratch.step.step_h(), self.scratch.step.poses());
        let world = self.scratch.step.awake().len();
        for &k in self.scratch.step.active_joints() {
            let j = &mut self.state.joints[k];
            let (force, torque) = j.carried(&poses[j.a], &poses[j.second(world)]);
            let (force, torque) = (force / h, torque / h);
            if j.holds() && j.too_much(force, torque) {
                j.broken = Some(Break {
                    time,
                    force,
                    torque,
                });
                j.impulses = [0.0; SLOTS];
            }
        }
    }

    /// Joint `k`'s anchor on each of its ends, at `poses` ([`Self::poses`]); a frame's
    /// pose is taken from the last step's kinematic colliders.
    pub fn joint_anchors(&self, poses: &[Pose], k: usize) -> (DVec3, DVec3) {
        let (pa, pb) = self.joint_poses(poses, k);
        self.state.joints[k].anchors(&pa, &pb)
    }

    /// The poses of joint `k`'s two ends (see [`Self::joint_anchors`]).
    pub fn joint_poses(&self, poses: &[Pose], k: usize) -> (Pose, Pose) {
        let j = &self.state.joints[k];
        let world = poses.len() - 1;
        let pb = match (j.b, j.frame) {
            (Some(b), _) => poses[b],
            (None, Some(f)) => self.state.kinematic.get(f).map_or(WORLD_POSE, |k| k.pose),
            (None, None) => poses[world],
        };
        (poses[j.a], pb)
    }

    /// The joints that have broken, by index, with when and under what.
    pub fn breaks(&self) -> impl Iterator<Item = (usize, &Break)> {
        (self.state.joints.iter().enumerate())
            .filter_map(|(k, j)| j.broken.as_ref().map(|b| (k, b)))
    }

    /// Wakes a body (and, next step, its island): the app calls it when the user
    /// grabs, throws or spawns something.
    pub fn wake(&mut self, body: usize) {
        self.state.sleep.wake(body);
    }

    /// Whether sleeping is on and every body (passive ones aside) is asleep with nothing
    /// waiting to wake it: then a step has nothing to detect, solve or move.
    pub fn at_rest(&self) -> bool {
        self.state.settings.sleep
            && self.scratch.woken.is_empty()
            && (self.state.sleep.iter().enumerate()).all(|(i, s)| s.asleep || self.is_passive(i))
    }

    /// The work a step's stages have, for the choice of one thread or a team: the bodies
    /// the last step left awake, or the contacts' share of them if that is more. The
    /// stages walk the awake set only, so an asleep heap is no work: counted whole, a few
    /// awake boxes beside it went to a team of threads, which cost more than one. (Last
    /// step's count, not a walk of every body's flag: any number of threads gives the
    /// same bits, so a step behind costs only time.)
    pub(crate) fn awake_work(&self, bodies: usize) -> usize {
        let awake = self.state.stats.awake;
        awake.max(self.state.graph.len() * awake / bodies.max(1))
    }

    /// Whether `body` sleeps (false for a body without a sleep state yet).
    pub fn is_asleep(&self, body: usize) -> bool {
        body < self.state.sleep.len() && self.state.sleep.asleep(body)
    }

    /// Whether the solver leaves the body alone this step (see [`Contacts::set_passive`]).
    pub(crate) fn is_passive(&self, body: usize) -> bool {
        self.state.passive.get(body).copied().unwrap_or(false)
    }
}
