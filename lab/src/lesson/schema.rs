//! What a lesson file holds.

use serde::Deserialize;

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    pub title: String,
    /// A built-in scene's name, or a scene file's path.
    pub scene: String,
    /// The time step the lesson runs at (default: the scene's).
    #[serde(default)]
    pub dt: Option<f64>,
    /// The integrators compared side by side on a single-body scene (default: the app's).
    #[serde(default)]
    pub integrators: Option<Vec<String>>,
    /// Controls the student may not change, each with the reason shown beside it: one of
    /// [`CONTROLS`].
    #[serde(default)]
    pub locked: Vec<(String, String)>,
    /// Controls the panel does not show during the lesson, of [`CONTROLS`].
    #[serde(default)]
    pub hidden: Vec<String>,
    /// Settings the lesson changes from the scene's own, in order, at its start.
    #[serde(default)]
    pub set: Vec<Setting>,
    pub steps: Vec<Card>,
    /// Where the lesson came from: a built-in name or a path.
    #[serde(skip)]
    pub origin: String,
    /// The text it was read from: a set-up code carries a lesson from a file whole, as
    /// it was read (the file may have changed since, or be on another machine).
    #[serde(skip)]
    pub text: String,
}

impl Lesson {
    /// The lesson's takes, as ranges of its steps: each "now try" starts the run again
    /// and a new take, which it opens.
    pub fn takes(&self) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
        let starts: Vec<usize> = std::iter::once(0)
            .chain((self.steps.iter().enumerate()).filter_map(|(k, s)| {
                matches!(s, Card::Try { .. })
                    .then_some(k)
                    .filter(|&k| k > 0)
            }))
            .chain(std::iter::once(self.steps.len()))
            .collect();
        (0..starts.len() - 1).map(move |i| starts[i]..starts[i + 1])
    }

    /// How far the runs among `steps` go: the longest `until`, none without a run.
    pub fn run_length(steps: &[Card]) -> Option<f64> {
        (steps.iter())
            .filter_map(|s| match s {
                Card::Run { until, .. } => Some(*until),
                _ => None,
            })
            .reduce(f64::max)
    }
}

/// The most choices a question offers: one letter each, a to z, where a terminal asks it.
pub const MOST_CHOICES: usize = 26;

/// The controls a lesson can lock.
pub const CONTROLS: [&str; 5] = ["scene", "integrators", "dt", "start", "solver"];

#[derive(Clone, Debug, Deserialize)]
// The name a lesson file's errors give: the file lists its cards under `steps`.
#[serde(deny_unknown_fields, rename = "Step")]
pub enum Card {
    /// Asked before the run; the student's answer is kept.
    Question {
        text: String,
        choices: Vec<String>,
        /// Which choice is right, from 0.
        answer: usize,
    },
    /// Runs the scene on to time `until` (s).
    Run {
        until: f64,
        /// Stop sooner, when this first happens in the run (the first lane's).
        #[serde(default)]
        event: Option<Event>,
    },
    /// A quantity measured now, against the value the lesson states for it, within the
    /// `tolerance` the lesson gives ([`super::tolerance`]: "2%", "1.5 mm", or a bare
    /// fraction); `theory` says where the value comes from.
    Readout {
        quantity: Quantity,
        stated: f64,
        tolerance: super::tolerance::Written,
        theory: String,
        /// The stated value is this build's own measurement, not a value theory gives:
        /// the student is told so beside it.
        #[serde(default)]
        measured: bool,
    },
    /// Shown after the run.
    Explain { text: String },
    /// "Now try": one setting changed, the run started again from the beginning, and
    /// usually a new question after it.
    Try { text: String, set: Setting },
}

/// The one setting a "now try" step changes.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub enum Setting {
    /// The physics step, s.
    Dt(f64),
    /// The integrators run side by side (or a single lane's, the first).
    Integrators(Vec<String>),
    /// Every surface's friction coefficient.
    Friction(f64),
    /// The first body's spin rate about its spin axis, rad/s.
    Spin(f64),
    /// The contact solver's settings (those not written take their defaults).
    Solver(crate::solver::SolverSettings),
}

