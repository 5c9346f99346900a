//! A rigid transform with one uniform scale: `A(x) = R S x + T` ([cwzx, Hierarchy]).
//!
//! One scale factor, not three: composing per-axis scales with rotations produces shears
//! that no (T, R, S) triple can hold, and a scaled rigid body must stay rigid.

use std::ops::Mul;

use glam::{DQuat, DVec3};

/// `A(x) = R S x + T`: a child frame's placement in its parent's.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Transform {
    /// `T`, the child origin in the parent frame, m.
    pub translation: DVec3,
    /// `R`, the child basis in the parent frame.
    pub rotation: DQuat,
    /// Positive and constant in time; the dynamics formulas assume so.
    pub scale: f64,
}

impl Transform {
    /// The parent frame itself: no translation, no rotation, scale 1.
    pub const IDENTITY: Self = Self {
        translation: DVec3::ZERO,
        rotation: DQuat::IDENTITY,
        scale: 1.0,
    };

    /// A rigid placement: scale 1.
    pub fn from_translation_rotation(translation: DVec3, rotation: DQuat) -> Self {
        Self {
            translation,
            rotation,
            scale: 1.0,
        }
    }

    /// `J x = R S x`: a direction or displacement from the child basis to the parent's.
    #[inline]
    pub fn transform_vector(&self, x: DVec3) -> DVec3 {
        self.rotation * (self.scale * x)
    }

    /// `J⁻¹ x = Rᵀ x / S`.
    #[inline]
    pub fn inverse_transform_vector(&self, x: DVec3) -> DVec3 {
        self.rotation.inverse() * x / self.scale
    }

    /// `A x = R S x + T`: a point from the child frame to the parent's.
    #[inline]
    pub fn transform_point(&self, x: DVec3) -> DVec3 {
        self.transform_vector(x) + self.translation
    }

    /// `(−J⁻¹T, Rᵀ, 1/S)`.
    pub fn inverse(&self) -> Self {
        Self {
            translation: -self.inverse_transform_vector(self.translation),
            rotation: self.rotation.inverse(),
            scale: 1.0 / self.scale,
        }
    }

    /// Whether translation, rotation and scale are all finite.
    pub fn is_finite(&self) -> bool {
        self.translation.is_finite() && self.rotation.is_finite() && self.scale.is_finite()
    }
}

impl Default for Transform {
    fn default() -> Self {
        Self::IDENTITY
    }
}

/// `self ∘ child`: the child's transform seen from this transform's parent.
impl Mul for Transform {
    type Output = Self;
    #[inline]
    fn mul(self, child: Self) -> Self {
        Self {
            translation: self.transform_point(child.translation),
            rotation: self.rotation * child.rotation,
            scale: self.scale * child.scale,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> (Transform, Transform) {
        let a = Transform {
            translation: DVec3::new(1.0, -2.0, 0.5),
            rotation: DQuat::from_axis_angle(DVec3::new(1.0, 2.0, -1.0).normalize(), 0.8),
            scale: 1.7,
        };
        let b = Transform {
            translation: DVec3::new(-0.3, 0.4, 2.0),
            rotation: DQuat::from_axis_angle(DVec3::new(0.0, 1.0, 3.0).normalize(), -2.1),
            scale: 0.6,
        };
        (a, b)
    }

    #[test]
    fn composition_applies_the_child_first() {
        let (a, b) = sample();
        let x = DVec3::new(0.2, 0.9, -1.4);
        let lhs = (a * b).transform_point(x);
        let rhs = a.transform_point(b.transform_point(x));
        assert!((lhs - rhs).length() < 1e-14);
    }

    #[test]
    fn inverse_undoes_the_transform_on_both_sides() {
        let (a, _) = sample();
        for id in [a * a.inverse(), a.inverse() * a] {
            assert!(id.translation.length() < 1e-14);
            assert!((id.rotation.w.abs() - 1.0).abs() < 1e-14);
            assert!((id.scale - 1.0).abs() < 1e-15);
        }
        let x = DVec3::new(3.0, -1.0, 0.25);
        assert!((a.inverse().transform_point(a.transform_point(x)) - x).length() < 1e-14);
    }
}
