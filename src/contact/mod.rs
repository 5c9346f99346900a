//! Contacts and joints: collision detection (sweep and prune, then a manifold per pair
//! of shapes) and a sequential-impulse solver, classic (PGS with Baumgarte) or soft
//! (Box2D v3's sub-stepped soft step).
//!
//! # Where the rotational integrators come in
//! A step is split the way Havok and Box2D split it (seed 004 §1.1): first the
//! velocities, then the positions. Gravity and every contact and joint impulse change
//! linear and angular momentum: an impulse `P` at lever `r` adds `P/m` to `v` and `r × P`
//! to `L` exactly, whatever integrator is chosen, because impulses are instantaneous.
//! The solver works in world angular velocity `ω = I_w⁻¹ L` at the step's start
//! orientation and hands `L = I_w ω` back. Then the chosen integrator advances each
//! body through the step as a FREE body with that momentum: the position by `h v`, the
//! orientation by its own rule, gyroscopic term included (or left out, for `no-gyro`).
//! This is a Lie–Trotter splitting (kick, then free flight): first order in the
//! coupling, but the free flight keeps each integrator's character, so the dancing pole
//! precesses and falls with `midpoint` and spins on with `no-gyro`, as it does without
//! contacts. Every integrator works here; the torque-free exact solution does too,
//! between impulses.

mod box_box;
pub mod broad_phase;
pub mod geometry;
pub mod graph;
pub mod islands;
pub mod joint;
pub mod manifold;
pub mod narrow_phase;
mod ray;
pub mod settings;
pub mod solver;

use glam::DVec3;

use crate::body::Body;
use crate::integrators::{Integrator, Loads, StepError};
pub use geometry::{Aabb, Geom, Plane};
pub use graph::{ContactGraph, NONE};
pub use islands::Sleep;
use joint::JointRows;
pub use joint::{Joint, JointKind, Motor};
pub use manifold::{ContactPoint, Manifold};
pub use settings::{Softness, SolverKind, SolverSettings};
use solver::{ContactInput, ContactRows, Pose, SolverBody};

/// Friction and restitution of a body or a plane; a pair uses the geometric mean of
/// the frictions and the larger restitution (Box2D's rules).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Material {
    pub friction: f64,
    pub restitution: f64,
}

impl Default for Material {
    fn default() -> Self {
        Self {
            friction: 0.5,
            restitution: 0.0,
        }
    }
}

/// One contact of the graph: a manifold between a part of one body and a part of
/// another (or a plane, for `NONE` as the second body).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    pub part_a: u32,
    /// The second body's part, or the plane's index.
    pub part_b: u32,
    pub manifold: Manifold,
    pub friction: f64,
    pub restitution: f64,
    stamp: u64,
}

/// What the last step found, for the app's readout.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stats {
    pub pairs: usize,
    pub contacts: usize,
    pub points: usize,
    pub islands: usize,
    pub awake: usize,
}

#[derive(Clone, Debug)]
struct Proxy {
    body: u32,
    part: u32,
    geom: Geom,
    /// How far ahead of touching this shape's contacts start: half the speculative
    /// distance plus what the body can move in one step.
    reach: f64,
}

/// The contact and joint state of a world.
#[derive(Clone, Debug, Default)]
pub struct Contacts {
    pub settings: SolverSettings,
    pub planes: Vec<Plane>,
    pub joints: Vec<Joint>,
    pub graph: ContactGraph<Contact>,
    pub sleep: Vec<Sleep>,
    pub stats: Stats,
    broad: broad_phase::SweepAndPrune,
    stamp: u64,
    proxies: Vec<Proxy>,
    boxes: Vec<Aabb>,
    pairs: Vec<(u32, u32)>,
    rows: Vec<ContactRows>,
}

/// The pose the solver uses for the world (the ground, world-anchored joints).
const WORLD_POSE: Pose = Pose {
    position: DVec3::ZERO,
    orientation: glam::DQuat::IDENTITY,
};

impl Contacts {
    pub fn new(settings: SolverSettings, planes: Vec<Plane>) -> Self {
        Self {
            settings,
            planes,
            ..Self::default()
        }
    }

    /// Poses of the bodies, then the world's.
    pub fn poses(bodies: &[Body]) -> Vec<Pose> {
        bodies
            .iter()
            .map(|b| Pose {
                position: b.state.position,
                orientation: b.state.orientation,
            })
            .chain(std::iter::once(WORLD_POSE))
            .collect()
    }

