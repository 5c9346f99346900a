//! Joints as rows of the same solver as the contacts: a ball socket (a 3×3 point block),
//! a hinge (that plus two rows that keep the axes aligned, a limit row and a velocity
//! motor) and a fixed joint (the point block and three angular rows).

use glam::{DQuat, DVec3};

use super::geometry::tangents;
use super::settings::Softness;
use super::solver::{PointBlock, Pose, Row, SolverBody};

#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Motor {
    /// Target angular speed of the first body relative to the second (or the world)
    /// about the hinge axis, right-handed (rad/s).
    pub speed: f64,
    /// The largest torque the motor can give (N·m).
    pub max_torque: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum JointKind {
    Ball,
    Hinge {
        /// Lower and upper angle (rad) of the first body relative to the second.
        limits: Option<(f64, f64)>,
        motor: Option<Motor>,
    },
    Fixed,
}

/// Rows a joint can have: 3 point (one block), 3 angular, a limit, a motor. Their
/// accumulated impulses are kept per slot for warm starting.
const SLOTS: usize = 8;

#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Joint {
    pub kind: JointKind,
    pub a: usize,
    /// `None`: attached to the world, or to the frame `frame`.
    pub b: Option<usize>,
    /// With `b` `None`: the driven frame (by index) the joint holds `a` to, whose motion
    /// the solver sees as a kinematic body's.
    pub frame: Option<usize>,
    /// Anchor in each body's principal frame, from its centre of mass (world point for
    /// the world).
    pub local_a: DVec3,
    pub local_b: DVec3,
    /// Hinge axis and the zero-angle reference, in each body's frame.
    pub axis_a: DVec3,
    pub axis_b: DVec3,
    pub ref_a: DVec3,
    pub ref_b: DVec3,
    /// Fixed joint: the relative rotation `q_a⁻¹ q_b` to hold.
    pub relative: DQuat,
    pub impulses: [f64; SLOTS],
}

impl Joint {
    /// A joint at the world point `anchor` with the world `axis` (hinge), between the
    /// bodies at their current `poses` (index `world` is the world's own pose).
    pub fn new(
        kind: JointKind,
        (a, b): (usize, Option<usize>),
        anchor: DVec3,
        axis: DVec3,
        pa: &Pose,
        pb: &Pose,
    ) -> Self {
        let axis = axis.normalize_or(DVec3::Y);
        let (reference, _) = tangents(axis);
        let (qa, qb) = (pa.orientation.inverse(), pb.orientation.inverse());
        Self {
            kind,
            a,
            b,
            frame: None,
            local_a: qa * (anchor - pa.position),
            local_b: qb * (anchor - pb.position),
            axis_a: qa * axis,
            axis_b: qb * axis,
            ref_a: qa * reference,
            ref_b: qb * reference,
            relative: pa.orientation.inverse() * pb.orientation,
            impulses: [0.0; SLOTS],
        }
    }

    /// The solver index of the second end: a body, a frame's kinematic slot (after the
    /// world's, at `world + 1 + frame`), or the world.
    pub fn second(&self, world: usize) -> usize {
        match (self.b, self.frame) {
            (Some(b), _) => b,
            (None, Some(f)) => world + 1 + f,
            (None, None) => world,
        }
    }

    /// The hinge angle of the first body relative to the second about the axis (zero
    /// where the joint was made). The rows measure the second relative to the first
    /// (`J v = (ω_b − ω_a)·axis`), hence the signs below.
    pub fn angle(&self, pa: &Pose, pb: &Pose) -> f64 {
        let axis = pa.orientation * self.axis_a;
        let (ra, rb) = (pa.orientation * self.ref_a, pb.orientation * self.ref_b);
        rb.cross(ra).dot(axis).atan2(ra.dot(rb))
    }

    /// World anchor points on each body.
    pub fn anchors(&self, pa: &Pose, pb: &Pose) -> (DVec3, DVec3) {
        (
            pa.position + pa.orientation * self.local_a,
            pb.position + pb.orientation * self.local_b,
        )
    }

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

