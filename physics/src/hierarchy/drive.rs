//! How a driven frame moves relative to its parent: the hull of a tank, a turret on its
//! hinge, a carousel's platform, the turning Earth, a car that stops dead.

use glam::DVec3;
use serde::Deserialize;

use super::{Delta, DynamicTransform};

/// The prescribed motion of a driven frame relative to its parent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Deserialize, serde::Serialize)]
pub enum Drive {
    /// Rigidly attached: no motion relative to the parent.
    #[default]
    Fixed,
    /// The authored local velocity and angular velocity, changing at the authored constant
    /// acceleration and angular acceleration (a turret's motor, a spinning platform).
    Steady,
    /// Drives at `speed` along its own x axis while turning at `yaw_rate` about the
    /// parent's y axis (up); from `stop_at` on it stands still, stopped in an instant.
    Vehicle {
        /// Forward speed along its own x axis, m/s.
        speed: f64,
        /// Turn rate about the parent's y axis, rad/s.
        yaw_rate: f64,
        /// The time it stops dead, s; `None` never.
        #[serde(default)]
        stop_at: Option<f64>,
    },
}

impl Drive {
    /// Sets the local motion the drive implies at time `t` (velocity, accelerations).
    pub fn prime(&self, local: &mut DynamicTransform, t: f64) {
        match *self {
            Self::Fixed => {
                let transform = local.transform;
                *local = DynamicTransform::at_rest(transform);
            }
            Self::Steady => {}
            Self::Vehicle { .. } => self.set_vehicle_motion(local, self.moving(t)),
        }
    }

    fn moving(&self, t: f64) -> bool {
        match *self {
            Self::Vehicle { stop_at, .. } => stop_at.is_none_or(|s| t < s),
            _ => true,
        }
    }

    fn set_vehicle_motion(&self, local: &mut DynamicTransform, moving: bool) {
        if let Self::Vehicle {
            speed, yaw_rate, ..
        } = *self
        {
            let (speed, yaw_rate) = if moving {
                (speed, yaw_rate)
            } else {
                (0.0, 0.0)
            };
            let w = DVec3::Y * yaw_rate;
            local.velocity = local.transform.rotation * DVec3::X * speed;
            local.angular_velocity = w;
            local.accel = w.cross(local.velocity);
            local.angular_accel = DVec3::ZERO;
        }
    }

    /// Advances the local motion from `t` to `t + h`. Returns the abrupt change of local
    /// motion when the drive changes in an instant (a vehicle stopping), so loose children
    /// can be told not to inherit it.
    pub fn advance(&self, local: &mut DynamicTransform, t: f64, h: f64) -> Option<Delta> {
        match *self {
            Self::Fixed => None,
            Self::Steady => {
                *local = local.advanced(h);
                None
            }
            Self::Vehicle { stop_at, .. } => {
                let moving = self.moving(t);
                self.set_vehicle_motion(local, moving);
                // It drives up to `stop_at` and no further, wherever the step ends: a time
                // summed step by step falls a hair short of it (400 steps of 1/200 s end at
                // 1.99999999999998 s), and a whole step more carried a van 40 mm past
                // where it stops.
                let run = stop_at.map_or(h, |s| (s - t).clamp(0.0, h));
                let w = local.angular_velocity.y;
                local.transform.translation += arc(local.velocity, w, run);
                local.transform.rotation =
                    (glam::DQuat::from_rotation_y(w * run) * local.transform.rotation).normalize();
                self.set_vehicle_motion(local, moving);
                if moving && !self.moving(t + h) {
                    let before = *local;
                    self.set_vehicle_motion(local, false);
                    return Some(Delta {
                        velocity: local.velocity - before.velocity,
                        accel: local.accel - before.accel,
                        angular_velocity: local.angular_velocity - before.angular_velocity,
                        angular_accel: DVec3::ZERO,
                    });
                }
                None
            }
        }
    }
}

/// `∫₀ʰ R_y(ws) v ds`: the exact displacement of a velocity turning at `w` about y.
fn arc(v: DVec3, w: f64, h: f64) -> DVec3 {
    let x = w * h;
    // sin(x)/w and (1 − cos x)/w, by series where dividing by w would lose digits.
    let (s, c) = if x.abs() < 1e-4 {
        (h * (1.0 - x * x / 6.0), h * x * (0.5 - x * x / 24.0))
    } else {
        (libm::sin(x) / w, (1.0 - libm::cos(x)) / w)
    };
    let along = DVec3::Y * v.y;
    let flat = v - along;
    along * h + flat * s + DVec3::Y.cross(flat) * c
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hierarchy::Transform;

    #[test]
    fn a_vehicle_drives_an_exact_circle_and_stops_dead() {
        let (speed, yaw, stop) = (3.0, 0.5, 4.0);
        let drive = Drive::Vehicle {
            speed,
            yaw_rate: yaw,
            stop_at: Some(stop),
        };
        let mut local = DynamicTransform::at_rest(Transform::IDENTITY);
        drive.prime(&mut local, 0.0);
        let radius = speed / yaw;
        let centre = DVec3::new(0.0, 0.0, -radius);
        let h = 0.1;
        let mut jumps = Vec::new();
        for i in 0..60 {
            let t = i as f64 * h;
            if let Some(j) = drive.advance(&mut local, t, h) {
                jumps.push((t, j));
            }
            if t + h <= stop {
                let r = (local.transform.translation - centre).length();
                assert!((r - radius).abs() < 1e-12, "radius {r} at t = {}", t + h);
            }
        }
        assert_eq!(jumps.len(), 1, "one stop");
        assert!(
            (jumps[0].0 + h - stop).abs() < 1e-9,
            "stops in the step ending at {stop}"
        );
        assert!((jumps[0].1.velocity.length() - speed).abs() < 1e-12);
        assert_eq!(local.velocity, DVec3::ZERO);
        // Heading after 4 s of turning at 0.5 rad/s.
        let heading = local.transform.rotation * DVec3::X;
        assert!(((-heading.z).atan2(heading.x) - yaw * stop).abs() < 1e-12);
    }

    /// Time summed step by step, as the world sums it, misses the stop by a hair (400
    /// steps of 1/200 s sum to 1.99999999999998 s): the van still stops where it is at
    /// `stop_at`, `speed · stop_at` from its start, not a step further, at every step size
    /// from 1/400 to 1/50 s.
    #[test]
    fn a_vehicle_stops_where_it_is_at_stop_at_whatever_the_step() {
        let (speed, stop) = (8.0, 2.0);
        let drive = Drive::Vehicle {
            speed,
            yaw_rate: 0.0,
            stop_at: Some(stop),
        };
        for h in [
            1.0 / 400.0,
            1.0 / 200.0,
            1.0 / 100.0,
            1.0 / 60.0,
            1.0 / 50.0,
        ] {
            let mut local = DynamicTransform::at_rest(Transform::IDENTITY);
            drive.prime(&mut local, 0.0);
            let mut t = 0.0;
            while t < 3.0 {
                drive.advance(&mut local, t, h);
                t += h;
            }
            let x = local.transform.translation.x;
            assert!((x - speed * stop).abs() < 1e-9, "h {h}: stopped at {x}");
        }
    }
}
