//! One contact step as named stages, in the order Box2D v3 runs its solver stages
//! [Catto 2024]: detect and sleep, then prepare, and per solver sub-step integrate
//! velocities, (prepare joints,) warm start, iterate, integrate positions, relax; then
//! restitution and store impulses. The classic solver runs the same stages once per
//! step, with Baumgarte's bias in place of the soft rows' springs [Havok solver].
//!
//! The world runs detection ([`Contacts::detect`]) and then the solve,
//! [`Contacts::solve`], which runs the rest in order; [`StepState`] is what the stages
//! hand each other. One word each: the *solve* is that whole stage (the world's
//! `Stage::Solve`); an *iteration* is one Gauss-Seidel pass with the position bias on
//! ([`StepState::iterate`], run `iterations` times); the *relax* pass is one without it.

use glam::DVec3;

use crate::body::{Body, BodyState};
use crate::collision::graph::{ContactGraph, NONE};
use crate::collision::pose::{Pose, WORLD_POSE};
use crate::collision::{Contact, Kinematic};
use crate::integrators::{Integrator, Loads, StepError};
use crate::joints::direct::Direct;
use crate::joints::joint::{Joint, SLOTS};
use crate::joints::joint_rows::JointRows;
use crate::joints::user_row::UserRows;
use crate::solver::bias::NormalBias;
use crate::solver::body::SolverBody;
use crate::solver::colouring::{self, Colours, Marks};
use crate::solver::contact_rows::{ContactInput, ContactRows};
use crate::solver::groups::Groups;
use crate::solver::islands::Sleeping;
use crate::solver::kernel::RowPass;
use crate::solver::parallel;
use crate::solver::refresh::MatrixPose;
use crate::solver::settings::{JointSolver, SolverKind, SolverSettings};

/// Bodies the world moves itself, in a frame's coordinates (riders): the solver solves
/// their world velocities like any body's, then hands each to its mover instead of the
/// integrator. (`Send`: the solve may run on one of rayon's threads.)
pub trait Movers: Send {
    /// Whether the world moves body `i` itself.
    fn moves(&self, i: usize) -> bool;
    /// Moves body `i` through `h`, from its state with the solved world velocities; leaves
    /// its world state (position, velocity, orientation, momentum) at the end.
    fn advance(&mut self, i: usize, body: &mut Body, h: f64) -> Result<(), StepError>;
}

/// Who takes part in a step besides the bodies: which sleep, which the world keeps out of
/// the solver, and the kinematic colliders.
pub(crate) struct Participants<'a> {
    pub(crate) sleep: &'a Sleeping,
    pub(crate) passive: &'a [bool],
    pub(crate) kinematic: &'a [Kinematic],
}

/// What the stages of one step hand each other: the solver's view of the bodies and the
/// rows of the contacts and joints being solved.
#[derive(Clone, Debug, Default)]
pub struct StepState {
    /// The solver's view of each body, then the world's static body, then each kinematic
    /// collider's.
    bodies: Vec<SolverBody>,
    /// Each body's pose, the world's, then each kinematic collider's.
    poses: Vec<Pose>,
    /// The same poses with their rotation matrices, which the contact rows move with.
    matrix_poses: Vec<MatrixPose>,
    /// Each body's pose at the step's start (then the world's), for the sleep test.
    pub(super) start: Vec<Pose>,
    /// Which bodies are solved and moved in this step.
    pub(super) awake: Vec<bool>,
    /// The same bodies by index, ascending: what the stages that go body by body walk,
    /// so that an asleep heap beside them costs nothing (Box2D v3's awake solver set).
    pub(super) moving: Vec<usize>,
    /// The single bodies' entries this step made: solver bodies, poses, finalised states.
    pub(super) made: usize,
    /// The rows of every contact with an awake body, contacts with the ground first.
    contact_rows: Vec<ContactRows>,
    /// The joints with an awake body, and their rows as last prepared.
    active_joints: Vec<usize>,
    /// The active joints' rows, as last prepared.
    joint_rows: JointRows,
    /// The step the solver last took: the joints' impulses of the step over it are the
    /// forces they carried.
    pub(super) step_h: f64,
    /// The joints' equality rows factored for the direct solve (with that solver).
    direct: Direct,
    /// The contact rows' colours: `contact_rows` lists the rows colour by colour.
    colours: Colours,
    /// The rows eight by eight in SIMD slots for the passes: a grouped row lives
    /// in its slot from the pack in the prepare stage to `Groups::store`.
    groups: Groups,
    /// Scratch of the prepare stage, rebuilt each step: each row's bodies and contact
    /// in the order of the ground first, the colours' permutation of them, and the
    /// colours each body has taken.
    jobs: Vec<(usize, usize)>,
    pub(super) job_contacts: Vec<usize>,
    order: Vec<u32>,
    colour_used: Marks,
    /// Scratch of the prepare stage: which bodies a row holds, and a list of bodies or
    /// contacts a stage walks.
    held: Vec<bool>,
    listed: Vec<usize>,
    /// Scratch of the finalize stage: each awake body's state with its solved velocities.
    solved: Vec<BodyState>,
    /// Each awake body's velocities before the current solver sub-step's kick, by body
    /// index: how a body that no row pushes is told to fly free (see [`kicked`]).
    unkicked: Vec<(DVec3, DVec3)>,
}

