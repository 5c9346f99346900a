//! What a body's surface is made of, for contacts: friction and restitution.

/// Friction and restitution of a body or a plane.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Material {
    /// Coulomb friction coefficient (tangential over normal impulse), dimensionless.
    pub friction: f64,
    /// Coefficient of restitution: separating over approaching normal speed, 0 to 1.
    pub restitution: f64,
}

impl Material {
    /// What a body or plane that sets nothing is made of.
    pub const DEFAULT: Self = Self {
        friction: 0.5,
        restitution: 0.0,
    };

    /// The material of a touching pair: the geometric mean of the frictions and the
    /// larger restitution, Box2D's mixing rules [Catto 2024].
    pub fn mix(a: &Self, b: &Self) -> Self {
        Self {
            friction: (a.friction * b.friction).sqrt(),
            restitution: a.restitution.max(b.restitution),
        }
    }
}

impl Default for Material {
    fn default() -> Self {
        Self::DEFAULT
    }
}
