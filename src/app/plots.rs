//! The free-body dock under the 3D view: relative energy error, relative |ΔL| and the
//! body-frame angular velocity over time, one colour per integrator (the ghost dashed), on
//! a linear or logarithmic scale, optionally scrolling with the run; and the Newton map
//! beside them. The plot helpers here serve the other docks too; every plot marks the
//! moment the timeline shows.

use bevy_egui::egui;
use egui_plot::{Corner, Legend, Line, LineStyle, Plot, PlotPoints, VLine, uniform_grid_spacer};

use crate::integrators::Integrator;
use crate::lab::series::{Sample, Series};

use super::colors::{AXIS_COLORS, GHOST_PLOT, egui_color, integrator_color, integrator_text};
use super::newton_map::{self, NewtonMap};
use super::physics::Sim;
use super::view::View;
use super::work_precision::{self, WorkPrecision};

/// Seconds shown when the plots scroll with the run.
pub const WINDOW: f64 = 10.0;
/// Errors below this are drawn at it on the log scale (exact zero has no logarithm).
const FLOOR: f64 = 1e-17;

/// The free-body dock: its switches, the two error plots and body ω side by side, the
/// work-precision diagram when chosen, and the Newton map at the right end.
pub fn show(
    ui: &mut egui::Ui,
    sim: &Sim,
    view: &mut View,
    map: &mut NewtonMap,
    wp: &WorkPrecision,
) {
    switches(ui, sim, view);
    let height = ui.available_height().max(60.0);
    let map_side = height.min(ui.available_width() * 0.25);
    let diagram = view.work_precision && sim.side_by_side();
    let plots = if diagram { 4.0 } else { 3.0 };
    let width = ((ui.available_width() - map_side) / plots - 8.0).max(60.0);
    let from = from(sim, view.autoscroll);
    let layout = Layout {
        width,
        height,
        log: view.log_plots,
        scroll: view.autoscroll,
        legend: true,
    };
    ui.horizontal(|ui| {
        error_plots(ui, sim, view, layout, from);
        omega_plot(ui, sim, view, layout, from);
        if diagram {
            ui.vertical(|ui| work_precision::show(ui, sim, wp, width, height));
        }
        ui.vertical(|ui| newton_map::show(ui, sim, map, map_side - 4.0));
    });
}

/// The row over the plots: log scale, scrolling, the work-precision diagram (lanes
/// side by side only), and the lane whose body ω is plotted.
fn switches(ui: &mut egui::Ui, sim: &Sim, view: &mut View) {
    ui.horizontal(|ui| {
        ui.checkbox(&mut view.log_plots, "log scale");
        ui.checkbox(&mut view.autoscroll, format!("scroll (last {WINDOW} s)"));
        if sim.side_by_side() {
            ui.checkbox(&mut view.work_precision, "work-precision");
        }
        let lane = view.omega_lane.min(sim.lanes().len() - 1);
        egui::ComboBox::from_label("body ω of")
            .selected_text(integrator_text(sim.lanes()[lane].integrator()))
            .show_ui(ui, |ui| {
                for (i, run) in sim.lanes().iter().enumerate() {
                    ui.selectable_value(&mut view.omega_lane, i, integrator_text(run.integrator()));
                }
            });
    });
}

/// The relative energy error and |ΔL|: a line per lane in its integrator's colour, and
/// the exact ghost's dashed when shown.
fn error_plots(ui: &mut egui::Ui, sim: &Sim, view: &View, layout: Layout, from: f64) {
    let error = |ui: &mut egui::Ui, id, label, tip, pick: fn(&Sample) -> f64| {
        // The momentum plot has the same lines as the energy plot: one legend.
        let layout = Layout {
            legend: id != "momentum",
            ..layout
        };
        plot(ui, id, label, tip, layout, sim, |p| {
            for (run, series) in sim.lanes().iter().zip(sim.recorders().series()) {
                p.line(series_line(
                    run.integrator().name(),
                    series,
                    from,
                    view.log_plots,
                    pick,
                    egui_color(integrator_color(run.integrator())),
                ));
            }
            if sim.ghost().is_some() && view.ghost {
                p.line(
                    series_line(
                        "exact",
                        sim.recorders().ghost_series(),
                        from,
                        view.log_plots,
                        pick,
                        egui_color(GHOST_PLOT),
                    )
                    .style(LineStyle::dashed_loose()),
                );
            }
        });
    };
    error(
        ui,
        "energy",
        "ΔE/E",
        "(E − E₀)/|E₀|: E is the lane's kinetic plus gravitational potential energy",
        |s| s.energy,
    );
    error(
        ui,
        "momentum",
        "|ΔL|/|L|",
        "|L − L₀|/|L₀|: the first body's angular momentum vector against its start",
        |s| s.momentum,
    );
}

