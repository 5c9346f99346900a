//! The work-precision sweep: its slopes are the integrators' orders, the exact methods sit
//! at round-off, and the default sweep is quick.

use std::time::Instant;

use gyrolab::integrators::Integrator;
use gyrolab::lab::sweep::{self, COARSEST, DEFAULT_INTEGRATORS, LEVELS};
use gyrolab::scene::Scene;

fn sweep_scene(name: &str, integrators: &[Integrator], t_end: f64) -> sweep::Sweep {
    let scene = Scene::load(name).unwrap();
    let steps = sweep::step_sizes(t_end, COARSEST * scene.dt, LEVELS);
    sweep::sweep(
        &scene.build(),
        integrators,
        t_end,
        &steps,
        gyrolab::stopwatch::now,
        |_, _| {},
    )
    .unwrap()
}

/// Over two seconds of the stable free-body spin every consistent method is in its
/// asymptotic regime at these steps, so the fitted slope is its listed order.
#[test]
fn measured_orders_agree_with_the_listed_orders() {
    let integrators: Vec<Integrator> = Integrator::ALL
        .into_iter()
        .filter(|i| *i != Integrator::Analytic && i.info().other_equation.is_none())
        .collect();
    let result = sweep_scene("free-body", &integrators, 2.0);
    for line in &result.lines {
        assert!(
            line.failures.is_empty(),
            "{}: {:?}",
            line.integrator,
            line.failures
        );
        let listed = line.integrator.info().order;
        if listed == 0 {
            let worst = line.points.iter().map(|p| p.error).fold(0.0, f64::max);
            assert!(worst < 1e-12, "{}: {worst:e}", line.integrator);
            assert_eq!(line.measured_order(), None);
            continue;
        }
        let order = line
            .measured_order()
            .unwrap_or_else(|| panic!("{}: no asymptotic points", line.integrator));
        assert!(
            (order - listed as f64).abs() < 0.25,
            "{}: measured {order:.3}, listed {listed}",
            line.integrator
        );
    }
}

/// Cost grows as 1/h: halving the step doubles the ns per simulated second (within the
/// timing noise of a shared machine).
#[test]
fn cost_doubles_when_the_step_halves() {
    let result = sweep_scene("free-body", &[Integrator::Midpoint], 2.0);
    let points = &result.lines[0].points;
    let (coarse, fine) = (&points[2], &points[LEVELS - 1]);
    let ratio = fine.ns_per_simulated_second / coarse.ns_per_simulated_second;
    let expected = coarse.h / fine.h;
    assert!(
        ratio > 0.5 * expected && ratio < 2.0 * expected,
        "cost ratio {ratio} for a step ratio {expected}"
    );
}

/// The default five integrators over the default ten seconds of the Dzhanibekov handle,
/// seven step sizes each, within 2 s on the project's two cores.
#[test]
fn the_default_sweep_finishes_within_two_seconds() {
    let start = Instant::now();
    let result = sweep_scene("dzhanibekov", &DEFAULT_INTEGRATORS, sweep::T_END);
    let took = start.elapsed().as_secs_f64();
    println!("default sweep: {took:.3} s");
    assert_eq!(result.lines.len(), 5);
    assert!(took < 2.0, "{took} s");
}

#[test]
fn scenes_without_an_exact_solution_are_refused_with_the_reason() {
    let world = Scene::load("dzhanibekov").unwrap().build();
    assert!(sweep::check(&world).is_ok());
    let stack = Scene::load("stack").unwrap().build();
    let err = sweep::check(&stack).unwrap_err();
    assert!(err.contains("single body"), "{err}");
}
