//! The contact rows' solve and warm-start passes eight manifolds at a time, in SIMD
//! lanes, as rapier solves four constraints at once [rapier]: the rows of one colour
//! touch disjoint moving bodies, so several of them can be gathered into
//! structure-of-arrays lanes, solved together and scattered back. Each lane runs exactly
//! the operations of [`ContactRows::solve`] (or `warm_start`), in the same order, and Rust
//! never fuses a multiply and an add, so the result is bitwise that of the rows one at a
//! time (the scalar pass stays the reference the tests compare with, and solves the
//! overflow colour and the rows left over in a colour).
//!
//! Why eight lanes, two AVX registers of four: a manifold's rows are a chain of
//! Gauss-Seidel updates, each waiting on the last one's velocities, and with four lanes
//! the processor mostly waited on the chain: the kernel took 79% of the scalar rows'
//! time on the 1,000-box pile (profiles, each pass's share over the rows' refresh);
//! eight lanes, two independent chains side by side, took 49%; twelve 57% and sixteen
//! 59%, their spills outweighing the overlap.
//!
//! The lanes are packed from the rows when a pass first needs them after the rows were
//! prepared or moved (once per solver sub-step), and they hold the accumulated impulses
//! from then until [`Lanes::write_back`] hands them to the rows, before restitution and
//! the store read them.

use std::ops::{Add, Div, Mul, Neg, Range, Sub};

use glam::DVec3;

use super::colouring::Colours;
use super::manifold::MAX_POINTS;
use super::parallel::{self, Ends, Items, PARALLEL_ROWS, Shared};
use super::settings::Softness;
use super::solver::{Axis, ContactRows, NormalBias, Pose, SolverBody, pair};
use super::team;

/// Manifolds solved at once (see the module's docs).
const WIDTH: usize = 8;

/// `[e(0), e(1), …, e(WIDTH − 1)]` for an expression `e` of the lane `$l`, written out so
/// that the kernel has no closure and no loop to vectorise.
macro_rules! lanes {
    (|$l:ident| $e:expr) => {
        [
            {
                let $l = 0;
                $e
            },
            {
                let $l = 1;
                $e
            },
            {
                let $l = 2;
                $e
            },
            {
                let $l = 3;
                $e
            },
            {
                let $l = 4;
                $e
            },
            {
                let $l = 5;
                $e
            },
            {
                let $l = 6;
                $e
            },
            {
                let $l = 7;
                $e
            },
        ]
    };
}

/// `[e(0), e(1), e(2)]` for an expression `e` of the axis `$k`, written out: `array::map`
/// is a call that does not inherit the kernel's instruction set.
macro_rules! xyz {
    (|$k:ident| $e:expr) => {
        [
            {
                let $k = 0;
                $e
            },
            {
                let $k = 1;
                $e
            },
            {
                let $k = 2;
                $e
            },
        ]
    };
}

/// One `f64` per lane; every operation is the scalar one, lane by lane.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
struct Wide([f64; WIDTH]);

/// A lane mask: all bits set in the lanes where a condition holds.
#[derive(Clone, Copy, Debug, Default)]
struct Mask([u64; WIDTH]);

impl Wide {
    const ZERO: Self = Self([0.0; WIDTH]);

    #[inline(always)]
    fn splat(x: f64) -> Self {
        Self([x; WIDTH])
    }

    /// `f64::max`, not `maxpd`: a NaN bound gives way to the other operand.
    #[inline(always)]
    fn max(self, o: Self) -> Self {
        Self(lanes!(|l| self.0[l].max(o.0[l])))
    }

    #[inline(always)]
    fn min(self, o: Self) -> Self {
        Self(lanes!(|l| self.0[l].min(o.0[l])))
    }

    #[inline(always)]
    fn sqrt(self) -> Self {
        Self(lanes!(|l| self.0[l].sqrt()))
    }

    #[inline(always)]
    fn gt(self, o: Self) -> Mask {
        Mask(lanes!(|l| if self.0[l] > o.0[l] { !0 } else { 0 }))
    }

    #[inline(always)]
    fn eq(self, o: Self) -> Mask {
        Mask(lanes!(|l| if self.0[l] == o.0[l] { !0 } else { 0 }))
    }

    /// `yes` in the lanes of `m`, `no` in the others, bit for bit.
    #[inline(always)]
    fn select(m: Mask, yes: Self, no: Self) -> Self {
        Self(lanes!(|l| f64::from_bits(
            (yes.0[l].to_bits() & m.0[l]) | (no.0[l].to_bits() & !m.0[l])
        )))
    }
}

macro_rules! lanewise {
    ($trait:ident, $f:ident, $op:tt) => {
        impl $trait for Wide {
            type Output = Wide;
            #[inline(always)]
            fn $f(self, o: Wide) -> Wide {
                Wide(lanes!(|l| self.0[l] $op o.0[l]))
            }
        }
    };
}
lanewise!(Add, add, +);
lanewise!(Sub, sub, -);
lanewise!(Mul, mul, *);
lanewise!(Div, div, /);