    /// Adds a joint at the world `anchor` (and world `axis` for a hinge) between the
    /// bodies as they are now.
    pub fn add_joint(
        &mut self,
        bodies: &[Body],
        kind: JointKind,
        (a, b): (usize, Option<usize>),
        anchor: DVec3,
        axis: DVec3,
    ) {
        let poses = Self::poses(bodies);
        let pb = &poses[b.unwrap_or(bodies.len())];
        self.joints
            .push(Joint::new(kind, (a, b), anchor, axis, &poses[a], pb));
    }

    /// Wakes a body (and, next step, its island): the app calls it when the user
    /// grabs, throws or spawns something.
    pub fn wake(&mut self, body: usize) {
        if let Some(s) = self.sleep.get_mut(body) {
            *s = Sleep::default();
        }
    }

    pub fn is_asleep(&self, body: usize) -> bool {
        self.sleep.get(body).is_some_and(|s| s.asleep)
    }

    /// Finds every manifold within reach and updates the contact graph: a pair that
    /// still touches keeps its contact (and its impulses, matched by feature id), a new
    /// pair is inserted, a pair that parted is erased. Pairs of sleeping bodies are
    /// left as they are.
    pub fn detect(&mut self, bodies: &[Body], h: f64) {
        let spec = 0.5 * self.settings.speculative_distance;
        self.sleep.resize(bodies.len(), Sleep::default());
        self.graph.reserve_bodies(bodies.len());
        self.proxies.clear();
        self.boxes.clear();
        for (i, body) in bodies.iter().enumerate() {
            let s = &body.state;
            let omega = s.world_omega(&body.props).length();
            for (k, part) in body.parts.iter().enumerate() {
                let reach = spec
                    + h * (s.velocity.length()
                        + omega * (part.offset.length() + part.shape.bounding_radius()));
                let geom = Geom::of_part(part, s.position, s.orientation);
                self.boxes.push(geom.aabb().expanded(DVec3::splat(reach)));
                self.proxies.push(Proxy {
                    body: i as u32,
                    part: k as u32,
                    geom,
                    reach,
                });
            }
        }
        let mut pairs = std::mem::take(&mut self.pairs);
        {
            let (proxies, sleep, joints) = (&self.proxies, &self.sleep, &self.joints);
            // Jointed bodies overlap at the joint by design: they do not collide.
            let jointed = |a: usize, b: usize| {
                joints
                    .iter()
                    .any(|j| (j.a == a && j.b == Some(b)) || (j.a == b && j.b == Some(a)))
            };
            self.broad.pairs(
                &self.boxes,
                |i, j| {
                    let (a, b) = (proxies[i].body as usize, proxies[j].body as usize);
                    a != b && !(sleep[a].asleep && sleep[b].asleep) && !jointed(a, b)
                },
                &mut pairs,
            );
        }
        self.stamp += 1;
        for &(i, j) in &pairs {
            let (pa, pb) = (&self.proxies[i as usize], &self.proxies[j as usize]);
            if let Some(m) = narrow_phase::collide(&pa.geom, &pb.geom, pa.reach + pb.reach) {
                let (ma, mb) = (
                    &bodies[pa.body as usize].material,
                    &bodies[pb.body as usize].material,
                );
                let material = Material {
                    friction: (ma.friction * mb.friction).sqrt(),
                    restitution: ma.restitution.max(mb.restitution),
                };
                self.touch((pa.body, pa.part), (pb.body, pb.part), m, material);
            }
        }
        let mut grounded = Vec::new();
        for (p, proxy) in self.proxies.iter().enumerate() {
            if self.sleep[proxy.body as usize].asleep {
                continue;
            }
            for (k, plane) in self.planes.iter().enumerate() {
                let bb = &self.boxes[p];
                let lowest = DVec3::select(plane.normal.cmpge(DVec3::ZERO), bb.min, bb.max);
                if plane.height(lowest) > 0.0 {
                    continue;
                }
                if let Some(m) = narrow_phase::collide_plane(&proxy.geom, plane, proxy.reach + spec)
                {
                    let mat = &bodies[proxy.body as usize].material;
                    let material = Material {
                        friction: (mat.friction * plane.friction).sqrt(),
                        restitution: mat.restitution.max(plane.restitution),
                    };
                    grounded.push(((proxy.body, proxy.part), (NONE, k as u32), m, material));
                }
            }
        }
        for (a, b, m, material) in grounded {
            self.touch(a, b, m, material);
        }
        self.stats.pairs = pairs.len();
        self.pairs = pairs;
        let (stamp, sleep) = (self.stamp, &self.sleep);
        let asleep = |b: u32| b == NONE || sleep[b as usize].asleep;
        for c in (0..self.graph.len()).rev() {
            let [a, b] = self.graph.bodies(c);
            let keep = self.graph.values()[c].stamp == stamp || (asleep(a) && asleep(b));
            if !keep {
                self.graph.erase(c);
            }
        }
    }

