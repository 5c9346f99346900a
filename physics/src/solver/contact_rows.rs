//! Sequential impulses (projected Gauss-Seidel) on a manifold's rows: each row in turn
//! gets the impulse that makes its relative velocity what it should be, and the
//! ACCUMULATED impulse of the row is clamped (contacts push, friction stays inside its
//! cone), not the increment [Havok solver], [Catto 2005]. Rows are `J v = b` with a 1×12
//! `J`. Here one manifold's rows are prepared, moved, run alone and stored back.

use glam::DVec3;

use super::body::{Ends, SolverBody};
use super::kernel::{PointRow, RowPass, Rows, Velocities};
use super::refresh::{self, Anchor, Anchors, End, MatrixPose};
use super::wide::{Real, RowReal};
use crate::collision::geometry::tangents;
use crate::collision::manifold::Manifold;
use crate::collision::pose::Pose;
use crate::solver::settings::SolverSettings;

/// One manifold's rows between bodies `a` and `b`: a normal row per point, and friction
/// for the manifold as a whole: two tangent rows at the points' centroid and a twist row
/// about the normal. The rows themselves ([`Rows`]) are the kernel's, solved alone or in
/// slots with others.
///
/// Why not friction at each point: a face contact's four normal impulses are statically
/// indeterminate, and Gauss-Seidel shares the load unevenly, in an order-dependent way.
/// Per-point friction then turns that uneven sharing into a torque about the normal, and
/// a box sliding down a slope spins and slid 3.6% faster than Coulomb (20–30% near the
/// threshold). Friction at the centroid is bounded by μ times the total normal impulse,
/// which the sharing does not change; the twist row, bounded by μ times the mean lever
/// of the points, resists spin as the points' friction would. Rapier and ODE solve
/// manifolds this way too, and it is 3 friction rows per manifold instead of 8.
#[derive(Clone, Copy, Debug, Default)]
pub struct ContactRows {
    pub a: usize,
    pub b: usize,
    /// Which contact of the graph these rows came from, to store the impulses back.
    pub contact: usize,
    pub anchors: Anchors<RowReal>,
    pub rows: Rows<RowReal>,
}

/// `v` in the rows' precision.
#[inline]
fn lanes(v: DVec3) -> [RowReal; 3] {
    v.to_array().map(RowReal::splat)
}

impl Ends for ContactRows {
    #[inline]
    fn ends(&self) -> (usize, usize) {
        (self.a, self.b)
    }
}

pub struct ContactInput<'a> {
    pub manifold: &'a Manifold,
    pub a: usize,
    pub b: usize,
    pub friction: f64,
    pub restitution: f64,
    pub contact: usize,
}

impl ContactRows {
    /// Prepares these rows for a manifold, in place (the rows are kept from step to
    /// step, so a step copies no rows into place): what stays fixed
    /// through the step. The separations and Jacobians are made by moving the rows to
    /// their bodies ([`Self::refresh`]) when they are packed ([`Groups::pack`]).
    ///
    /// [`Groups::pack`]: super::groups::Groups::pack
    pub fn prepare(
        &mut self,
        input: ContactInput,
        bodies: &[SolverBody],
        poses: &[Pose],
        warm_start: bool,
    ) {
        let m = input.manifold;
        let (a, b) = (input.a, input.b);
        let n = m.normal;
        let (t1, t2) = tangents(n);
        (self.a, self.b, self.contact) = (a, b, input.contact);
        let rows = &mut self.rows;
        rows.normal = lanes(n);
        rows.tangents = [lanes(t1), lanes(t2)];
        rows.mu = RowReal::splat(input.friction);
        rows.restitution = RowReal::splat(input.restitution);
        (rows.len, rows.mixed, rows.flip) = (m.len, false, false);
        (rows.friction_impulse, rows.twist_impulse) = if warm_start {
            (
                [m.friction_impulse.dot(t1), m.friction_impulse.dot(t2)].map(RowReal::splat),
                RowReal::splat(m.twist_impulse),
            )
        } else {
            ([0.0; 2], 0.0)
        };
        let (ba, bb) = (&bodies[a], &bodies[b]);
        let (qa, qb) = (
            poses[a].orientation.inverse(),
            poses[b].orientation.inverse(),
        );
        let anchors = &mut self.anchors.points;
        for (j, ((row, anchor), p)) in (rows.points.iter_mut())
            .zip(anchors.iter_mut())
            .zip(m.points())
            .enumerate()
        {
            let ra = p.position - poses[a].position;
            let rb = p.position - poses[b].position;
            let rel = bb.point_velocity(rb) - ba.point_velocity(ra);
            *anchor = Anchor {
                local_a: lanes(qa * ra),
                local_b: lanes(qb * rb),
                offset_a: lanes(ra),
                offset_b: lanes(rb),
                base_separation: RowReal::splat(p.separation),
            };
            *row = PointRow {
                impulse: RowReal::splat(if warm_start { p.normal_impulse } else { 0.0 }),
                approach: RowReal::splat(rel.dot(n)),
                ..PointRow::default()
            };
            rows.active[j] = true;
        }
        // The slots past the manifold's points stay empty rows.
        rows.points[m.len..].fill(PointRow::default());
        rows.active[m.len..].fill(false);
        anchors[m.len..].fill(Anchor::default());
    }