/// The velocities `(v, ω)` of solver body `b` after a kick by `gravity` and `load` over
/// `h`. If the rows leave a body's kicked velocities as they were, no row pushed it, and
/// it takes its integrator's own step under those loads from the velocities before the
/// kick: a free body's step, which for the linear motion of the implicit and exact
/// integrators is the ballistic `x + hv₀ + ½h²g`, not the sub-step's symplectic Euler
/// (`x + hv₀ + h²g`, which runs ahead of free fall by `g·h·t/2`). A body in contact keeps
/// the symplectic update the solver's rest relies on: applied to a resting body, the
/// ballistic step would lift it `½h²g` every sub-step.
#[inline]
fn kicked(b: &SolverBody, gravity: DVec3, load: Option<&Loads>, h: f64) -> (DVec3, DVec3) {
    let (mut v, mut w) = (b.v + gravity * h, b.w);
    if let Some(l) = load {
        v += l.force * (b.inv_mass * h);
        w += b.inv_inertia * l.torque * h;
    }
    (v, w)
}

impl StepState {
    /// Which bodies the last step solved and moved, by body index.
    pub fn awake(&self) -> &[bool] {
        &self.awake
    }

    /// The step (s) the solver last took: a joint's impulses over it are the force it
    /// carried.
    pub fn step_h(&self) -> f64 {
        self.step_h
    }

    /// The single bodies' entries the last step made: solver bodies, poses, finalised
    /// states.
    pub fn made(&self) -> usize {
        self.made
    }

    /// How many contact rows (one set per manifold) the last step solved.
    pub fn contact_rows(&self) -> usize {
        self.contact_rows.len()
    }

    /// The most contact rows one colour of the last step had.
    pub fn widest_colour(&self) -> usize {
        (self.colours.ranges.iter())
            .map(|r| r.len())
            .max()
            .unwrap_or(0)
    }

    /// How many rows the SIMD slots have solved or warm-started since they were made,
    /// once per row and pass.
    pub fn rows_solved_in_slots(&self) -> u64 {
        self.groups.rows_solved()
    }

    /// The joints the direct solve left to the iterative one because they close a loop.
    pub fn direct_loops(&self) -> &[usize] {
        &self.direct.loops
    }

    /// The joints the direct solve left to the iterative one because their rows depend
    /// on each other (a singular block).
    pub fn direct_singular(&self) -> &[usize] {
        &self.direct.singular
    }

    /// Each body's pose as the last step left it, then the world's and the kinematic
    /// colliders'.
    pub(crate) fn poses(&self) -> &[Pose] {
        &self.poses
    }

    /// The joints with an awake body in the last step.
    pub(crate) fn active_joints(&self) -> &[usize] {
        &self.active_joints
    }

    /// Solves every contact row alone on the scalar path (`true`), the reference the
    /// rows in SIMD slots are tested against, from the next step on.
    pub(crate) fn set_scalar_rows(&mut self, scalar: bool) {
        self.groups.scalar = scalar;
    }
}

