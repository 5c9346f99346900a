//! Moving a manifold's rows with its bodies through the solver sub-steps, written once
//! for any [`Real`]: one manifold alone or eight in slots ([`Wide`]), as the
//! passes of the [`kernel`](super::kernel) are, so that rows moved in slots end bitwise
//! as each would alone. Box2D v3 moves only the separation, from anchors fixed when the
//! contact was prepared (`b2SolveContactTwoPoints` [Catto, `contact_solver.c`]); with
//! `follow` the point and the Jacobians move too, so that both bodies' impulses act at
//! one point with the inertia that turns them into momentum: linear and angular
//! momentum are then conserved to round-off (with fixed anchors a pair of impulses on
//! anchors that drifted apart leaked a few % of a collision's angular momentum).
//!
//! [`Wide`]: super::wide::Wide

use glam::{DMat3, DVec3};

use super::body::SolverBody;
use super::kernel::{AxisRow, InverseMass, M3, Rows, WideV3, dot, select3, transform};
use super::wide::{Real, xyz};
use crate::collision::manifold::MAX_POINTS;
use crate::collision::pose::Pose;

/// A body's pose as the rows move with it: its position, and its rotation as a matrix,
/// which turns a point in half the work of a quaternion; made once per body and solver
/// sub-step, not once per manifold.
#[derive(Clone, Copy, Debug)]
pub struct MatrixPose {
    pub position: DVec3,
    pub turn: DMat3,
}

impl MatrixPose {
    pub fn of(pose: &Pose) -> Self {
        Self {
            position: pose.position,
            turn: DMat3::from_quat(pose.orientation),
        }
    }
}

/// Where a point's row acts, and what it was when prepared: read only when the rows
/// are moved, apart from the rows, so that the passes stream through less memory.
#[derive(Clone, Copy, Debug, Default)]
pub struct Anchor<W: Real> {
    /// The point in each body's own frame, fixed when prepared.
    pub local_a: WideV3<W>,
    pub local_b: WideV3<W>,
    /// The point relative to each body's centre when prepared, in world axes: the point
    /// follows the bodies' translation with them.
    pub offset_a: WideV3<W>,
    pub offset_b: WideV3<W>,
    /// Separation when prepared.
    pub base_separation: W,
}

/// A manifold's anchors.
#[derive(Clone, Copy, Debug, Default)]
pub struct Anchors<W: Real> {
    pub points: [Anchor<W>; MAX_POINTS],
}

/// One end of the rows in each slot: its rotation and its inertia. Where it is comes
/// apart, as the other end's position relative to it ([`offset`]): differences of
/// positions made in `f64`, so that rows in `f32` between two bodies lose nothing to a
/// pile far from the origin (Box2D v3's solver keeps bodies' position changes, not
/// positions, for the same reason [Catto, `solver.c`]). Against the world, whose frame is
/// the origin, the anchor there is the contact's own position, rounded to `f32`.
#[derive(Clone, Copy, Debug)]
pub struct End<W: Real> {
    turn: M3<W>,
    inertia: InverseMass<W>,
}

impl<W: Real> End<W> {
    /// Real `l` from body `at(l)` of `bodies` and `matrix_poses`.
    #[inline(always)]
    pub fn gather(
        bodies: &[SolverBody],
        matrix_poses: &[MatrixPose],
        at: impl Fn(usize) -> usize,
    ) -> Self {
        let matrix = |l: usize| &matrix_poses[at(l)];
        Self {
            turn: xyz!(|c| xyz!(|k| W::gather(|l| matrix(l).turn.col(c)[k]))),
            inertia: InverseMass::gather(|l| &bodies[at(l)]),
        }
    }
}

/// Real `l` is `gaps[l]`: the position of a slot's body b relative to its body a's,
/// `p_b − p_a`, made in `f64`.
#[inline(always)]
pub fn offset<W: Real>(gaps: &[DVec3]) -> WideV3<W> {
    xyz!(|k| W::gather(|l| gaps[l][k]))
}