/// What a run can run to, in its first lane.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub enum Event {
    /// The body's first bounce: where its upward velocity first turns from falling to
    /// rising at a blow, midway between the two recorded steps it came between.
    Bounce { body: String },
    /// The body turns over: the first flip the lab counts.
    Flip,
    /// A joint breaks.
    Break,
    /// Every body is asleep.
    Rest,
}

impl Event {
    /// When it happened in the first lane, if it has; for rest, now.
    pub fn time(&self, lab: &crate::lab::Lab) -> Option<f64> {
        let run = &lab.lanes()[0];
        let contacts = run.world().contacts();
        match self {
            Self::Bounce { body } => super::swing::first_bounce(lab, body),
            Self::Flip => run.flips().first(),
            Self::Break => contacts?.breaks().map(|(_, b)| b.time).reduce(f64::min),
            // Before the first step nothing has been found asleep, nor awake: a run to
            // rest ended at once.
            Self::Rest => {
                (lab.time() > 0.0 && contacts.is_some_and(|c| c.at_rest())).then(|| lab.time())
            }
        }
    }
}

impl Event {
    /// Its name in a lesson file.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Bounce { .. } => "Bounce",
            Self::Flip => "Flip",
            Self::Break => "Break",
            Self::Rest => "Rest",
        }
    }
}

impl std::fmt::Display for Event {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(match self {
            Self::Bounce { body } => return write!(f, "{body}'s first bounce"),
            Self::Flip => "the first flip",
            Self::Break => "the first joint breaks",
            Self::Rest => "every body is asleep",
        })
    }
}

/// A world axis.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
pub enum Axis {
    #[serde(alias = "x")]
    X,
    #[serde(alias = "y")]
    Y,
    #[serde(alias = "z")]
    Z,
}

impl Axis {
    pub fn name(self) -> &'static str {
        match self {
            Self::X => "x",
            Self::Y => "y",
            Self::Z => "z",
        }
    }
}

/// A body's name written as plain text where the field is optional, as `anchor` is.
fn plain_name<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    String::deserialize(d).map(Some)
}

/// What a readout measures. A quantity of a body is measured on the first lane (the
/// leftmost) unless it names an `integrator`, one of the lesson's.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub enum Quantity {
    /// The mean time between flips of the first lane's (the leftmost's) first body (s).
    FlipPeriod,
    /// The second highest point a body reached after a bounce over the first (the
    /// ratio of successive apex heights above the ground).
    ApexRatio { body: String },
    /// The scene's circling readout: how fast the rolling ball's velocity turns (rad/s).
    CirclingRate,
    /// The energy the lane of `integrator` has gained (a loss is negative), relative to
    /// its start.
    EnergyChange { integrator: String },
    /// The time a pendulum's swing plane takes to turn once against its turning ground
    /// (s), from the rate its turning points give.
    SwingPlanePeriod,
    /// A body's speed in the world (m/s).
    Speed {
        body: String,
        #[serde(default, deserialize_with = "plain_name")]
        integrator: Option<String>,
    },
    /// The height of a body's centre (m), its world y: the first body's where none is
    /// named (as lesson files wrote it before bodies were named).
    Height {
        #[serde(default, deserialize_with = "plain_name")]
        body: Option<String>,
        #[serde(default, deserialize_with = "plain_name")]
        integrator: Option<String>,
    },
    /// One world coordinate of a body's centre (m).
    Position {
        body: String,
        axis: Axis,
        #[serde(default, deserialize_with = "plain_name")]
        integrator: Option<String>,
    },
    /// The length of the path a body's centre has travelled since the run began (m).
    Distance {
        body: String,
        #[serde(default, deserialize_with = "plain_name")]
        integrator: Option<String>,
    },
    /// The period of a body's swing (s): the mean time between its successive turning
    /// points on the same side.
    SwingPeriod {
        body: String,
        #[serde(default, deserialize_with = "plain_name")]
        integrator: Option<String>,
    },
    /// When an event came in the first lane (s).
    Time { event: Event },
    /// E/(L²/2I₂) of the first body on the lane of `integrator`: below 1 it wobbles about
    /// its largest axis, above 1 about its smallest, and at 1 it tumbles.
    SeparatrixRatio { integrator: String },
}

