//! `gyrolab compare`: one scene, several integrators, their errors side by side.

use std::time::Instant;

use crate::integrators::{Integrator, NAME_WIDTH};
use crate::lab::diagnosis;
use crate::lab::lane::Lane;
use crate::world::World;

use super::{CliError, CompareArgs, TableFormat, parse_integrator, prepare, step_count};
use crate::progress::Progress;

/// One integrator's results on the first body.
#[derive(Clone, Debug)]
pub struct Comparison {
    pub integrator: Integrator,
    /// Relative energy errors, `None` when the energy at the start is zero: there is
    /// nothing to be relative to.
    pub max_energy_error: Option<f64>,
    pub final_energy_error: Option<f64>,
    pub max_momentum_error: f64,
    pub flips: usize,
    pub flip_period: Option<f64>,
    pub analytic_flip_period: Option<f64>,
    pub ns_per_body_step: f64,
    /// Where and why the run stopped, if it blew up; the other columns cover the run up
    /// to there.
    pub failure: Option<String>,
}

/// Steps between progress updates.
const PROGRESS_EVERY: u64 = 1024;

/// Runs `integrator` twice (timed, then measured); `progress` counts both runs' steps
/// from `done`.
fn measure(
    world: &World,
    integrator: Integrator,
    dt: f64,
    steps: u64,
    progress: &mut Progress,
    done_before: u64,
) -> Comparison {
    // Timing run: nothing but stepping, so the figure is the integrator's cost.
    let mut timed = world.clone();
    timed.set_integrator(integrator);
    let start = Instant::now();
    let mut done = 0;
    while done < steps && timed.advance(dt).is_ok() {
        done += 1;
        if done % PROGRESS_EVERY == 0 {
            progress.set(done_before + done);
        }
    }
    let ns = start.elapsed().as_nanos() as f64 / (done.max(1) as f64 * world.bodies().len() as f64);

    let mut run = Lane::new(world.clone(), integrator);
    let mut failure = None;
    for n in 0..steps {
        if n % PROGRESS_EVERY == 0 {
            progress.set(done_before + steps + n);
        }
        if run.advance(dt).is_err() {
            failure = run.failure().as_ref().map(|why| format!("stopped: {why}"));
            break;
        }
    }
    let relative = run.drift().energy_is_relative();
    Comparison {
        failure,
        integrator,
        max_energy_error: relative.then_some(run.drift().max_energy),
        final_energy_error: relative.then_some(run.drift().final_energy),
        max_momentum_error: run.drift().max_momentum,
        flips: run.flips().flips(),
        flip_period: run.flips().mean_period(),
        analytic_flip_period: run.analytic_flip_period(),
        ns_per_body_step: ns,
    }
}

/// Runs the comparison without printing; the CLI and tests share it.
pub fn compare(args: &CompareArgs) -> Result<Vec<Comparison>, CliError> {
    let (scene, world, dt) = prepare(&args.scene)?;
    let integrators = match &args.integrators {
        Some(names) => names
            .iter()
            .map(|n| parse_integrator(n.trim(), &world))
            .collect::<Result<Vec<_>, _>>()?,
        None => Integrator::ALL
            .into_iter()
            .filter(|i| *i != Integrator::Analytic || world.analytic_applies())
            .collect(),
    };
    let steps = step_count(args.duration.unwrap_or(scene.duration), dt)?;
    diagnosis::check(&world, &world, dt).map_err(|why| CliError(why.message(0, world.time())))?;
    let mut progress = Progress::new(2 * steps * integrators.len() as u64, "compare");
    Ok(integrators
        .into_iter()
        .enumerate()
        .map(|(k, i)| measure(&world, i, dt, steps, &mut progress, 2 * steps * k as u64))
        .collect())
}

fn opt(v: Option<f64>) -> String {
    v.map_or_else(|| "-".into(), |x| format!("{x:.4}"))
}

fn opt_e(v: Option<f64>) -> String {
    v.map_or_else(|| "-".into(), |x| format!("{x:.3e}"))
}

/// The CSV columns, in order; scripts depend on them.
pub const CSV_HEADER: [&str; 9] = [
    "integrator",
    "max_energy_error",
    "final_energy_error",
    "max_momentum_error",
    "flips",
    "flip_period",
    "analytic_flip_period",
    "ns_per_body_step",
    "failure",
];

/// The comparison as CSV: an empty field where a value does not exist.
pub fn csv(rows: &[Comparison]) -> Result<Vec<u8>, csv::Error> {
    let o = |v: Option<f64>| v.map_or_else(String::new, |x| x.to_string());
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(CSV_HEADER)?;
    for r in rows {
        w.write_record([
            r.integrator.name().to_owned(),
            o(r.max_energy_error),
            o(r.final_energy_error),
            r.max_momentum_error.to_string(),
            r.flips.to_string(),
            o(r.flip_period),
            o(r.analytic_flip_period),
            r.ns_per_body_step.to_string(),
            r.failure.clone().unwrap_or_default(),
        ])?;
    }
    w.into_inner().map_err(|e| e.into_error().into())
}

pub fn run(args: &CompareArgs) -> Result<(), CliError> {
    use std::fmt::Write;
    let rows = compare(args)?;
    let mut out = String::new();
    match args.format {
        TableFormat::Csv => {
            out = String::from_utf8(csv(&rows)?).map_err(|e| CliError(e.to_string()))?;
        }
        TableFormat::Table => {
            let _ = writeln!(
                out,
                "{:<w$} {:>12} {:>12} {:>12} {:>6} {:>10} {:>10} {:>9}",
                "integrator",
                "max|dE/E|",
                "final dE/E",
                "max|dL|/|L|",
                "flips",
                "T_flip",
                "analytic",
                "ns/step",
                w = NAME_WIDTH
            );
            for r in &rows {
                let _ = writeln!(
                    out,
                    "{:<w$} {:>12} {:>12} {:>12.3e} {:>6} {:>10} {:>10} {:>9.1}{}",
                    r.integrator.name(),
                    opt_e(r.max_energy_error),
                    opt_e(r.final_energy_error),
                    r.max_momentum_error,
                    r.flips,
                    opt(r.flip_period),
                    opt(r.analytic_flip_period),
                    r.ns_per_body_step,
                    r.failure
                        .as_ref()
                        .map_or(String::new(), |f| format!("  {f}")),
                    w = NAME_WIDTH
                );
            }
        }
    }
    super::emit(&out)
}
