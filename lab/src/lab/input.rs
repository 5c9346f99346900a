//! What a user does to a lab, as values: the lab's whole vocabulary of change. The app,
//! the lesson walk, the command line and the browser change a lab through
//! [`crate::lab::Lab::apply`] alone, so a new control is one variant here and one arm
//! there. The timeline logs each input that changes a run under way with the moment it
//! was applied, so that simulating again from a keyframe applies it again at the same
//! integrator step and reproduces the run bitwise; an input that restarts begins a new
//! recording instead.

use glam::DVec3;
use serde::{Deserialize, Serialize};

use super::limit::Limit;
use super::presets::Start;
use crate::body::inertia::Shape;
use crate::integrators::{Integrator, Loads};
use crate::joints::Motor;
use crate::solver::SolverSettings;
use crate::world::grab::Grab;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Input {
    /// Holds a body of a lane with the mouse spring (see [`Grab`]); no lane, no hold.
    Hold { lane: usize, grab: Grab },
    /// Moves the point the held body is pulled to.
    DragTo(DVec3),
    /// Lets go: the body keeps the velocity the spring gave it.
    Release,
    /// Switches the integrator of a single-lane scene mid-motion: the bodies keep their
    /// state, nothing restarts.
    SwitchIntegrator(Integrator),
    /// One physics step, s (a scene file's `dt` range).
    SetDt(f64),
    /// Integrator steps per physics step, 1 to [`super::MAX_STEPS_PER_DT`].
    SetStepsPerDt(u32),
    /// A hinge's motor in every lane, its body woken; refused for a joint without a
    /// motor, or a speed or torque outside the scene files' ranges.
    SetMotor { joint: usize, motor: Motor },
    /// The friction of every surface (bodies, frames' parts, planes) in every lane,
    /// every body woken; contacts take it at their next detection.
    SetFriction(f64),
    /// Contact-solver settings in every lane, every body woken so the change shows.
    SetSolverSettings(SolverSettings),
    /// A 1 kg body of `shape` added to every lane, so lanes stay comparable, moving at
    /// `velocity`, at `position`, or where none is given above the scene (beside it when
    /// thrown); worked out once, when first applied, and logged with it. Only scenes
    /// with contacts take new bodies: elsewhere nothing would stop them falling.
    Spawn {
        shape: Shape,
        velocity: DVec3,
        position: Option<DVec3>,
    },
    /// A plugin's force and torque (N and N·m, world axes, about the centre of mass) on
    /// a body of a lane for the integrator step being taken, between the forces and
    /// frames stages.
    AddLoad {
        lane: usize,
        body: usize,
        load: Loads,
    },
    /// Adds or removes an integrator from the side-by-side comparison, and restarts so
    /// every lane starts from the same state. At least one stays; the exact solution is
    /// the ghost, not a lane.
    Compare { integrator: Integrator, on: bool },
    /// Compares exactly these integrators side by side (in [`Integrator::ALL`] order)
    /// and restarts.
    SetCompared(Vec<Integrator>),
    /// New start conditions (the first body's spin and inertia), then a restart from
    /// them. Conditions no rigid body can have are refused with the reason, the run
    /// going on; they are kept as the conditions being edited, so a panel can show them.
    SetStart(Start),
    /// Starts again from the start conditions.
    Restart,
    /// How far the lab may step forward (a lesson's hold); it stays through a restart.
    SetLimit(Limit),
}

impl Input {
    /// Whether the timeline logs the input: it changes the run under way. Restarts
    /// begin a new recording (their settings are its start), and a limit bounds the
    /// steps without changing any.
    pub fn is_logged(&self) -> bool {
        !matches!(
            self,
            Input::Compare { .. }
                | Input::SetCompared(_)
                | Input::SetStart(_)
                | Input::Restart
                | Input::SetLimit(_)
        )
    }
}

/// An input and where it was applied: after `step` physics steps and `sub` integrator
/// steps of the next one.
#[derive(Clone, Debug, PartialEq)]
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
