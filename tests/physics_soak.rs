//! The soak: every built-in scene for ten simulated minutes with each integrator that
//! applies to it. States stay finite at every step, a failed step included; on the
//! torque-free scenes (no contacts, no frames, no gravity: each body's energy and
//! angular momentum are constants of its motion) each integrator keeps what it promises
//! (`gyrolab integrators`): the exact ones the energy to round-off, the bounded ones an
//! energy error that does not grow after the first minute, the momentum-keeping ones L.
//!
//! Ignored in `cargo test` (it takes many minutes):
//! `cargo test --release --no-default-features --test physics_soak -- --ignored --nocapture`.

use glam::DVec3;
use gyrolab::integrators::Integrator;
use gyrolab::scene::Scene;
use gyrolab::world::World;

/// Simulated seconds per scene and integrator.
const SOAK_SECONDS: f64 = 600.0;

/// What an integrator promises for a torque-free body.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Promise {
    /// L exactly and the energy to round-off.
    Exact,
    /// L exactly; an energy error that is bounded, with no drift.
    Bounded,
    /// |L| at every step; the energy drifts.
    MomentumNorm,
    /// The energy never grows.
    Dissipates,
    /// Nothing: only that it stays finite or stops with an error.
    Nothing,
}

/// Read from each integrator's `conserves` line; a new integrator must be placed here.
fn promise(i: Integrator) -> Promise {
    match i {
        Integrator::ObjectTrapezoid
        | Integrator::Dmv
        | Integrator::Dmv6
        | Integrator::ExactKicks
        | Integrator::Analytic => Promise::Exact,
        Integrator::Midpoint | Integrator::Trapezoid | Integrator::AxisSplit => Promise::Bounded,
        Integrator::MomentumClamp => Promise::MomentumNorm,
        Integrator::ImplicitGyro => Promise::Dissipates,
        Integrator::ExplicitEulerBody
        | Integrator::ExplicitEulerWorld
        | Integrator::SymplecticEuler
        | Integrator::NoGyro
        | Integrator::Rk4
        | Integrator::Magnus => Promise::Nothing,
    }
}

/// Round-off after `steps` steps, growing at worst linearly (2ε per step): the relative
/// energy error the exact methods must stay under, and the relative change of L (or
/// |L|) the momentum-keeping ones must; 2.7e-11 for 60,000 steps.
fn round_off(steps: u64) -> f64 {
    2.0 * f64::EPSILON * steps as f64
}
/// A bounded error may peak later than in the first minute, but not grow: the worst over
/// ten minutes stays within this factor of the worst over the first.
const BOUNDED_GROWTH: f64 = 2.0;

/// Per body: the worst relative energy error over the first minute and over the whole
/// run, the worst relative change of L and of |L|, and the largest energy ratio E/E₀.
#[derive(Clone, Debug, Default)]
struct Drift {
    first_minute: f64,
    whole: f64,
    momentum: f64,
    momentum_norm: f64,
    growth: f64,
}

fn torque_free(world: &World) -> bool {
    world.contacts().is_none()
        && world.frames().is_empty()
        && world.gun().is_none()
        && world.gravity() == DVec3::ZERO
}

