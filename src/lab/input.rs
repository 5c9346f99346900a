//! What a user does to a running lab, as values: the timeline logs each with the moment
//! it was applied, so that simulating again from a keyframe applies them again at the
//! same integrator step and reproduces the run bitwise.

use glam::DVec3;

use crate::body::inertia::Shape;
use crate::contact::{Motor, SolverSettings};
use crate::integrators::{Integrator, Loads};
use crate::world::grab::Grab;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Input {
    Hold {
        lane: usize,
        grab: Grab,
    },
    DragTo(DVec3),
    Release,
    SwitchIntegrator(Integrator),
    SetDt(f64),
    SetStepsPerDt(u32),
    SetMotor {
        joint: usize,
        motor: Motor,
    },
    SetFriction(f64),
    SetSolverSettings(SolverSettings),
    /// A body of `shape` dropped in at `position` (worked out once, when it is first
    /// made), moving at `velocity`.
    Spawn {
        shape: Shape,
        position: DVec3,
        velocity: DVec3,
    },
    /// A plugin's force and torque on a body of a lane for the integrator step being
    /// taken, between the forces and frames stages ([`crate::lab::Lab::add_load`]).
    AddLoad {
        lane: usize,
        body: usize,
        load: Loads,
    },
}

/// An input and where it was applied: after `step` physics steps and `sub` integrator
/// steps of the next one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Logged {
    pub step: u64,
    pub sub: u32,
    pub input: Input,
}

impl Logged {
    pub fn at(&self) -> (u64, u32) {
        (self.step, self.sub)
    }
}
