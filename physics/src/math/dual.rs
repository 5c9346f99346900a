//! Dual numbers `a + bε` with `ε² = 0` [cwzx, Dual numbers]: evaluating `f(x + ε)` yields `f(x)` and
//! `f'(x)` exactly, with no step size to tune. Used to check every hand-derived Jacobian.

use std::ops::{Add, Div, Mul, Neg, Sub};

use glam::{DMat3, DVec3};

use super::scalar::{Scalar, V3};

/// `re + eps·ε`. The parts are any [`Scalar`], so `Dual<Dual>` nests: evaluating
/// `f(t + ε₁ + ε₂)` gives `f''(t)` in the `ε₁ε₂` part (second derivatives of paths).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dual<S = f64> {
    /// The value part.
    pub re: S,
    /// The derivative part: the coefficient of ε.
    pub eps: S,
}

impl<S: Scalar> Dual<S> {
    /// `re + eps·ε`.
    pub fn new(re: S, eps: S) -> Self {
        Self { re, eps }
    }
    /// A constant: derivative 0.
    pub fn constant(re: S) -> Self {
        Self::new(re, S::from_f64(0.0))
    }
    /// The variable differentiated by: derivative 1 (`re + ε`).
    pub fn variable(re: S) -> Self {
        Self::new(re, S::from_f64(1.0))
    }
}

impl<S: Scalar> Add for Dual<S> {
    type Output = Self;
    fn add(self, o: Self) -> Self {
        Self::new(self.re + o.re, self.eps + o.eps)
    }
}

impl<S: Scalar> Sub for Dual<S> {
    type Output = Self;
    fn sub(self, o: Self) -> Self {
        Self::new(self.re - o.re, self.eps - o.eps)
    }
}

impl<S: Scalar> Mul for Dual<S> {
    type Output = Self;
    fn mul(self, o: Self) -> Self {
        Self::new(self.re * o.re, self.re * o.eps + self.eps * o.re)
    }
}

impl<S: Scalar> Div for Dual<S> {
    type Output = Self;
    fn div(self, o: Self) -> Self {
        Self::new(
            self.re / o.re,
            (self.eps * o.re - self.re * o.eps) / (o.re * o.re),
        )
    }
}

impl<S: Scalar> Neg for Dual<S> {
    type Output = Self;
    fn neg(self) -> Self {
        Self::new(-self.re, -self.eps)
    }
}

impl<S: Scalar> Scalar for Dual<S> {
    fn from_f64(x: f64) -> Self {
        Self::constant(S::from_f64(x))
    }
    fn re(self) -> f64 {
        self.re.re()
    }
    fn sqrt(self) -> Self {
        let s = self.re.sqrt();
        Self::new(s, self.eps / (S::from_f64(2.0) * s))
    }
    fn sin(self) -> Self {
        Self::new(self.re.sin(), self.eps * self.re.cos())
    }
    fn cos(self) -> Self {
        Self::new(self.re.cos(), -(self.eps * self.re.sin()))
    }
}

/// Jacobian of `f: R³ → R³` at `x` by three forward-mode evaluations, one per input
/// direction; column `j` is `∂f/∂x_j`.
pub fn jacobian3(f: impl Fn(V3<Dual>) -> V3<Dual>, x: DVec3) -> DMat3 {
    let column = |j: usize| {
        let seed = |i: usize| Dual::new(x[i], if i == j { 1.0 } else { 0.0 });
        let y = f(V3::new(seed(0), seed(1), seed(2)));
        DVec3::new(y.x.eps, y.y.eps, y.z.eps)
    };
    DMat3::from_cols(column(0), column(1), column(2))
}

/// Derivative of a scalar function at `x`.
pub fn derivative(f: impl Fn(Dual) -> Dual, x: f64) -> f64 {
    f(Dual::variable(x)).eps
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derivative_of_composite_matches_closed_form() {
        let f = |x: Dual| (x * x).sin() / (Dual::constant(1.0) + x.sqrt());
        let x: f64 = 0.7;
        let expected = {
            let g = 1.0 + x.sqrt();
            (2.0 * x * (x * x).cos() * g - (x * x).sin() * 0.5 / x.sqrt()) / (g * g)
        };
        assert!((derivative(f, x) - expected).abs() < 1e-14);
    }

    #[test]
    fn nested_duals_give_the_second_derivative() {
        // f(x) = sin(x²): f'' = 2 cos x² − 4x² sin x².
        let x: f64 = 0.9;
        let t = Dual::new(Dual::variable(x), Dual::constant(1.0));
        let f = (t * t).sin();
        let expected = 2.0 * (x * x).cos() - 4.0 * x * x * (x * x).sin();
        assert!((f.eps.eps - expected).abs() < 1e-14);
        assert_eq!(f.re.eps, f.eps.re, "both first-derivative parts agree");
    }

    #[test]
    fn jacobian_of_cross_product_is_skew_matrix() {
        let a = DVec3::new(0.3, -1.2, 2.0);
        let j = jacobian3(|v| V3::from_dvec3(a).cross(v), DVec3::new(1.0, 2.0, 3.0));
        let skew = DMat3::from_cols(
            DVec3::new(0.0, a.z, -a.y),
            DVec3::new(-a.z, 0.0, a.x),
            DVec3::new(a.y, -a.x, 0.0),
        );
        assert!((j - skew).abs().to_cols_array().iter().all(|e| *e < 1e-15));
    }
}
