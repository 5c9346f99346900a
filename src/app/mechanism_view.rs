//! The dock of jointed mechanisms: the energies, the scene's measurement against its
//! formula (a slider-crank's piston, a chain's stretch), and, where joints can break,
//! those that broke.

use bevy_egui::egui;
use egui_plot::LineStyle;

use crate::lab::mechanism::Mechanism;

use super::dock_plots::{energy, layout};
use super::physics::Sim;
use super::plots::{self, Layout, line, plot};
use super::view::View;

pub fn show(ui: &mut egui::Ui, sim: &Sim, view: &mut View) {
    ui.horizontal(|ui| {
        ui.checkbox(
            &mut view.autoscroll,
            format!("scroll (last {} s)", plots::WINDOW),
        );
    });
    let mechanism = sim.dock().mechanism().copied();
    let breakable = sim.world().contacts().is_some_and(|c| {
        (c.joints().iter()).any(|j| j.break_force.is_some() || j.break_torque.is_some())
    });
    let parts = 1 + usize::from(mechanism.is_some()) + usize::from(breakable);
    let layout = layout(ui, parts, view.autoscroll);
    let from = plots::from(sim, view.autoscroll);
    ui.horizontal(|ui| {
        energy(ui, sim, layout, from);
        if let Some(m) = mechanism {
            measurement(ui, sim, m, layout, from);
        }
        if breakable {
            breaks(ui, sim, layout);
        }
    });
}

/// The mechanism's measurement (white) against its formula (dashed).
fn measurement(ui: &mut egui::Ui, sim: &Sim, m: Mechanism, layout: Layout, from: f64) {
    let (label, tip, formula, scale) = match m {
        Mechanism::Piston { .. } => (
            "piston x (m)",
            "The piston's distance along x from the crank's pivot, against \
             x(θ) = r cos θ + √(l² − r² sin² θ) for the crank's angle θ",
            "x(θ)",
            1.0,
        ),
        Mechanism::Stretch { .. } => (
            "stretch (%)",
            "How far the joints' anchors have pulled apart, summed, as a per cent of \
             the chain's length; a rigid chain would show 0. Switch the joint solver in \
             the solver panel to compare",
            "rigid",
            100.0,
        ),
    };
    plot(ui, "mechanism", label, tip, layout, sim, |p| {
        let samples = &sim.recorders().dock().mechanism().samples;
        p.line(line(
            "measured",
            samples,
            from,
            false,
            |s| [s.t, s.measured * scale],
            egui::Color32::WHITE,
        ));
        p.line(
            line(
                formula,
                samples,
                from,
                false,
                |s| [s.t, s.expected * scale],
                egui::Color32::LIGHT_BLUE,
            )
            .style(LineStyle::dashed_loose()),
        );
    });
}

/// The first lane's broken joints, each with its time and what it carried.
fn breaks(ui: &mut egui::Ui, sim: &Sim, layout: Layout) {
    ui.vertical(|ui| {
        ui.set_width(layout.width);
        ui.label(egui::RichText::new("joints broken").strong())
            .on_hover_text(
                "A joint with break_force or break_torque breaks in the step in which \
                 it carries more, and is gone from then on",
            );
        let Some(c) = &sim.world().contacts() else {
            return;
        };
        let mut breaks: Vec<_> = c.breaks().collect();
        breaks.sort_by(|(_, a), (_, b)| a.time.total_cmp(&b.time));
        if breaks.is_empty() {
            ui.label("none yet");
        }
        egui::ScrollArea::vertical()
            .max_height(layout.height - 20.0)
            .show(ui, |ui| {
                for (k, b) in breaks {
                    ui.monospace(format!(
                        "t = {:6.3} s  joint {k}: {:.0} N, {:.0} N·m",
                        b.time, b.force, b.torque
                    ));
                }
            });
    });
}
