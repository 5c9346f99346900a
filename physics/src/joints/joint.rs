//! Joints, as rows of the same solver as the contacts: a ball socket (a 3×3 point
//! block), a hinge (that plus two rows that keep the axes aligned, a limit row and a
//! velocity motor), a fixed joint (the point block and three angular rows), a slider
//! (two linear rows across its axis, three angular rows, limits and a motor along it)
//! and a distance joint (a rod, a rope or a spring between two points). Any of them can
//! break. The rows themselves are built in `super::joint_rows`.

use glam::{DQuat, DVec3};

use crate::collision::geometry::tangents;
use crate::collision::pose::Pose;

/// A hinge's motor: a target speed about the axis, reached with at most `max_torque`.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Motor {
    /// Target angular speed of the first body relative to the second (or the world)
    /// about the hinge axis, right-handed (rad/s).
    pub speed: f64,
    /// The largest torque the motor can give (N·m).
    pub max_torque: f64,
}

/// A slider's motor: a target speed of the first body along the axis relative to the
/// second, reached with at most `max_force`.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LinearMotor {
    /// m/s.
    pub speed: f64,
    /// N.
    pub max_force: f64,
}

/// A distance joint's spring: Box2D's soft row, whose frequency is the one a body of the
/// row's effective mass oscillates at.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Spring {
    /// The spring's frequency (Hz).
    pub hertz: f64,
    /// Its damping ratio (1: critically damped).
    pub damping_ratio: f64,
}

/// What a joint holds, and its limits, motor or spring.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum JointKind {
    /// The anchors stay together; the bodies turn freely.
    Ball,
    /// The anchors stay together and the bodies turn only about the axis.
    Hinge {
        /// Lower and upper angle (rad) of the first body relative to the second.
        limits: Option<(f64, f64)>,
        /// Drives the angle at a target speed.
        motor: Option<Motor>,
    },
    /// The first body keeps its position and orientation relative to the second.
    Fixed,
    /// The first body keeps its orientation relative to the second and moves only along
    /// the axis, which turns with the second.
    Slider {
        /// Lower and upper travel (m) of the first body along the axis from the start.
        limits: Option<(f64, f64)>,
        /// Drives the travel at a target speed.
        motor: Option<LinearMotor>,
    },
    /// The distance between the two anchors stays within `length` (m): a rod of the
    /// starting distance without it, a rope with `(0, L)`; a spring pulls it towards
    /// the starting distance.
    Distance {
        /// The least and most distance; `None`: a rod.
        length: Option<(f64, f64)>,
        /// Pulls the distance towards the starting distance.
        spring: Option<Spring>,
    },
}

/// When a joint broke, and what it carried then.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Break {
    /// The time at the end of the step in which it broke (s).
    pub time: f64,
    /// The force it carried (N).
    pub force: f64,
    /// The torque it carried (N·m).
    pub torque: f64,
}

/// Rows a joint can have, each with a slot for its accumulated impulse (kept for warm
/// starting): 0–2 the point block or linear rows, 3–5 angular rows, 6 and 7 a limit and
/// a motor (see `super::joint_rows` for each kind's use).
pub const SLOTS: usize = 8;

/// Where a joint sits, in world coordinates in the starting pose.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placement {
    /// The anchor on the first body (both bodies' for all but a distance joint).
    pub anchor: DVec3,
    /// A distance joint's anchor on the second body (the world, or the frame).
    pub anchor_b: Option<DVec3>,
    /// A hinge's or slider's axis.
    pub axis: DVec3,
}

/// A joint between body `a` and body `b` (or the world, or a driven frame), as placed in
/// its starting pose, with the impulses it carries.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Joint {
    /// What it holds.
    pub kind: JointKind,
    /// The first body.
    pub a: usize,
    /// `None`: attached to the world, or to the frame `frame`.
    pub b: Option<usize>,
    /// With `b` `None`: the driven frame (by index) the joint holds `a` to, whose motion
    /// the solver sees as a kinematic body's.
    pub frame: Option<usize>,
    /// Anchor in each body's principal frame, from its centre of mass (world point for
    /// the world).
    pub local_a: DVec3,
    /// The anchor on the second body, in its frame (a world point for the world).
    pub local_b: DVec3,
    /// Hinge or slider axis and the zero-angle reference, in each body's frame.
    pub axis_a: DVec3,
    /// The axis in the second body's frame.
    pub axis_b: DVec3,
    /// The zero-angle reference in the first body's frame.
    pub ref_a: DVec3,
    /// The zero-angle reference in the second body's frame.
    pub ref_b: DVec3,
    /// Fixed joint and slider: the relative rotation `q_a⁻¹ q_b` to hold.
    pub relative: DQuat,
    /// The anchors' distance in the starting pose (m): a rod's length, a spring's rest.
    #[serde(default)]
    pub rest: f64,
    /// The force (N) past which the joint breaks.
    #[serde(default)]
    pub break_force: Option<f64>,
    /// The torque (N·m) past which the joint breaks.
    #[serde(default)]
    pub break_torque: Option<f64>,
    /// When it broke, and under what; `None` while it holds.
    #[serde(default)]
    pub broken: Option<Break>,
    /// Each row's accumulated impulse at its last pass, for the next warm start.
    pub impulses: [f64; SLOTS],
    /// Each row's impulse summed over the step being taken (over the soft step's solver
    /// sub-steps): over the step's length, the force the joint carried in it.
    /// Rebuilt every step, so not a state.
    #[serde(skip)]
    pub step_impulses: [f64; SLOTS],
}

