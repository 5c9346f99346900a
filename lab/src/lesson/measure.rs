//! A lesson's readouts measured on a lab where they stand, beside the value the lesson
//! states.

use std::fmt;

use super::schema::{Axis, Quantity};
use super::swing;
use super::tolerance::Tolerance;
use crate::lab::Lab;
use crate::lab::metrics::separatrix_ratio;

/// One readout: what was measured (none where the run gave nothing to measure, such as
/// a body that never flipped), what theory gives where the lab computes it, and what the
/// lesson states, within its tolerance.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    /// The readout's index among the lesson's steps (from 0; shown from 1).
    pub step: usize,
    /// The lab's time when it was measured, s.
    pub time: f64,
    pub quantity: Quantity,
    pub measured: Option<f64>,
    pub theory: Option<f64>,
    pub stated: f64,
    pub tolerance: Tolerance,
    /// The stated value is this build's measurement, not theory's.
    pub stated_measured: bool,
}

impl Measured {
    /// Whether the measurement is the stated value within the stated tolerance.
    pub fn agrees(&self) -> bool {
        (self.measured).is_some_and(|m| self.tolerance.agrees(m, self.stated))
    }

    /// The tolerance as written: "2%", "1.5 mm".
    pub fn within(&self) -> String {
        self.tolerance.to_string()
    }
}

impl Measured {
    /// A measured or theory's value as shown, to four decimals with its unit, or
    /// "nothing" and why.
    pub fn shown(&self, x: Option<f64>) -> String {
        match x {
            Some(x) => format!("{x:.4}{}", self.quantity.unit()),
            None => format!("nothing ({})", self.quantity.why_nothing()),
        }
    }
}

impl fmt::Display for Measured {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let unit = self.quantity.unit();
        let value = |x: Option<f64>| self.shown(x);
        write!(
            f,
            "step {}, {}: measured {}, stated {}{unit} ± {}",
            self.step + 1,
            self.quantity,
            value(self.measured),
            self.stated,
            self.within()
        )?;
        if self.stated_measured {
            f.write_str(" (measured by this build)")?;
        }
        if self.theory.is_some() {
            write!(f, ", theory {}", value(self.theory))?;
        }
        f.write_str(if self.agrees() {
            ": agrees"
        } else {
            ": DISAGREES"
        })
    }
}

/// The lane that runs `integrator`, or the first (the leftmost) where none is named.
fn lane_index(lab: &Lab, integrator: Option<&str>) -> Option<usize> {
    match integrator {
        None => Some(0),
        Some(name) => (lab.lanes().iter()).position(|r| r.integrator().name() == name),
    }
}

/// The measurement and, where the lab computes it, the theory.
pub(super) fn measure(quantity: &Quantity, lab: &Lab) -> (Option<f64>, Option<f64>) {
    let run = &lab.lanes()[0];
    match quantity {
        Quantity::FlipPeriod => (run.flips().mean_period(), run.analytic_flip_period()),
        Quantity::ApexRatio { body } => (apex_ratio(lab, body), None),
        Quantity::CirclingRate => {
            let last = lab.recorders().dock().circling().samples.last();
            (last.map(|s| s.measured), last.map(|s| s.expected))
        }
        Quantity::EnergyChange { integrator } => {
            let lane = lane_index(lab, Some(integrator));
            (lane.map(|i| lab.lanes()[i].drift().final_energy), None)
        }
        Quantity::SeparatrixRatio { integrator } => {
            let lane = lane_index(lab, Some(integrator));
            let body = lane.and_then(|i| lab.lanes()[i].world().bodies().first());
            (
                body.and_then(|b| separatrix_ratio(&b.props, &b.state)),
                None,
            )
        }
        Quantity::SwingPlanePeriod => {
            let Some(p) = lab.recorders().dock().pendulum() else {
                return (None, None);
            };
            let period = |rate: f64| std::f64::consts::TAU / rate.abs();
            let world = run.world();
            (
                p.meter.rate().map(period),
                Some(period(p.expected_rate(world))),
            )
        }
        Quantity::Time { event } => (event.time(lab), None),
        _ => measure_body(quantity, lab),
    }
}

/// A quantity of one body, on its lane.
fn measure_body(quantity: &Quantity, lab: &Lab) -> (Option<f64>, Option<f64>) {
    let Some(lane) = lane_index(lab, quantity.integrator()) else {
        return (None, None);
    };
    let bodies = &lab.lanes()[lane].world().bodies();
    let named = match quantity.body() {
        Some(name) => bodies.iter().find(|b| b.name == name),
        None => bodies.first(),
    };
    let Some(body) = named else {
        return (None, None);
    };
    let (name, state) = (body.name.as_str(), &body.state);
    match quantity {
        Quantity::Speed { .. } => (Some(state.velocity.length()), None),
        Quantity::Height { .. } => (Some(state.position.y), None),
        Quantity::Position { axis, .. } => (
            Some(match axis {
                Axis::X => state.position.x,
                Axis::Y => state.position.y,
                Axis::Z => state.position.z,
            }),
            None,
        ),
        Quantity::Distance { .. } => (swing::distance(lab, lane, name), None),
        Quantity::SwingPeriod { .. } => (
            swing::swing_period(lab, lane, name),
            swing::pendulum_theory(lab, name),
        ),
        _ => (None, None),
    }
}

/// The first bounce's apex over the drop, as heights above the lowest point, from the
/// first lane's recorded run up to the moment shown: the drop is the start height, an
/// apex where the body's upward velocity ends, the lowest point where it rests. Read
/// from the recording, it follows a reset, a seek and a branch as the run does.
fn apex_ratio(lab: &Lab, body: &str) -> Option<f64> {
    let index = (lab.world().bodies().iter()).position(|b| b.name == body)?;
    let states = lab.recorders().export().states_of(0, index, lab.time());
    let mut peaks = Vec::new();
    let (mut lowest, mut last_vy) = (f64::INFINITY, None::<f64>);
    for (_, s) in states {
        let (y, vy) = (s.position.y, s.velocity.y);
        match last_vy {
            None => peaks.push(y),
            Some(last) if last > 0.0 && vy <= 0.0 => peaks.push(y),
            _ => {}
        }
        (lowest, last_vy) = (lowest.min(y), Some(vy));
    }
    match peaks[..] {
        [drop, first, ..] => Some((first - lowest) / (drop - lowest)),
        _ => None,
    }
}
