//! The control panel on the left: scene, integrators, time, start conditions, what is
//! drawn, the readouts per lane, and CSV export. Plain functions over the lab and the
//! view; the UI system calls them.

use crate::lab::Input;
use bevy::prelude::*;
use bevy_egui::egui::{self, RichText};

use crate::integrators::Integrator;
use crate::lab::MAX_STEPS_PER_DT;
use crate::lab::metrics::separatrix_ratio;
use crate::lab::presets::{InertiaPreset, SpinAxis};
use crate::lesson;
use crate::scene::scene_names;

use super::colors::{
    HERPOLHODE_COLOR, MOMENTUM_COLOR, OMEGA_COLOR, POLHODE_COLOR, egui_color, integrator_text,
};
use super::layout::omega_lane;
use super::physics::Sim;
use super::view::{MAX_TIME_SCALE, MIN_TIME_SCALE, Message, View};
use super::widgets;

/// The tooltip of an integrator: what it does, its update, its order, what it keeps.
pub fn integrator_tooltip(ui: &mut egui::Ui, i: Integrator) {
    let info = i.info();
    ui.strong(info.name);
    ui.label(info.summary);
    ui.label(RichText::new(info.formula).monospace());
    match (info.order, info.other_equation) {
        (0, _) => {}
        (order, Some(equation)) => {
            ui.label(format!(
                "order {order} for {equation}; none against the true motion"
            ));
        }
        (order, None) => {
            ui.label(format!("order {order}"));
        }
    }
    ui.label(format!("conserves: {}", info.conserves));
}

pub fn controls(
    ui: &mut egui::Ui,
    sim: &mut Sim,
    view: &mut View,
    time: &mut Time<Virtual>,
    message: &mut Message,
) {
    scene(ui, sim, view);
    if !view.hides("integrators") {
        egui::CollapsingHeader::new("Integrators")
            .default_open(true)
            .show(ui, |ui| {
                let locked = lock(ui, view, "integrators");
                ui.add_enabled_ui(!locked, |ui| integrators(ui, sim, view, message));
            });
    }
    egui::CollapsingHeader::new("Time")
        .default_open(true)
        .show(ui, |ui| time_controls(ui, sim, view, time, message));
    if sim.world().contacts().is_some() && !view.hides("solver") {
        egui::CollapsingHeader::new("Solver")
            .default_open(true)
            .show(ui, |ui| {
                let locked = lock(ui, view, "solver");
                ui.add_enabled_ui(!locked, |ui| {
                    super::solver_panel::show(ui, sim, view, message)
                });
            });
    }
    if !view.hides("start") {
        egui::CollapsingHeader::new("Start conditions")
            .default_open(false)
            .show(ui, |ui| {
                let locked = lock(ui, view, "start");
                ui.add_enabled_ui(!locked, |ui| start(ui, sim, message));
            });
    }
    egui::CollapsingHeader::new("Show")
        .default_open(false)
        .show(ui, |ui| show(ui, view, sim.ghost().is_some()));
    egui::CollapsingHeader::new("Readouts")
        .default_open(true)
        .show(ui, |ui| readouts(ui, sim));
    egui::CollapsingHeader::new("Export")
        .default_open(false)
        .show(ui, |ui| export(ui, sim, message));
    egui::CollapsingHeader::new("Share")
        .default_open(false)
        .show(ui, |ui| super::share_panel::show(ui, sim, view, message));
    if !message.text.is_empty() {
        let color = if message.error {
            egui::Color32::LIGHT_RED
        } else {
            egui::Color32::LIGHT_GREEN
        };
        ui.colored_label(color, &message.text);
    }
}

/// Loads a built-in scene by name or a `.ron` file by path; one that fails to load
/// leaves the running scene as it is.
pub fn load_scene(sim: &mut Sim, view: &mut View, name: &str) -> Result<(), String> {
    sim.open(name)?;
    view.omega_lane = omega_lane(sim);
    view.rider = None;
    Ok(())
}

fn scene(ui: &mut egui::Ui, sim: &mut Sim, view: &mut View) {
    lessons(ui, sim, view);
    if !view.hides("scene") {
        let locked = lock(ui, view, "scene");
        ui.add_enabled_ui(!locked, |ui| scene_choice(ui, sim, view));
    }
    // During a lesson the student predicts first: the scene's words would tell.
    if view.lesson.is_some() {
        return;
    }
    ui.label(RichText::new(&sim.scene().description).italics());
    if !sim.scene().explanation.is_empty() {
        egui::CollapsingHeader::new("What am I seeing?")
            .default_open(true)
            .show(ui, |ui| ui.label(&sim.scene().explanation));
    }
}

