//! `gyrolab simulate`: a trajectory as CSV or JSON lines.

use super::progress::Progress;
use super::{CliError, Format, Row, SimulateArgs, parse_integrator, prepare, step_count};

/// Steps between progress updates: rare enough to cost nothing.
const PROGRESS_EVERY: u64 = 1024;

pub fn run(args: &SimulateArgs) -> Result<(), CliError> {
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
        Some(_) => world.integrator.name().to_owned(),
        None => scene.integrator.clone(),
    };
    world.integrator = parse_integrator(args.integrator.as_deref().unwrap_or(&default), &world)?;
    let steps = match args.steps {
        Some(0) => return Err(CliError("--steps must be at least 1".into())),
        Some(n) => n,
        None => step_count(args.duration.unwrap_or(scene.duration), dt)?,
    };
    // The whole output is built before anything is written, so a failed run leaves no
    // partial file behind.
    let mut out = String::new();
    let write_rows = |world: &crate::world::World, out: &mut String| {
        for row in Row::of_world(world) {
            match args.format {
                Format::Csv => row.write_csv(out),
                Format::Jsonl => row.write_json(out),
            }
        }
    };
    if args.format == Format::Csv {
        out.push_str(super::CSV_HEADER);
        out.push('\n');
    }
    write_rows(&world, &mut out);
    let mut progress = Progress::new(steps, "simulate");
    for i in 1..=steps {
        if i % PROGRESS_EVERY == 0 {
            progress.set(i);
        }
        world
            .step(dt)
            .map_err(|e| CliError(format!("step {i} (t = {:.6} s): {e}", world.time)))?;
        if i % args.every == 0 || i == steps {
            write_rows(&world, &mut out);
        }
    }
    drop(progress);
    match &args.out {
        Some(path) => std::fs::write(path, out)
            .map_err(|e| CliError(format!("cannot write {}: {e}", path.display())))?,
        None => super::emit(&out)?,
    }
    match &args.save_state {
        Some(path) => super::state::save(path, &scene, &world, dt, first_step + steps),
        None => Ok(()),
    }
}
