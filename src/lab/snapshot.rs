//! A lab's full state at one moment: every lane's world and measurements, the exact
//! ghost, and what the lab itself holds that the next step reads (the step count, dt,
//! integrator steps per dt, the grab, the circling readout). The timeline keeps these as
//! keyframes; a state file holds one.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::Lab;
use super::dock::Circling;
use super::run::Run;
use crate::heap::vec_bytes;
use crate::world::grab::Grab;

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LabState {
    /// Physics steps since the run started.
    pub step: u64,
    pub dt: f64,
    pub steps_per_dt: u32,
    /// Integrator steps taken of the physics step under way (zero between steps).
    pub steps_taken: u32,
    pub lanes: Vec<Run>,
    pub ghost: Option<Run>,
    pub grab: Option<(usize, Grab)>,
    pub circling: Option<Circling>,
}

impl Run {
    /// The lane without its world's per-step buffers.
    fn snapshot(&self) -> Run {
        Run {
            world: self.world.snapshot(),
            previous: self.previous.clone(),
            drift: self.drift,
            flips: self.flips.clone(),
            flip_axis: self.flip_axis,
            analytic_flip_period: self.analytic_flip_period,
            error: self.error.clone(),
            failure: self.failure.clone(),
            start: self.start.clone(),
            steps: self.steps,
            h: self.h,
        }
    }

    fn restore(&mut self, from: &Run) {
        self.world.restore(&from.world);
        self.previous.clone_from(&from.previous);
        self.drift = from.drift;
        self.flips.clone_from(&from.flips);
        self.flip_axis = from.flip_axis;
        self.analytic_flip_period = from.analytic_flip_period;
        self.error.clone_from(&from.error);
        self.failure.clone_from(&from.failure);
        // A state read from a file has no start: the run starts at the loaded moment.
        self.start = from
            .start
            .clone()
            .or_else(|| Some(Arc::new(from.world.clone())));
        self.steps = from.steps;
        self.h = from.h;
    }

    fn heap_bytes(&self) -> usize {
        self.world.heap_bytes() + vec_bytes(&self.previous) + self.flips.heap_bytes()
    }
}

impl LabState {
    /// The bytes the state owns on the heap.
    pub fn heap_bytes(&self) -> usize {
        vec_bytes(&self.lanes)
            + self.lanes.iter().map(Run::heap_bytes).sum::<usize>()
            + self.ghost.as_ref().map_or(0, Run::heap_bytes)
    }

    /// Bodies per lane, to tell whether views must respawn what they draw.
    fn body_counts(&self) -> Vec<usize> {
        self.lanes.iter().map(|r| r.world.bodies().len()).collect()
    }
}

impl Lab {
    /// The state the next step reads, without per-step buffers.
    pub fn snapshot(&self) -> LabState {
        LabState {
            step: self.step_index,
            dt: self.dt,
            steps_per_dt: self.steps_per_dt,
            steps_taken: self.steps_taken,
            lanes: self.lanes.iter().map(Run::snapshot).collect(),
            ghost: self.ghost.as_ref().map(Run::snapshot),
            grab: self.grab,
            circling: self.dock.circling,
        }
    }

    /// Takes the state of `from`, keeping the lanes' per-step buffers where the lanes
    /// match. Views respawn what they draw when a lane's body count changes.
    pub(crate) fn restore_state(&mut self, from: &LabState) {
        // Loads a plugin added for a step that is not taken now: the log adds them again.
        self.loads = Default::default();
        let counts: Vec<usize> = self.lanes.iter().map(|r| r.world.bodies().len()).collect();
        if counts != from.body_counts() || self.lanes.len() != from.lanes.len() {
            self.generation += 1;
        }
        self.lanes.truncate(from.lanes.len());
        for (lane, theirs) in from.lanes.iter().enumerate() {
            match self.lanes.get_mut(lane) {
                Some(mine) => mine.restore(theirs),
                None => self.lanes.push(theirs.clone()),
            }
        }
        match (&mut self.ghost, &from.ghost) {
            (Some(mine), Some(theirs)) => mine.restore(theirs),
            (mine, theirs) => mine.clone_from(theirs),
        }
        self.step_index = from.step;
        self.dt = from.dt;
        self.steps_per_dt = from.steps_per_dt;
        self.steps_taken = from.steps_taken;
        self.grab = from.grab;
        self.dock.circling = from.circling;
    }
}
