//! The parallel loops of a step's stages, shared by the stage's team (`team.rs`):
//! above all the one driver of every pass over the contact rows, colour by colour, each
//! colour's items at once, whatever they are (rows one by one, or rows in SIMD groups and
//! the rows left over): `by_colour` (Box2D v3 solves its graph colours the same way
//! [Catto 2024]).
//!
//! On several threads every row works on copies of its two bodies and writes back only
//! the moving ones (static ends are only read). Within a colour no two rows share a
//! moving body, so a row's update depends on nothing another row of its colour does: the
//! result is bitwise the same on any number of threads, and the same as the rows one
//! after another in the colours' order, which is how one thread runs them (but for the
//! sign of a static body's zero velocity, see `EachRow`).

use std::ops::Range;
use std::sync::Mutex;

use glam::DVec3;

use super::body::{Ends, SolverBody, pair};
use super::colouring::Colours;
use super::team;

/// Below this many items a loop runs on the calling thread: publishing it to the team
/// and waiting for its chunks cost more than the items.
pub const PARALLEL_ROWS: usize = 64;

/// Below this many bodies or contacts a stage runs on the calling thread alone.
const PARALLEL_WORLD: usize = 1000;

/// Whether a world of `items` bodies or contacts is worth a team of threads.
pub fn worth_threads(items: usize) -> bool {
    items >= PARALLEL_WORLD
}

/// Runs the stage `f` with a team of rayon's threads if `big`: the loops below, called
/// from `f`, are then shared among them.
pub fn on_workers<R: Send>(big: bool, f: impl FnOnce() -> R + Send) -> R {
    team::hold(big, f)
}

/// Runs `body` over `0..len` on the team if there are at least `min` items and a team;
/// otherwise `false`, and the caller runs the loop itself.
fn shared(len: usize, min: usize, body: &(dyn Fn(Range<usize>) + Sync)) -> bool {
    len >= min && team::run(len, body)
}

/// A pointer into a slice whose items the team's chunks use one each.
pub(super) struct Items<T>(pub(super) *mut T);

// SAFETY: each chunk of a loop touches only the items of its own range.
unsafe impl<T: Send> Send for Items<T> {}
unsafe impl<T: Send> Sync for Items<T> {}

impl<T> Items<T> {
    /// Item `i`.
    ///
    /// # Safety
    /// `i` is in bounds of the slice, and no other thread uses item `i` now.
    #[allow(clippy::mut_from_ref)]
    pub(super) unsafe fn at(&self, i: usize) -> &mut T {
        // SAFETY: the caller's promise.
        unsafe { &mut *self.0.add(i) }
    }
}

/// The solver's bodies shared by the rows of one colour.
#[derive(Clone, Copy)]
pub(crate) struct Shared<'a> {
    bodies: *mut SolverBody,
    len: usize,
    moving: &'a [bool],
}

// SAFETY: the rows that run at once on these bodies are those of one colour, which write
// disjoint moving bodies and only read the others (see `Shared::run`).
unsafe impl Send for Shared<'_> {}
unsafe impl Sync for Shared<'_> {}

impl<'a> Shared<'a> {
    pub(super) fn new(bodies: &'a mut [SolverBody], moving: &'a [bool]) -> Self {
        Self {
            bodies: bodies.as_mut_ptr(),
            len: bodies.len(),
            moving,
        }
    }

    fn moving(&self, i: usize) -> bool {
        self.moving.get(i).copied().unwrap_or(false)
    }

    /// A copy of body `i`.
    ///
    /// # Safety
    /// No other row that runs at the same time writes body `i` (see [`Self::run`]).
    #[inline]
    pub(super) unsafe fn read(&self, i: usize) -> SolverBody {
        assert!(i < self.len, "a row's bodies");
        // SAFETY: in bounds, and not written now (the caller's promise).
        unsafe { *self.bodies.add(i) }
    }

    /// Whether `indices` are all bodies': one test for a group's sixteen ends, where a
    /// test in each [`Self::get`] took a compare and a branch per end in the kernel.
    #[inline]
    pub(super) fn holds(&self, indices: impl IntoIterator<Item = usize>) -> bool {
        indices.into_iter().fold(0, usize::max) < self.len
    }

