//! The soft constraint impulse, the one formula every row of the solver (contacts,
//! joints, the mouse spring) computes its impulse with.

use std::ops::{Add, Mul, Neg, Sub};

use crate::solver::settings::Softness;

/// Box2D's soft constraint impulse [Catto 2024], the one formula of every row: through
/// the effective mass `mass` it drives the row's `velocity` toward `−bias`, softened by
/// the spring: `−mass (velocity + bias) mass_scale − impulse_scale accumulated`. A
/// scalar for a row, a vector with a 3×3 mass for a point block.
pub fn soft_impulse<M, V>(softness: Softness, mass: M, velocity: V, bias: V, accumulated: V) -> V
where
    M: Mul<V, Output = V>,
    V: Add<Output = V> + Sub<Output = V> + Neg<Output = V> + Mul<f64, Output = V>,
{
    let scales = (softness.mass_scale, softness.impulse_scale);
    soft_impulse_scaled(scales, mass, velocity, bias, accumulated)
}

/// [`soft_impulse`] with the softness's mass and impulse scales given, which differ from
/// slot to slot in the contact rows' [`kernel`](super::kernel).
#[inline(always)]
pub fn soft_impulse_scaled<M, V, S>(
    (mass_scale, impulse_scale): (S, S),
    mass: M,
    velocity: V,
    bias: V,
    accumulated: V,
) -> V
where
    M: Mul<V, Output = V>,
    V: Add<Output = V> + Sub<Output = V> + Neg<Output = V> + Mul<S, Output = V>,
{
    -(mass * (velocity + bias)) * mass_scale - accumulated * impulse_scale
}