impl StepState {
    /// Prepare: the solver's view of the bodies at the step's start, the rows of every
    /// contact with an awake body (with PGS, their bias for a step of `h`) and the
    /// list of joints with an awake body.
    pub(crate) fn prepare(
        &mut self,
        bodies: &[Body],
        participants: Participants,
        graph: &ContactGraph<Contact>,
        joints: &mut [Joint],
        settings: &SolverSettings,
        h: f64,
    ) {
        let (sleep, kinematic) = (participants.sleep, participants.kinematic);
        self.prepare_bodies(bodies, participants);
        self.list_jobs(graph, bodies.len());
        self.prepare_poses(bodies, sleep, kinematic);
        self.colour_jobs(settings, bodies.len());
        self.prepare_rows(graph, settings, h);
        self.list_joints(joints, settings);
    }

    /// The solver's view of each body (static where asleep or passive), the world's
    /// static body, then the kinematic colliders'. The bodies' views are kept from step
    /// to step: last step's awake ones are made static again and this step's made, so
    /// the asleep bodies cost nothing.
    fn prepare_bodies(
        &mut self,
        bodies: &[Body],
        Participants {
            sleep,
            passive,
            kinematic,
        }: Participants,
    ) {
        let n = bodies.len();
        self.bodies.truncate(n);
        for &i in self.moving.iter().filter(|&&i| i < n) {
            self.bodies[i] = SolverBody::STATIC;
        }
        self.bodies.resize(n, SolverBody::STATIC);
        self.awake.clear();
        self.awake
            .extend((0..n).map(|i| !sleep.asleep(i) && !passive.get(i).copied().unwrap_or(false)));
        self.moving.clear();
        self.moving.extend((0..n).filter(|&i| self.awake[i]));
        self.made = self.moving.len();
        let awake = &self.awake;
        let listed = (&self.moving[..], |i: usize| awake[i]);
        for_each_listed(&mut self.bodies, listed, |i, b| {
            *b = SolverBody::new(&bodies[i].props, &bodies[i].state);
        });
        self.bodies.push(SolverBody::STATIC);
        self.bodies
            .extend(kinematic.iter().map(Kinematic::solver_body));
    }

    /// The poses the stages read, with their matrices, at the step's start: every body's
    /// not asleep, each asleep body's that a row holds, the world's, then the kinematic
    /// colliders'. An asleep body's that no row holds is kept from an earlier step and
    /// not read; so is its start, which only the sleep test reads.
    fn prepare_poses(&mut self, bodies: &[Body], sleep: &Sleeping, kinematic: &[Kinematic]) {
        let n = bodies.len();
        let (held, list) = (&mut self.held, &mut self.listed);
        held.clear();
        held.resize(n, false);
        for &(a, b) in &self.jobs {
            for i in [a, b].into_iter().filter(|&i| i < n) {
                held[i] = true;
            }
        }
        let held = &*held;
        let fresh = |i: usize| !sleep.asleep(i) || held[i];
        list.clear();
        list.extend((0..n).filter(|&i| fresh(i)));
        let list = &*list;
        self.made += list.len();
        self.poses.resize(n, WORLD_POSE);
        for_each_listed(&mut self.poses, (list, fresh), |i, pose| {
            *pose = Pose::of(&bodies[i].state);
        });
        self.start.resize(n, WORLD_POSE);
        let poses = &self.poses;
        for_each_listed(&mut self.start, (list, fresh), |i, start| *start = poses[i]);
        self.matrix_poses.resize(n, MatrixPose::of(&WORLD_POSE));
        for_each_listed(&mut self.matrix_poses, (list, fresh), |i, matrix| {
            *matrix = MatrixPose::of(&poses[i]);
        });
        self.poses.push(WORLD_POSE);
        self.start.push(WORLD_POSE);
        self.poses.extend(kinematic.iter().map(|k| k.pose));
        (self.matrix_poses).extend(self.poses[n..].iter().map(MatrixPose::of));
    }

