//! The contact rows' passes eight manifolds at a time, in SIMD slots, as rapier solves
//! four constraints at once [rapier]: the rows of one colour touch disjoint moving
//! bodies, so several of them can be gathered into structure-of-arrays slots, solved
//! together by the [`kernel`](super::kernel) and scattered back. The kernel is the one
//! that solves a row alone, on a [`RowWide`] instead of a [`RowReal`], so eight rows in slots
//! end bitwise as each would alone (the rows one at a time stay the reference the tests
//! compare with, and solve the overflow colour and the rows left over in a colour).
//!
//! The slots are packed from the rows once a step, in the prepare stage
//! ([`Groups::pack`]); from then on each grouped row lives in its slot: the slots are
//! moved with the bodies ([`refresh`]) and hold the accumulated impulses until
//! [`Groups::store`] hands them to the manifolds.

use std::ops::Range;

use glam::DVec3;

use super::body::SolverBody;
use super::colouring::Colours;
use super::contact_rows::ContactRows;
use super::kernel::{RowPass, Rows, Velocities, WideV3};
use super::parallel::{self, ColourItems, EachRow, Items, Shared};
use super::refresh::{self, Anchor, Anchors, End, MatrixPose};
use super::wide::{Real, RowReal, RowWide, WIDTH, slots, xyz};
use crate::collision::Contact;
use crate::collision::manifold::MAX_POINTS;

/// `WIDTH` manifolds' rows of one colour in groups: slot `l` holds `members[l]`'s.
#[derive(Clone, Copy, Debug, Default)]
struct Group {
    members: [usize; WIDTH],
    a: [usize; WIDTH],
    b: [usize; WIDTH],
    rows: Rows<RowWide>,
    anchors: Anchors<RowWide>,
}

impl Group {
    /// Loads the slots from their rows, just prepared (so all in the same point order):
    /// all but what [`refresh`] makes of the anchors.
    #[inline(always)]
    fn load(&mut self, r: [&ContactRows; WIDTH]) {
        let first = &r[0].rows;
        debug_assert!(
            r.iter().all(|r| r.rows.flip == first.flip),
            "one point order"
        );
        (self.rows.flip, self.rows.len, self.rows.mixed) = (first.flip, first.len, false);
        for (l, r) in r.iter().enumerate() {
            self.load_slot(l, r);
        }
        // The slots of points a slot lacks take what its row holds there: masked out,
        // it changes nothing.
        for j in 0..self.rows.count() {
            let at = &mut self.anchors.points[j];
            let v = |f: fn(&Anchor<RowReal>) -> &WideV3<RowReal>| {
                xyz!(|k| RowWide::gather(|l| f(&r[l].anchors.points[j])[k].into()))
            };
            (at.local_a, at.local_b) = (v(|a| &a.local_a), v(|a| &a.local_b));
            (at.offset_a, at.offset_b) = (v(|a| &a.offset_a), v(|a| &a.offset_b));
            at.base_separation = RowWide::gather(|l| r[l].anchors.points[j].base_separation.into());
        }
    }

    /// Moves the slots' rows with their bodies, as [`ContactRows::refresh`] moves a row.
    #[inline(always)]
    fn refresh(&mut self, bodies: &[SolverBody], matrix_poses: &[MatrixPose], follow: bool) {
        let a = End::gather(bodies, matrix_poses, |l| self.a[l]);
        let b = End::gather(bodies, matrix_poses, |l| self.b[l]);
        let gaps: [DVec3; WIDTH] =
            slots!(|l| matrix_poses[self.b[l]].position - matrix_poses[self.a[l]].position);
        let offset = refresh::offset(&gaps);
        refresh::refresh(&mut self.rows, &self.anchors, (&a, &b), &offset, follow);
    }

    /// What [`Self::load`]'s other parts leave out: slot `l`'s ends, directions,
    /// coefficients, impulses and biases, and the points it lacks.
    fn load_slot(&mut self, l: usize, r: &ContactRows) {
        let (slot, row) = (&mut self.rows, &r.rows);
        slot.mixed |= row.len != slot.len;
        (self.a[l], self.b[l]) = (r.a, r.b);
        for k in 0..3 {
            slot.normal[k].set_slot(l, row.normal[k].into());
            slot.tangents[0][k].set_slot(l, row.tangents[0][k].into());
            slot.tangents[1][k].set_slot(l, row.tangents[1][k].into());
        }
        slot.mu.set_slot(l, row.mu.into());
        slot.restitution.set_slot(l, row.restitution.into());
        for k in 0..2 {
            slot.friction_impulse[k].set_slot(l, row.friction_impulse[k].into());
        }
        slot.twist_impulse.set_slot(l, row.twist_impulse.into());
        for (j, (point, from)) in slot.points.iter_mut().zip(&row.points).enumerate() {
            let here = j < row.len;
            RowWide::set_mask(&mut slot.active[j], l, here);
            // A point a slot lacks has the impulse −0, which adds nothing to the
            // load's sum, not even a zero's sign.
            point.bias.set_slot(l, from.bias.into());
            point
                .impulse
                .set_slot(l, if here { from.impulse.into() } else { -0.0 });
            point.max_impulse.set_slot(l, from.max_impulse.into());
            point.approach.set_slot(l, from.approach.into());
        }
    }

