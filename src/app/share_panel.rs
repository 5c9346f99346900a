//! The Share section: "Copy set-up" makes a set-up code of what the app shows (scene,
//! changed settings, lesson step), and a code pasted or typed in opens it
//! ([`crate::lesson::setup`]); "export web page" records the lesson or the scene into
//! one page for any browser ([`super::web_export`]).
//!
//! The code is handed to egui's clipboard; this build leaves out bevy_egui's
//! `manage_clipboard` feature (its `arboard` crate could not be had here), so the code is
//! also shown in a field to select and printed on the terminal.

use bevy_egui::egui;

use super::physics::Sim;
use super::view::{Message, View};
use super::web_export::WebExport;
use crate::lesson::setup::Setup;

pub fn show(ui: &mut egui::Ui, sim: &mut Sim, view: &mut View, message: &mut Message) {
    let (copy, export) = ui
        .horizontal(|ui| {
            let copy = ui
                .button("Copy set-up")
                .on_hover_text("a code that opens this scene, its settings and the lesson step");
            let export = ui
                .add_enabled(
                    view.web_export.is_none(),
                    egui::Button::new("export web page"),
                )
                .on_hover_text(
                    "one HTML file that opens in any browser with no network and no gyrolab: \
                 the lesson from its start, or this scene as set up, recorded and played \
                 back in 3D with its plots (at most 5 MB)",
                );
            (copy.clicked(), export.clicked())
        })
        .inner;
    if export {
        match WebExport::start(sim, view.lesson.as_ref()) {
            Ok(job) => view.web_export = Some(job),
            Err(e) => message.set(Err(e)),
        }
    }
    if let Some(outcome) = view.web_export.as_ref().and_then(|job| job.show(ui)) {
        view.web_export = None;
        message.set(outcome);
    }
    if copy {
        match Setup::of(sim, view.lesson.as_ref()) {
            Ok(setup) => {
                let code = setup.to_code();
                ui.ctx().copy_text(code.clone());
                println!("set-up code: {code}");
                message.set(Ok(format!("set-up code made: {}", setup.describe())));
                view.setup_code = code;
            }
            Err(e) => message.set(Err(e)),
        }
    }
    if !view.setup_code.is_empty() {
        ui.add(
            egui::TextEdit::multiline(&mut view.setup_code.as_str())
                .desired_rows(2)
                .desired_width(f32::INFINITY),
        );
    }
    let opened = super::widgets::open_field(ui, &mut view.setup_paste, "GL1-…", "open code");
    if opened {
        let code = view.setup_paste.clone();
        message.set(open(sim, view, &code));
    }
}

/// Opens a set-up code on the lab: its scene and settings, and its lesson at its step.
/// A code that does not open leaves the running scene as it is.
fn open(sim: &mut Sim, view: &mut View, code: &str) -> Result<String, String> {
    if let Some(why) = view.locked("scene") {
        return Err(format!("the scene is locked by the lesson: {why}"));
    }
    open_setup(sim, view, &Setup::from_code(code)?)
}

/// Opens a set-up read from a code (`--setup`, or pasted).
pub fn open_setup(sim: &mut Sim, view: &mut View, setup: &Setup) -> Result<String, String> {
    let walk = setup.open(&mut sim.0)?;
    view.lesson_fresh = walk.is_some();
    view.lesson = walk;
    view.lesson_scene = sim.scene_generation();
    view.omega_lane = super::layout::omega_lane(sim);
    view.rider = None;
    Ok(format!("opened set-up: {}", setup.describe()))
}
