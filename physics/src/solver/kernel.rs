//! The contact rows' maths, written once for any [`Real`]: one manifold's rows in each
//! slot, solved as a row alone (a scalar) or eight manifolds at a time ([`Wide`], as rapier
//! solves four constraints at once and Box2D v3 eight, [rapier], [Catto,
//! `contact_solver.c`]). Groups whose manifolds lack a point, or whose rows a pass leaves
//! alone, compute what the others do and keep what they had by a mask, so every slot
//! ends bitwise as its row would alone.
//!
//! [`Wide`]: super::wide::Wide

use glam::DVec3;

use super::bias::NormalBias;
use super::body::SolverBody;
use super::soft::soft_impulse_scaled;
#[cfg(test)]
use super::wide::RowReal;
use super::wide::{Real, xyz};
use crate::collision::manifold::{MAX_POINTS, Manifold};
use crate::solver::settings::Softness;

/// A vector per slot.
pub type WideV3<W> = [W; 3];

/// A 3×3 matrix per slot, by columns (glam's layout).
pub type M3<W> = [WideV3<W>; 3];

/// `DVec3::dot`'s order: `(x x' + y y') + z z'`.
#[inline(always)]
pub fn dot<W: Real>(a: &WideV3<W>, b: &WideV3<W>) -> W {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// `DVec3::cross`.
#[inline(always)]
fn cross<W: Real>(a: &WideV3<W>, b: &WideV3<W>) -> WideV3<W> {
    [
        a[1] * b[2] - b[1] * a[2],
        a[2] * b[0] - b[2] * a[0],
        a[0] * b[1] - b[0] * a[1],
    ]
}

/// `DMat3 * DVec3`'s order: `(x_axis v.x + y_axis v.y) + z_axis v.z`.
#[inline(always)]
pub fn transform<W: Real>(m: &M3<W>, v: &WideV3<W>) -> WideV3<W> {
    xyz!(|k| m[0][k] * v[0] + m[1][k] * v[1] + m[2][k] * v[2])
}

/// `1 / k`, or 0 for `k ≤ 0` (no impulse through an immovable row).
#[inline(always)]
fn recip<W: Real>(k: W) -> W {
    W::select(k.gt(W::ZERO), W::splat(1.0) / k, W::ZERO)
}

#[inline(always)]
pub fn select3<W: Real>(m: W::Mask, yes: &WideV3<W>, no: &WideV3<W>) -> WideV3<W> {
    xyz!(|k| W::select(m, yes[k], no[k]))
}

#[inline(always)]
fn vector<W: Real>(f: impl Fn(usize) -> DVec3) -> WideV3<W> {
    xyz!(|k| W::gather(|l| f(l)[k]))
}

/// The velocities of one end of each slot's rows, and its inverse mass.
#[derive(Clone, Copy)]
pub struct Velocities<W: Real> {
    v: WideV3<W>,
    w: WideV3<W>,
    inv_mass: W,
}

impl<W: Real> Velocities<W> {
    /// Real `l` from `bodies[l]`.
    #[inline(always)]
    pub fn gather(bodies: &[SolverBody]) -> Self {
        Self::gather_from(|l| &bodies[l])
    }

    /// Real `l`'s velocities, written into `body`.
    #[inline(always)]
    pub fn write(&self, l: usize, body: &mut SolverBody) {
        body.v = DVec3::new(self.v[0].slot(l), self.v[1].slot(l), self.v[2].slot(l));
        body.w = DVec3::new(self.w[0].slot(l), self.w[1].slot(l), self.w[2].slot(l));
    }

    /// Real `l` from `bodies(l)`.
    #[inline(always)]
    pub fn gather_from<'a>(bodies: impl Fn(usize) -> &'a SolverBody) -> Self {
        Self {
            v: vector(|l| bodies(l).v),
            w: vector(|l| bodies(l).w),
            inv_mass: W::gather(|l| bodies(l).inv_mass),
        }
    }

    /// What the passes changed of real `l`'s velocities since `start` (linear, angular),
    /// in `f64`, for the body to add to its own: rows in `f32` change a body's velocity
    /// by their impulses' effect alone, not by rounding it to `f32` as well. A row that
    /// applies nothing leaves the body as it was, bit for bit; so a resting pair keeps its
    /// momentum to the rows' round-off of their impulses, where writing the rounded
    /// velocities back lost 2·10⁻⁵ of a turning pair's angular momentum in 2 s.
    #[inline(always)]
    pub fn change(&self, l: usize, start: &Self) -> (DVec3, DVec3) {
        let change = |now: &WideV3<W>, was: &WideV3<W>| {
            DVec3::new(
                now[0].slot(l) - was[0].slot(l),
                now[1].slot(l) - was[1].slot(l),
                now[2].slot(l) - was[2].slot(l),
            )
        };
        (change(&self.v, &start.v), change(&self.w, &start.w))
    }

    /// [`Self::change`], added to `body`'s velocities.
    #[inline(always)]
    pub fn write_change(&self, l: usize, start: &Self, body: &mut SolverBody) {
        let (dv, dw) = self.change(l, start);
        body.v += dv;
        body.w += dw;
    }

    #[inline(always)]
    fn select(m: W::Mask, yes: &Self, no: &Self) -> Self {
        Self {
            v: select3(m, &yes.v, &no.v),
            w: select3(m, &yes.w, &no.w),
            inv_mass: no.inv_mass,
        }
    }
}

