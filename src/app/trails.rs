//! Trails of ω's tip: in world space it runs along the herpolhode, a curve in the plane
//! perpendicular to L; in body space along the polhode, a closed loop drawn on the body.
//! Scrubbed back, a trail ends at the moment shown: its newest `steps_ahead` points wait.

use bevy::prelude::*;

use super::colors::{HERPOLHODE_COLOR, POLHODE_COLOR};
use super::layout::{lane_offset, omega_scale};
use super::physics::Sim;
use super::timing::Timed;
use super::view::View;

pub struct TrailsPlugin;

impl Plugin for TrailsPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, draw);
    }
}

fn draw(sim: Res<Sim>, view: Res<View>, mut gizmos: Gizmos) {
    let _timed = Timed::start();
    if !(view.herpolhode || view.polhode) {
        return;
    }
    let ahead = usize::try_from(sim.steps_ahead()).unwrap_or(usize::MAX);
    for (lane, run) in sim.lanes.iter().enumerate() {
        for (i, (body, trail)) in run.world.bodies.iter().zip(&sim.trails[lane]).enumerate() {
            let origin = body.state.position.as_vec3() + lane_offset(&sim, lane);
            let k = omega_scale(&sim, lane, i);
            let shown = trail.world.len().saturating_sub(ahead);
            if view.herpolhode {
                gizmos.linestrip(
                    trail.world.iter().take(shown).map(|w| origin + w.as_vec3() * k),
                    HERPOLHODE_COLOR,
                );
            }
            if view.polhode {
                let q = body.state.orientation.as_quat();
                gizmos.linestrip(
                    trail
                        .body
                        .iter()
                        .take(shown)
                        .map(|w| origin + q * (w.as_vec3() * k)),
                    POLHODE_COLOR,
                );
            }
        }
    }
}
