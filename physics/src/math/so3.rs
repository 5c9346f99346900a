//! Exponential coordinates on SO(3) [Mizerski 2020].
//!
//! `R(v) = I + a[v] + b[v]²`, `T(v) = I + b[v] + c[v]²`, `T(v)⁻¹ = I − ½[v] + d[v]²`.
//! The coefficients are even functions of `θ = |v|`, so below 0.5 rad they come from
//! series in `θ²` (no square root, no cancellation); up to 1 rad from the half angle by
//! the double-angle identities; only beyond that from trigonometry.

use glam::{DMat3, DVec3};

use super::scalar::{Scalar, V3};

/// `a = sinθ/θ`: terms `(-1)^k / (2k+1)!`.
const A_SERIES: [f64; 8] = [
    1.0,
    -1.0 / 6.0,
    1.0 / 120.0,
    -1.0 / 5040.0,
    1.0 / 362880.0,
    -1.0 / 39916800.0,
    1.0 / 6227020800.0,
    -1.0 / 1307674368000.0,
];
/// `b = (1−cosθ)/θ²`: terms `(-1)^k / (2k+2)!`.
const B_SERIES: [f64; 8] = [
    0.5,
    -1.0 / 24.0,
    1.0 / 720.0,
    -1.0 / 40320.0,
    1.0 / 3628800.0,
    -1.0 / 479001600.0,
    1.0 / 87178291200.0,
    -1.0 / 20922789888000.0,
];
/// `c = (θ−sinθ)/θ³`: terms `(-1)^k / (2k+3)!`.
const C_SERIES: [f64; 8] = [
    1.0 / 6.0,
    -1.0 / 120.0,
    1.0 / 5040.0,
    -1.0 / 362880.0,
    1.0 / 39916800.0,
    -1.0 / 6227020800.0,
    1.0 / 1307674368000.0,
    -1.0 / 355687428096000.0,
];
/// `d = (1 − (θ/2)cot(θ/2))/θ²`: terms `|B₂ₙ| / (2n)!` (Bernoulli numbers).
const D_SERIES: [f64; 8] = [
    1.0 / 12.0,
    1.0 / 720.0,
    1.0 / 30240.0,
    1.0 / 1209600.0,
    1.0 / 47900160.0,
    691.0 / 1307674368000.0,
    1.0 / 74724249600.0,
    3617.0 / 10670622842880000.0,
];

/// Degree-14 series are accurate to an ulp in f64 up to this θ² (θ = 0.5).
const SERIES_MAX_THETA2: f64 = 0.25;
/// The double-angle step keeps the half angle inside the series range up to θ = 1.
const DOUBLE_ANGLE_MAX_THETA2: f64 = 1.0;

/// The degree-7 polynomial in `x` by Estrin's scheme: a dependency chain of three
/// multiply-adds instead of Horner's seven, which is what the Newton loop waits on.
#[inline]
fn poly<S: Scalar>(x: S, c: &[f64; 8]) -> S {
    let k = |i: usize| S::from_f64(c[i]);
    let x2 = x * x;
    let x4 = x2 * x2;
    let p01 = k(0) + k(1) * x;
    let p23 = k(2) + k(3) * x;
    let p45 = k(4) + k(5) * x;
    let p67 = k(6) + k(7) * x;
    (p01 + p23 * x2) + (p45 + p67 * x2) * x4
}

/// The coefficients `a, b, c` of `R(v)` and `T(v)`, from `θ²`.
#[derive(Clone, Copy, Debug)]
pub struct Coeffs<S> {
    /// `a = sinθ/θ`.
    pub a: S,
    /// `b = (1−cosθ)/θ²`.
    pub b: S,
    /// `c = (θ−sinθ)/θ³`.
    pub c: S,
}

/// `a, b, c` from `θ²`: series, double angle or trigonometry by the size of `θ`.
#[inline]
pub fn coeffs<S: Scalar>(t2: S) -> Coeffs<S> {
    coeffs_with::<S, true>(t2)
}

/// Only `a` and `b`, the coefficients of `R(v)`: hot paths that rotate but do not need
/// `T(v)` skip the third series.
#[inline]
pub fn coeffs_ab<S: Scalar>(t2: S) -> (S, S) {
    let k = coeffs_with::<S, false>(t2);
    (k.a, k.b)
}