/// One end's inverse mass and inverse inertia in world axes, per slot: what a row's
/// effective mass is made of.
#[derive(Clone, Copy, Debug)]
pub struct InverseMass<W: Real> {
    pub inv_mass: W,
    pub inv_inertia: M3<W>,
}

impl<W: Real> InverseMass<W> {
    /// Real `l` from `bodies(l)`.
    #[inline(always)]
    pub fn gather<'a>(bodies: impl Fn(usize) -> &'a SolverBody) -> Self {
        Self {
            inv_mass: W::gather(|l| bodies(l).inv_mass),
            inv_inertia: xyz!(|c| xyz!(|k| W::gather(|l| bodies(l).inv_inertia.col(c)[k]))),
        }
    }
}

impl InverseMass<f64> {
    pub fn of(body: &SolverBody) -> Self {
        Self::gather(|_| body)
    }
}

/// One row of the solver, in slots: the relative velocity of a point along a direction
/// `d`, or, for `d = 0`, a relative spin. Its Jacobian on `(v_a, ω_a, v_b, ω_b)` is
/// `J = [−d, −ang_a, d, ang_b]` with `ang = r × d` for a point at lever `r` (Box2D's
/// convention [Catto 2024]), the same for contacts, joints and the mouse spring. The
/// angular parts and their images under the inverse inertias are computed when the rows
/// are prepared or moved, so the passes need neither a matrix product nor a cross
/// product.
#[derive(Clone, Copy, Debug, Default)]
pub struct AxisRow<W: Real> {
    /// `r_a × d` and `r_b × d`.
    pub(super) ang_a: WideV3<W>,
    pub(super) ang_b: WideV3<W>,
    /// `I_a⁻¹ (r_a × d)` and `I_b⁻¹ (r_b × d)`.
    pub(super) turn_a: WideV3<W>,
    pub(super) turn_b: WideV3<W>,
    /// The effective mass `1 / (J M⁻¹ Jᵀ)`.
    pub mass: W,
}

impl<W: Real> AxisRow<W> {
    /// The row of the point at levers `ra`, `rb` from the ends' centres, along unit `d`.
    #[inline(always)]
    pub fn point(
        a: &InverseMass<W>,
        b: &InverseMass<W>,
        (ra, rb): (&WideV3<W>, &WideV3<W>),
        d: &WideV3<W>,
    ) -> Self {
        let linear = a.inv_mass + b.inv_mass;
        Self::with_angular(a, b, (cross(ra, d), cross(rb, d)), linear)
    }

    /// A purely angular row: the relative spin about unit `n` (the twist about a
    /// contact normal, a joint's angular rows).
    #[inline(always)]
    pub fn twist(a: &InverseMass<W>, b: &InverseMass<W>, n: &WideV3<W>) -> Self {
        Self::with_angular(a, b, (*n, *n), W::ZERO)
    }

