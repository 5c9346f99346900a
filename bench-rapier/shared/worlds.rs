//! The worlds both the bench and `examples/heap_counts.rs` step: gyrolab's generated boxes,
//! and rapier's copy of them at equal iterations (one file, included by both with
//! `#[path]`: the bench crate has no library, since rapier3d is only its dev-dependency).

use gyrolab::body::BodyState;
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

/// The box of a settled heap farthest from any other (an island of its own), and its
/// state where it rests: the bench's lone box, thrown straight up from there whenever it
/// falls asleep. (Thrown from where it last landed, it wandered back to the heap and,
/// some 228,000 steps in, woke it for thousands of steps: `heap_counts --lone --wander`.)
pub struct LoneBox {
    pub index: usize,
    rest: BodyState,
}

impl LoneBox {
    pub fn of(w: &World) -> Self {
        let centres: Vec<_> = w.bodies().iter().map(|b| b.state.position).collect();
        let nearest = |i: usize| {
            (centres.iter().enumerate())
                .filter(|&(j, _)| j != i)
                .map(|(_, c)| (*c - centres[i]).length())
                .fold(f64::INFINITY, f64::min)
        };
        let index = (0..centres.len())
            .max_by(|&i, &j| nearest(i).total_cmp(&nearest(j)))
            .expect("boxes");
        Self {
            index,
            rest: w.bodies()[index].state,
        }
    }

    /// One step of `w` at 60 Hz, the box first thrown up at 5 m/s if it sleeps: from
    /// where it rested, or with `wander` from where it landed.
    pub fn step(&self, w: &mut World, wander: bool) {
        let contacts = w.contacts_mut().expect("contacts");
        if contacts.is_asleep(self.index) {
            contacts.wake(self.index);
            let state = &mut w.bodies_mut()[self.index].state;
            if !wander {
                *state = self.rest;
            }
            state.velocity.y = 5.0;
        }
        w.advance(1.0 / 60.0).expect("finite step");
    }
}
