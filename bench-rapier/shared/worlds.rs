//! The worlds both the bench and `examples/heap_counts.rs` step: gyrolab's generated boxes,
//! and rapier's copy of them at equal iterations (one file, included by both with
//! `#[path]`: the bench crate has no library, since rapier3d is only its dev-dependency).

use gyrolab::scene::Scene;
use gyrolab::world::World;
use rapier3d::prelude::*;

pub const HALF: f32 = 0.5;
pub const FRICTION: f32 = 0.6;

/// The scene's boxes as gyrolab generates them, with sleeping on or off.
pub fn sleepy_gyrolab_world(scene: &str, size: usize, sleep: bool) -> World {
    let mut scene = Scene::load(scene).expect("built-in scene");
    scene.set_generated_size(size).expect("size in range");
    let mut world = scene.build();
    world.change_solver_settings(|s| s.sleep = sleep);
    world
}

/// Rapier's copy of gyrolab's world, with sleeping on or off.
pub fn sleepy_rapier_world(gyro: &World, sleep: bool) -> PhysicsWorld {
    let s = *gyro.contacts().expect("a contact scene").settings();
    let mut w = PhysicsWorld::default();
    w.integration_parameters.num_solver_iterations = s.substeps as usize;
    w.integration_parameters.num_internal_pgs_iterations = s.substep_iterations as usize;
    w.integration_parameters
        .num_internal_stabilization_iterations = 1;
    w.insert(
        RigidBodyBuilder::fixed(),
        ColliderBuilder::halfspace(rapier3d::na::Unit::new_unchecked(Vector::Y)).friction(FRICTION),
    );
    for b in gyro.bodies() {
        let p = b.state.position;
        let p = Vector::new(p.x as f32, p.y as f32, p.z as f32);
        let r = b.state.orientation.to_scaled_axis();
        let r = Vector::new(r.x as f32, r.y as f32, r.z as f32);
        w.insert(
            RigidBodyBuilder::dynamic()
                .translation(p)
                .rotation(r)
                .can_sleep(sleep),
            ColliderBuilder::cuboid(HALF, HALF, HALF)
                .density(1.0)
                .friction(FRICTION),
        );
    }
    w
}
