//! Cost of one body-step for every integrator, and of stepping 100,000 free bodies.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use glam::{DQuat, DVec3};
use gyrolab::body::Body;
use gyrolab::body::inertia::Inertia;
use gyrolab::body::{BodyState, MassProps};
use gyrolab::integrators::{Integrator, Loads};
use gyrolab::world::World;

/// The Dzhanibekov T-handle at a game rate: one sub-step for the implicit methods.
fn t_handle() -> (MassProps, BodyState) {
    let props = MassProps {
        mass: 0.9,
        inertia: Inertia::new(DVec3::new(0.00812, 0.00403, 0.01197)).unwrap(),
    };
    let state = BodyState::from_body_omega(&props, DQuat::IDENTITY, DVec3::new(10.0, 0.05, 0.0));
    (props, state)
}

const H: f64 = 1.0 / 60.0;

fn body_step(c: &mut Criterion) {
    let mut group = c.benchmark_group("body-step");
    for integrator in Integrator::ALL {
        let (props, state) = t_handle();
        // Every iteration steps a copy of the same state: no allocation in the timed loop,
        // and the energy-gaining baselines cannot overflow over millions of iterations.
        group.bench_function(integrator.name(), |b| {
            b.iter(|| {
                let mut s = black_box(state);
                let info = integrator.step(&props, &mut s, Loads::default(), black_box(H));
                (s, info)
            })
        });
    }
    group.finish();
}

/// 100,000 bodies with varied inertia and spin, as a world steps them (both cores).
fn many_bodies(c: &mut Criterion) {
    let bodies = (0..100_000)
        .map(|i| {
            let f = i as f64;
            let principal = DVec3::new(
                1.0 + (f * 0.37).sin().abs(),
                1.5 + (f * 0.11).cos().abs(),
                2.0,
            );
            let props = MassProps {
                mass: 1.0,
                inertia: Inertia::new(principal).unwrap(),
            };
            let omega = DVec3::new((f * 0.7).sin(), 3.0 + (f * 0.3).cos(), (f * 1.3).sin()) * 2.0;
            Body {
                name: format!("body-{i}"),
                props,
                state: BodyState::from_body_omega(&props, DQuat::IDENTITY, omega),
                parts: Vec::new(),
                material: Default::default(),
            }
        })
        .collect();
    let mut group = c.benchmark_group("world-100k");
    group.sample_size(20);
    for integrator in [Integrator::Midpoint, Integrator::MomentumClamp] {
        let mut world = World::new(Vec::clone(&bodies), DVec3::ZERO, integrator);
        group.bench_function(integrator.name(), |b| {
            b.iter(|| world.advance(black_box(H)).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, body_step, many_bodies);
criterion_main!(benches);
