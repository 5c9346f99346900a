//! Transform-hierarchy scenes in the view. The frames' dynamics live in the lab's world
//! alone (the core propagates them once per step); here each driven frame is an entity
//! placed at the core's global transform, with its parts' meshes as children. The
//! riders' inertial-force arrows and their paths read the core's frames too. The
//! Foucault and circling readout windows are in `frame_readouts.rs`; this plugin
//! schedules them with the force labels.

use std::collections::VecDeque;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::hierarchy::rig::Mount;

use super::colors::{
    FORCE_COLORS, FRAME_PARTS, FRAME_PATH_COLOR, GROUND_COLOR, WORLD_PATH_COLOR, egui_color,
};
use super::draw_order::Panels;
use super::frame_readouts::{circling, foucault};
use super::labels::label_at;
use super::physics::Sim;
use super::render_sync::mesh_of;
use super::timing::Timed;
use super::view::View;

pub struct FramesPlugin;

impl Plugin for FramesPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Paths>()
            .add_systems(FixedPostUpdate, record)
            .add_systems(
                PostUpdate,
                (respawn, place).chain().before(TransformSystems::Propagate),
            )
            .add_systems(Update, (draw_inertial_forces, draw_paths, draw_decks))
            .add_systems(
                EguiPrimaryContextPass,
                (label_forces, foucault, circling).after(Panels),
            );
    }
}

/// The frame of the first lane's world an entity shows.
#[derive(Component, Clone, Copy)]
struct ShowsFrame(usize);

/// Rebuilds the frame entities when the lab does.
fn respawn(
    mut commands: Commands,
    sim: Res<Sim>,
    shown: Query<Entity, With<ShowsFrame>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut spawned: Local<Option<u64>>,
    mut material: Local<Option<Handle<StandardMaterial>>>,
) {
    let _timed = Timed::start();
    if *spawned == Some(sim.generation()) {
        return;
    }
    *spawned = Some(sim.generation());
    for e in &shown {
        commands.entity(e).try_despawn();
    }
    let material = material
        .get_or_insert_with(|| {
            materials.add(StandardMaterial {
                base_color: FRAME_PARTS,
                perceptual_roughness: 0.8,
                ..default()
            })
        })
        .clone();
    for (i, frame) in sim.world().frames().iter().enumerate() {
        let id = commands
            .spawn((ShowsFrame(i), Transform::default(), Visibility::default()))
            .id();
        for part in &frame.parts {
            commands.spawn((
                ChildOf(id),
                Mesh3d(meshes.add(mesh_of(part.shape))),
                MeshMaterial3d(material.clone()),
                Transform::from_translation(part.offset.as_vec3())
                    .with_rotation(part.rotation.as_quat()),
            ));
        }
    }
}

fn place(sim: Res<Sim>, mut frames: Query<(&ShowsFrame, &mut Transform)>) {
    let _timed = Timed::start();
    let world = sim.world();
    for (shows, mut transform) in &mut frames {
        let Some(frame) = world.frames().get(shows.0) else {
            continue;
        };
        let t = &frame.global.transform;
        transform.translation = t.translation.as_vec3();
        transform.rotation = t.rotation.as_quat();
        transform.scale = Vec3::splat(t.scale as f32);
    }
}

