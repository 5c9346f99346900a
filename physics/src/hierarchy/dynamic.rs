//! A transform with its motion: velocity `v`, acceleration `a`, angular velocity `ω` and
//! angular acceleration `α`, all expressed in the PARENT's frame ([cwzx, Hierarchy]
//! in docs/references.md). Composition, inverse and identity extend the
//! transform group, so a hierarchy of them computes global motion the way a hierarchy of
//! transforms computes global placement.
//!
//! Naming: object 1 is a child relative to its parent, 2 the parent relative to the world,
//! 3 the child relative to the world; `J = R S`.

use std::ops::{Add, Mul, Neg};

use glam::DVec3;

use super::transform::Transform;
use crate::math::quat;

/// A transform and its motion, all in the parent's frame.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct DynamicTransform {
    /// The placement in the parent frame.
    pub transform: Transform,
    /// `v`, velocity of the origin, m/s.
    pub velocity: DVec3,
    /// `a`, acceleration of the origin, m/s².
    pub accel: DVec3,
    /// `ω`, angular velocity, rad/s.
    pub angular_velocity: DVec3,
    /// `α`, angular acceleration, rad/s².
    pub angular_accel: DVec3,
}

/// An instantaneous change of motion (an impulse's effect), transforms unchanged.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Delta {
    /// Change of velocity, m/s.
    pub velocity: DVec3,
    /// Change of acceleration, m/s².
    pub accel: DVec3,
    /// Change of angular velocity, rad/s.
    pub angular_velocity: DVec3,
    /// Change of angular acceleration, rad/s².
    pub angular_accel: DVec3,
}

impl Delta {
    /// A change of velocity alone.
    pub fn velocity(dv: DVec3) -> Self {
        Self {
            velocity: dv,
            ..Self::default()
        }
    }
}

impl Add for Delta {
    type Output = Self;
    fn add(self, o: Self) -> Self {
        Self {
            velocity: self.velocity + o.velocity,
            accel: self.accel + o.accel,
            angular_velocity: self.angular_velocity + o.angular_velocity,
            angular_accel: self.angular_accel + o.angular_accel,
        }
    }
}

impl Neg for Delta {
    type Output = Self;
    fn neg(self) -> Self {
        Self {
            velocity: -self.velocity,
            accel: -self.accel,
            angular_velocity: -self.angular_velocity,
            angular_accel: -self.angular_accel,
        }
    }
}

impl DynamicTransform {
    /// The parent frame itself, at rest relative to it.
    pub const IDENTITY: Self = Self::at_rest(Transform::IDENTITY);

    /// `transform` with no motion relative to the parent.
    pub const fn at_rest(transform: Transform) -> Self {
        Self {
            transform,
            velocity: DVec3::ZERO,
            accel: DVec3::ZERO,
            angular_velocity: DVec3::ZERO,
            angular_accel: DVec3::ZERO,
        }
    }

    /// The inverse: the parent seen from the child. Composing with it gives zero motion.
    pub fn inverse(&self) -> Self {
        let (t, w) = (self.transform.translation, self.angular_velocity);
        let inv = self.transform.inverse();
        let r_t = inv.rotation;
        Self {
            transform: inv,
            velocity: self
                .transform
                .inverse_transform_vector(w.cross(t) - self.velocity),
            accel: self.transform.inverse_transform_vector(
                self.angular_accel.cross(t) - w.cross(w.cross(t)) + 2.0 * w.cross(self.velocity)
                    - self.accel,
            ),
            angular_velocity: -(r_t * w),
            angular_accel: -(r_t * self.angular_accel),
        }
    }

    /// Global → local: the motion of a child relative to this (its parent's global)
    /// dynamic transform, given the child's global motion. Equal to `self.inverse() *
    /// global`, written out as the reference's direct formulas.
    pub fn local_of(&self, global: &Self) -> Self {
        let p = &self.transform;
        let transform = p.inverse() * global.transform;
        let (w2, x) = (
            self.angular_velocity,
            global.transform.translation - p.translation,
        );
        let v1 = p.inverse_transform_vector(global.velocity - self.velocity - w2.cross(x));
        let r_t = p.rotation.inverse();
        Self {
            transform,
            velocity: v1,
            accel: p.inverse_transform_vector(
                global.accel
                    - self.accel
                    - self.angular_accel.cross(x)
                    - w2.cross(w2.cross(x))
                    - 2.0 * w2.cross(p.transform_vector(v1)),
            ),
            angular_velocity: r_t * (global.angular_velocity - w2),
            angular_accel: r_t
                * (global.angular_accel - self.angular_accel - w2.cross(global.angular_velocity)),
        }
    }

    /// Global change of a child from a change `d` of its local motion (self = the
    /// parent's global dynamics).
    pub fn delta_to_global(&self, d: Delta) -> Delta {
        let (p, w2) = (&self.transform, self.angular_velocity);
        let dv = p.transform_vector(d.velocity);
        let dw = p.rotation * d.angular_velocity;
        Delta {
            velocity: dv,
            accel: p.transform_vector(d.accel) + 2.0 * w2.cross(dv),
            angular_velocity: dw,
            angular_accel: p.rotation * d.angular_accel + w2.cross(dw),
        }
    }

