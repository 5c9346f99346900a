//! Lengths of vectors whose squares overflow. `DVec3::length` squares its components, so a
//! momentum of 1e160 has an infinite length although 1e160 is a double; scaling by the
//! largest component first keeps every intermediate in range [Blue 1978].

use glam::DVec3;

/// `|v|`, finite whenever the result is: `m·|v/m|` with `m` the largest `|component|`.
/// A vector that is not finite has its plain length, inf or NaN.
pub fn length(v: DVec3) -> f64 {
    let m = v.abs().max_element();
    if !v.is_finite() {
        return v.length();
    }
    if m == 0.0 {
        return 0.0;
    }
    m * (v / m).length()
}

/// `v/|v|` without squaring `v` (zero for the zero vector and one that is not finite).
pub fn direction(v: DVec3) -> DVec3 {
    let m = v.abs().max_element();
    if m == 0.0 || !v.is_finite() {
        return DVec3::ZERO;
    }
    (v / m).normalize()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_of_huge_and_tiny_vectors_are_exact_where_squares_are_not() {
        let big = DVec3::new(3e200, -4e200, 0.0);
        assert!(big.length().is_infinite(), "the naive square overflows");
        assert!((length(big) / 5e200 - 1.0).abs() < 1e-15);
        let tiny = DVec3::new(3e-200, 4e-200, 0.0);
        assert_eq!(tiny.length(), 0.0, "the naive square underflows");
        assert!((length(tiny) / 5e-200 - 1.0).abs() < 1e-15);
        assert!((direction(big) - DVec3::new(0.6, -0.8, 0.0)).length() < 1e-15);
        assert_eq!(length(DVec3::ZERO), 0.0);
        assert_eq!(direction(DVec3::ZERO), DVec3::ZERO);
        assert!(length(DVec3::new(f64::INFINITY, 1.0, 0.0)).is_infinite());
        assert!(length(DVec3::new(1.0, f64::NAN, 0.0)).is_nan());
    }
}
