//! Every rotational integrator gyrolab offers, selectable by name.
//!
//! Each advances one body over one step under a force and a torque held constant over
//! the step (world frame). None keeps private state: a switch mid-run continues from the
//! body's state.

pub mod analytic;
mod baselines;
pub mod dmv;
pub mod exact_kicks;
mod implicit;
mod magnus;
mod rk4;
mod splitting;

use std::fmt;
use std::str::FromStr;

use glam::{DQuat, DVec3};
use serde::{Deserialize, Serialize};

use crate::body::{BodyState, MassProps};
use crate::integrators::analytic::TorqueFreeTop;

pub use implicit::{
    ImplicitRule, MAX_FIXED_POINT, Midpoint, ObjectTrapezoid, WorldTrapezoid, fixed_point_solve,
    newton_solve,
};
pub use magnus::magnus_rotation;

/// Force and torque on a body, world frame, constant over the step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Loads {
    /// Force through the centre of mass, N.
    pub force: DVec3,
    /// Torque about the centre of mass, N·m.
    pub torque: DVec3,
}

/// What a step cost: for the implicit methods, the Newton iterations and the safe
/// sub-steps the step was split into so that each Newton solve converges.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StepInfo {
    /// Newton iterations summed over the sub-steps; 0 for methods without a Newton solve.
    pub newton_iterations: u32,
    /// Sub-steps the rotation was split into; 0 for methods without a Newton solve.
    pub safe_substeps: u32,
}

/// Why an integrator refused a step; the state is left unchanged.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum StepError {
    /// `analytic` only knows the torque-free body.
    AnalyticNeedsTorqueFree,
    /// The exact solution was asked for a rotation larger than
    /// [`crate::integrators::analytic::MAX_STEP_ANGLE`] in one step.
    AnalyticStepTooLarge {
        /// The rotation asked for, rad.
        angle: f64,
    },
    /// `exact-kicks` was asked for a rotation larger than
    /// [`crate::integrators::analytic::MAX_STEP_ANGLE`] in one step.
    ExactStepTooLarge {
        /// The rotation asked for, rad.
        angle: f64,
    },
    /// Newton did not converge even with the most safe sub-steps.
    NotConverged {
        /// The sub-steps tried last (the most allowed).
        safe_substeps: u32,
    },
    /// The step would have produced a non-finite state or a degenerate orientation; the
    /// state was left untouched.
    NonFinite,
}

impl fmt::Display for StepError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Self::AnalyticNeedsTorqueFree => write!(
                f,
                "integrator 'analytic' is the exact solution of a torque-free single body; this scene applies a torque"
            ),
            Self::AnalyticStepTooLarge { angle } => write!(
                f,
                "integrator 'analytic' cannot turn {angle:e} rad in one step (at most {:e}): ω or dt is too large",
                crate::integrators::analytic::MAX_STEP_ANGLE
            ),
            Self::ExactStepTooLarge { angle } => write!(
                f,
                "integrator 'exact-kicks' cannot turn {angle:e} rad in one step (at most {:e}): ω or dt is too large",
                crate::integrators::analytic::MAX_STEP_ANGLE
            ),
            Self::NotConverged { safe_substeps } => {
                write!(
                    f,
                    "Newton iteration did not converge with {safe_substeps} safe sub-steps"
                )
            }
            Self::NonFinite => write!(
                f,
                "the step overflowed: non-finite state or degenerate orientation (time step too large?)"
            ),
        }
    }
}

impl std::error::Error for StepError {}

/// A rotational integrator, written and read by its command-line name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "&'static str")]
pub enum Integrator {
    /// `explicit-euler-body`: explicit Euler on Euler's equations in the body frame.
    ExplicitEulerBody,
    /// `explicit-euler-world`: explicit Euler on the world angular velocity, as engines store it.
    ExplicitEulerWorld,
    /// `symplectic-euler`: semi-implicit Euler, orientation moved with the new ω.
    SymplecticEuler,
    /// `no-gyro`: semi-implicit Euler without the gyroscopic term (Havok, Godot).
    NoGyro,
    /// `momentum-clamp`: explicit gyroscopic update rescaled to keep |L| (PhysX, Jolt, avian, rapier).
    MomentumClamp,
    /// `implicit-gyro`: one Newton step of implicit Euler on the gyroscopic term (Catto 2015).
    ImplicitGyro,
    /// `midpoint`: implicit midpoint in exponential coordinates; keeps world L exactly.
    Midpoint,
    /// `trapezoid`: world-space trapezoidal rule; keeps world L exactly.
    Trapezoid,
    /// `object-trapezoid`: object-space trapezoidal rule; keeps L and energy exactly.
    ObjectTrapezoid,
    /// `rk4`: classical Runge-Kutta on the orientation and body ω.
    Rk4,
    /// `magnus`: angular acceleration held constant, orientation by Magnus terms.
    Magnus,
    /// `dmv`: discrete Moser–Veselov; keeps L and energy exactly.
    Dmv,
    /// `dmv6`: DMV with Hairer–Vilmart's preprocessed moments, order 6 torque-free.
    Dmv6,
    /// `axis-split`: symmetric splitting into exact turns about the principal axes.
    AxisSplit,
    /// `exact-kicks`: the exact torque-free flow between two half torque kicks.
    ExactKicks,
    /// `analytic`: the exact torque-free motion; fails under a torque.
    Analytic,
}