impl Neg for Wide {
    type Output = Wide;
    #[inline(always)]
    fn neg(self) -> Wide {
        Wide(lanes!(|l| -self.0[l]))
    }
}

impl Mask {
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        Self(lanes!(|l| self.0[l] & o.0[l]))
    }

    #[inline(always)]
    fn or(self, o: Self) -> Self {
        Self(lanes!(|l| self.0[l] | o.0[l]))
    }

    #[inline(always)]
    fn all(self) -> bool {
        self.0.iter().all(|&m| m != 0)
    }

    #[inline(always)]
    fn any(self) -> bool {
        self.0.iter().any(|&m| m != 0)
    }
}

/// A vector per lane.
type V3 = [Wide; 3];

/// `DVec3::dot`'s order: `(x x' + y y') + z z'`.
#[inline(always)]
fn dot(a: &V3, b: &V3) -> Wide {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

#[inline(always)]
fn select3(m: Mask, yes: &V3, no: &V3) -> V3 {
    xyz!(|k| Wide::select(m, yes[k], no[k]))
}

/// The velocities of one end of each lane's rows, and its inverse mass.
#[derive(Clone, Copy)]
struct WideEnds {
    v: V3,
    w: V3,
    inv_mass: Wide,
}

impl WideEnds {
    /// Copies of the bodies `ends`.
    ///
    /// # Safety
    /// As [`Shared::read`] for every end.
    #[inline(always)]
    unsafe fn gather(bodies: &Shared, ends: &[usize; WIDTH]) -> Self {
        // SAFETY: the caller's promise.
        let b: [SolverBody; WIDTH] = lanes!(|l| unsafe { bodies.read(ends[l]) });
        Self {
            v: xyz!(|k| Wide(lanes!(|l| b[l].v[k]))),
            w: xyz!(|k| Wide(lanes!(|l| b[l].w[k]))),
            inv_mass: Wide(lanes!(|l| b[l].inv_mass)),
        }
    }

    /// Writes the velocities back to the moving bodies among `ends`.
    ///
    /// # Safety
    /// As [`Shared::write`] for every end.
    #[inline(always)]
    unsafe fn scatter(&self, bodies: &Shared, ends: &[usize; WIDTH]) {
        for (l, &i) in ends.iter().enumerate() {
            let body = SolverBody {
                v: DVec3::new(self.v[0].0[l], self.v[1].0[l], self.v[2].0[l]),
                w: DVec3::new(self.w[0].0[l], self.w[1].0[l], self.w[2].0[l]),
                ..SolverBody::STATIC
            };
            // SAFETY: the caller's promise.
            unsafe { bodies.write(i, &body) };
        }
    }

    #[inline(always)]
    fn select(m: Mask, yes: &Self, no: &Self) -> Self {
        Self {
            v: select3(m, &yes.v, &no.v),
            w: select3(m, &yes.w, &no.w),
            inv_mass: no.inv_mass,
        }
    }
}

/// [`Axis`] in lanes.
#[derive(Clone, Copy, Debug, Default)]
struct WideAxis {
    ang_a: V3,
    ang_b: V3,
    turn_a: V3,
    turn_b: V3,
    mass: Wide,
}

impl WideAxis {
    /// The lanes' axes, a field at a time (a vector's worth of stores each).
    #[inline(always)]
    fn load(axes: [&Axis; WIDTH]) -> Self {
        Self {
            ang_a: xyz!(|k| Wide(lanes!(|l| axes[l].ang_a[k]))),
            ang_b: xyz!(|k| Wide(lanes!(|l| axes[l].ang_b[k]))),
            turn_a: xyz!(|k| Wide(lanes!(|l| axes[l].turn_a[k]))),
            turn_b: xyz!(|k| Wide(lanes!(|l| axes[l].turn_b[k]))),
            mass: Wide(lanes!(|l| axes[l].mass)),
        }
    }

    /// `Axis::velocity`.
    #[inline(always)]
    fn velocity(&self, a: &WideEnds, b: &WideEnds, d: &V3) -> Wide {
        let dv = xyz!(|k| b.v[k] - a.v[k]);
        dot(d, &dv) + dot(&self.ang_b, &b.w) - dot(&self.ang_a, &a.w)
    }

    /// `Axis::apply`.
    #[inline(always)]
    fn apply(&self, a: &mut WideEnds, b: &mut WideEnds, d: &V3, lambda: Wide) {
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

/// A point's normal row in lanes.
#[derive(Clone, Copy, Debug, Default)]
struct WidePoint {
    normal: WideAxis,
    separation: Wide,
    bias: Wide,
    impulse: Wide,
    max_impulse: Wide,
}

/// What a pack loads into the lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Load {
    /// The separations, all that refresh changes without `follow`.
    Separations,
    /// What [`ContactRows::refresh`] moves (the lanes keep their impulses).
    Moved,
    /// Everything: the rows were prepared.
    All,
}

/// A pass over the rows.
#[derive(Clone, Copy)]
enum Pass {
    /// [`ContactRows::solve`].
    Solve(NormalBias, f64),
    /// [`ContactRows::warm_start`].
    WarmStart,
}

/// `WIDTH` manifolds' rows of one colour in lanes: lane `l` holds `rows[l]`.
#[derive(Clone, Copy, Debug, Default)]
struct Group {
    rows: [usize; WIDTH],
    a: [usize; WIDTH],
    b: [usize; WIDTH],
    normal: V3,
    tangents: [V3; 2],
    mu: Wide,
    twist_radius: Wide,
    friction: [WideAxis; 2],
    friction_impulse: [Wide; 2],
    twist: WideAxis,
    twist_impulse: Wide,
    points: [WidePoint; MAX_POINTS],
    /// The lanes that have point `j`.
    active: [Mask; MAX_POINTS],
    /// Whether the lanes have different numbers of points (then the missing ones are
    /// masked out); if not, how many they have.
    mixed: bool,
    len: usize,
    flip: bool,
}

impl Group {
    /// Loads the lanes from their rows, in the point order of the first (the lanes
    /// cannot follow rows of different orders: the plan keeps them apart): all of
    /// them, or what [`ContactRows::refresh`] changed.
    #[inline(always)]
    fn load(&mut self, r: [&ContactRows; WIDTH], what: Load) {
        if what == Load::All {
            (self.flip, self.len, self.mixed) = (r[0].flip, r[0].len, false);
            for (l, r) in r.iter().enumerate() {
                self.load_lane(l, r);
            }
        }
        // The slots of points a lane lacks take what its row holds there: masked out,
        // it changes nothing.
        for j in 0..self.count() {
            let p = &mut self.points[j];
            p.separation = Wide(lanes!(|l| r[l].points[j].separation));
            if what != Load::Separations {
                p.normal = WideAxis::load(lanes!(|l| &r[l].points[j].normal));
            }
        }
        if what != Load::Separations {
            self.twist_radius = Wide(lanes!(|l| r[l].twist_radius));
            for k in 0..2 {
                self.friction[k] = WideAxis::load(lanes!(|l| &r[l].friction[k]));
            }
            self.twist = WideAxis::load(lanes!(|l| &r[l].twist));
        }
    }

    /// What [`Self::load`]'s other parts leave out: lane `l`'s ends, directions,
    /// impulses and bias, and the points it lacks.
    fn load_lane(&mut self, l: usize, r: &ContactRows) {
        self.mixed |= r.len != self.len;
        (self.a[l], self.b[l]) = (r.a, r.b);
        for k in 0..3 {
            self.normal[k].0[l] = r.normal[k];
            self.tangents[0][k].0[l] = r.tangents[0][k];
            self.tangents[1][k].0[l] = r.tangents[1][k];
        }
        self.mu.0[l] = r.mu;
        for k in 0..2 {
            self.friction_impulse[k].0[l] = r.friction_impulse[k];
        }
        self.twist_impulse.0[l] = r.twist_impulse;
        for (j, (lane, row)) in self.points.iter_mut().zip(&r.points).enumerate() {
            let here = j < r.len;
            self.active[j].0[l] = if here { !0 } else { 0 };
            // A point a lane lacks has the impulse −0, which adds nothing to the
            // load's sum, not even a zero's sign.
            lane.bias.0[l] = row.bias;
            lane.impulse.0[l] = if here { row.normal_impulse } else { -0.0 };
            lane.max_impulse.0[l] = row.max_normal_impulse;
        }
    }

    /// Hands the accumulated impulses and the point order back to the rows.
    fn store(&self, rows: &mut [ContactRows]) {
        for (l, &i) in self.rows.iter().enumerate() {
            let r = &mut rows[i];
            let len = r.len;
            for (row, lane) in r.points[..len].iter_mut().zip(&self.points) {
                row.normal_impulse = lane.impulse.0[l];
                row.max_normal_impulse = lane.max_impulse.0[l];
            }
            r.friction_impulse = [0, 1].map(|k| self.friction_impulse[k].0[l]);
            r.twist_impulse = self.twist_impulse.0[l];
            r.flip = self.flip;
        }
    }

    /// The pass on the group's rows, on the bodies they share with no other row running
    /// now.
    ///
    /// # Safety
    /// No other row that runs at the same time has a moving body of these rows.
    #[inline(always)]
    unsafe fn run_on(&mut self, bodies: &Shared, pass: Pass) {
        // SAFETY: the caller's promise.
        unsafe {
            let mut a = WideEnds::gather(bodies, &self.a);
            let mut b = WideEnds::gather(bodies, &self.b);
            match pass {
                Pass::Solve(bias, sor) => self.solve(&mut a, &mut b, bias, sor),
                Pass::WarmStart => self.warm_start(&mut a, &mut b),
            }
            a.scatter(bodies, &self.a);
            b.scatter(bodies, &self.b);
        }
    }

    /// `ContactRows::warm_start`.
    #[inline(always)]
    fn warm_start(&self, a: &mut WideEnds, b: &mut WideEnds) {
        let n = self.normal;
        for (p, &here) in self.points[..self.count()].iter().zip(&self.active) {
            let (a0, b0) = (*a, *b);
            p.normal.apply(a, b, &n, p.impulse);
            if self.mixed {
                *a = WideEnds::select(here, a, &a0);
                *b = WideEnds::select(here, b, &b0);
            }
        }
        for k in 0..2 {
            self.friction[k].apply(a, b, &self.tangents[k], self.friction_impulse[k]);
        }
        self.twist.apply(a, b, &[Wide::ZERO; 3], self.twist_impulse);
    }

    #[inline(always)]
    fn solve(&mut self, a: &mut WideEnds, b: &mut WideEnds, bias: NormalBias, sor: f64) {
        self.solve_friction(a, b, sor);
        self.flip = !self.flip;
        if self.mixed {
            self.solve_points::<true>(a, b, bias, sor);
        } else {
            self.solve_points::<false>(a, b, bias, sor);
        }
    }

    /// `ContactRows::solve_friction`: in the lanes whose rows have no load and no
    /// friction, the scalar rows change nothing, and neither do the lanes.
    #[inline(always)]
    fn solve_friction(&mut self, a: &mut WideEnds, b: &mut WideEnds, sor: f64) {
        // The start of `Iterator::sum` (−0), which the scalar rows' load starts from.
        let mut load = Wide::splat(std::iter::empty::<f64>().sum());
        for p in &self.points[..self.count()] {
            load = load + p.impulse;
        }
        let old = self.friction_impulse;
        let zero = Wide::ZERO;
        let idle = load
            .eq(zero)
            .and(old[0].eq(zero))
            .and(old[1].eq(zero))
            .and(self.twist_impulse.eq(zero));
        if idle.all() {
            return;
        }
        let (a0, b0) = (*a, *b);
        let sor = Wide::splat(sor);
        let limit = self.mu * load;
        let mut new = [zero; 2];
        for (k, new) in new.iter_mut().enumerate() {
            let vt = self.friction[k].velocity(a, b, &self.tangents[k]);
            *new = old[k] - sor * self.friction[k].mass * vt;
        }
        let len = (new[0] * new[0] + new[1] * new[1]).sqrt();
        let s = Wide::select(len.gt(zero), limit / len, zero);
        let over = len.gt(limit);
        new = [
            Wide::select(over, new[0] * s, new[0]),
            Wide::select(over, new[1] * s, new[1]),
        ];
        for (k, (new, old)) in new.iter().zip(old).enumerate() {
            self.friction[k].apply(a, b, &self.tangents[k], *new - old);
        }
        let still = [zero; 3];
        let spin = self.twist.velocity(a, b, &still);
        let max_twist = limit * self.twist_radius;
        let twist = (self.twist_impulse - sor * self.twist.mass * spin)
            .max(-max_twist)
            .min(max_twist);
        self.twist.apply(a, b, &still, twist - self.twist_impulse);
        if idle.any() {
            *a = WideEnds::select(idle, &a0, a);
            *b = WideEnds::select(idle, &b0, b);
            new = [
                Wide::select(idle, old[0], new[0]),
                Wide::select(idle, old[1], new[1]),
            ];
            self.twist_impulse = Wide::select(idle, self.twist_impulse, twist);
        } else {
            self.twist_impulse = twist;
        }
        self.friction_impulse = new;
    }

    /// The point slots every lane goes through: all of them if some lanes lack some.
    #[inline(always)]
    fn count(&self) -> usize {
        if self.mixed { MAX_POINTS } else { self.len }
    }

    /// The normal rows of `ContactRows::solve`; `MASKED`: the lanes lack some points, whose
    /// slots (the last ones) change nothing. Going through the slots backwards then
    /// meets each lane's points in the rows' reversed order.
    #[inline(always)]
    fn solve_points<const MASKED: bool>(
        &mut self,
        a: &mut WideEnds,
        b: &mut WideEnds,
        bias: NormalBias,
        sor: f64,
    ) {
        let (n, count, flip) = (self.normal, self.count(), self.flip);
        let sor = Wide::splat(sor);
        let rigid = Softness::RIGID;
        // Against a body that does not move (no inverse mass), the stiffer spring.
        let zero = Wide::ZERO;
        let still = a.inv_mass.eq(zero).or(b.inv_mass.eq(zero));
        for i in 0..count {
            let j = if flip { count - 1 - i } else { i };
            let p = &mut self.points[j];
            let (a0, b0) = (*a, *b);
            let vn = p.normal.velocity(a, b, &n);
            let (mass_scale, impulse_scale, bias) = match bias {
                NormalBias::Fixed => (
                    Wide::splat(rigid.mass_scale),
                    Wide::splat(rigid.impulse_scale),
                    p.bias,
                ),
                NormalBias::Soft {
                    softness,
                    static_softness,
                    inv_h,
                    max_push_out,
                } => {
                    let (soft, hard) = (softness, static_softness);
                    let rate = Wide::select(
                        still,
                        Wide::splat(hard.bias_rate),
                        Wide::splat(soft.bias_rate),
                    );
                    let s = p.separation;
                    let ahead = s.gt(Wide::ZERO);
                    let pushed = (rate * s).max(Wide::splat(-max_push_out));
                    (
                        Wide::select(
                            ahead,
                            Wide::splat(rigid.mass_scale),
                            Wide::select(
                                still,
                                Wide::splat(hard.mass_scale),
                                Wide::splat(soft.mass_scale),
                            ),
                        ),
                        Wide::select(
                            ahead,
                            Wide::splat(rigid.impulse_scale),
                            Wide::select(
                                still,
                                Wide::splat(hard.impulse_scale),
                                Wide::splat(soft.impulse_scale),
                            ),
                        ),
                        Wide::select(ahead, s * Wide::splat(inv_h), pushed),
                    )
                }
            };
            // `soft_impulse`, lane by lane.
            let delta = -(p.normal.mass * (vn + bias)) * mass_scale - p.impulse * impulse_scale;
            let total = (p.impulse + sor * delta).max(Wide::ZERO);
            let applied = total - p.impulse;
            let max = p.max_impulse.max(total);
            p.normal.apply(a, b, &n, applied);
            if MASKED {
                let here = self.active[j];
                p.impulse = Wide::select(here, total, p.impulse);
                p.max_impulse = Wide::select(here, max, p.max_impulse);
                *a = WideEnds::select(here, a, &a0);
                *b = WideEnds::select(here, b, &b0);
            } else {
                p.impulse = total;
                p.max_impulse = max;
            }
        }
    }
}

/// Which code solves the groups: one compiled for AVX2 where the processor has it
/// (chosen at run time; the build targets baseline x86-64), else the baseline one.
#[derive(Clone, Copy)]
enum Kernel {
    Baseline,
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

impl Kernel {
    fn detect() -> Self {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            return Self::Avx2;
        }
        Self::Baseline
    }

    /// Loads `group` from its rows `r` (lane `l` from `r[l]`).
    fn load(self, group: &mut Group, r: [&ContactRows; WIDTH], what: Load) {
        match self {
            Self::Baseline => group.load(r, what),
            // SAFETY: `Avx2` only where the processor has AVX2.
            #[cfg(target_arch = "x86_64")]
            Self::Avx2 => unsafe { load_avx2(group, r, what) },
        }
    }

    /// # Safety
    /// As [`Group::run_on`].
    #[inline]
    unsafe fn run(self, group: &mut Group, bodies: &Shared, pass: Pass) {
        // SAFETY: the caller's promise; `Avx2` only where the processor has AVX2.
        unsafe {
            match self {
                Self::Baseline => group.run_on(bodies, pass),
                #[cfg(target_arch = "x86_64")]
                Self::Avx2 => run_avx2(group, bodies, pass),
            }
        }
    }
}

/// [`Group::load`], on a processor with AVX2.
///
/// # Safety
/// The processor has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn load_avx2(group: &mut Group, r: [&ContactRows; WIDTH], what: Load) {
    group.load(r, what);
}

/// # Safety
/// As [`Group::run_on`], on a processor with AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn run_avx2(group: &mut Group, bodies: &Shared, pass: Pass) {
    // SAFETY: the caller's promise.
    unsafe { group.run_on(bodies, pass) }
}

