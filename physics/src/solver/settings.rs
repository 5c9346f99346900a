//! Every parameter of the contact and joint solver, in one place the app edits live.

use std::fmt;
use std::str::FromStr;

use serde::Deserialize;

/// How constraints are solved; selectable like the integrators, to compare them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
pub enum SolverKind {
    /// Sequential impulses (projected Gauss-Seidel) once per step, Baumgarte position
    /// correction through the ERP: Bullet's and Havok's classic solver [Havok solver].
    Pgs,
    /// Box2D v3's soft step: solver sub-steps with soft constraints (a spring and damper
    /// per row, stiffness in hertz), a relax pass without bias, restitution at the end. The
    /// default: at 60 Hz it holds a ten-box stack that PGS needs a smaller step for.
    Soft,
}

impl SolverKind {
    /// Every solver, in the order the app lists them.
    pub const ALL: [Self; 2] = [Self::Pgs, Self::Soft];

    /// The name scenes and the command line use.
    pub fn name(self) -> &'static str {
        match self {
            Self::Pgs => "pgs",
            Self::Soft => "soft",
        }
    }
}

impl fmt::Display for SolverKind {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for SolverKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| format!("unknown solver '{s}' (valid: pgs, soft)"))
    }
}

/// How the joints' equality rows are solved.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
pub enum JointSolver {
    /// With the contacts, one joint at a time (sequential impulses).
    #[default]
    Iterative,
    /// The equality rows of every tree of joints at once, exactly, in linear time with
    /// Lagrange multipliers [Baraff 1996]; a joint that closes a loop stays iterative.
    Direct,
}

impl JointSolver {
    /// Every joint solver, in the order the app lists them.
    pub const ALL: [Self; 2] = [Self::Iterative, Self::Direct];

    /// The name scenes use.
    pub fn name(self) -> &'static str {
        match self {
            Self::Iterative => "iterative",
            Self::Direct => "direct",
        }
    }
}

/// The highest contact frequency, as a share of the solver's sub-step rate. Box2D v3 holds
/// it at a quarter, but there (and at its double against a body that does not move, half
/// the rate) a 20-row pyramid kept awake here jitters at 0.3-0.8 m/s for good: at 2
/// sub-steps of a 60 Hz step with the default 30 Hz, or at 4 sub-steps with 60 Hz. At
/// 3/16 (45 Hz at 4 sub-steps) it settles as fast as at the default's eighth.
pub const CONTACT_RATE_SHARE: f64 = 3.0 / 16.0;

/// The most a body may turn (rad) between the step its manifold was computed and a step
/// that carries it on: Box2D v3.2's `cos θ > 0.98`, about 11.5°.
pub const RECYCLE_TURN: f64 = 0.2;

/// Every parameter of the contact and joint solver.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct SolverSettings {
    /// Which solver solves the contacts and joints.
    pub solver: SolverKind,
    /// PGS: velocity iterations per step.
    pub iterations: u32,
    /// Soft step: the solver's sub-steps per step of the world [Catto 2024] (not the
    /// lab's integrator steps per dt, which split the world's step, nor the implicit
    /// integrators' safe sub-steps), and velocity iterations per solver sub-step. Scene files name them
    /// `substeps` and `substep_iterations`.
    pub substeps: u32,
    /// Soft step: velocity iterations per solver sub-step.
    pub substep_iterations: u32,
    /// The error reduction parameter [Havok solver]: the fraction of a position error
    /// removed within one second. Per step, `β = 1 − (1 − ERP)^(1/n)` with `n = 1/h`
    /// steps per second.
    pub erp: f64,
    /// Penetration allowed without correction (m): keeps resting contacts from
    /// bouncing on their own correction.
    pub slop: f64,
    /// Successive over-relaxation factor ω in (0, 2): each row's impulse change is scaled
    /// by ω before the accumulated impulse is clamped.
    pub sor: f64,
    /// Start each step from the impulses of the last (warm starting) [Catto 2005].
    pub warm_start: bool,
    /// Approach speeds below this (m/s) do not bounce: resting contacts stay at rest.
    pub restitution_threshold: f64,
    /// Contacts are created this far (m) before touching, plus the distance the pair
    /// can close in one step: speculative contacts that stop tunnelling.
    pub speculative_distance: f64,
    /// A manifold between two bodies is carried with them instead of computed again while
    /// their relative pose has moved less than this (m) since it was computed, and neither
    /// has turned more than [`RECYCLE_TURN`] (Box2D v3.2's contact recycling, Catto,
    /// `physics_world.c`); 0
    /// computes every manifold every step. No more than half the speculative distance
    /// is used ([`Self::recycle_limit`]).
    pub recycle_distance: f64,
    /// Soft step: contact stiffness (Hz; at most [`CONTACT_RATE_SHARE`] of the sub-step
    /// rate) and damping ratio, joint stiffness and damping.
    pub contact_hertz: f64,
    /// Soft step: the contacts' damping ratio.
    pub contact_damping_ratio: f64,
    /// Soft step: the joints' stiffness (Hz).
    pub joint_hertz: f64,
    /// Soft step: the joints' damping ratio.
    pub joint_damping_ratio: f64,
    /// Soft step: the fastest a contact pushes overlapping bodies apart (m/s).
    pub max_push_out: f64,
    /// Soft step: move each contact's point and Jacobians with the bodies after every
    /// solver sub-step, so both impulses act at one point and linear and angular momentum
    /// are conserved to round-off (about a quarter more time per step). Off: anchors fixed
    /// through the step, as in Box2D v3 and rapier; a sliding collision then leaks a few
    /// per cent of its angular momentum.
    pub follow_anchors: bool,
    /// Solve the contact rows colour by colour, the rows of one colour (which touch
    /// disjoint moving bodies) at once on rayon's threads: bitwise the same result on any
    /// number of threads. Off: one row after another, contacts with the ground first (a
    /// different order, so results differ in round-off and in the iterations' residual).
    pub coloured: bool,
    /// Islands whose bodies all stay slower than `sleep_speed` (m/s, and rad/s times
    /// the body's size) for `sleep_time` seconds fall asleep and cost nothing.
    pub sleep: bool,
    /// How long (s) an island stays slow before it falls asleep.
    pub sleep_time: f64,
    /// The speed (m/s) under which a body counts as slow.
    pub sleep_speed: f64,
    /// How the joints' equality rows are solved (limits, motors, springs and ropes
    /// always iteratively).
    pub joint_solver: JointSolver,
}