/// The step and the integrator steps per step.
fn dt_controls(ui: &mut egui::Ui, sim: &mut Sim, view: &View, message: &mut Message) {
    let mut dt = sim.dt();
    let locked = lock(ui, view, "dt");
    if ui
        .add_enabled(
            !locked,
            egui::Slider::new(&mut dt, 0.001..=0.1)
                .logarithmic(true)
                .text("dt (s)"),
        )
        .on_hover_text("one physics step; the physics rate is 1/dt")
        .changed()
        && let Err(e) = sim.apply(Input::SetDt(dt))
    {
        message.set(Err(e));
    }
    let mut steps = sim.steps_per_dt();
    if ui
        .add_enabled(
            !locked,
            egui::Slider::new(&mut steps, 1..=MAX_STEPS_PER_DT)
                .logarithmic(true)
                .text("steps per dt"),
        )
        .on_hover_text("each physics step of dt taken as this many integrator steps of dt/n")
        .changed()
        && let Err(e) = sim.apply(Input::SetStepsPerDt(steps))
    {
        message.set(Err(e));
    }
}

/// Whether the open lesson locks `control`; if so, the reason is shown.
fn lock(ui: &mut egui::Ui, view: &View, control: &str) -> bool {
    let why = view.locked(control);
    if let Some(why) = why {
        ui.weak(format!("🔒 locked by the lesson: {why}"));
    }
    why.is_some()
}

/// The Lessons menu: opens a lesson on its scene, at its first step.
fn lessons(ui: &mut egui::Ui, sim: &mut Sim, view: &mut View) {
    let open = view.lesson.as_ref().map(|w| w.lesson.origin.clone());
    let mut chosen = None;
    egui::ComboBox::from_label("lesson")
        .selected_text(open.as_deref().unwrap_or("none"))
        .show_ui(ui, |ui| {
            for name in lesson::lesson_names() {
                if ui
                    .selectable_label(open.as_deref() == Some(name), name)
                    .clicked()
                {
                    chosen = Some(name);
                }
            }
        })
        .response
        .on_hover_text("predict, run, measure, explain: a lesson walks a scene step by step");
    if let Some(name) = chosen {
        let opened = super::lesson_panel::start(sim, view, name);
        view.scene_error = opened.err().unwrap_or_default();
    }
}

/// The scene picker and the scene-file field.
fn scene_choice(ui: &mut egui::Ui, sim: &mut Sim, view: &mut View) {
    let mut chosen = None;
    egui::ComboBox::from_label("scene")
        .selected_text(&sim.scene().name)
        .show_ui(ui, |ui| {
            for (i, name) in scene_names().into_iter().enumerate() {
                if ui
                    .selectable_label(sim.scene().name == name, format!("{}  {name}", i + 1))
                    .clicked()
                {
                    chosen = Some(name);
                }
            }
        });
    // A scene file of one's own: an error shows below, and the running scene goes on.
    let opened = widgets::open_field(ui, &mut view.scene_file, "my-scene.ron", "open");
    let file = opened.then(|| view.scene_file.clone());
    if let Some(name) = chosen.map(String::from).or(file) {
        view.scene_error = load_scene(sim, view, &name).err().unwrap_or_default();
    }
    if !view.scene_error.is_empty() {
        ui.colored_label(egui::Color32::LIGHT_RED, &view.scene_error);
    }
}

fn integrators(ui: &mut egui::Ui, sim: &mut Sim, view: &mut View, message: &mut Message) {
    let choices = Integrator::ALL
        .into_iter()
        .filter(|&i| i != Integrator::Analytic);
    if sim.side_by_side() {
        ui.weak("Side by side from the same start; changing the set restarts.");
        for i in choices {
            let mut on = sim.compared().contains(&i);
            let response = ui
                .checkbox(&mut on, integrator_text(i))
                .on_hover_ui(|ui| integrator_tooltip(ui, i));
            if response.changed()
                && let Err(e) = sim.apply(Input::Compare { integrator: i, on })
            {
                message.set(Err(e));
            }
        }
        // Only where the exact solution exists: one torque-free body.
        if sim.ghost().is_some() {
            ui.checkbox(&mut view.ghost, "ghost: the exact solution (analytic)")
                .on_hover_ui(|ui| integrator_tooltip(ui, Integrator::Analytic));
        }
    } else {
        ui.weak("Switch live: the bodies carry on from where they are.");
        let current = sim.lanes()[0].integrator();
        for i in choices {
            let response = ui
                .radio(current == i, integrator_text(i))
                .on_hover_ui(|ui| integrator_tooltip(ui, i));
            if response.clicked()
                && let Err(e) = sim.apply(Input::SwitchIntegrator(i))
            {
                message.set(Err(e));
            }
        }
    }
}

