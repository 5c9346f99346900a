//! What each engine integrates in the 30 s sleeping-on fall of the clear heaps: awake
//! bodies, manifolds and contact points per step, when each box falls asleep for good,
//! and the fall's time on one thread. The heaps are the bench's (`pile` at 1,000 boxes)
//! and the other sizes `tests/physics_rest.rs` puts to sleep; rapier's copy is the bench's.
//!
//! `cargo run --release -p gyrolab-rapier-bench --example heap_counts -- [SIZES…]`
//! (default 600 800 1000 1200 1500). Add `--trace SIZE` to print one line a second;
//! `--window SIZE FROM TO` times gyrolab's steps FROM..TO (s) of that heap's fall alone,
//! ten times over from a copy (for a profiler; `--untimed`: a team every step, where
//! the stages would time theirs); `--rapier-stages SIZE` prints rapier's
//! own stage timers, a mean step per second of the fall (they read zero unless built
//! with `--features rapier3d/profiler`, which the bench leaves off); `--latency` prints
//! the round trip of a value between two threads; `--lone [STEPS]` runs the bench's lone
//! box beside the asleep heap and prints each 2,000 steps' mean (`--wander`: thrown from
//! where it landed, as the bench threw it before). gyrolab runs on a pool of one thread,
//! or of `--threads N`.

use std::time::Instant;

use gyrolab::world::World;
use rapier3d::prelude::*;

#[path = "../shared/worlds.rs"]
mod worlds;
use worlds::{LoneBox, sleepy_gyrolab_world, sleepy_rapier_world};

/// 30 s at 60 Hz, as the bench's fall.
const FALL_STEPS: usize = 1800;

/// The bench's heap of `size` boxes in gyrolab, sleeping on.
fn gyrolab_world(size: usize) -> World {
    sleepy_gyrolab_world("pile", size, true)
}

/// The bench's copy of gyrolab's heap in rapier, sleeping on, equal iterations.
fn rapier_world(gyro: &World) -> PhysicsWorld {
    sleepy_rapier_world(gyro, true)
}

/// One step's counts: awake bodies; broad-phase pairs, touching manifolds and their
/// points among awake bodies; the step's time (s), taken around the step call alone.
#[derive(Clone, Copy, Default)]
struct Counts {
    awake: usize,
    /// Awake boxes whose sleep timer this step reset (faster than the sleep speed).
    moving: usize,
    pairs: usize,
    manifolds: usize,
    points: usize,
    /// Manifolds carried from an earlier step instead of computed (gyrolab's only).
    recycled: usize,
    seconds: f64,
}

impl std::ops::AddAssign for Counts {
    fn add_assign(&mut self, o: Self) {
        self.awake += o.awake;
        self.moving += o.moving;
        self.pairs += o.pairs;
        self.seconds += o.seconds;
        self.manifolds += o.manifolds;
        self.points += o.points;
        self.recycled += o.recycled;
    }
}

/// A whole fall's counts: the sums over its steps (and over the steps after the last box
/// fell asleep), the step (from 1) after which each box stayed asleep, one line a second.
struct Fall {
    total: Counts,
    at_rest: Counts,
    /// Awake boxes summed over the steps in which under 5% of them were still moving:
    /// the island waiting out its sleep time on a few boxes.
    waiting: usize,
    asleep_from: Vec<usize>,
    trace: Vec<Counts>,
    /// The steps' time (s) in each second.
    per_second: Vec<f64>,
}

impl Fall {
    fn new(bodies: usize) -> Self {
        Self {
            total: Counts::default(),
            at_rest: Counts::default(),
            waiting: 0,
            asleep_from: vec![0; bodies],
            trace: Vec::new(),
            per_second: vec![0.0; FALL_STEPS.div_ceil(60)],
        }
    }

    /// Adds the counts of step `k + 1` (counted from 1); `awake(i)` says whether box `i`
    /// was awake after it, so that `asleep_from` holds the step after which it stayed
    /// asleep (the bench's time of the last box asleep is that step's, `k / 60` s).
    fn add(&mut self, k: usize, c: Counts, awake: impl Fn(usize) -> bool) {
        self.total += c;
        if c.awake == 0 {
            self.at_rest += c;
        }
        if 20 * c.moving < c.awake {
            self.waiting += c.awake;
        }
        for (i, from) in self.asleep_from.iter_mut().enumerate() {
            if awake(i) {
                *from = k + 2;
            }
        }
        self.per_second[k / 60] += c.seconds;
        if k % 60 == 59 {
            self.trace.push(c);
        }
    }

