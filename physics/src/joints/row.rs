//! One row of a joint (or of a user's constraint): a relative velocity along a
//! direction or about an axis, with its bounds, target and how it feeds back its error.

use glam::DVec3;

use crate::solver::body::{SolverBody, pair};
use crate::solver::kernel::{AxisRow, InverseMass, Velocities};
use crate::solver::settings::Softness;
use crate::solver::soft::soft_impulse;

/// How a joint row feeds back its error.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Feedback {
    /// The joint softness in the iterations, rigid in the relax pass.
    Joint,
    /// A spring: its own softness in every pass, relax included, as Box2D's distance
    /// joint spring (`distance_joint.c`), so the relax pass does not stiffen it.
    Spring,
    /// A one-sided limit (impulse ≥ 0): while its error is positive it is slack and only
    /// stops the bodies closing more than the error within the step, bias `C/h` and
    /// rigid, in every pass (Box2D's speculative limits, `distance_joint.c`); at or past
    /// the limit it is a [`Feedback::Joint`] row.
    OneSided { inv_h: f64 },
}

/// A joint's row: the relative velocity of a point along a direction, or the relative
/// spin about one ([`AxisRow::twist`]), driven to `target` (a motor's speed; zero for a
/// rigid link) while the error `error` is fed back; the accumulated impulse is kept in
/// `[lo, hi]`.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    pub a: usize,
    pub b: usize,
    pub axis: AxisRow<f64>,
    /// The direction of a point's row (zero for a spin).
    pub linear: [f64; 3],
    pub target: f64,
    pub error: f64,
    /// PGS rows use `bias_rate = β/h` with full mass; soft rows Box2D's spring.
    pub softness: Softness,
    pub feedback: Feedback,
    pub lo: f64,
    pub hi: f64,
    pub impulse: f64,
}

impl Row {
    /// The row about unit `dir` with its effective mass; error, target, softness and
    /// bounds set by the caller.
    pub fn new(bodies: &[SolverBody], (a, b): (usize, usize), dir: DVec3) -> Self {
        let (ia, ib) = (InverseMass::of(&bodies[a]), InverseMass::of(&bodies[b]));
        let axis = AxisRow::twist(&ia, &ib, &dir.to_array());
        Self::with_axis((a, b), axis, DVec3::ZERO)
    }

    /// The row of the point at levers `(ra, rb)` from each body's centre, along unit `d`.
    pub fn linear(
        bodies: &[SolverBody],
        (a, b): (usize, usize),
        (ra, rb): (DVec3, DVec3),
        d: DVec3,
    ) -> Self {
        let (ia, ib) = (InverseMass::of(&bodies[a]), InverseMass::of(&bodies[b]));
        let axis = AxisRow::point(&ia, &ib, (&ra.to_array(), &rb.to_array()), &d.to_array());
        Self::with_axis((a, b), axis, d)
    }

    /// A row of any Jacobian `[−d, −angular_a, d, angular_b]` (a user's row).
    pub fn general(
        bodies: &[SolverBody],
        (a, b): (usize, usize),
        d: DVec3,
        (angular_a, angular_b): (DVec3, DVec3),
    ) -> Self {
        let (ia, ib) = (InverseMass::of(&bodies[a]), InverseMass::of(&bodies[b]));
        let linear_k = (ia.inv_mass + ib.inv_mass) * d.length_squared();
        let angular = (angular_a.to_array(), angular_b.to_array());
        let axis = AxisRow::with_angular(&ia, &ib, angular, linear_k);
        Self::with_axis((a, b), axis, d)
    }

    fn with_axis((a, b): (usize, usize), axis: AxisRow<f64>, d: DVec3) -> Self {
        Self {
            a,
            b,
            axis,
            linear: d.to_array(),
            target: 0.0,
            error: 0.0,
            softness: Softness::RIGID,
            feedback: Feedback::Joint,
            lo: f64::NEG_INFINITY,
            hi: f64::INFINITY,
            impulse: 0.0,
        }
    }

    pub fn warm_start(&self, bodies: &mut [SolverBody]) {
        self.on_bodies(bodies, |axis, a, b| {
            axis.apply(a, b, &self.linear, self.impulse)
        });
    }

    /// Runs `f` with the row's axis on its two bodies' velocities.
    fn on_bodies<R>(
        &self,
        bodies: &mut [SolverBody],
        f: impl FnOnce(&AxisRow<f64>, &mut Velocities<f64>, &mut Velocities<f64>) -> R,
    ) -> R {
        let (a, b) = pair(bodies, self.a, self.b);
        let mut ends = (
            Velocities::gather(std::slice::from_ref(a)),
            Velocities::gather(std::slice::from_ref(b)),
        );
        let out = f(&self.axis, &mut ends.0, &mut ends.1);
        ends.0.write(0, a);
        ends.1.write(0, b);
        out
    }

    /// Whether the row is an equality held rigidly by the joints' softness: no bounds,
    /// no target, no spring or limit feedback (the rows a direct solve can take).
    pub fn is_equality(&self) -> bool {
        self.lo == f64::NEG_INFINITY
            && self.hi == f64::INFINITY
            && self.target == 0.0
            && self.feedback == Feedback::Joint
    }

    /// The softness this pass uses; `use_bias = false` is the soft step's relax pass.
    fn pass_softness(&self, use_bias: bool) -> Softness {
        match self.feedback {
            Feedback::Spring => self.softness,
            Feedback::OneSided { inv_h } if self.error > 0.0 => Softness {
                bias_rate: inv_h,
                mass_scale: 1.0,
                impulse_scale: 0.0,
            },
            _ if use_bias => self.softness,
            _ => Softness::RIGID,
        }
    }

    /// `use_bias = false` is the soft step's relax pass: no position feedback but a
    /// spring's and a slack limit's.
    pub fn update(&mut self, bodies: &mut [SolverBody], use_bias: bool, sor: f64) {
        let d = self.linear;
        let speed = self.on_bodies(bodies, |axis, a, b| axis.velocity(a, b, &d));
        let s = self.pass_softness(use_bias);
        let bias = s.bias_rate * self.error;
        let delta = soft_impulse(s, self.axis.mass, speed - self.target, bias, self.impulse);
        // max/min, not clamp, which panics on NaN bounds (see `update_friction`).
        let total = (self.impulse + sor * delta).max(self.lo).min(self.hi);
        let applied = total - self.impulse;
        self.on_bodies(bodies, |axis, a, b| axis.apply(a, b, &d, applied));
        self.impulse = total;
    }
}
