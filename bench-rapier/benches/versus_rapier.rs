//! Step time of gyrolab's contact scenes against rapier3d 0.36, same scenes, same run.
//!
//! Both engines build the same boxes (1 m cubes, 1 kg, friction 0.6 between boxes;
//! against the half-space 0.55 in gyrolab, the geometric mean of the boxes' 0.6 and the
//! plane's 0.5, and 0.6 in rapier), step at 60 Hz with sleeping off (a sleeping pyramid costs nothing in
//! either engine, which would compare nothing), and iterate equally: gyrolab's soft step
//! with 4 sub-steps × 2 iterations + 1 relax against rapier's 4 solver iterations × 2
//! PGS iterations + 1 stabilization iteration. gyrolab runs twice: by default (contact
//! points follow the bodies through the sub-steps, which conserves momentum) and with
//! the anchors fixed, as rapier keeps them. The measured steps are a window of the
//! scene (after the pyramid has settled, or while the pile forms); gyrolab runs on a
//! pool of one thread and of two (rapier on one: its parallel feature is off); the world
//! is rebuilt
//! outside the timing when the window ends. Before timing, each pyramid is run for ten
//! seconds and the top box's drop is printed: a ratio only counts if the pyramid stands.

use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use gyrolab::world::World;
use rapier3d::prelude::*;

#[path = "../shared/worlds.rs"]
mod worlds;
use worlds::{LoneBox, sleepy_gyrolab_world, sleepy_rapier_world};

fn gyrolab_world(scene: &str, size: usize) -> World {
    sleepy_gyrolab_world(scene, size, false)
}

fn rapier_world(gyro: &World) -> PhysicsWorld {
    sleepy_rapier_world(gyro, false)
}

/// Steps `iters` times from the scene's window `[warm, warm + len)`, rebuilding the world
/// untimed whenever the window is used up.
struct Window<W> {
    build: Box<dyn Fn() -> W + Send>,
    step: Step<W>,
    warm: usize,
    len: usize,
    world: W,
    taken: usize,
}

type Step<W> = Arc<dyn Fn(&mut W) + Send + Sync>;

impl<W> Window<W> {
    fn new(build: Box<dyn Fn() -> W + Send>, step: Step<W>, warm: usize, len: usize) -> Self {
        let world = Self::warmed(&build, &step, warm);
        Self {
            build,
            step,
            warm,
            len,
            world,
            taken: 0,
        }
    }

    fn warmed(build: &dyn Fn() -> W, step: &Step<W>, warm: usize) -> W {
        let mut w = build();
        (0..warm).for_each(|_| step(&mut w));
        w
    }

    fn run(&mut self, iters: u64) -> Duration {
        let mut total = Duration::ZERO;
        for _ in 0..iters {
            if self.taken == self.len {
                self.world = Self::warmed(&self.build, &self.step, self.warm);
                self.taken = 0;
            }
            let start = Instant::now();
            (self.step)(black_box(&mut self.world));
            total += start.elapsed();
            self.taken += 1;
        }
        total
    }

    /// [`Window::run`] on one of `pool`'s threads: the pool's threads are the ones the
    /// step's parallel loops use, and the step is handed to the pool once per sample,
    /// not once per step.
    fn run_on(&mut self, pool: &rayon::ThreadPool, iters: u64) -> Duration
    where
        W: Send,
    {
        pool.install(|| self.run(iters))
    }
}

fn step_gyrolab(w: &mut World) {
    w.advance(1.0 / 60.0).expect("finite step");
}

fn step_rapier(w: &mut PhysicsWorld) {
    w.step();
}

