//! Every colour of the app in one palette, so the 3D view, the panels and the plots agree:
//! an integrator, a vector or an axis has one colour wherever it is drawn.

use bevy::prelude::*;
use bevy_egui::egui::{self, RichText};

use crate::integrators::Integrator;
use crate::palette::{self, AXES, FORCES};

pub const BACKGROUND: Color = Color::srgb(0.06, 0.07, 0.09);

/// One colour per integrator, in [`Integrator::ALL`] order.
pub fn integrator_color(i: Integrator) -> Color {
    rgb(palette::INTEGRATORS[i as usize])
}

/// A Bevy colour of one of the shared palette's.
const fn rgb([r, g, b]: [f32; 3]) -> Color {
    Color::srgb(r, g, b)
}

/// The exact solution drawn over every lane.
pub const GHOST: Color = Color::srgba(0.9, 0.95, 1.0, 0.22);
pub const GHOST_PLOT: Color = rgb(palette::GHOST_PLOT);

pub const OMEGA_COLOR: Color = Color::srgb(0.2, 0.9, 0.95);
pub const MOMENTUM_COLOR: Color = Color::srgb(0.98, 0.85, 0.2);
pub const HERPOLHODE_COLOR: Color = Color::srgb(0.3, 0.75, 1.0);
pub const POLHODE_COLOR: Color = Color::srgb(1.0, 0.45, 0.85);

/// Body x, y, z: the principal axes in the view and the body-ω components in the plots.
pub const AXIS_COLORS: [Color; 3] = [rgb(AXES[0]), rgb(AXES[1]), rgb(AXES[2])];

/// The frame's own acceleration, Euler, centrifugal and Coriolis, in
/// [`crate::hierarchy::InertialForces::named`] order.
pub const FORCE_COLORS: [Color; 4] = [
    rgb(FORCES[0]),
    rgb(FORCES[1]),
    rgb(FORCES[2]),
    rgb(FORCES[3]),
];
/// The world step's stages, in [`crate::world::Stage::ALL`] order.
pub const STAGE_COLORS: [Color; 6] = [
    Color::srgb(0.6, 0.6, 0.65),
    Color::srgb(0.95, 0.6, 0.2),
    Color::srgb(0.35, 0.7, 1.0),
    Color::srgb(0.95, 0.35, 0.35),
    Color::srgb(0.4, 0.85, 0.45),
    Color::srgb(0.8, 0.55, 0.95),
];
pub const WORLD_PATH_COLOR: Color = Color::srgb(0.95, 0.95, 0.95);
pub const FRAME_PATH_COLOR: Color = Color::srgb(1.0, 0.4, 0.7);
pub const FRAME_PARTS: Color = Color::srgb(0.42, 0.46, 0.42);

pub const GROUND_COLOR: Color = Color::srgba(0.55, 0.6, 0.65, 0.6);
pub const CONTACT_COLOR: Color = Color::srgb(1.0, 0.85, 0.2);
pub const JOINT_COLOR: Color = Color::srgb(0.55, 0.85, 1.0);
pub const SLACK_COLOR: Color = Color::srgba(0.55, 0.85, 1.0, 0.4);
pub const JOINT_FORCE_COLOR: Color = Color::srgb(1.0, 0.55, 0.25);
pub const BREAK_COLOR: Color = Color::srgb(1.0, 0.2, 0.2);
pub const SLEEP_TINT: Color = Color::srgb(0.4, 0.5, 1.0);
pub const GRAB_COLOR: Color = Color::srgb(1.0, 0.4, 0.1);

/// This step's point on the Newton convergence map.
pub const NEWTON_POINT: Color = Color::srgb(1.0, 0.235, 0.235);

/// A Bevy colour for egui.
pub fn egui_color(c: Color) -> egui::Color32 {
    let [r, g, b, _] = c.to_srgba().to_u8_array();
    egui::Color32::from_rgb(r, g, b)
}

/// An integrator's name in its colour.
pub fn integrator_text(i: Integrator) -> RichText {
    RichText::new(i.name()).color(egui_color(integrator_color(i)))
}
