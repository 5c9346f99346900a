//! Each joint kind's rows at the current poses, and the rows of the joints being solved.
//!
//! Slots (see [`SLOTS`]): a ball, hinge or fixed joint's point block is 0–2; a hinge's
//! axis rows 3–4, limit 6, motor 7; a fixed joint's and a slider's angular rows 3–5; a
//! slider's rows across its axis 0–1, its lower and upper limits 2 and 6, its motor 7; a
//! distance joint's rod or spring 0, its lower and upper length 1 and 2.

use glam::DVec3;

use super::joint::{Joint, JointKind, SLOTS};
use super::point_block::PointBlock;
use super::row::{Feedback, Row};
use super::user_row::UserRows;
use crate::collision::geometry::tangents;
use crate::collision::pose::Pose;
use crate::solver::body::SolverBody;
use crate::solver::settings::Softness;

/// What the rows of one joint are built from.
struct JointEnds<'a> {
    bodies: &'a [SolverBody],
    poses: (&'a Pose, &'a Pose),
    index: (usize, usize),
    softness: Softness,
    h: f64,
}

impl JointEnds<'_> {
    fn angular(&self, slot: usize, dir: DVec3, error: f64) -> (usize, Row) {
        let mut row = Row::new(self.bodies, self.index, dir);
        row.error = error;
        row.softness = self.softness;
        (slot, row)
    }

    fn linear(&self, slot: usize, levers: (DVec3, DVec3), d: DVec3, error: f64) -> (usize, Row) {
        let mut row = Row::linear(self.bodies, self.index, levers, d);
        row.error = error;
        row.softness = self.softness;
        (slot, row)
    }

    /// A one-sided limit: impulse ≥ 0 along `d`, slack while `error` > 0.
    fn limit(&self, slot: usize, levers: (DVec3, DVec3), d: DVec3, error: f64) -> (usize, Row) {
        let (slot, mut row) = self.linear(slot, levers, d, error);
        row.lo = 0.0;
        row.feedback = Feedback::OneSided {
            inv_h: 1.0 / self.h,
        };
        (slot, row)
    }

    /// A motor along or about a row: drives the row's speed to `target` with at most
    /// `max` (N or N·m) over the step.
    fn motor(row: (usize, Row), target: f64, max: f64, h: f64) -> (usize, Row) {
        let (slot, mut row) = row;
        row.softness = Softness::RIGID;
        row.target = target;
        row.hi = max * h;
        row.lo = -row.hi;
        (slot, row)
    }
}

impl Joint {
    /// The joint's point block (slots 0–2 hold its world impulse) at the current poses;
    /// `(ia, ib)` index the solver bodies.
    pub fn point(
        &self,
        bodies: &[SolverBody],
        (pa, pb): (&Pose, &Pose),
        (ia, ib): (usize, usize),
        softness: Softness,
    ) -> PointBlock {
        let (wa, wb) = self.anchors(pa, pb);
        let (ra, rb) = (wa - pa.position, wb - pb.position);
        let mut block = PointBlock::new(bodies, (ia, ib), (ra, rb), wb - wa, softness);
        block.impulse = DVec3::from_slice(&self.impulses[..3]);
        block
    }

    /// Whether the joint's first three slots are a point block.
    pub fn has_point(&self) -> bool {
        matches!(
            self.kind,
            JointKind::Ball | JointKind::Hinge { .. } | JointKind::Fixed
        )
    }

    /// The joint's rows other than a point block at the current poses, in slot order;
    /// `h` is the step the motor's limit is spent over and the limits look ahead.
    pub fn rows(
        &self,
        bodies: &[SolverBody],
        poses: (&Pose, &Pose),
        index: (usize, usize),
        softness: Softness,
        h: f64,
    ) -> Vec<(usize, Row)> {
        let ends = JointEnds {
            bodies,
            poses,
            index,
            softness,
            h,
        };
        let mut rows = Vec::with_capacity(SLOTS - 3);
        match self.kind {
            JointKind::Ball => {}
            JointKind::Fixed => self.hold_rotation(&ends, &mut rows),
            JointKind::Hinge { limits, motor } => self.hinge(
                &ends,
                limits,
                motor.map(|m| (m.speed, m.max_torque)),
                &mut rows,
            ),
            JointKind::Slider { limits, motor } => {
                self.hold_rotation(&ends, &mut rows);
                self.slide(
                    &ends,
                    limits,
                    motor.map(|m| (m.speed, m.max_force)),
                    &mut rows,
                );
            }
            JointKind::Distance { length, spring } => self.distance(
                &ends,
                length,
                spring.map(|s| (s.hertz, s.damping_ratio)),
                &mut rows,
            ),
        }
        for (slot, row) in &mut rows {
            row.impulse = self.impulses[*slot];
        }
        rows
    }

