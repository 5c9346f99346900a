//! Jacobi elliptic functions and elliptic integrals of the first kind, the ground truth of
//! the torque-free top. Near the Dzhanibekov separatrix the parameter `m` is within 1e-12
//! of 1, where `1 − m` computed by subtraction has no digits left, so every function here
//! takes the complement `mc = 1 − m` from the caller, computed without cancellation.

/// An elliptic parameter with its complement, both exact.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Parameter {
    /// The parameter `m` (= k², the modulus squared).
    pub m: f64,
    /// Its complement `1 − m`.
    pub mc: f64,
}

impl Parameter {
    /// From the complement `mc`, exact where `m` is near 1.
    pub fn from_complement(mc: f64) -> Self {
        Self { m: 1.0 - mc, mc }
    }
}

/// `sn, cn, dn` of `u` at parameter `p`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Jacobi {
    /// `sn(u | m)`.
    pub sn: f64,
    /// `cn(u | m)`.
    pub cn: f64,
    /// `dn(u | m)`.
    pub dn: f64,
}

/// Jacobi elliptic functions by the arithmetic-geometric mean and descending Landen
/// transformation (Abramowitz & Stegun 16.4, as in Cephes `ellpj`). The argument is
/// first reduced modulo the period `4K`, so accuracy does not decay along a long run.
pub fn jacobi(u: f64, p: Parameter) -> Jacobi {
    // |u| ≤ π/2 ≤ K never needs reduction; spare the AGM for K in that case.
    if u.abs() <= std::f64::consts::FRAC_PI_2 {
        jacobi_reduced(u, p)
    } else {
        jacobi_with_quarter_period(u, p, complete_k(p))
    }
}

/// [`jacobi`] for callers that already know `K(m)`.
pub fn jacobi_with_quarter_period(u: f64, p: Parameter, k: f64) -> Jacobi {
    let period = 4.0 * k;
    let reduced = if period.is_finite() && u.abs() > 0.5 * period {
        u - period * (u / period).round()
    } else {
        u
    };
    jacobi_reduced(reduced, p)
}

fn jacobi_reduced(u: f64, p: Parameter) -> Jacobi {
    if p.mc <= 0.0 {
        // The separatrix: sn = tanh, cn = dn = sech.
        let sech = 1.0 / libm::cosh(u);
        return Jacobi {
            sn: libm::tanh(u),
            cn: sech,
            dn: sech,
        };
    }
    if p.m < 1e-300 {
        return Jacobi {
            sn: libm::sin(u),
            cn: libm::cos(u),
            dn: 1.0,
        };
    }
    const MAX: usize = 16;
    let mut a = [0.0; MAX + 1];
    let mut c = [0.0; MAX + 1];
    a[0] = 1.0;
    c[0] = p.m.sqrt();
    let mut b = p.mc.sqrt();
    let mut twon = 1.0;
    let mut i = 0;
    while (c[i] / a[i]).abs() > f64::EPSILON && i < MAX {
        let ai = a[i];
        i += 1;
        c[i] = 0.5 * (ai - b);
        let t = (ai * b).sqrt();
        a[i] = 0.5 * (ai + b);
        b = t;
        twon *= 2.0;
    }
    let mut phi = twon * a[i] * u;
    while i > 0 {
        phi = 0.5 * (libm::asin(c[i] * libm::sin(phi) / a[i]) + phi);
        i -= 1;
    }
    let (sn, cn) = libm::sincos(phi);
    // dn² = cn² + mc·sn²: a sum of non-negative terms, accurate even where dn is tiny
    // (Cephes' cn/cos(φ₁ − φ₀) divides two vanishing numbers near u = K).
    Jacobi {
        sn,
        cn,
        dn: (cn * cn + p.mc * sn * sn).sqrt(),
    }
}

/// Carlson's symmetric integral `R_F(x, y, z)` (Carlson 1995, duplication theorem).
pub fn carlson_rf(mut x: f64, mut y: f64, mut z: f64) -> f64 {
    // The fifth-order tail leaves an error of about TOL⁶ / 4.
    const TOL: f64 = 1e-3;
    loop {
        let (sx, sy, sz) = (x.sqrt(), y.sqrt(), z.sqrt());
        let lambda = sx * (sy + sz) + sy * sz;
        x = 0.25 * (x + lambda);
        y = 0.25 * (y + lambda);
        z = 0.25 * (z + lambda);
        let mean = (x + y + z) / 3.0;
        let (dx, dy, dz) = (1.0 - x / mean, 1.0 - y / mean, 1.0 - z / mean);
        if dx.abs().max(dy.abs()).max(dz.abs()) < TOL {
            let e2 = dx * dy - dz * dz;
            let e3 = dx * dy * dz;
            return (1.0 + (e2 / 24.0 - 0.1 - 3.0 * e3 / 44.0) * e2 + e3 / 14.0) / mean.sqrt();
        }
    }
}

/// Complete elliptic integral of the first kind `K(m)`, from the AGM of `1` and `√mc`:
/// accurate as `mc → 0`, where `K ≈ ln(4/√mc)`.
pub fn complete_k(p: Parameter) -> f64 {
    if p.mc <= 0.0 {
        return f64::INFINITY;
    }
    let (mut a, mut b) = (1.0, p.mc.sqrt());
    while (a - b).abs() > f64::EPSILON * a {
        (a, b) = (0.5 * (a + b), (a * b).sqrt());
    }
    std::f64::consts::PI / (a + b)
}

