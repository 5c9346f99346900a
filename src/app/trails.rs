//! Trails of ω's tip: in world space it runs along the herpolhode, a curve in the plane
//! perpendicular to L; in body space along the polhode, a closed loop drawn on the body.
//! Scrubbed back, a trail ends at the moment shown: its newest `steps_ahead` points wait.

use bevy::prelude::*;

use crate::lab::series::Trail;

use super::colors::{HERPOLHODE_COLOR, POLHODE_COLOR};
use super::layout::omega_scale;
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
    let scale = sim.scale();
    for (lane, run) in sim.lanes().iter().enumerate() {
        for (i, (body, trail)) in run
            .world()
            .bodies()
            .iter()
            .zip(&sim.recorders().trails()[lane])
            .enumerate()
        {
            let origin = body.state.position.as_vec3() + scale.lane_offset(lane);
            let k = omega_scale(&sim, lane, i);
            let shown = shown(&sim, trail);
            if view.herpolhode {
                gizmos.linestrip(
                    trail
                        .world
                        .iter()
                        .take(shown)
                        .map(|w| origin + w.as_vec3() * k),
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

/// The points of a trail up to the moment shown: without the newest `steps_ahead`.
fn shown(sim: &Sim, trail: &Trail) -> usize {
    let ahead = usize::try_from(sim.steps_ahead()).unwrap_or(usize::MAX);
    trail.world.len().saturating_sub(ahead)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::Lab;
    use crate::scene::Scene;

    /// Scrubbed back, each trail drawn ends at the ω of the moment shown, bitwise.
    #[test]
    fn a_trail_ends_at_the_moment_shown() {
        let mut sim = Sim::new(Lab::new(Scene::load("dzhanibekov").unwrap()));
        for _ in 0..80 {
            sim.step();
        }
        sim.seek(50);
        for (run, trails) in sim.lanes().iter().zip(sim.recorders().trails()) {
            let (body, trail) = (&run.world().bodies()[0], &trails[0]);
            let last = trail.world[shown(&sim, trail) - 1];
            assert_eq!(last, body.state.world_omega(&body.props));
        }
    }
}
