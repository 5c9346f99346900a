//! Sequential impulses (projected Gauss-Seidel): each constraint row in turn gets the
//! impulse that makes its relative velocity what it should be, and the ACCUMULATED
//! impulse of the row is clamped (contacts push, friction stays inside its cone), not
//! the increment [Havok solver], [Catto 2005]. Rows are `J v = b` with a 1×12 `J`.

use std::ops::{Add, Mul, Neg, Sub};

use glam::{DMat3, DVec3};

use super::geometry::tangents;
use super::manifold::{MAX_POINTS, Manifold};
use super::parallel::Ends;
use super::settings::{Softness, SolverKind, SolverSettings};
use crate::body::{BodyState, MassProps};

/// A body's velocity and inverse mass as the solver sees them. Static things (the
/// ground, sleeping bodies next to nothing awake) use the extra body at the end of the
/// array, whose inverse mass and inertia are zero, so rows need no branch.
#[derive(Clone, Copy, Debug)]
pub struct SolverBody {
    pub v: DVec3,
    pub w: DVec3,
    pub inv_mass: f64,
    pub inv_inertia: DMat3,
}

impl SolverBody {
    /// Immovable: impulses change nothing. (Not `Default`: glam's default matrix is
    /// the identity, which would let the ground turn.)
    pub const STATIC: Self = Self {
        v: DVec3::ZERO,
        w: DVec3::ZERO,
        inv_mass: 0.0,
        inv_inertia: DMat3::ZERO,
    };

    /// A body's solver view: its velocities and its inverse inertia in world axes.
    pub fn new(props: &MassProps, state: &BodyState) -> Self {
        let inverse = props.inertia.inverse();
        // Equal moments (a cube) look the same in every orientation: no rotation needed.
        let inv_inertia = if props.inertia.is_isotropic() {
            DMat3::from_diagonal(inverse)
        } else {
            let r = DMat3::from_quat(state.orientation);
            r * DMat3::from_diagonal(inverse) * r.transpose()
        };
        Self {
            v: state.velocity,
            w: state.world_omega(props),
            inv_mass: 1.0 / props.mass,
            inv_inertia,
        }
    }

    #[inline]
    fn apply(&mut self, linear: DVec3, angular: DVec3) {
        self.v += linear * self.inv_mass;
        self.w += self.inv_inertia * angular;
    }

    #[inline]
    pub fn point_velocity(&self, r: DVec3) -> DVec3 {
        self.v + self.w.cross(r)
    }
}

/// Box2D's soft constraint impulse [Catto 2024], the one formula of every row: through
/// the effective mass `mass` it drives the row's `velocity` toward `−bias`, softened by
/// the spring: `−mass (velocity + bias) mass_scale − impulse_scale accumulated`. A
/// scalar for a row, a vector with a 3×3 mass for a point block.
pub fn soft_impulse<M, V>(softness: Softness, mass: M, velocity: V, bias: V, accumulated: V) -> V
where
    M: Mul<V, Output = V>,
    V: Add<Output = V> + Sub<Output = V> + Neg<Output = V> + Mul<f64, Output = V>,
{
    -(mass * (velocity + bias)) * softness.mass_scale - accumulated * softness.impulse_scale
}

/// Borrows the two bodies of a row; `a != b` always holds (a body never touches itself).
#[inline]
pub(super) fn pair(
    bodies: &mut [SolverBody],
    a: usize,
    b: usize,
) -> (&mut SolverBody, &mut SolverBody) {
    debug_assert_ne!(a, b);
    if a < b {
        let (lo, hi) = bodies.split_at_mut(b);
        (&mut lo[a], &mut hi[0])
    } else {
        let (lo, hi) = bodies.split_at_mut(a);
        (&mut hi[0], &mut lo[b])
    }
}

#[inline]
fn recip(k: f64) -> f64 {
    if k > 0.0 { 1.0 / k } else { 0.0 }
}

