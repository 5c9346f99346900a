//! `simulate --state FILE` and `--save-state FILE`: the command line's side of saved
//! moments (see [`crate::lab::moment`]). The command line steps one world, so it goes on
//! from a moment of one lane; a held body is let go.

use std::path::Path;

use super::{CliError, SceneArgs};
use crate::lab::moment::Moment;
use crate::scene::{self, Scene};
use crate::world::World;

/// A world to go on from, its scene, its step and how many steps it had taken.
pub struct Loaded {
    pub scene: Scene,
    pub world: World,
    pub dt: f64,
    pub step: u64,
}

/// Reads a state file; a SCENE given as well must be the file's. The step is the
/// moment's integrator step (`dt / steps_per_dt`) unless `--dt` sets another.
pub fn load(path: &Path, args: &SceneArgs) -> Result<Loaded, CliError> {
    let given = args.scene.as_deref().map(Scene::load).transpose()?;
    let (scene, moment) = Moment::read(path, given.as_ref()).map_err(CliError)?;
    let s = moment.state;
    if s.lanes.len() != 1 {
        let names: Vec<&str> = s.lanes.iter().map(|r| r.integrator().name()).collect();
        return Err(CliError(format!(
            "{}: a moment of {} lanes side by side ({}); simulate goes on from a moment of one",
            path.display(),
            s.lanes.len(),
            names.join(", ")
        )));
    }
    let dt = args.dt.unwrap_or(s.dt / f64::from(s.steps_per_dt));
    scene::check_step(dt).map_err(|m| CliError(format!("--dt: {m}")))?;
    let world = s.lanes.into_iter().next().expect("one lane").into_world();
    Ok(Loaded {
        scene,
        world,
        dt,
        step: s.step,
    })
}

/// Writes the world's state, `step` steps of `dt` in, atomically.
pub fn save(path: &Path, scene: &Scene, world: &World, dt: f64, step: u64) -> Result<(), CliError> {
    let moment = Moment::of_world(scene, world, dt, step);
    crate::state_file::save(&moment, scene, path).map_err(CliError)
}
