//! `gyrolab compare`: one scene, several integrators, their errors side by side.

use std::time::Instant;

use crate::integrators::Integrator;
use crate::lab::run::Run;
use crate::world::World;

use super::progress::Progress;
use super::{CliError, CompareArgs, TableFormat, parse_integrator, prepare, step_count};

/// One integrator's results on the first body.
#[derive(Clone, Debug)]
pub struct Comparison {
    pub integrator: Integrator,
    pub max_energy_error: f64,
    pub final_energy_error: f64,
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
    timed.integrator = integrator;
    let start = Instant::now();
    let mut done = 0;
    while done < steps && timed.step(dt).is_ok() {
        done += 1;
        if done % PROGRESS_EVERY == 0 {
            progress.set(done_before + done);
        }
    }
    let ns = start.elapsed().as_nanos() as f64 / (done.max(1) as f64 * world.bodies.len() as f64);

    let mut run = Run::new(world.clone(), integrator);
    let mut failure = None;
    for n in 0..steps {
        if n % PROGRESS_EVERY == 0 {
            progress.set(done_before + steps + n);
        }
        if let Err(e) = run.step(dt) {
            failure = Some(format!("stopped at t = {:.2} s: {e}", run.world.time));
            break;
        }
    }
    Comparison {
        failure,
        integrator,
        max_energy_error: run.drift.max_energy,
        final_energy_error: run.drift.final_energy,
        max_momentum_error: run.drift.max_momentum,
        flips: run.flips.flips(),
        flip_period: run.flips.mean_period(),
        analytic_flip_period: run.analytic_flip_period,
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

pub fn run(args: &CompareArgs) -> Result<(), CliError> {
    use std::fmt::Write;
    let rows = compare(args)?;
    let mut out = String::new();
    match args.format {
        TableFormat::Csv => {
            let _ = writeln!(
                out,
                "integrator,max_energy_error,final_energy_error,max_momentum_error,flips,flip_period,analytic_flip_period,ns_per_body_step,failure"
            );
            for r in &rows {
                let o = |v: Option<f64>| v.map_or_else(String::new, |x| x.to_string());
                let _ = writeln!(
                    out,
                    "{},{},{},{},{},{},{},{},{}",
                    r.integrator,
                    r.max_energy_error,
                    r.final_energy_error,
                    r.max_momentum_error,
                    r.flips,
                    o(r.flip_period),
                    o(r.analytic_flip_period),
                    r.ns_per_body_step,
                    r.failure.as_deref().unwrap_or("").replace(',', ";")
                );
            }
        }
        TableFormat::Table => {
            let _ = writeln!(
                out,
                "{:<18} {:>12} {:>12} {:>12} {:>6} {:>10} {:>10} {:>9}",
                "integrator",
                "max|dE/E|",
                "final dE/E",
                "max|dL|/|L|",
                "flips",
                "T_flip",
                "analytic",
                "ns/step"
            );
            for r in &rows {
                let _ = writeln!(
                    out,
                    "{:<18} {:>12.3e} {:>12.3e} {:>12.3e} {:>6} {:>10} {:>10} {:>9.1}{}",
                    r.integrator.name(),
                    r.max_energy_error,
                    r.final_energy_error,
                    r.max_momentum_error,
                    r.flips,
                    opt(r.flip_period),
                    opt(r.analytic_flip_period),
                    r.ns_per_body_step,
                    r.failure
                        .as_ref()
                        .map_or(String::new(), |f| format!("  {f}"))
                );
            }
        }
    }
    super::emit(&out)
}