    /// The joint's angular rows at the current poses, in slot order (3 and up); `h` is
    /// the step the motor's torque limit is spent over.
    pub fn rows(
        &self,
        bodies: &[SolverBody],
        (pa, pb): (&Pose, &Pose),
        (ia, ib): (usize, usize),
        softness: Softness,
        h: f64,
    ) -> Vec<(usize, Row)> {
        let mut rows = Vec::with_capacity(SLOTS - 3);
        let angular = |slot: usize, dir: DVec3, error: f64| {
            let mut row = Row::new(bodies, (ia, ib), dir);
            row.error = error;
            row.softness = softness;
            (slot, row)
        };
        match self.kind {
            JointKind::Ball => {}
            JointKind::Fixed => {
                let err = pb.orientation * (pa.orientation * self.relative).inverse();
                let err = if err.w < 0.0 { -err } else { err };
                let theta = 2.0 * DVec3::new(err.x, err.y, err.z);
                for (k, e) in [DVec3::X, DVec3::Y, DVec3::Z].into_iter().enumerate() {
                    rows.push(angular(3 + k, e, theta.dot(e)));
                }
            }
            JointKind::Hinge { limits, motor } => {
                let axis = pa.orientation * self.axis_a;
                let bent = axis.cross(pb.orientation * self.axis_b);
                let (p1, p2) = tangents(axis);
                rows.push(angular(3, p1, bent.dot(p1)));
                rows.push(angular(4, p2, bent.dot(p2)));
                if let Some((lo, hi)) = limits {
                    // In the rows' sense (b relative to a) the limits are (−hi, −lo).
                    let (angle, lo, hi) = (-self.angle(pa, pb), -hi, -lo);
                    if angle <= lo || angle >= hi {
                        let (err, bounds) = if angle <= lo {
                            (angle - lo, (0.0, f64::INFINITY))
                        } else {
                            (angle - hi, (f64::NEG_INFINITY, 0.0))
                        };
                        let (slot, mut row) = angular(6, axis, err);
                        (row.lo, row.hi) = bounds;
                        rows.push((slot, row));
                    }
                }
                if let Some(m) = motor {
                    let (slot, mut row) = angular(7, axis, 0.0);
                    row.softness = Softness::RIGID;
                    row.target = -m.speed;
                    row.hi = m.max_torque * h;
                    row.lo = -row.hi;
                    rows.push((slot, row));
                }
            }
        }
        for (slot, row) in &mut rows {
            row.impulse = self.impulses[*slot];
        }
        rows
    }
}

/// The rows of the joints being solved, for one step (or one solver sub-step).
#[derive(Clone, Debug, Default)]
pub struct JointRows {
    points: Vec<(usize, PointBlock)>,
    rows: Vec<(usize, usize, Row)>,
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
            rows: Vec::new(),
        };
        for &k in active {
            let j = &joints[k];
            let ib = j.second(world);
            let (pose, index) = ((&poses[j.a], &poses[ib]), (j.a, ib));
            out.points.push((k, j.point(bodies, pose, index, softness)));
            for (slot, row) in j.rows(bodies, pose, index, softness, h) {
                out.rows.push((k, slot, row));
            }
        }
        out
    }

    pub fn warm_start(&self, bodies: &mut [SolverBody]) {
        self.points.iter().for_each(|(_, p)| p.warm_start(bodies));
        self.rows.iter().for_each(|(_, _, r)| r.warm_start(bodies));
    }

    /// One pass; `use_bias = false` is the soft step's relax pass.
    pub fn solve(&mut self, bodies: &mut [SolverBody], use_bias: bool, sor: f64) {
        for (_, p) in &mut self.points {
            p.solve(bodies, use_bias, sor);
        }
        for (_, _, r) in &mut self.rows {
            r.solve(bodies, use_bias, sor);
        }
    }

    /// Keeps the accumulated impulses in the joints for the next warm start.
    pub fn store(&self, joints: &mut [Joint]) {
        for (k, p) in &self.points {
            joints[*k].impulses[..3].copy_from_slice(&p.impulse.to_array());
        }
        for (k, slot, r) in &self.rows {
            joints[*k].impulses[*slot] = r.impulse;
        }
    }
}