    /// The row of angular parts `(ang_a, ang_b)` whose linear part gives `linear_k`
    /// (`(m_a⁻¹ + m_b⁻¹) |d|²`).
    #[inline(always)]
    pub fn with_angular(
        a: &InverseMass<W>,
        b: &InverseMass<W>,
        (ang_a, ang_b): (WideV3<W>, WideV3<W>),
        linear_k: W,
    ) -> Self {
        let mut axis = Self {
            ang_a,
            ang_b,
            turn_a: transform(&a.inv_inertia, &ang_a),
            turn_b: transform(&b.inv_inertia, &ang_b),
            mass: W::ZERO,
        };
        axis.mass = recip(axis.coupling(&axis, linear_k));
        axis
    }

    /// `J_self M⁻¹ J_otherᵀ`, the velocity along this row per unit impulse along
    /// `other`, rows of the same two bodies; `linear` is their linear part
    /// `(m_a⁻¹ + m_b⁻¹) d·d'`. With itself, the inverse of the row's effective mass; over
    /// a point's three axes, the point's 3×3 `K` [Catto 2005].
    #[inline(always)]
    pub fn coupling(&self, other: &Self, linear: W) -> W {
        linear + dot(&self.ang_a, &other.turn_a) + dot(&self.ang_b, &other.turn_b)
    }

    /// Real `l` from `axes(l)`, a field at a time (a vector's worth of stores each).
    #[cfg(test)]
    pub fn gather<'a>(axes: impl Fn(usize) -> &'a AxisRow<RowReal>) -> Self {
        let v = |f: fn(&AxisRow<RowReal>) -> &WideV3<RowReal>| {
            xyz!(|k| W::gather(|l| f(axes(l))[k].into()))
        };
        Self {
            ang_a: v(|a| &a.ang_a),
            ang_b: v(|a| &a.ang_b),
            turn_a: v(|a| &a.turn_a),
            turn_b: v(|a| &a.turn_b),
            mass: W::gather(|l| axes(l).mass.into()),
        }
    }

    /// The relative velocity of the point along `d`, b's minus a's (`d = 0`: the
    /// relative spin of a twist row).
    #[inline(always)]
    pub fn velocity(&self, a: &Velocities<W>, b: &Velocities<W>, d: &WideV3<W>) -> W {
        let dv = xyz!(|k| b.v[k] - a.v[k]);
        dot(d, &dv) + dot(&self.ang_b, &b.w) - dot(&self.ang_a, &a.w)
    }

    /// An impulse `λ d` on b at the point, and its reaction on a.
    #[inline(always)]
    pub fn apply(&self, a: &mut Velocities<W>, b: &mut Velocities<W>, d: &WideV3<W>, lambda: W) {
        let (la, lb) = (lambda * a.inv_mass, lambda * b.inv_mass);
        // An axis at a time, the four updates together: the same operations as four
        // `xyz!` arrays took half as long again on the 1,000-box pile.
        #[allow(clippy::needless_range_loop)]
        for k in 0..3 {
            a.v[k] = a.v[k] - d[k] * la;
            a.w[k] = a.w[k] - self.turn_a[k] * lambda;
            b.v[k] = b.v[k] + d[k] * lb;
            b.w[k] = b.w[k] + self.turn_b[k] * lambda;
        }
    }
}

impl AxisRow<f64> {
    /// The angular parts of the row's Jacobian on each body, `(r_a × d, r_b × d)`.
    pub fn angular(&self) -> (glam::DVec3, glam::DVec3) {
        (
            glam::DVec3::from_array(self.ang_a),
            glam::DVec3::from_array(self.ang_b),
        )
    }
}

/// A point's normal row in groups: what every pass reads and writes.
#[derive(Clone, Copy, Debug, Default)]
pub struct PointRow<W: Real> {
    pub normal: AxisRow<W>,
    /// Separation now: the prepared one plus the anchors' relative motion along the
    /// normal.
    pub separation: W,
    /// PGS only: the velocity bias the row drives `v_n + bias` to zero with.
    pub bias: W,
    /// The accumulated normal impulse, and the most it has been this step.
    pub impulse: W,
    pub max_impulse: W,
    /// Normal relative velocity before the solve, for restitution.
    pub approach: W,
}