/// A scene of frames without a ground plane (Foucault's turning planet) gets its riders'
/// ground drawn: a grid on each of their frames' decks, the frame's own horizontal plane
/// (y = 0 in its coordinates), turning with it.
fn draw_decks(sim: Res<Sim>, mut gizmos: Gizmos) {
    let _timed = Timed::start();
    let world = sim.world();
    if world.contacts().is_some_and(|c| !c.planes().is_empty()) {
        return;
    }
    let mut decks: Vec<usize> = world
        .mounts()
        .iter()
        .filter_map(|m| match m {
            Mount::Riding(r) => Some(r.frame),
            _ => None,
        })
        .collect();
    decks.sort_unstable();
    decks.dedup();
    for f in decks {
        let frame = &world.frames()[f];
        let size = frame
            .parts
            .iter()
            .map(|p| p.radius_from_centre())
            .fold(2.0, f64::max);
        let t = frame.global.transform;
        // The grid lies in its XY plane: turned so its normal is the frame's y.
        let rotation = t.rotation.as_quat() * Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2);
        gizmos.grid(
            Isometry3d::new(t.translation.as_vec3(), rotation),
            UVec2::splat((4.0 * size).ceil() as u32),
            Vec2::splat(0.5),
            GROUND_COLOR,
        );
    }
}

/// Metres of arrow per m/s² of inertial acceleration.
const FORCE_SCALE: f64 = 1.0;

