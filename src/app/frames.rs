//! Transform-hierarchy scenes in Bevy's own parent tree. Each driven frame of the lab's
//! world is an entity with `ChildOf` its parent frame; its motion relative to the parent
//! is a [`LocalDynamics`] component, and [`propagate_dynamics`] composes them top down
//! into [`GlobalDynamics`] in the physics schedule, as Bevy composes `Transform`s into
//! `GlobalTransform`s. The riders' inertial-force arrows read the frames' global dynamics
//! from there. Bevy's own propagation places the frames' meshes from their local
//! transforms.

use std::collections::VecDeque;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use glam::DVec2;

use crate::hierarchy::rig::Mount;
use crate::hierarchy::{DynamicTransform, InertialForces, PrecessionMeter};

use super::physics::Sim;
use super::render_sync::mesh_of;
use super::status::Timed;
use super::ui::Panels;
use super::view::View;

pub struct FramesPlugin;

impl Plugin for FramesPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Paths>()
            .init_resource::<Precession>()
            .add_systems(
                FixedPostUpdate,
                (copy_locals, propagate_dynamics, record).chain(),
            )
            .add_systems(
                PostUpdate,
                (respawn, place).chain().before(TransformSystems::Propagate),
            )
            .add_systems(Update, (draw_inertial_forces, draw_paths))
            .add_systems(
                EguiPrimaryContextPass,
                (label_forces, foucault).after(Panels),
            );
    }
}

/// Motion relative to the parent entity (the world for a root).
#[derive(Component, Clone, Copy, Debug, Default, Deref, DerefMut)]
pub struct LocalDynamics(pub DynamicTransform);

/// Motion relative to the world; written by [`propagate_dynamics`].
#[derive(Component, Clone, Copy, Debug, Default, Deref, DerefMut)]
pub struct GlobalDynamics(pub DynamicTransform);

/// The frame of the first lane's world an entity shows.
#[derive(Component, Clone, Copy)]
struct ShowsFrame(usize);

/// Top-down composition of local dynamics, parents before children, from every root (an
/// entity with dynamics and no parent): each root's tree on its own task, depth-first with
/// an explicit stack (trees of any depth, no recursion).
pub fn propagate_dynamics(
    roots: Query<Entity, (With<LocalDynamics>, Without<ChildOf>)>,
    nodes: Query<(&LocalDynamics, &mut GlobalDynamics, Option<&Children>)>,
) {
    let _timed = Timed::start();
    roots.par_iter().for_each_init(Vec::new, |stack, root| {
        stack.push((root, DynamicTransform::IDENTITY));
        while let Some((entity, parent)) = stack.pop() {
            // SAFETY: `ChildOf` makes a forest: every entity has at most one parent and is
            // reached from exactly one root, once, so no two tasks (and no two iterations)
            // hold the same entity's components. Bevy's transform propagation relies on
            // the same argument.
            let Ok((local, mut global, children)) = (unsafe { nodes.get_unchecked(entity) }) else {
                continue;
            };
            let g = parent * local.0;
            global.0 = g;
            if let Some(children) = children {
                stack.extend(children.iter().map(|k| (k, g)));
            }
        }
    });
}

fn copy_locals(sim: Res<Sim>, mut frames: Query<(&ShowsFrame, &mut LocalDynamics)>) {
    let _timed = Timed::start();
    let world = &sim.lanes[0].world;
    for (shows, mut local) in &mut frames {
        if let Some(f) = world.frames.get(shows.0) {
            local.0 = f.local;
        }
    }
}

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
    if *spawned == Some(sim.generation) {
        return;
    }
    *spawned = Some(sim.generation);
    for e in &shown {
        commands.entity(e).try_despawn();
    }
    let material = material
        .get_or_insert_with(|| {
            materials.add(StandardMaterial {
                base_color: Color::srgb(0.42, 0.46, 0.42),
                perceptual_roughness: 0.8,
                ..default()
            })
        })
        .clone();
    let mut entities: Vec<Entity> = Vec::new();
    for (i, frame) in sim.lanes[0].world.frames.iter().enumerate() {
        let mut e = commands.spawn((
            ShowsFrame(i),
            LocalDynamics(frame.local),
            GlobalDynamics(frame.global),
            Transform::default(),
            Visibility::default(),
        ));
        if let Some(p) = frame.parent {
            e.insert(ChildOf(entities[p]));
        }
        let id = e.id();
        for part in &frame.parts {
            commands.spawn((
                ChildOf(id),
                Mesh3d(meshes.add(mesh_of(part.shape))),
                MeshMaterial3d(material.clone()),
                Transform::from_translation(part.offset.as_vec3())
                    .with_rotation(part.rotation.as_quat()),
            ));
        }
        entities.push(id);
    }
}