/// Where a colour's rows are: its groups, and the rows left over.
#[derive(Clone, Debug, Default)]
struct Plan {
    groups: Range<usize>,
    rest: Range<usize>,
}

/// The contact rows of a step packed into lanes, colour by colour, with the scalar rows
/// they leave over. The lanes hold their rows' impulses from the first pass after the
/// rows were prepared until [`Self::write_back`].
#[derive(Clone, Debug, Default)]
pub struct Lanes {
    /// Solve every row on the scalar path, the reference (for the tests).
    pub scalar: bool,
    groups: Vec<Group>,
    /// Each colour's groups and left-over rows (indices into the rows).
    plans: Vec<Plan>,
    rest: Vec<usize>,
    /// Scratch of the plan: a colour's rows in order of their point order and count.
    order: Vec<usize>,
    /// The rows in no group (the colours' left-over rows and the rows of colours that
    /// are not independent), listed by the plan for [`Self::refresh`].
    loose: Vec<usize>,
    /// Whether the plan and the lanes are of the current rows and colours.
    planned: bool,
    /// What the rows changed since the lanes were packed.
    stale: Option<Load>,
    /// Whether the groups' impulses are newer than the rows'.
    dirty: bool,
    solved: u64,
}

impl Lanes {
    /// How many rows the lanes have solved or warm-started since they were made, once
    /// per row and pass.
    pub fn rows_solved(&self) -> u64 {
        self.solved
    }