fn time_controls(
    ui: &mut egui::Ui,
    sim: &mut Sim,
    view: &mut View,
    time: &mut Time<Virtual>,
    message: &mut Message,
) {
    ui.horizontal(|ui| {
        let paused = time.is_paused();
        if ui
            .button(if paused { "▶ run" } else { "⏸ pause" })
            .clicked()
        {
            if paused {
                time.unpause();
            } else {
                time.pause();
            }
        }
        if ui
            .add_enabled(paused, egui::Button::new("step"))
            .on_hover_text(
                "one physics step (while paused): through the recording when scrubbed back",
            )
            .clicked()
        {
            super::timeline_strip::step_forward(sim, time);
        }
        if ui.button("⟲ reset").clicked()
            && let Err(e) = sim.apply(Input::Restart)
        {
            message.set(Err(e));
        }
    });
    if !view.hides("dt") {
        dt_controls(ui, sim, view, message);
    }
    ui.add(
        egui::Slider::new(&mut view.time_scale, MIN_TIME_SCALE..=MAX_TIME_SCALE)
            .logarithmic(true)
            .text("time scale"),
    )
    .on_hover_text("simulated seconds per real second: below 1 is slow motion");
    ui.weak(format!(
        "integrator step h = {:.5} s, {:.0} physics steps/s",
        sim.h(),
        1.0 / sim.dt()
    ));
}

fn start(ui: &mut egui::Ui, sim: &mut Sim, message: &mut Message) {
    let mut start = sim.start().clone();
    if sim.side_by_side() {
        egui::ComboBox::from_label("body")
            .selected_text(start.preset.name())
            .show_ui(ui, |ui| {
                for p in InertiaPreset::ALL {
                    ui.selectable_value(&mut start.preset, p, p.name());
                }
            });
        if start.preset == InertiaPreset::Custom {
            ui.horizontal(|ui| {
                ui.label("moments");
                for k in 0..3 {
                    ui.add(
                        egui::DragValue::new(&mut start.custom[k])
                            .speed(0.0005)
                            .max_decimals(5),
                    );
                }
            })
            .response
            .on_hover_text("principal moments in kg·m²; drawn as the box with this inertia");
        }
        ui.horizontal(|ui| {
            ui.label("spin axis:");
            for axis in SpinAxis::ALL {
                ui.radio_value(&mut start.axis, axis, axis.name())
                    .on_hover_text("the principal axis with this moment of inertia");
            }
        });
        ui.add(egui::Slider::new(&mut start.spin, -30.0..=30.0).text("spin (rad/s)"));
        ui.add(egui::Slider::new(&mut start.perturbation, 0.0..=2.0).text("perturbation (rad/s)"))
            .on_hover_text("a small spin about another axis: the seed of the instability");
    }
    let mut g = -start.gravity.y;
    ui.add(egui::Slider::new(&mut g, 0.0..=20.0).text("gravity (m/s², down)"));
    start.gravity.y = -g;
    if start != *sim.start() {
        match sim.apply(Input::SetStart(start)) {
            Ok(()) => message.set(Ok(String::new())),
            Err(e) => message.set(Err(format!("not applied: {e}"))),
        }
    }
}

/// What is drawn; the ghost only where the exact solution exists.
fn show(ui: &mut egui::Ui, view: &mut View, exact: bool) {
    let swatch = |c: Color, text: &str| RichText::new(text).color(egui_color(c));
    ui.checkbox(&mut view.omega, swatch(OMEGA_COLOR, "ω  angular velocity"));
    ui.checkbox(
        &mut view.momentum,
        swatch(MOMENTUM_COLOR, "L  angular momentum"),
    );
    ui.checkbox(&mut view.axes, "principal axes");
    ui.checkbox(
        &mut view.herpolhode,
        swatch(HERPOLHODE_COLOR, "herpolhode: ω's tip in space"),
    );
    ui.checkbox(
        &mut view.polhode,
        swatch(POLHODE_COLOR, "polhode: ω's tip on the body"),
    );
    if exact {
        ui.checkbox(&mut view.ghost, "ghost (exact solution)");
    }
    ui.checkbox(&mut view.labels, "labels");
    ui.checkbox(
        &mut view.inertial,
        "inertial forces (frame, Euler, centrifugal, Coriolis)",
    );
    ui.checkbox(&mut view.paths, "paths: in the world and in the frame");
    ui.checkbox(
        &mut view.joints,
        "joints: anchors, axes, limits, ropes, springs, breaks",
    );
    ui.checkbox(
        &mut view.joint_forces,
        "joint forces (2 mm per newton, on the first body)",
    );
}

