//! Arrows for the angular velocity ω (it changes) and the angular momentum L (constant
//! when torque-free), and the principal axes: watching ω wander around a fixed L is the
//! Dzhanibekov effect. Both arrows are to scale against their size at the start, so a
//! method that lets |L| grow shows it.

use bevy::prelude::*;

use super::colors::{AXIS_COLORS, MOMENTUM_COLOR, OMEGA_COLOR};
use super::layout::{body_size, omega_scale};
use super::physics::Sim;
use super::timing::Timed;
use super::view::View;

pub struct VectorsPlugin;

impl Plugin for VectorsPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, draw);
    }
}

fn draw(sim: Res<Sim>, view: Res<View>, mut gizmos: Gizmos) {
    let _timed = Timed::start();
    let scale = sim.scale();
    for (lane, run) in sim.lanes().iter().enumerate() {
        let l0 = run.drift().initial_momentum().length() as f32;
        for (i, body) in run.world().bodies().iter().enumerate() {
            let s = &body.state;
            let origin = s.position.as_vec3() + scale.lane_offset(lane);
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
