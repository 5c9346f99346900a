//! Picking bodies up with the mouse and throwing them: a left press on a body holds it
//! (a left press elsewhere still orbits the camera), dragging pulls it across the plane
//! through the held point that faces the camera, and letting go keeps its velocity.
//! The pull itself is [`crate::grab::Grab`], applied in every physics step.

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::input::EguiWantsInput;

use super::physics::Sim;
use super::render_sync::lane_offset;
use super::status::Timed;
use crate::grab::Grab;

const GRAB_COLOR: Color = Color::srgb(1.0, 0.4, 0.1);

pub struct PickPlugin;

impl Plugin for PickPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Held>().add_systems(
            Update,
            (grab_with_mouse, draw)
                .chain()
                .before(super::camera::orbit_with_mouse),
        );
    }
}

/// The plane (in render coordinates) the held point is dragged across; the camera
/// does not orbit while something is held.
#[derive(Resource, Default)]
pub struct Held(pub Option<(Vec3, Vec3)>);

fn grab_with_mouse(
    buttons: Res<ButtonInput<MouseButton>>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform), With<Camera3d>>,
    egui: Res<EguiWantsInput>,
    mut sim: ResMut<Sim>,
    mut held: ResMut<Held>,
) {
    let _timed = Timed::start();
    if !buttons.pressed(MouseButton::Left) {
        if held.0.take().is_some() {
            sim.grab = None;
        }
        return;
    }
    let (camera, transform) = *camera;
    let Some(ray) = window
        .cursor_position()
        .and_then(|c| camera.viewport_to_world(transform, c).ok())
    else {
        return;
    };
    if buttons.just_pressed(MouseButton::Left) {
        if egui.wants_any_pointer_input() {
            return;
        }
        let dir = ray.direction.as_vec3().as_dvec3().normalize();
        let hit = (0..sim.lanes.len())
            .filter_map(|lane| {
                let origin = (ray.origin - lane_offset(&sim, lane)).as_dvec3();
                Grab::pick(&sim.lanes[lane].world, origin, dir).map(|(g, t)| (lane, g, t))
            })
            .min_by(|a, b| a.2.total_cmp(&b.2));
        if let Some((lane, grab, t)) = hit {
            sim.grab = Some((lane, grab));
            held.0 = Some((ray.get_point(t as f32), transform.forward().as_vec3()));
        }
        return;
    }
    let (Some((point, normal)), Some((lane, _))) = (held.0, sim.grab) else {
        return;
    };
    let denom = ray.direction.dot(normal);
    let t = (point - ray.origin).dot(normal) / denom;
    if denom.abs() < 1e-6 || t <= 0.0 {
        return;
    }
    let target = (ray.get_point(t) - lane_offset(&sim, lane)).as_dvec3();
    if let Some((_, grab)) = &mut sim.grab {
        grab.target = target;
    }
}

/// A line from the held point to where it is pulled.
fn draw(sim: Res<Sim>, mut gizmos: Gizmos) {
    let Some((lane, grab)) = sim.grab else {
        return;
    };
    let Some(anchor) = sim.lanes.get(lane).and_then(|r| grab.anchor(&r.world)) else {
        return;
    };
    let offset = lane_offset(&sim, lane);
    let (from, to) = (anchor.as_vec3() + offset, grab.target.as_vec3() + offset);
    gizmos.line(from, to, GRAB_COLOR);
    gizmos.sphere(Isometry3d::from_translation(to), 0.04, GRAB_COLOR);
}