impl Quantity {
    /// Why a run gave nothing to measure, said beside "nothing": most quantities need
    /// the run to have gone far enough.
    pub fn why_nothing(&self) -> &'static str {
        match self {
            Self::FlipPeriod => "no two flips yet: run longer",
            Self::SwingPeriod { .. } => "no two swings found: run longer, if it swings at all",
            Self::SwingPlanePeriod => "the swing plane has not turned enough yet: run longer",
            Self::ApexRatio { .. } => "no bounce and rise after it yet: run longer",
            Self::Time { .. } => "it has not happened yet",
            Self::CirclingRate => "no circling measured yet: run longer",
            _ => "the lane it names does not run now",
        }
    }

    /// The unit, with the space before it (none for a ratio).
    pub fn unit(&self) -> &'static str {
        match self {
            Self::FlipPeriod | Self::SwingPlanePeriod | Self::SwingPeriod { .. } => " s",
            Self::Time { .. } => " s",
            Self::ApexRatio { .. } | Self::EnergyChange { .. } => "",
            Self::SeparatrixRatio { .. } => "",
            Self::CirclingRate => " rad/s",
            Self::Speed { .. } => " m/s",
            Self::Height { .. } | Self::Position { .. } | Self::Distance { .. } => " m",
        }
    }

    /// Its name in a lesson file.
    pub fn name(&self) -> &'static str {
        match self {
            Self::FlipPeriod => "FlipPeriod",
            Self::ApexRatio { .. } => "ApexRatio",
            Self::CirclingRate => "CirclingRate",
            Self::EnergyChange { .. } => "EnergyChange",
            Self::SwingPlanePeriod => "SwingPlanePeriod",
            Self::Speed { .. } => "Speed",
            Self::Height { .. } => "Height",
            Self::Position { .. } => "Position",
            Self::Distance { .. } => "Distance",
            Self::SwingPeriod { .. } => "SwingPeriod",
            Self::Time { .. } => "Time",
            Self::SeparatrixRatio { .. } => "SeparatrixRatio",
        }
    }

    /// The body it measures, where it names one.
    pub fn body(&self) -> Option<&str> {
        match self {
            Self::ApexRatio { body }
            | Self::Speed { body, .. }
            | Self::Position { body, .. }
            | Self::Distance { body, .. }
            | Self::SwingPeriod { body, .. }
            | Self::Time {
                event: Event::Bounce { body },
            } => Some(body),
            Self::Height { body, .. } => body.as_deref(),
            _ => None,
        }
    }

    /// The lane it measures, where it names one.
    pub fn integrator(&self) -> Option<&str> {
        match self {
            Self::EnergyChange { integrator } | Self::SeparatrixRatio { integrator } => {
                Some(integrator)
            }
            Self::Speed { integrator, .. }
            | Self::Height { integrator, .. }
            | Self::Position { integrator, .. }
            | Self::Distance { integrator, .. }
            | Self::SwingPeriod { integrator, .. } => integrator.as_deref(),
            _ => None,
        }
    }
}

impl std::fmt::Display for Quantity {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        let body = self.body().unwrap_or("the first body");
        match self {
            Self::FlipPeriod => f.write_str("flip period")?,
            Self::ApexRatio { .. } => write!(f, "{body}'s first bounce over its drop")?,
            Self::CirclingRate => f.write_str("circling rate")?,
            Self::EnergyChange { .. } => f.write_str("energy change")?,
            Self::SwingPlanePeriod => f.write_str("swing plane's period")?,
            Self::Speed { .. } => write!(f, "{body}'s speed")?,
            Self::Height { .. } => write!(f, "{body}'s height")?,
            Self::Position { axis, .. } => write!(f, "{body}'s {}", axis.name())?,
            Self::Distance { .. } => write!(f, "{body}'s distance travelled")?,
            Self::SwingPeriod { .. } => write!(f, "{body}'s swing period")?,
            Self::Time {
                event: event @ (Event::Flip | Event::Bounce { .. }),
            } => write!(f, "time of {event}")?,
            Self::Time { event } => write!(f, "time when {event}")?,
            Self::SeparatrixRatio { .. } => f.write_str("E/(L²/2I₂)")?,
        }
        match self.integrator() {
            Some(integrator) => write!(f, " ({integrator} lane)"),
            None => Ok(()),
        }
    }
}
