//! Ground truth: the torque-free rigid body (Euler–Poinsot), exactly.
//!
//! Angular velocity from Jacobi elliptic functions [Landau–Lifshitz], on both sides
//! of the separatrix; symmetric tops are the `m = 0` case of the same formulas. The
//! attitude needs one more quadrature; it is integrated with RK4 driven by the exact
//! angular velocity at fine sub-steps, then projected so that the body's angular
//! momentum points exactly along the conserved world `L`, leaving quadrature error only in
//! the rotation about `L`.

use glam::{DQuat, DVec3};

use crate::math::elliptic::{Parameter, complete_k, incomplete_f, jacobi_with_quarter_period};

/// Sub-step angle of the attitude quadrature: RK4's local error is then about 1e-11 rad.
const QUADRATURE_ANGLE: f64 = 0.01;

/// The largest rotation `|ω|·dt` one exact step accepts: 10⁶ quadrature steps. Beyond it
/// the step would run for seconds (or, at an overflowing ω, forever).
pub const MAX_STEP_ANGLE: f64 = 1e6 * QUADRATURE_ANGLE;

#[derive(Clone, Copy, Debug)]
enum Motion {
    /// Spin about a principal axis, or a spherical body: ω is constant.
    Steady,
    /// Circulation about the major (Δ > 0) or minor (Δ < 0) axis.
    Elliptic {
        major: bool,
        amplitude: [f64; 3],
        lambda: f64,
        param: Parameter,
        /// `K(m)`, the quarter period in `u`.
        k: f64,
        u0: f64,
        sign: f64,
    },
}

/// The exact motion of a torque-free body from its principal moments and initial body
/// angular velocity.
#[derive(Clone, Copy, Debug)]
pub struct TorqueFreeTop {
    /// `perm[i]` is the body axis holding the i-th largest moment.
    perm: [usize; 3],
    /// An odd permutation mirrors the axes, which flips the sign of Euler's equations;
    /// negating ω restores it (the right-hand side is quadratic).
    parity: f64,
    omega0: DVec3,
    motion: Motion,
}

impl TorqueFreeTop {
    /// From the principal moments (kg·m²) and the body angular velocity at t = 0 (rad/s).
    pub fn new(inertia: DVec3, omega0: DVec3) -> Self {
        let mut perm = [0usize, 1, 2];
        perm.sort_by(|&a, &b| inertia[b].total_cmp(&inertia[a]));
        let inversions =
            (perm[0] > perm[1]) as u8 + (perm[0] > perm[2]) as u8 + (perm[1] > perm[2]) as u8;
        let parity = if inversions.is_multiple_of(2) {
            1.0
        } else {
            -1.0
        };
        let [i1, i2, i3] = perm.map(|k| inertia[k]);
        let [w1, w2, w3] = perm.map(|k| parity * omega0[k]);
        let delta = i1 * (i1 - i2) * w1 * w1 - i3 * (i2 - i3) * w3 * w3;
        let p = i1 * (i1 - i3) * w1 * w1 + i2 * (i2 - i3) * w2 * w2;
        let m = i2 * (i1 - i2) * w2 * w2 + i3 * (i1 - i3) * w3 * w3;
        let major = delta > 0.0 || (delta == 0.0 && i1 > i2);
        // Per regime [Landau–Lifshitz]: λ, the amplitudes, m and 1 − m, the sign of
        // the component that keeps its sign, and the phase angle at t = 0.
        let (lambda, a, param, sign, phi0) = if major {
            let a = [
                (p / (i1 * (i1 - i3))).sqrt(),
                (m / (i2 * (i1 - i2))).sqrt(),
                (m / (i3 * (i1 - i3))).sqrt(),
            ];
            let param = Parameter {
                m: (i2 - i3) * m / ((i1 - i2) * p),
                mc: (i1 - i3) * delta / ((i1 - i2) * p),
            };
            let s = w1.signum();
            let lambda = ((i1 - i2) * p / (i1 * i2 * i3)).sqrt();
            (lambda, a, param, s, libm::atan2(-s * w2 / a[1], w3 / a[2]))
        } else {
            let a = [
                (p / (i1 * (i1 - i3))).sqrt(),
                (p / (i2 * (i2 - i3))).sqrt(),
                (m / (i3 * (i1 - i3))).sqrt(),
            ];
            let param = Parameter {
                m: (i1 - i2) * p / ((i2 - i3) * m),
                mc: (i1 - i3) * -delta / ((i2 - i3) * m),
            };
            let s = w3.signum();
            let lambda = ((i2 - i3) * m / (i1 * i2 * i3)).sqrt();
            (lambda, a, param, s, libm::atan2(-s * w2 / a[1], w1 / a[0]))
        };
        // A spherical body, or a spin exactly about a principal axis, does not move in ω.
        // Degenerate inputs (a symmetric body in the wrong branch) give NaN; those are steady too.
        let degenerate = |x: f64| !x.is_finite() || x == 0.0;
        let steady = i1 == i3 || degenerate(lambda) || degenerate(a[1]);
        let motion = if steady {
            Motion::Steady
        } else {
            Motion::Elliptic {
                major,
                amplitude: a,
                lambda,
                param,
                k: complete_k(param),
                u0: incomplete_f(phi0, param),
                sign,
            }
        };
        Self {
            perm,
            parity,
            omega0,
            motion,
        }
    }

