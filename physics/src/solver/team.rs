//! A team: the threads of rayon's pool, held for one stage of a big step and kept awake
//! between its loops, as Box2D v3 keeps its workers spinning through the solver's
//! stages [Catto 2024]. Each parallel loop of the stage is published to the team and cut
//! into chunks that any member claims. (A rayon fork per loop woke a sleeping worker
//! each time, a round trip through the kernel, hundreds of times a step: a 1,000-box
//! step took longer on two threads than on one.)
//!
//! The leader claims chunks from the front of each loop and the other members from the
//! back, so that in a run of similar loops (a colour's rows pass after pass, the rows'
//! refresh, the bodies' integration) each thread keeps to the same items and the
//! bodies they touch stay in its core's cache.
//!
//! Which member runs a chunk never changes a result: every loop run here computes each
//! item on its own. Nothing waits for a member that has not claimed a chunk, so a member
//! that never starts (its thread busy elsewhere) only leaves more to the others.

use std::any::Any;
use std::cell::Cell;
use std::ops::Range;
use std::panic::{self, AssertUnwindSafe};
use std::ptr;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, AtomicUsize, Ordering};

/// Bits of the claim word for the first and for one past the last unclaimed chunk; the
/// rest hold the loop's generation, so that a claim made for a finished loop fails.
const CHUNK_BITS: u32 = 20;
const CHUNK_MASK: u64 = (1 << CHUNK_BITS) - 1;
/// Items a chunk takes at least: claiming one costs an atomic operation. (An item may
/// be a group of eight manifolds, so this is small.)
const MIN_CHUNK: usize = 4;
/// Chunks per member, for balance when members run at different speeds: the leader
/// waits at each loop's end for the last chunk another member claimed, so smaller ones
/// end the loops closer together. (Eight: the forming 1,000-box pile on two threads 1.6%
/// faster than four, sixteen no faster, with the cores near each other.)
const CHUNKS_PER_MEMBER: usize = 8;
/// Idle polls spent spinning before a member starts yielding its core.
const SPINS: u32 = 1 << 12;

/// A loop published to the team: `body` runs a range of its `len` items.
struct Task<'a> {
    body: &'a (dyn Fn(Range<usize>) + Sync),
    len: usize,
    chunk: usize,
}

/// A value alone on its cache lines (two: the adjacent-line prefetcher fetches pairs),
/// so that members polling one field do not take the line another is writing.
#[repr(align(128))]
struct Alone<T>(T);

pub struct Team {
    /// `generation << 40 | end << 20 | next`: chunks `next..end` are unclaimed.
    claim: Alone<AtomicU64>,
    /// The loop of the current generation; read only after a claim on it succeeded,
    /// which keeps the loop (and so the task on the leader's stack) unfinished.
    task: AtomicPtr<Task<'static>>,
    /// Chunks of the current loop finished.
    done: Alone<AtomicUsize>,
    quit: AtomicBool,
    /// A panic of a chunk, raised again on the leader.
    panic: Mutex<Option<Box<dyn Any + Send>>>,
}

thread_local! {
    /// The team this thread leads, while it runs the stage.
    static LED: Cell<*const Team> = const { Cell::new(ptr::null()) };
}

fn unpack(claim: u64) -> (u64, u64) {
    ((claim >> CHUNK_BITS) & CHUNK_MASK, claim & CHUNK_MASK)
}

/// One idle poll: spin a while, then give the core to whoever needs it.
fn idle(polls: &mut u32) {
    if *polls < SPINS {
        *polls += 1;
        std::hint::spin_loop();
    } else {
        std::thread::yield_now();
    }
}

impl Team {
    fn new() -> Self {
        Self {
            claim: Alone(AtomicU64::new(0)),
            task: AtomicPtr::new(ptr::null_mut()),
            done: Alone(AtomicUsize::new(0)),
            quit: AtomicBool::new(false),
            panic: Mutex::new(None),
        }
    }

    /// Claims and runs chunks of the current loop, from its front or its back, until
    /// none is left; whether it ran any.
    fn work(&self, from_back: bool) -> bool {
        let mut ran = false;
        loop {
            let claim = self.claim.0.load(Ordering::Acquire);
            let (end, next) = unpack(claim);
            if next >= end {
                return ran;
            }
            let (chunk, claimed) = if from_back {
                (end - 1, claim - (1 << CHUNK_BITS))
            } else {
                (next, claim + 1)
            };
            if self
                .claim
                .0
                .compare_exchange_weak(claim, claimed, Ordering::AcqRel, Ordering::Relaxed)
                .is_err()
            {
                continue;
            }
            // SAFETY: the claim succeeded on the current loop, which cannot finish before
            // this chunk does, so its task is alive; it was stored before the claim word
            // was published (release), which the claim read (acquire).
            let task = unsafe { &*self.task.load(Ordering::Acquire) };
            let start = chunk as usize * task.chunk;
            let range = start..(start + task.chunk).min(task.len);
            if let Err(p) = panic::catch_unwind(AssertUnwindSafe(|| (task.body)(range))) {
                *self.panic.lock().unwrap_or_else(|e| e.into_inner()) = Some(p);
            }
            self.done.0.fetch_add(1, Ordering::Release);
            ran = true;
        }
    }

    /// A member other than the leader: claims chunks of every loop until the stage ends.
    fn help(&self) {
        let mut polls = 0;
        while !self.quit.load(Ordering::Acquire) {
            if self.work(true) {
                polls = 0;
            } else {
                idle(&mut polls);
            }
        }
    }