#[inline(always)]
fn add<W: Real>(a: &WideV3<W>, b: &WideV3<W>) -> WideV3<W> {
    xyz!(|k| a[k] + b[k])
}

#[inline(always)]
fn sub<W: Real>(a: &WideV3<W>, b: &WideV3<W>) -> WideV3<W> {
    xyz!(|k| a[k] - b[k])
}

/// Moves `rows` with their ends `a` and `b`, b at `offset` from a: the anchors to where
/// the bodies have carried them and the separation measured there; with `follow`, each
/// point carried with the bodies' translation (where both bodies' impulses act), and the
/// Jacobians at the points, the centroid and the bodies' current inertia. `follow: false`
/// leaves the points and Jacobians where they were prepared (Box2D's and rapier's fixed
/// anchors). Points are measured from a's centre.
#[inline(always)]
pub fn refresh<W: Real>(
    rows: &mut Rows<W>,
    anchors: &Anchors<W>,
    (a, b): (&End<W>, &End<W>),
    offset: &WideV3<W>,
    follow: bool,
) {
    let n = rows.normal;
    // Each body carries the point along with its translation; the point is their
    // average weighted by inverse mass, so against the ground or a kinematic body it
    // stays with the moving body (under a rolling ball, not on the material points its
    // rolling lifts away).
    let total = a.inertia.inv_mass + b.inertia.inv_mass;
    let moves = total.gt(W::ZERO);
    let half = W::splat(0.5);
    let wa = W::select(moves, a.inertia.inv_mass / total, half);
    let wb = W::select(moves, b.inertia.inv_mass / total, half);
    let (count, mixed) = (rows.count(), rows.mixed);
    // Where each point is now from a's centre, and their sum.
    let mut points = [[W::ZERO; 3]; MAX_POINTS];
    let mut centroid = [W::ZERO; 3];
    let moving = (rows.points.iter_mut().zip(&anchors.points)).zip(&mut points);
    for (j, ((p, at), now)) in moving.enumerate().take(count) {
        let anchor_a = transform(&a.turn, &at.local_a);
        let anchor_b = add(offset, &transform(&b.turn, &at.local_b));
        p.separation = at.base_separation + dot(&n, &sub(&anchor_b, &anchor_a));
        if follow {
            let point = xyz!(|k| wa * at.offset_a[k] + wb * (offset[k] + at.offset_b[k]));
            let levers = (&point, &sub(&point, offset));
            p.normal = AxisRow::point(&a.inertia, &b.inertia, levers, &n);
            let sum = add(&centroid, &point);
            centroid = if mixed {
                select3(rows.active[j], &sum, &centroid)
            } else {
                sum
            };
            *now = point;
        }
    }
    if !follow {
        return;
    }
    // Each slot's number of points, at least 1: what the centroid and the mean lever
    // divide by.
    let one = W::splat(1.0);
    let divisor = if mixed {
        let counted = (0..count).fold(W::ZERO, |n, j| W::select(rows.active[j], n + one, n));
        counted.max(one)
    } else {
        W::splat(rows.len.max(1) as f64)
    };
    let centroid = xyz!(|k| centroid[k] / divisor);
    let levers = (&centroid, &sub(&centroid, offset));
    for k in 0..2 {
        rows.friction[k] = AxisRow::point(&a.inertia, &b.inertia, levers, &rows.tangents[k]);
    }
    rows.twist = AxisRow::twist(&a.inertia, &b.inertia, &n);
    // The start of `Iterator::sum` (−0), as a sum of a row's values starts.
    let mut radius = W::splat(std::iter::empty::<f64>().sum());
    for (j, point) in points.iter().enumerate().take(count) {
        let d = sub(point, &centroid);
        let sum = radius + dot(&d, &d).sqrt();
        radius = if mixed {
            W::select(rows.active[j], sum, radius)
        } else {
            sum
        };
    }
    rows.twist_radius = radius / divisor;
}