fn soak(name: &str) {
    let scene = Scene::load(name).unwrap();
    let start = scene.build();
    let steps = (SOAK_SECONDS / scene.dt).round() as u64;
    let free = torque_free(&start);
    let mut broken = Vec::new();
    for integrator in Integrator::ALL {
        if integrator == Integrator::Analytic && !start.analytic_applies() {
            continue;
        }
        let clock = std::time::Instant::now();
        let mut world = start.clone();
        world.set_integrator(integrator);
        let run = run(&mut world, scene.dt, steps, free, &mut broken, name);
        let worst = |f: fn(&Drift) -> f64| run.drift.iter().map(f).fold(0.0, f64::max);
        println!(
            "{name:<16} {integrator:<18} {:>7} steps in {:>6.1} s  max|dE/E| {:.2e} (first minute {:.2e})  max|dL|/|L| {:.2e}  {}",
            run.done,
            clock.elapsed().as_secs_f64(),
            worst(|d| d.whole),
            worst(|d| d.first_minute),
            worst(|d| d.momentum),
            run.stopped.as_deref().unwrap_or("")
        );
        let promised = promise(integrator);
        if promised != Promise::Nothing
            && let Some(why) = &run.stopped
        {
            broken.push(format!("{name} {integrator}: {why}"));
        }
        if free {
            let at = |b: &str| format!("{name} {integrator} body '{b}'");
            for (b, d) in world.bodies().iter().zip(&run.drift) {
                broken.extend(
                    judge(promised, d, round_off(steps))
                        .map(|why| format!("{}: {why}", at(&b.name))),
                );
            }
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

/// What one integrator's run of a scene did: its bodies' drift (torque-free scenes), the
/// steps done, and the error that stopped it.
struct Outcome {
    drift: Vec<Drift>,
    done: u64,
    stopped: Option<String>,
}

/// Steps `world` up to `steps` times, stopping at a failed step or a state that is not
/// finite (reported in `broken`), and follows each body's drift when `free`.
fn run(
    world: &mut World,
    dt: f64,
    steps: u64,
    free: bool,
    broken: &mut Vec<String>,
    name: &str,
) -> Outcome {
    let e0: Vec<f64> = world
        .bodies()
        .iter()
        .map(|b| b.energy(world.gravity()))
        .collect();
    let l0: Vec<DVec3> = world
        .bodies()
        .iter()
        .map(|b| b.state.angular_momentum)
        .collect();
    let mut out = Outcome {
        drift: vec![Drift::default(); world.bodies().len()],
        done: 0,
        stopped: None,
    };
    for k in 1..=steps {
        let stepped = world.advance(dt);
        if let Some(b) = world.bodies().iter().find(|b| !b.state.is_finite()) {
            broken.push(format!(
                "{name} {}: body '{}' not finite at step {k}: {:?}",
                world.integrator(),
                b.name,
                b.state
            ));
            break;
        }
        if let Err(e) = stepped {
            out.stopped = Some(format!(
                "stopped at step {k} (t = {:.2} s): {e}",
                world.time()
            ));
            break;
        }
        out.done = k;
        if free {
            let first_minute = world.time() <= 60.0;
            for ((b, d), (e0, l0)) in world
                .bodies()
                .iter()
                .zip(&mut out.drift)
                .zip(e0.iter().zip(&l0))
            {
                d.add(
                    b.energy(world.gravity()),
                    *e0,
                    b.state.angular_momentum,
                    *l0,
                    first_minute,
                );
            }
        }
    }
    out
}

impl Drift {
    /// Takes in one step's energy `e` and momentum `l` against their starting values.
    fn add(&mut self, e: f64, e0: f64, l: DVec3, l0: DVec3, first_minute: bool) {
        let error = ((e - e0) / e0).abs();
        self.whole = self.whole.max(error);
        if first_minute {
            self.first_minute = self.first_minute.max(error);
        }
        self.growth = self.growth.max(e / e0);
        self.momentum = self.momentum.max((l - l0).length() / l0.length());
        self.momentum_norm = self
            .momentum_norm
            .max((l.length() - l0.length()).abs() / l0.length());
    }
}

/// How a body's drift breaks what its integrator promised, if it does.
fn judge(promised: Promise, d: &Drift, tolerance: f64) -> Option<String> {
    match promised {
        Promise::Exact if d.whole > tolerance || d.momentum > tolerance => {
            Some(format!("|dE/E| {:e}, |dL|/|L| {:e}", d.whole, d.momentum))
        }
        Promise::Bounded
            if d.whole > BOUNDED_GROWTH * d.first_minute + tolerance || d.momentum > tolerance =>
        {
            Some(format!(
                "|dE/E| {:e} after the first minute's {:e}, |dL|/|L| {:e}",
                d.whole, d.first_minute, d.momentum
            ))
        }
        Promise::MomentumNorm if d.momentum_norm > tolerance => {
            Some(format!("||L| - |L0||/|L0| {:e}", d.momentum_norm))
        }
        Promise::Dissipates if d.growth > 1.0 + tolerance => {
            Some(format!("the energy grew to {} E0", d.growth))
        }
        _ => None,
    }
}

/// One ignored test per built-in scene, so they run in parallel and one can be picked.
macro_rules! soaks {
    ($($test:ident: $scene:literal,)*) => {
        $(
            #[test]
            #[ignore = "the soak: cargo test --release --test physics_soak -- --ignored --nocapture"]
            fn $test() {
                soak($scene);
            }
        )*
        const SOAKED: &[&str] = &[$($scene),*];
    };
}

soaks! {
    soak_dzhanibekov: "dzhanibekov",
    soak_free_body: "free-body",
    soak_tennis_racket: "tennis-racket",
    soak_clamp_drift: "clamp-drift",
    soak_tumbling_crowd: "tumbling-crowd",
    soak_tank: "tank",
    soak_carousel: "carousel",
    soak_foucault: "foucault",
    soak_crash: "crash",
    soak_turntable: "turntable",
    soak_top_on_turntable: "top-on-turntable",
    soak_dancing_pole: "dancing-pole",
    soak_spinning_top: "spinning-top",
    soak_stack: "stack",
    soak_pyramid: "pyramid",
    soak_newtons_cradle: "newtons-cradle",
    soak_incline: "incline",
    soak_bounce: "bounce",
    soak_dominoes: "dominoes",
    soak_pile: "pile",
    soak_slider_crank: "slider-crank",
    soak_chain: "chain",
    soak_wrecking_ball: "wrecking-ball",
    soak_elastic_pendulum: "elastic-pendulum",
    soak_truck: "truck",
    soak_space_pole: "space-pole",
    soak_pendulum: "pendulum",
}

/// A new built-in scene must join the soak.
#[test]
fn the_soak_covers_every_built_in_scene() {
    let mut soaked = SOAKED.to_vec();
    let mut builtin = gyrolab::scene::scene_names();
    soaked.sort();
    builtin.sort();
    assert_eq!(soaked, builtin);
}
