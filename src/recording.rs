//! Every state of a run, for the app's CSV export in the columns of `gyrolab simulate`.
//! Bounded: past [`MAX_STATES`] body states it stops and says so, rather than eat memory.

use glam::DVec3;

use crate::body::BodyState;
use crate::cli::{CSV_HEADER, Row};
use crate::integrators::Integrator;
use crate::world::{Body, World};

/// About 60 MB of states.
pub const MAX_STATES: usize = 500_000;

#[derive(Clone, Debug, Default)]
pub struct Recording {
    /// Time and integrator of each recorded step, per lane.
    steps: Vec<Vec<(f64, Integrator)>>,
    /// The bodies' states of each recorded step, per lane, step after step.
    states: Vec<Vec<BodyState>>,
    /// Body states kept, all lanes together.
    rows: usize,
    pub full: bool,
}

impl Recording {
    pub fn record(&mut self, lane: usize, world: &World) {
        if self.full {
            return;
        }
        if self.steps.len() <= lane {
            self.steps.resize_with(lane + 1, Vec::new);
            self.states.resize_with(lane + 1, Vec::new);
        }
        if self.rows + world.bodies.len() > MAX_STATES {
            self.full = true;
            return;
        }
        self.steps[lane].push((world.time, world.integrator));
        self.states[lane].extend(world.bodies.iter().map(|b| b.state));
        self.rows += world.bodies.len();
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The CSV text: lane after lane, one row per body per recorded step. `worlds` gives
    /// each lane's bodies (names and mass properties) and gravity.
    pub fn csv<'a>(&self, worlds: impl IntoIterator<Item = &'a World>) -> String {
        let mut out = String::from(CSV_HEADER);
        out.push('\n');
        for ((steps, states), world) in self.steps.iter().zip(&self.states).zip(worlds) {
            let n = world.bodies.len();
            let gravity: DVec3 = world.gravity;
            let mut bodies: Vec<Body> = world.bodies.clone();
            for (&(t, integrator), step_states) in steps.iter().zip(states.chunks(n)) {
                for (body, &state) in bodies.iter_mut().zip(step_states) {
                    body.state = state;
                    Row::of_body(t, integrator, gravity, body).write_csv(&mut out);
                }
            }
        }
        out
    }
}
