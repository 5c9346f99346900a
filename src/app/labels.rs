//! The integrator's name under each lane in the 3D view, in the lane's colour.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::colors::integrator_text;
use super::layout::lane_offset;
use super::physics::Sim;
use super::timing::Timed;
use super::ui::Panels;
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
    let (cam, cam_transform) = *camera;
    let below = -Vec3::Y * 1.2 * sim.radius as f32;
    for (lane, run) in sim.lanes.iter().enumerate() {
        let Ok(pos) = cam.world_to_viewport(cam_transform, lane_offset(&sim, lane) + below) else {
            continue;
        };
        let name = run.integrator().name();
        egui::Area::new(egui::Id::new(("lane-label", lane)))
            .fixed_pos([pos.x - 3.5 * name.len() as f32, pos.y])
            .interactable(false)
            .show(ctx, |ui| {
                ui.label(integrator_text(run.integrator()).strong())
            });
    }
    Ok(())
}
