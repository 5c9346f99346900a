//! Arrows for the angular velocity ω (changes) and angular momentum L (constant when
//! torque-free): watching ω wander around a fixed L is the Dzhanibekov effect.

use bevy::prelude::*;

use super::physics::Simulation;

pub struct VectorsPlugin;

impl Plugin for VectorsPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, draw);
    }
}

const OMEGA_COLOR: Color = Color::srgb(0.2, 0.9, 0.95);
const MOMENTUM_COLOR: Color = Color::srgb(0.98, 0.85, 0.2);

fn draw(sim: Res<Simulation>, mut gizmos: Gizmos) {
    for body in &sim.world.bodies {
        let s = &body.state;
        let origin = s.position.as_vec3();
        let omega = s.world_omega(&body.props);
        let l = s.angular_momentum;
        // Scale both so their typical length is about the body size.
        let size = body
            .parts
            .iter()
            .map(|p| p.offset.length() as f32)
            .fold(0.15, f32::max)
            * 2.0;
        if omega.length() > 0.0 {
            let w = omega.normalize().as_vec3() * size;
            gizmos.arrow(origin, origin + w, OMEGA_COLOR);
        }
        if l.length() > 0.0 {
            let lv = l.normalize().as_vec3() * size * 1.2;
            gizmos.arrow(origin, origin + lv, MOMENTUM_COLOR);
        }
    }
}