/// A pass over the rows.
#[derive(Clone, Copy, Debug)]
pub enum RowPass {
    /// Applies the accumulated impulses again.
    WarmStart,
    /// One Gauss-Seidel pass with a normal bias and a relaxation factor: friction, then
    /// the normal rows (an iteration).
    Iterate(NormalBias, f64),
    /// The same with [`NormalBias::relax`]: the normal rows, then friction (the soft
    /// step's relax stage).
    Relax(NormalBias, f64),
    /// Points hit faster than the threshold (m/s) bounce.
    Restitution(f64),
}

/// One manifold's rows in each slot: a normal row per point, and friction for the
/// manifold as a whole, two tangent rows at the points' centroid and a twist row about
/// the normal (see [`ContactRows`](super::contact_rows::ContactRows) for why).
#[derive(Clone, Copy, Debug, Default)]
pub struct Rows<W: Real> {
    pub normal: WideV3<W>,
    pub tangents: [WideV3<W>; 2],
    pub mu: W,
    pub restitution: W,
    /// Mean distance of the points from their centroid: the twist row's lever.
    pub twist_radius: W,
    pub friction: [AxisRow<W>; 2],
    pub friction_impulse: [W; 2],
    pub twist: AxisRow<W>,
    pub twist_impulse: W,
    pub points: [PointRow<W>; MAX_POINTS],
    /// The slots that have point `j`.
    pub active: [W::Mask; MAX_POINTS],
    /// Whether the slots have different numbers of points (then the missing ones are
    /// masked out); if not, how many they have.
    pub mixed: bool,
    pub len: usize,
    /// Whether the last pass went through the points backwards.
    pub flip: bool,
}

/// A softness's mass and impulse scales in every slot.
#[inline(always)]
fn scales<W: Real>(s: Softness) -> (W, W) {
    (W::splat(s.mass_scale), W::splat(s.impulse_scale))
}

impl<W: Real> Rows<W> {
    /// The pass on these rows, between the ends `a` and `b`.
    #[inline(always)]
    pub fn run(&mut self, a: &mut Velocities<W>, b: &mut Velocities<W>, pass: RowPass) {
        match pass {
            RowPass::WarmStart => self.warm_start(a, b),
            RowPass::Iterate(bias, sor) => {
                let load = self.load();
                self.update_friction(a, b, load, sor);
                self.update_normals(a, b, bias, sor);
            }
            // Friction after the normal rows here, as Box2D v3 orders them in every pass
            // [Catto, `contact_solver.c`], within μ times the larger of the load before
            // and after them. The relax pass leaves the velocities a sub-step keeps; with
            // friction first, bounded by the iterations' load, it missed the impulse the relax
            // adds while a box sinks to its contacts' rest depth d: μ m d / h in all (h the
            // sub-step), and a box placed on a 30° slope slid 3.7% too fast at μ = 0.5
            // ever after. The larger load, not the relax's alone: where the relax takes a
            // push-out away, a smaller cone let the crash's front box rebound 5 cm off the
            // van's wall it hit with no restitution (the cost: a box placed 1 mm into a
            // slope is bounded by its push-out's load while it is pushed out, and slides
            // 19% slow at μ = 0.5). The iterations keep friction first: with it last
            // there too, a 20-row pyramid at 3 sub-steps jittered at 0.13 m/s.
            RowPass::Relax(bias, sor) => {
                let solved = self.load();
                self.update_normals(a, b, bias, sor);
                let load = solved.max(self.load());
                self.update_friction(a, b, load, sor);
            }
            RowPass::Restitution(threshold) => self.restitution(a, b, threshold),
        }
    }

    /// The normal rows of a pass, alternating the points' order from pass to pass: a
    /// face's four normal impulses are statically indeterminate, and a fixed order shares
    /// the load unevenly, the same way every pass; soft contacts then give more on one
    /// side and a stack leans (its top drifted 4.7 mm in 10 s awake; 0.3 mm alternating).
    #[inline(always)]
    fn update_normals(
        &mut self,
        a: &mut Velocities<W>,
        b: &mut Velocities<W>,
        bias: NormalBias,
        sor: f64,
    ) {
        self.flip = !self.flip;
        if self.mixed {
            self.update_points::<true>(a, b, bias, sor);
        } else {
            self.update_points::<false>(a, b, bias, sor);
        }
    }