impl Joint {
    /// A joint at `place` between the bodies at their current `poses` (index `world` is
    /// the world's own pose).
    pub fn new(
        kind: JointKind,
        (a, b): (usize, Option<usize>),
        place: Placement,
        pa: &Pose,
        pb: &Pose,
    ) -> Self {
        let axis = place.axis.normalize_or(DVec3::Y);
        let (reference, _) = tangents(axis);
        let (qa, qb) = (pa.orientation.inverse(), pb.orientation.inverse());
        let anchor_b = place.anchor_b.unwrap_or(place.anchor);
        Self {
            kind,
            a,
            b,
            frame: None,
            local_a: qa * (place.anchor - pa.position),
            local_b: qb * (anchor_b - pb.position),
            axis_a: qa * axis,
            axis_b: qb * axis,
            ref_a: qa * reference,
            ref_b: qb * reference,
            relative: pa.orientation.inverse() * pb.orientation,
            rest: anchor_b.distance(place.anchor),
            break_force: None,
            break_torque: None,
            broken: None,
            impulses: [0.0; SLOTS],
            step_impulses: [0.0; SLOTS],
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

    /// Whether the joint still holds (it has not broken).
    pub fn holds(&self) -> bool {
        self.broken.is_none()
    }

    /// The hinge angle of the first body relative to the second about the axis (zero
    /// where the joint was made). The rows measure the second relative to the first
    /// (`J v = (ω_b − ω_a)·axis`), hence the signs below.
    pub fn angle(&self, pa: &Pose, pb: &Pose) -> f64 {
        let axis = pa.orientation * self.axis_a;
        let (ra, rb) = (pa.orientation * self.ref_a, pb.orientation * self.ref_b);
        libm::atan2(rb.cross(ra).dot(axis), ra.dot(rb))
    }

    /// A slider's travel: how far the first body's anchor has moved along the axis
    /// relative to the second since the start (m).
    pub fn travel(&self, pa: &Pose, pb: &Pose) -> f64 {
        let (wa, wb) = self.anchors(pa, pb);
        (wa - wb).dot(pb.orientation * self.axis_b)
    }

    /// World anchor points on each body.
    pub fn anchors(&self, pa: &Pose, pb: &Pose) -> (DVec3, DVec3) {
        (
            pa.position + pa.orientation * self.local_a,
            pb.position + pb.orientation * self.local_b,
        )
    }

    /// The linear impulse of the rows' impulses `i` (by slot) on the second body (the
    /// first takes its reaction), in world axes at poses `pa`, `pb`.
    pub fn linear_impulse(&self, i: &[f64; SLOTS], pa: &Pose, pb: &Pose) -> DVec3 {
        match self.kind {
            JointKind::Ball | JointKind::Fixed | JointKind::Hinge { .. } => {
                DVec3::new(i[0], i[1], i[2])
            }
            // Rows 0 and 1 across the axis; the lower limit and the motor push along
            // −axis, the upper limit along +axis.
            JointKind::Slider { .. } => {
                let axis = pb.orientation * self.axis_b;
                let (p1, p2) = tangents(axis);
                p1 * i[0] + p2 * i[1] + axis * (i[6] - i[2] - i[7])
            }
            // The rod or spring and the lower limit along u, the upper along −u.
            JointKind::Distance { .. } => {
                let (wa, wb) = self.anchors(pa, pb);
                (wb - wa).try_normalize().unwrap_or(DVec3::Y) * (i[0] + i[1] - i[2])
            }
        }
    }

    /// The size of the linear and angular impulse the joint's rows passed in the step
    /// just taken: divided by the step's length, the force and torque it carried.
    pub fn carried(&self, pa: &Pose, pb: &Pose) -> (f64, f64) {
        let i = &self.step_impulses;
        let norm = |x: &[f64]| x.iter().map(|v| v * v).sum::<f64>().sqrt();
        let angular = match self.kind {
            JointKind::Ball | JointKind::Distance { .. } => 0.0,
            JointKind::Fixed | JointKind::Slider { .. } => norm(&i[3..6]),
            JointKind::Hinge { .. } => norm(&[i[3], i[4], i[6] + i[7]]),
        };
        (self.linear_impulse(i, pa, pb).length(), angular)
    }

    /// Whether a force `force` (N) or torque `torque` (N·m) is past the joint's limits.
    pub fn too_much(&self, force: f64, torque: f64) -> bool {
        self.break_force.is_some_and(|f| force > f) || self.break_torque.is_some_and(|t| torque > t)
    }
}
