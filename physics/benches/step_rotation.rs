//! The README's cost: one body-step of another engine's body through `step_rotation` (its
//! orientation and world ω converted in and out), midpoint beside the momentum clamp, on
//! the `clamp-drift` box. Run: `cargo bench -p gyrolab-physics`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use gyrolab_physics::integrators::Integrator;

#[path = "../examples/midpoint_vs_clamp.rs"]
#[allow(dead_code)] // the example's own drift, timing and `main` are not benched here
mod example;

fn step_rotation(c: &mut Criterion) {
    let mut group = c.benchmark_group("step_rotation");
    for integrator in [Integrator::Midpoint, Integrator::MomentumClamp] {
        let body = example::spinning_box();
        // Every iteration steps a copy of the same body, so the spin stays the scene's.
        group.bench_function(integrator.name(), |b| {
            b.iter(|| {
                let mut body = black_box(body.clone());
                body.step(black_box(integrator)).unwrap();
                body
            })
        });
    }
    group.finish();
}

criterion_group!(benches, step_rotation);
criterion_main!(benches);