    /// Three angular rows (slots 3–5) that hold the relative rotation.
    fn hold_rotation(&self, ends: &JointEnds, rows: &mut Vec<(usize, Row)>) {
        let (pa, pb) = ends.poses;
        let err = pb.orientation * (pa.orientation * self.relative).inverse();
        let err = if err.w < 0.0 { -err } else { err };
        let theta = 2.0 * DVec3::new(err.x, err.y, err.z);
        for (k, e) in [DVec3::X, DVec3::Y, DVec3::Z].into_iter().enumerate() {
            rows.push(ends.angular(3 + k, e, theta.dot(e)));
        }
    }

    fn hinge(
        &self,
        ends: &JointEnds,
        limits: Option<(f64, f64)>,
        motor: Option<(f64, f64)>,
        rows: &mut Vec<(usize, Row)>,
    ) {
        let (pa, pb) = ends.poses;
        let axis = pa.orientation * self.axis_a;
        let bent = axis.cross(pb.orientation * self.axis_b);
        let (p1, p2) = tangents(axis);
        rows.push(ends.angular(3, p1, bent.dot(p1)));
        rows.push(ends.angular(4, p2, bent.dot(p2)));
        if let Some((lo, hi)) = limits {
            // In the rows' sense (b relative to a) the limits are (−hi, −lo).
            let (angle, lo, hi) = (-self.angle(pa, pb), -hi, -lo);
            if angle <= lo || angle >= hi {
                let (err, bounds) = if angle <= lo {
                    (angle - lo, (0.0, f64::INFINITY))
                } else {
                    (angle - hi, (f64::NEG_INFINITY, 0.0))
                };
                let (slot, mut row) = ends.angular(6, axis, err);
                (row.lo, row.hi) = bounds;
                rows.push((slot, row));
            }
        }
        if let Some((speed, max)) = motor {
            rows.push(JointEnds::motor(
                ends.angular(7, axis, 0.0),
                -speed,
                max,
                ends.h,
            ));
        }
    }

    /// A slider's linear rows. The axis turns with the second body, so the rows act at
    /// the first body's anchor, with the second's lever reaching to it (Box2D's
    /// `prismatic_joint.c`, with the bodies' roles swapped).
    fn slide(
        &self,
        ends: &JointEnds,
        limits: Option<(f64, f64)>,
        motor: Option<(f64, f64)>,
        rows: &mut Vec<(usize, Row)>,
    ) {
        let (pa, pb) = ends.poses;
        let (wa, wb) = self.anchors(pa, pb);
        let levers = (wa - pa.position, wa - pb.position);
        let axis = pb.orientation * self.axis_b;
        let (p1, p2) = tangents(axis);
        let gap = wb - wa;
        rows.push(ends.linear(0, levers, p1, gap.dot(p1)));
        rows.push(ends.linear(1, levers, p2, gap.dot(p2)));
        // Along −axis a row's speed is the travel's rate.
        let travel = -gap.dot(axis);
        if let Some((lo, hi)) = limits {
            rows.push(ends.limit(2, levers, -axis, travel - lo));
            rows.push(ends.limit(6, levers, axis, hi - travel));
        }
        if let Some((speed, max)) = motor {
            let row = ends.linear(7, levers, -axis, 0.0);
            rows.push(JointEnds::motor(row, speed, max, ends.h));
        }
    }

    /// A distance joint's rows along the line between its anchors (Box2D's
    /// `distance_joint.c`): a rigid rod, or a spring about the rest length, and the
    /// length's bounds as one-sided limits.
    fn distance(
        &self,
        ends: &JointEnds,
        length: Option<(f64, f64)>,
        spring: Option<(f64, f64)>,
        rows: &mut Vec<(usize, Row)>,
    ) {
        let (pa, pb) = ends.poses;
        let (wa, wb) = self.anchors(pa, pb);
        let levers = (wa - pa.position, wb - pb.position);
        let gap = wb - wa;
        let now = gap.length();
        let u = gap.try_normalize().unwrap_or(DVec3::Y);
        let (min, max) = length.unwrap_or((self.rest, self.rest));
        if let Some((hertz, zeta)) = spring {
            let (slot, mut row) = ends.linear(0, levers, u, now - self.rest);
            row.softness = Softness::new(hertz, zeta, ends.h);
            row.feedback = Feedback::Spring;
            rows.push((slot, row));
        } else if min == max {
            rows.push(ends.linear(0, levers, u, now - min));
            return;
        }
        if length.is_some() {
            if min > 0.0 {
                rows.push(ends.limit(1, levers, u, now - min));
            }
            rows.push(ends.limit(2, levers, -u, max - now));
        }
    }
}

