//! The `clamp-drift` scene: the engines' momentum clamp drifts a stable spin's energy up
//! to `L²/2I₂` and the body turns over within the scene's duration; midpoint keeps the
//! energy and never turns over.

use gyrolab::integrators::Integrator;
use gyrolab::lab::lane::Lane;
use gyrolab::lab::metrics::separatrix_ratio;
use gyrolab::scene::Scene;

/// `E/(L²/2I₂)` at each whole second, and the run at the end of the scene.
fn run(integrator: Integrator) -> (Vec<f64>, Lane) {
    let scene = Scene::load("clamp-drift").unwrap();
    let mut run = Lane::new(scene.build(), integrator);
    let steps_per_second = (1.0 / scene.dt).round() as usize;
    let mut ratios = Vec::new();
    for k in 1..=(scene.duration / scene.dt).round() as usize {
        run.advance(scene.dt).unwrap();
        if k % steps_per_second == 0 {
            let body = &run.world().bodies()[0];
            ratios.push(separatrix_ratio(&body.props, &body.state).unwrap());
        }
    }
    (ratios, run)
}

#[test]
fn the_clamp_rises_to_the_separatrix_and_flips_while_midpoint_does_not() {
    let scene = Scene::load("clamp-drift").unwrap();
    let world = scene.build();
    let body = &world.bodies()[0];
    let start = separatrix_ratio(&body.props, &body.state).unwrap();
    // A stable spin about the major axis: well below the separatrix.
    assert!((0.7..0.8).contains(&start), "{start}");

    let (clamp, clamp_run) = run(Integrator::MomentumClamp);
    // Rising: above 0.97 within 5 s, and never far from 1 after.
    assert!(clamp[4] > 0.97, "{:?}", &clamp[..6]);
    assert!(clamp[0] > start && clamp[1] > clamp[0] && clamp[2] > clamp[1]);
    assert!(
        clamp[10..].iter().all(|r| (r - 1.0).abs() < 0.01),
        "{clamp:?}"
    );
    let flips = clamp_run.flips().flips();
    assert!(flips >= 1, "the clamp never turned the box over");
    // |L| is what the clamp keeps.
    assert!(
        clamp_run.drift().final_energy > 0.25,
        "{}",
        clamp_run.drift().final_energy
    );

    let (midpoint, midpoint_run) = run(Integrator::Midpoint);
    assert_eq!(midpoint_run.flips().flips(), 0);
    assert!(
        midpoint.iter().all(|r| (r / start - 1.0).abs() < 1e-5),
        "{midpoint:?}"
    );
}
