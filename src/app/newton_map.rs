//! The midpoint integrator's maps over `h·L` for the first body [Mizerski 2020]: Newton's
//! convergence map, the simple iterator's beside it, and the energy error of one step.
//! Computed on a background thread whenever the body, the step size or the map chosen
//! moves the picture, so a frame never waits for it; drawn as an image with the safe disc
//! and the current `h·L` marked.

use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy_egui::egui;
use glam::DVec3;

use crate::integrators::{Integrator, MAX_FIXED_POINT};
use crate::lab::convergence_map::{ConvergenceMap, Method, safe_radius};
use crate::lab::energy_map::EnergyMap;

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

/// Which map is drawn.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Diagram {
    /// Newton's iterations, as the midpoint step solves its equation.
    #[default]
    Newton,
    /// The simple iterator's iterations.
    FixedPoint,
    /// The relative energy change of one midpoint step.
    Energy,
}

impl Diagram {
    pub const ALL: [Self; 3] = [Self::Newton, Self::FixedPoint, Self::Energy];

    pub fn name(self) -> &'static str {
        match self {
            Self::Newton => "Newton's iterations",
            Self::FixedPoint => "simple iterator's",
            Self::Energy => "energy error",
        }
    }
}

/// What a map depends on: the principal moments, the half-width of the `h·L` square and
/// the map chosen.
#[derive(Clone, Copy, PartialEq, Debug)]
struct MapInputs {
    inertia: DVec3,
    extent: f64,
    diagram: Diagram,
}

/// A map computed.
enum Computed {
    Iterations(ConvergenceMap),
    Energy(EnergyMap),
}

impl Computed {
    fn of(key: MapInputs) -> Self {
        match key.diagram {
            Diagram::Newton => Self::Iterations(ConvergenceMap::compute(
                key.inertia,
                key.extent,
                SIZE,
                Method::Newton,
            )),
            Diagram::FixedPoint => Self::Iterations(ConvergenceMap::compute(
                key.inertia,
                key.extent,
                SIZE,
                Method::FixedPoint,
            )),
            Diagram::Energy => Self::Energy(EnergyMap::compute(
                Integrator::Midpoint,
                key.inertia,
                key.extent,
                SIZE,
            )),
        }
    }

    /// Pixels, image rows top to bottom (the maps' rows run bottom to top).
    fn rgb(&self) -> Vec<u8> {
        let flip = |p: usize| (SIZE - 1 - p / SIZE) * SIZE + p % SIZE;
        let pixel: Box<dyn Fn(usize) -> [u8; 3]> = match self {
            Self::Iterations(map) => {
                let converged = map.iterations.iter().flatten();
                let fewest = converged.clone().copied().min().unwrap_or(1);
                let most = converged.copied().max().unwrap_or(1);
                Box::new(move |p| color(map.iterations[flip(p)], fewest, most))
            }
            Self::Energy(map) => {
                let largest = map.largest().max(f64::MIN_POSITIVE);
                Box::new(move |p| {
                    map.error[flip(p)].map_or([0, 0, 0], |e| [(255.0 * e / largest) as u8; 3])
                })
            }
        };
        (0..SIZE * SIZE).flat_map(pixel).collect()
    }

    fn safe_radius(&self) -> Option<f64> {
        match self {
            Self::Iterations(map) => Some(map.safe_radius),
            Self::Energy(_) => None,
        }
    }
}

#[derive(Resource, Default)]
pub struct NewtonMap {
    /// The map chosen in the dock.
    pub diagram: Diagram,
    wanted: Option<MapInputs>,
    running: Option<(MapInputs, JoinHandle<(Computed, Duration)>)>,
    done: Option<(MapInputs, Computed)>,
    texture: Option<egui::TextureHandle>,
    /// How long the last map took on its thread.
    pub compute_time: Duration,
}

