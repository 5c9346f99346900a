//! What the timeline costs on `pile` (1,000 boxes, kept awake so every step does the
//! whole solve): a physics step with the history recorded and without it (the target:
//! recording adds at most 5%; the same for the default scene), taking one keyframe, and the worst seek, to a step just
//! before the next keyframe (restore, then `KEYFRAME_INTERVAL - 1` steps again; the
//! target: under 50 ms). `KEYFRAME_INTERVAL` is chosen from these figures (see
//! lab/src/lab/timeline.rs).

use gyrolab::lab::Input;
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use gyrolab::lab::Lab;
use gyrolab::lab::timeline::KEYFRAME_INTERVAL;
use gyrolab::scene::Scene;

fn awake_pile() -> Lab {
    let mut lab = Lab::new(Scene::load("pile").unwrap());
    let mut settings = *lab.world().contacts().unwrap().settings();
    settings.sleep = false;
    lab.apply(Input::SetSolverSettings(settings)).unwrap();
    lab
}

fn timeline(c: &mut Criterion) {
    let mut group = c.benchmark_group("timeline");
    group.sample_size(30);
    // The pile, and the app's default scene (four lanes and the ghost, one body each).
    for (scene, fresh) in [
        ("pile", awake_pile()),
        ("dzhanibekov", Lab::new(Scene::load("dzhanibekov").unwrap())),
    ] {
        for on in [false, true] {
            let mut fresh = fresh.clone();
            fresh.set_history(on);
            for _ in 0..30 {
                fresh.step();
            }
            let mut lab = fresh.clone();
            let mut steps = 0;
            let name = if on { "history" } else { "no-history" };
            group.bench_function(format!("{scene}-step/{name}"), |b| {
                b.iter(|| {
                    steps += 1;
                    // Back to the same stretch of the run every 200 steps.
                    if steps % 200 == 0 {
                        lab = fresh.clone();
                    }
                    lab.step()
                })
            });
        }
    }
    // Two seconds in: the heap has formed (with sleeping on it would sleep), every box awake.
    let mut lab = awake_pile();
    let recorded = 120 - 120 % KEYFRAME_INTERVAL;
    for _ in 0..recorded {
        lab.step();
    }
    group.bench_function("pile-keyframe", |b| b.iter(|| black_box(lab.snapshot())));
    group.bench_function("pile-fingerprint", |b| {
        b.iter(|| gyrolab::lab::fingerprint::fingerprint(lab.lanes().iter().map(|r| r.world())))
    });
    let worst = recorded - 1;
    group.bench_function("pile-seek-worst", |b| {
        b.iter(|| assert!(lab.seek(black_box(worst))))
    });
    group.finish();
    println!("pile keyframe: {} bytes", lab.snapshot().heap_bytes());
}

criterion_group!(benches, timeline);
criterion_main!(benches);
