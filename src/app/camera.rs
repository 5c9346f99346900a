//! Camera and lights framing every lane.

use bevy::prelude::*;

use super::physics::Simulation;
use super::render_sync::lane_spacing;

pub struct CameraPlugin;

impl Plugin for CameraPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Startup, setup);
    }
}

fn setup(mut commands: Commands, sim: Res<Simulation>) {
    let r = sim.radius;
    // Far enough back that the row of lanes fills the width.
    let width = lane_spacing(&sim) * sim.lanes.len() as f32;
    let d = (2.6 * r).max(0.62 * width);
    commands.spawn((
        Camera3d::default(),
        Transform::from_xyz(0.0, 0.45 * d, d).looking_at(Vec3::new(0.0, -0.1 * r, 0.0), Vec3::Y),
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
