//! Work-precision: for a single free body and a set of integrators, the error at a chosen
//! time against the measured cost, over a sweep of step sizes halving from the largest.
//! On log-log axes the slope of each line is the method's order and its height the
//! constant [Hairer–Lubich–Wanner].
//!
//! The error is the angle between the computed and the exact attitude at `t_end` plus the
//! relative error of the body angular velocity there. The exact motion is the elliptic
//! solution with the attitude of the exact flow [Celledoni–Fassò–Säfström–Zanna 2008] in
//! one step (its precession quadrature agrees with itself across step sizes to 1e-14,
//! where the ghost's fine RK4 quadrature is off by a few 1e-10 after 10 s), so the
//! sweep applies where the `analytic` ghost does: one body, no frames, no contacts, and
//! then nothing exerts a torque. The cost is wall time per simulated second, the fastest
//! of repeated runs, so a pause of the machine does not count.

use glam::DQuat;

use super::stage_time::Now;
use crate::integrators::Integrator;
use crate::integrators::analytic::{MAX_STEP_ANGLE, TorqueFreeTop};
use crate::integrators::exact_kicks::free_flow;
use crate::math::{norm, quat};
use crate::world::World;

/// What the command line sweeps by default: the engines' clamp, midpoint, RK4 and the
/// two DMVs.
pub const DEFAULT_INTEGRATORS: [Integrator; 5] = [
    Integrator::MomentumClamp,
    Integrator::Midpoint,
    Integrator::Rk4,
    Integrator::Dmv,
    Integrator::Dmv6,
];
/// Step sizes per sweep by default, halving from [`COARSEST`] times the scene's step.
pub const LEVELS: usize = 7;
/// The largest step of a sweep, in scene steps: `8·dt` down to `dt/8` in [`LEVELS`].
pub const COARSEST: f64 = 8.0;
/// The time at which the error is taken, unless the scene's run is shorter.
pub const T_END: f64 = 10.0;

/// Runs of one point are repeated until they took this long in all, for a stable timing.
const TIMING_BUDGET_NS: f64 = 2e6;
/// The most runs timed for one point, whatever the clock says.
const MOST_REPEATS: u32 = 1000;
/// Errors below this are too close to round-off over thousands of steps (near the
/// separatrix the exact flow itself drifts by up to 5e-10 in 10 s): left out of the
/// order fit.
pub const ERROR_FLOOR: f64 = 1e-9;
/// Errors above this are no longer small: the asymptotic regime has ended.
pub const ERROR_CEILING: f64 = 0.1;

/// One step size of one integrator.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    pub h: f64,
    pub steps: u64,
    pub error: f64,
    pub ns_per_simulated_second: f64,
    /// The most sub-steps one step was split into (the implicit methods' safe sub-steps,
    /// DMV's quarter-turn limit); 1 when every step was taken whole.
    pub substeps: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub integrator: Integrator,
    /// Step sizes from the largest down; a step size where the run failed is left out.
    pub points: Vec<Point>,
    /// Why runs failed, with the step size, if any did.
    pub failures: Vec<(f64, String)>,
}