/// The chosen lane's body ω, one line per principal axis, on a linear scale; the
/// ghost's dashed over it when shown.
fn omega_plot(ui: &mut egui::Ui, sim: &Sim, view: &View, layout: Layout, from: f64) {
    let lane = view.omega_lane.min(sim.lanes().len() - 1);
    plot(
        ui,
        "omega",
        "body ω (rad/s)",
        "the chosen lane's first body's angular velocity in its principal axes",
        Layout {
            log: false,
            ..layout
        },
        sim,
        |p| {
            for k in 0..3 {
                let name = ["ω_x", "ω_y", "ω_z"][k];
                p.line(
                    series_line(
                        name,
                        &sim.recorders().series()[lane],
                        from,
                        false,
                        move |s| s.omega[k],
                        egui_color(AXIS_COLORS[k]),
                    )
                    .width(1.5),
                );
                if view.ghost && sim.ghost().is_some() {
                    p.line(
                        series_line(
                            name,
                            sim.recorders().ghost_series(),
                            from,
                            false,
                            move |s| s.omega[k],
                            egui_color(AXIS_COLORS[k]),
                        )
                        .style(LineStyle::dashed_loose())
                        .width(1.0),
                    );
                }
            }
        },
    );
}

/// One series as a plot line: optionally only the recent window, optionally as log10|y|.
fn series_line<'a>(
    name: &str,
    series: &Series,
    from: f64,
    log: bool,
    pick: impl Fn(&Sample) -> f64,
    color: egui::Color32,
) -> Line<'a> {
    line(name, &series.samples, from, log, |s| [s.t, pick(s)], color)
}

/// Samples as a plot line of `point(sample) = [t, y]`: only from `from` on, optionally as
/// log10|y|.
pub fn line<'a, S>(
    name: &str,
    samples: &[S],
    from: f64,
    log: bool,
    point: impl Fn(&S) -> [f64; 2],
    color: egui::Color32,
) -> Line<'a> {
    let points: PlotPoints = samples
        .iter()
        .map(point)
        .filter(|[t, _]| *t >= from)
        .map(|[t, y]| [t, if log { y.abs().max(FLOOR).log10() } else { y }])
        .collect();
    Line::new(name.to_string(), points).color(color)
}

/// The first time the plots show: the last [`WINDOW`] seconds when they scroll.
pub fn from(sim: &Sim, scroll: bool) -> f64 {
    if scroll {
        sim.time() - WINDOW
    } else {
        f64::NEG_INFINITY
    }
}

/// Size and axes of one plot.
#[derive(Clone, Copy)]
pub struct Layout {
    pub width: f32,
    pub height: f32,
    pub log: bool,
    pub scroll: bool,
    /// A legend at the top left; plots with the same lines as their neighbour go without.
    pub legend: bool,
}

/// One plot with time along x, the live integrator switches marked, a cursor at the
/// moment shown when the timeline is scrubbed back, and `tip` on hover.
#[allow(clippy::too_many_arguments)]
pub fn plot(
    ui: &mut egui::Ui,
    id: &str,
    label: &str,
    tip: &str,
    layout: Layout,
    sim: &Sim,
    add: impl FnOnce(&mut egui_plot::PlotUi),
) {
    let log = layout.log;
    let mut plot = Plot::new(id)
        .width(layout.width)
        .height(layout.height)
        .x_axis_label("t (s)")
        .y_axis_label(if log {
            format!("{label} (log)")
        } else {
            label.to_string()
        });
    if layout.legend {
        plot = plot.legend(Legend::default().position(Corner::LeftTop));
    }
    if log {
        plot = plot
            .y_grid_spacer(uniform_grid_spacer(|_| [1.0, 2.0, 4.0]))
            .y_axis_formatter(|mark, _| format!("1e{:.0}", mark.value));
    }
    if layout.scroll {
        plot = plot
            .auto_bounds(egui::Vec2b::TRUE)
            .allow_drag(false)
            .allow_zoom(false)
            .allow_scroll(false);
    }
    plot.show(ui, |p| {
        add(p);
        for &(t, integrator) in sim.recorders().switches() {
            p.vline(switch_line(t, integrator));
        }
        if sim.steps_ahead() > 0 {
            p.vline(
                VLine::new("shown", sim.time())
                    .color(egui::Color32::WHITE)
                    .width(1.5),
            );
        }
    })
    .response
    .on_hover_text(tip);
}

fn switch_line(t: f64, integrator: Integrator) -> VLine {
    VLine::new(format!("→ {}", integrator.name()), t)
        .color(egui_color(integrator_color(integrator)))
        .style(LineStyle::dashed_dense())
}