/// Incomplete elliptic integral of the first kind `F(φ|m)` for any real `φ`, using
/// `F(φ + nπ) = F(φ) + 2nK`.
pub fn incomplete_f(phi: f64, p: Parameter) -> f64 {
    let n = (phi / std::f64::consts::PI).round();
    let r = phi - n * std::f64::consts::PI;
    let (s, c) = libm::sincos(r);
    let reduced = s * carlson_rf(c * c, c * c + p.mc * s * s, 1.0);
    if n == 0.0 {
        reduced
    } else {
        reduced + 2.0 * n * complete_k(p)
    }
}

#[cfg(test)]
// Reference values are quoted with every digit mpmath printed.
#[allow(clippy::excessive_precision)]
mod tests {
    use super::*;

    /// Reference values from mpmath 1.3 at 30 digits: (u, mc, sn, cn, dn).
    const JACOBI_REFERENCE: [(f64, f64, f64, f64, f64); 7] = [
        (
            0.3,
            0.5,
            0.29341273316845537748,
            0.95598586182778707744,
            0.97824050417436120533,
        ),
        (
            1.7,
            0.09999999999999998,
            0.95223054210801865053,
            0.3053800823181972353,
            0.42887211987841085076,
        ),
        (
            2.5,
            1e-6,
            0.98661452818385370167,
            0.16306984018067764628,
            0.16307282478935284949,
        ),
        (
            4.0,
            1e-12,
            0.99932929973931553517,
            0.036618993466905223745,
            0.036618993480541030666,
        ),
        (
            0.8,
            1.0,
            0.71735609089952279257,
            0.69670670934716538906,
            1.0,
        ),
        (
            10.0,
            1e-9,
            0.99999999612390238907,
            0.000088046551362486615106,
            0.000093553167766114678005,
        ),
        (
            -1.2,
            0.8,
            -0.91555785937511590271,
            0.40218628287953269445,
            0.91233259353554342329,
        ),
    ];

    #[test]
    fn jacobi_functions_match_reference_values() {
        for (u, mc, sn, cn, dn) in JACOBI_REFERENCE {
            let j = jacobi(u, Parameter::from_complement(mc));
            // Absolute error; dn and cn near the separatrix are ~1e-4 and must keep
            // their relative digits too, hence the scaled bound.
            for (got, want, name) in [(j.sn, sn, "sn"), (j.cn, cn, "cn"), (j.dn, dn, "dn")] {
                let tol = 1e-14 * (1.0 + u.abs()) * want.abs().max(1e-3);
                assert!(
                    (got - want).abs() < tol.max(3e-16),
                    "{name}({u}|mc={mc}) = {got}, want {want}"
                );
            }
        }
    }

    #[test]
    fn jacobi_identities_hold_across_parameters() {
        for mc in [0.9, 0.5, 1e-3, 1e-8, 1e-11, 1e-14] {
            let p = Parameter::from_complement(mc);
            for u in [-3.0, -0.4, 0.0, 0.9, 2.2, 7.5] {
                let j = jacobi(u, p);
                assert!((j.sn * j.sn + j.cn * j.cn - 1.0).abs() < 1e-14);
                assert!((j.dn * j.dn + p.m * j.sn * j.sn - 1.0).abs() < 1e-14);
            }
            // sn(K) = 1, cn(K) = 0, dn(K) = √mc.
            let k = complete_k(p);
            let j = jacobi(k, p);
            assert!((j.sn - 1.0).abs() < 1e-13, "sn(K) at mc={mc}");
            assert!(
                j.cn.abs() < 1e-7 * mc.sqrt().max(1e-7) + 1e-13,
                "cn(K) at mc={mc}"
            );
        }
    }

    #[test]
    fn complete_integral_matches_reference_values() {
        for (mc, k) in [
            (0.5, 1.8540746773013719184),
            (0.1, 2.5780921133481731882),
            (1e-6, 8.2940514636154399853),
            (1e-12, 15.201804919087715174),
        ] {
            let got = complete_k(Parameter::from_complement(mc));
            assert!((got - k).abs() < 4e-16 * k, "K(mc={mc}) = {got}, want {k}");
        }
        assert!(complete_k(Parameter::from_complement(0.0)).is_infinite());
    }

    #[test]
    fn incomplete_integral_matches_reference_and_inverts_sn() {
        for (phi, mc, f) in [
            (0.7, 0.5, 0.72877030571819021448),
            (1.4, 1e-8, 2.4579955112384993857),
            (2.9, 0.19999999999999996, 4.2709201816071743115),
            (-0.6, 0.7, -0.61051789277018681057),
        ] {
            let got = incomplete_f(phi, Parameter::from_complement(mc));
            assert!(
                (got - f).abs() < 1e-15 * f.abs().max(1.0),
                "F({phi}|mc={mc}) = {got}"
            );
        }
        // am(F(φ)) = φ: sn(F(φ)) = sin φ, cn(F(φ)) = cos φ.
        let p = Parameter::from_complement(1e-9);
        for phi in [-1.3, 0.2, 1.5] {
            let j = jacobi(incomplete_f(phi, p), p);
            assert!((j.sn - f64::sin(phi)).abs() < 1e-12);
            assert!((j.cn - f64::cos(phi)).abs() < 1e-12);
        }
    }
}
