//! The midpoint integrator's Newton convergence map, for the first body: computed on a
//! background thread whenever the body or the step size moves the picture, so a frame
//! never waits for it; drawn as an image with the safe disc and the current
//! `h·L` marked.

use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy_egui::egui;
use glam::DVec3;

use crate::lab::convergence_map::{ConvergenceMap, safe_radius};

use super::colors::{NEWTON_POINT, egui_color};
use super::physics::Sim;
use super::timing::Timed;

/// Pixels per side of the map.
const SIZE: usize = 120;

pub struct NewtonMapPlugin;

impl Plugin for NewtonMapPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<NewtonMap>()
            .add_systems(Update, refresh);
    }
}

/// What a map depends on: the principal moments and the half-width of the `h·L` square.
#[derive(Clone, Copy, PartialEq, Debug)]
struct Key {
    inertia: DVec3,
    extent: f64,
}

#[derive(Resource, Default)]
pub struct NewtonMap {
    wanted: Option<Key>,
    running: Option<(Key, JoinHandle<(ConvergenceMap, Duration)>)>,
    done: Option<(Key, ConvergenceMap)>,
    texture: Option<egui::TextureHandle>,
    /// How long the last map took on its thread.
    pub compute_time: Duration,
}

/// The square shown: the safe disc and the current point with room, rounded up to a power
/// of two so the map is not recomputed for every small change of `h·L`.
fn key_for(sim: &Sim) -> Key {
    let (inertia, hl) = sim.newton_point();
    let needed = (2.5 * safe_radius(inertia)).max(1.3 * hl.truncate().length());
    Key {
        inertia,
        extent: 2f64.powi(needed.log2().ceil() as i32),
    }
}

fn refresh(sim: Res<Sim>, mut map: ResMut<NewtonMap>) {
    let _timed = Timed::start();
    let key = key_for(&sim);
    map.wanted = Some(key);
    let finished = map.running.as_ref().is_some_and(|(_, h)| h.is_finished());
    if finished
        && let Some((key, handle)) = map.running.take()
        && let Ok((result, took)) = handle.join()
    {
        map.done = Some((key, result));
        map.texture = None;
        map.compute_time = took;
    }
    let current = map.done.as_ref().map(|(k, _)| *k);
    if map.running.is_none() && current != Some(key) {
        let handle = std::thread::spawn(move || {
            let start = Instant::now();
            let result = ConvergenceMap::compute(key.inertia, key.extent, SIZE);
            (result, start.elapsed())
        });
        map.running = Some((key, handle));
    }
}

/// Iterations to colour: the fewest bright yellow, the most dark blue, no convergence
/// black.
fn color(iterations: Option<u32>, fewest: u32, most: u32) -> [u8; 3] {
    let Some(n) = iterations else {
        return [0, 0, 0];
    };
    let t = (n.saturating_sub(fewest) as f32 / most.saturating_sub(fewest).max(1) as f32).min(1.0);
    let lerp = |a: f32, b: f32| (a + (b - a) * t) as u8;
    [lerp(250.0, 30.0), lerp(220.0, 40.0), lerp(90.0, 140.0)]
}

/// Draws the map into `ui`, at most `side` points square.
pub fn show(ui: &mut egui::Ui, sim: &Sim, map: &mut NewtonMap, side: f32) {
    let Some((key, result)) = &map.done else {
        ui.label("computing the convergence map…");
        return;
    };
    let texture = map.texture.get_or_insert_with(|| {
        let converged = result.iterations.iter().flatten();
        let fewest = converged.clone().copied().min().unwrap_or(1);
        let most = converged.copied().max().unwrap_or(1);
        let mut rgb = Vec::with_capacity(result.size * result.size * 3);
        // Image rows run top to bottom, the map's rows bottom to top.
        for y in (0..result.size).rev() {
            for x in 0..result.size {
                rgb.extend(color(result.iterations[y * result.size + x], fewest, most));
            }
        }
        ui.ctx().load_texture(
            "newton-map",
            egui::ColorImage::from_rgb([result.size, result.size], &rgb),
            egui::TextureOptions::NEAREST,
        )
    });
    let response = ui.image(egui::load::SizedTexture::new(
        texture.id(),
        egui::vec2(side, side),
    ));
    let rect = response.rect;
    let to_screen = |x: f64, y: f64| {
        rect.center()
            + egui::vec2(
                (x / key.extent) as f32 * 0.5 * rect.width(),
                -(y / key.extent) as f32 * 0.5 * rect.height(),
            )
    };
    let painter = ui.painter_at(rect);
    painter.circle_stroke(
        rect.center(),
        (result.safe_radius / key.extent) as f32 * 0.5 * rect.width(),
        egui::Stroke::new(1.5, egui::Color32::WHITE),
    );
    let (_, hl) = sim.newton_point();
    painter.circle_filled(to_screen(hl.x, hl.y), 4.0, egui_color(NEWTON_POINT));
    let inside = hl.length() <= result.safe_radius;
    response.on_hover_text(format!(
        "Newton iterations of the midpoint step for each h·L in the body xy-plane \
         (yellow: fewest, dark blue: most, black: no convergence), |h·L| up to {:.2}.\n\
         White circle: the safe disc, up to which a step takes no safe sub-steps (the \
         Kantorovich bound for Newton started at zero; measured, not proved, for Newton \
         from the predictor).\n\
         Red dot: this step's h·L = ({:.2}, {:.2}, {:.2}), {} the disc{}.\n\
         Computed in the background in {:.0} ms.",
        key.extent,
        hl.x,
        hl.y,
        hl.z,
        if inside { "inside" } else { "outside" },
        if inside {
            ""
        } else {
            ": midpoint sub-steps it safely"
        },
        map.compute_time.as_secs_f64() * 1e3
    ));
}
