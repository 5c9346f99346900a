//! The lesson panel: a window over the view that walks a lesson's steps (the question
//! and its choices, the run, the readout beside what the student predicted and what
//! theory gives, the explanation), with next and back on Page Down and Page Up (the
//! arrow keys step the physics). The walk itself
//! is [`crate::lesson::walk::Walk`]; the locked controls are greyed in the control panel.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::physics::{PhysicsSet, Sim};
use super::ui::Panels;
use super::view::{Message, View};
use crate::lesson::{self, Event, Step, setup::Setup, walk::Walk};

pub struct LessonPlugin {
    /// A lesson to open at the start (`--lesson`).
    pub open: Option<String>,
    /// A set-up code to open at the start (`--setup`).
    pub setup: Option<Setup>,
}

impl Plugin for LessonPlugin {
    fn build(&self, app: &mut App) {
        let (open, setup) = (self.open.clone(), self.setup.clone());
        app.add_systems(
            Startup,
            move |mut sim: ResMut<Sim>, mut view: ResMut<View>, mut msg: ResMut<Message>| {
                if let Some(name) = &open {
                    msg.set(start(&mut sim, &mut view, name));
                }
                if let Some(setup) = &setup {
                    msg.set(super::share_panel::open_setup(&mut sim, &mut view, setup));
                }
            },
        )
        .add_systems(FixedUpdate, follow.after(PhysicsSet::End))
        .add_systems(EguiPrimaryContextPass, window.after(Panels));
    }
}

/// Opens lesson `name_or_path` on the lab, paused at its first step.
pub fn start(sim: &mut Sim, view: &mut View, name_or_path: &str) -> Result<String, String> {
    let lesson = lesson::load(name_or_path).map_err(|e| e.to_string())?;
    let title = lesson.title.clone();
    view.lesson = Some(Walk::start(lesson, &mut sim.0)?);
    view.lesson_fresh = true;
    view.lesson_scene = sim.scene_generation();
    view.omega_lane = super::layout::omega_lane(sim);
    Ok(format!("lesson: {title}"))
}

/// After every physics step: a pause where the lesson holds the run (a question waiting
/// for its prediction, a run at its end). Paused here, no further physics step of the
/// frame is taken, so a readout is taken at the time the lesson says, as `gyrolab
/// lesson` takes it.
fn follow(sim: Res<Sim>, view: Res<View>, mut time: ResMut<Time<Virtual>>) {
    if view.lesson.as_ref().is_some_and(|w| w.holds(&sim)) {
        time.pause();
    }
}

fn window(
    mut contexts: EguiContexts,
    mut sim: ResMut<Sim>,
    mut view: ResMut<View>,
    mut time: ResMut<Time<Virtual>>,
    mut message: ResMut<Message>,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    if std::mem::take(&mut view.lesson_fresh) {
        time.pause();
    }
    // Another scene opened (a digit key, a moment loaded): the lesson is over.
    if view.lesson.is_some() && view.lesson_scene != sim.scene_generation() {
        view.lesson = None;
    }
    let Some(walk) = &mut view.lesson else {
        return Ok(());
    };
    if walk.holds(&sim) && !time.is_paused() {
        time.pause();
    }
    if !ctx.egui_wants_keyboard_input() {
        if ctx.input(|i| i.key_pressed(egui::Key::PageDown))
            && let Err(e) = walk.next(&mut sim.0)
        {
            message.set(Err(e));
        }
        if ctx.input(|i| i.key_pressed(egui::Key::PageUp)) {
            walk.back();
        }
    }
    let mut close = false;
    let frame_readout = sim.dock().pendulum.is_some() || sim.dock().circling.is_some();
    egui::Window::new(format!("Lesson: {}", walk.lesson.title))
        // Where it starts, below the moving-frame scenes' readout at the view's top right;
        // the student can drag it off what it hides.
        .default_pos(egui::pos2(
            ctx.viewport_rect().right() - 400.0,
            if frame_readout { 150.0 } else { 36.0 },
        ))
        .default_width(380.0)
        .resizable(false)
        .show(&ctx, |ui| {
            close = lesson_ui(ui, walk, &mut sim, &mut time, &mut message);
        });
    if close {
        view.lesson = None;
    }
    Ok(())
}

/// One step and the buttons; whether the student closed the lesson.
fn lesson_ui(
    ui: &mut egui::Ui,
    walk: &mut Walk,
    sim: &mut Sim,
    time: &mut Time<Virtual>,
    message: &mut Message,
) -> bool {
    let n = walk.lesson.steps.len();
    ui.weak(format!(
        "step {} of {n}   (Page Up / Page Down)",
        walk.at + 1
    ));
    match walk.step().cloned() {
        Some(Step::Question { text, choices, .. }) => question(ui, walk, &text, &choices),
        Some(Step::Run { until, event }) => run(ui, walk, sim, time, (until, event)),
        Some(Step::Readout { theory, .. }) => readout(ui, walk, &theory),
        Some(Step::Explain { text }) => {
            ui.label(text);
        }
        Some(Step::Try { text, .. }) => {
            ui.label(egui::RichText::new(format!("Now try: {text}")).strong());
            ui.weak("The setting is changed, and the run starts again from the beginning.");
        }
        None => {}
    }
    ui.separator();
    let mut close = false;
    ui.horizontal(|ui| {
        if ui
            .add_enabled(walk.at > 0, egui::Button::new("◀ back"))
            .clicked()
        {
            walk.back();
        }
        let more = walk.at + 1 < n;
        if ui
            .add_enabled(more && walk.can_go_on(sim), egui::Button::new("next ▶"))
            .clicked()
            && let Err(e) = walk.next(&mut sim.0)
        {
            message.set(Err(e));
        }
        close = ui.button("close lesson").clicked();
    });
    if walk.measured.iter().any(Option::is_some) && ui.button("export readouts (CSV)").clicked() {
        message.set(export(walk));
    }
    close
}