/// One row of the solver: the relative velocity of a point along a direction `d`, or,
/// for `d = 0`, a relative spin. Its Jacobian on `(v_a, ω_a, v_b, ω_b)` is
/// `J = [−d, −ang_a, d, ang_b]` with `ang = r × d` for a point at lever `r` (Box2D's
/// convention [Catto 2024]), the same for contacts, joints and the mouse spring. The
/// angular parts and their images under the inverse inertias are computed once when the
/// rows are prepared so the inner loop needs neither a matrix product nor a cross
/// product. (The inertias are those at preparation; within one step a body turns too
/// little for that to matter, and Box2D v3 keeps its anchors fixed through the solver
/// sub-steps the same way.)
#[derive(Clone, Copy, Debug, Default)]
pub struct Axis {
    /// `r_a × d` and `r_b × d`.
    pub ang_a: DVec3,
    pub ang_b: DVec3,
    /// `I_a⁻¹ (r_a × d)` and `I_b⁻¹ (r_b × d)`.
    pub turn_a: DVec3,
    pub turn_b: DVec3,
    /// The effective mass `1 / (J M⁻¹ Jᵀ)`.
    pub mass: f64,
}

/// `J_a M⁻¹ J_bᵀ`, the velocity along row `a` per unit impulse along row `b`, rows of the
/// same two bodies; `linear` is their linear part `(m_a⁻¹ + m_b⁻¹) d_a·d_b`. With
/// `a = b`, the inverse of a row's effective mass; over a point's three axes, the
/// point's 3×3 `K` [Catto 2005].
fn coupling(a: &Axis, b: &Axis, linear: f64) -> f64 {
    linear + a.ang_a.dot(b.turn_a) + a.ang_b.dot(b.turn_b)
}

impl Axis {
    #[inline]
    fn new(a: &SolverBody, b: &SolverBody, ra: DVec3, rb: DVec3, d: DVec3) -> Self {
        let (ang_a, ang_b) = (ra.cross(d), rb.cross(d));
        Self::with_angular(a, b, ang_a, ang_b, a.inv_mass + b.inv_mass)
    }

    /// A purely angular row: the relative spin about unit `n` (the twist about a
    /// contact normal, a joint's angular rows).
    pub fn twist(a: &SolverBody, b: &SolverBody, n: DVec3) -> Self {
        Self::with_angular(a, b, n, n, 0.0)
    }

    #[inline]
    fn with_angular(
        a: &SolverBody,
        b: &SolverBody,
        ang_a: DVec3,
        ang_b: DVec3,
        linear_k: f64,
    ) -> Self {
        let mut axis = Self {
            ang_a,
            ang_b,
            turn_a: a.inv_inertia * ang_a,
            turn_b: b.inv_inertia * ang_b,
            mass: 0.0,
        };
        axis.mass = recip(coupling(&axis, &axis, linear_k));
        axis
    }

    /// The relative velocity of the point along `d`, b's minus a's (`d = 0`: the
    /// relative spin of a twist row).
    #[inline]
    fn velocity(&self, a: &SolverBody, b: &SolverBody, d: DVec3) -> f64 {
        d.dot(b.v - a.v) + self.ang_b.dot(b.w) - self.ang_a.dot(a.w)
    }

    /// An impulse `λ d` on b at the point, and its reaction on a.
    #[inline]
    fn apply(&self, a: &mut SolverBody, b: &mut SolverBody, d: DVec3, lambda: f64) {
        a.v -= d * (lambda * a.inv_mass);
        a.w -= self.turn_a * lambda;
        b.v += d * (lambda * b.inv_mass);
        b.w += self.turn_b * lambda;
    }
}

/// A point's normal row: what every pass of the solver reads and writes. (Where the
/// point is, read only when the rows are moved, is in its [`PointAnchor`], apart, so
/// that the passes stream through less memory.)
#[derive(Clone, Copy, Debug, Default)]
pub struct PointRow {
    pub normal: Axis,
    /// Separation now: `base + n·(anchor_b − anchor_a)`.
    pub separation: f64,
    pub normal_impulse: f64,
    pub max_normal_impulse: f64,
    /// PGS only: the velocity bias the row drives `v_n + bias` to zero with.
    pub bias: f64,
}

