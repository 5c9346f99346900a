//! Newton's law in a moving frame. A body whose reference frame moves (a puck on a
//! carousel, a ball on a tank's deck, a pendulum on the turning Earth) is integrated in
//! that frame's coordinates, where the frame's motion shows up as inertial forces.

use glam::DVec3;

use super::DynamicTransform;

/// The inertial accelerations on a point at `x` moving with `v`, both in the frame's
/// coordinates, per unit mass and in the frame's basis (reference: "Newton's law in a
/// moving frame"). Their sum plus the real force over the mass is the local acceleration.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct InertialForces {
    /// `−ã₂`: the frame's own acceleration, felt backwards.
    pub frame: DVec3,
    /// `−α̃₂ × x`: the frame's angular acceleration.
    pub euler: DVec3,
    /// `−ω̃₂ × (ω̃₂ × x)`: outward from the spin axis.
    pub centrifugal: DVec3,
    /// `−2 ω̃₂ × v`: sideways to the motion.
    pub coriolis: DVec3,
}

impl InertialForces {
    /// `frame` is the frame's GLOBAL dynamics.
    pub fn at(frame: &DynamicTransform, x: DVec3, v: DVec3) -> Self {
        let r_t = frame.transform.rotation.inverse();
        let w = r_t * frame.angular_velocity;
        let alpha = r_t * frame.angular_accel;
        Self {
            frame: -frame.transform.inverse_transform_vector(frame.accel),
            euler: -alpha.cross(x),
            centrifugal: -w.cross(w.cross(x)),
            coriolis: -2.0 * w.cross(v),
        }
    }

    /// The sum of the four, m/s².
    pub fn total(&self) -> DVec3 {
        self.frame + self.euler + self.centrifugal + self.coriolis
    }

    /// In a fixed order, for arrows and labels.
    pub fn named(&self) -> [(&'static str, DVec3); 4] {
        [
            ("frame", self.frame),
            ("Euler", self.euler),
            ("centrifugal", self.centrifugal),
            ("Coriolis", self.coriolis),
        ]
    }
}

/// Position and velocity in a frame's coordinates after one step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LocalMotion {
    /// Position in the frame's coordinates, m.
    pub position: DVec3,
    /// Velocity in the frame's coordinates, m/s.
    pub velocity: DVec3,
    /// The local acceleration at the end of the step.
    pub accel: DVec3,
}

/// Advances `(x, v)` by `h` in a moving frame by classical RK4. `frame` holds the
/// frame's GLOBAL dynamics at the start, the middle and the end of the step (the three
/// times RK4 evaluates), so the frame's motion through the step is the drives' own, not
/// an extrapolation. `real(x, v, inertial)` is the acceleration from real forces in the
/// frame's basis; it sees the inertial part because a constraint force (a pendulum's rod)
/// must balance it.
pub fn step_in_frame(
    frame: [&DynamicTransform; 3],
    x: DVec3,
    v: DVec3,
    h: f64,
    real: impl Fn(DVec3, DVec3, DVec3) -> DVec3,
) -> LocalMotion {
    let accel = |at: &DynamicTransform, x: DVec3, v: DVec3| {
        let inertial = InertialForces::at(at, x, v).total();
        inertial + real(x, v, inertial)
    };
    let [start, mid, end] = frame;
    let (x1, v1) = (x, v);
    let a1 = accel(start, x1, v1);
    let (x2, v2) = (x + 0.5 * h * v1, v + 0.5 * h * a1);
    let a2 = accel(mid, x2, v2);
    let (x3, v3) = (x + 0.5 * h * v2, v + 0.5 * h * a2);
    let a3 = accel(mid, x3, v3);
    let (x4, v4) = (x + h * v3, v + h * a3);
    let a4 = accel(end, x4, v4);
    let position = x + h / 6.0 * (v1 + 2.0 * v2 + 2.0 * v3 + v4);
    let velocity = v + h / 6.0 * (a1 + 2.0 * a2 + 2.0 * a3 + a4);
    LocalMotion {
        position,
        velocity,
        accel: accel(end, position, velocity),
    }
}

/// A massless rigid rod from `anchor` (frame coordinates) to the body's centre of mass.
#[derive(Clone, Copy, Debug, PartialEq, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Tether {
    /// The rod's fixed end, in frame coordinates, m.
    pub anchor: DVec3,
    /// The rod's length, m.
    pub length: f64,
}

/// How fast drift off the rod's length is pulled back (rad/s, critically damped).
const TETHER_STIFFNESS: f64 = 20.0;

impl Tether {
    /// The rod's acceleration along itself: exactly what keeps `|x − anchor|` constant
    /// given the other accelerations `other`, plus a critically damped pull against the
    /// integrator's drift (`C̈ + 2kĊ + k²C = 0` with `C = ½(|r|² − l²)`).
    pub fn accel(&self, x: DVec3, v: DVec3, other: DVec3) -> DVec3 {
        let r = x - self.anchor;
        let len = r.length();
        if len == 0.0 {
            return DVec3::ZERO;
        }
        let k = TETHER_STIFFNESS;
        let c = 0.5 * (r.length_squared() - self.length * self.length);
        let c_dot = r.dot(v);
        let lambda = (-2.0 * k * c_dot - k * k * c - v.length_squared() - r.dot(other)) / len;
        lambda * r / len
    }
}
