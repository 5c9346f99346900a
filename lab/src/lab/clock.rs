//! The lab's clock: one physics step of `dt`, taken as `steps_per_dt` equal integrator
//! steps of `h` (not the contact solver's sub-steps, nor the implicit integrators' safe
//! sub-steps), and how far the run has gone: physics steps since the start, and
//! integrator steps of the one under way. `dt` and `steps_per_dt` change only through
//! the lab's logged inputs.

use super::snapshot::LabState;
use crate::scene::check_step;

/// The most integrator steps one physics step takes.
pub const MAX_STEPS_PER_DT: u32 = 64;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    dt: f64,
    steps_per_dt: u32,
    /// Integrator steps taken of the physics step under way (zero between steps).
    steps_taken: u32,
    /// Physics steps since the start: the step the lab shows.
    step: u64,
}

impl Clock {
    /// At the start, one integrator step per physics step of `dt`.
    pub fn new(dt: f64) -> Self {
        Self {
            dt,
            steps_per_dt: 1,
            steps_taken: 0,
            step: 0,
        }
    }

    pub fn dt(&self) -> f64 {
        self.dt
    }

    pub fn steps_per_dt(&self) -> u32 {
        self.steps_per_dt
    }

    pub fn steps_taken(&self) -> u32 {
        self.steps_taken
    }

    /// Physics steps since the start.
    pub fn step(&self) -> u64 {
        self.step
    }

    /// Where an input made now applies: after this many physics steps and integrator
    /// steps of the next.
    pub fn at(&self) -> (u64, u32) {
        (self.step, self.steps_taken)
    }

    /// The length of one integrator step.
    pub fn h(&self) -> f64 {
        self.dt / self.steps_per_dt as f64
    }

    /// A new physics step, refused outside the scene files' range.
    pub fn set_dt(&mut self, dt: f64) -> Result<(), String> {
        check_step(dt)?;
        self.dt = dt;
        Ok(())
    }

    pub fn set_steps_per_dt(&mut self, steps: u32) -> Result<(), String> {
        if !(1..=MAX_STEPS_PER_DT).contains(&steps) {
            return Err(format!(
                "integrator steps per dt must be between 1 and {MAX_STEPS_PER_DT}, got {steps}"
            ));
        }
        self.steps_per_dt = steps;
        Ok(())
    }

    /// Back to the start: no step taken; `dt` and `steps_per_dt` stay.
    pub fn restart(&mut self) {
        self.steps_taken = 0;
        self.step = 0;
    }

    /// Counts one integrator step taken; whether it ended a physics step.
    pub fn tick(&mut self) -> bool {
        self.steps_taken += 1;
        let ended = self.steps_taken >= self.steps_per_dt;
        if ended {
            self.steps_taken = 0;
            self.step += 1;
        }
        ended
    }

    /// The clock of a saved state.
    pub fn of_state(state: &LabState) -> Self {
        Self {
            dt: state.dt,
            steps_per_dt: state.steps_per_dt,
            steps_taken: state.steps_taken,
            step: state.step,
        }
    }
}
