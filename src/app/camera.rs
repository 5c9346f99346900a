//! Camera and lights framing the scene.

use bevy::prelude::*;

use super::physics::Simulation;

pub struct CameraPlugin;

impl Plugin for CameraPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Startup, setup);
    }
}

/// Radius of a sphere around the origin holding every body at the start.
fn scene_radius(sim: &Simulation) -> f32 {
    sim.world
        .bodies
        .iter()
        .flat_map(|b| {
            b.parts.iter().map(move |p| {
                let reach = match p.shape {
                    crate::inertia::Shape::Sphere { radius } => radius,
                    crate::inertia::Shape::Box { half_extents } => half_extents.length(),
                    crate::inertia::Shape::Cylinder { radius, length }
                    | crate::inertia::Shape::Capsule { radius, length } => 0.5 * length + radius,
                };
                (b.state.position.length() + p.offset.length() + reach) as f32
            })
        })
        .fold(0.1, f32::max)
}

fn setup(mut commands: Commands, sim: Res<Simulation>) {
    let r = scene_radius(&sim);
    commands.spawn((
        Camera3d::default(),
        Transform::from_xyz(1.6 * r, 1.1 * r, 2.4 * r).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    commands.spawn((
        DirectionalLight {
            illuminance: 12_000.0,
            shadow_maps_enabled: false,
            ..default()
        },
        Transform::from_xyz(3.0, 6.0, 4.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    commands.insert_resource(GlobalAmbientLight {
        brightness: 400.0,
        ..default()
    });
}
