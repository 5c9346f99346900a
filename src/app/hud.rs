//! A small egui panel: what the scene is, the integrator, time and energy drift.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::physics::Simulation;

pub struct HudPlugin;

impl Plugin for HudPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(EguiPrimaryContextPass, draw);
    }
}

fn draw(mut contexts: EguiContexts, sim: Res<Simulation>) -> Result {
    let ctx = contexts.ctx_mut()?;
    egui::Window::new("gyrolab")
        .default_pos([12.0, 12.0])
        .resizable(false)
        .show(ctx, |ui| {
            ui.heading(&sim.scene.name);
            ui.label(&sim.scene.description);
            ui.separator();
            ui.label(format!("integrator: {}", sim.world.integrator.name()));
            ui.label(format!("t = {:.2} s   dt = {} s", sim.world.time, sim.dt));
            let e0 = sim.initial_energy;
            if e0 != 0.0 {
                ui.label(format!(
                    "energy error: {:+.2e}",
                    (sim.world.energy() - e0) / e0.abs()
                ));
            }
            ui.colored_label(egui::Color32::from_rgb(50, 230, 240), "ω  angular velocity");
            ui.colored_label(egui::Color32::from_rgb(250, 215, 50), "L  angular momentum");
            if let Some(e) = &sim.error {
                ui.colored_label(egui::Color32::LIGHT_RED, format!("stopped: {e}"));
            }
        });
    Ok(())
}