/// The square shown: the safe disc and the current point with room, rounded up to a power
/// of two so the map is not recomputed for every small change of `h·L`.
fn key_for(sim: &Sim, diagram: Diagram) -> MapInputs {
    let (inertia, hl) = sim.newton_point();
    let needed = (2.5 * safe_radius(inertia)).max(1.3 * hl.truncate().length());
    MapInputs {
        inertia,
        extent: 2f64.powi(needed.log2().ceil() as i32),
        diagram,
    }
}

fn refresh(sim: Res<Sim>, mut map: ResMut<NewtonMap>) {
    let _timed = Timed::start();
    let key = key_for(&sim, map.diagram);
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
            let result = Computed::of(key);
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

/// Draws the map into `ui`, at most `side` points square, with its chooser.
pub fn show(ui: &mut egui::Ui, sim: &Sim, map: &mut NewtonMap, side: f32) {
    egui::ComboBox::from_id_salt("map")
        .selected_text(map.diagram.name())
        .show_ui(ui, |ui| {
            for d in Diagram::ALL {
                ui.selectable_value(&mut map.diagram, d, d.name());
            }
        });
    let side = side - ui.spacing().interact_size.y - 2.0 * ui.spacing().item_spacing.y;
    let Some((key, result)) = &map.done else {
        ui.label("computing the map…");
        return;
    };
    let texture = map.texture.get_or_insert_with(|| {
        ui.ctx().load_texture(
            "newton-map",
            egui::ColorImage::from_rgb([SIZE, SIZE], &result.rgb()),
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
    let safe = safe_radius(key.inertia);
    if result.safe_radius().is_some() {
        painter.circle_stroke(
            rect.center(),
            (safe / key.extent) as f32 * 0.5 * rect.width(),
            egui::Stroke::new(1.5, egui::Color32::WHITE),
        );
    }
    let (_, hl) = sim.newton_point();
    painter.circle_filled(to_screen(hl.x, hl.y), 4.0, egui_color(NEWTON_POINT));
    response.on_hover_text(hover(key, result, hl, safe, map.compute_time));
}

/// What the map shows, and where this step's `h·L` lies on it.
fn hover(key: &MapInputs, result: &Computed, hl: DVec3, safe: f64, took: Duration) -> String {
    let inside = hl.length() <= safe;
    let point = format!(
        "Red dot: this step's h·L = ({:.2}, {:.2}, {:.2}), {} the safe disc{}.",
        hl.x,
        hl.y,
        hl.z,
        if inside { "inside" } else { "outside" },
        if inside {
            ""
        } else {
            ": midpoint sub-steps it safely"
        },
    );
    let what = match result {
        Computed::Iterations(_) if key.diagram == Diagram::Newton => format!(
            "Newton iterations of the midpoint step for each h·L in the body xy-plane \
             (yellow: fewest, dark blue: most, black: no convergence in 16), |h·L| up to \
             {:.2}.\nWhite circle: the safe disc, up to which a step takes no safe \
             sub-steps (the Kantorovich bound for Newton started at zero; measured, not \
             proved, for Newton from the predictor).",
            key.extent
        ),
        Computed::Iterations(_) => format!(
            "The simple iterator v ← I⁻¹R(−v/2)·hL from v = 0, for each h·L in the body \
             xy-plane (yellow: fewest, dark blue: most, black: no convergence in \
             {MAX_FIXED_POINT}), |h·L| up to {:.2}: it converges only near the origin \
             (and on roots of its own far out), more slowly than Newton: why the step uses \
             Newton [Mizerski 2020].\nWhite circle: Newton's safe disc.",
            key.extent
        ),
        Computed::Energy(map) => format!(
            "The energy error of one midpoint step, |E₁ − E₀|/E₀, for each h·L in the \
             body xy-plane (lighter: larger, white: the largest, {:.3}%), |h·L| up to \
             {:.2}. Along a ray from the centre the step grows; the error stays bounded \
             [Mizerski 2020].",
            100.0 * map.largest(),
            key.extent
        ),
    };
    format!(
        "{what}\n{point}\nComputed in the background in {:.0} ms.",
        took.as_secs_f64() * 1e3
    )
}