/// Where a point's row acts, and what it was when prepared.
#[derive(Clone, Copy, Debug, Default)]
pub struct PointAnchor {
    /// The point in each body's own frame, fixed when prepared: the soft step follows
    /// the bodies' motion through the solver sub-steps with them.
    pub local_a: DVec3,
    pub local_b: DVec3,
    /// The point relative to each body's centre when prepared, in world axes: the point
    /// follows the bodies' translation with them.
    pub offset_a: DVec3,
    pub offset_b: DVec3,
    /// The point now, where both bodies' impulses act.
    pub position: DVec3,
    /// Separation when prepared.
    pub base_separation: f64,
    /// Normal relative velocity before the solve, for restitution.
    pub approach: f64,
}

/// One manifold's rows: a normal row per point, and friction for the manifold as a
/// whole: two tangent rows at the points' centroid and a twist row about the normal.
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
    pub normal: DVec3,
    pub tangents: [DVec3; 2],
    pub mu: f64,
    pub restitution: f64,
    pub points: [PointRow; MAX_POINTS],
    pub len: usize,
    pub friction: [Axis; 2],
    pub friction_impulse: [f64; 2],
    pub twist: Axis,
    pub twist_impulse: f64,
    /// Mean distance of the points from their centroid: the twist row's lever.
    pub twist_radius: f64,
    /// Which contact of the graph these rows came from, to store the impulses back.
    pub contact: usize,
    /// Whether the last pass went through the points backwards.
    pub flip: bool,
    pub anchors: [PointAnchor; MAX_POINTS],
}

impl Ends for ContactRows {
    #[inline]
    fn ends(&self) -> (usize, usize) {
        (self.a, self.b)
    }
}

/// What the rows need to know about a body's pose when they are prepared.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Pose {
    pub position: DVec3,
    pub orientation: glam::DQuat,
}

impl Pose {
    pub fn of(state: &BodyState) -> Self {
        Self {
            position: state.position,
            orientation: state.orientation,
        }
    }
}

/// Where a normal row's velocity bias comes from.
#[derive(Clone, Copy, Debug)]
pub enum NormalBias {
    /// PGS: the bias [`ContactRows::set_pgs_bias`] fixed for the step.
    Fixed,
    /// The soft step: a speculative point closes its gap within the solver sub-step
    /// (`inv_h` is its inverse length); a penetrating one is pushed out by the spring of
    /// `softness` (`static_softness` against a body that does not move), no faster than
    /// `max_push_out` [Catto 2024].
    Soft {
        softness: Softness,
        static_softness: Softness,
        inv_h: f64,
        max_push_out: f64,
    },
}

impl NormalBias {
    /// The solve stage's bias, for a step (PGS) or solver sub-step (soft) of `h`.
    pub fn solve(settings: &SolverSettings, h: f64) -> Self {
        match settings.solver {
            SolverKind::Pgs => Self::Fixed,
            SolverKind::Soft => {
                let (softness, static_softness) = settings.contact_softness(h);
                Self::Soft {
                    softness,
                    static_softness,
                    inv_h: 1.0 / h,
                    max_push_out: settings.max_push_out,
                }
            }
        }
    }

    /// The relax stage's: rigid rows that only close speculative gaps.
    pub fn relax(settings: &SolverSettings, h: f64) -> Self {
        Self::Soft {
            softness: Softness::RIGID,
            static_softness: Softness::RIGID,
            inv_h: 1.0 / h,
            max_push_out: settings.max_push_out,
        }
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
    /// Prepares these rows for a manifold, in place: the rows are kept from step to
    /// step, so a step copies no rows (at 1.5 kB each) into place.
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
        self.a = a;
        self.b = b;
        self.normal = n;
        self.tangents = [t1, t2];
        self.mu = input.friction;
        self.restitution = input.restitution;
        self.len = m.len;
        self.contact = input.contact;
        self.flip = false;
        (self.friction_impulse, self.twist_impulse) = if warm_start {
            (
                [m.friction_impulse.dot(t1), m.friction_impulse.dot(t2)],
                m.twist_impulse,
            )
        } else {
            ([0.0; 2], 0.0)
        };
        let (ba, bb) = (&bodies[a], &bodies[b]);
        let (qa, qb) = (
            poses[a].orientation.inverse(),
            poses[b].orientation.inverse(),
        );
        for ((row, anchor), p) in self
            .points
            .iter_mut()
            .zip(&mut self.anchors)
            .zip(m.points())
        {
            let ra = p.position - poses[a].position;
            let rb = p.position - poses[b].position;
            let rel = bb.point_velocity(rb) - ba.point_velocity(ra);
            *anchor = PointAnchor {
                local_a: qa * ra,
                local_b: qb * rb,
                offset_a: ra,
                offset_b: rb,
                position: DVec3::ZERO,
                base_separation: p.separation,
                approach: rel.dot(n),
            };
            *row = PointRow {
                normal_impulse: if warm_start { p.normal_impulse } else { 0.0 },
                ..PointRow::default()
            };
        }
        // The slots past the manifold's points stay empty rows.
        self.points[m.len..].fill(PointRow::default());
        self.anchors[m.len..].fill(PointAnchor::default());
        self.refresh(bodies, poses, true);
    }

