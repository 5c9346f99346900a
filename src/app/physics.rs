//! Steps the lab in `FixedUpdate`, at the rate the user sets, and times each step.

use std::time::Instant;

use bevy::prelude::*;

use crate::lab::Lab;
use crate::scene::Scene;

use super::status::Timed;

/// The lab, as the app's one physics resource.
#[derive(Resource, Deref, DerefMut)]
pub struct Sim(pub Lab);

/// Wall time of one physics step (every lane and the ghost), smoothed over recent steps.
#[derive(Resource, Default)]
pub struct StepTiming {
    pub micros: f64,
}

pub struct PhysicsPlugin {
    scene: Scene,
}

impl PhysicsPlugin {
    pub fn new(scene: Scene) -> Self {
        Self { scene }
    }
}

impl Plugin for PhysicsPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(Time::<Fixed>::from_seconds(self.scene.dt))
            .insert_resource(Sim(Lab::new(self.scene.clone())))
            .init_resource::<StepTiming>()
            .add_systems(FixedUpdate, step)
            .add_systems(Update, follow_dt);
    }
}

fn step(mut sim: ResMut<Sim>, mut timing: ResMut<StepTiming>) {
    let _timed = Timed::start();
    let start = Instant::now();
    sim.step();
    let micros = start.elapsed().as_secs_f64() * 1e6;
    timing.micros = if timing.micros == 0.0 {
        micros
    } else {
        0.95 * timing.micros + 0.05 * micros
    };
}

/// One fixed step is one `dt` of the lab, so the fixed rate follows the dt slider.
fn follow_dt(sim: Res<Sim>, mut fixed: ResMut<Time<Fixed>>) {
    let _timed = Timed::start();
    if (fixed.timestep().as_secs_f64() - sim.dt).abs() > 1e-12 {
        fixed.set_timestep_seconds(sim.dt);
    }
}