/// Writes the readouts measured so far to a new `gyrolab-lesson-NAME-N.csv` in the working
/// directory, whole or not at all (as `gyrolab lesson --out` writes them).
fn export(walk: &Walk) -> Result<String, String> {
    use std::io::Write;
    let origin = walk.lesson.origin.rsplit('/').next().unwrap_or("lesson");
    let name = super::files::safe(origin.trim_end_matches(".ron"));
    let path = super::files::unused(&format!("gyrolab-lesson-{name}"), ".csv");
    let measured: Vec<_> = walk.measured.iter().flatten().cloned().collect();
    let fail = |e: &dyn std::fmt::Display| format!("cannot write {}: {e}", path.display());
    let mut file = crate::atomic_file::AtomicFile::create(&path).map_err(|e| fail(&e))?;
    (lesson::run::write_csv(&measured, &mut file))
        .and_then(|()| file.flush())
        .and_then(|()| file.commit())
        .map_err(|e| fail(&e))?;
    Ok(format!("wrote {}", path.display()))
}

/// The question, and the student's choice, kept.
fn question(ui: &mut egui::Ui, walk: &mut Walk, text: &str, choices: &[String]) {
    ui.label(egui::RichText::new(text).strong());
    ui.label("Predict before you run:");
    let chosen = walk.answers[walk.at];
    for (k, choice) in choices.iter().enumerate() {
        if ui.radio(chosen == Some(k), choice).clicked() {
            walk.answer(k);
        }
    }
}

/// The run's button and how far it has come.
fn run(
    ui: &mut egui::Ui,
    walk: &Walk,
    sim: &Sim,
    time: &mut Time<Virtual>,
    (until, event): (f64, Option<Event>),
) {
    if walk.ended(sim, until, event) {
        ui.label(match event.map(|e| (e, e.time(sim))) {
            Some((e, Some(t))) => {
                format!("{e}: at t = {t:.3} s, marked on the timeline. Go on.")
            }
            Some((e, None)) => format!("Ran to t = {until} s: not {e}. Go on."),
            None => format!("Ran to t = {until} s. Go on to the measurement."),
        });
        return;
    }
    if let Some(e) = &sim.lanes()[0].error {
        ui.colored_label(
            egui::Color32::LIGHT_RED,
            format!("The run stopped at t = {:.3} s: {e}", sim.time()),
        );
        return;
    }
    ui.label(match event {
        Some(e) => format!("Run the scene until {e} (at most to t = {until} s) and watch."),
        None => format!("Run the scene to t = {until} s and watch."),
    });
    ui.add(
        egui::ProgressBar::new((sim.time() / until) as f32)
            .text(format!("t = {:.1} of {until} s", sim.time())),
    );
    if time.is_paused() && ui.button("▶ run").clicked() {
        time.unpause();
    }
}

/// The measurement beside the stated value and theory, and the student's predictions.
fn readout(ui: &mut egui::Ui, walk: &Walk, theory: &str) {
    if let Some(m) = &walk.measured[walk.at] {
        let unit = m.quantity.unit();
        let value = |x: Option<f64>| x.map_or("nothing".into(), |x| format!("{x:.4}{unit}"));
        ui.label(egui::RichText::new(m.quantity.to_string()).strong());
        egui::Grid::new("readout").show(ui, |ui| {
            ui.label("measured");
            ui.monospace(value(m.measured));
            ui.end_row();
            ui.label("expected");
            ui.monospace(format!("{}{unit} ± {}", m.stated, m.within()));
            ui.end_row();
            if m.stated_measured {
                ui.label("");
                ui.weak("measured by this build, not given by theory");
                ui.end_row();
            }
            if m.theory.is_some() {
                ui.label("theory");
                ui.monospace(value(m.theory));
                ui.end_row();
            }
        });
        let (text, color) = if m.agrees() {
            ("they agree", egui::Color32::LIGHT_GREEN)
        } else {
            ("they do not agree", egui::Color32::LIGHT_RED)
        };
        ui.colored_label(color, text);
    }
    ui.weak(theory);
    predictions(ui, walk);
}

/// Each question asked so far, the student's answer and the right one; only once no
/// run is left before the lesson's end (a readout between runs would give the answer
/// away before its run is seen).
fn predictions(ui: &mut egui::Ui, walk: &Walk) {
    let rest = &walk.lesson.steps[walk.at..];
    if rest.iter().any(|s| matches!(s, Step::Run { .. })) {
        return;
    }
    for (k, step) in walk.lesson.steps[..walk.at].iter().enumerate() {
        let Step::Question {
            choices, answer, ..
        } = step
        else {
            continue;
        };
        let Some(given) = walk.answers[k].map(|a| choices[a].as_str()) else {
            ui.weak(format!("No prediction made; it is {}.", choices[*answer]));
            continue;
        };
        if walk.answers[k] == Some(*answer) {
            ui.colored_label(
                egui::Color32::LIGHT_GREEN,
                format!("You predicted {given}: right."),
            );
        } else {
            ui.colored_label(
                egui::Color32::LIGHT_RED,
                format!("You predicted {given}; it is {}.", choices[*answer]),
            );
        }
    }
}