    /// Slot `l`'s accumulated impulses, into its manifold (of which it holds the rows)
    /// for the next step's warm start.
    pub fn store(&self, l: usize, m: &mut Manifold) {
        for (row, p) in self.points.iter().zip(m.points_mut()) {
            p.normal_impulse = row.impulse.slot(l);
        }
        let [t1, t2] = self
            .tangents
            .map(|t| DVec3::from_array(t.map(|x| x.slot(l))));
        let [f1, f2] = self.friction_impulse.map(|f| f.slot(l));
        m.friction_impulse = t1 * f1 + t2 * f2;
        m.twist_impulse = self.twist_impulse.slot(l);
    }

    /// The points every slot goes through: all four if some slots lack some.
    #[inline(always)]
    pub fn count(&self) -> usize {
        if self.mixed { MAX_POINTS } else { self.len }
    }

    /// Applies last step's impulses again: the iterations then start next to their answer.
    #[inline(always)]
    fn warm_start(&self, a: &mut Velocities<W>, b: &mut Velocities<W>) {
        let n = self.normal;
        for (p, &here) in self.points[..self.count()].iter().zip(&self.active) {
            let (a0, b0) = (*a, *b);
            p.normal.apply(a, b, &n, p.impulse);
            if self.mixed {
                *a = Velocities::select(here, a, &a0);
                *b = Velocities::select(here, b, &b0);
            }
        }
        for k in 0..2 {
            self.friction[k].apply(a, b, &self.tangents[k], self.friction_impulse[k]);
        }
        self.twist.apply(a, b, &[W::ZERO; 3], self.twist_impulse);
    }

    /// Coulomb's circular cone at the centroid, `|λ_t| ≤ μ Σλ_n`, and the twist row
    /// within `±μ r Σλ_n`, bounded by the normal impulses as they stand. A slot with no load
    /// and no friction has a cone of a point: nothing changes in it, and if no slot
    /// changes, nothing is computed (speculative manifolds are many).
    #[inline(always)]
    fn update_friction(&mut self, a: &mut Velocities<W>, b: &mut Velocities<W>, load: W, sor: f64) {
        let old = self.friction_impulse;
        let zero = W::ZERO;
        let idle = W::and(
            W::and(load.eq(zero), old[0].eq(zero)),
            W::and(old[1].eq(zero), self.twist_impulse.eq(zero)),
        );
        if W::all(idle) {
            return;
        }
        let (a0, b0) = (*a, *b);
        let sor = W::splat(sor);
        let limit = self.mu * load;
        let mut new = [zero; 2];
        for (k, new) in new.iter_mut().enumerate() {
            let vt = self.friction[k].velocity(a, b, &self.tangents[k]);
            *new = old[k] - sor * self.friction[k].mass * vt;
        }
        let len = (new[0] * new[0] + new[1] * new[1]).sqrt();
        let s = W::select(len.gt(zero), limit / len, zero);
        let over = len.gt(limit);
        new = [
            W::select(over, new[0] * s, new[0]),
            W::select(over, new[1] * s, new[1]),
        ];
        for (k, (new, old)) in new.iter().zip(old).enumerate() {
            self.friction[k].apply(a, b, &self.tangents[k], *new - old);
        }
        let still = [zero; 3];
        let spin = self.twist.velocity(a, b, &still);
        let max_twist = limit * self.twist_radius;
        // max/min, not clamp: an overflowed load makes the bound NaN, which clamp panics
        // on; the NaN must instead reach the integrator, which refuses the step.
        let twist = (self.twist_impulse - sor * self.twist.mass * spin)
            .max(-max_twist)
            .min(max_twist);
        self.twist.apply(a, b, &still, twist - self.twist_impulse);
        if W::any(idle) {
            *a = Velocities::select(idle, &a0, a);
            *b = Velocities::select(idle, &b0, b);
            new = [
                W::select(idle, old[0], new[0]),
                W::select(idle, old[1], new[1]),
            ];
            self.twist_impulse = W::select(idle, self.twist_impulse, twist);
        } else {
            self.twist_impulse = twist;
        }
        self.friction_impulse = new;
    }

    /// The total normal impulse of the points.
    #[inline(always)]
    fn load(&self) -> W {
        // The start of `Iterator::sum` (−0), as a sum of a row's impulses starts.
        let mut load = W::splat(std::iter::empty::<f64>().sum());
        for p in &self.points[..self.count()] {
            load = load + p.impulse;
        }
        load
    }