impl Line {
    /// The least-squares slope of log(error) against log(h) over the points in the
    /// asymptotic regime: error between [`ERROR_FLOOR`] and [`ERROR_CEILING`], every
    /// step taken whole. `None` with fewer than two such points, and for the exact
    /// methods, whose errors are round-off.
    pub fn measured_order(&self) -> Option<f64> {
        if self.integrator.info().order == 0 {
            return None;
        }
        let xy: Vec<(f64, f64)> = self
            .points
            .iter()
            .filter(|p| p.substeps == 1 && (ERROR_FLOOR..=ERROR_CEILING).contains(&p.error))
            .map(|p| (libm::log(p.h), libm::log(p.error)))
            .collect();
        if xy.len() < 2 {
            return None;
        }
        let n = xy.len() as f64;
        let (mx, my) = xy
            .iter()
            .fold((0.0, 0.0), |(a, b), (x, y)| (a + x / n, b + y / n));
        let (sxy, sxx) = xy.iter().fold((0.0, 0.0), |(a, b), (x, y)| {
            (a + (x - mx) * (y - my), b + (x - mx) * (x - mx))
        });
        Some(sxy / sxx)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Sweep {
    pub t_end: f64,
    pub lines: Vec<Line>,
}

/// The step sizes: `levels` of them, halving from `h_max`, each dividing `t_end` into a
/// whole number of steps.
pub fn step_sizes(t_end: f64, h_max: f64, levels: usize) -> Vec<f64> {
    let coarsest = (t_end / h_max).ceil().max(1.0);
    (0..levels)
        .map(|k| t_end / (coarsest * libm::ldexp(1.0, k as i32)))
        .collect()
}

/// Why a world cannot be swept, if it cannot.
pub fn check(world: &World) -> Result<(), String> {
    if world.analytic_applies() {
        Ok(())
    } else {
        Err(format!(
            "the sweep measures errors against the exact torque-free solution, which needs a single body without frames or contacts; this scene has {} bodies, {} frames{}",
            world.bodies().len(),
            world.frames().len(),
            if world.contacts().is_some() {
                " and contacts"
            } else {
                ""
            }
        ))
    }
}

/// `None` if the exact reference covers a sweep of `t_end` on a sweepable `world`, else
/// the longest it covers: it turns the body by at most [`MAX_STEP_ANGLE`] in one
/// evaluation. The turn is reckoned as the reference reckons it, and the longest is
/// shaded down by a part in 10⁹, so that sweeping the duration given is accepted.
pub fn too_long(world: &World, t_end: f64) -> Option<f64> {
    let body = &world.bodies()[0];
    let rate = (body.state.body_momentum() / body.props.inertia.principal()).length();
    (rate * t_end > MAX_STEP_ANGLE).then(|| MAX_STEP_ANGLE / rate * (1.0 - 1e-9))
}

/// Sweeps every integrator over `step_sizes`, timing the runs with the caller's clock
/// `now`, calling `progress(done, total)` after each run.
pub fn sweep(
    world: &World,
    integrators: &[Integrator],
    t_end: f64,
    step_sizes: &[f64],
    now: Now,
    mut progress: impl FnMut(usize, usize),
) -> Result<Sweep, String> {
    check(world)?;
    if let Some(most) = too_long(world, t_end) {
        return Err(format!(
            "a sweep of {t_end} s is longer than its exact reference covers on this scene: at most {most} s, a turn of {MAX_STEP_ANGLE:e} rad"
        ));
    }
    let body = &world.bodies()[0];
    let inertia = body.props.inertia.principal();
    let omega0 = body.state.body_omega(&body.props);
    let top = TorqueFreeTop::new(inertia, omega0);
    let exact_q = body.state.orientation
        * free_flow(inertia, body.state.body_momentum(), t_end).map_err(|e| e.to_string())?;
    let exact_w = top.omega(t_end);
    let total = integrators.len() * step_sizes.len();
    let mut lines = Vec::with_capacity(integrators.len());
    for (i, &integrator) in integrators.iter().enumerate() {
        let mut line = Line {
            integrator,
            points: Vec::new(),
            failures: Vec::new(),
        };
        for (k, &h) in step_sizes.iter().enumerate() {
            let steps = (t_end / h).round().max(1.0) as u64;
            match run(body, integrator, h, steps, now) {
                Ok((q, w, substeps, ns)) => {
                    let error = quat::log(q.inverse() * exact_q).length()
                        + norm::length(w - exact_w) / norm::length(exact_w).max(f64::MIN_POSITIVE);
                    if error.is_finite() {
                        line.points.push(Point {
                            h,
                            steps,
                            error,
                            ns_per_simulated_second: ns / t_end,
                            substeps,
                        });
                    } else {
                        line.failures
                            .push((h, format!("the error is not finite ({error})")));
                    }
                }
                Err(e) => line.failures.push((h, e)),
            }
            progress(i * step_sizes.len() + k + 1, total);
        }
        lines.push(line);
    }
    Ok(Sweep { t_end, lines })
}

/// The final attitude and body ω of `steps` steps of `h`, the most sub-steps of a step,
/// and the fastest wall time of the runs in ns.
fn run(
    body: &crate::body::Body,
    integrator: Integrator,
    h: f64,
    steps: u64,
    now: Now,
) -> Result<(DQuat, glam::DVec3, u32, f64), String> {
    let mut fastest = f64::INFINITY;
    let mut spent = 0.0;
    // A clock that does not move (a coarse one, on a short run) ends the repeats too.
    for repeat in 1..=MOST_REPEATS {
        let mut s = body.state;
        let mut substeps = 1;
        let start = now();
        for n in 0..steps {
            let info = integrator
                .step(&body.props, &mut s, Default::default(), h)
                .map_err(|e| format!("step {} (t = {:.4} s): {e}", n + 1, n as f64 * h))?;
            substeps = substeps.max(info.safe_substeps);
        }
        let ns = (now() - start) * 1e9;
        fastest = fastest.min(ns);
        spent += ns;
        if spent >= TIMING_BUDGET_NS || repeat == MOST_REPEATS {
            return Ok((s.orientation, s.body_omega(&body.props), substeps, fastest));
        }
    }
    unreachable!("the last repeat returns")
}
