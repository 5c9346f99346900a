//! The readout windows of moving-frame scenes, at the 3D view's top right: Foucault's
//! pendulum (the planet's spin and latitude, the textbook's period of the swing plane,
//! the lab's meter of it) and the ball rolling on a turning table (its circling rate
//! against 2Ω/7). `FramesPlugin` schedules them after the panels.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::physics::Sim;
use super::timing::Timed;

/// The Foucault readout: the site, the textbook's period, and the measured turning.
pub(super) fn foucault(mut contexts: EguiContexts, sim: Res<Sim>) -> Result {
    let _timed = Timed::start();
    let world = &sim.lanes()[0].world;
    let Some(pendulum) = &sim.dock().pendulum else {
        return Ok(());
    };
    let site = pendulum.site(world);
    let ctx = contexts.ctx_mut()?;
    egui::Window::new("Foucault's pendulum")
        .anchor(egui::Align2::RIGHT_TOP, [-10.0, 10.0])
        .resizable(false)
        .collapsible(false)
        .show(ctx, |ui| {
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
        });
    Ok(())
}

/// The circling readout: how fast the ball's world velocity turns, against 2Ω/7.
pub(super) fn circling(mut contexts: EguiContexts, sim: Res<Sim>) -> Result {
    let _timed = Timed::start();
    let Some(c) = sim.dock().circling else {
        return Ok(());
    };
    let expected = c.expected(&sim.lanes()[0].world);
    let ctx = contexts.ctx_mut()?;
    egui::Window::new("Rolling on a turning table")
        .anchor(egui::Align2::RIGHT_TOP, [-10.0, 10.0])
        .resizable(false)
        .collapsible(false)
        .show(ctx, |ui| {
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
        });
    Ok(())
}
