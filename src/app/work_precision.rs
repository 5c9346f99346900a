//! The work-precision diagram of the compared integrators on the current single-body
//! scene: error at a fixed time against measured cost, log-log, one line per integrator
//! over the sweep of step sizes ([`crate::lab::sweep`]). Computed on a background thread
//! whenever the start, the integrators or the step change, so a frame never waits for it.

use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy_egui::egui;
use egui_plot::{Line, Plot, PlotPoints, Points, uniform_grid_spacer};
use glam::{DQuat, DVec3};

use crate::integrators::Integrator;
use crate::lab::sweep::{self, COARSEST, LEVELS, Sweep, T_END};

use super::colors::{egui_color, integrator_color};
use super::physics::Sim;
use super::timing::Timed;
use super::view::View;

pub struct WorkPrecisionPlugin;

impl Plugin for WorkPrecisionPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<WorkPrecision>()
            .add_systems(Update, refresh);
    }
}

/// What a diagram depends on: the first body's start, the integrators, the step and the
/// time of the error.
#[derive(Clone, PartialEq, Debug)]
struct DiagramInputs {
    inertia: DVec3,
    orientation: DQuat,
    momentum: DVec3,
    integrators: Vec<Integrator>,
    dt: f64,
    t_end: f64,
}

/// A sweep, or why it could not run, and how long it took.
type Outcome = (Result<Sweep, String>, Duration);

#[derive(Resource, Default)]
pub struct WorkPrecision {
    running: Option<(DiagramInputs, JoinHandle<Outcome>)>,
    done: Option<(DiagramInputs, Result<Sweep, String>)>,
    /// How long the last sweep took on its thread.
    pub compute_time: Duration,
}

/// The key of the current start, or why there is no diagram.
fn key_for(sim: &Sim) -> Result<DiagramInputs, String> {
    let world = sim.start().apply(sim.scene())?;
    sweep::check(&world)?;
    let body = &world.bodies()[0];
    Ok(DiagramInputs {
        inertia: body.props.inertia.principal(),
        orientation: body.state.orientation,
        momentum: body.state.angular_momentum,
        integrators: sim.lanes().iter().map(|r| r.integrator()).collect(),
        dt: sim.dt(),
        t_end: sim.scene().duration.min(T_END),
    })
}

fn refresh(sim: Res<Sim>, view: Res<View>, mut wp: ResMut<WorkPrecision>) {
    if !view.work_precision || !sim.side_by_side() {
        return;
    }
    let _timed = Timed::start();
    let finished = wp.running.as_ref().is_some_and(|(_, h)| h.is_finished());
    if finished
        && let Some((key, handle)) = wp.running.take()
        && let Ok((result, took)) = handle.join()
    {
        wp.done = Some((key, result));
        wp.compute_time = took;
    }
    let Ok(key) = key_for(&sim) else {
        return;
    };
    let current = wp.done.as_ref().map(|(k, _)| k);
    if wp.running.is_none() && current != Some(&key) {
        let world = sim.start().apply(sim.scene()).expect("checked by key_for");
        let job = key.clone();
        let handle = std::thread::spawn(move || {
            let start = Instant::now();
            let steps = sweep::step_sizes(job.t_end, COARSEST * job.dt, LEVELS);
            let result = sweep::sweep(
                &world,
                &job.integrators,
                job.t_end,
                &steps,
                crate::stopwatch::now,
                |_, _| {},
            );
            (result, start.elapsed())
        });
        wp.running = Some((key, handle));
    }
}

/// Draws the diagram into `ui`, `width` × `height` points.
pub fn show(ui: &mut egui::Ui, sim: &Sim, wp: &WorkPrecision, width: f32, height: f32) {
    if let Err(why) = key_for(sim) {
        ui.label(format!("work-precision: {why}"));
        return;
    }
    let Some((key, result)) = &wp.done else {
        ui.label("computing the work-precision sweep…");
        return;
    };
    let sweep = match result {
        Ok(s) => s,
        Err(e) => {
            ui.label(format!("work-precision: {e}"));
            return;
        }
    };
    let response = Plot::new("work-precision")
        .width(width)
        .height(height)
        .x_axis_label("cost: ns per simulated s (log)")
        .y_axis_label(format!("error at t = {:.0} s (log)", key.t_end))
        .x_grid_spacer(uniform_grid_spacer(|_| [1.0, 2.0, 4.0]))
        .y_grid_spacer(uniform_grid_spacer(|_| [1.0, 2.0, 4.0]))
        .x_axis_formatter(|mark, _| format!("1e{:.0}", mark.value))
        .y_axis_formatter(|mark, _| format!("1e{:.0}", mark.value))
        .show(ui, |p| {
            for line in &sweep.lines {
                let color = egui_color(integrator_color(line.integrator));
                let xy: Vec<[f64; 2]> = line
                    .points
                    .iter()
                    .map(|pt| {
                        [
                            pt.ns_per_simulated_second.log10(),
                            pt.error.max(1e-16).log10(),
                        ]
                    })
                    .collect();
                let name = line.integrator.name();
                p.line(Line::new(name, PlotPoints::from(xy.clone())).color(color));
                p.points(
                    Points::new(name, PlotPoints::from(xy))
                        .color(color)
                        .radius(2.5),
                );
            }
        })
        .response;
    let slopes: Vec<String> = sweep
        .lines
        .iter()
        .map(|l| match l.measured_order() {
            Some(o) => format!("{}: slope {o:.2}", l.integrator.name()),
            None => format!("{}: no slope fitted", l.integrator.name()),
        })
        .collect();
    response.on_hover_text(format!(
        "Work against precision: each integrator run to t = {:.0} s with {LEVELS} step sizes \
         halving from {COARSEST}·dt to dt/{COARSEST}; error = angle between the computed and \
         the exact attitude plus the relative error of ω, against wall time per simulated \
         second. Lower left is better; the slope of a line is the method's order (fitted \
         over errors between 1e-9 and 0.1), its height the constant. Computed in the \
         background in {:.0} ms.\n{}",
        key.t_end,
        wp.compute_time.as_secs_f64() * 1e3,
        slopes.join("\n")
    ));
}