    /// Body `i`, borrowed: the SIMD groups read only its velocities and inverse mass,
    /// where a copy moved all 128 bytes of it.
    ///
    /// # Safety
    /// `i` is in bounds ([`Self::holds`]), and no other row that runs at the same time
    /// writes body `i` while the borrow lives.
    #[inline]
    pub(super) unsafe fn get(&self, i: usize) -> &SolverBody {
        // SAFETY: the caller's promise.
        unsafe { &*self.bodies.add(i) }
    }

    /// Adds `change` (linear, angular) to body `i`'s velocities if it moves.
    ///
    /// # Safety
    /// `i` is in bounds, no other row that runs at the same time reads or writes body
    /// `i` if it moves, and no borrow of it from [`Self::get`] lives.
    #[inline]
    pub(super) unsafe fn add(&self, i: usize, (dv, dw): (DVec3, DVec3)) {
        if self.moving(i) {
            // SAFETY: the caller's promise.
            unsafe {
                let target = &mut *self.bodies.add(i);
                target.v += dv;
                target.w += dw;
            }
        }
    }

    /// Writes the velocities `body` solved back to body `i` if it moves.
    ///
    /// # Safety
    /// `i` is in bounds (a [`Self::read`] of it returned), and no other row that runs at
    /// the same time reads or writes body `i` if it moves.
    #[inline]
    pub(super) unsafe fn write(&self, i: usize, body: &SolverBody) {
        if self.moving(i) {
            // SAFETY: the caller's promise.
            unsafe {
                let target = &mut *self.bodies.add(i);
                target.v = body.v;
                target.w = body.w;
            }
        }
    }

    /// Runs `f` on `row` with copies of its bodies, then writes back the velocities of
    /// the moving ones.
    ///
    /// # Safety
    /// No other row that runs at the same time may have a moving body of this row among
    /// its bodies; the rows of one colour of [`super::colouring::colour`] satisfy it.
    #[inline]
    pub(super) unsafe fn run<R: Ends>(
        &self,
        row: &mut R,
        f: &impl Fn(&mut R, &mut SolverBody, &mut SolverBody),
    ) {
        let (a, b) = row.ends();
        assert!(a != b, "a row's bodies");
        // SAFETY: the bodies read are written by no other row running now (the caller's
        // promise), and static ones by none at all; this row is the only one running now
        // that touches its moving bodies.
        unsafe {
            let (mut body_a, mut body_b) = (self.read(a), self.read(b));
            f(row, &mut body_a, &mut body_b);
            self.write(a, &body_a);
            self.write(b, &body_b);
        }
    }
}

/// What a pass colour by colour ([`by_colour`]) runs: each colour's items (its rows one
/// by one, or its rows gathered into SIMD slots and the rows left over).
pub(crate) trait ColourItems: Sync {
    /// Whether an independent colour left to the calling thread runs its rows one after
    /// another on the bodies themselves ([`Self::in_order`]) rather than its items on
    /// copies, as the team runs them.
    const IN_ORDER_ALONE: bool;

    /// Runs the rows `rows` one after another on the bodies themselves: a colour whose
    /// rows may share a moving body.
    fn in_order(&mut self, rows: Range<usize>, bodies: &mut [SolverBody]);

    /// Readies independent colour `colour` (the rows `rows`) for [`Self::run`]; returns
    /// how many items it has.
    fn items(&mut self, colour: usize, rows: &Range<usize>) -> usize;

    /// Runs item `item` of the colour readied last on the bodies it shares with the
    /// colour's other items.
    ///
    /// # Safety
    /// No other item that runs at the same time has a moving body of this item among its
    /// bodies; the items of one independent colour satisfy it.
    unsafe fn run(&self, colour: usize, rows: &Range<usize>, item: usize, bodies: &Shared);
}

