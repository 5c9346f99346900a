//! Why a run failed, in the user's terms: which body, which quantity blew up, and whether
//! the time step or the input's magnitude is to blame.
//!
//! A step is resolved when it turns a body by less than a radian and moves it by less
//! than its own size; the longest such step follows from the body's state at the start
//! and gravity: `h = min(1/|ω₀|, r/|v₀|, √(r/|g|))`. Against it:
//! - no step of a useful length resolves the start (`h` below [`SHORTEST_USEFUL_STEP`]):
//!   the input's magnitude is to blame;
//! - the step taken is longer than `h`: the time step is to blame;
//! - otherwise the step resolved the start and the quantity grew during the run: the
//!   integration (or the contacts) went unstable.

use std::fmt;

use glam::DVec3;

use crate::body::Body;
use crate::integrators::StepError;
use crate::math::norm;
use crate::world::World;

/// A time step shorter than this is no remedy: 1e8 steps of it (the CLI's limit) cover
/// 100 s.
pub const SHORTEST_USEFUL_STEP: f64 = 1e-6;

/// A quantity of one body that a run can blow up (a name apart from what a lesson
/// measures, [`crate::lesson::schema::Quantity`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BlownUp {
    AngularVelocity,
    Velocity,
    Position,
    AngularMomentum,
    Orientation,
    Energy,
}

impl BlownUp {
    /// In the order a failure is blamed on: a non-finite momentum shows as a non-finite
    /// angular velocity first, a velocity before the energy it makes overflow.
    const ALL: [Self; 6] = [
        Self::AngularVelocity,
        Self::Velocity,
        Self::Position,
        Self::AngularMomentum,
        Self::Orientation,
        Self::Energy,
    ];

    fn name(self) -> &'static str {
        match self {
            Self::AngularVelocity => "angular velocity",
            Self::Velocity => "velocity",
            Self::Position => "position",
            Self::AngularMomentum => "angular momentum",
            Self::Orientation => "orientation",
            Self::Energy => "energy",
        }
    }

    /// `(symbol, unit)` as printed.
    fn symbol(self) -> (&'static str, &'static str) {
        match self {
            Self::AngularVelocity => ("|ω|", "rad/s"),
            Self::Velocity => ("|v|", "m/s"),
            Self::Position => ("|x|", "m"),
            Self::AngularMomentum => ("|L|", "kg·m²/s"),
            Self::Orientation => ("|q|", ""),
            Self::Energy => ("E", "J"),
        }
    }

    fn of(self, body: &Body, gravity: DVec3) -> f64 {
        let s = &body.state;
        match self {
            Self::AngularVelocity => norm::length(s.world_omega(&body.props)),
            Self::Velocity => norm::length(s.velocity),
            Self::Position => norm::length(s.position),
            Self::AngularMomentum => norm::length(s.angular_momentum),
            Self::Orientation => s.orientation.length(),
            Self::Energy => body.energy(gravity),
        }
    }

    fn show(self, value: f64) -> String {
        let (symbol, unit) = self.symbol();
        format!("{symbol} = {value:.2e} {unit}")
            .trim_end()
            .to_owned()
    }
}

/// A failed run explained.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnosis {
    /// The body to blame.
    pub body: usize,
    pub name: String,
    /// What went wrong, e.g. `angular velocity overflowed (|ω| = 1.20e160 rad/s)`.
    pub what: String,
    /// The likely cause, when one can be named.
    pub cause: Option<String>,
}

impl Diagnosis {
    /// The one line a user sees: the body, the step, the time, what and why.
    pub fn message(&self, step: u64, time: f64) -> String {
        let mut line = format!(
            "body '{}' at step {step} (t = {time:.3} s): {}",
            self.name, self.what
        );
        if let Some(cause) = &self.cause {
            line.push_str(": ");
            line.push_str(cause);
        }
        line
    }
}

impl fmt::Display for Diagnosis {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "body '{}': {}", self.name, self.what)?;
        if let Some(cause) = &self.cause {
            write!(f, ": {cause}")?;
        }
        Ok(())
    }
}