    /// The normal rows' scales and bias for the point `p`: PGS's fixed bias with a rigid
    /// row, or the soft step's, where a speculative point closes its gap within the
    /// sub-step and a penetrating one is pushed out by the spring (the stiffer one
    /// against a body that does not move), no faster than `max_push_out`.
    #[inline(always)]
    fn normal_bias(p: &PointRow<W>, still: W::Mask, bias: NormalBias) -> ((W, W), W) {
        let rigid = scales(Softness::RIGID);
        match bias {
            NormalBias::Fixed => (rigid, p.bias),
            NormalBias::Soft {
                softness,
                static_softness,
                inv_h,
                max_push_out,
            } => {
                let (soft, hard) = (scales(softness), scales(static_softness));
                let rate = W::select(
                    still,
                    W::splat(static_softness.bias_rate),
                    W::splat(softness.bias_rate),
                );
                let s = p.separation;
                let ahead = s.gt(W::ZERO);
                let pushed = (rate * s).max(W::splat(-max_push_out));
                let pick = |r: W, h: W, s: W| W::select(ahead, r, W::select(still, h, s));
                (
                    (pick(rigid.0, hard.0, soft.0), pick(rigid.1, hard.1, soft.1)),
                    W::select(ahead, s * W::splat(inv_h), pushed),
                )
            }
        }
    }

    /// The normal rows, in the order of `flip`; `MASKED`: the slots lack some points,
    /// whose places (the last ones) change nothing. Going through them backwards then
    /// meets each slot's points in its reversed order.
    #[inline(always)]
    fn update_points<const MASKED: bool>(
        &mut self,
        a: &mut Velocities<W>,
        b: &mut Velocities<W>,
        bias: NormalBias,
        sor: f64,
    ) {
        let (n, count, flip) = (self.normal, self.count(), self.flip);
        let sor = W::splat(sor);
        let zero = W::ZERO;
        let still = W::or(a.inv_mass.eq(zero), b.inv_mass.eq(zero));
        for i in 0..count {
            let j = if flip { count - 1 - i } else { i };
            let p = &mut self.points[j];
            let (a0, b0) = (*a, *b);
            let vn = p.normal.velocity(a, b, &n);
            let (scales, bias) = Self::normal_bias(p, still, bias);
            let delta = soft_impulse_scaled(scales, p.normal.mass, vn, bias, p.impulse);
            let total = (p.impulse + sor * delta).max(zero);
            let applied = total - p.impulse;
            let max = p.max_impulse.max(total);
            p.normal.apply(a, b, &n, applied);
            if MASKED {
                let here = self.active[j];
                p.impulse = W::select(here, total, p.impulse);
                p.max_impulse = W::select(here, max, p.max_impulse);
                *a = Velocities::select(here, a, &a0);
                *b = Velocities::select(here, b, &b0);
            } else {
                p.impulse = total;
                p.max_impulse = max;
            }
        }
    }

    /// The soft step's last pass: points with restitution that were hit faster than
    /// `threshold` and carried load in the iterations bounce with `v_n = −e v_n(before)`.
    #[inline(always)]
    fn restitution(&mut self, a: &mut Velocities<W>, b: &mut Velocities<W>, threshold: f64) {
        let zero = W::ZERO;
        let (n, e) = (self.normal, self.restitution);
        let bouncy = W::not(e.eq(zero));
        if !W::any(bouncy) {
            return;
        }
        let rigid = scales(Softness::RIGID);
        for j in 0..self.count() {
            let p = &mut self.points[j];
            let slow = p.approach.gt(W::splat(-threshold));
            let hit = W::and(W::not(W::or(slow, p.max_impulse.eq(zero))), bouncy);
            let on = W::and(hit, self.active[j]);
            if !W::any(on) {
                continue;
            }
            let (a0, b0) = (*a, *b);
            let vn = p.normal.velocity(a, b, &n);
            let bounce = e * p.approach;
            let delta = soft_impulse_scaled(rigid, p.normal.mass, vn, bounce, p.impulse);
            let total = (p.impulse + delta).max(zero);
            p.normal.apply(a, b, &n, total - p.impulse);
            p.impulse = W::select(on, total, p.impulse);
            *a = Velocities::select(on, a, &a0);
            *b = Velocities::select(on, b, &b0);
        }
    }
}