    /// Moves the rows with the bodies: the anchors to where the bodies have carried them
    /// and the separation measured there; each point carried with the bodies'
    /// translation; and the Jacobians at the point and the bodies' current inertia. The soft step calls it after
    /// every solver sub-step's integration, so that both bodies' impulses act at one point
    /// with the inertia that turns them into momentum: linear and angular momentum are then
    /// conserved to round-off (with the anchors fixed, as Box2D v3 keeps them, a pair of
    /// impulses on anchors that drifted apart leaked a few % of the angular momentum of a
    /// collision).
    ///
    /// `follow: false` updates the separations only and leaves the points and
    /// Jacobians where they were prepared (Box2D's and rapier's fixed anchors).
    pub fn refresh(&mut self, bodies: &[SolverBody], poses: &[Pose], follow: bool) {
        let (ba, bb) = (&bodies[self.a], &bodies[self.b]);
        let (pa, pb) = (&poses[self.a], &poses[self.b]);
        let n = self.normal;
        // Each body carries the point along with its translation; the point is their
        // average weighted by inverse mass, so against the ground or a kinematic body it
        // stays with the moving body (under a rolling ball, not on the material points
        // its rolling lifts away).
        let total = ba.inv_mass + bb.inv_mass;
        let (wa, wb) = if total > 0.0 {
            (ba.inv_mass / total, bb.inv_mass / total)
        } else {
            (0.5, 0.5)
        };
        let mut centroid = DVec3::ZERO;
        let len = self.len;
        // A matrix turns a point in half the work of a quaternion; four points pay for it.
        let (turn_a, turn_b) = (
            DMat3::from_quat(pa.orientation),
            DMat3::from_quat(pb.orientation),
        );
        for (p, at) in self.points[..len].iter_mut().zip(&mut self.anchors[..len]) {
            let anchor_a = pa.position + turn_a * at.local_a;
            let anchor_b = pb.position + turn_b * at.local_b;
            p.separation = at.base_separation + n.dot(anchor_b - anchor_a);
            if follow {
                at.position = wa * (pa.position + at.offset_a) + wb * (pb.position + at.offset_b);
                let (ra, rb) = (at.position - pa.position, at.position - pb.position);
                p.normal = Axis::new(ba, bb, ra, rb, n);
            }
            centroid += at.position;
        }
        if !follow {
            return;
        }
        centroid /= self.len.max(1) as f64;
        let (ca, cb) = (centroid - pa.position, centroid - pb.position);
        for (axis, &t) in self.friction.iter_mut().zip(&self.tangents) {
            *axis = Axis::new(ba, bb, ca, cb, t);
        }
        self.twist = Axis::twist(ba, bb, n);
        self.twist_radius = self.anchors[..len]
            .iter()
            .map(|p| (p.position - centroid).length())
            .sum::<f64>()
            / self.len.max(1) as f64;
    }

    fn points(&self) -> &[PointRow] {
        &self.points[..self.len]
    }