/// The first body with a quantity that is not finite, and that quantity.
fn first_non_finite(world: &World) -> Option<(usize, BlownUp)> {
    world.bodies().iter().enumerate().find_map(|(i, b)| {
        BlownUp::ALL
            .into_iter()
            .find(|q| !q.of(b, world.gravity()).is_finite())
            .map(|q| (i, q))
    })
}

/// A body's size for "moved by more than itself": its bounding radius, 1 m without parts.
fn size(body: &Body) -> f64 {
    let r = body.radius();
    if r > 0.0 { r } else { 1.0 }
}

/// How much of a step of `dt` the body's motion takes: the angle turned (rad) and the
/// distance moved in body sizes, whichever is larger, and which quantity that is.
fn per_step(body: &Body, dt: f64) -> (f64, BlownUp) {
    let turn = norm::length(body.state.world_omega(&body.props)) * dt;
    let shift = norm::length(body.state.velocity) * dt / size(body);
    if turn >= shift {
        (turn, BlownUp::AngularVelocity)
    } else {
        (shift, BlownUp::Velocity)
    }
}

/// `Ok` when every body's state, spin and energy are finite; otherwise why not.
pub fn check(world: &World, start: &World, dt: f64) -> Result<(), Diagnosis> {
    match first_non_finite(world) {
        None => Ok(()),
        Some(_) => Err(diagnose(world, start, dt, None)),
    }
}

/// Explains why `world` failed: a state or an output value that is not finite, or a step
/// refused with `error` (`None`: a value was found not finite before it was written).
/// `start` is the world at the start of the run and `dt` the step.
pub fn diagnose(world: &World, start: &World, dt: f64, error: Option<&StepError>) -> Diagnosis {
    let (body, quantity, what) = match (first_non_finite(world), error) {
        (Some((i, q)), _) => {
            let value = q.of(&world.bodies()[i], world.gravity());
            (i, q, format!("{} overflowed ({})", q.name(), q.show(value)))
        }
        (None, error) => {
            // Every value is finite: the step was refused. Blame the body the step
            // asked most of.
            let (i, (_, q)) = world
                .bodies()
                .iter()
                .map(|b| per_step(b, dt))
                .enumerate()
                .max_by(|a, b| a.1.0.total_cmp(&b.1.0))
                .unwrap_or((0, (0.0, BlownUp::AngularVelocity)));
            let value = q.of(&world.bodies()[i], world.gravity());
            let what = match error {
                Some(StepError::NonFinite) | None => {
                    format!("{} overflowed in the step ({})", q.name(), q.show(value))
                }
                Some(e) => format!("{e} ({})", q.show(value)),
            };
            (i, q, what)
        }
    };
    let b = &world.bodies()[body];
    Diagnosis {
        body,
        name: b.name.clone(),
        what,
        cause: cause(b, start.bodies().get(body), start.gravity(), dt, quantity),
    }
}

