//! A pass over the contact rows, colour by colour, each colour's rows at once on rayon's
//! threads (Box2D v3 solves its graph colours the same way [Catto 2024]).
//!
//! On several threads every row works on copies of its two bodies and writes back only
//! the moving ones (static ends are only read). Within a colour no two rows share a
//! moving body, so a row's update depends on nothing another row of its colour does: the
//! result is bitwise the same on any number of threads, and the same as the rows one
//! after another in the colours' order, which is how one thread runs them.

use rayon::prelude::*;

use super::colouring::Colours;
use super::solver::{SolverBody, pair};

/// Below this many rows a colour is solved on the calling thread: the fork and join
/// cost more than the rows.
pub const PARALLEL_ROWS: usize = 256;
/// Rows a thread takes at a time: enough to pay for the work stealing.
const CHUNK: usize = 32;

/// Below this many bodies or contacts a stage called from outside rayon's pool stays on
/// the calling thread: handing it to the pool and back costs tens of microseconds.
const PARALLEL_WORLD: usize = 1024;

/// Whether a world of `items` bodies or contacts is worth handing to rayon's threads.
pub fn worth_threads(items: usize) -> bool {
    items >= PARALLEL_WORLD
}

/// Whether a loop of `items` goes on rayon's threads: enough of them, and called from
/// one of the pool's threads (from outside, every loop would hand its work over to the
/// pool and block until it is done, a round trip through the kernel each).
fn split(items: usize) -> bool {
    items >= PARALLEL_ROWS && rayon::current_thread_index().is_some()
}

/// Runs `f` on one of rayon's threads if `big` (and not there already), so that the
/// parallel loops inside it fork from a worker.
pub fn on_workers<R: Send>(big: bool, f: impl FnOnce() -> R + Send) -> R {
    if big && rayon::current_thread_index().is_none() {
        rayon::scope(|_| f())
    } else {
        f()
    }
}

/// A row of the solver between two bodies.
pub trait Ends {
    /// The indices of its two bodies in the solver's array.
    fn ends(&self) -> (usize, usize);
}

/// The solver's bodies shared by the rows of one colour.
#[derive(Clone, Copy)]
struct Shared<'a> {
    bodies: *mut SolverBody,
    len: usize,
    moving: &'a [bool],
}

// SAFETY: the rows that run at once on these bodies are those of one colour, which write
// disjoint moving bodies and only read the others (see `Shared::run`).
unsafe impl Send for Shared<'_> {}
unsafe impl Sync for Shared<'_> {}

impl Shared<'_> {
    fn moving(&self, i: usize) -> bool {
        self.moving.get(i).copied().unwrap_or(false)
    }

    /// Runs `f` on `row` with copies of its bodies, then writes back the velocities of
    /// the moving ones.
    ///
    /// # Safety
    /// No other row that runs at the same time may have a moving body of this row among
    /// its bodies; the rows of one colour of [`super::colouring::colour`] satisfy it.
    #[inline]
    unsafe fn run<R: Ends>(
        &self,
        row: &mut R,
        f: &impl Fn(&mut R, &mut SolverBody, &mut SolverBody),
    ) {
        let (a, b) = row.ends();
        assert!(a < self.len && b < self.len && a != b, "a row's bodies");
        // SAFETY: both indices are in bounds; the bodies read are written by no other
        // row running now (the caller's promise), and static ones by none at all.
        let (mut body_a, mut body_b) = unsafe { (*self.bodies.add(a), *self.bodies.add(b)) };
        f(row, &mut body_a, &mut body_b);
        for (i, body) in [(a, body_a), (b, body_b)] {
            if self.moving(i) {
                // SAFETY: this row is the only one running now that touches body `i`.
                unsafe {
                    let target = &mut *self.bodies.add(i);
                    target.v = body.v;
                    target.w = body.w;
                }
            }
        }
    }
}

/// Runs `f` on every row, colour by colour in the order of `colours`, with the row's two
/// bodies; `moving[i]` says whether body `i` moves (others are only read, and indices
/// past `moving` are static).
pub fn for_each_row<R, F>(
    rows: &mut [R],
    colours: &Colours,
    bodies: &mut [SolverBody],
    moving: &[bool],
    f: F,
) where
    R: Ends + Send,
    F: Fn(&mut R, &mut SolverBody, &mut SolverBody) + Sync,
{
    let threads = rayon::current_num_threads() > 1;
    for (k, range) in colours.ranges.iter().enumerate() {
        let rows = &mut rows[range.clone()];
        if threads && colours.independent(k) && split(rows.len()) {
            let shared = Shared {
                bodies: bodies.as_mut_ptr(),
                len: bodies.len(),
                moving,
            };
            // SAFETY: the rows of an independent colour share no moving body.
            rows.par_iter_mut()
                .with_min_len(CHUNK)
                .for_each(|r| unsafe { shared.run(r, &f) });
        } else {
            // One row at a time, on the bodies themselves: a static body's velocity
            // gains exact zeros (its inverse mass and inertia are zero), so this is
            // bitwise what the copies above give.
            for r in rows.iter_mut() {
                let (a, b) = r.ends();
                let (body_a, body_b) = pair(bodies, a, b);
                f(r, body_a, body_b);
            }
        }
    }
}

/// `out = (0..len).map(f)`, on rayon's threads when there are enough items: each item
/// is computed alone, so the result does not depend on the threads.
pub fn collect<U, F>(len: usize, out: &mut Vec<U>, f: F)
where
    U: Send,
    F: Fn(usize) -> U + Sync + Send,
{
    if split(len) {
        (0..len)
            .into_par_iter()
            .with_min_len(CHUNK)
            .map(f)
            .collect_into_vec(out);
    } else {
        out.clear();
        out.extend((0..len).map(f));
    }
}

/// `f(i, &mut items[i])` for every item, on rayon's threads when there are enough of
/// them; each item is updated alone, so the result does not depend on the threads.
pub fn for_each_indexed<T, F>(items: &mut [T], f: F)
where
    T: Send,
    F: Fn(usize, &mut T) + Sync + Send,
{
    if split(items.len()) {
        items
            .par_iter_mut()
            .enumerate()
            .with_min_len(CHUNK)
            .for_each(|(i, item)| f(i, item));
    } else {
        items
            .iter_mut()
            .enumerate()
            .for_each(|(i, item)| f(i, item));
    }
}

/// `f(i, &mut a[i], &mut b[i], &mut c[i])` for every `i`, on rayon's threads when there
/// are enough items; every item is tried, and the error of the lowest index is returned,
/// so the outcome does not depend on the threads either.
pub fn try_for_each_zip<A, B, C, E, F>(
    (a, b, c): (&mut [A], &mut [B], &mut [C]),
    f: F,
) -> Result<(), E>
where
    A: Send,
    B: Send,
    C: Send,
    E: Send,
    F: Fn(usize, &mut A, &mut B, &mut C) -> Result<(), E> + Sync + Send,
{
    let first = if split(a.len()) {
        a.par_iter_mut()
            .zip(b)
            .zip(c)
            .enumerate()
            .with_min_len(CHUNK)
            .filter_map(|(i, ((a, b), c))| f(i, a, b, c).err().map(|e| (i, e)))
            .min_by_key(|(i, _)| *i)
    } else {
        a.iter_mut()
            .zip(b)
            .zip(c)
            .enumerate()
            .filter_map(|(i, ((a, b), c))| f(i, a, b, c).err().map(|e| (i, e)))
            .next()
    };
    first.map_or(Ok(()), |(_, e)| Err(e))
}