/// What the app and `gyrolab integrators` show about an integrator.
#[derive(Clone, Copy, Debug)]
pub struct Info {
    /// The command-line name.
    pub name: &'static str,
    /// One sentence: what the method is and whose it is.
    pub summary: &'static str,
    /// The update it computes.
    pub formula: &'static str,
    /// Global order of accuracy of the rotation: how fast the error at a fixed time
    /// shrinks with h against the exact solution of the equation the method discretises;
    /// 0 for `analytic` and `exact-kicks`, which are the torque-free solution.
    pub order: u32,
    /// `Some(equation)` when that equation is not the rigid body's: the method converges
    /// to another motion, and against the true one its error does not shrink with h.
    pub other_equation: Option<&'static str>,
    /// What it conserves, and what drifts.
    pub conserves: &'static str,
}

/// What each integrator is, in [`Integrator::ALL`] order (its discriminant).
const INFO: [Info; 16] = [
    // ExplicitEulerBody
    Info {
        name: "explicit-euler-body",
        summary: "explicit Euler on Euler's equations in the body frame, as textbooks write them: orientation moved with the old ω",
        formula: "ω_b' = ω_b + h I⁻¹(τ_b − ω_b×Iω_b);  q' = normalize(q + ½h ω⊗q)",
        order: 1,
        other_equation: None,
        conserves: "nothing: gains energy ½h²α·Iα per step",
    },
    // ExplicitEulerWorld
    Info {
        name: "explicit-euler-world",
        summary: "explicit Euler on the world ω, as engines store it: orientation moved with the old ω, the new ω kept in world axes",
        formula: "ω' = ω + h R I⁻¹(τ_b − ω_b×Iω_b);  q' = normalize(q + ½h ω⊗q)",
        order: 1,
        other_equation: None,
        conserves: "nothing: loses energy, about ½h²α·Iα per step",
    },
    // SymplecticEuler
    Info {
        name: "symplectic-euler",
        summary: "semi-implicit Euler with the gyroscopic term, orientation moved with the new ω",
        formula: "ω' = ω + h I⁻¹(τ − ω×Iω);  q' = normalize(q + ½h ω'⊗q)",
        order: 1,
        other_equation: None,
        conserves: "nothing: gains energy ½h²α·Iα per step",
    },
    // NoGyro
    Info {
        name: "no-gyro",
        summary: "engines' approximate Newton-Euler without the gyroscopic term (Havok, Godot); converges to the wrong motion: its error does not shrink with h",
        formula: "ω' = ω + h I⁻¹τ;  q' = normalize(q + ½h ω'⊗q)",
        order: 1,
        other_equation: Some("ω̇ = I⁻¹τ, without the gyroscopic term"),
        conserves: "world ω instead of L: no Dzhanibekov flip, a wrong precession",
    },
    // MomentumClamp
    Info {
        name: "momentum-clamp",
        summary: "explicit gyroscopic update rescaled to keep |L| (PhysX, Jolt, avian, rapier)",
        formula: "L' = L − h ω×L;  L' ← L'|L|/|L'|;  q' = normalize(q + ½h ω'⊗q)",
        order: 1,
        other_equation: None,
        conserves: "|L| at the velocity update; energy drifts to L²/2I₂",
    },
    // ImplicitGyro
    Info {
        name: "implicit-gyro",
        summary: "one Newton step of implicit Euler on the gyroscopic term (Catto 2015, Bullet, box3d)",
        formula: "J = I + h([ω]I − [Iω]);  ω' = ω − J⁻¹(h ω×Iω)",
        order: 1,
        other_equation: None,
        conserves: "nothing: dissipates energy, stable",
    },
    // Midpoint
    Info {
        name: "midpoint",
        summary: "implicit midpoint in exponential coordinates, Newton with safe adaptive sub-steps",
        formula: "I v = h R(−v/2) L_b;  q' = q ⊗ exp(v)",
        order: 2,
        other_equation: None,
        conserves: "L exactly (world vector); energy error bounded, no drift",
    },
    // Trapezoid
    Info {
        name: "trapezoid",
        summary: "world-space trapezoidal rule (Roblox), large Newton convergence region",
        formula: "v = ½h(I⁻¹L_b + R(v) I⁻¹ R(−v) L_b);  q' = q ⊗ exp(v)",
        order: 2,
        other_equation: None,
        conserves: "L exactly (world vector); energy error bounded, no drift",
    },
    // ObjectTrapezoid
    Info {
        name: "object-trapezoid",
        summary: "object-space trapezoidal rule: exact energy and momentum, small Newton region",
        formula: "I v = ½h(L_b + R(−v) L_b);  q' = q ⊗ exp(v)",
        order: 2,
        other_equation: None,
        conserves: "L exactly and energy exactly (to round-off)",
    },
    // Rk4
    Info {
        name: "rk4",
        summary: "classical Runge-Kutta on (q, ω_b), quaternion renormalised",
        formula: "q̇ = ½ q⊗ω_b,  I ω̇_b = τ_b − ω_b×Iω_b;  4 stages",
        order: 4,
        other_equation: None,
        conserves: "nothing exactly; tiny drift at small h",
    },
    // Magnus
    Info {
        name: "magnus",
        summary: "angular acceleration held constant; orientation by Magnus terms (cwzx)",
        formula: "ω' = ω + αh;  q' = exp₃(Ω₁+Ω₂+Ω₃+Ω₄) ⊗ q",
        order: 1,
        other_equation: None,
        conserves: "nothing: ω is explicit Euler; the orientation's local error is O(h⁵)",
    },
    // Dmv
    Info {
        name: "dmv",
        summary: "discrete Moser–Veselov, the same map as RATTLE: symplectic, Newton on a 3-vector, at most a quarter turn per sub-step",
        formula: "I e = ½h(M + (e·M)e − e×M);  q' = normalize(q ⊗ (1, e));  L unchanged",
        order: 2,
        other_equation: None,
        conserves: "L and energy exactly (to round-off); phase along the orbit O(h²)",
    },
    // Dmv6
    Info {
        name: "dmv6",
        summary: "DMV with preprocessed moments Ĩ(H, C, h) (Hairer–Vilmart): order 6 torque-free, 2 with a torque",
        formula: "1/Ĩⱼ = (1 + h²s₃ + h⁴s₅)/Iⱼ + h²d₃ + h⁴d₅;  DMV with Ĩ",
        order: 6,
        other_equation: None,
        conserves: "L and energy exactly (to round-off); phase O(h⁶)",
    },
    // AxisSplit
    Info {
        name: "axis-split",
        summary: "symmetric splitting into exact turns about the principal axes, minor-major-intermediate-major-minor (McLachlan, Reich, Touma–Wisdom)",
        formula: "q' = q ⊗ X₃(h/2) X₁(h/2) X₂(h) X₁(h/2) X₃(h/2),  Xᵢ(t): turn by t Mᵢ/Iᵢ about body axis i",
        order: 2,
        other_equation: None,
        conserves: "L exactly; energy error O(h²), bounded, no drift",
    },
    // ExactKicks
    Info {
        name: "exact-kicks",
        summary: "exact torque-free flow (elliptic functions) between two half torque kicks (Celledoni–Fassò–Säfström–Zanna): exact torque-free, order 2 with a torque",
        formula: "L += ½hτ;  q' = q ⊗ p(M₀)⁻¹ z(Δψ) p(M(h));  L += ½hτ",
        order: 0,
        other_equation: None,
        conserves: "everything torque-free (to round-off); with a torque, what the torque cannot change",
    },
    // Analytic
    Info {
        name: "analytic",
        summary: "the exact torque-free motion (Jacobi elliptic functions), the ground truth",
        formula: "ω_b from sn, cn, dn;  attitude by quadrature, projected onto L",
        order: 0,
        other_equation: None,
        conserves: "everything, exactly (torque-free single bodies only)",
    },
];