    /// The matrices of the poses that moved in a solver sub-step: the awake bodies' and
    /// the kinematic colliders' (an asleep body's, or the world's, stays as it was).
    fn update_moved_matrices(&mut self) {
        let (poses, awake, n) = (&self.poses, &self.awake, self.awake.len());
        let listed = (&self.moving[..], |i: usize| awake[i]);
        for_each_listed(&mut self.matrix_poses[..n], listed, |i, matrix| {
            *matrix = MatrixPose::of(&poses[i]);
        });
        for (matrix, pose) in self.matrix_poses[n + 1..].iter_mut().zip(&poses[n + 1..]) {
            *matrix = MatrixPose::of(pose);
        }
    }

    /// Whether a row between `a` and `b` (`NONE`: the world) has an awake end.
    fn active(&self, a: u32, b: u32) -> bool {
        let awake = |i: u32| i != NONE && self.awake[i as usize];
        awake(a) || awake(b)
    }

    /// The contacts to solve, with their solver bodies (`n` bodies). Gauss-Seidel
    /// converges fastest from the ground up: contacts with the ground first, so each
    /// layer of a stack is solved on the one below.
    ///
    /// The contacts with an awake end are found in the awake bodies' lists where those
    /// are few (beside an asleep heap), else by a walk of every contact; in contact order
    /// either way.
    fn list_jobs(&mut self, graph: &ContactGraph<Contact>, n: usize) {
        self.jobs.clear();
        self.job_contacts.clear();
        let mut active = std::mem::take(&mut self.listed);
        active.clear();
        if self.moving.len() * 4 < n {
            active.extend(
                (self.moving.iter()).flat_map(|&b| graph.contacts_of(b as u32).map(|(c, _)| c)),
            );
            active.sort_unstable();
            active.dedup();
        } else {
            active.extend((0..graph.len()).filter(|&c| {
                let [a, b] = graph.bodies(c);
                self.active(a, b)
            }));
        }
        let values = graph.values();
        for grounded in [true, false] {
            for &c in &active {
                let [a, b] = graph.bodies(c);
                if (b == NONE) != grounded {
                    continue;
                }
                let contact = &values[c];
                // The second end: a body, the world (planes), or a kinematic collider,
                // whose solver bodies follow the world's.
                let b = match (b, contact.kinematic) {
                    (NONE, NONE) => n,
                    (NONE, k) => n + 1 + k as usize,
                    (b, _) => b as usize,
                };
                self.jobs.push((a as usize, b));
                self.job_contacts.push(c);
            }
        }
        self.listed = active;
    }

    /// Coloured, the rows go colour by colour, each colour still from the ground up.
    fn colour_jobs(&mut self, settings: &SolverSettings, n: usize) {
        let awake = &self.awake;
        self.colours = if settings.coloured {
            colouring::colour(
                &self.jobs,
                |i| i < n && awake[i],
                &mut self.colour_used,
                &mut self.order,
            )
        } else {
            self.order.clear();
            self.order.extend(0..self.jobs.len() as u32);
            Colours::sequential(self.jobs.len())
        };
    }

    /// The contact rows in colour order, prepared where they lie (a new one only where
    /// there are more), with PGS's bias; then packed into groups planned again from
    /// them, and moved to their bodies, which makes their Jacobians.
    fn prepare_rows(&mut self, graph: &ContactGraph<Contact>, settings: &SolverSettings, h: f64) {
        let (jobs, order, values) = (&self.jobs, &self.order, graph.values());
        let (solver_bodies, poses) = (&self.bodies, &self.poses);
        let contacts = &self.job_contacts;
        self.contact_rows
            .resize_with(order.len(), ContactRows::default);
        parallel::for_each_indexed(&mut self.contact_rows, |k, rows| {
            let job = order[k] as usize;
            let (a, b) = jobs[job];
            let c = contacts[job];
            let contact = &values[c];
            rows.prepare(
                ContactInput {
                    manifold: &contact.manifold,
                    a,
                    b,
                    friction: contact.friction,
                    restitution: contact.restitution,
                    contact: c,
                },
                solver_bodies,
                poses,
                settings.warm_start,
            );
        });
        if settings.solver == SolverKind::Pgs {
            for r in &mut self.contact_rows {
                r.set_pgs_bias(settings, h);
            }
        }
        let (bodies, matrix_poses) = (&self.bodies, &self.matrix_poses);
        (self.groups).pack(&mut self.contact_rows, &self.colours, bodies, matrix_poses);
    }

