//! What the comparisons measure: drift of energy and angular momentum, and the flip
//! period: the time between sign changes of one component of the body angular velocity.

use glam::DVec3;

use crate::body::{BodyState, MassProps};
use crate::math::norm;

/// A body's rotational energy as a fraction of `L²/2I₂`, the energy of a spin about its
/// intermediate axis: the separatrix between wobbling about the major axis (below 1) and
/// about the minor axis (above 1). The engines' momentum clamp drifts it towards 1.
/// `None` unless the three moments differ.
///
/// `2E·I₂/L² = I₂ Σ uᵢ²/Iᵢ` with `u = L/|L|` in body axes: no `L²`, which overflows for
/// heavy bodies.
pub fn separatrix_ratio(props: &MassProps, state: &BodyState) -> Option<f64> {
    let i2 = props.inertia.principal()[props.inertia.intermediate_axis()?];
    let u = norm::direction(state.body_momentum());
    (u != DVec3::ZERO).then(|| i2 * (u * u * props.inertia.inverse()).element_sum())
}

/// Worst and final relative drift of energy and angular momentum against the start.
#[derive(Clone, Copy, Debug, serde::Serialize, serde::Deserialize)]
pub struct Drift {
    e0: f64,
    l0: DVec3,
    pub max_energy: f64,
    pub final_energy: f64,
    pub max_momentum: f64,
    /// The latest `|L−L0|/|L0|`, for plots.
    pub momentum: f64,
}

impl Drift {
    pub fn new(energy: f64, momentum: DVec3) -> Self {
        Self {
            e0: energy,
            l0: momentum,
            max_energy: 0.0,
            final_energy: 0.0,
            max_momentum: 0.0,
            momentum: 0.0,
        }
    }

    /// Angular momentum at the start, the reference of the momentum error.
    pub fn initial_momentum(&self) -> DVec3 {
        self.l0
    }

    /// Energy brought in from outside the integration (a body added mid-run): it moves
    /// the reference, since it is not an error of the integrator.
    pub fn add_energy(&mut self, energy: f64) {
        self.e0 += energy;
    }

    /// Whether the energy errors are relative, `(E−E0)/|E0|`. With no energy at the start
    /// (`E0 = 0`) there is nothing to be relative to, and they hold the change `E − E0` in
    /// joules instead.
    pub fn energy_is_relative(&self) -> bool {
        self.e0 != 0.0
    }

    /// Records a sample: `(E−E0)/|E0|` (see [`Drift::energy_is_relative`]) and
    /// `|L−L0|/|L0|` (the vector error also catches a change of direction).
    pub fn record(&mut self, energy: f64, momentum: DVec3) {
        let de = if self.energy_is_relative() {
            (energy - self.e0) / self.e0.abs()
        } else {
            energy - self.e0
        };
        let l0 = norm::length(self.l0);
        let dl = norm::length(momentum - self.l0) / if l0 > 0.0 { l0 } else { 1.0 };
        self.final_energy = de;
        self.max_energy = self.max_energy.max(de.abs());
        self.momentum = dl;
        self.max_momentum = self.max_momentum.max(dl);
    }
}

/// How fast a horizontal direction turns (rad/s, counter-clockwise seen from above): the
/// angle between successive samples, summed, over the time since the first.
#[derive(Clone, Copy, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct TurnRate {
    first: Option<f64>,
    last: Option<(f64, DVec3)>,
    angle: f64,
}

impl TurnRate {
    pub fn record(&mut self, t: f64, direction: DVec3) {
        let flat = direction * DVec3::new(1.0, 0.0, 1.0);
        if let Some((_, last)) = self.last {
            // About +y, from `last` to `flat`.
            self.angle += libm::atan2(last.cross(flat).y, last.dot(flat));
        }
        self.first.get_or_insert(t);
        self.last = Some((t, flat));
    }

    pub fn rate(&self) -> Option<f64> {
        let (t0, (t1, _)) = (self.first?, self.last?);
        (t1 > t0).then(|| self.angle / (t1 - t0))
    }
}

