use criterion::{Criterion, criterion_group, criterion_main};
use rapier3d::prelude::*;

fn pyramid(rows: usize) -> PhysicsWorld {
    let mut w = PhysicsWorld::default();
    w.insert(
        RigidBodyBuilder::fixed(),
        ColliderBuilder::halfspace(Vector::Y.into()),
    );
    for r in 0..rows {
        for i in 0..rows - r {
            let x = (i as f32 - 0.5 * (rows - r - 1) as f32) * 1.0;
            w.insert(
                RigidBodyBuilder::dynamic().translation(Vector::new(x, 0.5 + r as f32, 0.0)),
                ColliderBuilder::cuboid(0.5, 0.5, 0.5),
            );
        }
    }
    w
}

fn bench(c: &mut Criterion) {
    let mut w = pyramid(10);
    c.bench_function("rapier pyramid 10", |b| b.iter(|| w.step()));
}

criterion_group!(benches, bench);
criterion_main!(benches);
