//! A lab's full state at one moment: every lane's world and measurements, the exact
//! ghost, and what the lab itself holds that the next step reads (the step count, dt,
//! integrator steps per dt, the grab, the circling readout). The timeline keeps these as
//! keyframes; a state file holds one.

use serde::{Deserialize, Serialize};

use super::Lab;
use super::dock::Circling;
use super::lane::Lane;
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
    pub lanes: Vec<Lane>,
    pub ghost: Option<Lane>,
    pub grab: Option<(usize, Grab)>,
    pub circling: Option<Circling>,
}

impl LabState {
    /// The bytes the state owns on the heap.
    pub fn heap_bytes(&self) -> usize {
        vec_bytes(&self.lanes)
            + self.lanes.iter().map(Lane::heap_bytes).sum::<usize>()
            + self.ghost.as_ref().map_or(0, Lane::heap_bytes)
    }
}

impl Lab {
    /// The state the next step reads, without per-step buffers.
    pub fn snapshot(&self) -> LabState {
        let (lanes, ghost) = self.lanes.snapshot();
        LabState {
            step: self.clock.step(),
            dt: self.clock.dt(),
            steps_per_dt: self.clock.steps_per_dt(),
            steps_taken: self.clock.steps_taken(),
            lanes,
            ghost,
            grab: self.lanes.grab(),
            circling: self.dock.circling().copied(),
        }
    }
}