/// Counts the flips of one signal (the spin axis's component of ω) and times them by
/// linear interpolation. A flip is a sign change after the signal has swung out, since
/// the last flip, to at least half the largest size it has had so far: a body that has stopped
/// turning over, whose wobble about the axis decays to nothing, keeps changing that
/// wobble's sign, and those sign changes are not flips.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct FlipCounter {
    last: Option<(f64, f64)>,
    crossings: Vec<f64>,
    /// The largest |signal| so far.
    #[serde(default)]
    peak: f64,
    /// Whether |signal| has reached half of `peak` since the last flip.
    #[serde(default)]
    armed: bool,
}

impl FlipCounter {
    pub fn record(&mut self, t: f64, value: f64) {
        if let Some((t0, v0)) = self.last
            && self.armed
            && v0 != 0.0
            && (value == 0.0 || v0.signum() != value.signum())
        {
            self.crossings.push(t0 + (t - t0) * v0 / (v0 - value));
            self.armed = false;
        }
        self.peak = self.peak.max(value.abs());
        self.armed |= value.abs() >= 0.5 * self.peak;
        if value != 0.0 || self.last.is_none() {
            self.last = Some((t, value));
        }
    }

    /// The bytes the crossing times hold.
    pub fn heap_bytes(&self) -> usize {
        crate::heap::vec_bytes(&self.crossings)
    }

    /// When the first sign change came, if one has.
    pub fn first(&self) -> Option<f64> {
        self.crossings.first().copied()
    }

    pub fn flips(&self) -> usize {
        self.crossings.len()
    }

    /// Mean time between sign changes, once there are at least two.
    pub fn mean_period(&self) -> Option<f64> {
        let n = self.crossings.len();
        (n >= 2).then(|| (self.crossings[n - 1] - self.crossings[0]) / (n - 1) as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::inertia::Inertia;

    /// Heavy bodies, whose `L²` overflows: a spin about the intermediate axis is on the
    /// separatrix (ratio 1), and a momentum error of 1e-10 reads 1e-10.
    #[test]
    fn metrics_of_a_heavy_body_do_not_overflow() {
        let props = MassProps {
            mass: 1.0,
            inertia: Inertia::new(DVec3::new(1e200, 2e200, 2.5e200)).unwrap(),
        };
        let state = BodyState::from_body_omega(
            &props,
            glam::DQuat::from_rotation_x(0.4),
            DVec3::new(0.0, 3.0, 0.0),
        );
        let ratio = separatrix_ratio(&props, &state).unwrap();
        assert!((ratio - 1.0).abs() < 1e-14, "{ratio}");
        let l0 = state.angular_momentum;
        let mut drift = Drift::new(state.rotational_energy(&props), l0);
        drift.record(state.rotational_energy(&props), l0 * (1.0 + 1e-10));
        assert!((drift.max_momentum / 1e-10 - 1.0).abs() < 1e-5);
        assert_eq!(drift.max_energy, 0.0);
    }

    #[test]
    fn flip_counter_measures_the_half_period_of_a_sine() {
        let mut c = FlipCounter::default();
        let period = 2.0;
        for i in 0..=2000 {
            let t = i as f64 * 0.01;
            c.record(t, (std::f64::consts::TAU * t / period + 0.3).sin());
        }
        assert_eq!(c.flips(), 20);
        assert!((c.mean_period().unwrap() - 1.0).abs() < 1e-4);
    }

    /// A swing that dies away keeps changing sign; only the swings out to half the
    /// largest are flips: here the first four (from swings out to 1, 0.8, 0.64, 0.51), not
    /// the fifth (0.41) nor any after.
    #[test]
    fn flip_counter_counts_no_sign_changes_of_a_dying_wobble() {
        let mut c = FlipCounter::default();
        for i in 0..=4000 {
            let t = i as f64 * 0.01;
            let decay = 0.8f64.powf(t);
            c.record(t, decay * (std::f64::consts::PI * t).cos());
        }
        assert_eq!(c.flips(), 4, "{:?}", c.crossings);
    }
}