/// `c` is computed only when `WITH_C`; otherwise it is zero and must not be read.
#[inline]
fn coeffs_with<S: Scalar, const WITH_C: bool>(t2: S) -> Coeffs<S> {
    let series = |x: S| Coeffs {
        a: poly(x, &A_SERIES),
        b: poly(x, &B_SERIES),
        c: if WITH_C {
            poly(x, &C_SERIES)
        } else {
            S::from_f64(0.0)
        },
    };
    let x = t2.re();
    if x <= SERIES_MAX_THETA2 {
        series(t2)
    } else if x <= DOUBLE_ANGLE_MAX_THETA2 {
        let quarter = t2 * S::from_f64(0.25);
        let h = series(quarter);
        let cos_half = S::from_f64(1.0) - quarter * h.b;
        Coeffs {
            a: h.a * cos_half,
            b: S::from_f64(0.5) * h.a * h.a,
            c: S::from_f64(0.25) * (h.c + h.a * h.b),
        }
    } else {
        let t = t2.sqrt();
        let (s, co) = (t.sin(), t.cos());
        Coeffs {
            a: s / t,
            b: (S::from_f64(1.0) - co) / t2,
            c: (t - s) / (t * t2),
        }
    }
}

/// `d` of `T(v)⁻¹`; singular at θ = 2π where `T` is not invertible.
#[inline]
pub fn coeff_d<S: Scalar>(t2: S) -> S {
    if t2.re() <= SERIES_MAX_THETA2 {
        poly(t2, &D_SERIES)
    } else {
        let k = coeffs(t2);
        (S::from_f64(2.0) * k.b - k.a) / (S::from_f64(2.0) * k.b * t2)
    }
}

/// `R(v) x` for any scalar type.
#[inline]
pub fn rotate<S: Scalar>(v: V3<S>, x: V3<S>) -> V3<S> {
    let k = coeffs(v.dot(v));
    let vx = v.cross(x);
    x + vx.scale(k.a) + v.cross(vx).scale(k.b)
}

/// `T(v) x` for any scalar type.
#[inline]
pub fn tangent<S: Scalar>(v: V3<S>, x: V3<S>) -> V3<S> {
    let k = coeffs(v.dot(v));
    let vx = v.cross(x);
    x + vx.scale(k.b) + v.cross(vx).scale(k.c)
}

/// `T(v)⁻¹ x` for any scalar type.
#[inline]
pub fn tangent_inv<S: Scalar>(v: V3<S>, x: V3<S>) -> V3<S> {
    let d = coeff_d(v.dot(v));
    let vx = v.cross(x);
    x - vx.scale(S::from_f64(0.5)) + v.cross(vx).scale(d)
}

/// The cross-product matrix `[v]`, `[v] x = v × x`.
#[inline]
pub fn skew(v: DVec3) -> DMat3 {
    DMat3::from_cols(
        DVec3::new(0.0, v.z, -v.y),
        DVec3::new(-v.z, 0.0, v.x),
        DVec3::new(v.y, -v.x, 0.0),
    )
}

/// `I + p[v] + q[v]²` without forming `[v]²` by a matrix product.
#[inline]
pub fn quadratic(v: DVec3, p: f64, q: f64) -> DMat3 {
    let t2 = v.length_squared();
    let d = 1.0 - q * t2;
    let (pv, qv) = (v * p, v * q);
    DMat3::from_cols(
        DVec3::new(d + qv.x * v.x, pv.z + qv.y * v.x, -pv.y + qv.z * v.x),
        DVec3::new(-pv.z + qv.x * v.y, d + qv.y * v.y, pv.x + qv.z * v.y),
        DVec3::new(pv.y + qv.x * v.z, -pv.x + qv.y * v.z, d + qv.z * v.z),
    )
}

/// `R(v)` and `T(v)` as matrices, sharing one coefficient evaluation.
#[inline]
pub fn rotation_and_tangent(v: DVec3) -> (DMat3, DMat3) {
    let k = coeffs(v.length_squared());
    (quadratic(v, k.a, k.b), quadratic(v, k.b, k.c))
}

/// `R(v)` as a matrix.
#[inline]
pub fn rotation_matrix(v: DVec3) -> DMat3 {
    let k = coeffs(v.length_squared());
    quadratic(v, k.a, k.b)
}

/// `T(v)` as a matrix.
#[inline]
pub fn tangent_matrix(v: DVec3) -> DMat3 {
    let k = coeffs(v.length_squared());
    quadratic(v, k.b, k.c)
}

/// `T(v)⁻¹` as a matrix.
#[inline]
pub fn tangent_inv_matrix(v: DVec3) -> DMat3 {
    quadratic(v, -0.5, coeff_d(v.length_squared()))
}

