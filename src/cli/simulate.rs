//! `gyrolab simulate`: a trajectory as CSV or JSON lines, written as it is computed, so
//! memory does not grow with the output.

use crate::lab::diagnosis::diagnose;
use crate::records::{RecordError, RecordWriter};
use crate::scene::Scene;
use crate::world::World;

use super::at_step;
use super::output::Output;
use super::{CliError, Format, Record, SimulateArgs, parse_integrator, prepare, step_count};
use crate::progress::Progress;

/// Steps between progress updates: rare enough to cost nothing.
const PROGRESS_EVERY: u64 = 1024;

/// What a run starts from: the scene, one world per lane (one, but for a lesson's or a
/// set-up code's lanes), the step, the first step's number and the default duration.
struct RunStart {
    scene: Scene,
    worlds: Vec<World>,
    dt: f64,
    first_step: u64,
    duration: f64,
}

pub fn run(args: &SimulateArgs) -> Result<(), CliError> {
    check_paths(args)?;
    let RunStart {
        scene,
        mut worlds,
        dt,
        first_step,
        duration,
    } = starting(args)?;
    let steps = match args.steps {
        Some(n) => n,
        None => step_count(args.duration.unwrap_or(duration), dt)?,
    };
    let output = Output::open(args.out.as_deref())?;
    let mut records = match args.format {
        Format::Csv => RecordWriter::csv(output),
        Format::Jsonl => RecordWriter::jsonl(output),
    };
    let starts = worlds.clone();
    // Checks every value of step `i`'s records before writing it; a value that is not finite
    // stops the run with the body, the step and the cause.
    let write = |worlds: &[World], i: u64, records: &mut RecordWriter<Output>| {
        for (world, start) in worlds.iter().zip(&starts) {
            for record in Record::of_world(world) {
                match records.write(&record) {
                    Ok(()) => {}
                    Err(RecordError::Io(e)) => return Err(Stop::Io(e)),
                    Err(RecordError::NonFinite { .. }) => {
                        let why = diagnose(world, start, dt, None);
                        let step = first_step + i;
                        return Err(Stop::Failed(CliError(why.message(step, world.time()))));
                    }
                }
            }
        }
        Ok(())
    };
    let mut stepping = || -> Result<(), Stop> {
        write(&worlds, 0, &mut records)?;
        let mut progress = Progress::new(steps, "simulate");
        let mut told: Vec<Told> = worlds.iter().map(Told::of).collect();
        for i in 1..=steps {
            if i % PROGRESS_EVERY == 0 {
                progress.set(i);
            }
            for ((world, start), told) in worlds.iter_mut().zip(&starts).zip(&mut told) {
                if let Err(e) = world.advance(dt) {
                    let why = diagnose(world, start, dt, Some(&e));
                    let step = first_step + i;
                    return Err(Stop::Failed(CliError(why.message(step, world.time()))));
                }
                told.tell(world, &progress);
            }
            if i % args.every == 0 || i == steps {
                write(&worlds, i, &mut records)?;
            }
        }
        Ok(())
    };
    match stepping() {
        // A failed run drops the output: a temporary file is removed, the target stays.
        Err(Stop::Failed(e)) => Err(e),
        Err(Stop::Io(e)) => records.get_ref().failed(e),
        Ok(()) => {
            if let Err(e) = records.flush() {
                return records.get_ref().failed(e);
            }
            match records.finish() {
                Ok(output) => output.commit()?,
                Err(e) => return Err(CliError(format!("cannot write the output: {e}"))),
            }
            // --save-state is refused beside the several lanes of a lesson or a code.
            match &args.save_state {
                Some(path) => super::state::save(path, &scene, &worlds[0], dt, first_step + steps),
                None => Ok(()),
            }
        }
    }
}

/// What a run has said on stderr about its joints: each break once, as it happens, and
/// once each that the direct solve left joints that close a loop, or whose block was
/// singular, to the iterative one.
struct Told {
    broken: Vec<bool>,
    loops: bool,
    singular: bool,
}

impl Told {
    /// What a world (a fresh scene's, or a saved state's) has already: its breaks are
    /// not news.
    fn of(world: &World) -> Self {
        let joints = world.joints();
        Self {
            broken: joints.iter().map(|j| !j.holds()).collect(),
            loops: false,
            singular: false,
        }
    }

