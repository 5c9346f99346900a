//! The status line (fps, physics step time, bodies) and the CPU cost of a frame: the time
//! from the start of `First` to the end of `Last`, which holds every main-world system,
//! ours (physics, panels, plots, gizmos) and Bevy's own; the renderer runs apart from it.

use std::time::Instant;

use bevy::prelude::*;
use bevy_egui::egui;

use super::newton_map::NewtonMap;
use super::physics::{Sim, StepTiming};
use super::timing::take_ours_ms;
use crate::world::Stage;

pub struct StatusPlugin;

impl Plugin for StatusPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<FrameCost>()
            .add_systems(First, begin_frame)
            .add_systems(Last, end_frame);
    }
}

/// Frames skipped before measuring: start-up and first-use costs are not the steady state.
const WARM_UP: usize = 30;

#[derive(Resource, Default)]
pub struct FrameCost {
    start: Option<Instant>,
    generation: Option<u64>,
    frames: usize,
    /// CPU milliseconds of each measured frame: all main-world systems, and ours alone.
    samples: Vec<f64>,
    ours: Vec<f64>,
    /// Frames in which the lab was rebuilt (scene switch, reset).
    rebuilds: Vec<f64>,
    pub last_ms: f64,
    pub last_ours_ms: f64,
    /// Smoothed real frame rate.
    pub fps: f64,
}

fn begin_frame(mut cost: ResMut<FrameCost>) {
    cost.start = Some(Instant::now());
}

fn end_frame(mut cost: ResMut<FrameCost>, sim: Res<Sim>, time: Res<Time<Real>>) {
    let Some(start) = cost.start else { return };
    let ms = start.elapsed().as_secs_f64() * 1e3;
    let ours = take_ours_ms();
    cost.last_ms = ms;
    cost.last_ours_ms = ours;
    cost.frames += 1;
    let dt = time.delta_secs_f64();
    if dt > 0.0 {
        cost.fps = if cost.fps == 0.0 {
            1.0 / dt
        } else {
            0.9 * cost.fps + 0.1 / dt
        };
    }
    let rebuilt = cost.generation.is_some_and(|g| g != sim.generation());
    cost.generation = Some(sim.generation());
    if cost.frames > WARM_UP {
        if rebuilt {
            cost.rebuilds.push(ms);
        } else {
            cost.samples.push(ms);
            cost.ours.push(ours);
        }
    }
}

impl FrameCost {
    /// One line for the log: mean, 95th percentile and worst frame, and the worst frame
    /// that rebuilt the lab.
    pub fn summary(&self, timing: &StepTiming) -> String {
        let (Some(all), Some(ours)) = (FrameTimes::of(&self.samples), FrameTimes::of(&self.ours))
        else {
            return "frame CPU: not enough frames measured".into();
        };
        let rebuild = self
            .rebuilds
            .iter()
            .copied()
            .fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.max(x))));
        format!(
            "frame CPU over {} frames: our systems {ours}; all main-world systems {all}; physics step {:.1} µs; worst rebuild frame {}",
            self.samples.len(),
            timing.micros,
            rebuild.map_or("-".into(), |ms| format!(
                "{ms:.1} ms ({} rebuilds)",
                self.rebuilds.len()
            ))
        )
    }
}

/// Mean, 95th percentile and worst of a set of frame times.
struct FrameTimes {
    mean: f64,
    p95: f64,
    max: f64,
}

impl FrameTimes {
    fn of(samples: &[f64]) -> Option<Self> {
        let mut sorted = samples.to_vec();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len();
        (n > 0).then(|| Self {
            mean: sorted.iter().sum::<f64>() / n as f64,
            p95: sorted[(n * 95 / 100).min(n - 1)],
            max: sorted[n - 1],
        })
    }
}

impl std::fmt::Display for FrameTimes {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(
            f,
            "mean {:.2} ms, p95 {:.2} ms, max {:.2} ms",
            self.mean, self.p95, self.max
        )
    }
}

/// The status line at the bottom of the window.
pub fn line(ui: &mut egui::Ui, sim: &Sim, cost: &FrameCost, timing: &StepTiming, map: &NewtonMap) {
    ui.horizontal(|ui| {
        ui.label(format!("{:.0} fps", cost.fps));
        ui.separator();
        let stages: Vec<String> = Stage::ALL
            .iter()
            .zip(sim.stage_times().smoothed)
            .map(|(s, us)| format!("{} {us:.1}", s.name()))
            .collect();
        ui.label(format!(
            "physics {:.1} µs/step: {}",
            timing.micros,
            stages.join(" · ")
        ))
        .on_hover_text(format!(
            "Wall time of one integrator step of every run ({} runs), and of each stage of \
             it, in µs, smoothed",
            sim.lanes().len() + usize::from(sim.ghost().is_some())
        ));
        ui.separator();
        ui.label(format!("{} bodies", sim.bodies()));
        ui.separator();
        ui.label(format!(
            "our systems {:.2} ms / frame {:.2} ms",
            cost.last_ours_ms, cost.last_ms
        ))
        .on_hover_text("CPU time this frame in gyrolab's systems (physics, panels, plots, gizmos), and in all main-world systems including Bevy's own; the renderer is not counted");
        ui.separator();
        ui.label(format!(
            "Newton map {:.0} ms (background)",
            map.compute_time.as_secs_f64() * 1e3
        ));
        ui.separator();
        ui.label(format!("t = {:.2} s", sim.time()));
    });
}