    /// The joints with an awake end; without warm starting, their impulses start at 0.
    fn list_joints(&mut self, joints: &mut [Joint], settings: &SolverSettings) {
        self.active_joints.clear();
        for (k, j) in joints.iter().enumerate() {
            if j.holds() && self.active(j.a as u32, j.b.map_or(NONE, |b| b as u32)) {
                self.active_joints.push(k);
            }
        }
        for &k in &self.active_joints {
            joints[k].step_impulses = [0.0; SLOTS];
            if !settings.warm_start {
                joints[k].impulses = [0.0; SLOTS];
            }
        }
        self.joint_rows = JointRows::default();
    }

    /// Integrate velocities: gravity's kick over `h` to every awake body, and the kick of
    /// any other loads (`loads` is indexed by body and may be shorter: no load).
    pub(crate) fn integrate_velocities(&mut self, gravity: DVec3, loads: &[Loads], h: f64) {
        let n = self.awake.len();
        self.unkicked.resize(n, (DVec3::ZERO, DVec3::ZERO));
        let kick = |i: usize, b: &mut SolverBody, unkicked: &mut (DVec3, DVec3)| {
            *unkicked = (b.v, b.w);
            (b.v, b.w) = kicked(b, gravity, loads.get(i), h);
        };
        if self.moving.len() < parallel::PARALLEL_ROWS {
            for &i in &self.moving {
                kick(i, &mut self.bodies[i], &mut self.unkicked[i]);
            }
        } else {
            let awake = &self.awake;
            let each = (&mut self.bodies[..n], &mut self.unkicked[..]);
            parallel::for_each_zip(each, |i, b, unkicked| {
                if awake[i] {
                    kick(i, b, unkicked);
                }
            });
        }
    }

    /// Prepare joints: the active joints' rows at the current poses, for a step (or solver
    /// sub-step) of `h`. Box2D prepares its joints once a step and moves them with the
    /// bodies; these are prepared again each solver sub-step, and the impulses the last
    /// solver sub-step's rows accumulated go with them.
    pub(crate) fn prepare_joints(
        &mut self,
        (joints, users): (&mut [Joint], &mut UserRows),
        settings: &SolverSettings,
        h: f64,
    ) {
        self.joint_rows.store(joints, users);
        self.joint_rows = JointRows::new(
            (joints, &self.active_joints),
            &self.bodies,
            &self.poses,
            self.awake.len(),
            settings.joint_softness(h),
            h,
        );
        let awake = |i: usize| self.awake.get(i).copied().unwrap_or(false);
        let active: Vec<usize> = (0..users.0.len())
            .filter(|&k| {
                let (a, b) = users.0[k].bodies();
                awake(a) || b.is_some_and(awake)
            })
            .collect();
        let softness = (settings.joint_softness(h), h);
        let solver = (&self.bodies[..], &self.poses[..]);
        (self.joint_rows).add_users((users, &active), solver, self.awake.len(), softness);
        if settings.joint_solver == JointSolver::Direct {
            self.direct = Direct::new(&self.joint_rows, &self.bodies, h);
        }
    }

    /// Warm start: applies the impulses accumulated before again, so that the iterations
    /// starts next to its answer [Catto 2005].
    pub(crate) fn warm_start(&mut self, settings: &SolverSettings) {
        let (rows, bodies) = (&self.joint_rows, &mut self.bodies);
        match settings.joint_solver {
            JointSolver::Iterative => rows.warm_start(bodies, (&[], &[])),
            JointSolver::Direct => self.direct.warm_start(rows, bodies),
        }
        self.run_contacts(RowPass::WarmStart);
    }

    /// Iterate: one Gauss-Seidel pass over the joints, then the contacts, with the
    /// position bias on (PGS's Baumgarte bias, or the soft rows' springs over `h`).
    pub(crate) fn iterate(&mut self, settings: &SolverSettings, h: f64) {
        self.joints_pass(settings, true);
        let bias = NormalBias::iterate(settings, h);
        self.run_contacts(RowPass::Iterate(bias, settings.sor));
    }