    fn tell(&mut self, world: &World, progress: &Progress) {
        let Some(c) = &world.contacts() else {
            return;
        };
        for (k, b) in c.breaks() {
            if !std::mem::replace(&mut self.broken[k], true) {
                let j = &c.joints()[k];
                let second = match (j.b, j.frame) {
                    (Some(b), _) => world.bodies()[b].name.as_str(),
                    (None, Some(f)) => world.frames()[f].name.as_str(),
                    (None, None) => "the world",
                };
                progress.say(&format!(
                    "t = {:.4} s: joint {k} ({} to {second}) broke carrying {:.1} N and {:.1} N·m",
                    b.time,
                    world.bodies()[j.a].name,
                    b.force,
                    b.torque
                ));
            }
        }
        let loops = c.last_step().direct_loops().len();
        if loops > 0 && !std::mem::replace(&mut self.loops, true) {
            progress.say(&format!(
                "{loops} joint(s) close a loop: the direct joint solve leaves them to the iterative one"
            ));
        }
        let singular = c.last_step().direct_singular().len();
        if singular > 0 && !std::mem::replace(&mut self.singular, true) {
            progress.say(&format!(
                "{singular} joint(s) have rows that depend on each other (a singular block): \
                 the direct joint solve leaves them to the iterative one"
            ));
        }
    }
}

/// What the run starts from: a lesson's or a set-up code's lanes, or one world.
fn starting(args: &SimulateArgs) -> Result<RunStart, CliError> {
    let lanes = match (&args.lesson, &args.setup) {
        (Some(name), _) => at_step::lesson(name, args.step as usize)?,
        (None, Some(code)) => at_step::setup(code)?,
        (None, None) => {
            let (scene, world, dt, first_step) = starting_world(args)?;
            let duration = scene.duration;
            return Ok(RunStart {
                scene,
                worlds: vec![world],
                dt,
                first_step,
                duration,
            });
        }
    };
    Ok(RunStart {
        scene: lanes.scene,
        worlds: lanes.worlds,
        dt: lanes.h,
        first_step: 0,
        duration: lanes.duration,
    })
}

/// The scene, the world at the start (the state file's, or the scene's), the step and
/// the first step's number; the world runs the integrator asked for, or the one it was
/// running when saved, or the scene's.
fn starting_world(args: &SimulateArgs) -> Result<(Scene, World, f64, u64), CliError> {
    let (scene, mut world, dt, first_step) = match &args.state {
        Some(path) => {
            let l = super::state::load(path, &args.scene)?;
            (l.scene, l.world, l.dt, l.step)
        }
        None => {
            let (scene, world, dt) = prepare(&args.scene)?;
            (scene, world, dt, 0)
        }
    };
    // A saved moment goes on with the integrator it was running.
    let default = match args.state {
        Some(_) => world.integrator().name().to_owned(),
        None => scene.integrator.clone(),
    };
    world.set_integrator(parse_integrator(
        args.integrator.as_deref().unwrap_or(&default),
        &world,
    )?);
    Ok((scene, world, dt, first_step))
}

/// Refuses, before the run, files that would overwrite each other (`--out` and
/// `--save-state` the same file, or either the `--state` being read) and a
/// `--save-state` that is not a regular file (or a new one) in an existing directory.
fn check_paths(args: &SimulateArgs) -> Result<(), CliError> {
    let same = |a: &std::path::Path, b: &std::path::Path| {
        let full =
            |p: &std::path::Path| std::fs::canonicalize(p).or_else(|_| std::path::absolute(p));
        matches!((full(a), full(b)), (Ok(x), Ok(y)) if x == y)
    };
    let named = [
        ("--out", args.out.as_deref()),
        ("--save-state", args.save_state.as_deref()),
        ("--state", args.state.as_deref()),
    ];
    for (i, (flag_a, a)) in named.iter().enumerate() {
        for (flag_b, b) in &named[i + 1..] {
            if let (Some(a), Some(b)) = (a, b)
                && same(a, b)
            {
                return Err(CliError(format!(
                    "{flag_a} and {flag_b} name the same file, {}: give two files",
                    a.display()
                )));
            }
        }
    }
    if let Some(path) = &args.save_state {
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => std::path::Path::new("."),
        };
        // A device or a pipe would be replaced by the renamed file; a link is refused as
        // well, so that the state file written is the file named.
        let special = std::fs::symlink_metadata(path).is_ok_and(|m| !m.is_file());
        if special || !dir.is_dir() {
            return Err(CliError(format!(
                "--save-state: cannot write {}: give a new or regular file in an existing directory",
                path.display()
            )));
        }
    }
    Ok(())
}

/// Why a run stopped early.
enum Stop {
    Failed(CliError),
    Io(std::io::Error),
}
