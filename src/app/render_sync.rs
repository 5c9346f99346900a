//! Spawns a mesh per body part for every lane (and the translucent ghost over each lane),
//! respawns them whenever the lab rebuilds, and copies interpolated physics states to
//! `Transform`s.

use bevy::prelude::*;

use crate::body::inertia::Shape;
use crate::integrators::Integrator;

use super::colors::{GHOST, integrator_color};
use super::physics::Sim;
use super::timing::Timed;
use super::view::View;

pub struct RenderSyncPlugin;

impl Plugin for RenderSyncPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Startup, make_materials).add_systems(
            PostUpdate,
            (respawn, sync).chain().before(TransformSystems::Propagate),
        );
    }
}

/// Which body an entity shows: a lane's, or the ghost's drawn at a lane's place.
#[derive(Component, Clone, Copy)]
pub struct Shows {
    pub lane: usize,
    pub body: usize,
    pub ghost: bool,
}

pub fn mesh_of(shape: Shape) -> Mesh {
    match shape {
        Shape::Sphere { radius } => Sphere::new(radius as f32).into(),
        Shape::Box { half_extents: h } => {
            Cuboid::new(2.0 * h.x as f32, 2.0 * h.y as f32, 2.0 * h.z as f32).into()
        }
        Shape::Cylinder { radius, length } => Cylinder::new(radius as f32, length as f32).into(),
        Shape::Capsule { radius, length } => Capsule3d::new(radius as f32, length as f32).into(),
    }
}

/// Materials made once: one per integrator and the ghost's.
#[derive(Resource)]
struct Materials {
    solid: Vec<Handle<StandardMaterial>>,
    ghost: Handle<StandardMaterial>,
}

fn make_materials(mut commands: Commands, mut materials: ResMut<Assets<StandardMaterial>>) {
    let solid = Integrator::ALL
        .iter()
        .map(|&i| {
            materials.add(StandardMaterial {
                base_color: integrator_color(i),
                perceptual_roughness: 0.45,
                metallic: 0.1,
                ..default()
            })
        })
        .collect();
    let ghost = materials.add(StandardMaterial {
        base_color: GHOST,
        alpha_mode: AlphaMode::Blend,
        unlit: true,
        ..default()
    });
    commands.insert_resource(Materials { solid, ghost });
}

/// Rebuilds the entities when the lab's generation changes (scene switch, reset, a new set
/// of lanes): a handful of entities, so replacing them is simpler than patching them.
fn respawn(
    mut commands: Commands,
    sim: Res<Sim>,
    materials: Res<Materials>,
    shown: Query<Entity, With<Shows>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut spawned: Local<Option<u64>>,
) {
    let _timed = Timed::start();
    if *spawned == Some(sim.generation()) {
        return;
    }
    *spawned = Some(sim.generation());
    for e in &shown {
        commands.entity(e).despawn();
    }
    for (lane, run) in sim.lanes().iter().enumerate() {
        let solid = &materials.solid[run.integrator() as usize];
        let ghost = sim.ghost().map(|g| (g, &materials.ghost));
        for (world, ghost, material) in std::iter::once((run.world(), false, solid))
            .chain(ghost.map(|(g, m)| (g.world(), true, m)))
        {
            for (body, b) in world.bodies().iter().enumerate() {
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
        }
    }
}

/// Interpolates between the last two physics states by the fixed-step overstep, so slow
/// motion and low physics rates still look smooth. A lane switched to another integrator
/// mid-run takes that integrator's colour.
fn sync(
    sim: Res<Sim>,
    view: Res<View>,
    time: Res<Time<Fixed>>,
    materials: Res<Materials>,
    mut shown: Query<(&Shows, &Children, &mut Transform, &mut Visibility)>,
    mut parts: Query<&mut MeshMaterial3d<StandardMaterial>>,
) {
    let _timed = Timed::start();
    let alpha = time.overstep_fraction_f64().clamp(0.0, 1.0);
    // The scales once a frame, not once a body.
    let scale = sim.scale();
    for (shows, children, mut transform, mut visibility) in &mut shown {
        let run = if shows.ghost {
            sim.ghost()
        } else {
            sim.lanes().get(shows.lane)
        };
        let Some(run) = run else { continue };
        let (Some(body), Some(prev)) = (
            run.world().bodies().get(shows.body),
            run.previous().get(shows.body),
        ) else {
            continue;
        };
        let position = prev.position.lerp(body.state.position, alpha);
        let rotation = prev.orientation.slerp(body.state.orientation, alpha);
        transform.translation = position.as_vec3() + scale.lane_offset(shows.lane);
        transform.rotation = rotation.as_quat();
        if shows.ghost {
            visibility.set_if_neq(if view.ghost {
                Visibility::Inherited
            } else {
                Visibility::Hidden
            });
        } else {
            let material = &materials.solid[run.integrator() as usize];
            for &child in children {
                if let Ok(mut m) = parts.get_mut(child)
                    && m.0 != *material
                {
                    m.0 = material.clone();
                }
            }
        }
    }
}