    /// The joints' rows: one at a time, or the others (limits, motors, springs, user
    /// rows) one at a time and then each tree's equality rows directly, so that those
    /// hold exactly after every pass.
    fn joints_pass(&mut self, settings: &SolverSettings, use_bias: bool) {
        let (bodies, sor) = (&mut self.bodies, settings.sor);
        match settings.joint_solver {
            JointSolver::Iterative => {
                self.joint_rows.update_points(bodies, use_bias, sor);
                self.joint_rows.update_rows(bodies, (use_bias, sor), &[]);
            }
            JointSolver::Direct => {
                let rows = &mut self.joint_rows;
                rows.update_rows(bodies, (use_bias, sor), &self.direct.owned_rows);
                self.direct.solve(rows, bodies, use_bias, sor);
            }
        }
    }

    /// Integrate positions: hands each awake body its solved velocities and lets the
    /// integrator move it through `h` as a free body (or its mover move it); the
    /// solver's view and the poses follow. Velocities that are not finite (the rows
    /// overflowed) fail the step.
    pub(crate) fn integrate_positions(
        &mut self,
        bodies: &mut [Body],
        (integrator, gravity, loads): (Integrator, DVec3, &[Loads]),
        h: f64,
        movers: &mut dyn Movers,
    ) -> Result<(), StepError> {
        let n = self.awake.len();
        // Velocities that overflowed fail the step before any body moves.
        let solved = &self.bodies;
        if (self.moving.iter()).any(|&i| !(solved[i].v.is_finite() && solved[i].w.is_finite())) {
            return Err(StepError::NonFinite);
        }
        // The bodies the world moves, here; the others fly free, each on its own, so on
        // rayon's threads.
        let mut moved = Vec::new();
        for &i in &self.moving {
            if movers.moves(i) {
                moved.push(i);
                hand_velocities(&mut bodies[i], &self.bodies[i])?;
                movers.advance(i, &mut bodies[i], h)?;
            }
        }
        let (awake, moved, unkicked) = (&self.awake, &moved, &self.unkicked);
        let free = |i: usize, body: &mut Body, solver: &mut SolverBody, pose: &mut Pose| {
            if moved.binary_search(&i).is_err() {
                let (v, w) = unkicked[i];
                let start = SolverBody { v, w, ..*solver };
                if (solver.v, solver.w) == kicked(&start, gravity, loads.get(i), h) {
                    // No row pushed it: a free body's step (see `kicked`).
                    hand_velocities(body, &start)?;
                    let load = loads.get(i).copied().unwrap_or_default();
                    let force = load.force + gravity * body.props.mass;
                    let load = Loads { force, ..load };
                    integrator.step(&body.props, &mut body.state, load, h)?;
                } else {
                    hand_velocities(body, solver)?;
                    integrator.step(&body.props, &mut body.state, Loads::default(), h)?;
                }
            }
            *solver = SolverBody::new(&body.props, &body.state);
            *pose = Pose::of(&body.state);
            Ok(())
        };
        if self.moving.len() < parallel::PARALLEL_ROWS {
            // Few awake bodies (beside an asleep heap, say): they alone, on this thread;
            // every one is tried and the first failure returned, as on the team.
            let mut first = Ok(());
            for &i in &self.moving {
                let (solver, pose) = (&mut self.bodies[i], &mut self.poses[i]);
                let done = free(i, &mut bodies[i], solver, pose);
                first = first.and(done);
            }
            first?;
        } else {
            parallel::try_for_each_zip(
                (bodies, &mut self.bodies[..n], &mut self.poses[..n]),
                |i, body, solver, pose| {
                    if !awake[i] {
                        return Ok(());
                    }
                    free(i, body, solver, pose)
                },
            )?;
        }
        // Kinematic colliders move on with their own velocity.
        let first = self.awake.len() + 1;
        for (pose, body) in self.poses[first..].iter_mut().zip(&self.bodies[first..]) {
            *pose = Kinematic::advanced(pose, body, h);
        }
        Ok(())
    }

    /// Update contacts (soft step): moves the contact rows with the bodies after a
    /// solver sub-step's integration, so the next pass sees the new separations.
    pub(crate) fn update_contacts(&mut self, settings: &SolverSettings) {
        self.update_moved_matrices();
        self.groups.refresh(
            &mut self.contact_rows,
            &self.bodies,
            &self.matrix_poses,
            settings.follow_anchors,
        );
    }

