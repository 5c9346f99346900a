//! What gyrolab accepts: every number a scene file (or a flag that changes a scene) may
//! give, with its range and the reason for it, in one table. Validation checks exactly
//! these ranges, and the table "What gyrolab accepts" in docs/scenes.md is this one (a
//! test checks that they agree).
//!
//! The ranges are physical, not the limits of a double: within them every body's energy,
//! momentum and |L|² stay far inside a double, and no step overflows. A mass of a milligram
//! to a thousand tonnes, sizes of a millimetre to a kilometre, speeds up to 10 km/s and
//! spins up to 10⁴ rad/s give energies below 10²³ J and L² below 10³⁷.

use glam::DVec3;

use super::error::Invalid;

/// One accepted range: `min ≤ x ≤ max` (or strict where `open` says so).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Range {
    pub quantity: &'static str,
    /// Where it applies: the scene fields and flags.
    pub fields: &'static str,
    pub min: f64,
    pub max: f64,
    pub open: Open,
    pub unit: &'static str,
    pub why: &'static str,
}

/// Which ends of a range are excluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Open {
    Neither,
    Max,
    Min,
}

const fn closed(
    quantity: &'static str,
    fields: &'static str,
    (min, max): (f64, f64),
    unit: &'static str,
    why: &'static str,
) -> Range {
    Range {
        quantity,
        fields,
        min,
        max,
        open: Open::Neither,
        unit,
        why,
    }
}