    /// The rows were prepared anew: what the lanes held is of another step.
    pub fn reset(&mut self) {
        self.planned = false;
        self.dirty = false;
    }

    /// The rows moved ([`ContactRows::refresh`] with `follow`): the next pass loads
    /// their new Jacobians and separations, and keeps the impulses of the lanes.
    pub fn moved(&mut self, follow: bool) {
        let what = if follow {
            Load::Moved
        } else {
            Load::Separations
        };
        self.stale = self.stale.max(Some(what));
    }

    /// Hands the impulses the lanes accumulated back to the rows, before restitution
    /// and the store read them there.
    pub fn write_back(&mut self, rows: &mut [ContactRows]) {
        if self.dirty {
            self.dirty = false;
            for g in &self.groups {
                g.store(rows);
            }
        }
    }

    /// Groups each independent colour's rows `WIDTH` at a time: rows with the same point
    /// order, most points first, so that only the last groups have lanes with fewer
    /// points than others.
    fn plan(&mut self, rows: &[ContactRows], colours: &Colours) {
        let mut planned = 0;
        self.plans.clear();
        self.rest.clear();
        for (k, range) in colours.ranges.iter().enumerate() {
            let (g, r) = (planned, self.rest.len());
            if colours.independent(k) {
                // A counting sort by point order, then number of points from the most.
                const KEYS: usize = 2 * (MAX_POINTS + 1);
                let key = |r: &ContactRows| {
                    usize::from(r.flip) * (MAX_POINTS + 1) + MAX_POINTS.saturating_sub(r.len)
                };
                let mut start = [0; KEYS + 1];
                for i in range.clone() {
                    start[key(&rows[i]) + 1] += 1;
                }
                for k in 0..KEYS {
                    start[k + 1] += start[k];
                }
                self.order.clear();
                self.order.resize(range.len(), 0);
                for i in range.clone() {
                    let s = &mut start[key(&rows[i])];
                    self.order[*s] = i;
                    *s += 1;
                }
                // `WIDTH` at a time, a group's rows all of one point order.
                let mut group = [0; WIDTH];
                let mut filled = 0;
                for &i in &self.order {
                    if filled > 0 && rows[group[0]].flip != rows[i].flip {
                        self.rest.extend_from_slice(&group[..filled]);
                        filled = 0;
                    }
                    group[filled] = i;
                    filled += 1;
                    if filled == WIDTH {
                        // The groups of earlier steps are reused: a load of all
                        // sets every field.
                        if planned == self.groups.len() {
                            self.groups.push(Group::default());
                        }
                        self.groups[planned].rows = group;
                        planned += 1;
                        filled = 0;
                    }
                }
                self.rest.extend_from_slice(&group[..filled]);
            }
            self.plans.push(Plan {
                groups: g..planned,
                rest: r..self.rest.len(),
            });
        }
        self.groups.truncate(planned);
        self.loose.clear();
        self.loose.extend_from_slice(&self.rest);
        for (k, range) in colours.ranges.iter().enumerate() {
            if !colours.independent(k) {
                self.loose.extend(range.clone());
            }
        }
        self.planned = true;
    }