/// The longest integrator name, in bytes: the width of the name column in tables.
pub const NAME_WIDTH: usize = {
    let (mut width, mut k) = (0, 0);
    while k < INFO.len() {
        if INFO[k].name.len() > width {
            width = INFO[k].name.len();
        }
        k += 1;
    }
    width
};

impl Integrator {
    /// Every integrator, in the order of their discriminants.
    pub const ALL: [Self; 16] = [
        Self::ExplicitEulerBody,
        Self::ExplicitEulerWorld,
        Self::SymplecticEuler,
        Self::NoGyro,
        Self::MomentumClamp,
        Self::ImplicitGyro,
        Self::Midpoint,
        Self::Trapezoid,
        Self::ObjectTrapezoid,
        Self::Rk4,
        Self::Magnus,
        Self::Dmv,
        Self::Dmv6,
        Self::AxisSplit,
        Self::ExactKicks,
        Self::Analytic,
    ];

    /// The command-line name, e.g. `midpoint`.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// What the integrator is: its name, formula, order and what it conserves.
    pub fn info(self) -> Info {
        INFO[self as usize]
    }

    /// Advances `state` by `h`. On error the state is left unchanged.
    ///
    /// One body-step of a body of an engine's own: a box spinning about a tilted axis,
    /// stepped a second by the midpoint rule and by explicit Euler on Euler's equations
    /// (as textbooks write them). Without a torque the midpoint rule leaves the world
    /// angular momentum as it was, bit for bit, and its energy error stays bounded (under
    /// 10⁻⁴ here); explicit Euler turns the momentum and gains energy every step (2% here).
    ///
    /// ```
    /// use glam::{DQuat, DVec3};
    /// use gyrolab_physics::body::inertia::Inertia;
    /// use gyrolab_physics::body::{BodyState, MassProps};
    /// use gyrolab_physics::integrators::{Integrator, Loads};
    ///
    /// let props = MassProps { mass: 2.0, inertia: Inertia::new(DVec3::new(0.1, 0.4, 0.5))? };
    /// let start = BodyState::from_body_omega(&props, DQuat::IDENTITY, DVec3::new(3.0, 1.0, 2.0));
    /// let second = |integrator: Integrator| -> Result<BodyState, Box<dyn std::error::Error>> {
    ///     let mut state = start;
    ///     for _ in 0..100 {
    ///         integrator.step(&props, &mut state, Loads::default(), 0.01)?;
    ///     }
    ///     Ok(state)
    /// };
    /// let energy = |s: &BodyState| s.rotational_energy(&props) / start.rotational_energy(&props) - 1.0;
    ///
    /// let midpoint = second(Integrator::Midpoint)?;
    /// assert_eq!(midpoint.angular_momentum, start.angular_momentum);
    /// assert!(energy(&midpoint).abs() < 1e-4);
    ///
    /// let euler = second(Integrator::ExplicitEulerBody)?;
    /// assert_ne!(euler.angular_momentum, start.angular_momentum);
    /// assert!(energy(&euler) > 0.01);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn step(
        self,
        props: &MassProps,
        state: &mut BodyState,
        loads: Loads,
        h: f64,
    ) -> Result<StepInfo, StepError> {
        let mut next = *state;
        let info = match self {
            Self::ExplicitEulerBody => baselines::explicit_euler_body(props, &mut next, loads, h),
            Self::ExplicitEulerWorld => baselines::explicit_euler_world(props, &mut next, loads, h),
            Self::SymplecticEuler => baselines::symplectic_euler(props, &mut next, loads, h),
            Self::NoGyro => baselines::no_gyro(props, &mut next, loads, h),
            Self::MomentumClamp => baselines::momentum_clamp(props, &mut next, loads, h),
            Self::ImplicitGyro => baselines::implicit_gyro(props, &mut next, loads, h),
            Self::Midpoint => implicit::step::<Midpoint>(props, &mut next, loads, h)?,
            Self::Trapezoid => implicit::step::<WorldTrapezoid>(props, &mut next, loads, h)?,
            Self::ObjectTrapezoid => implicit::step::<ObjectTrapezoid>(props, &mut next, loads, h)?,
            Self::Rk4 => rk4::step(props, &mut next, loads, h),
            Self::Magnus => magnus::step(props, &mut next, loads, h),
            Self::Dmv => dmv::step(props, &mut next, loads, h, false)?,
            Self::Dmv6 => dmv::step(props, &mut next, loads, h, true)?,
            Self::AxisSplit => splitting::step(props, &mut next, loads, h),
            Self::ExactKicks => exact_kicks::step(props, &mut next, loads, h)?,
            Self::Analytic => analytic_step(props, &mut next, loads, h)?,
        };
        // Normalising an overflowed quaternion gives exactly zero: finite, and wrong.
        if !next.is_finite() || (next.orientation.length_squared() - 1.0).abs() > 1e-6 {
            return Err(StepError::NonFinite);
        }
        *state = next;
        Ok(info)
    }
}

