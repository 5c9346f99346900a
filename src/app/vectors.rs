//! Arrows for the angular velocity ω (changes) and angular momentum L (constant when
//! torque-free): watching ω wander around a fixed L is the Dzhanibekov effect.

use bevy::prelude::*;

use super::physics::Simulation;
use super::render_sync::lane_offset;

pub struct VectorsPlugin;

impl Plugin for VectorsPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, draw);
    }
}

pub const OMEGA_COLOR: Color = Color::srgb(0.2, 0.9, 0.95);
pub const MOMENTUM_COLOR: Color = Color::srgb(0.98, 0.85, 0.2);

fn draw(sim: Res<Simulation>, mut gizmos: Gizmos) {
    let size = 0.8 * sim.radius;
    for (lane, run) in sim.lanes.iter().enumerate() {
        for body in &run.world.bodies {
            let s = &body.state;
            let origin = s.position.as_vec3() + lane_offset(&sim, lane);
            let omega = s.world_omega(&body.props);
            let l = s.angular_momentum;
            if omega.length() > 0.0 {
                gizmos.arrow(
                    origin,
                    origin + omega.normalize().as_vec3() * size,
                    OMEGA_COLOR,
                );
            }
            if l.length() > 0.0 {
                gizmos.arrow(
                    origin,
                    origin + l.normalize().as_vec3() * size * 1.2,
                    MOMENTUM_COLOR,
                );
            }
        }
    }
}