    /// Applies last step's impulses again: the solve then starts next to its answer.
    pub fn warm_start(&self, a: &mut SolverBody, b: &mut SolverBody) {
        for p in self.points() {
            p.normal.apply(a, b, self.normal, p.normal_impulse);
        }
        for k in 0..2 {
            self.friction[k].apply(a, b, self.tangents[k], self.friction_impulse[k]);
        }
        self.twist.apply(a, b, DVec3::ZERO, self.twist_impulse);
    }

    /// PGS: the velocity bias of each point once per step, from the separation: a
    /// speculative point may close its gap in this step and no more; a penetrating one
    /// is pushed out by the Baumgarte fraction `β` of its depth beyond the slop; a fast
    /// approach bounces with the restitution coefficient.
    pub fn set_pgs_bias(&mut self, settings: &SolverSettings, h: f64) {
        let (beta, e) = (settings.beta(h), self.restitution);
        let len = self.len;
        for (p, at) in self.points[..len].iter_mut().zip(&self.anchors[..len]) {
            let s = at.base_separation;
            p.bias = if s > 0.0 {
                s / h
            } else {
                -beta * (-s - settings.slop).max(0.0) / h
            };
            if e > 0.0 && at.approach < -settings.restitution_threshold && s + at.approach * h < 0.0
            {
                p.bias = p.bias.min(e * at.approach);
            }
        }
    }

    /// One Gauss-Seidel pass over the rows: friction first (bounded by last pass's
    /// normal impulses), then the normal rows, with the bias `bias` (the soft step's at
    /// the separation of the last [`Self::refresh`]).
    pub fn solve(&mut self, a: &mut SolverBody, b: &mut SolverBody, bias: NormalBias, sor: f64) {
        let n = self.normal;
        self.solve_friction(a, b, sor);
        // Alternate the points' order from pass to pass: a face's four normal impulses
        // are statically indeterminate, and a fixed order shares the load unevenly, the
        // same way every pass; soft contacts then give more on one side and a stack
        // leans (its top drifted 4.7 mm in 10 s awake; 0.3 mm alternating).
        self.flip = !self.flip;
        let flip = self.flip;
        let len = self.len;
        // Against a body that does not move (no inverse mass), the stiffer spring.
        let still = a.inv_mass == 0.0 || b.inv_mass == 0.0;
        for i in 0..len {
            let p = &mut self.points[if flip { len - 1 - i } else { i }];
            let vn = p.normal.velocity(a, b, n);
            let s = p.separation;
            let (softness, bias) = match bias {
                NormalBias::Fixed => (Softness::RIGID, p.bias),
                NormalBias::Soft { inv_h, .. } if s > 0.0 => (Softness::RIGID, s * inv_h),
                NormalBias::Soft {
                    softness,
                    static_softness,
                    max_push_out,
                    ..
                } => {
                    let softness = if still { static_softness } else { softness };
                    (softness, (softness.bias_rate * s).max(-max_push_out))
                }
            };
            let delta = soft_impulse(softness, p.normal.mass, vn, bias, p.normal_impulse);
            let total = (p.normal_impulse + sor * delta).max(0.0);
            let applied = total - p.normal_impulse;
            p.normal_impulse = total;
            p.max_normal_impulse = p.max_normal_impulse.max(total);
            p.normal.apply(a, b, n, applied);
        }
    }

    /// Coulomb's circular cone at the centroid, `|λ_t| ≤ μ Σλ_n`, and the twist row
    /// within `±μ r Σλ_n`.
    fn solve_friction(&mut self, a: &mut SolverBody, b: &mut SolverBody, sor: f64) {
        let load: f64 = self.points().iter().map(|p| p.normal_impulse).sum();
        let old = self.friction_impulse;
        // No load and no friction: the cone is a point and nothing changes. Skipping it
        // is exact, and speculative manifolds are many.
        if load == 0.0 && old == [0.0; 2] && self.twist_impulse == 0.0 {
            return;
        }
        let limit = self.mu * load;
        let mut new = [0.0; 2];
        for k in 0..2 {
            let vt = self.friction[k].velocity(a, b, self.tangents[k]);
            new[k] = old[k] - sor * self.friction[k].mass * vt;
        }
        let len = (new[0] * new[0] + new[1] * new[1]).sqrt();
        if len > limit {
            let s = if len > 0.0 { limit / len } else { 0.0 };
            new = [new[0] * s, new[1] * s];
        }
        self.friction_impulse = new;
        for k in 0..2 {
            self.friction[k].apply(a, b, self.tangents[k], new[k] - old[k]);
        }
        let spin = self.twist.velocity(a, b, DVec3::ZERO);
        let max_twist = limit * self.twist_radius;
        // max/min, not clamp: an overflowed load makes the bound NaN, which clamp panics
        // on; the NaN must instead reach the integrator, which refuses the step.
        let twist = (self.twist_impulse - sor * self.twist.mass * spin)
            .max(-max_twist)
            .min(max_twist);
        self.twist
            .apply(a, b, DVec3::ZERO, twist - self.twist_impulse);
        self.twist_impulse = twist;
    }

