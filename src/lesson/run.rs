//! A lesson taken without a window: its runs on a lab set up as the lesson says, and each
//! readout measured where it stands, beside the value the lesson states.

use std::fmt;

use super::schema::{Lesson, Quantity, Step};
use crate::integrators::Integrator;
use crate::lab::Lab;

/// One readout: what was measured (none where the run gave nothing to measure, such as
/// a body that never flipped), what theory gives where the lab computes it, and what the
/// lesson states, within its tolerance.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    /// The readout's index among the lesson's steps.
    pub step: usize,
    pub quantity: Quantity,
    pub measured: Option<f64>,
    pub theory: Option<f64>,
    pub stated: f64,
    pub tolerance: f64,
}

impl Measured {
    /// Whether the measurement is the stated value within the stated tolerance.
    pub fn agrees(&self) -> bool {
        self.measured
            .is_some_and(|m| ((m - self.stated) / self.stated).abs() <= self.tolerance)
    }
}

impl fmt::Display for Measured {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let unit = self.quantity.unit();
        let value = |x: Option<f64>| x.map_or("nothing".into(), |x| format!("{x:.4}{unit}"));
        write!(
            f,
            "steps[{}] {}: measured {}, stated {}{unit} ± {}%",
            self.step,
            self.quantity,
            value(self.measured),
            self.stated,
            100.0 * self.tolerance
        )?;
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

/// Sets up a lab as `lesson` says, takes its runs and measures its readouts in order.
pub fn run(lesson: &Lesson) -> Result<Vec<Measured>, String> {
    let mut lab = Lab::new(lesson.scene().map_err(|e| e.to_string())?);
    if let Some(dt) = lesson.dt {
        lab.set_dt(dt)?;
    }
    if let Some(names) = &lesson.integrators {
        compare(&mut lab, names)?;
    }
    let mut apexes = Apexes::default();
    apexes.record(&lab, lesson);
    let mut out = Vec::new();
    for (step, s) in lesson.steps.iter().enumerate() {
        match s {
            Step::Run { until } => {
                while lab.time() < *until - 0.5 * lab.dt() {
                    lab.step();
                    apexes.record(&lab, lesson);
                }
            }
            Step::Readout {
                quantity,
                stated,
                tolerance,
                ..
            } => {
                let (measured, theory) = measure(quantity, &lab, &apexes);
                out.push(Measured {
                    step,
                    quantity: quantity.clone(),
                    measured,
                    theory,
                    stated: *stated,
                    tolerance: *tolerance,
                });
            }
            Step::Question { .. } | Step::Explain { .. } => {}
        }
    }
    Ok(out)
}

/// Runs exactly `names` side by side (a single-body scene), or the first of them.
fn compare(lab: &mut Lab, names: &[String]) -> Result<(), String> {
    let wanted: Vec<Integrator> = (names.iter())
        .map(|n| n.parse::<Integrator>().map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    if !lab.side_by_side() {
        return wanted.first().map_or(Ok(()), |&i| lab.switch_integrator(i));
    }
    for &i in &wanted {
        lab.set_compared(i, true)?;
    }
    for i in lab.compared().to_vec() {
        if !wanted.contains(&i) {
            lab.set_compared(i, false)?;
        }
    }
    Ok(())
}

/// The measurement and, where the lab computes it, the theory.
fn measure(quantity: &Quantity, lab: &Lab, apexes: &Apexes) -> (Option<f64>, Option<f64>) {
    let run = &lab.lanes()[0];
    match quantity {
        Quantity::FlipPeriod => (run.flips.mean_period(), run.analytic_flip_period),
        Quantity::ApexRatio { body } => (apexes.ratio(body), None),
        Quantity::CirclingRate => {
            let last = lab.dock().circling_series.samples.last();
            (last.map(|s| s.measured), last.map(|s| s.expected))
        }
    }
}

/// The heights each body of an `ApexRatio` readout reached: its start, then every
/// highest point between falls, and its lowest point (resting on the ground).
#[derive(Clone, Debug, Default)]
struct Apexes {
    bodies: Vec<(String, Vec<f64>, f64, f64)>,
}

impl Apexes {
    fn record(&mut self, lab: &Lab, lesson: &Lesson) {
        let world = &lab.lanes()[0].world;
        for step in &lesson.steps {
            let Step::Readout {
                quantity: Quantity::ApexRatio { body },
                ..
            } = step
            else {
                continue;
            };
            let Some(b) = world.bodies.iter().find(|b| &b.name == body) else {
                continue;
            };
            let (y, vy) = (b.state.position.y, b.state.velocity.y);
            if !self.bodies.iter().any(|(n, ..)| n == body) {
                self.bodies.push((body.clone(), vec![y], y, vy));
            }
            let (_, peaks, lowest, last_vy) =
                self.bodies.iter_mut().find(|(n, ..)| n == body).unwrap();
            if *last_vy > 0.0 && vy <= 0.0 {
                peaks.push(y);
            }
            (*lowest, *last_vy) = (lowest.min(y), vy);
        }
    }

    /// The first bounce's apex over the drop, as heights above the lowest point.
    fn ratio(&self, body: &str) -> Option<f64> {
        let (_, peaks, lowest, _) = self.bodies.iter().find(|(n, ..)| n == body)?;
        match peaks[..] {
            [drop, first, ..] => Some((first - lowest) / (drop - lowest)),
            _ => None,
        }
    }
}
