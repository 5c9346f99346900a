//! Keyboard control: space pauses and plays (from the moment shown, discarding the old
//! future), N or the right arrow steps once while paused and the left arrow steps back, P
//! replays the recording, R resets, the number keys load scenes, H shows every shortcut.
//! Pausing stops virtual time, so the fixed-step physics stops with it. Keys typed into
//! a text field are left to the field.

use crate::lab::Input;
use bevy::prelude::*;
use bevy_egui::input::egui_wants_any_keyboard_input;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::scene::scene_names;

use super::draw_order::Panels;
use super::panel::load_scene;
use super::physics::{Playback, Sim};
use super::timeline_strip::{step_back, step_forward, toggle_replay};
use super::timing::Timed;
use super::view::{Message, View};

pub struct ControlsPlugin;

impl Plugin for ControlsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<ShowHelp>()
            .add_systems(Update, keyboard.run_if(not(egui_wants_any_keyboard_input)))
            .add_systems(EguiPrimaryContextPass, help_overlay.after(Panels));
    }
}

#[derive(Resource, Default)]
struct ShowHelp(bool);

const SHORTCUTS: [(&str, &str); 14] = [
    (
        "Space",
        "pause / play (from the moment shown: the old future goes)",
    ),
    ("N", "one physics step (while paused)"),
    (
        "Left / Right",
        "one physics step back / forward (while paused)",
    ),
    ("P", "replay the recording from the moment shown / pause"),
    ("Page Down / Page Up", "a lesson's next / previous step"),
    ("drag the timeline", "show a recorded moment (pauses)"),
    ("R", "reset the scene"),
    ("1 … 9", "load scene 1 … 9 (as in the scene list)"),
    ("H", "show / hide this help"),
    ("left drag", "orbit the camera"),
    (
        "left drag on a body",
        "pick it up; let go to throw (contact scenes)",
    ),
    ("right drag", "pan"),
    ("wheel", "zoom"),
    ("hover", "an integrator's name shows its formula"),
];

const DIGITS: [KeyCode; 9] = [
    KeyCode::Digit1,
    KeyCode::Digit2,
    KeyCode::Digit3,
    KeyCode::Digit4,
    KeyCode::Digit5,
    KeyCode::Digit6,
    KeyCode::Digit7,
    KeyCode::Digit8,
    KeyCode::Digit9,
];

#[allow(clippy::too_many_arguments)]
fn keyboard(
    keys: Res<ButtonInput<KeyCode>>,
    mut time: ResMut<Time<Virtual>>,
    mut sim: ResMut<Sim>,
    mut view: ResMut<View>,
    mut message: ResMut<Message>,
    mut help: ResMut<ShowHelp>,
    mut playback: ResMut<Playback>,
) {
    let _timed = Timed::start();
    if keys.just_pressed(KeyCode::Space) {
        if time.is_paused() {
            // Live: the lab branches by itself at the next step if it shows the past.
            *playback = Playback::Live;
            time.unpause();
        } else {
            time.pause();
        }
    }
    if keys.just_pressed(KeyCode::KeyN) || keys.just_pressed(KeyCode::ArrowRight) {
        step_forward(&mut sim, &time);
    }
    if keys.just_pressed(KeyCode::ArrowLeft) {
        step_back(&mut sim, &time);
    }
    if keys.just_pressed(KeyCode::KeyP)
        && let Err(e) = toggle_replay(&sim, &mut time, &mut playback)
    {
        message.set(Err(e));
    }
    if keys.just_pressed(KeyCode::KeyR)
        && let Err(e) = sim.apply(Input::Restart)
    {
        message.set(Err(e));
    }
    if keys.just_pressed(KeyCode::KeyH) {
        help.0 = !help.0;
    }
    // A lesson that locks the scene locks its keys too.
    let locked = view.locked("scene").map(str::to_owned);
    let names = scene_names();
    for (key, name) in DIGITS.iter().zip(names) {
        if !keys.just_pressed(*key) {
            continue;
        }
        let loaded = match &locked {
            Some(why) => Err(format!("the scene is locked by the lesson: {why}")),
            None => load_scene(&mut sim, &mut view, name),
        };
        if let Err(e) = loaded {
            message.set(Err(e));
        }
    }
}

fn help_overlay(
    mut contexts: EguiContexts,
    help: Res<ShowHelp>,
    time: Res<Time<Virtual>>,
    free: Res<super::camera::FreeRect>,
    sim: Res<Sim>,
) -> Result {
    let _timed = Timed::start();
    let ctx = contexts.ctx_mut()?;
    let Some(rect) = free.0 else { return Ok(()) };
    if time.is_paused() {
        // Held by a lesson, space and the step keys move nothing: the banner says so
        // instead of offering them.
        let banner = if sim.may_step() {
            "PAUSED  (space plays from here, Left/Right step, P replays)"
        } else {
            "PAUSED  (the lesson holds the run: answer its question, or Page Down)"
        };
        egui::Area::new(egui::Id::new("paused"))
            .fixed_pos([rect.center().x - 190.0, rect.min.y + 10.0])
            .show(ctx, |ui| ui.strong(banner));
    }
    if help.0 {
        egui::Window::new("Keyboard and mouse")
            .fixed_pos([rect.max.x - 330.0, rect.min.y + 10.0])
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
            .fixed_pos([rect.max.x - 150.0, rect.max.y - 24.0])
            .interactable(false)
            .show(ctx, |ui| ui.weak("H: keyboard shortcuts"));
    }
    Ok(())
}