fn place(mut frames: Query<(&LocalDynamics, &mut Transform), With<ShowsFrame>>) {
    let _timed = Timed::start();
    for (local, mut transform) in &mut frames {
        let t = &local.transform;
        transform.translation = t.translation.as_vec3();
        transform.rotation = t.rotation.as_quat();
        transform.scale = Vec3::splat(t.scale as f32);
    }
}

/// Global dynamics of the first lane's frames, by frame index, from the components.
fn frame_globals(frames: &Query<(&ShowsFrame, &GlobalDynamics)>) -> Vec<DynamicTransform> {
    let mut globals = vec![DynamicTransform::IDENTITY; frames.iter().len()];
    for (shows, global) in frames {
        if let Some(g) = globals.get_mut(shows.0) {
            *g = global.0;
        }
    }
    globals
}

const FORCE_COLORS: [Color; 4] = [
    Color::srgb(0.95, 0.85, 0.3),
    Color::srgb(0.85, 0.4, 0.95),
    Color::srgb(1.0, 0.55, 0.2),
    Color::srgb(0.3, 0.9, 0.95),
];

/// Metres of arrow per m/s² of inertial acceleration.
const FORCE_SCALE: f64 = 1.0;

/// Each rider's inertial accelerations, as (body position, [(name, world vector)]).
fn inertial_arrows(
    sim: &Sim,
    frames: &Query<(&ShowsFrame, &GlobalDynamics)>,
) -> Vec<(Vec3, [(&'static str, Vec3); 4])> {
    let globals = frame_globals(frames);
    let world = &sim.lanes[0].world;
    world
        .bodies
        .iter()
        .filter_map(|b| match &b.mount {
            Mount::Free(r) => {
                let frame = globals.get(r.frame)?;
                let forces =
                    InertialForces::at(frame, r.local.transform.translation, r.local.velocity);
                let to_world =
                    |v: glam::DVec3| (frame.transform.rotation * v * FORCE_SCALE).as_vec3();
                Some((
                    b.state.position.as_vec3(),
                    forces.named().map(|(n, v)| (n, to_world(v))),
                ))
            }
            _ => None,
        })
        .collect()
}

fn draw_inertial_forces(
    sim: Res<Sim>,
    view: Res<View>,
    frames: Query<(&ShowsFrame, &GlobalDynamics)>,
    mut gizmos: Gizmos,
) {
    let _timed = Timed::start();
    if !view.inertial || sim.lanes.len() != 1 {
        return;
    }
    for (origin, forces) in inertial_arrows(&sim, &frames) {
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
    frames: Query<(&ShowsFrame, &GlobalDynamics)>,
    camera: Single<(&Camera, &GlobalTransform), With<Camera3d>>,
) -> Result {
    let _timed = Timed::start();
    if !view.inertial || !view.labels || sim.lanes.len() != 1 {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let (cam, cam_transform) = *camera;
    for (b, (origin, forces)) in inertial_arrows(&sim, &frames).into_iter().enumerate() {
        for (k, ((name, v), color)) in forces.into_iter().zip(FORCE_COLORS).enumerate() {
            if v.length() <= 0.02 {
                continue;
            }
            let Ok(pos) = cam.world_to_viewport(cam_transform, origin + v) else {
                continue;
            };
            egui::Area::new(egui::Id::new(("inertial", b, k)))
                .fixed_pos([pos.x + 4.0, pos.y - 8.0])
                .interactable(false)
                .show(ctx, |ui| {
                    ui.label(
                        egui::RichText::new(name)
                            .color(super::panel::egui_color(color))
                            .small(),
                    )
                });
        }
    }
    Ok(())
}

const WORLD_PATH_COLOR: Color = Color::srgb(0.95, 0.95, 0.95);
const FRAME_PATH_COLOR: Color = Color::srgb(1.0, 0.4, 0.7);
const PATH_LENGTH: usize = 2000;

/// Each rider's path in the world and in its frame's coordinates, side by side: the puck's
/// straight line and the curve a rider on the platform sees.
#[derive(Resource, Default)]
struct Paths {
    generation: u64,
    world: Vec<VecDeque<glam::DVec3>>,
    local: Vec<VecDeque<glam::DVec3>>,
}

/// Foucault's pendulum: the swing plane's measured turning rate.
#[derive(Resource, Default)]
struct Precession {
    meter: PrecessionMeter,
}

fn record(sim: Res<Sim>, mut paths: ResMut<Paths>, mut precession: ResMut<Precession>) {
    let _timed = Timed::start();
    let world = &sim.lanes[0].world;
    if paths.generation != sim.generation || paths.world.len() != world.bodies.len() {
        *paths = Paths {
            generation: sim.generation,
            world: vec![VecDeque::new(); world.bodies.len()],
            local: vec![VecDeque::new(); world.bodies.len()],
        };
        *precession = Precession::default();
    }
    if world.frames.is_empty() {
        return;
    }
    for (i, b) in world.bodies.iter().enumerate() {
        let Mount::Free(r) = &b.mount else { continue };
        let Paths {
            world: w, local, ..
        } = &mut *paths;
        for (path, p) in [
            (&mut w[i], b.state.position),
            (&mut local[i], r.local.transform.translation),
        ] {
            if path.len() == PATH_LENGTH {
                path.pop_front();
            }
            path.push_back(p);
        }
        if let Some(rod) = r.tether {
            let x = r.local.transform.translation - rod.anchor;
            precession.meter.record(world.time, DVec2::new(x.x, -x.z));
        }
    }
}

fn draw_paths(
    sim: Res<Sim>,
    view: Res<View>,
    paths: Res<Paths>,
    frames: Query<(&ShowsFrame, &GlobalDynamics)>,
    mut gizmos: Gizmos,
) {
    let _timed = Timed::start();
    if !view.paths || paths.generation != sim.generation {
        return;
    }
    let globals = frame_globals(&frames);
    let world = &sim.lanes[0].world;
    for (i, b) in world.bodies.iter().enumerate() {
        let Some(frame) = (match &b.mount {
            Mount::Free(r) => globals.get(r.frame),
            _ => None,
        }) else {
            continue;
        };
        gizmos.linestrip(paths.world[i].iter().map(|p| p.as_vec3()), WORLD_PATH_COLOR);
        // Drawn on the frame as it is now: the curve turns with the platform.
        let t = frame.transform;
        if let Mount::Free(r) = &b.mount
            && let Some(rod) = r.tether
        {
            gizmos.line(
                t.transform_point(rod.anchor).as_vec3(),
                b.state.position.as_vec3(),
                WORLD_PATH_COLOR,
            );
        }
        gizmos.linestrip(
            paths.local[i]
                .iter()
                .map(|p| t.transform_point(*p).as_vec3()),
            FRAME_PATH_COLOR,
        );
    }
}

fn foucault(mut contexts: EguiContexts, sim: Res<Sim>, precession: Res<Precession>) -> Result {
    let _timed = Timed::start();
    let world = &sim.lanes[0].world;
    let Some(frame) = world.bodies.iter().find_map(|b| match &b.mount {
        Mount::Free(r) if r.tether.is_some() => Some(&world.frames[r.frame]),
        _ => None,
    }) else {
        return Ok(());
    };
    // The swing plane turns with the vertical's component of the ground's spin.
    let up = frame.global.transform.rotation * glam::DVec3::Y;
    let predicted = frame.global.angular_velocity.dot(up);
    let ctx = contexts.ctx_mut()?;
    egui::Window::new("Foucault's pendulum")
        .anchor(egui::Align2::RIGHT_TOP, [-10.0, 10.0])
        .resizable(false)
        .collapsible(false)
        .show(ctx, |ui| {
            let latitude = up
                .dot(frame.global.angular_velocity.normalize_or_zero())
                .asin();
            ui.label(format!(
                "Ω = {:.4} rad/s, latitude φ = {:.1}°",
                frame.global.angular_velocity.length(),
                latitude.to_degrees()
            ));
            if predicted.abs() > 0.0 {
                ui.label(format!(
                    "2π/(Ω sin φ) = {:.1} s",
                    std::f64::consts::TAU / predicted.abs()
                ));
            }
            match precession.meter.rate() {
                Some(rate) => ui.label(format!(
                    "measured: the swing plane turns {} once every {:.1} s ({} swings)",
                    if rate < 0.0 {
                        "clockwise"
                    } else {
                        "anticlockwise"
                    },
                    std::f64::consts::TAU / rate.abs(),
                    precession.meter.turns.len()
                )),
                None => ui.label("measured: waiting for three swings"),
            };
        });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::Scene;

    /// The tank's three-level tree after some driving, propagated by the ECS system from
    /// local components, against the core's own propagation.
    #[test]
    fn ecs_propagation_matches_the_core() {
        let mut world = Scene::load("tank").unwrap().build();
        for _ in 0..137 {
            world.step(0.01).unwrap();
        }
        let mut app = App::new();
        app.add_plugins(TaskPoolPlugin::default())
            .add_systems(Update, propagate_dynamics);
        let mut entities: Vec<Entity> = Vec::new();
        for f in &world.frames {
            let mut e = app
                .world_mut()
                .spawn((LocalDynamics(f.local), GlobalDynamics::default()));
            if let Some(p) = f.parent {
                e.insert(ChildOf(entities[p]));
            }
            entities.push(e.id());
        }
        app.update();
        assert_eq!(entities.len(), 3);
        for (f, e) in world.frames.iter().zip(entities) {
            let ecs = app.world().get::<GlobalDynamics>(e).unwrap().0;
            let core = f.global;
            for (a, b) in [
                (ecs.transform.translation, core.transform.translation),
                (ecs.velocity, core.velocity),
                (ecs.accel, core.accel),
                (ecs.angular_velocity, core.angular_velocity),
                (ecs.angular_accel, core.angular_accel),
            ] {
                assert!((a - b).length() < 1e-12, "{}: {a} vs {b}", f.name);
            }
        }
    }
}