    /// Packs what the lanes lack of the rows: all of them after a (new) plan.
    fn pack(&mut self, rows: &[ContactRows], colours: &Colours, kernel: Kernel) {
        let what = if self.planned {
            self.stale
        } else {
            self.plan(rows, colours);
            Some(Load::All)
        };
        if let Some(what) = what {
            parallel::for_each_indexed(&mut self.groups, |_, g| {
                let r = g.rows;
                kernel.load(g, lanes!(|l| &rows[r[l]]), what);
            });
        }
        self.stale = None;
    }

    /// Moves the rows with the bodies ([`ContactRows::refresh`]) and marks the lanes
    /// stale. Once the lanes are planned, each group's rows are moved and loaded into its
    /// lanes at once, while they are in cache: one pass over the rows instead of two.
    pub fn refresh(
        &mut self,
        rows: &mut [ContactRows],
        bodies: &[SolverBody],
        poses: &[Pose],
        follow: bool,
    ) {
        self.moved(follow);
        if self.scalar || !self.planned {
            parallel::for_each_indexed(rows, |_, r| r.refresh(bodies, poses, follow));
            return;
        }
        let what = self.stale.take().unwrap_or(Load::All);
        let kernel = Kernel::detect();
        let each = Items(rows.as_mut_ptr());
        // SAFETY: a row is in one group at most (the plan's groups and left-over rows
        // partition the independent colours), and each chunk takes its own groups.
        parallel::for_each_indexed(&mut self.groups, |_, g| {
            let r = g.rows;
            for &i in &r {
                unsafe { each.at(i) }.refresh(bodies, poses, follow);
            }
            kernel.load(g, lanes!(|l| unsafe { &*each.at(r[l]) }), what);
        });
        // SAFETY: the loose rows are in no group, each listed once.
        parallel::for_each_indexed(&mut self.loose, |_, &mut i| {
            unsafe { each.at(i) }.refresh(bodies, poses, follow)
        });
    }