    /// Hands each slot's accumulated impulses to its contact's manifold.
    ///
    /// # Safety
    /// No other thread uses these rows' contacts now (`contacts` reaches `len` items).
    unsafe fn store(&self, rows: &[ContactRows], contacts: &Items<Contact>, len: usize) {
        for (l, &i) in self.members.iter().enumerate() {
            let c = rows[i].contact;
            assert!(c < len, "a row's contact is in the graph");
            // SAFETY: in bounds, and the caller's promise.
            self.rows.store(l, &mut unsafe { contacts.at(c) }.manifold);
        }
    }

    /// The pass on the group's rows, on the bodies they share with no other row running
    /// now.
    ///
    /// # Safety
    /// No other row that runs at the same time has a moving body of these rows.
    #[inline(always)]
    unsafe fn run_on(&mut self, bodies: &Shared, pass: RowPass) {
        let ends = self.a.iter().chain(&self.b).copied();
        assert!(bodies.holds(ends), "a group's bodies");
        // SAFETY: the caller's promise, the ends in bounds; the borrows end before the
        // writes.
        unsafe {
            let start = (
                Velocities::<RowWide>::gather_from(|l| bodies.get(self.a[l])),
                Velocities::<RowWide>::gather_from(|l| bodies.get(self.b[l])),
            );
            let (mut a, mut b) = start;
            self.rows.run(&mut a, &mut b, pass);
            // Each slot read out at a constant index, which the processor takes from the
            // register (a slot picked by a loop's counter went through memory: a store
            // and a reload that waited on it, a fifth of the kernel's time).
            let changed_a: [_; WIDTH] = slots!(|l| a.change(l, &start.0));
            let changed_b: [_; WIDTH] = slots!(|l| b.change(l, &start.1));
            for l in 0..WIDTH {
                bodies.add(self.a[l], changed_a[l]);
                bodies.add(self.b[l], changed_b[l]);
            }
        }
    }
}

/// Which code solves the groups: one compiled for AVX-512 or for AVX2 where the
/// processor has it (chosen at run time; the build targets baseline x86-64), else the
/// baseline one. The groups stay eight slots of `f32` either way; what AVX-512 (its VL
/// part) brings is 32 vector registers instead of 16, which the eight slots' four
/// points spilled to the stack (the forming 1,000-box pile's step 4% faster). Each is
/// the same code on the same numbers, with no fused multiply-add (Rust fuses none it is
/// not told to), so every kernel gives the same bits.
#[derive(Clone, Copy)]
enum Kernel {
    Baseline,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

impl Kernel {
    fn detect() -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            if has!("avx2") && has!("avx512f") && has!("avx512vl") {
                return Self::Avx512;
            }
            if has!("avx2") {
                return Self::Avx2;
            }
        }
        Self::Baseline
    }

    /// Loads `group` from its rows `r` (slot `l` from `r[l]`).
    fn load(self, group: &mut Group, r: [&ContactRows; WIDTH]) {
        // SAFETY: each kernel only where the processor has its extensions.
        match self {
            Self::Baseline => group.load(r),
            #[cfg(target_arch = "x86_64")]
            Self::Avx2 => unsafe { avx2::load(group, r) },
            #[cfg(target_arch = "x86_64")]
            Self::Avx512 => unsafe { avx512::load(group, r) },
        }
    }

    /// Moves `group`'s rows with their bodies.
    fn refresh(
        self,
        group: &mut Group,
        bodies: &[SolverBody],
        matrix_poses: &[MatrixPose],
        follow: bool,
    ) {
        let at = (bodies, matrix_poses, follow);
        // SAFETY: each kernel only where the processor has its extensions.
        match self {
            Self::Baseline => group.refresh(at.0, at.1, at.2),
            #[cfg(target_arch = "x86_64")]
            Self::Avx2 => unsafe { avx2::refresh(group, at) },
            #[cfg(target_arch = "x86_64")]
            Self::Avx512 => unsafe { avx512::refresh(group, at) },
        }
    }

    /// # Safety
    /// As [`Group::run_on`].
    #[inline]
    unsafe fn run(self, group: &mut Group, bodies: &Shared, pass: RowPass) {
        // SAFETY: the caller's promise; each kernel only where the processor has its
        // extensions.
        unsafe {
            match self {
                Self::Baseline => group.run_on(bodies, pass),
                #[cfg(target_arch = "x86_64")]
                Self::Avx2 => avx2::run(group, bodies, pass),
                #[cfg(target_arch = "x86_64")]
                Self::Avx512 => avx512::run(group, bodies, pass),
            }
        }
    }
}