/// `R(u) x` from the coefficients `a`, `b` of `|u|²`.
#[inline]
pub fn rotate_ab(a: f64, b: f64, u: DVec3, x: DVec3) -> DVec3 {
    let ux = u.cross(x);
    x + a * ux + b * u.cross(ux)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::dual::jacobian3;

    fn max_abs(m: DMat3) -> f64 {
        m.to_cols_array().iter().fold(0.0, |a, e| a.max(e.abs()))
    }

    fn sample_vectors() -> Vec<DVec3> {
        // Angles spanning every branch: series, double angle, trigonometry.
        [
            1e-9, 1e-4, 0.1, 0.3, 0.49, 0.51, 0.8, 0.99, 1.01, 2.0, 3.0, 5.5,
        ]
        .iter()
        .map(|&t| DVec3::new(0.3, -0.5, 0.81).normalize() * t)
        .collect()
    }

    #[test]
    fn coefficients_match_closed_forms_in_every_branch() {
        for t in [1e-3, 0.2, 0.45, 0.55, 0.7, 0.95, 1.05, 2.5] {
            let t2: f64 = t * t;
            let k = coeffs(t2);
            let exact_a = t.sin() / t;
            let exact_b = (1.0 - t.cos()) / t2;
            let exact_c = (t - t.sin()) / (t * t2);
            let exact_d = (1.0 - (t / 2.0) / (t / 2.0).tan()) / t2;
            // The closed forms cancel at small θ; compare to what they can deliver.
            let tol = 1e-15 / t2.min(1.0);
            assert!((k.a - exact_a).abs() < 1e-15, "a at {t}");
            assert!((k.b - exact_b).abs() < tol, "b at {t}");
            assert!((k.c - exact_c).abs() < tol / t, "c at {t}");
            assert!((coeff_d(t2) - exact_d).abs() < tol / t, "d at {t}");
        }
    }

    #[test]
    fn series_and_double_angle_are_continuous_at_the_switch_points() {
        for edge in [SERIES_MAX_THETA2, DOUBLE_ANGLE_MAX_THETA2] {
            let below = coeffs(edge * (1.0 - 1e-15));
            let above = coeffs(edge * (1.0 + 1e-15));
            assert!((below.a - above.a).abs() < 4e-16);
            assert!((below.b - above.b).abs() < 4e-16);
            assert!((below.c - above.c).abs() < 4e-16);
        }
    }

    #[test]
    fn rotation_is_orthonormal_and_fixes_its_axis() {
        for v in sample_vectors() {
            let r = rotation_matrix(v);
            assert!(max_abs(r.transpose() * r - DMat3::IDENTITY) < 1e-14);
            assert!((r.determinant() - 1.0).abs() < 1e-14);
            assert!((r * v - v).length() < 1e-14 * (1.0 + v.length()));
            assert!((tangent_matrix(v) * v - v).length() < 1e-14 * (1.0 + v.length()));
        }
    }

    #[test]
    fn rotation_matches_glam_axis_angle() {
        for v in sample_vectors() {
            let glam_r = DMat3::from_axis_angle(v.normalize(), v.length());
            assert!(max_abs(rotation_matrix(v) - glam_r) < 1e-14);
        }
    }

    #[test]
    fn tangent_identities_hold() {
        for v in sample_vectors() {
            let (r, t) = rotation_and_tangent(v);
            assert!(max_abs(t.transpose() - tangent_matrix(-v)) < 1e-15);
            assert!(max_abs(r * tangent_matrix(-v) - t) < 1e-14);
            assert!(max_abs(tangent_inv_matrix(v) * t - DMat3::IDENTITY) < 1e-13);
            let x = DVec3::new(-0.2, 0.7, 1.3);
            let generic = tangent_inv::<f64>(V3::from_dvec3(v), V3::from_dvec3(x)).re();
            assert!((generic - tangent_inv_matrix(v) * x).length() < 1e-14);
        }
    }

    #[test]
    fn derivative_of_rotation_is_minus_skew_rx_times_t() {
        // d/dε R(v+εY)X = −[R(v)X] T(v) Y, checked with dual numbers.
        let x = DVec3::new(0.4, -1.1, 0.6);
        for v in sample_vectors() {
            let ad = jacobian3(|w| rotate(w, V3::from_dvec3(x)), v);
            let (r, t) = rotation_and_tangent(v);
            let analytic = -skew(r * x) * t;
            assert!(max_abs(ad - analytic) < 1e-13, "at |v| = {}", v.length());
        }
    }
}
