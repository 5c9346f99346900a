//! `gyrolab compare SCENE --sweep`: the work-precision table as CSV, one row per
//! integrator and step size.

use crate::lab::sweep::{self, COARSEST, DEFAULT_INTEGRATORS, LEVELS, T_END};

use super::progress::Progress;
use super::{CliError, CompareArgs, listed_order, parse_integrator, prepare};

pub const HEADER: &str =
    "integrator,h,steps,error,ns_per_simulated_second,substeps,listed_order,measured_order,failure";

pub fn run(args: &CompareArgs) -> Result<(), CliError> {
    use std::fmt::Write;
    let (scene, world, dt) = prepare(&args.scene)?;
    sweep::check(&world).map_err(|m| CliError(format!("--sweep: {m}")))?;
    let integrators = match &args.integrators {
        Some(names) => names
            .iter()
            .map(|n| parse_integrator(n.trim(), &world))
            .collect::<Result<Vec<_>, _>>()?,
        None => DEFAULT_INTEGRATORS.to_vec(),
    };
    let t_end = args.duration.unwrap_or(scene.duration.min(T_END));
    if !(t_end.is_finite() && t_end > 0.0) {
        return Err(CliError(format!(
            "--duration must be positive, got {t_end}"
        )));
    }
    let steps = sweep::step_sizes(t_end, COARSEST * dt, LEVELS);
    let mut progress = Progress::new((integrators.len() * steps.len()) as u64, "sweep");
    let result = sweep::sweep(&world, &integrators, t_end, &steps, |done, _| {
        progress.set(done as u64)
    })
    .map_err(CliError)?;
    drop(progress);
    let mut out = String::new();
    let _ = writeln!(out, "{HEADER}");
    for line in &result.lines {
        let listed = listed_order(line.integrator);
        let measured = line
            .measured_order()
            .map_or(String::new(), |o| format!("{o:.3}"));
        for p in &line.points {
            let _ = writeln!(
                out,
                "{},{},{},{},{},{},{listed},{measured},",
                line.integrator, p.h, p.steps, p.error, p.ns_per_simulated_second, p.substeps
            );
        }
        for (h, why) in &line.failures {
            let _ = writeln!(
                out,
                "{},{h},{},,,,{listed},{measured},{}",
                line.integrator,
                (t_end / h).round(),
                why.replace(',', ";")
            );
        }
    }
    super::emit(&out)
}
