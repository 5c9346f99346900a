//! The core's dynamics propagation (`rig::propagate`: transforms, velocities and
//! accelerations, parents first over a flat array) over 100,000 frames, against Bevy's own
//! transform propagation over the same tree as entities, in the same run: 1,000 roots,
//! each with 9 children with 10 children each (depth 3). Every local transform is marked
//! changed before each Bevy pass, as when everything moves (our dynamics change every
//! physics step).

use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;
use bevy::transform::systems::{
    StaticTransformOptimizations, mark_dirty_trees, propagate_parent_transforms,
    sync_simple_transforms,
};
use criterion::{Criterion, criterion_group, criterion_main};
use glam::{DQuat, DVec3};
use gyrolab::hierarchy::rig::{self, Frame};
use gyrolab::hierarchy::{Drive, DynamicTransform, Transform as Placement};

#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
struct BevyPropagation;

const ROOTS: usize = 1000;
const CHILDREN: usize = 9;
const GRANDCHILDREN: usize = 10;

fn node(i: usize) -> DynamicTransform {
    let x = i as f64;
    let axis = DVec3::new(x.sin(), x.cos(), 0.5).normalize();
    DynamicTransform {
        transform: Placement::from_translation_rotation(
            DVec3::new(0.5, 0.1 * (x * 0.3).sin(), -0.2),
            DQuat::from_axis_angle(axis, 0.01 * x),
        ),
        velocity: DVec3::new(0.1, 0.0, 0.2),
        accel: DVec3::new(0.0, -0.1, 0.0),
        angular_velocity: axis * 0.3,
        angular_accel: axis * 0.01,
    }
}

fn bevy_transform(local: &DynamicTransform) -> Transform {
    let t = local.transform;
    Transform::from_translation(t.translation.as_vec3()).with_rotation(t.rotation.as_quat())
}

/// The tree as the core's frames: parents first, as scenes list them.
fn frames() -> Vec<Frame> {
    let mut frames = Vec::with_capacity(ROOTS * (1 + CHILDREN * (1 + GRANDCHILDREN)));
    let mut add = |parent: Option<usize>| {
        let local = node(frames.len() + 1);
        frames.push(Frame {
            name: String::new(),
            parent,
            drive: Drive::Steady,
            local,
            global: local,
            parts: Vec::new(),
            material: Default::default(),
        });
        frames.len() - 1
    };
    for _ in 0..ROOTS {
        let root = add(None);
        for _ in 0..CHILDREN {
            let child = add(Some(root));
            for _ in 0..GRANDCHILDREN {
                add(Some(child));
            }
        }
    }
    frames
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
    );
    let world = app.world_mut();
    let mut n = 0;
    let mut next = || {
        n += 1;
        bevy_transform(&node(n))
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
        world.query::<&Transform>().iter(world).len(),
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
    let mut frames = frames();
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
        b.iter(|| rig::propagate(&mut frames))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