/// [`Group::load`], [`Group::refresh`] and [`Group::run_on`] compiled for the
/// processor extensions `$features`, in module `$name`.
macro_rules! kernel {
    ($name:ident, $features:literal) => {
        #[cfg(target_arch = "x86_64")]
        mod $name {
            use super::*;

            /// # Safety
            /// The processor has the module's extensions.
            #[target_feature(enable = $features)]
            pub(super) unsafe fn load(group: &mut Group, r: [&ContactRows; WIDTH]) {
                group.load(r);
            }

            /// # Safety
            /// The processor has the module's extensions.
            #[target_feature(enable = $features)]
            pub(super) unsafe fn refresh(
                group: &mut Group,
                (bodies, matrix_poses, follow): (&[SolverBody], &[MatrixPose], bool),
            ) {
                group.refresh(bodies, matrix_poses, follow);
            }

            /// # Safety
            /// As [`Group::run_on`], on a processor with the module's extensions.
            #[target_feature(enable = $features)]
            pub(super) unsafe fn run(group: &mut Group, bodies: &Shared, pass: RowPass) {
                // SAFETY: the caller's promise.
                unsafe { group.run_on(bodies, pass) }
            }
        }
    };
}

kernel!(avx2, "avx2");
kernel!(avx512, "avx2,avx512f,avx512vl");

/// Where a colour's rows are: its groups, and the rows left over.
#[derive(Clone, Debug, Default)]
struct Plan {
    groups: Range<usize>,
    rest: Range<usize>,
}

/// The contact rows of a step packed into slots, colour by colour, with the scalar rows
/// they leave over. From the pack, a row in a group lives in its slot (which holds its
/// impulses and is moved with its bodies) and is not read again from the rows; a row
/// left over lives in the rows.
#[derive(Clone, Debug, Default)]
pub struct Groups {
    /// Solve every row on the scalar path, the reference (for the tests).
    pub scalar: bool,
    groups: Vec<Group>,
    /// Each colour's groups and left-over rows (indices into the rows).
    plans: Vec<Plan>,
    rest: Vec<usize>,
    /// Scratch of the plan: a colour's rows in order of their point order and count.
    order: Vec<usize>,
    /// The rows in no group (the colours' left-over rows and the rows of colours that
    /// are not independent), listed by the plan.
    loose: Vec<usize>,
    /// Whether the rows were planned into groups (not for the scalar reference).
    planned: bool,
    solved: u64,
}

impl Groups {
    /// How many rows the slots have solved or warm-started since they were made, once
    /// per row and pass.
    pub fn rows_solved(&self) -> u64 {
        self.solved
    }

    /// Whether the rows live in slots (the plan has been made, and not for the scalar
    /// reference).
    fn grouped(&self) -> bool {
        self.planned && !self.scalar
    }

    /// Hands every row's accumulated impulses to its contact's manifold, for the next
    /// step's warm start: from the slots, and from the rows left over.
    ///
    /// The groups store on the stage's team. Written one after another, the stores into
    /// manifolds all over the graph were 3% of a two-thread step that the second thread
    /// spent waiting.
    ///
    /// # Safety
    /// Each row is of its own contact: no two rows name one (a step lists each contact
    /// once, `StepState::list_jobs`), so no two groups write one manifold.
    pub unsafe fn store(&self, rows: &[ContactRows], contacts: &mut [Contact]) {
        debug_assert!(
            {
                let mut named: Vec<usize> = rows.iter().map(|r| r.contact).collect();
                named.sort_unstable();
                named.windows(2).all(|w| w[0] != w[1])
            },
            "a contact named by two rows"
        );
        if !self.grouped() {
            rows.iter()
                .for_each(|r| r.store(&mut contacts[r.contact].manifold));
            return;
        }
        for &i in &self.loose {
            rows[i].store(&mut contacts[rows[i].contact].manifold);
        }
        let (len, at) = (contacts.len(), Items(contacts.as_mut_ptr()));
        // SAFETY: each group's rows are of contacts no other group's are (the caller's
        // promise, and a row is in one group: the plan splits each colour's rows).
        parallel::for_each(self.groups.len(), |g| unsafe {
            self.groups[g].store(rows, &at, len)
        });
    }