    /// The time (s) by which a `q` fraction of the boxes stayed asleep.
    fn quantile(&self, q: f64) -> f64 {
        let mut t = self.asleep_from.clone();
        t.sort_unstable();
        let i = ((q * t.len() as f64).ceil() as usize).clamp(1, t.len()) - 1;
        t[i] as f64 / 60.0
    }
}

fn gyrolab_fall(size: usize) -> Fall {
    let mut w = gyrolab_world(size);
    let mut fall = Fall::new(w.bodies().len());
    for k in 0..FALL_STEPS {
        let start = Instant::now();
        w.advance(1.0 / 60.0).expect("finite step");
        let seconds = start.elapsed().as_secs_f64();
        let c = w.contacts().expect("contacts");
        let awake = |b: u32| b != gyrolab::collision::NONE && !c.is_asleep(b as usize);
        let mut counts = Counts {
            awake: (0..w.bodies().len()).filter(|&b| !c.is_asleep(b)).count(),
            moving: (c.sleep().iter())
                .filter(|s| !s.asleep && s.timer == 0.0)
                .count(),
            pairs: c.stats().pairs,
            recycled: c.stats().recycled,
            seconds,
            ..Counts::default()
        };
        for (ends, contact) in c.graph().ends().iter().zip(c.graph().values()) {
            if ends.iter().any(|&b| awake(b)) && contact.manifold.len > 0 {
                counts.manifolds += 1;
                counts.points += contact.manifold.len;
            }
        }
        fall.add(k, counts, |b| !c.is_asleep(b));
    }
    fall
}

fn rapier_fall(size: usize) -> Fall {
    let mut w = rapier_world(&gyrolab_world(size));
    // The first body is the ground; boxes are 1.. in insertion order.
    let handles: Vec<_> = w.bodies.iter().map(|(h, _)| h).skip(1).collect();
    let mut fall = Fall::new(handles.len());
    for k in 0..FALL_STEPS {
        let start = Instant::now();
        w.step();
        let seconds = start.elapsed().as_secs_f64();
        let awake_pair = |p: &ContactPair| {
            [p.collider1, p.collider2].iter().any(|&c| {
                let b = w.colliders[c].parent().expect("attached");
                !w.bodies[b].is_sleeping() && !w.bodies[b].is_fixed()
            })
        };
        let mut counts = Counts {
            awake: handles
                .iter()
                .filter(|&&h| !w.bodies[h].is_sleeping())
                .count(),
            moving: (handles.iter().map(|&h| w.bodies[h].activation()))
                .filter(|a| !a.sleeping && a.time_since_can_sleep == 0.0)
                .count(),
            seconds,
            ..Counts::default()
        };
        for p in w.contact_pairs().filter(|p| awake_pair(p)) {
            counts.pairs += 1;
            let active = p
                .solver_manifolds()
                .iter()
                .map(|m| m.data.solver_contacts.len());
            for n in active.filter(|&n| n > 0) {
                counts.manifolds += 1;
                counts.points += n;
            }
        }
        fall.add(k, counts, |i| !w.bodies[handles[i]].is_sleeping());
    }
    fall
}

