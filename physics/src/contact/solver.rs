//! Sequential impulses (projected Gauss-Seidel): each constraint row in turn gets the
//! impulse that makes its relative velocity what it should be, and the ACCUMULATED
//! impulse of the row is clamped (contacts push, friction stays inside its cone), not
//! the increment [Havok solver], [Catto 2005]. Rows are `J v = b` with a 1×12 `J`.

use std::ops::{Add, Mul, Neg, Sub};

use glam::{DMat3, DVec3};

use super::geometry::tangents;
use super::kernel::{AxisRow, Inertia, PointRow, RowPass, Rows, Velocities};
use super::manifold::Manifold;
use super::parallel::Ends;
use super::refresh::{self, Anchor, Anchors, End, Frame};
use super::settings::{Softness, SolverKind, SolverSettings};
use super::wide::{Lane, Real};
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
    let scales = (softness.mass_scale, softness.impulse_scale);
    soft_impulse_scaled(scales, mass, velocity, bias, accumulated)
}

/// [`soft_impulse`] with the softness's mass and impulse scales given, which differ from
/// slot to slot in the contact rows' [`kernel`](super::kernel).
#[inline(always)]
pub fn soft_impulse_scaled<M, V, S>(
    (mass_scale, impulse_scale): (S, S),
    mass: M,
    velocity: V,
    bias: V,
    accumulated: V,
) -> V
where
    M: Mul<V, Output = V>,
    V: Add<Output = V> + Sub<Output = V> + Neg<Output = V> + Mul<S, Output = V>,
{
    -(mass * (velocity + bias)) * mass_scale - accumulated * impulse_scale
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
    pub anchors: Anchors<Lane>,
    pub rows: Rows<Lane>,
}

