//! Steps the physics core in `FixedUpdate`: one [`Run`] per lane, and the exact solution
//! as a ghost when the scene has one.

use bevy::prelude::*;

use crate::integrators::Integrator;
use crate::run::Run;
use crate::scene::Scene;

/// Integrators shown side by side on single-body scenes: wrong motion, no flip, drift,
/// and the method that gets it right.
const SIDE_BY_SIDE: [Integrator; 4] = [
    Integrator::ExplicitEuler,
    Integrator::NoGyro,
    Integrator::MomentumClamp,
    Integrator::Midpoint,
];

/// Every lane with identical initial conditions; a failed lane stops and shows its error
/// instead of spreading NaN.
#[derive(Resource)]
pub struct Simulation {
    pub scene: Scene,
    pub dt: f64,
    pub lanes: Vec<Run>,
    /// The analytic solution, drawn translucent over every lane.
    pub ghost: Option<Run>,
    /// Radius of a sphere about the origin holding one lane's bodies at the start: the
    /// scale for lane spacing, camera distance and arrows.
    pub radius: f32,
}

impl Simulation {
    pub fn new(scene: Scene) -> Self {
        let world = scene.build();
        let (lanes, ghost): (Vec<Run>, _) = if world.analytic_applies() {
            let lanes = SIDE_BY_SIDE
                .iter()
                .map(|&i| Run::new(world.clone(), i))
                .collect();
            (lanes, Some(Run::new(world, Integrator::Analytic)))
        } else {
            let integrator = world.integrator;
            (vec![Run::new(world, integrator)], None)
        };
        let radius = lanes[0]
            .world
            .bodies
            .iter()
            .flat_map(|b| {
                let center = b.state.position.length();
                b.parts
                    .iter()
                    .map(move |p| center + p.offset.length() + p.shape.bounding_radius())
            })
            .fold(0.1, f64::max) as f32;
        Self {
            dt: scene.dt,
            scene,
            lanes,
            ghost,
            radius,
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

impl Simulation {
    /// One physics step of every lane and the ghost. Errors are kept in each run and shown
    /// by the HUD.
    pub fn step(&mut self) {
        for run in self.lanes.iter_mut().chain(self.ghost.as_mut()) {
            let _ = run.step(self.dt);
        }
    }
}

fn step(mut sim: ResMut<Simulation>) {
    sim.step();
}
