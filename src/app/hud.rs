//! The egui panel: what the scene is, and per lane the flips, the measured flip period
//! against the analytic one, and the energy and momentum drift; plus a label above each
//! lane in the 3D view, in the lane's colour.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::physics::Simulation;
use super::render_sync::{integrator_color, lane_offset};
use super::vectors::{MOMENTUM_COLOR, OMEGA_COLOR};

pub struct HudPlugin;

impl Plugin for HudPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(EguiPrimaryContextPass, draw);
    }
}

fn egui_color(c: Color) -> egui::Color32 {
    let [r, g, b, _] = c.to_srgba().to_u8_array();
    egui::Color32::from_rgb(r, g, b)
}

fn draw(
    mut contexts: EguiContexts,
    sim: Res<Simulation>,
    camera: Query<(&Camera, &GlobalTransform)>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let time = sim.lanes[0].world.time;
    egui::Window::new("gyrolab")
        .default_pos([12.0, 12.0])
        .resizable(false)
        .show(ctx, |ui| {
            ui.heading(&sim.scene.name);
            ui.label(&sim.scene.description);
            ui.label(format!("t = {time:.2} s   dt = {} s", sim.dt));
            ui.separator();
            let analytic = sim.lanes[0].analytic_flip_period;
            egui::Grid::new("lanes").striped(true).show(ui, |ui| {
                for h in ["integrator", "flips", "T_flip", "ΔE/E", "|ΔL|/|L|"] {
                    ui.strong(h);
                }
                ui.end_row();
                for run in &sim.lanes {
                    let color = egui_color(integrator_color(run.integrator()));
                    ui.colored_label(color, run.integrator().name());
                    ui.label(run.flips.flips().to_string());
                    ui.label(
                        run.flips
                            .mean_period()
                            .map_or("-".into(), |p| format!("{p:.3} s")),
                    );
                    ui.label(format!("{:+.1e}", run.drift.final_energy));
                    ui.label(format!("{:.1e}", run.drift.max_momentum));
                    ui.end_row();
                    if let Some(e) = &run.error {
                        ui.colored_label(egui::Color32::LIGHT_RED, format!("stopped: {e}"));
                        ui.end_row();
                    }
                }
            });
            if let Some(p) = analytic {
                ui.label(format!(
                    "analytic flip period: {p:.3} s (translucent ghost)"
                ));
            }
            ui.colored_label(egui_color(OMEGA_COLOR), "ω  angular velocity");
            ui.colored_label(egui_color(MOMENTUM_COLOR), "L  angular momentum");
        });
    // Lane labels, projected from below each lane (above, they would meet the panel).
    if let Ok((cam, cam_transform)) = camera.single() {
        let lift = -Vec3::Y * 1.2 * sim.radius;
        for (lane, run) in sim.lanes.iter().enumerate() {
            let Ok(pos) = cam.world_to_viewport(cam_transform, lane_offset(&sim, lane) + lift)
            else {
                continue;
            };
            let name = run.integrator().name();
            egui::Area::new(egui::Id::new(("lane-label", lane)))
                .fixed_pos([pos.x - 4.0 * name.len() as f32, pos.y])
                .show(ctx, |ui| {
                    ui.colored_label(egui_color(integrator_color(run.integrator())), name);
                });
        }
    }
    Ok(())
}
