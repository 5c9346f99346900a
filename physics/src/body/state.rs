//! The state of one rigid body, in the form the best integrators need.
//!
//! Orientation and WORLD angular momentum are the state: torque-free, `L` is constant, so
//! the momentum-conserving integrators leave it bitwise unchanged and only the
//! orientation moves. Integrators that think in angular velocity (the engine baselines)
//! convert at the start and end of their step, so switching integrators mid-run is
//! seamless: no integrator keeps state of its own.

use glam::{DQuat, DVec3};

use super::inertia::Inertia;

/// Constant properties of a body.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MassProps {
    /// Mass, kg.
    pub mass: f64,
    /// Principal moments of inertia about the centre of mass, kg·m².
    pub inertia: Inertia,
}

/// Position of the centre of mass, linear velocity, orientation (principal body frame →
/// world) and world angular momentum about the centre of mass.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct BodyState {
    /// Centre of mass in world coordinates, m.
    pub position: DVec3,
    /// Velocity of the centre of mass, m/s.
    pub velocity: DVec3,
    /// Rotation from the principal body frame to the world (a unit quaternion).
    pub orientation: DQuat,
    /// Angular momentum about the centre of mass in world axes, kg·m²/s.
    pub angular_momentum: DVec3,
}

impl BodyState {
    /// A body at rest at the origin spinning with `omega_body` (principal body axes).
    pub fn from_body_omega(props: &MassProps, orientation: DQuat, omega_body: DVec3) -> Self {
        Self {
            position: DVec3::ZERO,
            velocity: DVec3::ZERO,
            orientation,
            angular_momentum: orientation * (props.inertia.principal() * omega_body),
        }
    }

    /// Angular momentum in body axes.
    #[inline]
    pub fn body_momentum(&self) -> DVec3 {
        self.orientation.inverse() * self.angular_momentum
    }

    /// Angular velocity in body axes, `I⁻¹ L_b`.
    #[inline]
    pub fn body_omega(&self, props: &MassProps) -> DVec3 {
        self.body_momentum() * props.inertia.inverse()
    }

    /// Angular velocity in world axes.
    #[inline]
    pub fn world_omega(&self, props: &MassProps) -> DVec3 {
        self.orientation * self.body_omega(props)
    }

    /// Sets the state from a world angular velocity, keeping the orientation; how the
    /// velocity-based baselines hand their result back.
    #[inline]
    pub fn set_world_omega(&mut self, props: &MassProps, omega: DVec3) {
        let body = self.orientation.inverse() * omega;
        self.angular_momentum = self.orientation * (props.inertia.principal() * body);
    }

    /// Kinetic energy, translational plus rotational.
    ///
    /// Each term is a product of two factors that overflow only when the term does:
    /// `½(m·v)·v` rather than `½m·v²` (where `|v| ≥ 1`, `|m·v| ≤ |m·v²|`; below, `|m·v| ≤
    /// m`), so a fast light body's energy is finite when it fits in a double.
    pub fn kinetic_energy(&self, props: &MassProps) -> f64 {
        let p = props.mass * self.velocity;
        (0.5 * p * self.velocity).element_sum() + self.rotational_energy(props)
    }

    /// Rotational kinetic energy `½ ω·L` in body axes, `ω = I⁻¹L`: never `L²`, which
    /// overflows for a heavy body (principal moments of 1e200) whose energy fits in a double.
    pub fn rotational_energy(&self, props: &MassProps) -> f64 {
        let lb = self.body_momentum();
        (0.5 * lb * (lb * props.inertia.inverse())).element_sum()
    }

    /// Whether every component of the state is finite (no NaN, no infinity).
    pub fn is_finite(&self) -> bool {
        self.position.is_finite()
            && self.velocity.is_finite()
            && self.orientation.is_finite()
            && self.angular_momentum.is_finite()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Energies that fit in a double come out finite, although `L²` and `v²` do not fit.
    #[test]
    fn energy_is_finite_when_it_fits_in_a_double() {
        let heavy = MassProps {
            mass: 1.0,
            inertia: Inertia::new(DVec3::new(1e200, 2e200, 2.5e200)).unwrap(),
        };
        let spin = DVec3::new(1.0, 2.0, 3.0);
        let state = BodyState::from_body_omega(&heavy, DQuat::from_rotation_y(0.7), spin);
        // ½ Σ I ω² = ½ (1 + 8 + 22.5)·1e200.
        let exact = 15.75e200;
        assert!((state.rotational_energy(&heavy) / exact - 1.0).abs() < 1e-14);
        assert!((state.kinetic_energy(&heavy) / exact - 1.0).abs() < 1e-14);

        let light = MassProps {
            mass: 1e-200,
            inertia: Inertia::new(DVec3::splat(1e-200)).unwrap(),
        };
        let fast = BodyState {
            velocity: DVec3::new(0.0, 3e200, -4e200),
            ..BodyState::from_body_omega(&light, DQuat::IDENTITY, DVec3::ZERO)
        };
        // ½ m v² = ½·1e-200·25e400.
        assert!((fast.kinetic_energy(&light) / 12.5e200 - 1.0).abs() < 1e-14);
    }
}