/// The likely cause for `body` (now) that started as `start`.
fn cause(
    body: &Body,
    start: Option<&Body>,
    gravity: DVec3,
    dt: f64,
    quantity: BlownUp,
) -> Option<String> {
    let start = start?;
    let r = size(start);
    let omega = norm::length(start.state.world_omega(&start.props));
    let speed = norm::length(start.state.velocity);
    let g = norm::length(gravity);
    // The longest step that resolves each part of the start, with what limits it.
    let limits = [
        (
            1.0 / omega,
            format!("{} at the start", BlownUp::AngularVelocity.show(omega)),
        ),
        (
            r / speed,
            format!("{} at the start", BlownUp::Velocity.show(speed)),
        ),
        ((r / g).sqrt(), format!("a gravity of {g:.2e} m/s²")),
    ];
    let (h, limit) = limits
        .into_iter()
        .filter(|(h, _)| h.is_finite())
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .unwrap_or((f64::INFINITY, String::new()));
    if h < SHORTEST_USEFUL_STEP {
        return Some(format!(
            "the input is too large: {limit} needs a time step below {h:.1e} s; no useful step resolves it"
        ));
    }
    if dt > h {
        return Some(format!(
            "the time step is too large: {limit} needs a time step below {h:.1e} s, got {dt} s"
        ));
    }
    // An energy, momentum or orientation that blew up did so through a spin or a speed:
    // name the one the step asks most of.
    let grown = match quantity {
        BlownUp::AngularVelocity | BlownUp::Velocity | BlownUp::Position => quantity,
        _ => per_step(body, dt).1,
    };
    let (was, now) = (grown.of(start, gravity), grown.of(body, gravity));
    // Growth by less than tenfold is no instability; the cause is then unknown.
    (now > 10.0 * was || now.is_nan()).then(|| {
        format!(
            "the integration went unstable: {} grew from {was:.2e} to {now:.2e} {}; try a smaller time step or a stable integrator (gyrolab integrators)",
            grown.symbol().0,
            grown.symbol().1
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::Scene;

    fn handle() -> World {
        Scene::load("dzhanibekov").unwrap().build()
    }

    fn set_omega(world: &mut World, omega: DVec3) {
        let b = &mut world.bodies_mut()[0];
        b.state.set_world_omega(&b.props, omega);
    }

    /// A spin given at 1e160 rad/s: the input, not the step, is to blame.
    #[test]
    fn a_huge_input_spin_blames_the_input() {
        let mut world = handle();
        set_omega(&mut world, DVec3::new(1e160, 0.0, 0.0));
        let d = diagnose(&world, &world.clone(), 0.01, Some(&StepError::NonFinite));
        assert_eq!((d.body, d.name.as_str()), (0, "t-handle"));
        // ½ω·L = ½·I·1e320 J does not fit in a double.
        assert!(
            d.what.starts_with("energy overflowed (E = inf J)"),
            "{}",
            d.what
        );
        let cause = d.cause.unwrap();
        assert!(cause.starts_with("the input is too large"), "{cause}");
        assert!(
            cause.contains("|ω| = 1.00e160 rad/s at the start"),
            "{cause}"
        );
    }

    /// A spin of 10 rad/s at a step of 1 s turns 10 rad a step: the step is to blame.
    #[test]
    fn a_coarse_step_blames_the_step() {
        let mut world = handle();
        set_omega(&mut world, DVec3::new(0.0, 10.0, 0.0));
        let d = diagnose(&world, &world.clone(), 1.0, Some(&StepError::NonFinite));
        let cause = d.cause.unwrap();
        assert!(cause.starts_with("the time step is too large"), "{cause}");
        assert!(cause.contains("below 1.0e-1 s"), "{cause}");
    }

    /// A spin that grew from 10 to 1e300 rad/s at a step that resolved the start: the
    /// integration went unstable, and the overflowed energy names the spin it came from.
    #[test]
    fn growth_from_a_resolved_start_blames_the_integration() {
        let start = {
            let mut w = handle();
            set_omega(&mut w, DVec3::new(0.0, 10.0, 0.0));
            w
        };
        let mut now = start.clone();
        set_omega(&mut now, DVec3::new(0.0, 1e300, 0.0));
        let d = diagnose(&now, &start, 0.01, None);
        assert!(
            d.what.starts_with("energy overflowed (E = inf J)"),
            "{}",
            d.what
        );
        let cause = d.cause.clone().unwrap();
        assert!(
            cause.starts_with("the integration went unstable"),
            "{cause}"
        );
        assert!(
            cause.contains("|ω| grew from 1.00e1 to 1.00e300 rad/s"),
            "{cause}"
        );
        assert_eq!(
            d.message(312, 3.12),
            format!(
                "body 't-handle' at step 312 (t = 3.120 s): {}: {cause}",
                d.what
            )
        );
    }

    /// Several bodies: a non-finite one is blamed, whatever its place.
    #[test]
    fn the_body_with_the_non_finite_value_is_named() {
        let world = Scene::load("tumbling-crowd").unwrap().build();
        let start = world.clone();
        let mut broken = world;
        broken.bodies_mut()[4].state.velocity = DVec3::new(f64::NAN, 0.0, 0.0);
        let d = diagnose(&broken, &start, 0.01, Some(&StepError::NonFinite));
        assert_eq!(d.body, 4);
        assert!(d.what.starts_with("velocity overflowed"), "{}", d.what);
    }
}
