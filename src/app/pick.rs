//! Picking bodies up with the mouse and throwing them: a left press on a body holds it
//! (a left press elsewhere still orbits the camera), dragging pulls it across the plane
//! through the held point that faces the camera, and letting go keeps its velocity.
//! The pull itself is [`crate::world::grab::Grab`], applied in every physics step.

use crate::lab::Input;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::input::EguiWantsInput;

use super::colors::GRAB_COLOR;
use super::layout::lane_offset;
use super::mouse_order::InputSet;
use super::physics::Sim;
use super::timing::Timed;
use crate::world::grab::Grab;

pub struct PickPlugin;

impl Plugin for PickPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            Update,
            (grab_with_mouse, draw).chain().in_set(InputSet::Pick),
        );
    }
}

/// The plane (in render coordinates) the held point is dragged across: through the point
/// where the body was picked, facing the camera as it was then.
#[derive(Clone, Copy)]
struct DragPlane {
    point: Vec3,
    normal: Vec3,
}

fn grab_with_mouse(
    buttons: Res<ButtonInput<MouseButton>>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform), With<Camera3d>>,
    egui: Res<EguiWantsInput>,
    mut sim: ResMut<Sim>,
    mut plane: Local<Option<DragPlane>>,
) {
    let _timed = Timed::start();
    if !buttons.pressed(MouseButton::Left) {
        // The lab's grab is the one record of what is held; letting go releases it.
        if plane.take().is_some() {
            let _ = sim.apply(Input::Release);
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
        let hit = (0..sim.lanes().len())
            .filter_map(|lane| {
                let origin = (ray.origin - lane_offset(&sim, lane)).as_dvec3();
                Grab::pick(sim.lanes()[lane].world(), origin, dir).map(|(g, t)| (lane, g, t))
            })
            .min_by(|a, b| a.2.total_cmp(&b.2));
        if let Some((lane, grab, t)) = hit {
            let _ = sim.apply(Input::Hold { lane, grab });
            *plane = Some(DragPlane {
                point: ray.get_point(t as f32),
                normal: transform.forward().as_vec3(),
            });
        }
        return;
    }
    let (Some(DragPlane { point, normal }), Some((lane, _))) = (*plane, sim.grab()) else {
        return;
    };
    let denom = ray.direction.dot(normal);
    let t = (point - ray.origin).dot(normal) / denom;
    if denom.abs() < 1e-6 || t <= 0.0 {
        return;
    }
    let target = (ray.get_point(t) - lane_offset(&sim, lane)).as_dvec3();
    let _ = sim.apply(Input::DragTo(target));
}

/// A line from the held point to where it is pulled.
fn draw(sim: Res<Sim>, mut gizmos: Gizmos) {
    let Some((lane, grab)) = sim.grab() else {
        return;
    };
    let Some(anchor) = sim.lanes().get(lane).and_then(|r| grab.anchor(r.world())) else {
        return;
    };
    let offset = lane_offset(&sim, lane);
    let (from, to) = (anchor.as_vec3() + offset, grab.target.as_vec3() + offset);
    gizmos.line(from, to, GRAB_COLOR);
    gizmos.sphere(Isometry3d::from_translation(to), 0.04, GRAB_COLOR);
}
