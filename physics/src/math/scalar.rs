//! A scalar abstraction so one residual function serves both plain `f64` evaluation and
//! forward-mode differentiation with dual numbers (`math::dual`).

use std::ops::{Add, Div, Mul, Neg, Sub};

/// The operations the rotational residuals need. `f64` and `Dual` implement it.
pub trait Scalar:
    Copy
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
{
    /// The constant `x` (zero derivative part for a dual number).
    fn from_f64(x: f64) -> Self;
    /// The real part; used only for branch decisions (series vs trigonometry).
    fn re(self) -> f64;
    /// Square root.
    fn sqrt(self) -> Self;
    /// Sine (argument in radians).
    fn sin(self) -> Self;
    /// Cosine (argument in radians).
    fn cos(self) -> Self;
}

impl Scalar for f64 {
    #[inline]
    fn from_f64(x: f64) -> Self {
        x
    }
    #[inline]
    fn re(self) -> f64 {
        self
    }
    #[inline]
    fn sqrt(self) -> Self {
        f64::sqrt(self)
    }
    #[inline]
    fn sin(self) -> Self {
        libm::sin(self)
    }
    #[inline]
    fn cos(self) -> Self {
        libm::cos(self)
    }
}

/// A 3-vector over any [`Scalar`]. glam's `DVec3` is used everywhere else; this exists
/// only so residuals can be written once and differentiated.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct V3<S> {
    /// The x component.
    pub x: S,
    /// The y component.
    pub y: S,
    /// The z component.
    pub z: S,
}

impl<S: Scalar> V3<S> {
    /// The vector `(x, y, z)`.
    #[inline]
    pub fn new(x: S, y: S, z: S) -> Self {
        Self { x, y, z }
    }
    /// A constant vector from glam's `DVec3`.
    #[inline]
    pub fn from_dvec3(v: glam::DVec3) -> Self {
        Self::new(S::from_f64(v.x), S::from_f64(v.y), S::from_f64(v.z))
    }
    /// The real parts, as glam's `DVec3`.
    #[inline]
    pub fn re(self) -> glam::DVec3 {
        glam::DVec3::new(self.x.re(), self.y.re(), self.z.re())
    }
    /// Dot product.
    #[inline]
    pub fn dot(self, o: Self) -> S {
        self.x * o.x + self.y * o.y + self.z * o.z
    }
    /// Cross product `self × o`.
    #[inline]
    pub fn cross(self, o: Self) -> Self {
        Self::new(
            self.y * o.z - self.z * o.y,
            self.z * o.x - self.x * o.z,
            self.x * o.y - self.y * o.x,
        )
    }
    /// Every component times `s`.
    #[inline]
    pub fn scale(self, s: S) -> Self {
        Self::new(self.x * s, self.y * s, self.z * s)
    }
    /// Component-wise product with a constant vector (a diagonal inertia).
    #[inline]
    pub fn mul_diag(self, d: glam::DVec3) -> Self {
        Self::new(
            self.x * S::from_f64(d.x),
            self.y * S::from_f64(d.y),
            self.z * S::from_f64(d.z),
        )
    }
}

impl<S: Scalar> Add for V3<S> {
    type Output = Self;
    #[inline]
    fn add(self, o: Self) -> Self {
        Self::new(self.x + o.x, self.y + o.y, self.z + o.z)
    }
}

impl<S: Scalar> Sub for V3<S> {
    type Output = Self;
    #[inline]
    fn sub(self, o: Self) -> Self {
        Self::new(self.x - o.x, self.y - o.y, self.z - o.z)
    }
}

impl<S: Scalar> Neg for V3<S> {
    type Output = Self;
    #[inline]
    fn neg(self) -> Self {
        Self::new(-self.x, -self.y, -self.z)
    }
}
