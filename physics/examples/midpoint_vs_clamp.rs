//! Another engine's body, its rotation stepped by gyrolab's implicit midpoint rule, beside
//! the momentum clamp of PhysX, Jolt, avian and rapier: time per body-step, and what each
//! does to a stable spin over a minute (the `clamp-drift` scene of gyrolab: a 2 kg box of
//! half extents 0.3 × 0.2 × 0.1 m spinning at 18 rad/s nearly about its largest axis,
//! stepped at 60 Hz). Run: `cargo run --release -p gyrolab-physics --example midpoint_vs_clamp`.

use std::hint::black_box;
use std::time::Instant;

use glam::{DQuat, DVec3};
use gyrolab_physics::body::inertia::{Inertia, Shape};
use gyrolab_physics::body::{BodyState, MassProps};
use gyrolab_physics::integrators::{Integrator, Loads, StepError, StepInfo};

/// The scene's step, s.
pub const DT: f64 = 1.0 / 60.0;
/// The scene's duration in steps: 60 s.
pub const STEPS: usize = 3600;

/// What one integrator did to the spin over the run, each the largest over all steps.
#[derive(Debug)]
pub struct Drift {
    /// `|L − L₀| / |L₀|`, `L` the world angular momentum (a torque-free body keeps it).
    pub momentum: f64,
    /// `||L| / |L₀| − 1|`: the size of `L` alone, which the momentum clamp keeps.
    pub size: f64,
    /// `|E − E₀| / E₀`.
    pub energy: f64,
    /// Angle between the body's largest axis (body z) and `L`, degrees.
    pub tilt_degrees: f64,
}

/// The engine's own body, as engines keep it: mass properties in the principal frame,
/// an orientation and a world angular velocity.
#[derive(Clone)]
pub struct EngineBody {
    /// Mass and principal moments.
    pub props: MassProps,
    /// Principal body frame → world.
    pub orientation: DQuat,
    /// World angular velocity, rad/s.
    pub omega: DVec3,
}

/// The `clamp-drift` box: spinning at (0.2, 0.2, 18) rad/s in body axes.
pub fn spinning_box() -> EngineBody {
    let mass = 2.0;
    let shape = Shape::Box {
        half_extents: DVec3::new(0.3, 0.2, 0.1),
    };
    let inertia = Inertia::new(shape.inertia_tensor(mass).diagonal()).unwrap();
    EngineBody {
        props: MassProps { mass, inertia },
        orientation: DQuat::IDENTITY,
        omega: DVec3::new(0.2, 0.2, 18.0),
    }
}

/// One step of a body's rotation: its orientation (principal frame → world) and world ω in
/// and out; on an error both are left as they were.
pub fn step_rotation(
    integrator: Integrator, // Integrator::Midpoint
    props: &MassProps,
    orientation: &mut DQuat,
    omega: &mut DVec3,
    torque: DVec3,
    dt: f64,
) -> Result<StepInfo, StepError> {
    let body_omega = orientation.inverse() * *omega;
    let mut state = BodyState::from_body_omega(props, *orientation, body_omega); // L = R I Rᵀ ω
    let loads = Loads {
        force: DVec3::ZERO,
        torque,
    };
    let info = integrator.step(props, &mut state, loads, dt)?;
    *orientation = state.orientation;
    *omega = state.world_omega(props); // ω = R I⁻¹ Rᵀ L
    Ok(info)
}

impl EngineBody {
    /// One torque-free step of `integrator` through [`step_rotation`].
    pub fn step(&mut self, integrator: Integrator) -> Result<StepInfo, StepError> {
        let (props, orientation, omega) = (&self.props, &mut self.orientation, &mut self.omega);
        step_rotation(integrator, props, orientation, omega, DVec3::ZERO, DT)
    }
}

/// World angular momentum `L = R I Rᵀ ω` and rotational energy `½ ω·L` of the body.
pub fn momentum_and_energy(body: &EngineBody) -> (DVec3, f64) {
    let body_omega = body.orientation.inverse() * body.omega;
    let body_l = body.props.inertia.principal() * body_omega;
    (body.orientation * body_l, 0.5 * body_omega.dot(body_l))
}

/// Runs `steps` steps of `integrator` on the box and measures the drift.
pub fn drift(integrator: Integrator, steps: usize) -> Drift {
    let mut body = spinning_box();
    let (l0, e0) = momentum_and_energy(&body);
    let mut worst = Drift {
        momentum: 0.0,
        size: 0.0,
        energy: 0.0,
        tilt_degrees: 0.0,
    };
    for _ in 0..steps {
        body.step(integrator).unwrap();
        let (l, e) = momentum_and_energy(&body);
        let tilt = (body.orientation * DVec3::Z).angle_between(l).to_degrees();
        worst.momentum = worst.momentum.max((l - l0).length() / l0.length());
        worst.size = worst.size.max((l.length() / l0.length() - 1.0).abs());
        worst.energy = worst.energy.max((e - e0).abs() / e0);
        worst.tilt_degrees = worst.tilt_degrees.max(tilt);
    }
    worst
}

/// Wall time of one body-step through [`step_rotation`], in nanoseconds: the mean over
/// `steps` steps, the least of five such runs (the one least disturbed by other work).
pub fn nanos_per_step(integrator: Integrator, steps: usize) -> f64 {
    (0..5)
        .map(|_| {
            let mut body = spinning_box();
            let start = Instant::now();
            for _ in 0..steps {
                body.step(black_box(integrator)).unwrap();
            }
            black_box(&body);
            start.elapsed().as_nanos() as f64 / steps as f64
        })
        .fold(f64::INFINITY, f64::min)
}

pub fn main() {
    println!(
        "{STEPS} steps of 1/60 s    ns/step   max |L - L0|/|L0|   max |E/E0 - 1|   max tilt of body z from L"
    );
    for integrator in [Integrator::Midpoint, Integrator::MomentumClamp] {
        let ns = nanos_per_step(integrator, 200_000);
        let d = drift(integrator, STEPS);
        println!(
            "{:<16}  {ns:>12.1}   {:>17.2e}   {:>14.2e}   {:>24.2}°",
            integrator.name(),
            d.momentum,
            d.energy,
            d.tilt_degrees
        );
    }
}
