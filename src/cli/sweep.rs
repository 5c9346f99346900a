//! `gyrolab compare SCENE --sweep`: the work-precision table as CSV, one row per
//! integrator and step size.

use crate::lab::sweep::{self, COARSEST, DEFAULT_INTEGRATORS, LEVELS, T_END};

use super::{CliError, CompareArgs, listed_order, parse_integrator, prepare, step_count};
use crate::progress::Progress;

pub const HEADER: &str =
    "integrator,h,steps,error,ns_per_simulated_second,substeps,listed_order,measured_order,failure";

pub fn run(args: &CompareArgs) -> Result<(), CliError> {
    let (scene, world, dt) = prepare(&args.scene)?;
    sweep::check(&world).map_err(|m| CliError(format!("--sweep: {m}")))?;
    let integrators = match &args.integrators {
        Some(names) => names
            .iter()
            .map(|n| parse_integrator(n.trim(), &world))
            .collect::<Result<Vec<_>, _>>()?,
        None => DEFAULT_INTEGRATORS.to_vec(),
    };
    // Positive and finite: the flag's by its parser, the scene's by the scene's validation.
    let t_end = args.duration.unwrap_or(scene.duration.min(T_END));
    let steps = sweep::step_sizes(t_end, COARSEST * dt, LEVELS);
    // The finest step size takes the most steps; the limit of a run applies to it.
    step_count(t_end, steps.iter().copied().fold(f64::INFINITY, f64::min))?;
    if let Some(most) = sweep::too_long(&world, t_end) {
        return Err(CliError(format!(
            "--duration: {t_end} s is too long for a sweep of this scene: the exact solution it measures against turns the body at most {:e} rad, {most} s; accepted: above 0 and at most {most} s",
            crate::integrators::analytic::MAX_STEP_ANGLE
        )));
    }
    let mut progress = Progress::new((integrators.len() * steps.len()) as u64, "sweep");
    let result = sweep::sweep(
        &world,
        &integrators,
        t_end,
        &steps,
        crate::stopwatch::now,
        |done, _| progress.set(done as u64),
    )
    .map_err(CliError)?;
    drop(progress);
    let mut out = csv::Writer::from_writer(Vec::new());
    out.write_record(HEADER.split(','))?;
    for line in &result.lines {
        let listed = listed_order(line.integrator);
        let measured = line
            .measured_order()
            .map_or(String::new(), |o| format!("{o:.3}"));
        let name = line.integrator.name();
        for p in &line.points {
            out.write_record([
                name,
                &p.h.to_string(),
                &p.steps.to_string(),
                &p.error.to_string(),
                &p.ns_per_simulated_second.to_string(),
                &p.substeps.to_string(),
                &listed,
                &measured,
                "",
            ])?;
        }
        for (h, why) in &line.failures {
            out.write_record([
                name,
                &h.to_string(),
                &(t_end / h).round().to_string(),
                "",
                "",
                "",
                &listed,
                &measured,
                why,
            ])?;
        }
    }
    let bytes = out.into_inner().map_err(|e| CliError(e.to_string()))?;
    super::emit(&String::from_utf8_lossy(&bytes))
}