/// The highest box's drop after ten seconds, in both engines.
fn report_standing(rows: usize) {
    let mut gyro = gyrolab_world("pyramid", rows);
    let mut rapier = rapier_world(&gyro);
    let top0 = gyro
        .bodies()
        .iter()
        .map(|b| b.state.position.y)
        .fold(0.0, f64::max);
    (0..600).for_each(|_| {
        step_gyrolab(&mut gyro);
        step_rapier(&mut rapier);
    });
    let top_g = gyro
        .bodies()
        .iter()
        .map(|b| b.state.position.y)
        .fold(0.0, f64::max);
    let top_r = rapier
        .bodies
        .iter()
        .map(|(_, b)| b.translation().y as f64)
        .fold(0.0, f64::max);
    println!(
        "pyramid {rows}: top box dropped {:.1} mm in gyrolab, {:.1} mm in rapier over 10 s",
        (top0 - top_g) * 1e3,
        (top0 - top_r) * 1e3
    );
}

/// A pool of `threads` threads for gyrolab's parallel loops (its colours' rows, the
/// sweep, the narrow phase, the integration).
fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool")
}

fn versus(c: &mut Criterion) {
    // (scene, size, warm-up steps, measured window, samples)
    let cases = [
        ("pyramid", 10, 60, 240, 20),
        ("pyramid", 20, 60, 240, 20),
        ("pile", 1000, 90, 150, 20),
        ("pile", 10_000, 90, 150, 10),
    ];
    for (scene, size, warm, len, samples) in cases {
        if scene == "pyramid" {
            report_standing(size);
        }
        let mut group = c.benchmark_group(format!("{scene}-{size}"));
        group.sample_size(samples);
        // Each window is built on its benchmark's first call (criterion calls it once per
        // sample), so a filtered run builds only those it measures.
        for threads in [1, 2] {
            let name = format!(
                "gyrolab, {threads} thread{}",
                if threads > 1 { "s" } else { "" }
            );
            let mut g = None;
            group.bench_function(name, |b| {
                let (g, pool) = g.get_or_insert_with(|| {
                    let pool = pool(threads);
                    let build = move || gyrolab_world(scene, size);
                    let step = Arc::new(step_gyrolab);
                    (
                        pool.install(|| Window::new(Box::new(build), step, warm, len)),
                        pool,
                    )
                });
                b.iter_custom(|n| g.run_on(pool, n))
            });
        }
        // Fixed anchors through the sub-steps, as rapier and Box2D v3 keep them.
        let mut f = None;
        group.bench_function("gyrolab, fixed anchors, 1 thread", |b| {
            let f = f.get_or_insert_with(|| {
                let build = move || {
                    let mut w = gyrolab_world(scene, size);
                    w.change_solver_settings(|s| s.follow_anchors = false);
                    w
                };
                let pool = pool(1);
                let step = Arc::new(step_gyrolab);
                (
                    pool.install(|| Window::new(Box::new(build), step, warm, len)),
                    pool,
                )
            });
            b.iter_custom(|n| f.0.run_on(&f.1, n))
        });
        let mut r = None;
        group.bench_function("rapier", |b| {
            let r = r.get_or_insert_with(|| {
                let build = move || rapier_world(&gyrolab_world(scene, size));
                Window::new(Box::new(build), Arc::new(step_rapier), warm, len)
            });
            b.iter_custom(|n| r.run(n))
        });
        group.finish();
    }
}

/// Steps of 60 Hz in the whole fall that the sleeping benchmarks simulate (30 s).
const FALL_STEPS: usize = 1800;

/// When every box of the clear-start pile is asleep in each engine (sleeping on in both),
/// within the 30 s of the sleeping benchmark.
fn report_sleeping(size: usize) {
    let mut gyro = sleepy_gyrolab_world("pile", size, true);
    let mut rapier = sleepy_rapier_world(&gyro, true);
    let (mut g, mut r) = (None, None);
    for k in 1..=FALL_STEPS {
        step_gyrolab(&mut gyro);
        step_rapier(&mut rapier);
        let t = k as f64 / 60.0;
        let contacts = gyro.contacts().expect("contacts");
        if g.is_none() && (0..gyro.bodies().len()).all(|b| contacts.is_asleep(b)) {
            g = Some(t);
        }
        if r.is_none()
            && rapier
                .bodies
                .iter()
                .all(|(_, b)| b.is_sleeping() || b.is_fixed())
        {
            r = Some(t);
        }
    }
    let at = |t: Option<f64>| t.map_or("not within 30 s".into(), |t| format!("at {t:.2} s"));
    println!(
        "pile {size}: every box asleep {} in gyrolab, {} in rapier",
        at(g),
        at(r)
    );
}

