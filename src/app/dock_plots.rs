//! What every dock's plots share: each plot's share of the dock, a lane's name and colour
//! in the legends, and the energy plot that the contact, frame and mechanism docks all
//! show.

use bevy_egui::egui;
use egui_plot::LineStyle;

use super::colors::{egui_color, integrator_color};
use super::physics::Sim;
use super::plots::{Layout, line, plot};

/// Each plot's share of the dock's width, and its height.
pub(super) fn layout(ui: &egui::Ui, plots: usize, scroll: bool) -> Layout {
    Layout {
        width: (ui.available_width() / plots as f32 - 8.0).max(60.0),
        height: ui.available_height().max(60.0),
        log: false,
        scroll,
        legend: true,
    }
}

/// A lane's line in the legends: `what` with one lane; where lanes are compared, the
/// lane's integrator, whose colour the line has (its legend is the energy plot's).
pub(super) fn lane_name(sim: &Sim, lane: usize, what: &str) -> String {
    if sim.lanes().len() > 1 {
        sim.lanes()[lane].integrator().name().to_string()
    } else {
        what.to_string()
    }
}

/// The colour of a lane's integrator.
pub(super) fn lane_color(sim: &Sim, lane: usize) -> egui::Color32 {
    egui_color(integrator_color(sim.lanes()[lane].integrator()))
}

/// Each lane's kinetic energy (solid) and gravitational potential energy (dashed).
pub(super) fn energy(ui: &mut egui::Ui, sim: &Sim, layout: Layout, from: f64) {
    plot(
        ui,
        "dock energy",
        if sim.lanes().len() > 1 {
            "kinetic, potential - - (J)"
        } else {
            "energy (J)"
        },
        "Kinetic energy (solid: translation and rotation) and gravitational potential \
         energy (dashed: m g h, zero at height 0) of all bodies; their sum per body is \
         the energy column of `gyrolab simulate`",
        layout,
        sim,
        |p| {
            for (lane, series) in sim.recorders().dock().energy().iter().enumerate() {
                let color = lane_color(sim, lane);
                p.line(line(
                    &lane_name(sim, lane, "kinetic"),
                    &series.samples,
                    from,
                    false,
                    |s| [s.t, s.kinetic],
                    color,
                ));
                p.line(
                    line(
                        &lane_name(sim, lane, "potential"),
                        &series.samples,
                        from,
                        false,
                        |s| [s.t, s.potential],
                        color,
                    )
                    .style(LineStyle::dashed_loose()),
                );
            }
        },
    );
}