    fn touch(&mut self, (a, pa): (u32, u32), (b, pb): (u32, u32), mut m: Manifold, mat: Material) {
        let stamp = self.stamp;
        match self.graph.find(a, b, |c| c.part_a == pa && c.part_b == pb) {
            Some(c) => {
                let contact = &mut self.graph.values_mut()[c];
                m.warm_from(&contact.manifold);
                contact.manifold = m;
                contact.friction = mat.friction;
                contact.restitution = mat.restitution;
                contact.stamp = stamp;
            }
            None => {
                self.graph.insert(
                    a,
                    b,
                    Contact {
                        part_a: pa,
                        part_b: pb,
                        manifold: m,
                        friction: mat.friction,
                        restitution: mat.restitution,
                        stamp,
                    },
                );
            }
        }
    }

    /// One step of `h`: detect, sleep, solve velocities, then let `integrator` move
    /// every awake body (see the module docs for the split).
    pub fn step(
        &mut self,
        bodies: &mut [Body],
        gravity: DVec3,
        integrator: Integrator,
        h: f64,
    ) -> Result<(), StepError> {
        self.detect(bodies, h);
        let speeds: Vec<f64> = bodies
            .iter()
            .map(|b| {
                let size = b
                    .parts
                    .iter()
                    .map(|p| p.offset.length() + p.shape.bounding_radius());
                let size = size.fold(0.0, f64::max);
                b.state
                    .velocity
                    .length()
                    .max(b.state.world_omega(&b.props).length() * size)
            })
            .collect();
        let s = self.settings;
        let (islands, fell) = islands::update(
            &self.graph,
            &self.joints,
            &speeds,
            &mut self.sleep,
            (s.sleep, s.sleep_speed, s.sleep_time, h),
        );
        for b in fell {
            bodies[b].state.velocity = DVec3::ZERO;
            bodies[b].state.angular_momentum = DVec3::ZERO;
        }
        let n = bodies.len();
        let mut solver_bodies: Vec<SolverBody> = bodies
            .iter()
            .zip(&self.sleep)
            .map(|(b, sl)| {
                if sl.asleep {
                    SolverBody::STATIC
                } else {
                    SolverBody::new(&b.props, &b.state)
                }
            })
            .collect();
        solver_bodies.push(SolverBody::STATIC);
        let mut poses = Self::poses(bodies);
        let awake: Vec<bool> = self.sleep.iter().map(|s| !s.asleep).collect();
        let active =
            |a: u32, b: u32| (a != NONE && awake[a as usize]) || (b != NONE && awake[b as usize]);
        // The rows live in a buffer kept from step to step: a pile's rows are megabytes,
        // and allocating them anew each step costs page faults.
        let mut rows = std::mem::take(&mut self.rows);
        rows.clear();
        // Gauss-Seidel converges fastest from the ground up: contacts with the ground
        // first, so each layer of a stack is solved on the one below.
        for grounded in [true, false] {
            for (c, contact) in self.graph.values().iter().enumerate() {
                let [a, b] = self.graph.bodies(c);
                if (b == NONE) != grounded || !active(a, b) {
                    continue;
                }
                let index = |x: u32| if x == NONE { n } else { x as usize };
                rows.push(ContactRows::prepare(
                    ContactInput {
                        manifold: &contact.manifold,
                        a: index(a),
                        b: index(b),
                        friction: contact.friction,
                        restitution: contact.restitution,
                        contact: c,
                    },
                    &solver_bodies,
                    &poses,
                    s.warm_start,
                ));
            }
        }
        let joints: Vec<usize> = (0..self.joints.len())
            .filter(|&k| {
                let j = &self.joints[k];
                active(j.a as u32, j.b.map_or(NONE, |b| b as u32))
            })
            .collect();
        if !s.warm_start {
            for &k in &joints {
                self.joints[k].impulses = [0.0; 8];
            }
        }
        let integrate = |bodies: &mut [Body], sb: &mut [SolverBody], poses: &mut [Pose], hh| {
            for (i, body) in bodies.iter_mut().enumerate() {
                if !awake[i] {
                    continue;
                }
                body.state.velocity = sb[i].v;
                body.state.set_world_omega(&body.props, sb[i].w);
                integrator.step(&body.props, &mut body.state, Loads::default(), hh)?;
                sb[i] = SolverBody::new(&body.props, &body.state);
                poses[i] = Pose {
                    position: body.state.position,
                    orientation: body.state.orientation,
                };
            }
            Ok::<(), StepError>(())
        };
        let gravity_kick = |sb: &mut [SolverBody], hh: f64| {
            for (i, b) in sb[..n].iter_mut().enumerate() {
                if awake[i] {
                    b.v += gravity * hh;
                }
            }
        };
        match s.solver {
            SolverKind::Pgs => {
                gravity_kick(&mut solver_bodies, h);
                let beta = s.beta(h);
                for r in &mut rows {
                    r.set_pgs_bias(beta, s.slop, s.restitution_threshold, h);
                }
                let pgs = Softness {
                    bias_rate: beta / h,
                    mass_scale: 1.0,
                    impulse_scale: 0.0,
                };
                let mut jrows =
                    JointRows::new((&self.joints, &joints), &solver_bodies, &poses, n, pgs, h);
                if s.warm_start {
                    jrows.warm_start(&mut solver_bodies);
                    rows.iter().for_each(|r| r.warm_start(&mut solver_bodies));
                }
                for _ in 0..s.iterations {
                    jrows.solve(&mut solver_bodies, true, s.sor);
                    for r in &mut rows {
                        r.solve(&mut solver_bodies, None, s.sor);
                    }
                }
                jrows.store(&mut self.joints);
                integrate(bodies, &mut solver_bodies, &mut poses, h)?;
            }
            SolverKind::Soft => {
                let hs = h / s.substeps as f64;
                let contact_soft = Softness::new(s.contact_hertz, s.contact_damping_ratio, hs);
                let joint_soft = Softness::new(s.joint_hertz, s.joint_damping_ratio, hs);
                for _ in 0..s.substeps {
                    gravity_kick(&mut solver_bodies, hs);
                    let mut jrows = JointRows::new(
                        (&self.joints, &joints),
                        &solver_bodies,
                        &poses,
                        n,
                        joint_soft,
                        hs,
                    );
                    jrows.warm_start(&mut solver_bodies);
                    rows.iter().for_each(|r| r.warm_start(&mut solver_bodies));
                    for _ in 0..s.substep_iterations {
                        jrows.solve(&mut solver_bodies, true, s.sor);
                        for r in &mut rows {
                            let soft = Some((contact_soft, 1.0 / hs, s.max_push_out));
                            r.solve(&mut solver_bodies, soft, s.sor);
                        }
                    }
                    integrate(bodies, &mut solver_bodies, &mut poses, hs)?;
                    for r in &mut rows {
                        r.refresh(&solver_bodies, &poses, s.follow_anchors);
                    }
                    jrows.solve(&mut solver_bodies, false, s.sor);
                    for r in &mut rows {
                        let relax = Some((Softness::RIGID, 1.0 / hs, s.max_push_out));
                        r.solve(&mut solver_bodies, relax, s.sor);
                    }
                    jrows.store(&mut self.joints);
                }
                for r in &mut rows {
                    r.restitution(&mut solver_bodies, s.restitution_threshold);
                }
                for (i, body) in bodies.iter_mut().enumerate() {
                    if awake[i] {
                        body.state.velocity = solver_bodies[i].v;
                        body.state.set_world_omega(&body.props, solver_bodies[i].w);
                    }
                }
            }
        }
        let values = self.graph.values_mut();
        for r in &rows {
            r.store(&mut values[r.contact].manifold);
        }
        self.stats.contacts = self.graph.len();
        self.stats.points = self.graph.values().iter().map(|c| c.manifold.len).sum();
        self.stats.islands = islands;
        self.stats.awake = awake.iter().filter(|a| **a).count();
        self.rows = rows;
        if bodies.iter().all(|b| b.state.is_finite()) {
            Ok(())
        } else {
            Err(StepError::NonFinite)
        }
    }
}
