//! The discrete Moser–Veselov algorithm [Moser–Veselov 1991] in quaternion form, plain
//! and with preprocessed moments of inertia [Hairer–Vilmart 2006].
//!
//! DMV equals RATTLE on the rigid body [McLachlan–Zanna 2005]: second order, symplectic,
//! and it keeps the energy and `L` exactly. With `δq = (1, e)/√(1+|e|²)` the step solves
//! `I e = (h/2)(M + (e·M) e − e × M)` for `e` (Newton, 3–4 iterations at game steps) and
//! moves `q ← q ⊗ δq`; `L` is never written. The rotation angle `θ` obeys
//! `sin θ = h|ω̄|`, so no solution exists beyond a quarter turn per step: larger steps are
//! split into equal sub-steps.
//!
//! Preprocessing replaces `I` by `Ĩ(H, C, h)` so that DMV's modified flow is the exact
//! one up to `O(h⁶)` [Hairer–Vilmart 2006, Algorithm 2.2]: order 6 for the torque-free
//! body at nearly the same cost. `Ĩ` is recomputed every step from the momentum after the
//! torque kick; under a torque the kick splitting caps the order at 2.

use glam::{DMat3, DQuat, DVec3};

use crate::body::{BodyState, MassProps};
use crate::math::so3::skew;

use super::implicit::kick_rotate_kick;
use super::{Loads, StepError, StepInfo};

/// Largest `h|L|/I_min` per sub-step. It bounds `h|ω̄| ≤ h|L|/I_min` well below the
/// existence limit 1, where Newton needs 3–5 iterations.
const SAFE_STEP: f64 = 0.8;
const MAX_ITERATIONS: u32 = 20;

/// Solves `I e = c(M + (e·M) e − e × M)` with `c = h/2`, by Newton from `c I⁻¹ M`.
fn solve_e(inertia: DVec3, m: DVec3, c: f64) -> Option<(DVec3, u32)> {
    let mut e = c * m / inertia;
    let m_skew_c = skew(m) * c;
    for it in 1..=MAX_ITERATIONS {
        let em = e.dot(m);
        let g = inertia * e - c * (m + em * e - e.cross(m));
        // J = I − c((e·M)·1 + e Mᵀ + [M]×).
        let j = DMat3::from_diagonal(inertia - c * em)
            - DMat3::from_cols(e * (c * m.x), e * (c * m.y), e * (c * m.z))
            - m_skew_c;
        let det = j.determinant();
        if det.is_nan() || det.abs() <= 1e-300 {
            return None;
        }
        let delta = j.inverse() * g;
        e -= delta;
        if !e.is_finite() {
            return None;
        }
        if delta.length_squared() <= 1e-30 * e.length_squared() {
            return Some((e, it));
        }
    }
    None
}

/// The preprocessed moments `Ĩ` for order 6 [Hairer–Vilmart 2006, eq. (2.4) and Table 1]:
/// `1/Ĩⱼ = s/Iⱼ + d`, `s = 1 + h²s₃ + h⁴s₅`, `d = h²d₃ + h⁴d₅`, from the energy
/// `H = ½ M·I⁻¹M` and the Casimir `C = ½|M|²`.
pub fn preprocessed_inertia(inertia: DVec3, m: DVec3, h: f64) -> DVec3 {
    let [i1, i2, i3] = inertia.to_array();
    let hh = 0.5 * (m * m / inertia).element_sum();
    let cc = 0.5 * m.length_squared();
    let delta = i1 * i2 * i3;
    // Powers written out (no `powi`, whose expansion is the compiler's), the same bits
    // on every target.
    let sigma = |f: fn(f64) -> f64| f(i1) + f(i2) + f(i3);
    let (s1, s2) = (sigma(|x| x), sigma(|x| x * x));
    let (sm1, sm2) = (sigma(|x| 1.0 / x), sigma(|x| 1.0 / (x * x)));
    let tau11 = (i2 + i3) / i1 + (i3 + i1) / i2 + (i1 + i2) / i3;
    let s3 = s1 * cc / (6.0 * delta) - sm1 * hh / 3.0;
    let d3 = s1 * hh / (6.0 * delta) - cc / (3.0 * delta);
    let s5 = (3.0 * s1 + 2.0 * delta * sm2) * hh * hh / (60.0 * delta)
        + (1.0 - tau11) * cc * hh / (30.0 * delta)
        + (s2 - delta * sm1) * cc * cc / (30.0 * delta * delta);
    let d5 = -(9.0 + tau11) * hh * hh / (60.0 * delta)
        + (6.0 * delta * sm1 - s2) * cc * hh / (60.0 * delta * delta)
        - s1 * cc * cc / (60.0 * delta * delta);
    let h2 = h * h;
    let s = 1.0 + h2 * (s3 + h2 * s5);
    let d = h2 * (d3 + h2 * d5);
    (s / inertia + d).recip()
}