/// The rows of the joints being solved, for one step (or one solver sub-step).
#[derive(Clone, Debug, Default)]
pub struct JointRows {
    /// The point blocks, and the joint each belongs to.
    pub(super) points: Vec<PointBlock>,
    pub(super) point_joints: Vec<usize>,
    /// The other rows, each with its joint and slot.
    pub(super) rows: Vec<(usize, usize, Row)>,
    /// The user rows' solver rows, each with its index among them.
    users: Vec<(usize, Row)>,
}

impl JointRows {
    /// The rows of `joints[k]` for each `k` in `active`, at the current `poses`; the
    /// solver body and pose at index `world` stand for the world.
    pub fn new(
        (joints, active): (&[Joint], &[usize]),
        bodies: &[SolverBody],
        poses: &[Pose],
        world: usize,
        softness: Softness,
        h: f64,
    ) -> Self {
        let mut out = Self {
            points: Vec::with_capacity(active.len()),
            point_joints: Vec::with_capacity(active.len()),
            rows: Vec::new(),
            users: Vec::new(),
        };
        for &k in active {
            let j = &joints[k];
            let ib = j.second(world);
            let (pose, index) = ((&poses[j.a], &poses[ib]), (j.a, ib));
            if j.has_point() {
                out.points.push(j.point(bodies, pose, index, softness));
                out.point_joints.push(k);
            }
            for (slot, row) in j.rows(bodies, pose, index, softness, h) {
                out.rows.push((k, slot, row));
            }
        }
        out
    }

    /// Adds the rows of `users[k]` for each `k` in `active`, after the joints' (softened
    /// like theirs, over the solver step `h` their bounds are for).
    /// The solver body and pose at index `world` stand for the world (kinematic
    /// colliders' come after it).
    pub fn add_users(
        &mut self,
        (users, active): (&UserRows, &[usize]),
        (bodies, poses): (&[SolverBody], &[Pose]),
        world: usize,
        (softness, h): (Softness, f64),
    ) {
        for &k in active {
            let u = &*users.0[k];
            let (a, b) = u.bodies();
            let ib = b.unwrap_or(world);
            let poses = (&poses[a], &poses[ib]);
            let mut row = Row::of_user(u, bodies, (a, ib), poses, h);
            row.softness = softness;
            self.users.push((k, row));
        }
    }

    /// Applies the accumulated impulses of the point blocks and rows but those `skip`
    /// marks (a direct solve's, which it warm-starts itself), and the users'.
    pub fn warm_start(&self, bodies: &mut [SolverBody], skip: (&[bool], &[bool])) {
        let skipped = |mask: &[bool], i: usize| mask.get(i).copied().unwrap_or(false);
        for (i, p) in self.points.iter().enumerate() {
            if !skipped(skip.0, i) {
                p.warm_start(bodies);
            }
        }
        for (i, (_, _, r)) in self.rows.iter().enumerate() {
            if !skipped(skip.1, i) {
                r.warm_start(bodies);
            }
        }
        self.users.iter().for_each(|(_, r)| r.warm_start(bodies));
    }

    /// One pass over the point blocks; `use_bias = false` is the soft step's relax pass.
    pub fn update_points(&mut self, bodies: &mut [SolverBody], use_bias: bool, sor: f64) {
        for p in &mut self.points {
            p.update(bodies, use_bias, sor);
        }
    }

    /// One pass over the other rows but those `skip` marks (a direct solve's), the
    /// users' last.
    pub fn update_rows(
        &mut self,
        bodies: &mut [SolverBody],
        (use_bias, sor): (bool, f64),
        skip: &[bool],
    ) {
        for (i, (_, _, r)) in self.rows.iter_mut().enumerate() {
            if !skip.get(i).copied().unwrap_or(false) {
                r.update(bodies, use_bias, sor);
            }
        }
        for (_, r) in &mut self.users {
            r.update(bodies, use_bias, sor);
        }
    }

    /// Keeps the accumulated impulses in the joints and the user rows for the next warm
    /// start, and adds them to the joints' impulses of the step; a slot whose row is not
    /// there now (a limit no longer reached) keeps no impulse. The rows are then spent.
    pub fn store(&mut self, joints: &mut [Joint], users: &mut UserRows) {
        for (k, r) in &self.users {
            users.0[*k].keep(r.impulse);
        }
        let present = self
            .point_joints
            .iter()
            .chain(self.rows.iter().map(|(k, ..)| k));
        for &k in present {
            joints[k].impulses = [0.0; SLOTS];
        }
        let mut keep = |k: usize, slot: usize, impulse: f64| {
            joints[k].impulses[slot] = impulse;
            joints[k].step_impulses[slot] += impulse;
        };
        for (&k, p) in self.point_joints.iter().zip(&self.points) {
            (0..3).for_each(|axis| keep(k, axis, p.impulse[axis]));
        }
        for &(k, slot, ref r) in &self.rows {
            keep(k, slot, r.impulse);
        }
        *self = Self::default();
    }
}