pub const MASS: Range = closed(
    "mass",
    "`parts[].mass`, a body's total, `generate` `mass`, `gun.shell.mass`",
    (1e-6, 1e6),
    "kg",
    "a milligram to a thousand tonnes: with sizes and speeds in range, energy and momentum fit a double many times over",
);
pub const SIZE: Range = closed(
    "size",
    "shapes' `radius` and `half_extents`, `generate` `size` and `spacing`, `tether.length`",
    (1e-3, 1e3),
    "m",
    "a millimetre to a kilometre: contact tolerances are millimetres; a size of 1e300 overflowed a part's inertia to NaN, a radius of 1e-170 underflowed it to zero",
);
pub const LENGTH: Range = closed(
    "length",
    "`Cylinder` and `Capsule` `length`",
    (0.0, 1e3),
    "m",
    "zero (a disc, a ball) to a kilometre, like sizes",
);
pub const OFFSET: Range = closed(
    "offset",
    "`parts[].offset`",
    (-1e3, 1e3),
    "m",
    "a part lies within a kilometre of its body's origin, so the body's inertia stays in range",
);
pub const POSITION: Range = closed(
    "position",
    "positions, `anchor` and `anchor_b`, plane `point`, `muzzle`, `camera.focus`, `pivot` (each component)",
    (-1e6, 1e6),
    "m",
    "within 1000 km a double still resolves 1e-10 m, far finer than the contact tolerances",
);
pub const VELOCITY: Range = closed(
    "velocity",
    "`velocity` (bodies, frames), `Vehicle` `speed`, `gun.speed` (each component), a slider `motor`'s speed",
    (-1e4, 1e4),
    "m/s",
    "ten times a rifle bullet; 1e160 gave an infinite energy",
);
pub const SPIN: Range = closed(
    "angular velocity",
    "`omega` (bodies, frames), `Vehicle` `yaw_rate`, a hinge `motor`'s speed, `--omega` (each component)",
    (-1e4, 1e4),
    "rad/s",
    "1600 turns a second, beyond any top or turbine; with moments in range L² stays below 1e36",
);
pub const ACCELERATION: Range = closed(
    "acceleration",
    "`gravity`, `frame_gravity`, frames' `accel` (each component)",
    (-100.0, 100.0),
    "m/s²",
    "ten g: at a 60 Hz step it moves a resting body g·dt² = 2.8 cm a step, beyond the contact margins (a pile at 1000 m/s² never falls asleep and costs several times as much per step); a gravity of 1e10 made one step of `pile` take a second, -1e300 gave a NaN energy",
);
pub const ANGULAR_ACCELERATION: Range = closed(
    "angular acceleration",
    "frames' `alpha` (each component)",
    (-1e4, 1e4),
    "rad/s²",
    "reaches the fastest spin in range within a second",
);
pub const ANGLE: Range = closed(
    "angle",
    "`orientation_deg`, `rotation_deg` (each component)",
    (-360.0, 360.0),
    "°",
    "one turn either way reaches every orientation",
);
pub const HINGE_LIMIT: Range = closed(
    "hinge limit",
    "`limits_deg` (lower < upper)",
    (-180.0, 180.0),
    "°",
    "a hinge's angle is measured in (-180°, 180°]",
);
pub const TRAVEL: Range = closed(
    "slider travel",
    "a slider's `limits_m` (lower < upper)",
    (-1e3, 1e3),
    "m",
    "a kilometre either way of the start, like sizes",
);
pub const JOINT_LENGTH: Range = closed(
    "joint length",
    "a distance joint's `length` (min ≤ max, max > 0)",
    (0.0, 1e3),
    "m",
    "a rope or rod of up to a kilometre; a negative length means nothing",
);
pub const FORCE: Range = Range {
    open: Open::Min,
    ..closed(
        "joint force",
        "a slider `motor`'s force and `break_force` (N), `break_torque` (N·m)",
        (0.0, 1e12),
        "N or N·m",
        "holds the heaviest body in range at 100 g; a joint that breaks at zero or less would never hold",
    )
};
pub const DIRECTION: Range = closed(
    "direction length",
    "a joint's `axis`, `gun.direction` (normalised when used)",
    (1e-6, 1e6),
    "",
    "a zero vector has no direction; the length is divided out",
);
pub const TIME_STEP: Range = closed(
    "time step",
    "`dt`, `--dt`",
    (1e-6, 1.0),
    "s",
    "below a microsecond a simulated second takes a million steps; beyond a second no integrator is meaningful and the baselines overflow",
);
pub const DURATION: Range = closed(
    "duration",
    "`duration`, `gun.period`, `solver.sleep_time`",
    (1e-6, 1e6),
    "s",
    "a microsecond to eleven days of simulated time",
);
pub const STOP_TIME: Range = closed(
    "stop time",
    "`Vehicle` `stop_at`",
    (0.0, 1e6),
    "s",
    "from the start to the longest duration",
);
pub const FRICTION: Range = closed(
    "friction",
    "`friction` (contacts, planes, bodies, frames)",
    (0.0, 10.0),
    "",
    "real coefficients stay below 2 (rubber on rough ground); 1e160 overflowed the friction bound in the contact rows and panicked",
);
pub const RESTITUTION: Range = closed(
    "restitution",
    "`restitution` (contacts, planes, bodies, frames)",
    (0.0, 1.0),
    "",
    "0 stops a bounce dead, 1 keeps all of it; above 1 a bounce would make energy",
);
pub const TORQUE: Range = closed(
    "motor torque",
    "a hinge `motor`'s torque",
    (0.0, 1e9),
    "N·m",
    "turns the heaviest, largest body in range at 10 rad/s²",
);
pub const INERTIA: Range = closed(
    "moment of inertia",
    "a body's principal moments (from its parts), `--inertia`",
    (1e-13, 1e14),
    "kg·m²",
    "what masses, sizes and offsets in range give; --inertia 1e200,2e200,2.5e200 overflowed L²",
);
pub const PITCH: Range = closed(
    "camera pitch",
    "`camera.pitch_deg`",
    (-89.0, 89.0),
    "°",
    "the camera looks from above or below its focus but never straight along the vertical, where its up direction is undefined",
);
pub const DISTANCE: Range = closed(
    "camera distance",
    "`camera.distance`",
    (1e-3, 1e7),
    "m",
    "from a millimetre to beyond the farthest position",
);
pub const BODIES: Range = closed(
    "body count",
    "bodies in a scene (listed, generated and `gun.shells` together), one generator's count, `--rows`'s",
    (1.0, 20000.0),
    "",
    "memory and time grow with the count; it is checked before any body is made",
);
pub const SOLVER_ITERATIONS: Range = closed(
    "solver iterations",
    "`solver.iterations`, `solver.substep_iterations`",
    (1.0, 1000.0),
    "",
    "each costs a pass over every contact per step",
);
pub const SOLVER_SUBSTEPS: Range = closed(
    "solver sub-steps",
    "`solver.substeps`",
    (1.0, 64.0),
    "",
    "each costs a full solve per step; 64 already reaches a 60 Hz step's stiffness limit",
);
pub const ERP: Range = Range {
    open: Open::Max,
    ..closed(
        "error reduction",
        "`solver.erp`",
        (0.0, 1.0),
        "",
        "the fraction of a position error removed in a second; 1 would be an infinitely stiff correction",
    )
};
pub const SOR: Range = Range {
    open: Open::Max,
    ..closed(
        "over-relaxation",
        "`solver.sor`",
        (1e-3, 2.0),
        "",
        "successive over-relaxation converges only for 0 < ω < 2 [Kahan 1958]",
    )
};
pub const STIFFNESS: Range = closed(
    "stiffness",
    "`solver.contact_hertz`, `solver.joint_hertz`, a `spring`'s hertz",
    (1e-3, 1e4),
    "Hz",
    "a soft constraint's spring; at 1e300 its implicit step overflowed to NaN",
);
pub const DAMPING_RATIO: Range = closed(
    "damping ratio",
    "`solver.contact_damping_ratio`, `solver.joint_damping_ratio`, a `spring`'s damping ratio",
    (0.0, 1e3),
    "",
    "0 undamped, 1 critical, beyond a thousand only slower",
);
pub const SOLVER_DISTANCE: Range = closed(
    "solver distance",
    "`solver.slop`, `solver.speculative_distance`, `solver.recycle_distance`",
    (0.0, 1.0),
    "m",
    "tolerances beside bodies of a millimetre to a kilometre",
);
pub const SOLVER_SPEED: Range = closed(
    "solver speed",
    "`solver.restitution_threshold`, `solver.max_push_out`, `solver.sleep_speed`",
    (0.0, 1e4),
    "m/s",
    "the speeds in range",
);

