//! The lesson panel: a panel docked beside the view that walks a lesson's steps (the question
//! and its choices, the run, the readout beside what the student predicted and what
//! theory gives, the explanation), with next and back on Page Down and Page Up (the
//! arrow keys step the physics). The walk itself
//! is [`crate::lesson::walk::Walk`]; the locked controls are greyed in the control panel.

use crate::lab::Input;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::draw_order::Panels;
use super::physics::{PhysicsSet, Sim};
use super::view::{Message, View};
use crate::lab::Limit;
use crate::lesson::{self, Card, Event, setup::Setup, walk::Walk};

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
        .add_systems(EguiPrimaryContextPass, keys_and_hold.after(Panels));
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

/// After every physics step: the lab's limit follows the walk (a run to an event ends
/// when the event comes), and play pauses where the lesson holds the run (a question
/// waiting for its prediction, a run at its end). The lab takes no step past its limit,
/// however it is stepped, so a readout is taken at the time the lesson says, as `gyrolab
/// lesson` takes it.
fn follow(mut sim: ResMut<Sim>, view: Res<View>, mut time: ResMut<Time<Virtual>>) {
    if let Some(walk) = &view.lesson {
        walk.hold(&mut sim);
        if !sim.may_step() {
            time.pause();
        }
    }
}

/// Each frame, after the lesson panel: Page Down and Page Up walk the lesson; the lab's
/// limit follows what the student did (an answer, a step on or back), and play pauses
/// where the lesson holds the run. A lesson closed, or ended by another scene, frees the
/// lab.
fn keys_and_hold(
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
        let _ = sim.apply(Input::SetLimit(Limit::Free));
        return Ok(());
    };
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
    walk.hold(&mut sim);
    if !sim.may_step() && !time.is_paused() {
        time.pause();
    }
    Ok(())
}

/// The lesson panel, docked at the right of the view so that it covers no lane, ghost or
/// body (the camera frames what is left), under the scene's frame readouts (which would
/// otherwise sit over the view): its width, none without a lesson.
pub fn dock(
    root: &mut egui::Ui,
    sim: &mut Sim,
    view: &mut View,
    time: &mut Time<Virtual>,
    message: &mut Message,
) -> f32 {
    let Some(walk) = &mut view.lesson else {
        return 0.0;
    };
    let mut close = false;
    let width = egui::Panel::right("lesson")
        .default_size(330.0)
        .resizable(true)
        .show(root, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                super::frame_readouts::in_panel(ui, sim);
                ui.heading(&walk.lesson.title);
                close = lesson_ui(ui, walk, sim, time, message);
            });
        })
        .response
        .rect
        .width();
    if close {
        view.lesson = None;
    }
    width
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
    match walk.card().cloned() {
        Some(Card::Question { text, choices, .. }) => question(ui, walk, &text, &choices),
        Some(Card::Run { until, event }) => run(ui, walk, sim, time, (until, event)),
        Some(Card::Readout { theory, .. }) => readout(ui, walk, &theory),
        Some(Card::Explain { text }) => {
            ui.label(text);
        }
        Some(Card::Try { text, .. }) => {
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
    let fail = |e: &dyn std::fmt::Display| format!("cannot write {}: {e}", path.display());
    let mut file = crate::atomic_file::AtomicFile::create(&path).map_err(|e| fail(&e))?;
    (crate::records::lesson_csv(walk, &mut file))
        .and_then(|()| file.flush())
        .and_then(|()| file.commit())
        .map_err(|e| fail(&e))?;
    Ok(format!("wrote {}", path.display()))
}

/// The question, and the student's choice, kept.
fn question(ui: &mut egui::Ui, walk: &mut Walk, text: &str, choices: &[String]) {
    ui.label(egui::RichText::new(text).strong());
    ui.label("Predict before you run:");
    if walk.answers[walk.at].is_none() {
        ui.weak("Nothing runs until you choose.");
    }
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
    if walk.ended(sim, until, event.as_ref()) {
        ui.label(match event.as_ref().map(|e| (e, e.time(sim))) {
            Some((e, Some(t))) => {
                format!("{e}: at t = {t:.3} s, marked on the timeline. Go on.")
            }
            Some((e, None)) => format!("Ran to t = {until} s: not {e}. Go on."),
            None => format!("Ran to t = {until} s. Go on to the measurement."),
        });
        return;
    }
    if let Some(e) = &sim.lanes()[0].error() {
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
        let value = |x: Option<f64>| m.shown(x);
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
    if rest.iter().any(|s| matches!(s, Card::Run { .. })) {
        return;
    }
    for (k, step) in walk.lesson.steps[..walk.at].iter().enumerate() {
        let Card::Question {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::timeline_strip::step_forward;

    /// The app's physics and lesson systems, without a window, on `lesson`, 50 ms a
    /// frame.
    fn app(lesson: &str) -> App {
        let mut app = crate::app::headless_app("free-body");
        app.add_plugins(LessonPlugin {
            open: Some(lesson.into()),
            setup: None,
        });
        app.update();
        app
    }

    /// What Space does: play from here.
    fn space(app: &mut App) {
        app.world_mut().resource_mut::<Time<Virtual>>().unpause();
        for _ in 0..10 {
            app.update();
        }
    }

    /// What N, the right arrow, the strip's and the panel's step buttons do.
    fn n(app: &mut App) {
        app.world_mut().resource_scope(|world, mut sim: Mut<Sim>| {
            step_forward(&mut sim, world.resource::<Time<Virtual>>());
        });
        app.update();
    }

    /// On the restitution lesson's question, N pressed 30 times and Space 3 times step
    /// nothing; answered, play runs to the run's 2 s exactly (the app's fixed steps,
    /// 50 ms of them a frame) and pauses, and the readout is the headless one.
    #[test]
    fn the_running_app_waits_for_the_prediction_and_stops_at_until() {
        let mut app = app("restitution");
        for _ in 0..30 {
            n(&mut app);
        }
        for _ in 0..3 {
            space(&mut app);
        }
        let sim = app.world().resource::<Sim>();
        assert_eq!((sim.step_index(), sim.time()), (0, 0.0));
        let mut view = app.world_mut().resource_mut::<View>();
        view.lesson.as_mut().unwrap().answer(1);
        app.world_mut().resource_scope(|world, mut sim: Mut<Sim>| {
            let mut view = world.resource_mut::<View>();
            let walk = view.lesson.as_mut().unwrap();
            walk.next(&mut sim).unwrap();
        });
        for _ in 0..6 {
            space(&mut app);
            n(&mut app);
        }
        assert!(app.world().resource::<Time<Virtual>>().is_paused());
        let measured = app.world_mut().resource_scope(|world, mut sim: Mut<Sim>| {
            assert!((sim.time() - 2.0).abs() < 1e-9, "stopped at {}", sim.time());
            let mut view = world.resource_mut::<View>();
            let walk = view.lesson.as_mut().unwrap();
            walk.next(&mut sim).unwrap();
            walk.measured[2].clone().unwrap()
        });
        let headless = lesson::run::run(&lesson::load("restitution").unwrap()).unwrap();
        assert_eq!(measured, headless[0]);
    }
}