    /// The local change that produces the global change `d` in a child: the inverse of
    /// [`Self::delta_to_global`].
    pub fn delta_to_local(&self, d: Delta) -> Delta {
        let (p, w2) = (&self.transform, self.angular_velocity);
        let r_t = p.rotation.inverse();
        Delta {
            velocity: p.inverse_transform_vector(d.velocity),
            accel: p.inverse_transform_vector(d.accel - 2.0 * w2.cross(d.velocity)),
            angular_velocity: r_t * d.angular_velocity,
            angular_accel: r_t * (d.angular_accel - w2.cross(d.angular_velocity)),
        }
    }

    /// Global change of a child (locally unchanged, `child` its local dynamics) when this,
    /// its parent's global dynamics, changes by `d`. Exact for finite changes.
    pub fn inherited_delta(&self, child: &Self, d: Delta) -> Delta {
        let (p, w2, dw) = (&self.transform, self.angular_velocity, d.angular_velocity);
        let x = p.transform_vector(child.transform.translation);
        let w3_minus_w2 = p.rotation * child.angular_velocity;
        Delta {
            velocity: d.velocity + dw.cross(x),
            accel: d.accel
                + d.angular_accel.cross(x)
                + dw.cross(w2.cross(x))
                + w2.cross(dw.cross(x))
                + dw.cross(dw.cross(x))
                + 2.0 * dw.cross(p.transform_vector(child.velocity)),
            angular_velocity: dw,
            angular_accel: d.angular_accel + dw.cross(w3_minus_w2),
        }
    }

    /// A world impulse `dp` on a child body of mass `m`, as a change of its local motion:
    /// `Δv₁ = J⁻¹Δp/m` and the Coriolis term `Δa₁ = −(2/m) J⁻¹(ω₂ × Δp)`.
    pub fn impulse_to_local(&self, dp: DVec3, mass: f64) -> Delta {
        self.delta_to_local(Delta::velocity(dp / mass))
    }

    /// The local change an immediate child needs so that it does NOT inherit this
    /// parent's abrupt global velocity change `dv` ([cwzx, Hierarchy]: objects loose
    /// in a crashing car). The children of a child counteracted this way keep their global
    /// motion through it and need nothing; a child that is not counteracted (a frame
    /// fixed to this one) passes the change on to its own children.
    pub fn counteract(&self, dv: DVec3) -> Delta {
        self.delta_to_local(Delta::velocity(-dv))
    }

    /// The motion of a point fixed at `at` in this frame's coordinates (a muzzle, a shell
    /// held in the breech): `self * (at, at rest)`.
    pub fn point(&self, at: DVec3) -> Self {
        *self
            * Self::at_rest(Transform {
                translation: at,
                ..Transform::IDENTITY
            })
    }

    /// Adds a change of motion; the transform is unchanged.
    pub fn apply(&mut self, d: Delta) {
        self.velocity += d.velocity;
        self.accel += d.accel;
        self.angular_velocity += d.angular_velocity;
        self.angular_accel += d.angular_accel;
    }

    /// The motion after `h` at constant acceleration and angular acceleration: `T` and
    /// `v` exactly, the rotation by the two-term Magnus update of [cwzx, Magnus] (exact when `α`
    /// is parallel to `ω`, third order otherwise).
    pub fn advanced(&self, h: f64) -> Self {
        let w0 = self.angular_velocity;
        let w1 = w0 + self.angular_accel * h;
        let magnus = 0.5 * (w0 + w1) * h + w1.cross(w0) * (h * h / 12.0);
        let mut next = *self;
        next.transform.translation += (self.velocity + 0.5 * self.accel * h) * h;
        next.transform.rotation = (quat::exp(magnus) * self.transform.rotation).normalize();
        next.velocity += self.accel * h;
        next.angular_velocity = w1;
        next
    }

    /// Whether the transform and every rate are finite.
    pub fn is_finite(&self) -> bool {
        self.transform.is_finite()
            && self.velocity.is_finite()
            && self.accel.is_finite()
            && self.angular_velocity.is_finite()
            && self.angular_accel.is_finite()
    }
}

impl Default for DynamicTransform {
    fn default() -> Self {
        Self::IDENTITY
    }
}

/// `parent * child`: local → global (the reference's "dynamics of the composition").
impl Mul for DynamicTransform {
    type Output = Self;
    #[inline]
    fn mul(self, child: Self) -> Self {
        let p = &self.transform;
        let (w2, a2) = (self.angular_velocity, self.angular_accel);
        let x = p.transform_vector(child.transform.translation);
        let jv1 = p.transform_vector(child.velocity);
        let rw1 = p.rotation * child.angular_velocity;
        Self {
            transform: *p * child.transform,
            velocity: self.velocity + jv1 + w2.cross(x),
            accel: self.accel
                + p.transform_vector(child.accel)
                + a2.cross(x)
                + w2.cross(w2.cross(x))
                + 2.0 * w2.cross(jv1),
            angular_velocity: w2 + rw1,
            angular_accel: a2 + p.rotation * child.angular_accel + w2.cross(rw1),
        }
    }
}
