//! The readouts of moving-frame scenes: Foucault's pendulum (the planet's spin and
//! latitude, the textbook's period of the swing plane, the lab's meter of it) and the
//! ball rolling on a turning table (its circling rate against 2Ω/7). Windows at the 3D
//! view's top right (`FramesPlugin` schedules them after the panels), or, while a lesson
//! is open, at the top of its panel, so that they cover nothing in the view.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::physics::Sim;
use super::timing::Timed;
use super::view::View;

/// The readouts the scene has, in a lesson's panel.
pub fn in_panel(ui: &mut egui::Ui, sim: &Sim) {
    if sim.recorders().dock().pendulum().is_some() {
        ui.strong("Foucault's pendulum");
        foucault_lines(ui, sim);
        ui.separator();
    }
    if sim.dock().circling().is_some() {
        ui.strong("Rolling on a turning table");
        circling_lines(ui, sim);
        ui.separator();
    }
}

/// The Foucault readout's window, where no lesson panel shows it.
pub(super) fn foucault(mut contexts: EguiContexts, sim: Res<Sim>, view: Res<View>) -> Result {
    let _timed = Timed::start();
    if sim.recorders().dock().pendulum().is_none() || view.lesson.is_some() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    egui::Window::new("Foucault's pendulum")
        .anchor(egui::Align2::RIGHT_TOP, [-10.0, 10.0])
        .resizable(false)
        .collapsible(false)
        .show(ctx, |ui| foucault_lines(ui, &sim));
    Ok(())
}

/// The site, the textbook's period, and the measured turning.
fn foucault_lines(ui: &mut egui::Ui, sim: &Sim) {
    let world = sim.world();
    let Some(pendulum) = sim.recorders().dock().pendulum() else {
        return;
    };
    let site = pendulum.site(world);
    ui.label(format!(
        "Ω = {:.4} rad/s, latitude φ = {:.1}°",
        site.spin,
        site.latitude.to_degrees()
    ));
    if site.rate != 0.0 {
        ui.label(format!(
            "2π/(Ω sin φ) = {:.1} s",
            std::f64::consts::TAU / site.rate.abs()
        ));
    }
    match pendulum.meter.rate() {
        Some(rate) => ui.label(format!(
            "measured: the swing plane turns {} once every {:.1} s ({} swings)",
            if rate < 0.0 {
                "clockwise"
            } else {
                "anticlockwise"
            },
            std::f64::consts::TAU / rate.abs(),
            pendulum.meter.turns.len()
        )),
        None => ui.label("measured: waiting for three swings"),
    };
}

/// The circling readout's window, where no lesson panel shows it.
pub(super) fn circling(mut contexts: EguiContexts, sim: Res<Sim>, view: Res<View>) -> Result {
    let _timed = Timed::start();
    if sim.dock().circling().is_none() || view.lesson.is_some() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    egui::Window::new("Rolling on a turning table")
        .anchor(egui::Align2::RIGHT_TOP, [-10.0, 10.0])
        .resizable(false)
        .collapsible(false)
        .show(ctx, |ui| circling_lines(ui, &sim));
    Ok(())
}

/// How fast the ball's world velocity turns, against 2Ω/7.
fn circling_lines(ui: &mut egui::Ui, sim: &Sim) {
    let Some(c) = sim.dock().circling().copied() else {
        return;
    };
    let expected = c.expected(sim.world());
    ui.label(format!(
        "2Ω/7 = {expected:.4} rad/s (a solid sphere rolling without slipping)"
    ));
    match c.meter.rate() {
        Some(rate) => ui.label(format!(
            "measured: its velocity turns at {rate:.4} rad/s ({:+.2}%)",
            100.0 * (rate / expected - 1.0)
        )),
        None => ui.label("measured: waiting for the ball to move"),
    };
}