impl fmt::Display for Integrator {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An integrator name that is not one of [`Integrator::ALL`].
#[derive(Clone, Debug, PartialEq)]
pub struct UnknownIntegrator(pub String);

impl fmt::Display for UnknownIntegrator {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let names: Vec<_> = Integrator::ALL.iter().map(|i| i.name()).collect();
        // The name of earlier builds, which stepped the world ω: its error's sign depends on
        // the frame it steps, so each frame now has a name of its own.
        let renamed = if self.0 == "explicit-euler" {
            ": explicit Euler is now two integrators, explicit-euler-body (Euler's equations in the body frame, as textbooks write them) and explicit-euler-world (the world ω, as engines store it; what explicit-euler was)"
        } else {
            ""
        };
        write!(
            f,
            "unknown integrator '{}'{renamed} (valid: {})",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownIntegrator {}

impl TryFrom<String> for Integrator {
    type Error = UnknownIntegrator;
    fn try_from(name: String) -> Result<Self, UnknownIntegrator> {
        name.parse()
    }
}

impl From<Integrator> for &'static str {
    fn from(integrator: Integrator) -> &'static str {
        integrator.name()
    }
}

impl FromStr for Integrator {
    type Err = UnknownIntegrator;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|i| i.name() == s)
            .ok_or_else(|| UnknownIntegrator(s.to_owned()))
    }
}

