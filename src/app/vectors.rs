//! Arrows for the angular velocity ω (it changes) and the angular momentum L (constant
//! when torque-free), and the principal axes: watching ω wander around a fixed L is the
//! Dzhanibekov effect. Both arrows are to scale against their size at the start, so a
//! method that lets |L| grow shows it.

use bevy::prelude::*;

use super::physics::Sim;
use super::render_sync::{body_size, lane_offset};
use super::status::Timed;
use super::view::View;

pub struct VectorsPlugin;

impl Plugin for VectorsPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, draw);
    }
}

pub const OMEGA_COLOR: Color = Color::srgb(0.2, 0.9, 0.95);
pub const MOMENTUM_COLOR: Color = Color::srgb(0.98, 0.85, 0.2);
const AXIS_COLORS: [Color; 3] = [
    Color::srgb(0.9, 0.35, 0.35),
    Color::srgb(0.35, 0.85, 0.4),
    Color::srgb(0.4, 0.5, 0.95),
];

/// Length of ω's arrow per rad/s, for the body: its start ω spans 1.2 body sizes.
pub fn omega_scale(sim: &Sim, lane: usize, body: usize) -> f32 {
    let b = &sim.lanes[lane].world.bodies[body];
    let start = sim.trails[lane][body]
        .world
        .front()
        .map_or(0.0, |w| w.length() as f32);
    if start > 0.0 {
        1.2 * body_size(b) / start
    } else {
        0.0
    }
}

fn draw(sim: Res<Sim>, view: Res<View>, mut gizmos: Gizmos) {
    let _timed = Timed::start();
    for (lane, run) in sim.lanes.iter().enumerate() {
        let l0 = run.drift.initial_momentum().length() as f32;
        for (i, body) in run.world.bodies.iter().enumerate() {
            let s = &body.state;
            let origin = s.position.as_vec3() + lane_offset(&sim, lane);
            let size = body_size(body);
            if view.omega {
                let tip = s.world_omega(&body.props).as_vec3() * omega_scale(&sim, lane, i);
                if tip.length() > 1e-3 * size {
                    gizmos.arrow(origin, origin + tip, OMEGA_COLOR);
                }
            }
            // L of a body other than the first is drawn unit length: the drift measured
            // is the first body's.
            let l = s.angular_momentum.as_vec3();
            if view.momentum && l.length() > 0.0 {
                let scale = if i == 0 && l0 > 0.0 {
                    1.4 * size / l0
                } else {
                    1.4 * size / l.length()
                };
                gizmos.arrow(origin, origin + l * scale, MOMENTUM_COLOR);
            }
            if view.axes {
                let q = s.orientation.as_quat();
                for (axis, color) in [Vec3::X, Vec3::Y, Vec3::Z].into_iter().zip(AXIS_COLORS) {
                    gizmos.line(origin - q * axis * size, origin + q * axis * size, color);
                }
            }
        }
    }
}