/// The whole fall of the clear-start pile, sleeping on in both engines: 30 s from the
/// start, each run timed whole (the world is built outside the timing); and the step of
/// the heap at rest, asleep (on one thread and on two) against the same heap kept awake,
/// and beside one box awake.
fn sleeping(c: &mut Criterion) {
    let size = 1000;
    report_sleeping(size);
    fall(c, size);
    at_rest(c, size);
}

/// The 30 s fall, each run timed whole, in both engines.
fn fall(c: &mut Criterion, size: usize) {
    let mut group = c.benchmark_group(format!("pile-{size}, 30 s fall, sleeping on"));
    group.sample_size(10);
    // On two threads as well: as islands fall asleep the awake set shrinks, and a small
    // one is stepped on one thread rather than paying for a team.
    for threads in [1, 2] {
        let on = pool(threads);
        let name = format!(
            "gyrolab, {threads} thread{}",
            if threads > 1 { "s" } else { "" }
        );
        group.bench_function(name, |b| {
            b.iter_custom(|n| {
                on.install(|| {
                    let mut total = Duration::ZERO;
                    for _ in 0..n {
                        let mut w = sleepy_gyrolab_world("pile", size, true);
                        let start = Instant::now();
                        (0..FALL_STEPS).for_each(|_| step_gyrolab(black_box(&mut w)));
                        total += start.elapsed();
                    }
                    total
                })
            })
        });
    }
    group.bench_function("rapier", |b| {
        b.iter_custom(|n| {
            let mut total = Duration::ZERO;
            for _ in 0..n {
                let mut w = sleepy_rapier_world(&sleepy_gyrolab_world("pile", size, true), true);
                let start = Instant::now();
                (0..FALL_STEPS).for_each(|_| step_rapier(black_box(&mut w)));
                total += start.elapsed();
            }
            total
        })
    });
    group.finish();
}

/// The heap at rest: asleep on one and two threads, kept awake, and beside one box awake.
fn at_rest(c: &mut Criterion, size: usize) {
    let mut group = c.benchmark_group(format!("pile-{size} at rest"));
    group.sample_size(20);
    let one = pool(1);
    let rested = one.install(|| {
        let mut w = sleepy_gyrolab_world("pile", size, true);
        (0..FALL_STEPS).for_each(|_| step_gyrolab(&mut w));
        w
    });
    // Asleep and kept awake on one thread; asleep on two too, where a stage that woke
    // the pool's threads for nothing would show.
    let two = pool(2);
    for (asleep, threads) in [(true, 1), (true, 2), (false, 1)] {
        let mut w = rested.clone();
        w.contacts_mut().expect("contacts").set_sleeping(asleep);
        let pool = if threads == 1 { &one } else { &two };
        pool.install(|| (0..10).for_each(|_| step_gyrolab(&mut w)));
        let name = match (asleep, threads) {
            (true, 1) => "gyrolab, asleep",
            (true, _) => "gyrolab, asleep, 2 threads",
            (false, _) => "gyrolab, kept awake",
        };
        group.bench_function(name, |b| {
            b.iter_custom(|n| {
                pool.install(|| {
                    let start = Instant::now();
                    (0..n).for_each(|_| step_gyrolab(black_box(&mut w)));
                    start.elapsed()
                })
            })
        });
    }
    // One box awake beside the asleep rest of the heap: what the rest costs beside it.
    let mut w = rested;
    let lone = LoneBox::of(&w);
    group.bench_function("gyrolab, one lone box awake", |b| {
        b.iter_custom(|n| {
            one.install(|| {
                let start = Instant::now();
                for _ in 0..n {
                    lone.step(black_box(&mut w), false);
                }
                start.elapsed()
            })
        })
    });
    group.finish();
}

criterion_group!(benches, versus, sleeping);
criterion_main!(benches);