/// `n` equal DMV sub-steps of the torque-free motion from `q`; `None` if Newton fails.
fn advance(
    inertia: DVec3,
    preprocess: bool,
    q0: DQuat,
    l: DVec3,
    h: f64,
    n: u32,
) -> Option<(DQuat, u32)> {
    let hs = h / n as f64;
    let mut q = q0;
    let mut iterations = 0;
    let mut preprocessed = inertia;
    for k in 0..n {
        let m = q.inverse() * l;
        // H and C are invariants of the free flow, so Ĩ is computed once per step.
        if preprocess && k == 0 {
            preprocessed = preprocessed_inertia(inertia, m, hs);
        }
        let (e, it) = solve_e(preprocessed, m, 0.5 * hs)?;
        q = (q * DQuat::from_xyzw(e.x, e.y, e.z, 1.0)).normalize();
        iterations += it;
    }
    Some((q, iterations))
}

/// Kick by half the torque impulse, DMV over `h` (split into sub-steps where needed),
/// kick again: the Strang splitting of [Hairer–Vilmart 2006, §5].
pub(super) fn step(
    props: &MassProps,
    s: &mut BodyState,
    loads: Loads,
    h: f64,
    preprocess: bool,
) -> Result<StepInfo, StepError> {
    let inertia = props.inertia.principal();
    let first = |l: DVec3| {
        let turn = h.abs() * l.length() / props.inertia.min();
        (turn / SAFE_STEP).ceil().min(u32::MAX as f64) as u32
    };
    kick_rotate_kick(props, s, loads, h, first, |q, l, n| {
        advance(inertia, preprocess, q, l, h, n)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Newton solution satisfies the symmetric form of the step,
    /// `h M_n = 2(w₀ I w + w × I w)` and `h M_{n+1} = 2(w₀ I w − w × I w)` with
    /// `δq = (w₀, w)`, and `M_{n+1} = δq⁻¹ M_n δq` keeps `|M|` and the energy.
    #[test]
    fn the_step_satisfies_the_symmetric_form_and_keeps_the_energy() {
        let inertia = DVec3::new(3.0, 2.0, 1.0);
        for (m, h) in [
            (DVec3::new(0.15, 8.0, 0.05), 0.05),
            (DVec3::new(-1.0, 0.6, 2.0), 0.3),
            (DVec3::new(0.8, 4.0, 0.3) * 2.8, 0.02),
        ] {
            let (e, _) = solve_e(inertia, m, 0.5 * h).unwrap();
            let dq = DQuat::from_xyzw(e.x, e.y, e.z, 1.0).normalize();
            let w = DVec3::new(dq.x, dq.y, dq.z);
            let iw = inertia * w;
            let before = 2.0 * (dq.w * iw + w.cross(iw));
            assert!(
                (before - h * m).length() < 1e-14 * h * m.length(),
                "{m} {h}"
            );
            let m1 = dq.inverse() * m;
            let after = 2.0 * (dq.w * iw - w.cross(iw));
            assert!((after - h * m1).length() < 1e-14 * h * m.length());
            let energy = |x: DVec3| (x * x / inertia).element_sum();
            assert!((energy(m1) - energy(m)).abs() < 1e-14 * energy(m));
        }
    }

    /// Preprocessing changes the moments at O(h²) only, and not at all at h = 0.
    #[test]
    fn preprocessed_moments_tend_to_the_true_ones() {
        let inertia = DVec3::new(3.0, 2.0, 1.0);
        let m = inertia * DVec3::new(0.05, 4.0, 0.05);
        assert_eq!(preprocessed_inertia(inertia, m, 0.0), inertia);
        let rel = |h: f64| {
            ((preprocessed_inertia(inertia, m, h) - inertia) / inertia)
                .abs()
                .max_element()
        };
        let ratio = rel(0.02) / rel(0.01);
        assert!((ratio - 4.0).abs() < 0.05, "{ratio}");
    }
}
