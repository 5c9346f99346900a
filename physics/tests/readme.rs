//! The crate README's claims, checked: its code is the example's, and on the `clamp-drift`
//! spin the midpoint rule keeps `L` to round-off and the energy bounded, while the
//! momentum clamp keeps `|L|` but turns `L`, lifts the energy to `L²/2I₂` and turns the
//! box over. No timing is checked here: times depend on the machine.

#[path = "../examples/midpoint_vs_clamp.rs"]
mod example;

use example::{STEPS, drift, momentum_and_energy, spinning_box};
use gyrolab_physics::integrators::Integrator;

const README: &str = include_str!("../README.md");
const EXAMPLE: &str = include_str!("../examples/midpoint_vs_clamp.rs");

/// The rotational energy `L²/2I₂` of a spin about the intermediate axis with the box's
/// `|L|`, over the box's energy at the start: the separatrix the clamp drifts to.
fn separatrix_over_start() -> f64 {
    let body = spinning_box();
    let (l, e) = momentum_and_energy(&body);
    let i2 = body.props.inertia.principal().y;
    l.length_squared() / (2.0 * i2) / e
}

#[test]
fn the_readme_code_is_the_examples() {
    let block = README
        .split("```rust")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("a rust block in README.md");
    let example: Vec<&str> = EXAMPLE.lines().map(str::trim).collect();
    let lines: Vec<&str> = block
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    assert!(lines.len() > 10, "{lines:?}");
    for line in lines {
        assert!(
            example.contains(&line),
            "README line not in the example: {line}"
        );
    }
}

#[test]
fn midpoint_keeps_l_to_round_off_and_the_energy_bounded() {
    let whole = drift(Integrator::Midpoint, STEPS);
    // Two conversions a step, about an ulp each: 3600 steps stay far below 1e-11.
    assert!(whole.momentum < 1e-11, "{whole:?}");
    assert!(whole.energy < 1e-6, "{whole:?}");
    // The spin stays within a degree of its largest axis.
    assert!(whole.tilt_degrees < 1.0, "{whole:?}");
    // No drift: the second half of the run adds nothing to the first half's worst.
    let half = drift(Integrator::Midpoint, STEPS / 2);
    assert!(whole.energy <= 1.05 * half.energy, "{half:?} {whole:?}");
}

#[test]
fn the_clamp_keeps_only_the_size_of_l_and_drifts_to_the_separatrix() {
    let separatrix = separatrix_over_start();
    // "30% above the start".
    assert!((separatrix - 1.3).abs() < 0.01, "{separatrix}");
    let clamp = drift(Integrator::MomentumClamp, STEPS);
    assert!(clamp.momentum > 0.1, "{clamp:?}");
    assert!(
        (clamp.energy - (separatrix - 1.0)).abs() < 0.01,
        "{clamp:?} {separatrix}"
    );
    // Turned over: the largest axis more than a right angle from L.
    assert!(clamp.tilt_degrees > 90.0, "{clamp:?}");

    // |L| itself, the clamp's invariant, stays to round-off at every step.
    assert!(clamp.size < 1e-11, "{clamp:?}");
}

/// The example runs to its end: its figures printed, nothing failing.
#[test]
fn the_example_runs() {
    example::main();
}