    /// The leader: publishes a loop of `len` items, works on it, and returns when every
    /// chunk is done.
    fn run(&self, len: usize, members: usize, body: &(dyn Fn(Range<usize>) + Sync)) {
        let chunk = len
            .div_ceil(members * CHUNKS_PER_MEMBER)
            .max(MIN_CHUNK)
            .max(len >> CHUNK_BITS);
        let chunks = len.div_ceil(chunk) as u64;
        debug_assert!(chunks <= CHUNK_MASK);
        let task = Task { body, len, chunk };
        let generation = (self.claim.0.load(Ordering::Relaxed) >> (2 * CHUNK_BITS)) + 1;
        self.task
            .store(ptr::from_ref(&task).cast_mut().cast(), Ordering::Relaxed);
        self.done.0.store(0, Ordering::Relaxed);
        self.claim.0.store(
            generation << (2 * CHUNK_BITS) | chunks << CHUNK_BITS,
            Ordering::Release,
        );
        self.work(false);
        let mut polls = 0;
        while (self.done.0.load(Ordering::Acquire) as u64) < chunks {
            idle(&mut polls);
        }
        if let Some(p) = self.panic.lock().unwrap_or_else(|e| e.into_inner()).take() {
            panic::resume_unwind(p);
        }
    }
}

/// Ends the stage when the leader leaves it, panicking or not, so the members return.
struct Quit<'a>(&'a Team);

impl Drop for Quit<'_> {
    fn drop(&mut self) {
        LED.with(|led| led.set(ptr::null()));
        self.0.quit.store(true, Ordering::Release);
    }
}

/// Runs the stage `f` with a team of rayon's threads if `big` and the pool has more than
/// one; the loops [`run`] is given inside `f` (on this thread) go to the team.
pub fn hold<R: Send>(big: bool, f: impl FnOnce() -> R + Send) -> R {
    let members = rayon::current_num_threads();
    if !big || members < 2 || LED.with(|led| !led.get().is_null()) {
        return f();
    }
    let team = Team::new();
    // Joined rather than spawned: a join's jobs live on the stack, a scope's spawns are
    // boxed, and a step allocates nothing.
    let lead = || {
        let _quit = Quit(&team);
        LED.with(|led| led.set(&team));
        f()
    };
    rayon::join(lead, || helpers(&team, members - 1)).0
}

/// `count` members helping `team`, each on a thread of the pool that takes its job.
fn helpers(team: &Team, count: usize) {
    match count {
        0 | 1 => team.help(),
        _ => {
            rayon::join(|| team.help(), || helpers(team, count - 1));
        }
    }
}

/// Runs `body` over `0..len` on the team this thread leads, in chunks; `false` (and
/// nothing run) if it leads none. A loop inside `body` runs on its caller's thread.
pub fn run(len: usize, body: &(dyn Fn(Range<usize>) + Sync)) -> bool {
    let team = LED.with(|led| led.replace(ptr::null()));
    if team.is_null() {
        return false;
    }
    /// Gives the team back to this thread after the loop, panicking or not.
    struct Restore(*const Team);
    impl Drop for Restore {
        fn drop(&mut self) {
            LED.with(|led| led.set(self.0));
        }
    }
    let _restore = Restore(team);
    // SAFETY: `hold` set the pointer to its team for the time `f` runs on this thread
    // and clears it before the team is dropped.
    let team = unsafe { &*team };
    team.run(len, rayon::current_num_threads(), body);
    true
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicU32;

    use super::*;

    fn pool(threads: usize) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
    }

    /// Runs `loops` loops of `len` items on a team and counts how often each item ran.
    fn counts(len: usize, loops: usize) -> Vec<u32> {
        let counts: Vec<AtomicU32> = (0..len).map(|_| AtomicU32::new(0)).collect();
        let count = |range: Range<usize>| {
            for i in range {
                counts[i].fetch_add(1, Ordering::Relaxed);
            }
        };
        hold(true, || {
            for _ in 0..loops {
                assert!(run(len, &count), "a team leads the stage");
            }
        });
        counts.into_iter().map(AtomicU32::into_inner).collect()
    }

    #[test]
    fn every_item_runs_once_per_loop_on_any_team() {
        for threads in [2, 3, 4] {
            for len in [0, 1, 15, 16, 17, 1000, 100_003] {
                let got = pool(threads).install(|| counts(len, 5));
                assert!(
                    got.iter().all(|&c| c == 5),
                    "{threads} threads, {len} items"
                );
            }
        }
    }

    /// Two big stages at once on a pool of two: each leader's member is busy leading the
    /// other stage, so neither team gets a member; both must still finish.
    #[test]
    fn a_team_without_members_still_finishes() {
        let (a, b) = pool(2).install(|| rayon::join(|| counts(5000, 50), || counts(5000, 50)));
        assert!(a.iter().chain(&b).all(|&c| c == 50));
    }

    #[test]
    fn a_panic_in_a_chunk_reaches_the_leader_and_the_stage_ends() {
        let pool = pool(2);
        let caught = pool.install(|| {
            panic::catch_unwind(|| {
                hold(true, || {
                    run(1000, &|range: Range<usize>| {
                        assert!(!range.contains(&700), "item 700");
                    })
                })
            })
        });
        assert!(caught.is_err());
        // The pool's threads came back: a new stage runs.
        assert!(pool.install(|| counts(1000, 1)).iter().all(|&c| c == 1));
    }

    #[test]
    fn without_a_team_the_caller_runs_the_loop() {
        assert!(!run(10, &|_| {}));
        let got = pool(1).install(|| hold(true, || run(10, &|_| {})));
        assert!(!got, "a pool of one thread leads no team");
    }
}
