//! Dynamics propagation over 100,000 entities in Bevy's parent tree against Bevy's own
//! transform propagation over the same tree, in the same run: 1,000 roots, each with 9
//! children with 10 children each (depth 3). Every local transform is marked changed
//! before each pass, as when everything moves (our dynamics change every physics step).

use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;
use bevy::transform::systems::{
    StaticTransformOptimizations, mark_dirty_trees, propagate_parent_transforms,
    sync_simple_transforms,
};
use criterion::{Criterion, criterion_group, criterion_main};
use glam::{DQuat, DVec3};
use gyrolab::app::{GlobalDynamics, LocalDynamics, propagate_dynamics};
use gyrolab::hierarchy::{DynamicTransform, Transform as Placement};

#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
struct BevyPropagation;

#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
struct DynamicsPropagation;

const ROOTS: usize = 1000;
const CHILDREN: usize = 9;
const GRANDCHILDREN: usize = 10;

fn node(i: usize) -> (Transform, LocalDynamics, GlobalDynamics) {
    let x = i as f64;
    let axis = DVec3::new(x.sin(), x.cos(), 0.5).normalize();
    let local = DynamicTransform {
        transform: Placement::from_translation_rotation(
            DVec3::new(0.5, 0.1 * (x * 0.3).sin(), -0.2),
            DQuat::from_axis_angle(axis, 0.01 * x),
        ),
        velocity: DVec3::new(0.1, 0.0, 0.2),
        accel: DVec3::new(0.0, -0.1, 0.0),
        angular_velocity: axis * 0.3,
        angular_accel: axis * 0.01,
    };
    let t = local.transform;
    (
        Transform::from_translation(t.translation.as_vec3()).with_rotation(t.rotation.as_quat()),
        LocalDynamics(local),
        GlobalDynamics::default(),
    )
}

fn tree() -> App {
    let mut app = App::new();
    app.add_plugins(TaskPoolPlugin::default())
        .init_resource::<StaticTransformOptimizations>();
    app.add_systems(
        BevyPropagation,
        (
            mark_dirty_trees,
            propagate_parent_transforms,
            sync_simple_transforms,
        )
            .chain(),
    )
    .add_systems(DynamicsPropagation, propagate_dynamics);
    let world = app.world_mut();
    let mut n = 0;
    let mut next = || {
        n += 1;
        node(n)
    };
    for _ in 0..ROOTS {
        let root = world.spawn(next()).id();
        for _ in 0..CHILDREN {
            let child = world.spawn((next(), ChildOf(root))).id();
            for _ in 0..GRANDCHILDREN {
                world.spawn((next(), ChildOf(child)));
            }
        }
    }
    assert_eq!(
        world.query::<&LocalDynamics>().iter(world).len(),
        ROOTS * (1 + CHILDREN * (1 + GRANDCHILDREN))
    );
    app.finish();
    app.cleanup();
    app
}

fn touch<C: Component<Mutability = bevy::ecs::component::Mutable>>(world: &mut World) {
    for mut c in world.query::<&mut C>().iter_mut(world) {
        c.set_changed();
    }
}

fn bench(c: &mut Criterion) {
    let mut app = tree();
    let mut group = c.benchmark_group("propagation-100k");
    group.sample_size(30);
    group.bench_function("bevy-transform", |b| {
        b.iter(|| {
            let world = app.world_mut();
            touch::<Transform>(world);
            world.run_schedule(BevyPropagation);
        })
    });
    group.bench_function("gyrolab-dynamics", |b| {
        b.iter(|| {
            let world = app.world_mut();
            touch::<LocalDynamics>(world);
            world.run_schedule(DynamicsPropagation);
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