impl Default for SolverSettings {
    fn default() -> Self {
        Self {
            solver: SolverKind::Soft,
            iterations: 10,
            substeps: 4,
            substep_iterations: 2,
            erp: 0.9999,
            slop: 0.005,
            sor: 1.0,
            warm_start: true,
            restitution_threshold: 1.0,
            speculative_distance: 0.02,
            recycle_distance: 0.005,
            contact_hertz: 30.0,
            contact_damping_ratio: 10.0,
            joint_hertz: 60.0,
            joint_damping_ratio: 2.0,
            max_push_out: 3.0,
            follow_anchors: true,
            coloured: true,
            sleep: true,
            sleep_time: 0.5,
            sleep_speed: 0.05,
            joint_solver: JointSolver::Iterative,
        }
    }
}

impl SolverSettings {
    /// How far (m) a pair's relative pose may move before its manifold is computed
    /// again: `recycle_distance`, but no more than half the speculative distance. A
    /// carried manifold gains no points, so a feature beyond the speculative distance
    /// when it was computed must not come into contact before it is computed again.
    pub fn recycle_limit(&self) -> f64 {
        self.recycle_distance.min(0.5 * self.speculative_distance)
    }

    /// The Baumgarte factor per step of `h` from the ERP [Havok solver].
    pub fn beta(&self, h: f64) -> f64 {
        1.0 - libm::pow(1.0 - self.erp, h)
    }

    /// The length of one of the soft step's solver sub-steps within a step of `h` (the
    /// lab's integrator steps per dt, and the implicit integrators' safe sub-steps, are
    /// others).
    pub fn solver_substep(&self, h: f64) -> f64 {
        h / self.substeps as f64
    }

    /// The soft step's contact springs over a solver sub-step of `h`, between two moving
    /// bodies and against one that does not move (the ground, a kinematic collider, a
    /// sleeping body), as Box2D v3 sets them [Catto 2024]: a frequency of at most
    /// [`CONTACT_RATE_SHARE`] of the sub-step rate, and twice the frequency (four times
    /// the stiffness) against a body that does not move, which gives nothing back (a
    /// stack's whole weight rests on its ground contacts).
    pub fn contact_softness(&self, h: f64) -> (Softness, Softness) {
        let hertz = self.contact_hertz.min(CONTACT_RATE_SHARE / h);
        let spring = |hertz| Softness::new(hertz, self.contact_damping_ratio, h);
        (spring(hertz), spring(2.0 * hertz))
    }

    /// The joints' softness over a step (PGS) or solver sub-step (soft) of `h`: PGS feeds
    /// back the Baumgarte fraction of the error with the full mass [Havok solver], the
    /// soft step Box2D's spring [Catto 2024].
    pub fn joint_softness(&self, h: f64) -> Softness {
        match self.solver {
            SolverKind::Pgs => Softness {
                bias_rate: self.beta(h) / h,
                mass_scale: 1.0,
                impulse_scale: 0.0,
            },
            SolverKind::Soft => Softness::new(self.joint_hertz, self.joint_damping_ratio, h),
        }
    }
}

/// Box2D v3's soft constraint: a spring of `hertz` with damping ratio `zeta`, stepped
/// implicitly over `h`. Returns (bias rate, mass scale, impulse scale).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Softness {
    /// How fast the error is fed back: the velocity bias per unit of error (1/s).
    pub bias_rate: f64,
    /// The share of the effective mass the impulse is computed with.
    pub mass_scale: f64,
    /// The share of the accumulated impulse taken back each pass: the spring's give.
    pub impulse_scale: f64,
}

impl Softness {
    /// The softness of a spring of `hertz` with damping ratio `zeta`, stepped over `h`.
    pub fn new(hertz: f64, zeta: f64, h: f64) -> Self {
        let omega = std::f64::consts::TAU * hertz;
        let a1 = 2.0 * zeta + h * omega;
        let a2 = h * omega * a1;
        let a3 = 1.0 / (1.0 + a2);
        Self {
            bias_rate: omega / a1,
            mass_scale: a2 * a3,
            impulse_scale: a3,
        }
    }

    /// A rigid row: full mass, no bias, nothing leaks.
    pub const RIGID: Self = Self {
        bias_rate: 0.0,
        mass_scale: 1.0,
        impulse_scale: 0.0,
    };
}
