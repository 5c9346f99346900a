//! Every state of a run, for the app's CSV export in the columns of `gyrolab simulate`.
//! Bounded: past [`MAX_STATES`] body states it stops and says so, rather than eat memory.
//! Bodies can be added during a run (the app's "drop a box"), always at the end, so each
//! step keeps how many bodies it had: its states are the first that many bodies'.

use glam::DVec3;

use super::records::Record;
use crate::body::Body;
use crate::body::BodyState;
use crate::integrators::Integrator;
use crate::world::World;

/// About 60 MB of states.
pub const MAX_STATES: usize = 500_000;

#[derive(Clone, Debug, Default)]
pub struct ExportStates {
    /// Time, integrator and body count of each recorded step, per lane.
    steps: Vec<Vec<(f64, Integrator, usize)>>,
    /// The bodies' states of each recorded step, per lane, step after step.
    states: Vec<Vec<BodyState>>,
    /// Body states kept, all lanes together.
    records: usize,
    pub full: bool,
}

impl ExportStates {
    pub fn record(&mut self, lane: usize, world: &World) {
        if self.full {
            return;
        }
        if self.steps.len() <= lane {
            self.steps.resize_with(lane + 1, Vec::new);
            self.states.resize_with(lane + 1, Vec::new);
        }
        if self.records + world.bodies().len() > MAX_STATES {
            self.full = true;
            return;
        }
        let n = world.bodies().len();
        self.steps[lane].push((world.time(), world.integrator(), n));
        self.states[lane].extend(world.bodies().iter().map(|b| b.state));
        self.records += world.bodies().len();
    }

    /// Forgets the steps after time `t` (a branch discards the old future).
    pub fn truncate_after(&mut self, t: f64) {
        for (steps, states) in self.steps.iter_mut().zip(&mut self.states) {
            let keep = steps.partition_point(|&(time, _, _)| time <= t);
            let records: usize = steps[..keep].iter().map(|&(_, _, n)| n).sum();
            self.records -= states.len() - records;
            steps.truncate(keep);
            states.truncate(records);
        }
        self.full = self.records >= MAX_STATES;
    }

    /// Body `body`'s recorded states in lane `lane`, step after step, up to time
    /// `until` (the moment shown: after a seek back the recording still holds the old
    /// future until a branch cuts it).
    pub fn states_of(
        &self,
        lane: usize,
        body: usize,
        until: f64,
    ) -> impl Iterator<Item = (f64, &BodyState)> {
        let steps = self.steps.get(lane).map_or(&[][..], |s| &s[..]);
        let states = self.states.get(lane).map_or(&[][..], |s| &s[..]);
        let mut first = 0;
        steps
            .iter()
            .map_while(move |&(t, _, n)| {
                let at = first;
                first += n;
                (t <= until).then_some((t, n, at))
            })
            .filter(move |&(_, n, _)| body < n)
            .map(move |(t, _, at)| (t, &states[at + body]))
    }

    pub fn records(&self) -> usize {
        self.records
    }

    /// Every record recorded, lane after lane, one per body per recorded step, in
    /// order. `worlds` gives each lane's bodies (names and mass properties) and gravity.
    pub fn for_each_record<'a>(
        &self,
        worlds: impl IntoIterator<Item = &'a World>,
        mut each: impl FnMut(&Record),
    ) {
        for ((steps, states), world) in self.steps.iter().zip(&self.states).zip(worlds) {
            let gravity: DVec3 = world.gravity();
            let mut bodies: Vec<Body> = world.bodies().to_vec();
            let mut states = states.as_slice();
            for &(t, integrator, n) in steps {
                let (step_states, rest) = states.split_at(n);
                states = rest;
                for (body, &state) in bodies.iter_mut().zip(step_states) {
                    body.state = state;
                    each(&Record::of_body(t, integrator, gravity, body));
                }
            }
        }
    }
}