/// The pass over the rows colour by colour, in the order of `colours`: a colour whose
/// rows may share a moving body one row after another, an independent one's items at
/// once on the team if it has enough rows; `moving[i]` says whether body `i` moves
/// (others are only read, and indices past `moving` are static).
pub(crate) fn by_colour<C: ColourItems>(
    colours: &Colours,
    bodies: &mut [SolverBody],
    moving: &[bool],
    items: &mut C,
) {
    for (k, range) in colours.ranges.iter().enumerate() {
        if !colours.independent(k) {
            items.in_order(range.clone(), bodies);
            continue;
        }
        let count = items.items(k, range);
        let shared_bodies = Shared::new(bodies, moving);
        let all = &*items;
        // SAFETY: the items of an independent colour share no moving body, and each
        // chunk takes its own items.
        let run = |chunk: Range<usize>| {
            for i in chunk {
                unsafe { all.run(k, range, i, &shared_bodies) }
            }
        };
        if range.len() >= PARALLEL_ROWS && team::run(count, &run) {
            continue;
        }
        if C::IN_ORDER_ALONE {
            items.in_order(range.clone(), bodies);
        } else {
            run(0..count);
        }
    }
}

/// Runs `f` on each of `rows` in turn with the row's two bodies, on the bodies
/// themselves.
pub(crate) fn each_in_order<R: Ends>(
    rows: &mut [R],
    bodies: &mut [SolverBody],
    f: impl Fn(&mut R, &mut SolverBody, &mut SolverBody),
) {
    for r in rows {
        let (a, b) = r.ends();
        let (body_a, body_b) = pair(bodies, a, b);
        f(r, body_a, body_b);
    }
}

/// Rows one at a time as a colour's items: `f` on each row with its two bodies.
///
/// Left to the calling thread an independent colour's rows run on the bodies themselves:
/// a static body's velocity gains exact zeros (its inverse mass and inertia are zero), so
/// this is what the copies give, bitwise but for the sign of a zero: a static velocity
/// component of -0.0 becomes +0.0 here, and stays -0.0 there.
pub(crate) struct EachRow<'r, R, F> {
    rows: &'r mut [R],
    at: Items<R>,
    f: F,
}

impl<'r, R, F> EachRow<'r, R, F> {
    pub(crate) fn new(rows: &'r mut [R], f: F) -> Self {
        Self {
            rows,
            at: Items(std::ptr::null_mut()),
            f,
        }
    }
}

impl<R, F> ColourItems for EachRow<'_, R, F>
where
    R: Ends + Send + Sync,
    F: Fn(&mut R, &mut SolverBody, &mut SolverBody) + Sync,
{
    const IN_ORDER_ALONE: bool = true;

    fn in_order(&mut self, rows: Range<usize>, bodies: &mut [SolverBody]) {
        each_in_order(&mut self.rows[rows], bodies, &self.f);
    }

    fn items(&mut self, _: usize, rows: &Range<usize>) -> usize {
        self.at = Items(self.rows.as_mut_ptr());
        rows.len()
    }

    unsafe fn run(&self, _: usize, rows: &Range<usize>, item: usize, bodies: &Shared) {
        // SAFETY: the caller's promise; `item` is one of the colour's rows.
        unsafe { bodies.run(self.at.at(rows.start + item), &self.f) }
    }
}

/// `out = (0..len).map(f)`, on the team when there are enough items: each item is
/// computed alone, so the result does not depend on the threads.
pub fn collect<U, F>(len: usize, out: &mut Vec<U>, f: F)
where
    U: Send,
    F: Fn(usize) -> U + Sync,
{
    collect_from(len, PARALLEL_ROWS, out, f);
}

/// [`collect`] for items so costly that `min` of them are worth the team.
pub fn collect_from<U, F>(len: usize, min: usize, out: &mut Vec<U>, f: F)
where
    U: Send,
    F: Fn(usize) -> U + Sync,
{
    out.clear();
    out.reserve(len);
    let slots = Items(out.as_mut_ptr());
    // SAFETY: the capacity holds `len` items, and each index is written once.
    let fill = |range: Range<usize>| {
        for i in range {
            unsafe { std::ptr::from_mut(slots.at(i)).write(f(i)) };
        }
    };
    if shared(len, min, &fill) {
        // SAFETY: every item of `0..len` was written (a panic would have left the
        // length at zero, leaking what was written).
        unsafe { out.set_len(len) };
    } else {
        out.extend((0..len).map(f));
    }
}