    /// Body angular velocity at time `t`.
    pub fn omega(&self, t: f64) -> DVec3 {
        let Motion::Elliptic {
            major,
            amplitude: a,
            lambda,
            param,
            k,
            u0,
            sign,
        } = self.motion
        else {
            return self.omega0;
        };
        let j = jacobi_with_quarter_period(lambda * t + u0, param, k);
        let sorted = if major {
            [sign * a[0] * j.dn, -sign * a[1] * j.sn, a[2] * j.cn]
        } else {
            [a[0] * j.cn, -sign * a[1] * j.sn, sign * a[2] * j.dn]
        };
        let mut out = DVec3::ZERO;
        for (i, &axis) in self.perm.iter().enumerate() {
            out[axis] = self.parity * sorted[i];
        }
        out
    }

    /// Time between sign changes of the intermediate-axis component, `2K(m)/λ`; `None`
    /// when it never changes sign (steady spin, symmetric body, or the separatrix).
    pub fn flip_period(&self) -> Option<f64> {
        match self.motion {
            Motion::Elliptic {
                lambda, param, k, ..
            } if param.m > 0.0 && param.mc > 0.0 => Some(2.0 * k / lambda),
            _ => None,
        }
    }

    /// The body axis whose ω component never changes sign: the axis the polhode circles.
    /// A spin started about it only wobbles; started about another axis the body turns
    /// over every [`Self::flip_period`]. `None` for a steady spin.
    pub fn steady_axis(&self) -> Option<usize> {
        match self.motion {
            Motion::Elliptic { major, .. } => Some(if major { self.perm[0] } else { self.perm[2] }),
            Motion::Steady => None,
        }
    }

