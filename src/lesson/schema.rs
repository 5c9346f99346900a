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
    pub steps: Vec<Step>,
    /// Where the lesson came from: a built-in name or a path.
    #[serde(skip)]
    pub origin: String,
    /// The text it was read from: a set-up code carries a lesson from a file whole, as
    /// it was read (the file may have changed since, or be on another machine).
    #[serde(skip)]
    pub text: String,
}

/// The controls a lesson can lock.
pub const CONTROLS: [&str; 5] = ["scene", "integrators", "dt", "start", "solver"];

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Step {
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
    /// relative `tolerance` the lesson gives (absolute, in the quantity's unit, where the
    /// stated value is 0); `theory` says where the value comes from.
    Readout {
        quantity: Quantity,
        stated: f64,
        tolerance: f64,
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

/// What a readout measures.
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
    Solver(crate::contact::SolverSettings),
}

/// What a run can run to, in its first lane.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
pub enum Event {
    /// The body turns over: the first flip the lab counts.
    Flip,
    /// A joint breaks.
    Break,
    /// Every body is asleep.
    Rest,
}

impl Event {
    /// When it happened in the first lane, if it has; for rest, now.
    pub fn time(self, lab: &crate::lab::Lab) -> Option<f64> {
        let run = &lab.lanes()[0];
        let contacts = run.world.contacts.as_ref();
        match self {
            Self::Flip => run.flips.first(),
            Self::Break => contacts?.breaks().map(|(_, b)| b.time).reduce(f64::min),
            Self::Rest => contacts.is_some_and(|c| c.at_rest()).then(|| lab.time()),
        }
    }
}

impl std::fmt::Display for Event {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(match self {
            Self::Flip => "the first flip",
            Self::Break => "the first joint breaks",
            Self::Rest => "every body is asleep",
        })
    }
}

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
    /// A body's speed in the world (m/s), on the first lane (the leftmost).
    Speed { body: String },
    /// The height of the first body's centre (m) on the lane of `integrator`: whether a
    /// pole stands or has fallen.
    Height { integrator: String },
    /// E/(L²/2I₂) of the first body on the lane of `integrator`: below 1 it wobbles about
    /// its largest axis, above 1 about its smallest, and at 1 it tumbles.
    SeparatrixRatio { integrator: String },
}

impl Quantity {
    /// The unit, with the space before it (none for a ratio).
    pub fn unit(&self) -> &'static str {
        match self {
            Self::FlipPeriod => " s",
            Self::ApexRatio { .. } => "",
            Self::CirclingRate => " rad/s",
            Self::EnergyChange { .. } => "",
            Self::SwingPlanePeriod => " s",
            Self::Speed { .. } => " m/s",
            Self::Height { .. } => " m",
            Self::SeparatrixRatio { .. } => "",
        }
    }
}

impl std::fmt::Display for Quantity {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Self::FlipPeriod => f.write_str("flip period"),
            Self::ApexRatio { body } => write!(f, "{body}'s first bounce over its drop"),
            Self::CirclingRate => f.write_str("circling rate"),
            Self::EnergyChange { integrator } => write!(f, "{integrator}'s energy change"),
            Self::SwingPlanePeriod => f.write_str("swing plane's period"),
            Self::Speed { body } => write!(f, "{body}'s speed"),
            Self::Height { integrator } => write!(f, "{integrator}'s height"),
            Self::SeparatrixRatio { integrator } => write!(f, "{integrator}'s E/(L²/2I₂)"),
        }
    }
}