    /// [`ContactRows::warm_start`] of every row.
    pub fn warm_start(
        &mut self,
        rows: &mut [ContactRows],
        colours: &Colours,
        bodies: &mut [SolverBody],
        moving: &[bool],
    ) {
        let kernel = Kernel::detect();
        self.pass(kernel, rows, colours, bodies, moving, Pass::WarmStart);
    }

    /// One pass of [`ContactRows::solve`] over the rows.
    pub fn solve(
        &mut self,
        rows: &mut [ContactRows],
        colours: &Colours,
        bodies: &mut [SolverBody],
        moving: &[bool],
        bias: NormalBias,
        sor: f64,
    ) {
        let kernel = Kernel::detect();
        self.pass(
            kernel,
            rows,
            colours,
            bodies,
            moving,
            Pass::Solve(bias, sor),
        );
    }

    /// A pass over the rows, colour by colour: each independent colour's groups in
    /// lanes and its left-over rows one at a time (on the team, if it has enough rows),
    /// then the overflow one row after another.
    fn pass(
        &mut self,
        kernel: Kernel,
        rows: &mut [ContactRows],
        colours: &Colours,
        bodies: &mut [SolverBody],
        moving: &[bool],
        pass: Pass,
    ) {
        let f = |r: &mut ContactRows, a: &mut SolverBody, b: &mut SolverBody| match pass {
            Pass::Solve(bias, sor) => r.solve(a, b, bias, sor),
            Pass::WarmStart => r.warm_start(a, b),
        };
        if self.scalar {
            parallel::for_each_row(rows, colours, bodies, moving, f);
            return;
        }
        self.pack(rows, colours, kernel);
        if let Pass::Solve(..) = pass {
            self.dirty = true;
        }
        for (k, range) in colours.ranges.iter().enumerate() {
            if !colours.independent(k) {
                for r in &mut rows[range.clone()] {
                    let (a, b) = r.ends();
                    let (body_a, body_b) = pair(bodies, a, b);
                    f(r, body_a, body_b);
                }
                continue;
            }
            let plan = &self.plans[k];
            let groups = &mut self.groups[plan.groups.clone()];
            let rest = &self.rest[plan.rest.clone()];
            let count = groups.len();
            self.solved += (count * WIDTH) as u64;
            let shared = Shared::new(bodies, moving);
            let (group, row) = (Items(groups.as_mut_ptr()), Items(rows.as_mut_ptr()));
            // SAFETY: the rows of an independent colour share no moving body, each chunk
            // takes its own groups and rows, and a left-over row is one of the colour's.
            let run = |items: Range<usize>| {
                for i in items {
                    unsafe {
                        if i < count {
                            kernel.run(group.at(i), &shared, pass);
                        } else {
                            let r = rest[i - count];
                            assert!(range.contains(&r), "a left-over row of the colour");
                            shared.run(row.at(r), &f);
                        }
                    }
                }
            };
            let items = count + rest.len();
            if !(range.len() >= PARALLEL_ROWS && team::run(items, &run)) {
                run(0..items);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use glam::DVec3;

    use super::*;
    use crate::contact::solver::PointRow;

    /// A small generator: the same rows on every run.
    struct Rand(u64);

    impl Rand {
        fn next(&mut self) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            self.0 >> 11
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }

        fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
            lo + (hi - lo) * (self.next() as f64 / (1u64 << 53) as f64)
        }

        /// Often an exact zero of either sign, whose signs the lanes must keep.
        fn value(&mut self) -> f64 {
            [0.0, -0.0, self.uniform(-2.0, 2.0)][self.below(3)]
        }

        fn vector(&mut self) -> DVec3 {
            DVec3::new(self.value(), self.value(), self.value())
        }

        /// An impulse: none (of either sign) or some.
        fn impulse(&mut self) -> f64 {
            [0.0, -0.0, self.uniform(0.0, 3.0)][self.below(3)]
        }

        /// A row's axis; an immovable second end has no turn.
        fn axis(&mut self, b_moves: bool) -> Axis {
            let turn_b = self.vector();
            Axis {
                ang_a: self.vector(),
                ang_b: self.vector(),
                turn_a: self.vector(),
                turn_b: if b_moves { turn_b } else { DVec3::ZERO },
                mass: [0.0, self.uniform(0.1, 2.0)][self.below(2)],
            }
        }
    }

    /// Rows of one colour between bodies `2i` and `2i + 1`, the static body or a kinematic
    /// one, with 0 to 4 points, loaded or idle (no impulse at all), with NaN and infinite
    /// friction bounds, and garbage (NaN included) in the slots of the points they lack.
    fn scene(rand: &mut Rand, count: usize, flip: bool) -> (Vec<ContactRows>, Vec<SolverBody>) {
        let n = 2 * count;
        let mut bodies: Vec<SolverBody> = (0..n)
            .map(|_| SolverBody {
                v: rand.vector(),
                w: rand.vector(),
                inv_mass: rand.uniform(0.2, 2.0),
                ..SolverBody::STATIC
            })
            .collect();
        bodies.push(SolverBody::STATIC);
        // Without −0: the rows one at a time add zeros to an immovable body, which turn
        // a −0 into +0, where the lanes (and the rows on several threads) write nothing.
        bodies.push(SolverBody {
            v: DVec3::new(1.0, 0.0, 0.5),
            w: DVec3::new(0.0, 2.0, 0.0),
            ..SolverBody::STATIC
        });
        let rows = (0..count)
            .map(|i| {
                let b = [2 * i + 1, n, n + 1][rand.below(3)];
                let moves = b < n;
                let idle = rand.below(3) == 0;
                let len = rand.below(MAX_POINTS + 1);
                let impulse = |rand: &mut Rand| {
                    if idle {
                        [0.0, -0.0][rand.below(2)]
                    } else {
                        rand.impulse()
                    }
                };
                let mut r = ContactRows {
                    a: 2 * i,
                    b,
                    normal: rand.vector().normalize_or(DVec3::Y),
                    tangents: [rand.vector(), rand.vector()],
                    mu: [0.6, 0.0, f64::NAN, f64::INFINITY][rand.below(4)],
                    len,
                    friction: [rand.axis(moves), rand.axis(moves)],
                    friction_impulse: [impulse(rand), impulse(rand)],
                    twist: rand.axis(moves),
                    twist_impulse: impulse(rand),
                    twist_radius: [0.0, rand.uniform(0.0, 1.0)][rand.below(2)],
                    flip,
                    ..ContactRows::default()
                };
                for (j, p) in r.points.iter_mut().enumerate() {
                    *p = if j < len {
                        let normal_impulse = impulse(rand);
                        PointRow {
                            normal: rand.axis(moves),
                            separation: rand.value(),
                            normal_impulse,
                            max_normal_impulse: normal_impulse + rand.impulse(),
                            bias: rand.value(),
                        }
                    } else {
                        PointRow {
                            normal: Axis {
                                mass: f64::NAN,
                                ..rand.axis(true)
                            },
                            separation: f64::NAN,
                            normal_impulse: rand.value(),
                            max_normal_impulse: rand.value(),
                            bias: rand.value(),
                        }
                    };
                }
                r
            })
            .collect();
        (rows, bodies)
    }

    fn body_bits(bodies: &[SolverBody]) -> Vec<u64> {
        bodies
            .iter()
            .flat_map(|b| [b.v.to_array(), b.w.to_array()])
            .flatten()
            .map(f64::to_bits)
            .collect()
    }

    /// What a pass leaves in a row, as bits.
    fn row_bits(rows: &[ContactRows]) -> Vec<u64> {
        rows.iter()
            .flat_map(|r| {
                r.points[..r.len]
                    .iter()
                    .flat_map(|p| [p.normal_impulse, p.max_normal_impulse])
                    .chain(r.friction_impulse)
                    .chain([r.twist_impulse, f64::from(u8::from(r.flip))])
                    .map(f64::to_bits)
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// The lanes' warm start and solve passes on random rows, against the rows' own,
    /// bit for bit, with either kernel: every point count (and groups mixing them), idle friction in some
    /// lanes of a group, immovable ends, NaN friction bounds, both point orders, PGS's
    /// bias and the soft step's, and rows left over beyond the last full group.
    #[test]
    fn the_lanes_are_bitwise_the_rows_one_at_a_time() {
        let mut rand = Rand(7);
        let mut solved = 0;
        for trial in 0..200 {
            let count = 3 * WIDTH + rand.below(WIDTH);
            let (rows, bodies) = scene(&mut rand, count, trial % 2 == 1);
            let moving = vec![true; 2 * count];
            let colours = Colours {
                ranges: std::iter::once(0..count).collect(),
                overflow: false,
            };
            let h = 1.0 / 240.0;
            let bias = [
                NormalBias::Fixed,
                NormalBias::Soft {
                    softness: Softness::new(30.0, 10.0, h),
                    static_softness: Softness::new(60.0, 10.0, h),
                    inv_h: 1.0 / h,
                    max_push_out: 0.5,
                },
                NormalBias::Soft {
                    softness: Softness::RIGID,
                    static_softness: Softness::RIGID,
                    inv_h: 1.0 / h,
                    max_push_out: 0.5,
                },
            ][trial % 3];
            let sor = [1.0, 1.3][rand.below(2)];
            let (mut scalar_rows, mut scalar_bodies) = (rows.clone(), bodies.clone());
            for r in &mut scalar_rows {
                let (a, b) = pair(&mut scalar_bodies, r.a, r.b);
                r.warm_start(a, b);
            }
            for _ in 0..3 {
                for r in &mut scalar_rows {
                    let (a, b) = pair(&mut scalar_bodies, r.a, r.b);
                    r.solve(a, b, bias, sor);
                }
            }
            // The baseline kernel, and the processor's (AVX2, where it has it).
            for kernel in [Kernel::Baseline, Kernel::detect()] {
                let (mut rows, mut bodies) = (rows.clone(), bodies.clone());
                let mut lanes = Lanes::default();
                lanes.pass(
                    kernel,
                    &mut rows,
                    &colours,
                    &mut bodies,
                    &moving,
                    Pass::WarmStart,
                );
                for _ in 0..3 {
                    let pass = Pass::Solve(bias, sor);
                    lanes.pass(kernel, &mut rows, &colours, &mut bodies, &moving, pass);
                }
                lanes.write_back(&mut rows);
                solved += lanes.rows_solved();
                assert!(
                    body_bits(&bodies) == body_bits(&scalar_bodies),
                    "trial {trial}: the bodies differ"
                );
                assert!(
                    row_bits(&rows) == row_bits(&scalar_rows),
                    "trial {trial}: the impulses differ"
                );
            }
        }
        // At least 3 full groups a trial, in 4 passes, with each kernel.
        assert!(
            solved >= 2 * 200 * 4 * 3 * WIDTH as u64,
            "the lanes solved {solved} rows"
        );
    }
}