    /// Attitude at `t1` from attitude `q0` at `t0`, with the world momentum it implies.
    pub fn attitude(&self, inertia: DVec3, q0: DQuat, t0: f64, t1: f64) -> DQuat {
        let dt = t1 - t0;
        let w0 = self.omega(t0);
        let n = ((w0.length() * dt.abs()) / QUADRATURE_ANGLE)
            .ceil()
            .max(1.0) as usize;
        let h = dt / n as f64;
        let mut q = q0;
        let mut w_start = w0;
        let deriv = |q: DQuat, w: DVec3| q * DQuat::from_xyzw(w.x, w.y, w.z, 0.0) * 0.5;
        for i in 0..n {
            let t = t0 + i as f64 * h;
            let w_mid = self.omega(t + 0.5 * h);
            let w_end = self.omega(t + h);
            let k1 = deriv(q, w_start);
            let k2 = deriv(q + k1 * (0.5 * h), w_mid);
            let k3 = deriv(q + k2 * (0.5 * h), w_mid);
            let k4 = deriv(q + k3 * h, w_end);
            q = (q + (k1 + k2 * 2.0 + k3 * 2.0 + k4) * (h / 6.0)).normalize();
            w_start = w_end;
        }
        let l_world = q0 * (inertia * w0);
        let l_now = q * (inertia * w_start);
        if l_world.length_squared() > 0.0 {
            // glam's from_rotation_arc returns the identity below ~3e-8 rad, exactly the
            // size of the error to remove, so build the half-angle quaternion directly.
            let (a, b) = (l_now.normalize(), l_world.normalize());
            let c = a.cross(b);
            let fix = DQuat::from_xyzw(c.x, c.y, c.z, 1.0 + a.dot(b)).normalize();
            q = (fix * q).normalize();
        }
        q
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn euler_residual(inertia: DVec3, top: &TorqueFreeTop, t: f64) -> f64 {
        // I ẇ + w × I w = 0, with ẇ from a symmetric finite difference.
        let h = 1e-5;
        let wdot = (top.omega(t + h) - top.omega(t - h)) / (2.0 * h);
        let w = top.omega(t);
        (inertia * wdot + w.cross(inertia * w)).length() / (inertia * w).length().max(1e-300)
    }

    #[test]
    fn solution_satisfies_euler_equations_for_all_axis_orders_and_regimes() {
        let inertias = [
            DVec3::new(2.5, 1.4, 1.3),
            DVec3::new(1.3, 2.5, 1.4),
            DVec3::new(1.4, 1.3, 2.5),
            DVec3::new(1.0, 2.0, 2.0),
            DVec3::new(3.0, 3.0, 1.0),
        ];
        let omegas = [
            DVec3::new(0.3, 2.0, 0.1),
            DVec3::new(1.0, 0.2, -0.4),
            DVec3::new(-0.1, 0.5, 2.0),
            DVec3::new(0.01, 5.0, 0.0),
        ];
        for i in inertias {
            for w in omegas {
                let top = TorqueFreeTop::new(i, w);
                assert!(
                    (top.omega(0.0) - w).length() < 1e-12 * w.length(),
                    "initial value {i} {w}"
                );
                for t in [0.3, 1.7, 6.1] {
                    let r = euler_residual(i, &top, t);
                    assert!(r < 1e-8, "residual {r} at t={t} for I={i} w={w}");
                    let wt = top.omega(t);
                    let e0 = (i * w * w).element_sum();
                    let l0 = (i * w).length_squared();
                    assert!(((i * wt * wt).element_sum() - e0).abs() < 1e-12 * e0);
                    assert!(((i * wt).length_squared() - l0).abs() < 1e-12 * l0);
                }
            }
        }
    }

    #[test]
    fn flip_period_is_half_the_period_of_omega() {
        let inertia = DVec3::new(1.3, 2.5, 1.4) * 0.1;
        let top = TorqueFreeTop::new(inertia, DVec3::new(0.05, 6.0, 0.02));
        let t_flip = top.flip_period().expect("asymmetric body flips");
        // ω returns to itself after 2 flips, and the intermediate component is negated after one.
        let w0 = top.omega(0.37);
        assert!((top.omega(0.37 + 2.0 * t_flip) - w0).length() < 1e-9 * w0.length());
        let w1 = top.omega(0.37 + t_flip);
        assert!((w1.z + w0.z).abs() < 1e-9 * w0.length());
    }

    #[test]
    fn attitude_keeps_world_momentum_and_matches_kinematics() {
        let inertia = DVec3::new(1.0, 2.0, 3.0);
        let top = TorqueFreeTop::new(inertia, DVec3::new(0.1, 3.0, 0.2));
        let q0 = DQuat::from_axis_angle(DVec3::X, 0.4);
        let l0 = q0 * (inertia * top.omega(0.0));
        let mut q = q0;
        for k in 0..50 {
            let (t0, t1) = (k as f64 * 0.1, (k + 1) as f64 * 0.1);
            q = top.attitude(inertia, q, t0, t1);
        }
        let l = q * (inertia * top.omega(5.0));
        assert!(
            (l - l0).length() < 1e-12 * l0.length(),
            "{}",
            (l - l0).length() / l0.length()
        );
        // Kinematics: q̇ = ½ q ω_b, checked by a central difference of the attitude.
        let h = 1e-4;
        let qa = top.attitude(inertia, q, 5.0, 5.0 - h);
        let qb = top.attitude(inertia, q, 5.0, 5.0 + h);
        let qdot = (qb - qa) * (0.5 / h);
        let w = (q.inverse() * qdot) * 2.0;
        assert!((DVec3::new(w.x, w.y, w.z) - top.omega(5.0)).length() < 1e-6);
    }
}