    /// Whether a point of these rows bounces: restitution, hit faster than `threshold`,
    /// and loaded in the solve.
    pub fn bounces(&self, threshold: f64) -> bool {
        self.restitution != 0.0
            && self.points[..self.len]
                .iter()
                .zip(&self.anchors)
                .any(|(p, at)| Self::bouncing(p, at, threshold))
    }

    fn bouncing(p: &PointRow, at: &PointAnchor, threshold: f64) -> bool {
        !(at.approach > -threshold || p.max_normal_impulse == 0.0)
    }

    /// Soft step's last pass: points that were hit fast and carried load bounce with
    /// `v_n = −e v_n(before)`.
    pub fn restitution(&mut self, a: &mut SolverBody, b: &mut SolverBody, threshold: f64) {
        let e = self.restitution;
        if e == 0.0 {
            return;
        }
        let n = self.normal;
        let len = self.len;
        for (p, at) in self.points[..len].iter_mut().zip(&self.anchors[..len]) {
            if !Self::bouncing(p, at, threshold) {
                continue;
            }
            let vn = p.normal.velocity(a, b, n);
            let bounce = e * at.approach;
            let delta = soft_impulse(Softness::RIGID, p.normal.mass, vn, bounce, p.normal_impulse);
            let total = (p.normal_impulse + delta).max(0.0);
            p.normal.apply(a, b, n, total - p.normal_impulse);
            p.normal_impulse = total;
        }
    }

    /// Writes the accumulated impulses back into the manifold for next step's warm start.
    pub fn store(&self, m: &mut Manifold) {
        for (row, p) in self.points().iter().zip(m.points_mut()) {
            p.normal_impulse = row.normal_impulse;
        }
        m.friction_impulse = self.tangents[0] * self.friction_impulse[0]
            + self.tangents[1] * self.friction_impulse[1];
        m.twist_impulse = self.twist_impulse;
    }
}

/// `K⁻¹` for an impulse at the point `a + r_a = b + r_b`, with `K` the point's velocity
/// change per unit impulse: the [`coupling`] of its rows along x, y and z. Two immovable
/// bodies give `K = 0` and a zero mass: no impulse.
pub fn point_mass(a: &SolverBody, b: &SolverBody, ra: DVec3, rb: DVec3) -> DMat3 {
    let axes = [DVec3::X, DVec3::Y, DVec3::Z].map(|d| Axis::new(a, b, ra, rb, d));
    let linear = a.inv_mass + b.inv_mass;
    let k = DMat3::from_cols_array_2d(&[0, 1, 2].map(|j| {
        [0, 1, 2].map(|i| coupling(&axes[i], &axes[j], if i == j { linear } else { 0.0 }))
    }));
    if k.determinant().abs() > 1e-300 {
        k.inverse()
    } else {
        DMat3::ZERO
    }
}

/// A joint's point constraint, `anchor_b − anchor_a = 0`, solved as one 3×3 block with
/// the full effective mass ([`point_mass`]), as Box2D solves its revolute joint's point
/// as a 2×2 block. Three separate
/// rows along x, y, z ignore K's off-diagonal terms, which are large when the anchor is
/// far from a light body's centre (a pendulum bob): Gauss-Seidel then couples the rows'
/// springs, and a soft step at 60 Hz made a 1 m pendulum 0.8% slow (12% at 15 Hz).
#[derive(Clone, Copy, Debug)]
pub struct PointBlock {
    pub a: usize,
    pub b: usize,
    pub ra: DVec3,
    pub rb: DVec3,
    /// `K⁻¹`.
    pub mass: DMat3,
    /// `anchor_b − anchor_a`.
    pub error: DVec3,
    pub softness: Softness,
    pub impulse: DVec3,
}