    /// Groups each independent colour's rows `WIDTH` at a time, most points first, so
    /// that only the last groups have slots with fewer points than others.
    fn plan(&mut self, rows: &[ContactRows], colours: &Colours) {
        let mut planned = 0;
        self.plans.clear();
        self.rest.clear();
        for (k, range) in colours.ranges.iter().enumerate() {
            let (g, r) = (planned, self.rest.len());
            if colours.independent(k) {
                // A counting sort by number of points, from the most.
                const KEYS: usize = MAX_POINTS + 1;
                let key = |r: &ContactRows| MAX_POINTS.saturating_sub(r.rows.len);
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
                // `WIDTH` at a time.
                let mut group = [0; WIDTH];
                let mut filled = 0;
                for &i in &self.order {
                    group[filled] = i;
                    filled += 1;
                    if filled == WIDTH {
                        // The groups of earlier steps are reused: the pack's load
                        // and move set every field the passes read.
                        if planned == self.groups.len() {
                            self.groups.push(Group::default());
                        }
                        self.groups[planned].members = group;
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

    /// Packs the rows of a step, prepared, into slots, and moves every row to its
    /// bodies (`follow`), which makes their Jacobians: each group's in its slots, loaded
    /// and moved at once while they are in cache.
    pub fn pack(
        &mut self,
        rows: &mut [ContactRows],
        colours: &Colours,
        bodies: &[SolverBody],
        matrix_poses: &[MatrixPose],
    ) {
        if self.scalar {
            // Every row is moved where it lies.
            return self.refresh(rows, bodies, matrix_poses, true);
        }
        let kernel = Kernel::detect();
        self.plan(rows, colours);
        let shared: &[ContactRows] = rows;
        parallel::for_each_indexed(&mut self.groups, |_, g| {
            let r = g.members;
            kernel.load(g, slots!(|l| &shared[r[l]]));
            kernel.refresh(g, bodies, matrix_poses, true);
        });
        self.refresh_loose(rows, bodies, matrix_poses, true);
    }

    /// Plans the groups and loads their rows into the slots (the pack without the move).
    #[cfg(test)]
    fn load(&mut self, rows: &[ContactRows], colours: &Colours, kernel: Kernel) {
        self.plan(rows, colours);
        parallel::for_each_indexed(&mut self.groups, |_, g| {
            let r = g.members;
            kernel.load(g, slots!(|l| &rows[r[l]]));
        });
    }

    /// Moves the rows with the bodies: each group's in its slots, the others where
    /// they lie.
    pub fn refresh(
        &mut self,
        rows: &mut [ContactRows],
        bodies: &[SolverBody],
        matrix_poses: &[MatrixPose],
        follow: bool,
    ) {
        if !self.grouped() {
            parallel::for_each_indexed(rows, |_, r| r.refresh(bodies, matrix_poses, follow));
            return;
        }
        let kernel = Kernel::detect();
        parallel::for_each_indexed(&mut self.groups, |_, g| {
            kernel.refresh(g, bodies, matrix_poses, follow)
        });
        self.refresh_loose(rows, bodies, matrix_poses, follow);
    }

    /// Moves the rows in no group with their bodies, where they lie.
    fn refresh_loose(
        &mut self,
        rows: &mut [ContactRows],
        bodies: &[SolverBody],
        matrix_poses: &[MatrixPose],
        follow: bool,
    ) {
        let each = Items(rows.as_mut_ptr());
        // SAFETY: the loose rows are each listed once.
        parallel::for_each_indexed(&mut self.loose, |_, &mut i| {
            unsafe { each.at(i) }.refresh(bodies, matrix_poses, follow)
        });
    }

    /// A pass of the kernel over every row.
    pub fn run(
        &mut self,
        rows: &mut [ContactRows],
        colours: &Colours,
        bodies: &mut [SolverBody],
        moving: &[bool],
        pass: RowPass,
    ) {
        let kernel = Kernel::detect();
        self.pass(kernel, rows, colours, bodies, moving, pass);
    }

    /// A pass over the rows, colour by colour: each independent colour's groups in
    /// slots and its left-over rows one at a time (on the team, if it has enough rows),
    /// then the overflow one row after another.
    fn pass(
        &mut self,
        kernel: Kernel,
        rows: &mut [ContactRows],
        colours: &Colours,
        bodies: &mut [SolverBody],
        moving: &[bool],
        pass: RowPass,
    ) {
        let f =
            move |r: &mut ContactRows, a: &mut SolverBody, b: &mut SolverBody| r.run(a, b, pass);
        if !self.grouped() {
            parallel::by_colour(colours, bodies, moving, &mut EachRow::new(rows, f));
            return;
        }
        let mut slotted = Slotted {
            kernel,
            pass,
            plans: &self.plans,
            rest: &self.rest,
            groups: &mut self.groups,
            rows,
            f,
            solved: &mut self.solved,
            at: (Items(std::ptr::null_mut()), Items(std::ptr::null_mut())),
        };
        parallel::by_colour(colours, bodies, moving, &mut slotted);
    }
}

/// A pass's items of each colour: its groups in slots, then its rows left over, each on
/// copies of its bodies, on the team or not.
struct Slotted<'p, F> {
    kernel: Kernel,
    pass: RowPass,
    plans: &'p [Plan],
    rest: &'p [usize],
    groups: &'p mut [Group],
    rows: &'p mut [ContactRows],
    /// The pass on a row left over.
    f: F,
    solved: &'p mut u64,
    /// The groups of the colour readied last, and the rows.
    at: (Items<Group>, Items<ContactRows>),
}

impl<F> ColourItems for Slotted<'_, F>
where
    F: Fn(&mut ContactRows, &mut SolverBody, &mut SolverBody) + Sync,
{
    const IN_ORDER_ALONE: bool = false;

    fn in_order(&mut self, rows: Range<usize>, bodies: &mut [SolverBody]) {
        parallel::each_in_order(&mut self.rows[rows], bodies, &self.f);
    }

    fn items(&mut self, colour: usize, _: &Range<usize>) -> usize {
        let plan = &self.plans[colour];
        let count = plan.groups.len();
        *self.solved += (count * WIDTH) as u64;
        let groups = &mut self.groups[plan.groups.clone()];
        self.at = (Items(groups.as_mut_ptr()), Items(self.rows.as_mut_ptr()));
        count + plan.rest.len()
    }

    unsafe fn run(&self, colour: usize, rows: &Range<usize>, item: usize, bodies: &Shared) {
        let plan = &self.plans[colour];
        let count = plan.groups.len();
        // SAFETY: the caller's promise; a group is one of the colour's, and a left-over
        // row is one of the colour's rows.
        unsafe {
            if item < count {
                self.kernel.run(self.at.0.at(item), bodies, self.pass);
            } else {
                let r = self.rest[plan.rest.start + item - count];
                assert!(rows.contains(&r), "a left-over row of the colour");
                bodies.run(self.at.1.at(r), &self.f);
            }
        }
    }
}

#[cfg(test)]
impl Kernel {
    /// Every kernel this processor can run.
    fn every() -> Vec<Self> {
        let mut every = vec![Self::Baseline];
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            if has!("avx2") {
                every.push(Self::Avx2);
            }
            if has!("avx2") && has!("avx512f") && has!("avx512vl") {
                every.push(Self::Avx512);
            }
        }
        every
    }
}

#[cfg(test)]
mod tests {
    use glam::{DMat3, DQuat, DVec3};

    use super::*;
    use crate::collision::graph::NONE;
    use crate::collision::manifold::Manifold;
    use crate::collision::pose::Pose;
    use crate::solver::bias::NormalBias;
    use crate::solver::body::pair;
    use crate::solver::kernel::{AxisRow, PointRow};
    use crate::solver::settings::Softness;

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

        /// Often an exact zero of either sign, whose signs the slots must keep.
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
        fn axis(&mut self, b_moves: bool) -> AxisRow<RowReal> {
            let turn_b = self.vector();
            let (ang_a, ang_b, turn_a) = (self.vector(), self.vector(), self.vector());
            AxisRow {
                ang_a: lanes(ang_a),
                ang_b: lanes(ang_b),
                turn_a: lanes(turn_a),
                turn_b: lanes(if b_moves { turn_b } else { DVec3::ZERO }),
                mass: [0.0, self.uniform(0.1, 2.0)][self.below(2)] as RowReal,
            }
        }
    }

    /// `v` in the rows' precision.
    fn lanes(v: DVec3) -> WideV3<RowReal> {
        v.to_array().map(|x| x as RowReal)
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
        // a −0 into +0, where the slots (and the rows on several threads) write nothing.
        bodies.push(SolverBody {
            v: DVec3::new(1.0, 0.0, 0.5),
            w: DVec3::new(0.0, 2.0, 0.0),
            ..SolverBody::STATIC
        });
        let rows = (0..count)
            .map(|i| {
                let b = [2 * i + 1, n, n + 1][rand.below(3)];
                ContactRows {
                    a: 2 * i,
                    b,
                    contact: i,
                    rows: rows(rand, b < n, flip),
                    ..ContactRows::default()
                }
            })
            .collect();
        (rows, bodies)
    }

    /// One manifold's rows: 0 to 4 points, loaded or idle, with garbage in the slots of
    /// the points it lacks; `moves`: whether its second body moves.
    fn rows(rand: &mut Rand, moves: bool, flip: bool) -> Rows<RowReal> {
        let idle = rand.below(3) == 0;
        let len = rand.below(MAX_POINTS + 1);
        let impulse = |rand: &mut Rand| {
            (if idle {
                [0.0, -0.0][rand.below(2)]
            } else {
                rand.impulse()
            }) as RowReal
        };
        let mut rows = Rows::<RowReal> {
            normal: lanes(rand.vector().normalize_or(DVec3::Y)),
            tangents: [lanes(rand.vector()), lanes(rand.vector())],
            mu: [0.6, 0.0, RowReal::NAN, RowReal::INFINITY][rand.below(4)],
            restitution: [0.0, 0.5, 1.0][rand.below(3)],
            len,
            friction: [rand.axis(moves), rand.axis(moves)],
            friction_impulse: [impulse(rand), impulse(rand)],
            twist: rand.axis(moves),
            twist_impulse: impulse(rand),
            twist_radius: [0.0, rand.uniform(0.0, 1.0)][rand.below(2)] as RowReal,
            flip,
            ..Rows::default()
        };
        for (j, p) in rows.points.iter_mut().enumerate() {
            rows.active[j] = j < len;
            *p = if j < len {
                let impulse = impulse(rand);
                PointRow {
                    normal: rand.axis(moves),
                    separation: rand.value() as RowReal,
                    impulse,
                    max_impulse: impulse + rand.impulse() as RowReal,
                    bias: rand.value() as RowReal,
                    approach: rand.value() as RowReal,
                }
            } else {
                let mut normal = rand.axis(true);
                normal.mass = RowReal::NAN;
                PointRow {
                    normal,
                    separation: RowReal::NAN,
                    impulse: rand.value() as RowReal,
                    max_impulse: rand.value() as RowReal,
                    bias: rand.value() as RowReal,
                    approach: RowReal::NAN,
                }
            };
        }
        rows
    }

    /// The slots planned and loaded from `rows` as they are, with the Jacobians and
    /// separations [`refresh`] would make at a pack (the passes' test's rows are
    /// random).
    fn load_rows(groups: &mut Groups, rows: &[ContactRows], colours: &Colours, kernel: Kernel) {
        groups.load(rows, colours, kernel);
        for g in &mut groups.groups {
            let r = slots!(|l| &rows[g.members[l]].rows);
            let slots = &mut g.rows;
            for j in 0..slots.count() {
                let p = &mut slots.points[j];
                p.separation = RowWide::gather(|l| r[l].points[j].separation.into());
                p.normal = AxisRow::gather(|l| &r[l].points[j].normal);
            }
            slots.twist_radius = RowWide::gather(|l| r[l].twist_radius.into());
            for k in 0..2 {
                slots.friction[k] = AxisRow::gather(|l| &r[l].friction[k]);
            }
            slots.twist = AxisRow::gather(|l| &r[l].twist);
        }
    }

    /// A contact whose manifold has `len` points, for the store.
    fn contact_of(len: usize) -> Contact {
        Contact {
            part_a: 0,
            part_b: 0,
            kinematic: NONE,
            manifold: Manifold {
                len,
                ..Manifold::default()
            },
            friction: 0.0,
            restitution: 0.0,
            origin: None,
            stamp: 0,
        }
    }

    /// What the manifolds hold of the impulses, as bits.
    fn manifold_bits(contacts: &[Contact]) -> Vec<u64> {
        (contacts.iter())
            .flat_map(|c| {
                let m = &c.manifold;
                (m.points().iter().map(|p| p.normal_impulse))
                    .chain(m.friction_impulse.to_array())
                    .chain([m.twist_impulse])
                    .map(f64::to_bits)
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// What the slots hold of each grouped row's impulses and point order, into the rows.
    fn read_back(groups: &Groups, rows: &mut [ContactRows]) {
        for g in &groups.groups {
            let slots = &g.rows;
            for (l, &i) in g.members.iter().enumerate() {
                let r = &mut rows[i].rows;
                for (row, slot) in r.points[..r.len].iter_mut().zip(&slots.points) {
                    row.impulse = slot.impulse.slot(l) as RowReal;
                    row.max_impulse = slot.max_impulse.slot(l) as RowReal;
                }
                r.friction_impulse = [0, 1].map(|k| slots.friction_impulse[k].slot(l) as RowReal);
                r.twist_impulse = slots.twist_impulse.slot(l) as RowReal;
                r.flip = slots.flip;
            }
        }
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
                let r = &r.rows;
                r.points[..r.len]
                    .iter()
                    .flat_map(|p| [p.impulse, p.max_impulse])
                    .chain(r.friction_impulse)
                    .chain([r.twist_impulse, RowReal::from(u8::from(r.flip))])
                    .map(|x| f64::from(x).to_bits())
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// The slots' warm start, solve, relax and restitution passes on random rows, and what the
    /// store then hands the manifolds, against the rows' own, bit for bit, with either
    /// kernel: every point count (and groups mixing them), idle friction in some slots of
    /// a group, immovable ends, NaN friction bounds, both point orders, PGS's bias and
    /// the soft step's, and rows left over beyond the last full group.
    #[test]
    fn the_groups_are_bitwise_the_rows_one_at_a_time() {
        let mut rand = Rand(7);
        let (mut solved, mut mixed) = (0, 0);
        for trial in 0..200 {
            let count = 3 * WIDTH + rand.below(WIDTH);
            let (rows, bodies) = scene(&mut rand, count, trial % 2 == 1);
            let moving = vec![true; 2 * count];
            let colours = one_colour(count);
            let bias = trial_bias(trial);
            let sor = [1.0, 1.3][rand.below(2)];
            let passes = [RowPass::WarmStart]
                .into_iter()
                .chain([RowPass::Iterate(bias, sor); 3])
                .chain([RowPass::Relax(bias, sor)])
                .chain([RowPass::Restitution(0.5)]);
            let (mut scalar_rows, mut scalar_bodies) = (rows.clone(), bodies.clone());
            for pass in passes.clone() {
                for r in &mut scalar_rows {
                    let (a, b) = pair(&mut scalar_bodies, r.a, r.b);
                    r.run(a, b, pass);
                }
            }
            // Every kernel the processor has.
            for kernel in Kernel::every() {
                let (mut rows, mut bodies) = (rows.clone(), bodies.clone());
                let mut slots = Groups::default();
                load_rows(&mut slots, &rows, &colours, kernel);
                mixed += slots.groups.iter().filter(|g| g.rows.mixed).count();
                for pass in passes.clone() {
                    slots.pass(kernel, &mut rows, &colours, &mut bodies, &moving, pass);
                }
                // What the store hands each manifold, from the slots and the rows left
                // over, against each row's own store.
                let stored = |store: &dyn Fn(&mut [Contact])| {
                    let mut contacts: Vec<Contact> =
                        (rows.iter()).map(|r| contact_of(r.rows.len)).collect();
                    store(&mut contacts);
                    manifold_bits(&contacts)
                };
                // SAFETY: row `i` is of contact `i` (`contact_of`, one per row).
                let from_slots = stored(&|c| unsafe { slots.store(&rows, c) });
                let alone = stored(&|c| {
                    scalar_rows
                        .iter()
                        .for_each(|r| r.store(&mut c[r.contact].manifold))
                });
                assert!(
                    from_slots == alone,
                    "trial {trial}: the stored impulses differ"
                );
                read_back(&slots, &mut rows);
                solved += slots.rows_solved();
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
        // At least 3 full groups a trial, in 5 passes, with each kernel.
        assert!(
            solved >= 2 * 200 * 5 * 3 * WIDTH as u64,
            "the slots solved {solved} rows"
        );
        assert!(mixed > 0, "no group mixed point counts");
    }

    /// The normal rows' bias of trial `trial`, in turn: PGS's, the soft step's, and the
    /// soft step's with rigid contacts.
    fn trial_bias(trial: usize) -> NormalBias {
        let h = 1.0 / 240.0;
        [
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
        ][trial % 3]
    }

    /// `count` rows of one independent colour, as [`scene`] makes them.
    fn one_colour(count: usize) -> Colours {
        Colours {
            ranges: std::iter::once(0..count).collect(),
            overflow: false,
        }
    }

    /// What a move leaves in slot `l` of `rows` (of `len` points), as bits: the
    /// separations, the Jacobians and the twist's lever.
    fn moved_bits<W: Real>(rows: &Rows<W>, l: usize, len: usize) -> Vec<u64> {
        let axis = |a: &AxisRow<W>| {
            let v = [a.ang_a, a.ang_b, a.turn_a, a.turn_b];
            let parts = v.into_iter().flatten().chain([a.mass]);
            parts.map(|x| x.slot(l).to_bits()).collect::<Vec<_>>()
        };
        let mut bits = Vec::new();
        for p in &rows.points[..len] {
            bits.push(p.separation.slot(l).to_bits());
            bits.extend(axis(&p.normal));
        }
        for k in 0..2 {
            bits.extend(axis(&rows.friction[k]));
        }
        bits.extend(axis(&rows.twist));
        bits.push(rows.twist_radius.slot(l).to_bits());
        bits
    }

    /// Rows moved with their bodies in slots against each moved alone, bit for bit, with
    /// either kernel: random poses, inertias and anchors, every point count (and groups
    /// mixing them, with NaN in the points a row lacks), ends that are static or
    /// kinematic, anchors that follow the bodies and anchors that do not.
    #[test]
    fn the_groups_move_bitwise_as_the_rows_one_at_a_time() {
        let mut rand = Rand(11);
        let (mut moved, mut mixed) = (0, 0);
        for trial in 0..100 {
            let count = 3 * WIDTH + rand.below(WIDTH);
            let (mut rows, mut bodies) = scene(&mut rand, count, false);
            for b in &mut bodies[..2 * count] {
                b.inv_inertia = DMat3::from_cols(rand.vector(), rand.vector(), rand.vector());
            }
            for r in &mut rows {
                for (j, at) in r.anchors.points.iter_mut().enumerate() {
                    let garbage = if j < r.rows.len { 0.0 } else { f64::NAN };
                    let mut v = || lanes(rand.vector() + DVec3::splat(garbage));
                    (at.local_a, at.local_b, at.offset_a, at.offset_b) = (v(), v(), v(), v());
                    at.base_separation = (rand.value() + garbage) as RowReal;
                }
            }
            // Packed at some poses, then moved to others.
            let mut matrix_poses = || -> Vec<MatrixPose> {
                (0..bodies.len())
                    .map(|_| {
                        let axis = rand.vector().normalize_or(DVec3::X);
                        let turn = DQuat::from_axis_angle(axis, rand.uniform(-3.0, 3.0));
                        let pose = Pose {
                            position: rand.vector(),
                            orientation: turn,
                        };
                        MatrixPose::of(&pose)
                    })
                    .collect()
            };
            let (packed, matrix_poses) = (matrix_poses(), matrix_poses());
            let follow = trial % 2 == 0;
            let mut alone = rows.clone();
            for r in &mut alone {
                r.refresh(&bodies, &packed, true);
                r.refresh(&bodies, &matrix_poses, follow);
            }
            let colours = one_colour(count);
            for kernel in Kernel::every() {
                let (mut rows, mut slots) = (rows.clone(), Groups::default());
                slots.load(&rows, &colours, kernel);
                mixed += slots.groups.iter().filter(|g| g.rows.mixed).count();
                for g in &mut slots.groups {
                    kernel.refresh(g, &bodies, &packed, true);
                    kernel.refresh(g, &bodies, &matrix_poses, follow);
                    for (l, &i) in g.members.iter().enumerate() {
                        let (r, len) = (&alone[i], alone[i].rows.len);
                        assert!(
                            moved_bits(&g.rows, l, len) == moved_bits(&r.rows, 0, len),
                            "trial {trial}: row {i} moved otherwise in its slot"
                        );
                        moved += 1;
                    }
                }
                for &i in &slots.loose {
                    rows[i].refresh(&bodies, &packed, true);
                    rows[i].refresh(&bodies, &matrix_poses, follow);
                    let len = rows[i].rows.len;
                    assert!(
                        moved_bits(&rows[i].rows, 0, len) == moved_bits(&alone[i].rows, 0, len),
                        "trial {trial}: left-over row {i} moved otherwise"
                    );
                }
            }
        }
        // At least 3 full groups a trial, with each kernel.
        assert!(moved >= 2 * 100 * 3 * WIDTH, "the slots moved {moved} rows");
        assert!(mixed > 0, "no group mixed point counts");
    }
}