    /// Moves the rows with the bodies ([`refresh::refresh`]): when they are packed, and,
    /// for rows in no group (their groups' are moved in slots), after every solver
    /// sub-step's integration.
    pub fn refresh(&mut self, bodies: &[SolverBody], matrix_poses: &[MatrixPose], follow: bool) {
        let a = End::gather(bodies, matrix_poses, |_| self.a);
        let b = End::gather(bodies, matrix_poses, |_| self.b);
        let offset =
            refresh::offset(&[matrix_poses[self.b].position - matrix_poses[self.a].position]);
        refresh::refresh(&mut self.rows, &self.anchors, (&a, &b), &offset, follow);
    }

    /// A pass of the [`kernel`](super::kernel) on these rows alone, between their bodies
    /// `a` and `b`.
    pub fn run(&mut self, a: &mut SolverBody, b: &mut SolverBody, pass: RowPass) {
        let start = (
            Velocities::gather(std::slice::from_ref(a)),
            Velocities::gather(std::slice::from_ref(b)),
        );
        let mut ends = start;
        self.rows.run(&mut ends.0, &mut ends.1, pass);
        ends.0.write_change(0, &start.0, a);
        ends.1.write_change(0, &start.1, b);
    }

    /// PGS: the velocity bias of each point once per step, from the separation: a
    /// speculative point may close its gap in this step and no more; a penetrating one
    /// is pushed out by the Baumgarte fraction `β` of its depth beyond the slop; a fast
    /// approach bounces with the restitution coefficient.
    pub fn set_pgs_bias(&mut self, settings: &SolverSettings, h: f64) {
        let (beta, e) = (settings.beta(h), self.rows.restitution.slot(0));
        let len = self.rows.len;
        for (p, at) in self.rows.points[..len].iter_mut().zip(&self.anchors.points) {
            let (s, approach) = (at.base_separation.slot(0), p.approach.slot(0));
            let mut bias = if s > 0.0 {
                s / h
            } else {
                -beta * (-s - settings.slop).max(0.0) / h
            };
            if e > 0.0 && approach < -settings.restitution_threshold && s + approach * h < 0.0 {
                bias = bias.min(e * approach);
            }
            p.bias = RowReal::splat(bias);
        }
    }

    /// Whether a point of these rows may bounce: restitution, and hit faster than
    /// `threshold` (the restitution pass bounces those of them that carried load).
    pub fn may_bounce(&self, threshold: f64) -> bool {
        let rows = &self.rows;
        rows.restitution != 0.0
            && rows.points[..rows.len]
                .iter()
                .any(|p| p.approach <= RowReal::splat(-threshold) || p.approach.is_nan())
    }

    /// Writes the accumulated impulses back into the manifold for next step's warm start.
    pub fn store(&self, m: &mut Manifold) {
        self.rows.store(0, m);
    }
}
