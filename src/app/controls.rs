//! Keyboard control of the run: space pauses, N steps once while paused, R resets, H shows
//! the shortcuts. Pausing stops virtual time, so the fixed-step physics stops with it.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::physics::Simulation;

pub struct ControlsPlugin;

impl Plugin for ControlsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<ShowHelp>()
            .add_systems(Update, keyboard)
            .add_systems(EguiPrimaryContextPass, help_overlay);
    }
}

#[derive(Resource, Default)]
struct ShowHelp(bool);

const SHORTCUTS: [(&str, &str); 4] = [
    ("Space", "pause / resume"),
    ("N", "one physics step (while paused)"),
    ("R", "reset the scene"),
    ("H", "show / hide this help"),
];

fn keyboard(
    keys: Res<ButtonInput<KeyCode>>,
    mut time: ResMut<Time<Virtual>>,
    mut sim: ResMut<Simulation>,
    mut help: ResMut<ShowHelp>,
) {
    if keys.just_pressed(KeyCode::Space) {
        if time.is_paused() {
            time.unpause();
        } else {
            time.pause();
        }
    }
    if keys.just_pressed(KeyCode::KeyN) && time.is_paused() {
        sim.step();
    }
    if keys.just_pressed(KeyCode::KeyR) {
        *sim = Simulation::new(sim.scene.clone());
    }
    if keys.just_pressed(KeyCode::KeyH) {
        help.0 = !help.0;
    }
}

fn help_overlay(
    mut contexts: EguiContexts,
    help: Res<ShowHelp>,
    time: Res<Time<Virtual>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if time.is_paused() {
        egui::Area::new(egui::Id::new("paused"))
            .anchor(egui::Align2::CENTER_TOP, [0.0, 12.0])
            .show(ctx, |ui| ui.strong("PAUSED  (space resumes, N steps)"));
    }
    if help.0 {
        egui::Window::new("Keyboard")
            .anchor(egui::Align2::RIGHT_TOP, [-12.0, 12.0])
            .resizable(false)
            .show(ctx, |ui| {
                egui::Grid::new("shortcuts").show(ui, |ui| {
                    for (key, what) in SHORTCUTS {
                        ui.strong(key);
                        ui.label(what);
                        ui.end_row();
                    }
                });
            });
    } else {
        egui::Area::new(egui::Id::new("help-hint"))
            .anchor(egui::Align2::RIGHT_BOTTOM, [-12.0, -12.0])
            .show(ctx, |ui| ui.weak("H: keyboard shortcuts"));
    }
    Ok(())
}