/// The best of `runs` timings (s) of the whole fall, built outside the timing.
fn timed<W>(runs: usize, build: impl Fn() -> W, step: impl Fn(&mut W)) -> f64 {
    (0..runs)
        .map(|_| {
            let mut w = build();
            let start = Instant::now();
            (0..FALL_STEPS).for_each(|_| step(&mut w));
            start.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

/// One engine's sums over the fall, when its boxes stayed asleep, and the steps' time
/// split into the awake part and the part after the last box fell asleep.
fn summary(name: &str, f: &Fall) {
    let (t, rest) = (f.total, f.at_rest);
    println!(
        "  {name:7} body-steps {:6} ({:6} while under 5% moved) pair-steps {:7} \
         manifold-steps {:7} point-steps {:7}",
        t.awake, f.waiting, t.pairs, t.manifolds, t.points
    );
    println!(
        "  {name:7} asleep for good: first box {:.2} s, half {:.2} s, all {:.2} s; steps' \
         time {:.3} s awake + {:.4} s at rest; {:.2} us per awake body-step",
        f.quantile(1e-9),
        f.quantile(0.5),
        f.quantile(1.0),
        t.seconds - rest.seconds,
        rest.seconds,
        1e6 * (t.seconds - rest.seconds) / t.awake as f64
    );
}

/// Per second while either engine has a box awake: awake boxes, those still faster than
/// the sleep speed, touching manifolds and points at the second's last step, and the
/// second's mean step time.
fn trace(g: &Fall, r: &Fall) {
    println!("  s  | gyrolab awake moving manifolds points recycled ms/step | rapier (the same)");
    let rows = g.trace.iter().zip(&r.trace).enumerate();
    for (s, (a, b)) in rows.take_while(|(_, (a, b))| a.awake + b.awake > 0) {
        println!(
            "  {:2} | {:5} {:5} {:5} {:6} {:5} {:5.2} | {:5} {:5} {:5} {:6} {:5.2}",
            s + 1,
            a.awake,
            a.moving,
            a.manifolds,
            a.points,
            a.recycled,
            g.per_second[s] * 1e3 / 60.0,
            b.awake,
            b.moving,
            b.manifolds,
            b.points,
            r.per_second[s] * 1e3 / 60.0
        );
    }
}

fn report(size: usize, traced: bool, pool: &rayon::ThreadPool) {
    let tg = pool.install(|| {
        timed(
            3,
            || gyrolab_world(size),
            |w| {
                w.advance(1.0 / 60.0).expect("finite step");
            },
        )
    });
    let tr = timed(3, || rapier_world(&gyrolab_world(size)), |w| w.step());
    let (g, r) = (pool.install(|| gyrolab_fall(size)), rapier_fall(size));
    println!(
        "pile {size}: fall {tg:.3} s gyrolab, {tr:.3} s rapier, {:.2}x",
        tg / tr
    );
    summary("gyrolab", &g);
    summary("rapier", &r);
    let late = (0..g.asleep_from.len())
        .map(|i| g.asleep_from[i].saturating_sub(r.asleep_from[i]))
        .sum::<usize>();
    println!(
        "  gyrolab/rapier: body-steps {:.3}, manifold-steps {:.3}; gyrolab body-steps \
         after rapier's box stayed asleep: {late}",
        g.total.awake as f64 / r.total.awake as f64,
        g.total.manifolds as f64 / r.total.manifolds as f64
    );
    if traced {
        trace(&g, &r);
    }
}

/// Ten runs of gyrolab's steps from `from` to `to` seconds of the fall; the mean step
/// (`timed`: each stage times its team, see `Contacts::set_timed_teams`).
fn window(size: usize, from: f64, to: f64, timed: bool) {
    let h = 1.0 / 60.0;
    let mut start = gyrolab_world(size);
    (start.contacts_mut().expect("contacts")).set_timed_teams(timed);
    while start.time() < from - 0.5 * h {
        start.advance(h).expect("finite step");
    }
    let steps = ((to - from) / h).round() as usize;
    let t = Instant::now();
    for _ in 0..10 {
        let mut w = start.clone();
        (0..steps).for_each(|_| w.advance(h).expect("finite step"));
    }
    let per = t.elapsed().as_secs_f64() / (10 * steps) as f64;
    println!("pile {size}, {from}-{to} s: {:.2} ms a step", per * 1e3);
}

/// The mean round trip (ns) of a value handed back and forth between two threads
/// through one atomic, 200,000 times: what each claim and hand-over of a team of threads
/// costs. On a VM it depends on where the host placed the cores (see
/// `physics/src/solver/choice.rs`); `--latency` prints it, to be read beside a timing.
fn latency() {
    use std::sync::atomic::{
        AtomicU64,
        Ordering::{Acquire, Release},
    };
    #[repr(align(128))]
    struct Alone(AtomicU64);
    const TRIPS: u64 = 200_000;
    let flag = Alone(AtomicU64::new(0));
    let wait_for = |value: u64| while flag.0.load(Acquire) != value {};
    std::thread::scope(|s| {
        s.spawn(|| {
            for i in 0..TRIPS {
                wait_for(2 * i + 1);
                flag.0.store(2 * i + 2, Release);
            }
        });
        let start = Instant::now();
        for i in 0..TRIPS {
            flag.0.store(2 * i + 1, Release);
            wait_for(2 * i + 2);
        }
        let trip = start.elapsed().as_nanos() as f64 / TRIPS as f64;
        println!("{trip:.0} ns a round trip between two threads");
    });
}

/// The bench's lone box (`pile-1000 at rest`, "one lone box awake", [`LoneBox`]) beside
/// the asleep 1,000-box heap for `steps` steps, thrown from where it rested (or with
/// `wander` from where it landed); every 2,000 steps the mean step, the most bodies
/// awake in a step and where the box is.
fn lone(steps: usize, wander: bool) {
    let mut w = gyrolab_world(1000);
    (0..FALL_STEPS).for_each(|_| w.advance(1.0 / 60.0).expect("finite step"));
    let lone = LoneBox::of(&w);
    println!("   steps | mean step | most awake | the box at");
    for block in 0..steps / 2000 {
        let (start, mut most) = (Instant::now(), 0);
        for _ in 0..2000 {
            lone.step(&mut w, wander);
            most = most.max(w.contacts().expect("contacts").stats().awake);
        }
        let mean = start.elapsed().as_secs_f64() / 2000.0;
        let p = w.bodies()[lone.index].state.position;
        println!(
            "{:8} | {:6.1} µs | {most:10} | ({:.2}, {:.2}, {:.2})",
            (block + 1) * 2000,
            mean * 1e6,
            p.x,
            p.y,
            p.z
        );
    }
}

/// Rapier's stage timers (its `Counters`) over the fall of the heap of `size` boxes:
/// each second's mean step, whole and by stage, in ms, while a box is awake.
fn rapier_stages(size: usize) {
    let mut w = rapier_world(&gyrolab_world(size));
    w.physics_pipeline.counters.enable();
    println!("  s  | step  broad narrow islands solver (ms a step)");
    for s in 0..FALL_STEPS / 60 {
        let mut sums = [0.0; 5];
        for _ in 0..60 {
            w.step();
            let c = &w.physics_pipeline.counters;
            let times = [
                c.step_time.time(),
                c.cd.broad_phase_time.time(),
                c.cd.narrow_phase_time.time(),
                c.stages.island_construction_time.time(),
                c.stages.solver_time.time(),
            ];
            for (sum, t) in sums.iter_mut().zip(times) {
                *sum += t.as_secs_f64() * 1e3 / 60.0;
            }
        }
        let [a, b, c, d, e] = sums;
        println!("  {:2} | {a:5.2} {b:5.2} {c:5.2} {d:5.2} {e:5.2}", s + 1);
        if w.islands.active_bodies().next().is_none() {
            break;
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let threads = (args.iter().position(|a| a == "--threads"))
        .and_then(|i| args.get(i + 1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    if let Some(i) = args.iter().position(|a| a == "--window") {
        let arg = |k: usize| args.get(i + k).and_then(|s| s.parse::<f64>().ok());
        let (Some(size), Some(from), Some(to)) = (arg(1), arg(2), arg(3)) else {
            eprintln!("--window SIZE FROM TO: a box count and two times in seconds");
            std::process::exit(2);
        };
        let timed = !args.iter().any(|a| a == "--untimed");
        pool.install(|| window(size as usize, from, to, timed));
        return;
    }
    if let Some(i) = args.iter().position(|a| a == "--lone") {
        let steps = args
            .get(i + 1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(400_000);
        let wander = args.iter().any(|a| a == "--wander");
        pool.install(|| lone(steps, wander));
        return;
    }
    if args.iter().any(|a| a == "--latency") {
        latency();
        return;
    }
    if let Some(i) = args.iter().position(|a| a == "--rapier-stages") {
        let size = args.get(i + 1).and_then(|s| s.parse().ok()).unwrap_or(1000);
        rapier_stages(size);
        return;
    }
    let trace: Option<usize> = (args.iter().position(|a| a == "--trace"))
        .and_then(|i| args.get(i + 1))
        .and_then(|s| s.parse().ok());
    let after_threads = |i: usize| i > 0 && args[i - 1] == "--threads";
    let mut sizes: Vec<usize> = (args.iter().enumerate())
        .filter(|&(i, _)| !after_threads(i))
        .filter_map(|(_, a)| a.parse().ok())
        .collect();
    if sizes.is_empty() {
        sizes = vec![600, 800, 1000, 1200, 1500];
    }
    for size in sizes {
        report(size, trace == Some(size), &pool);
    }
}