/// Each rider's inertial accelerations, as (body position, [(name, world vector)]).
fn inertial_arrows(sim: &Sim) -> Vec<(Vec3, [(&'static str, Vec3); 4])> {
    let world = sim.world();
    world
        .bodies()
        .iter()
        .zip(world.mounts())
        .filter_map(|(b, mount)| match mount {
            Mount::Riding(r) => {
                let forces = r.inertial(world.frames());
                let rotation = world.frames()[r.frame].global.transform.rotation;
                let to_world = |v: glam::DVec3| (rotation * v * FORCE_SCALE).as_vec3();
                Some((
                    b.state.position.as_vec3(),
                    forces.named().map(|(n, v)| (n, to_world(v))),
                ))
            }
            _ => None,
        })
        .collect()
}

fn draw_inertial_forces(sim: Res<Sim>, view: Res<View>, mut gizmos: Gizmos) {
    let _timed = Timed::start();
    if !view.inertial || sim.lanes().len() != 1 {
        return;
    }
    for (origin, forces) in inertial_arrows(&sim) {
        for ((_, v), color) in forces.into_iter().zip(FORCE_COLORS) {
            if v.length() > 0.02 {
                gizmos.arrow(origin, origin + v, color);
            }
        }
    }
}

fn label_forces(
    mut contexts: EguiContexts,
    sim: Res<Sim>,
    view: Res<View>,
    camera: Single<(&Camera, &GlobalTransform), With<Camera3d>>,
) -> Result {
    let _timed = Timed::start();
    if !view.inertial || !view.labels || sim.lanes().len() != 1 {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    for (b, (origin, forces)) in inertial_arrows(&sim).into_iter().enumerate() {
        for (k, ((name, v), color)) in forces.into_iter().zip(FORCE_COLORS).enumerate() {
            if v.length() > 0.02 {
                let text = egui::RichText::new(name).color(egui_color(color)).small();
                label_at(
                    ctx,
                    *camera,
                    origin + v,
                    Vec2::new(4.0, -8.0),
                    egui::Id::new(("inertial", b, k)),
                    text,
                );
            }
        }
    }
    Ok(())
}

const PATH_LENGTH: usize = 2000;

/// Each rider's path in the world and in its frame's coordinates, side by side: the puck's
/// straight line and the curve a rider on the platform sees. A point per physics step,
/// with the step, so a path scrubbed back ends at the moment shown.
#[derive(Resource, Default)]
struct Paths {
    generation: u64,
    world: Vec<VecDeque<(u64, glam::DVec3)>>,
    local: Vec<VecDeque<(u64, glam::DVec3)>>,
}

/// Adds step `step`'s point to a path. A step simulated again (a replay, a step forward
/// through the recording: `ahead > 0` steps still recorded after it) has its point
/// already; a live step replaces any points from its step on (the old future, after a
/// branch; the earlier integrator steps of a physics step).
fn remember(path: &mut VecDeque<(u64, glam::DVec3)>, step: u64, p: glam::DVec3, ahead: u64) {
    let known = path.back().is_some_and(|&(s, _)| s >= step);
    if known && ahead > 0 {
        return;
    }
    while path.back().is_some_and(|&(s, _)| s >= step) {
        path.pop_back();
    }
    if path.len() == PATH_LENGTH {
        path.pop_front();
    }
    path.push_back((step, p));
}

/// The points of a path up to the step shown.
fn until(path: &VecDeque<(u64, glam::DVec3)>, step: u64) -> impl Iterator<Item = glam::DVec3> + '_ {
    path.iter()
        .take_while(move |(s, _)| *s <= step)
        .map(|&(_, p)| p)
}

fn record(sim: Res<Sim>, mut paths: ResMut<Paths>) {
    let _timed = Timed::start();
    let world = sim.world();
    if paths.generation != sim.generation() || paths.world.len() != world.bodies().len() {
        *paths = Paths {
            generation: sim.generation(),
            world: vec![VecDeque::new(); world.bodies().len()],
            local: vec![VecDeque::new(); world.bodies().len()],
        };
    }
    if world.frames().is_empty() {
        return;
    }
    let (step, ahead) = (sim.step_index(), sim.steps_ahead());
    for (i, (b, mount)) in world.bodies().iter().zip(world.mounts()).enumerate() {
        let Mount::Riding(r) = mount else { continue };
        let Paths {
            world: w, local, ..
        } = &mut *paths;
        remember(&mut w[i], step, b.state.position, ahead);
        remember(&mut local[i], step, r.local.transform.translation, ahead);
    }
}

fn draw_paths(sim: Res<Sim>, view: Res<View>, paths: Res<Paths>, mut gizmos: Gizmos) {
    let _timed = Timed::start();
    if !view.paths || paths.generation != sim.generation() {
        return;
    }
    let world = sim.world();
    for (i, (b, mount)) in world.bodies().iter().zip(world.mounts()).enumerate() {
        let Mount::Riding(r) = mount else { continue };
        let step = sim.step_index();
        gizmos.linestrip(
            until(&paths.world[i], step).map(|p| p.as_vec3()),
            WORLD_PATH_COLOR,
        );
        // Drawn on the frame as it is now: the curve turns with the platform.
        let t = world.frames()[r.frame].global.transform;
        if let Some(p) = sim.recorders().dock().pendulum()
            && p.body == i
        {
            let rod = world.frames()[p.frame]
                .global
                .transform
                .transform_point(p.pivot);
            gizmos.line(rod.as_vec3(), b.state.position.as_vec3(), WORLD_PATH_COLOR);
        }
        gizmos.linestrip(
            until(&paths.local[i], step).map(|p| t.transform_point(p).as_vec3()),
            FRAME_PATH_COLOR,
        );
    }
}

#[cfg(test)]
mod tests {
    use glam::DVec3;

    use super::*;

    fn point(step: u64) -> DVec3 {
        DVec3::new(step as f64, 0.0, 0.0)
    }

    /// Recorded live to step 10, scrubbed back to 5: drawn to 5; replayed up to 9, still
    /// the recorded points; played live from 5 (a branch), the old steps 6 to 10 give way
    /// to the new ones.
    #[test]
    fn a_path_follows_the_timeline() {
        let mut path = VecDeque::new();
        for step in 0..=10 {
            remember(&mut path, step, point(step), 0);
        }
        assert_eq!(until(&path, 5).count(), 6);
        assert_eq!(until(&path, 5).last(), Some(point(5)));
        for step in 6..10 {
            remember(&mut path, step, -point(step), 10 - step);
        }
        assert_eq!(
            until(&path, 9).last(),
            Some(point(9)),
            "replayed steps known"
        );
        assert_eq!(path.len(), 11);
        remember(&mut path, 6, -point(6), 0);
        assert_eq!(path.len(), 7);
        assert_eq!(
            until(&path, 10).last(),
            Some(-point(6)),
            "the old future went"
        );
    }
}
