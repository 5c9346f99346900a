//! A lesson taken without a window: its runs on a lab set up as the lesson says, and each
//! readout measured where it stands, beside the value the lesson states.

use std::fmt;

use super::schema::{Axis, Lesson, Quantity, Step};
use super::swing;
use super::tolerance::Tolerance;
use super::walk::Walk;
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

/// The columns of a lesson's CSV (`gyrolab lesson --out`, the app's *export readouts*):
/// one row per question answered and per readout taken, in the lesson's order.
pub const CSV_COLUMNS: [&str; 17] = [
    "lesson",
    "step",
    "kind",
    "time",
    "text",
    "answer",
    "right",
    "quantity",
    "unit",
    "measured",
    "stated",
    "tolerance",
    "tolerance_is",
    "stated_is",
    "theory_value",
    "theory",
    "agrees",
];

/// The walk's answers and readouts as CSV with a header, written with the `csv` crate as
/// `simulate`'s records are (RFC 4180 quoting). Each row carries the lesson's title, so
/// that a sheet of several lessons' rows stays readable; a question's row the student's
/// choice and whether it was right; a readout's row the time it was taken, the value
/// measured, the value stated with its tolerance, and theory's value and text. An empty
/// field where nothing was measured, theory gives no value or the row's kind has none.
pub fn write_csv(walk: &Walk, out: impl std::io::Write) -> std::io::Result<()> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record(CSV_COLUMNS)?;
    let title = walk.lesson.title.as_str();
    for (k, step) in walk.lesson.steps.iter().enumerate() {
        let row = match (step, walk.answers[k], &walk.measured[k]) {
            (
                Step::Question {
                    text,
                    choices,
                    answer,
                },
                Some(chosen),
                _,
            ) => {
                let right = (chosen == *answer).to_string();
                let said = [text.as_str(), &choices[chosen], &right];
                question_row(title, k, said)
            }
            (Step::Readout { theory, .. }, _, Some(m)) => readout_row(title, m, theory),
            _ => continue,
        };
        w.write_record(&row)?;
    }
    w.flush()
}

/// A question's row: its text, the choice made and whether it was right.
fn question_row(title: &str, step: usize, [text, answer, right]: [&str; 3]) -> Vec<String> {
    let mut row = vec![String::new(); CSV_COLUMNS.len()];
    row[..7].clone_from_slice(&[
        title.into(),
        (step + 1).to_string(),
        "question".into(),
        String::new(),
        text.into(),
        answer.into(),
        right.into(),
    ]);
    row
}

/// A readout's row.
fn readout_row(title: &str, m: &Measured, theory: &str) -> Vec<String> {
    let number = |x: Option<f64>| x.map_or(String::new(), |x| significant(x, SIGNIFICANT));
    let tolerance_is = if m.tolerance.is_absolute() {
        "absolute"
    } else {
        "relative"
    };
    let stated_is = if m.stated_measured {
        "measured by this build"
    } else {
        "given"
    };
    vec![
        title.into(),
        (m.step + 1).to_string(),
        "readout".into(),
        significant(m.time, SIGNIFICANT),
        String::new(),
        String::new(),
        String::new(),
        m.quantity.to_string(),
        m.quantity.unit().trim().into(),
        number(m.measured),
        m.stated.to_string(),
        m.within(),
        tolerance_is.into(),
        stated_is.into(),
        number(m.theory),
        theory.into(),
        m.agrees().to_string(),
    ]
}

/// The significant figures a measured or computed number is written with: more than any
/// lesson's tolerance resolves (the finest shipped is 0.5%), and few enough that the
/// last digits of a float's rounding (4.905000000000004) do not pass for measurement.
const SIGNIFICANT: usize = 6;

/// `x` rounded to `digits` significant figures, written without trailing zeros: plain
/// from 1e-4 up to where a whole number has `digits` figures, in exponent form outside.
fn significant(x: f64, digits: usize) -> String {
    if x == 0.0 || !x.is_finite() {
        return x.to_string();
    }
    let exponent = x.abs().log10().floor() as i32;
    if (-4..digits as i32).contains(&exponent) {
        let decimals = (digits as i32 - 1 - exponent).max(0) as usize;
        let text = format!("{x:.decimals$}");
        let trimmed = match text.contains('.') {
            true => text.trim_end_matches('0').trim_end_matches('.'),
            false => &text,
        };
        trimmed.to_string()
    } else {
        let text = format!("{x:.*e}", digits - 1);
        let (mantissa, power) = text.split_once('e').unwrap_or((&text, "0"));
        let mantissa = match mantissa.contains('.') {
            true => mantissa.trim_end_matches('0').trim_end_matches('.'),
            false => mantissa,
        };
        format!("{mantissa}e{power}")
    }
}

/// Sets up a lab as `lesson` says and walks it through: each run taken, each readout
/// measured as it is reached, every question answered right.
pub fn run(lesson: &Lesson) -> Result<Vec<Measured>, String> {
    Ok(walk_through(lesson)?
        .measured
        .into_iter()
        .flatten()
        .collect())
}

/// The walk of [`run`], answers and all (what the CSV writes).
pub fn walk_through(lesson: &Lesson) -> Result<Walk, String> {
    let scene = lesson.scene().map_err(|e| e.to_string())?;
    let mut lab = Lab::new(scene);
    let mut walk = Walk::start(lesson.clone(), &mut lab)?;
    while walk.step().is_some() {
        match walk.step() {
            Some(Step::Question { answer, .. }) => walk.answer(*answer),
            Some(Step::Run { until, event }) => walk
                .run_out(&mut lab, *until, event.as_ref())
                .map_err(|e| format!("{}: {e}", lesson.origin))?,
            _ => {}
        }
        let at = walk.at;
        walk.next(&mut lab)?;
        if walk.at == at {
            break;
        }
    }
    Ok(walk)
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
            let body = lane.and_then(|i| lab.lanes()[i].world().bodies.first());
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
    let bodies = &lab.lanes()[lane].world().bodies;
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
    let index = (lab.lanes()[0].world().bodies.iter()).position(|b| b.name == body)?;
    let states = lab.recorders().recording().states_of(0, index, lab.time());
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

#[cfg(test)]
mod tests {
    use super::significant;

    #[test]
    fn numbers_are_written_to_six_significant_figures() {
        let cases = [
            (4.905000000000004, "4.905"),
            (2.3375, "2.3375"),
            (-0.251234567, "-0.251235"),
            (1234567.0, "1.23457e6"),
            (123456.7, "123457"),
            (0.000123456789, "0.000123457"),
            (1.5e-10, "1.5e-10"),
            (-2.0e20, "-2e20"),
            (0.0, "0"),
            (7.0, "7"),
        ];
        for (x, text) in cases {
            assert_eq!(significant(x, 6), text, "{x}");
        }
    }
}