/// `f(i)` for every `i` of `0..len`, on the team when there are enough of them: for
/// loops whose items write nothing another item reads.
pub fn for_each(len: usize, f: impl Fn(usize) + Sync) {
    let each = |range: Range<usize>| range.for_each(&f);
    if !shared(len, PARALLEL_ROWS, &each) {
        each(0..len);
    }
}

/// `f(i, &mut items[i])` for every item, on the team when there are enough of them;
/// each item is updated alone, so the result does not depend on the threads.
pub fn for_each_indexed<T, F>(items: &mut [T], f: F)
where
    T: Send,
    F: Fn(usize, &mut T) + Sync,
{
    let len = items.len();
    let each = Items(items.as_mut_ptr());
    // SAFETY: in bounds, and each chunk takes its own items.
    let update = |range: Range<usize>| {
        for i in range {
            f(i, unsafe { each.at(i) });
        }
    };
    if !shared(len, PARALLEL_ROWS, &update) {
        items
            .iter_mut()
            .enumerate()
            .for_each(|(i, item)| f(i, item));
    }
}

/// `f(i, &mut a[i], &mut b[i])` for every `i` (`b` as long as `a`), on the team when
/// there are enough items; each item is updated alone.
pub fn for_each_zip<A: Send, B: Send>(
    (a, b): (&mut [A], &mut [B]),
    f: impl Fn(usize, &mut A, &mut B) + Sync,
) {
    let len = a.len();
    assert!(b.len() >= len, "zipped slices as long as the first");
    let (pa, pb) = (Items(a.as_mut_ptr()), Items(b.as_mut_ptr()));
    // SAFETY: in bounds (checked above), and each chunk takes its own items.
    let each = |range: Range<usize>| {
        for i in range {
            f(i, unsafe { pa.at(i) }, unsafe { pb.at(i) });
        }
    };
    if !shared(len, PARALLEL_ROWS, &each) {
        each(0..len);
    }
}

/// `f(i, &mut a[i], &mut b[i], &mut c[i])` for every `i` (the slices are as long as
/// `a`), on the team when there are enough items; every item is tried, and the error of
/// the lowest index is returned, so the outcome does not depend on the threads either.
pub fn try_for_each_zip<A, B, C, E, F>(
    (a, b, c): (&mut [A], &mut [B], &mut [C]),
    f: F,
) -> Result<(), E>
where
    A: Send,
    B: Send,
    C: Send,
    E: Send,
    F: Fn(usize, &mut A, &mut B, &mut C) -> Result<(), E> + Sync,
{
    let len = a.len();
    assert!(
        b.len() >= len && c.len() >= len,
        "zipped slices as long as the first"
    );
    let first: Mutex<Option<(usize, E)>> = Mutex::new(None);
    let (pa, pb, pc) = (
        Items(a.as_mut_ptr()),
        Items(b.as_mut_ptr()),
        Items(c.as_mut_ptr()),
    );
    // SAFETY: in bounds (checked above), and each chunk takes its own items.
    let each = |range: Range<usize>| {
        let mut error = None;
        for i in range {
            if let Err(e) = f(i, unsafe { pa.at(i) }, unsafe { pb.at(i) }, unsafe {
                pc.at(i)
            }) && error.is_none()
            {
                error = Some((i, e));
            }
        }
        if let Some((i, e)) = error {
            let mut first = first.lock().unwrap_or_else(|p| p.into_inner());
            if first.as_ref().is_none_or(|(j, _)| i < *j) {
                *first = Some((i, e));
            }
        }
    };
    if !shared(len, PARALLEL_ROWS, &each) {
        each(0..len);
    }
    first
        .into_inner()
        .unwrap_or_else(|p| p.into_inner())
        .map_or(Ok(()), |(_, e)| Err(e))
}
