//! Readouts read from a lane's recorded run up to the moment shown (so that they follow a
//! reset, a seek and a branch as the run does): the path a body's centre has travelled,
//! its first bounce, and the period of its swing, with the exact period of a simple
//! pendulum to set beside it.

use glam::DVec3;

use crate::body::BodyState;
use crate::lab::Lab;
use crate::math::elliptic::{Parameter, complete_k};
use crate::scene::JointType;

/// The recorded states of the body named `body` in lane `lane`, up to the moment shown.
fn states<'a>(lab: &'a Lab, lane: usize, body: &str) -> Option<Vec<(f64, &'a BodyState)>> {
    let index = (lab.lanes().get(lane)?.world().bodies().iter()).position(|b| b.name == body)?;
    Some(
        lab.recorders()
            .export()
            .states_of(lane, index, lab.time())
            .collect(),
    )
}

/// The length of the path of the body's centre since the run began (m), summed over
/// recorded steps.
pub fn distance(lab: &Lab, lane: usize, body: &str) -> Option<f64> {
    let states = states(lab, lane, body)?;
    let path = states.windows(2);
    Some(
        path.map(|w| w[1].1.position.distance(w[0].1.position))
            .sum(),
    )
}

/// When the body first bounced in the first lane: between two recorded steps its upward
/// velocity turned from falling to rising by more than ten times what gravity gives in
/// that time (an impulse: the bottom of a swing, where the rod turns the velocity
/// smoothly, at most 4g, is no bounce), and the bounce is put midway between them.
pub fn first_bounce(lab: &Lab, body: &str) -> Option<f64> {
    let index = (lab.world().bodies().iter()).position(|b| b.name == body)?;
    let up = up(lab);
    let g = lab.world().gravity().length();
    let mut last = None::<(f64, f64)>;
    for (t, s) in lab.recorders().export().states_of(0, index, lab.time()) {
        let v = s.velocity.dot(up);
        if let Some((t0, v0)) = last
            && v0 < 0.0
            && v > 0.0
            && v - v0 > 10.0 * g * (t - t0)
        {
            return Some(0.5 * (t0 + t));
        }
        last = Some((t, v));
    }
    None
}

/// The mean time between the body's successive turning points on one side (s): where
/// its velocity along the swing, the horizontal direction of its fastest recorded
/// motion, changes from positive to negative. Each crossing is interpolated linearly
/// between the two recorded steps around it: at a turning point of a smooth swing the
/// velocity's curvature vanishes (x = A cos ωt has v'' = 0 where v = 0), so the error
/// is far below a step. None before two such turning points.
pub fn swing_period(lab: &Lab, lane: usize, body: &str) -> Option<f64> {
    let states = states(lab, lane, body)?;
    let horizontal = |s: &BodyState| s.velocity.reject_from_normalized(up(lab));
    let fastest = (states.iter()).max_by(|a, b| {
        (horizontal(a.1).length_squared()).total_cmp(&horizontal(b.1).length_squared())
    })?;
    let along = horizontal(fastest.1).try_normalize()?;
    let turns: Vec<f64> = (states.windows(2))
        .filter_map(|w| {
            let (v0, v1) = (w[0].1.velocity.dot(along), w[1].1.velocity.dot(along));
            (v0 > 0.0 && v1 <= 0.0).then(|| w[0].0 + (w[1].0 - w[0].0) * v0 / (v0 - v1))
        })
        .collect();
    match turns[..] {
        [first, .., last] => Some((last - first) / (turns.len() - 1) as f64),
        _ => None,
    }
}

/// The world's up: against gravity (+y without it).
fn up(lab: &Lab) -> DVec3 {
    (-lab.world().gravity()).try_normalize().unwrap_or(DVec3::Y)
}

/// The exact period of a simple pendulum of length `length` (m) let go at rest from
/// `amplitude` (rad, below π) under gravity `g` (m/s²): T = 4√(L/g)·K(k), k = sin(θ₀/2)
/// (Landau & Lifshitz, "Mechanics", §11, problem 1), which tends to 2π√(L/g) for small
/// swings, K(0) being π/2.
pub fn pendulum_period(length: f64, g: f64, amplitude: f64) -> f64 {
    let half = 0.5 * amplitude;
    // m = sin², its complement cos², each without cancellation.
    let k = Parameter {
        m: libm::sin(half) * libm::sin(half),
        mc: libm::cos(half) * libm::cos(half),
    };
    4.0 * (length / g).sqrt() * complete_k(k)
}

/// The exact period of the body's swing where the scene makes it a simple pendulum: it
/// hangs by its centre from a fixed point on a rod (a distance joint of fixed length to
/// the world, no spring), nothing else holds it, there is nothing to hit, and it starts
/// at rest (it must also swing clear of the scene's other bodies). A rod at the centre exerts no torque, so the body's own turning stays out
/// of the swing and it swings as a point mass.
pub fn pendulum_theory(lab: &Lab, body: &str) -> Option<f64> {
    let scene = lab.scene();
    let desc = scene.bodies.iter().find(|b| b.name == body)?;
    let mut holds = scene
        .joints
        .iter()
        .filter(|j| j.a == body || j.b.as_deref() == Some(body));
    let (rod, None) = (holds.next()?, holds.next()) else {
        return None;
    };
    let pivot = rod.anchor_b?;
    let length = pivot.distance(desc.position);
    let fixed = rod
        .length
        .is_none_or(|(min, max)| min == max && (max - length).abs() < 1e-9);
    let simple = rod.kind == JointType::Distance
        && rod.b.is_none()
        && rod.frame.is_none()
        && rod.spring.is_none()
        && fixed
        && rod.anchor.distance(desc.position) < 1e-9
        && desc.velocity == DVec3::ZERO
        && desc.frame.is_none()
        && scene.contacts.as_ref().is_some_and(|c| c.planes.is_empty());
    let g = scene.gravity.length();
    let hang = (desc.position - pivot).angle_between(scene.gravity);
    (simple && g > 0.0 && hang < std::f64::consts::PI).then(|| pendulum_period(length, g, hang))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::{PI, TAU};

    /// Small swings take 2π√(L/g), to the first correction θ₀²/16 (Landau & Lifshitz);
    /// a 90° swing K(1/2)/(π/2) = 1.18034 times that (K(1/2) = 1.8540747, Abramowitz &
    /// Stegun table 17.1).
    #[test]
    fn the_period_is_the_small_swing_one_with_its_amplitude_correction() {
        let small = TAU * (1.0f64 / 9.81).sqrt();
        let tiny = pendulum_period(1.0, 9.81, 0.01);
        assert!((tiny / small - 1.0 - 0.01f64.powi(2) / 16.0).abs() < 1e-9);
        let right = pendulum_period(1.0, 9.81, PI / 2.0) / small;
        assert!(
            (right - 1.854_074_677_3 / (PI / 2.0)).abs() < 1e-9,
            "{right}"
        );
    }
}