fn readouts(ui: &mut egui::Ui, sim: &Sim) {
    egui::Grid::new("lanes").striped(true).show(ui, |ui| {
        for (h, tip) in [
            ("integrator", ""),
            ("flips", "times the first body turned over: sign changes of its ω about the axis it was spun about"),
            ("T_flip", "measured time between flips"),
            ("ΔE/E", "energy error now, relative"),
            ("|ΔL|/|L|", "worst momentum error, relative"),
            ("E/(L²/2I₂)", "the first body's rotational energy as a fraction of L²/2I₂, the energy of a spin about its middle axis: below 1 it wobbles about the largest axis, above 1 about the smallest; at 1 it is on the separatrix, where spins tumble. Torque-free, the exact motion keeps it constant"),
        ] {
            let r = ui.strong(h);
            if !tip.is_empty() {
                r.on_hover_text(tip);
            }
        }
        ui.end_row();
        for run in sim.lanes() {
            ui.label(integrator_text(run.integrator()));
            ui.label(run.flips().flips().to_string());
            ui.label(
                run.flips()
                    .mean_period()
                    .map_or("-".into(), |p| format!("{p:.3} s")),
            );
            ui.label(format!("{:+.1e}", run.drift().final_energy));
            ui.label(format!("{:.1e}", run.drift().max_momentum));
            let body = &run.world().bodies()[0];
            ui.label(
                separatrix_ratio(&body.props, &body.state).map_or("-".into(), |r| format!("{r:.4}")),
            );
            ui.end_row();
            if let Some(e) = &run.failure() {
                ui.colored_label(egui::Color32::LIGHT_RED, format!("stopped: {e}"));
                ui.end_row();
            }
        }
    });
    if let Some(p) = sim.lanes()[0].analytic_flip_period() {
        ui.label(format!("exact flip period: {p:.3} s"));
    }
}

fn export(ui: &mut egui::Ui, sim: &Sim, message: &mut Message) {
    ui.label(format!(
        "{} rows recorded, columns of `gyrolab simulate`",
        sim.recorders().export().records()
    ));
    if sim.recorders().export().full {
        ui.colored_label(
            egui::Color32::LIGHT_RED,
            "recording full: later steps are not kept",
        );
    }
    if ui.button("export CSV").clicked() {
        let name = super::files::safe(&sim.scene().name);
        let path = format!("gyrolab-{name}-{:.0}s.csv", sim.time());
        message.set(
            std::fs::write(
                &path,
                crate::records::export_csv(
                    sim.recorders().export(),
                    sim.lanes().iter().map(|r| r.world()),
                ),
            )
            .map(|()| format!("wrote {path}"))
            .map_err(|e| format!("cannot write {path}: {e}")),
        );
    }
}

#[cfg(test)]
mod tests {

    use super::*;
    use crate::lab::Lab;
    use crate::scene::Scene;

    /// The text a panel draws in one egui frame.
    fn text(scene: &str, draw: impl Fn(&mut egui::Ui, &mut Sim, &mut View)) -> String {
        let mut sim = Sim::new(Lab::new(Scene::load(scene).unwrap()));
        let mut view = View::default();
        let output = egui::Context::default().run_ui(egui::RawInput::default(), |ui| {
            draw(ui, &mut sim, &mut view)
        });
        crate::app::drawn_text(&output)
    }

    /// The Share section offers the web page beside the set-up code.
    #[test]
    fn share_offers_the_web_page_beside_the_set_up_code() {
        let shown = text("bounce", |ui, sim, view| {
            super::super::share_panel::show(ui, sim, view, &mut Message::default())
        });
        assert!(shown.contains("Copy set-up"), "{shown}");
        assert!(shown.contains("export web page"), "{shown}");
    }

    /// The ghost checkboxes appear where the exact solution exists (one free body), not
    /// on `dancing-pole`, whose lanes are side by side too but stand on the floor.
    #[test]
    fn the_ghost_checkbox_shows_only_where_an_exact_solution_applies() {
        let integrators = |ui: &mut egui::Ui, sim: &mut Sim, view: &mut View| {
            integrators(ui, sim, view, &mut Message::default())
        };
        let shown = |ui: &mut egui::Ui, sim: &mut Sim, view: &mut View| {
            show(ui, view, sim.ghost().is_some())
        };
        for draw in [
            &integrators as &dyn Fn(&mut egui::Ui, &mut Sim, &mut View),
            &shown,
        ] {
            assert!(text("dzhanibekov", draw).contains("ghost"));
            let pole = text("dancing-pole", draw);
            assert!(
                pole.contains("ω  angular velocity") || pole.contains("midpoint"),
                "{pole}"
            );
            assert!(!pole.contains("ghost"), "{pole}");
        }
    }
}
