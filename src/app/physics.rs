//! Steps the physics core in `FixedUpdate`.

use bevy::prelude::*;

use crate::body::BodyState;
use crate::scene::Scene;
use crate::world::World;

/// The simulated world, the states one step back (for interpolation) and the first error,
/// shown in the app instead of letting NaN spread.
#[derive(Resource)]
pub struct Simulation {
    pub scene: Scene,
    pub world: World,
    pub previous: Vec<BodyState>,
    pub dt: f64,
    pub initial_energy: f64,
    pub error: Option<String>,
}

impl Simulation {
    pub fn new(scene: Scene) -> Self {
        let world = scene.build();
        Self {
            previous: world.bodies.iter().map(|b| b.state).collect(),
            dt: scene.dt,
            initial_energy: world.energy(),
            world,
            scene,
            error: None,
        }
    }
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
            .insert_resource(Simulation::new(self.scene.clone()))
            .add_systems(FixedUpdate, step);
    }
}

fn step(mut sim: ResMut<Simulation>) {
    let sim = &mut *sim;
    if sim.error.is_some() {
        return;
    }
    sim.previous.clear();
    sim.previous
        .extend(sim.world.bodies.iter().map(|b| b.state));
    if let Err(e) = sim.world.step(sim.dt) {
        sim.error = Some(e.to_string());
    }
}
