//! What `simulate --lesson NAME --step K` and `simulate --setup CODE` run: the lab as the
//! student has it at that step (or as the code opens it), started again from t = 0 with
//! the settings in force there, each lane a world of its own.

use crate::lab::Input;
use crate::lab::Lab;
use crate::lesson::{Lesson, setup::Setup};
use crate::scene::{DEFAULT_SCENE, Scene};
use crate::world::World;

use super::CliError;
use super::lessons::walk_to;

/// The lanes to run, from t = 0: their worlds (each with its integrator), the length of
/// one integrator step, and how long the step's run is.
pub struct LanesToRun {
    pub scene: Scene,
    pub worlds: Vec<World>,
    pub h: f64,
    pub duration: f64,
}

/// Lesson `name` at step `step` (from 1): the lab set up as the lesson has it there, for
/// the run of the step's take.
pub fn lesson(name: &str, step: usize) -> Result<LanesToRun, CliError> {
    let mut lab = Lab::new(Scene::load(DEFAULT_SCENE)?);
    let walk = walk_to(&mut lab, name, step, &[])?;
    let until = take_run(&walk.lesson, walk.at);
    lanes(lab, until)
}

/// A set-up code as it opens: its scene with its settings, or its lesson at its step.
pub fn setup(code: &str) -> Result<LanesToRun, CliError> {
    let setup = Setup::from_code(code).map_err(|e| CliError(format!("--setup: {e}")))?;
    let mut lab = Lab::new(Scene::load(DEFAULT_SCENE)?);
    let walk = (setup.open(&mut lab)).map_err(|e| CliError(format!("--setup: {e}")))?;
    let until = walk.and_then(|w| take_run(&w.lesson, w.at));
    lanes(lab, until)
}

/// How long the run of the take holding step `at` is (each "now try" starts the run
/// again): none for a take without a run.
pub fn take_run(lesson: &Lesson, at: usize) -> Option<f64> {
    let take = lesson.takes().find(|p| p.contains(&at))?;
    Lesson::run_length(&lesson.steps[take])
}

/// The lab's lanes started again from t = 0, for `until` or the scene's duration.
fn lanes(mut lab: Lab, until: Option<f64>) -> Result<LanesToRun, CliError> {
    restart_keeping_settings(&mut lab).map_err(CliError)?;
    Ok(LanesToRun {
        scene: lab.scene().clone(),
        worlds: lab.lanes().iter().map(|r| r.world().clone()).collect(),
        h: lab.h(),
        duration: until.unwrap_or(lab.scene().duration),
    })
}

/// Every surface's friction in a world: bodies, frames' parts, planes.
fn surfaces(world: &World) -> Vec<f64> {
    let planes = world.contacts().map_or(&[][..], |c| c.planes());
    (world.bodies().iter().map(|b| b.material.friction))
        .chain(world.frames().iter().map(|f| f.material.friction))
        .chain(planes.iter().map(|p| p.friction))
        .collect()
}

/// Restarts the lab from its start conditions, then sets again what a restart does not
/// keep: the lanes' worlds are rebuilt from the scene, so a friction, solver settings
/// or motors set since (by the lesson's "now try" or the code) are set once more. The
/// start conditions, step, integrators and compared lanes are the lab's own and stay.
fn restart_keeping_settings(lab: &mut Lab) -> Result<(), String> {
    let before = lab.world().clone();
    let motors = lab.motors();
    lab.apply(Input::Restart)?;
    let (now, then) = (surfaces(lab.world()), surfaces(&before));
    if now != then {
        // Friction is set for every surface at once: a world whose surfaces differ
        // from the scene's has them all the same.
        if then.iter().any(|&f| f != then[0]) {
            return Err("the surfaces' frictions are not the scene's, nor all one".into());
        }
        lab.apply(Input::SetFriction(then[0]))?;
    }
    let settings = |w: &World| w.contacts().map(|c| *c.settings());
    if let Some(s) = settings(&before)
        && settings(lab.world()) != Some(s)
    {
        lab.apply(Input::SetSolverSettings(s))?;
    }
    for (joint, motor) in motors {
        if !lab.motors().contains(&(joint, motor)) {
            lab.apply(Input::SetMotor { joint, motor })?;
        }
    }
    Ok(())
}