    /// Relax (soft step): one pass of rigid rows without position bias, which takes
    /// out the velocity the springs' push added [Catto 2024].
    pub(crate) fn relax(&mut self, settings: &SolverSettings, h: f64) {
        self.joints_pass(settings, false);
        self.run_contacts(RowPass::Relax(NormalBias::relax(settings, h), settings.sor));
    }

    /// Restitution (soft step): points hit faster than the threshold bounce.
    ///
    /// A face hits with up to four points, coupled through the body's rotation: one
    /// Gauss-Seidel pass (Box2D's) leaves the bounce a few % short of `e`, so the pass
    /// runs as often as the solve's iterations, which converges it.
    pub(crate) fn restitution(&mut self, settings: &SolverSettings) {
        let threshold = settings.restitution_threshold;
        // Most steps nothing bounces (a pile's boxes have no restitution): then the
        // passes would change nothing, and are not run.
        if !self.contact_rows.iter().any(|r| r.may_bounce(threshold)) {
            return;
        }
        for _ in 0..settings.substep_iterations.max(1) {
            self.run_contacts(RowPass::Restitution(threshold));
        }
    }

    /// A pass of the contact rows' kernel over the rows, in slots (which hold the
    /// impulses until [`Groups::store`]).
    fn run_contacts(&mut self, pass: RowPass) {
        self.groups.run(
            &mut self.contact_rows,
            &self.colours,
            &mut self.bodies,
            &self.awake,
            pass,
        );
    }

    /// Finalize bodies: hands the awake bodies their solved velocities (in the soft
    /// step, those that relax and restitution left after the last integration). If any
    /// body's new state would not be finite (the rows overflowed), no body is changed
    /// and the step fails: a failed step leaves the states as they were.
    pub(crate) fn finalize_bodies(&mut self, bodies: &mut [Body]) -> Result<(), StepError> {
        self.made += self.moving.len();
        let (solver, moving) = (&self.bodies, &self.moving);
        parallel::collect(moving.len(), &mut self.solved, |k| {
            solved_state(&bodies[moving[k]], &solver[moving[k]])
        });
        if !self.solved.iter().all(BodyState::is_finite) {
            return Err(StepError::NonFinite);
        }
        for (&i, state) in moving.iter().zip(&self.solved) {
            bodies[i].state = *state;
        }
        Ok(())
    }

    /// Store impulses: keeps the accumulated impulses in the contacts and joints for
    /// the next step's warm start.
    pub(crate) fn store_impulses(
        &mut self,
        graph: &mut ContactGraph<Contact>,
        (joints, users): (&mut [Joint], &mut UserRows),
    ) {
        // SAFETY: `list_jobs` lists each contact once, and each row is of a job's contact.
        unsafe { self.groups.store(&self.contact_rows, graph.values_mut()) };
        self.joint_rows.store(joints, users);
    }
}

/// `f(i, &mut items[i])` for every `i` of `list` (ascending; `listed(i)` says whether
/// `i` is in it): one after another where they are few, else over every item on the
/// team. Each item is updated alone, so either way gives the same items.
fn for_each_listed<T: Send>(
    items: &mut [T],
    (list, listed): (&[usize], impl Fn(usize) -> bool + Sync),
    f: impl Fn(usize, &mut T) + Sync,
) {
    if list.len() < parallel::PARALLEL_ROWS {
        list.iter().for_each(|&i| f(i, &mut items[i]));
    } else {
        parallel::for_each_indexed(items, |i, item| {
            if listed(i) {
                f(i, item);
            }
        });
    }
}

/// `body`'s state with the velocities the solver found for it.
fn solved_state(body: &Body, solved: &SolverBody) -> BodyState {
    let mut state = body.state;
    state.velocity = solved.v;
    state.set_world_omega(&body.props, solved.w);
    state
}

/// Hands `body` the velocities the solver found for it (finite), or fails, leaving it as
/// it was, if its state would not be finite (its angular momentum overflowed).
fn hand_velocities(body: &mut Body, solved: &SolverBody) -> Result<(), StepError> {
    let state = solved_state(body, solved);
    if !state.is_finite() {
        return Err(StepError::NonFinite);
    }
    body.state = state;
    Ok(())
}