/// The whole table, in the order of docs/scenes.md.
pub const ALL: [Range; 33] = [
    MASS,
    SIZE,
    LENGTH,
    OFFSET,
    POSITION,
    VELOCITY,
    SPIN,
    ACCELERATION,
    ANGULAR_ACCELERATION,
    ANGLE,
    HINGE_LIMIT,
    TRAVEL,
    JOINT_LENGTH,
    FORCE,
    DIRECTION,
    INERTIA,
    TIME_STEP,
    DURATION,
    STOP_TIME,
    FRICTION,
    RESTITUTION,
    TORQUE,
    PITCH,
    DISTANCE,
    BODIES,
    SOLVER_ITERATIONS,
    SOLVER_SUBSTEPS,
    ERP,
    SOR,
    STIFFNESS,
    DAMPING_RATIO,
    SOLVER_DISTANCE,
    SOLVER_SPEED,
];

/// A number as the table and the errors write it: plain when short, else `1e300`.
pub fn number(x: f64) -> String {
    if x == 0.0 || !x.is_finite() || (1e-3..1e5).contains(&x.abs()) {
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

impl Range {
    pub fn contains(&self, x: f64) -> bool {
        let above = match self.open {
            Open::Min => x > self.min,
            _ => x >= self.min,
        };
        let below = match self.open {
            Open::Max => x < self.max,
            _ => x <= self.max,
        };
        above && below
    }

    /// The range as docs/scenes.md and the errors write it: `0.001 to 1000 m`.
    pub fn accepted(&self) -> String {
        let bound = |x: f64, open: bool| {
            let n = number(x);
            if open { format!("{n} (excluded)") } else { n }
        };
        let text = format!(
            "{} to {}",
            bound(self.min, self.open == Open::Min),
            bound(self.max, self.open == Open::Max)
        );
        if self.unit.is_empty() {
            text
        } else {
            format!("{text} {}", self.unit)
        }
    }

    /// `x` at `path`, or the error naming the value and the accepted range.
    pub fn check(&self, path: impl Into<String>, x: f64) -> Result<(), Invalid> {
        if self.contains(x) {
            Ok(())
        } else {
            Err(Invalid::new(
                path,
                format!(
                    "{} is outside the accepted {} range, {}",
                    number(x),
                    self.quantity,
                    self.accepted()
                ),
            ))
        }
    }

    /// Each component of `v`, as `path.x`, `path.y`, `path.z`.
    pub fn check_each(&self, path: &str, v: DVec3) -> Result<(), Invalid> {
        for (axis, x) in ["x", "y", "z"].into_iter().zip(v.to_array()) {
            self.check(super::error::join(path, axis), x)?;
        }
        Ok(())
    }

    /// A count, such as a number of bodies.
    pub fn check_count(&self, path: impl Into<String>, n: usize) -> Result<(), Invalid> {
        self.check(path, n as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table of docs/scenes.md, as this table writes it.
    fn markdown() -> String {
        let mut out = String::from("| quantity | where | accepted | why |\n|---|---|---|---|\n");
        for r in ALL {
            out += &format!(
                "| {} | {} | {} | {} |\n",
                r.quantity,
                r.fields,
                r.accepted(),
                r.why
            );
        }
        out
    }

    #[test]
    fn the_scene_page_lists_exactly_these_ranges() {
        let readme = include_str!("../../../docs/scenes.md");
        let table = markdown();
        assert!(
            readme.contains(&table),
            "docs/scenes.md's \"What gyrolab accepts\" table must read:\n{table}"
        );
    }

    #[test]
    fn ranges_include_their_ends_unless_open() {
        assert!(MASS.contains(1e-6) && MASS.contains(1e6));
        assert!(!MASS.contains(0.99e-6) && !MASS.contains(f64::NAN));
        assert!(ERP.contains(0.0) && !ERP.contains(1.0));
        assert!(!FRICTION.contains(f64::INFINITY) && !FRICTION.contains(-0.1));
    }

    #[test]
    fn errors_name_the_path_the_value_and_the_range() {
        let e = SIZE
            .check("bodies[2].parts[0].shape.radius", 1e300)
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "bodies[2].parts[0].shape.radius: 1e300 is outside the accepted size range, 0.001 to 1000 m"
        );
        let e = VELOCITY.check_each("bodies[0].velocity", DVec3::new(0.0, f64::NAN, 0.0));
        assert_eq!(e.unwrap_err().path, "bodies[0].velocity.y");
    }
}
