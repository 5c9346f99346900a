//! The integrator's name under each lane in the 3D view, in the lane's colour.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::colors::integrator_text;
use super::draw_order::Panels;
use super::layout::lane_offset;
use super::physics::Sim;
use super::timing::Timed;
use super::view::View;

pub struct LabelsPlugin;

impl Plugin for LabelsPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(EguiPrimaryContextPass, draw.after(Panels));
    }
}

fn draw(
    mut contexts: EguiContexts,
    sim: Res<Sim>,
    view: Res<View>,
    camera: Single<(&Camera, &GlobalTransform), With<Camera3d>>,
) -> Result {
    let _timed = Timed::start();
    if !view.labels || !sim.side_by_side() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let below = -Vec3::Y * 1.2 * sim.scale().radius() as f32;
    for (lane, run) in sim.lanes().iter().enumerate() {
        let name = run.integrator().name();
        label_at(
            ctx,
            *camera,
            lane_offset(&sim, lane) + below,
            Vec2::new(-3.5 * name.len() as f32, 0.0),
            egui::Id::new(("lane-label", lane)),
            integrator_text(run.integrator()).strong(),
        );
    }
    Ok(())
}

/// `text` in the window at the point `at` of the 3D view, moved by `offset` pixels, kept
/// above the view's bottom edge (a lane's name below a view framed down to the floor);
/// nothing when the point is beside or above the view.
pub fn label_at(
    ctx: &egui::Context,
    (camera, transform): (&Camera, &GlobalTransform),
    at: Vec3,
    offset: Vec2,
    id: egui::Id,
    text: egui::RichText,
) {
    let Ok(pos) = camera.world_to_viewport(transform, at) else {
        return;
    };
    let Some(view) = camera.logical_viewport_rect() else {
        return;
    };
    let pos = pos + offset;
    if pos.x < view.min.x || pos.x > view.max.x || pos.y < view.min.y {
        return;
    }
    let pos = Vec2::new(pos.x, pos.y.min(view.max.y - 24.0));
    egui::Area::new(id)
        .fixed_pos([pos.x, pos.y])
        .interactable(false)
        .show(ctx, |ui| ui.label(text));
}