/// `v` in the rows' precision.
#[inline]
fn lanes(v: DVec3) -> [Lane; 3] {
    v.to_array().map(Lane::splat)
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

    /// The pose the fraction `t` of the way to `end`: the position on the straight line,
    /// the orientation on the shortest arc.
    pub fn toward(&self, end: &Pose, t: f64) -> Self {
        Self {
            position: self.position.lerp(end.position, t),
            orientation: self.orientation.slerp(end.orientation, t),
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
        rows.mu = Lane::splat(input.friction);
        rows.restitution = Lane::splat(input.restitution);
        (rows.len, rows.mixed, rows.flip) = (m.len, false, false);
        (rows.friction_impulse, rows.twist_impulse) = if warm_start {
            (
                [m.friction_impulse.dot(t1), m.friction_impulse.dot(t2)].map(Lane::splat),
                Lane::splat(m.twist_impulse),
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
                base_separation: Lane::splat(p.separation),
            };
            *row = PointRow {
                impulse: Lane::splat(if warm_start { p.normal_impulse } else { 0.0 }),
                approach: Lane::splat(rel.dot(n)),
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
    pub fn refresh(&mut self, bodies: &[SolverBody], frames: &[Frame], follow: bool) {
        let a = End::gather(bodies, frames, |_| self.a);
        let b = End::gather(bodies, frames, |_| self.b);
        let offset = refresh::offset(&[frames[self.b].position - frames[self.a].position]);
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
            p.bias = Lane::splat(bias);
        }
    }

    /// Whether a point of these rows may bounce: restitution, and hit faster than
    /// `threshold` (the restitution pass bounces those of them that carried load).
    pub fn may_bounce(&self, threshold: f64) -> bool {
        let rows = &self.rows;
        rows.restitution != 0.0
            && rows.points[..rows.len]
                .iter()
                .any(|p| p.approach <= Lane::splat(-threshold) || p.approach.is_nan())
    }

    /// Writes the accumulated impulses back into the manifold for next step's warm start.
    pub fn store(&self, m: &mut Manifold) {
        self.rows.store(0, m);
    }
}

/// `K⁻¹` for an impulse at the point `a + r_a = b + r_b`, with `K` the point's velocity
/// change per unit impulse: the [`AxisRow::coupling`] of its rows along x, y and z. Two immovable
/// bodies give `K = 0` and a zero mass: no impulse.
pub fn point_mass(a: &SolverBody, b: &SolverBody, ra: DVec3, rb: DVec3) -> DMat3 {
    let (ia, ib) = (Inertia::of(a), Inertia::of(b));
    let levers = (&ra.to_array(), &rb.to_array());
    let axes =
        [DVec3::X, DVec3::Y, DVec3::Z].map(|d| AxisRow::point(&ia, &ib, levers, &d.to_array()));
    let linear = a.inv_mass + b.inv_mass;
    let k =
        DMat3::from_cols_array_2d(&[0, 1, 2].map(|j| {
            [0, 1, 2].map(|i| axes[i].coupling(&axes[j], if i == j { linear } else { 0.0 }))
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
    pub(super) fn apply(&self, bodies: &mut [SolverBody], impulse: DVec3) {
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

/// How a joint row feeds back its error.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Feedback {
    /// The joint softness in the solve passes, rigid in the relax pass.
    Joint,
    /// A spring: its own softness in every pass, relax included, as Box2D's distance
    /// joint spring (`distance_joint.c`), so the relax pass does not stiffen it.
    Spring,
    /// A one-sided limit (impulse ≥ 0): while its error is positive it is slack and only
    /// stops the bodies closing more than the error within the step, bias `C/h` and
    /// rigid, in every pass (Box2D's speculative limits, `distance_joint.c`); at or past
    /// the limit it is a [`Feedback::Joint`] row.
    OneSided { inv_h: f64 },
}

/// A joint's row: the relative velocity of a point along a direction, or the relative
/// spin about one ([`AxisRow::twist`]), driven to `target` (a motor's speed; zero for a
/// rigid link) while the error `error` is fed back; the accumulated impulse is kept in
/// `[lo, hi]`.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    pub a: usize,
    pub b: usize,
    pub axis: AxisRow<f64>,
    /// The direction of a point's row (zero for a spin).
    pub linear: [f64; 3],
    pub target: f64,
    pub error: f64,
    /// PGS rows use `bias_rate = β/h` with full mass; soft rows Box2D's spring.
    pub softness: Softness,
    pub feedback: Feedback,
    pub lo: f64,
    pub hi: f64,
    pub impulse: f64,
}

impl Row {
    /// The row about unit `dir` with its effective mass; error, target, softness and
    /// bounds set by the caller.
    pub fn new(bodies: &[SolverBody], (a, b): (usize, usize), dir: DVec3) -> Self {
        let (ia, ib) = (Inertia::of(&bodies[a]), Inertia::of(&bodies[b]));
        let axis = AxisRow::twist(&ia, &ib, &dir.to_array());
        Self::with_axis((a, b), axis, DVec3::ZERO)
    }

    /// The row of the point at levers `(ra, rb)` from each body's centre, along unit `d`.
    pub fn linear(
        bodies: &[SolverBody],
        (a, b): (usize, usize),
        (ra, rb): (DVec3, DVec3),
        d: DVec3,
    ) -> Self {
        let (ia, ib) = (Inertia::of(&bodies[a]), Inertia::of(&bodies[b]));
        let axis = AxisRow::point(&ia, &ib, (&ra.to_array(), &rb.to_array()), &d.to_array());
        Self::with_axis((a, b), axis, d)
    }

    /// A row of any Jacobian `[−d, −angular_a, d, angular_b]` (a user's row).
    pub fn general(
        bodies: &[SolverBody],
        (a, b): (usize, usize),
        d: DVec3,
        (angular_a, angular_b): (DVec3, DVec3),
    ) -> Self {
        let (ia, ib) = (Inertia::of(&bodies[a]), Inertia::of(&bodies[b]));
        let linear_k = (ia.inv_mass + ib.inv_mass) * d.length_squared();
        let angular = (angular_a.to_array(), angular_b.to_array());
        let axis = AxisRow::with_angular(&ia, &ib, angular, linear_k);
        Self::with_axis((a, b), axis, d)
    }

    fn with_axis((a, b): (usize, usize), axis: AxisRow<f64>, d: DVec3) -> Self {
        Self {
            a,
            b,
            axis,
            linear: d.to_array(),
            target: 0.0,
            error: 0.0,
            softness: Softness::RIGID,
            feedback: Feedback::Joint,
            lo: f64::NEG_INFINITY,
            hi: f64::INFINITY,
            impulse: 0.0,
        }
    }

    pub fn warm_start(&self, bodies: &mut [SolverBody]) {
        self.on_bodies(bodies, |axis, a, b| {
            axis.apply(a, b, &self.linear, self.impulse)
        });
    }

    /// Runs `f` with the row's axis on its two bodies' velocities.
    fn on_bodies<R>(
        &self,
        bodies: &mut [SolverBody],
        f: impl FnOnce(&AxisRow<f64>, &mut Velocities<f64>, &mut Velocities<f64>) -> R,
    ) -> R {
        let (a, b) = pair(bodies, self.a, self.b);
        let mut ends = (
            Velocities::gather(std::slice::from_ref(a)),
            Velocities::gather(std::slice::from_ref(b)),
        );
        let out = f(&self.axis, &mut ends.0, &mut ends.1);
        ends.0.write(0, a);
        ends.1.write(0, b);
        out
    }

    /// Whether the row is an equality held rigidly by the joints' softness: no bounds,
    /// no target, no spring or limit feedback (the rows a direct solve can take).
    pub fn is_equality(&self) -> bool {
        self.lo == f64::NEG_INFINITY
            && self.hi == f64::INFINITY
            && self.target == 0.0
            && self.feedback == Feedback::Joint
    }

    /// The softness this pass uses; `use_bias = false` is the soft step's relax pass.
    fn pass_softness(&self, use_bias: bool) -> Softness {
        match self.feedback {
            Feedback::Spring => self.softness,
            Feedback::OneSided { inv_h } if self.error > 0.0 => Softness {
                bias_rate: inv_h,
                mass_scale: 1.0,
                impulse_scale: 0.0,
            },
            _ if use_bias => self.softness,
            _ => Softness::RIGID,
        }
    }

    /// `use_bias = false` is the soft step's relax pass: no position feedback but a
    /// spring's and a slack limit's.
    pub fn solve(&mut self, bodies: &mut [SolverBody], use_bias: bool, sor: f64) {
        let d = self.linear;
        let speed = self.on_bodies(bodies, |axis, a, b| axis.velocity(a, b, &d));
        let s = self.pass_softness(use_bias);
        let bias = s.bias_rate * self.error;
        let delta = soft_impulse(s, self.axis.mass, speed - self.target, bias, self.impulse);
        // max/min, not clamp, which panics on NaN bounds (see `solve_friction`).
        let total = (self.impulse + sor * delta).max(self.lo).min(self.hi);
        let applied = total - self.impulse;
        self.on_bodies(bodies, |axis, a, b| axis.apply(a, b, &d, applied));
        self.impulse = total;
    }
}