impl PointBlock {
    pub fn new(
        bodies: &[SolverBody],
        (a, b): (usize, usize),
        (ra, rb): (DVec3, DVec3),
        error: DVec3,
        softness: Softness,
    ) -> Self {
        Self {
            a,
            b,
            ra,
            rb,
            mass: point_mass(&bodies[a], &bodies[b], ra, rb),
            error,
            softness,
            impulse: DVec3::ZERO,
        }
    }

    #[inline]
    fn apply(&self, bodies: &mut [SolverBody], impulse: DVec3) {
        let (a, b) = pair(bodies, self.a, self.b);
        a.apply(-impulse, -self.ra.cross(impulse));
        b.apply(impulse, self.rb.cross(impulse));
    }

    pub fn warm_start(&self, bodies: &mut [SolverBody]) {
        self.apply(bodies, self.impulse);
    }

    /// `use_bias = false` is the soft step's relax pass: rigid, no position feedback.
    pub fn solve(&mut self, bodies: &mut [SolverBody], use_bias: bool, sor: f64) {
        let (a, b) = (&bodies[self.a], &bodies[self.b]);
        let cdot = b.point_velocity(self.rb) - a.point_velocity(self.ra);
        let s = if use_bias {
            self.softness
        } else {
            Softness::RIGID
        };
        let delta = soft_impulse(s, self.mass, cdot, self.error * s.bias_rate, self.impulse);
        let applied = delta * sor;
        self.impulse += applied;
        self.apply(bodies, applied);
    }
}

/// A joint's angular row: the relative spin about a direction ([`Axis::twist`]), driven
/// to `target` (a motor's speed; zero for a rigid link) while the angle error `error`
/// is fed back at the softness's bias rate; the accumulated impulse is kept in
/// `[lo, hi]`.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    pub a: usize,
    pub b: usize,
    pub axis: Axis,
    pub target: f64,
    pub error: f64,
    /// PGS rows use `bias_rate = β/h` with full mass; soft rows Box2D's spring.
    pub softness: Softness,
    pub lo: f64,
    pub hi: f64,
    pub impulse: f64,
}

impl Row {
    /// The row about unit `dir` with its effective mass; error, target, softness and
    /// bounds set by the caller.
    pub fn new(bodies: &[SolverBody], (a, b): (usize, usize), dir: DVec3) -> Self {
        Self {
            a,
            b,
            axis: Axis::twist(&bodies[a], &bodies[b], dir),
            target: 0.0,
            error: 0.0,
            softness: Softness::RIGID,
            lo: f64::NEG_INFINITY,
            hi: f64::INFINITY,
            impulse: 0.0,
        }
    }

    pub fn warm_start(&self, bodies: &mut [SolverBody]) {
        let (a, b) = pair(bodies, self.a, self.b);
        self.axis.apply(a, b, DVec3::ZERO, self.impulse);
    }

    /// `use_bias = false` is the soft step's relax pass: rigid, no position feedback.
    pub fn solve(&mut self, bodies: &mut [SolverBody], use_bias: bool, sor: f64) {
        let (a, b) = pair(bodies, self.a, self.b);
        let spin = self.axis.velocity(a, b, DVec3::ZERO);
        let s = if use_bias {
            self.softness
        } else {
            Softness::RIGID
        };
        let bias = s.bias_rate * self.error;
        let delta = soft_impulse(s, self.axis.mass, spin - self.target, bias, self.impulse);
        // max/min, not clamp, which panics on NaN bounds (see `solve_friction`).
        let total = (self.impulse + sor * delta).max(self.lo).min(self.hi);
        self.axis.apply(a, b, DVec3::ZERO, total - self.impulse);
        self.impulse = total;
    }
}