/// Linear motion under a constant force, exactly: `x' = x + hv + ½h²a`, `v' = v + ha`.
#[inline]
pub(crate) fn linear_exact(props: &MassProps, state: &mut BodyState, force: DVec3, h: f64) {
    let a = force / props.mass;
    state.position += h * state.velocity + (0.5 * h * h) * a;
    state.velocity += h * a;
}

/// Linear motion by explicit Euler: position with the old velocity, then the velocity.
#[inline]
pub(crate) fn linear_explicit(props: &MassProps, state: &mut BodyState, force: DVec3, h: f64) {
    state.position += h * state.velocity;
    state.velocity += h * force / props.mass;
}

/// Linear motion the way game engines do it: velocity first, then position.
#[inline]
pub(crate) fn linear_symplectic(props: &MassProps, state: &mut BodyState, force: DVec3, h: f64) {
    state.velocity += h * force / props.mass;
    state.position += h * state.velocity;
}

/// `normalize(q + ½h (0,ω)⊗q)`: the first-order orientation update of the engines.
#[inline]
pub(crate) fn integrate_orientation(q: DQuat, omega_world: DVec3, h: f64) -> DQuat {
    let w = DQuat::from_xyzw(omega_world.x, omega_world.y, omega_world.z, 0.0);
    (q + w * q * (0.5 * h)).normalize()
}

fn analytic_step(
    props: &MassProps,
    state: &mut BodyState,
    loads: Loads,
    h: f64,
) -> Result<StepInfo, StepError> {
    if loads.torque != DVec3::ZERO {
        return Err(StepError::AnalyticNeedsTorqueFree);
    }
    let inertia = props.inertia.principal();
    let omega = state.body_omega(props);
    let angle = omega.length() * h.abs();
    if angle.is_nan() || angle > crate::integrators::analytic::MAX_STEP_ANGLE {
        return Err(StepError::AnalyticStepTooLarge { angle });
    }
    let top = TorqueFreeTop::new(inertia, omega);
    state.orientation = top.attitude(inertia, state.orientation, 0.0, h);
    linear_exact(props, state, loads.force, h);
    Ok(StepInfo::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The info table is read by discriminant: each integrator finds its own entry, and
    /// its name reads back to it.
    #[test]
    fn each_integrator_reads_its_own_info() {
        for (k, integrator) in Integrator::ALL.into_iter().enumerate() {
            assert_eq!(integrator as usize, k);
            assert_eq!(integrator.name().parse::<Integrator>(), Ok(integrator));
        }
        let mut names: Vec<&str> = Integrator::ALL.iter().map(|i| i.name()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), Integrator::ALL.len());
    }
}
