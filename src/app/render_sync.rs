//! Spawns a mesh per body part for every lane (and the translucent ghost over each lane)
//! and copies interpolated physics states to `Transform`s.

use bevy::prelude::*;

use crate::inertia::Shape;
use crate::integrators::Integrator;
use crate::run::Run;

use super::physics::Simulation;

pub struct RenderSyncPlugin;

impl Plugin for RenderSyncPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Startup, spawn_bodies)
            .add_systems(PostUpdate, sync.before(TransformSystems::Propagate));
    }
}

/// Which body an entity shows: a lane's, or the ghost's drawn at a lane's place.
#[derive(Component, Clone, Copy)]
pub struct Shows {
    pub lane: usize,
    pub body: usize,
    pub ghost: bool,
}

/// One colour per integrator, the same in the 3D view and in the panel.
pub fn integrator_color(i: Integrator) -> Color {
    const PALETTE: [(f32, f32, f32); 11] = [
        (0.90, 0.30, 0.25),
        (0.95, 0.60, 0.20),
        (0.60, 0.60, 0.65),
        (0.85, 0.75, 0.20),
        (0.70, 0.45, 0.85),
        (0.30, 0.80, 0.45),
        (0.25, 0.75, 0.80),
        (0.35, 0.55, 0.95),
        (0.90, 0.45, 0.70),
        (0.65, 0.85, 0.30),
        (0.95, 0.95, 0.95),
    ];
    let (r, g, b) = PALETTE[i as usize];
    Color::srgb(r, g, b)
}

/// Distance between lanes: the scene's size plus room.
pub fn lane_spacing(sim: &Simulation) -> f32 {
    2.6 * sim.radius
}

/// World offset of lane `i`, the lanes centred on the origin along x.
pub fn lane_offset(sim: &Simulation, i: usize) -> Vec3 {
    let n = sim.lanes.len() as f32;
    Vec3::X * (i as f32 - 0.5 * (n - 1.0)) * lane_spacing(sim)
}

fn mesh_of(shape: Shape) -> Mesh {
    match shape {
        Shape::Sphere { radius } => Sphere::new(radius as f32).into(),
        Shape::Box { half_extents: h } => {
            Cuboid::new(2.0 * h.x as f32, 2.0 * h.y as f32, 2.0 * h.z as f32).into()
        }
        Shape::Cylinder { radius, length } => Cylinder::new(radius as f32, length as f32).into(),
        Shape::Capsule { radius, length } => Capsule3d::new(radius as f32, length as f32).into(),
    }
}

fn spawn_bodies(
    mut commands: Commands,
    sim: Res<Simulation>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let ghost_material = materials.add(StandardMaterial {
        base_color: Color::srgba(0.9, 0.95, 1.0, 0.22),
        alpha_mode: AlphaMode::Blend,
        unlit: true,
        ..default()
    });
    for (lane, run) in sim.lanes.iter().enumerate() {
        let solid = materials.add(StandardMaterial {
            base_color: integrator_color(run.integrator()),
            perceptual_roughness: 0.45,
            metallic: 0.1,
            ..default()
        });
        let mut spawn = |run: &Run, ghost: bool, material: &Handle<StandardMaterial>| {
            for (body, b) in run.world.bodies.iter().enumerate() {
                commands
                    .spawn((
                        Shows { lane, body, ghost },
                        Transform::default(),
                        Visibility::default(),
                    ))
                    .with_children(|parent| {
                        for part in &b.parts {
                            parent.spawn((
                                Mesh3d(meshes.add(mesh_of(part.shape))),
                                MeshMaterial3d(material.clone()),
                                Transform::from_translation(part.offset.as_vec3())
                                    .with_rotation(part.rotation.as_quat()),
                            ));
                        }
                    });
            }
        };
        spawn(run, false, &solid);
        if let Some(ghost) = &sim.ghost {
            spawn(ghost, true, &ghost_material);
        }
    }
}

/// Interpolates between the last two physics states by the fixed-step overstep, so slow
/// physics rates still look smooth.
fn sync(sim: Res<Simulation>, time: Res<Time<Fixed>>, mut shown: Query<(&Shows, &mut Transform)>) {
    let alpha = time.overstep_fraction_f64();
    for (shows, mut transform) in &mut shown {
        let run = if shows.ghost {
            sim.ghost.as_ref()
        } else {
            sim.lanes.get(shows.lane)
        };
        let Some(run) = run else { continue };
        let (Some(body), Some(prev)) = (
            run.world.bodies.get(shows.body),
            run.previous.get(shows.body),
        ) else {
            continue;
        };
        let position = prev.position.lerp(body.state.position, alpha);
        let rotation = prev.orientation.slerp(body.state.orientation, alpha);
        transform.translation = position.as_vec3() + lane_offset(&sim, shows.lane);
        transform.rotation = rotation.as_quat();
    }
}
