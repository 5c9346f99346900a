//! The app's model without Bevy: what a scene switch, a reset and one physics step of the
//! default scene cost (the targets are < 100 ms per switch and < 4 ms of our CPU per
//! frame; the app measures the whole frame itself, see docs/speed.md).

use gyrolab::lab::Input;
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use gyrolab::lab::Lab;
use gyrolab::scene::{Scene, scene_names};

fn scene_switch(c: &mut Criterion) {
    let mut group = c.benchmark_group("lab");
    let mut lab = Lab::new(Scene::load("dzhanibekov").unwrap());
    for name in scene_names() {
        group.bench_function(format!("load-scene/{name}"), |b| {
            b.iter(|| lab.load_scene(Scene::load(black_box(name)).unwrap()))
        });
    }
    let mut lab = Lab::new(Scene::load("dzhanibekov").unwrap());
    group.bench_function("reset/dzhanibekov", |b| {
        b.iter(|| lab.apply(Input::Restart).unwrap())
    });
    // One fixed step as the app takes it (lanes, ghost, plots, trails, recording): the
    // default scene, and the moving-frame scenes (drives, propagation, riders by RK4).
    // Each lab is rebuilt every 10,000 steps so the recording never fills up.
    for name in [
        "dzhanibekov",
        "tank",
        "carousel",
        "foucault",
        "crash",
        "turntable",
        "top-on-turntable",
    ] {
        let fresh = Lab::new(Scene::load(name).unwrap());
        let mut lab = fresh.clone();
        let mut steps = 0;
        group.bench_function(format!("step/{name}"), |b| {
            b.iter(|| {
                steps += 1;
                if steps % 10_000 == 0 {
                    lab = fresh.clone();
                }
                lab.step()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, scene_switch);
criterion_main!(benches);
