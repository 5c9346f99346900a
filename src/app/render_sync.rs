//! Spawns a mesh per body part and copies interpolated physics states to `Transform`s.

use bevy::prelude::*;

use crate::inertia::Shape;

use super::physics::Simulation;

pub struct RenderSyncPlugin;

impl Plugin for RenderSyncPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Startup, spawn_bodies)
            .add_systems(PostUpdate, sync.before(TransformSystems::Propagate));
    }
}

/// Which body of the simulation an entity shows.
#[derive(Component)]
pub struct BodyIndex(pub usize);

const PALETTE: [Color; 4] = [
    Color::srgb(0.95, 0.55, 0.2),
    Color::srgb(0.3, 0.65, 0.95),
    Color::srgb(0.55, 0.85, 0.4),
    Color::srgb(0.9, 0.4, 0.6),
];

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
    for (i, body) in sim.world.bodies.iter().enumerate() {
        let material = materials.add(StandardMaterial {
            base_color: PALETTE[i % PALETTE.len()],
            perceptual_roughness: 0.45,
            metallic: 0.1,
            ..default()
        });
        commands
            .spawn((BodyIndex(i), Transform::default(), Visibility::default()))
            .with_children(|parent| {
                for part in &body.parts {
                    parent.spawn((
                        Mesh3d(meshes.add(mesh_of(part.shape))),
                        MeshMaterial3d(material.clone()),
                        Transform::from_translation(part.offset.as_vec3())
                            .with_rotation(part.rotation.as_quat()),
                    ));
                }
            });
    }
}

/// Interpolates between the last two physics states by the fixed-step overstep, so slow
/// physics rates still look smooth.
fn sync(
    sim: Res<Simulation>,
    time: Res<Time<Fixed>>,
    mut bodies: Query<(&BodyIndex, &mut Transform)>,
) {
    let alpha = time.overstep_fraction_f64();
    for (BodyIndex(i), mut transform) in &mut bodies {
        let (Some(body), Some(prev)) = (sim.world.bodies.get(*i), sim.previous.get(*i)) else {
            continue;
        };
        let position = prev.position.lerp(body.state.position, alpha);
        let rotation = prev.orientation.slerp(body.state.orientation, alpha);
        transform.translation = position.as_vec3();
        transform.rotation = rotation.as_quat();
    }
}
