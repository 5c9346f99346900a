//! The checks of values that every section of a scene shares (a time step, a shape, a
//! part, a body's mass and inertia, a material), against their ranges in
//! [`super::ranges`]; the sections' own checks (validate.rs, contacts.rs, frames.rs) call
//! these.

use super::PartDesc;
use super::error::Invalid;
use super::ranges::{ANGLE, FRICTION, INERTIA, LENGTH, MASS, OFFSET, RESTITUTION, SIZE, TIME_STEP};
use crate::body::inertia::{Inertia, Part, Shape, compound};

/// A time step against its range, for the command line and the app.
pub fn check_step(dt: f64) -> Result<(), String> {
    TIME_STEP.check("", dt).map_err(String::from)
}

/// A shape's dimensions, at `shape.radius`, `shape.half_extents.x`, ….
pub fn shape(s: &Shape) -> Result<(), Invalid> {
    match *s {
        Shape::Sphere { radius } => SIZE.check("radius", radius),
        Shape::Box { half_extents } => SIZE.check_each("half_extents", half_extents),
        Shape::Cylinder { radius, length } | Shape::Capsule { radius, length } => {
            SIZE.check("radius", radius)?;
            LENGTH.check("length", length)
        }
    }
    .map_err(|e| e.under("shape"))
}

/// A part's shape, placement and (where it has one) mass.
pub(super) fn part(p: &PartDesc, massive: bool) -> Result<(), Invalid> {
    shape(&p.shape)?;
    if massive {
        MASS.check("mass", p.mass)?;
    }
    OFFSET.check_each("offset", p.offset)?;
    ANGLE.check_each("rotation_deg", p.rotation_deg)
}

/// The mass and principal moments of a body of `parts` (at `path`), against their ranges.
pub(super) fn mass_and_inertia(parts: &[Part], path: &str) -> Result<(), Invalid> {
    let mp = compound(parts);
    let message = |m: String| Invalid::new(path, format!("the parts' total {m}"));
    MASS.check("", mp.mass).map_err(|e| message(e.message))?;
    for moment in mp.principal.to_array() {
        INERTIA
            .check("", moment)
            .map_err(|e| message(format!("principal moment {}", e.message)))?;
    }
    Inertia::new(mp.principal).map_err(|e| Invalid::new(path, e.to_string()))?;
    Ok(())
}

/// A surface's friction and restitution, where given.
pub(super) fn material(friction: Option<f64>, restitution: Option<f64>) -> Result<(), Invalid> {
    if let Some(f) = friction {
        FRICTION.check("friction", f)?;
    }
    if let Some(r) = restitution {
        RESTITUTION.check("restitution", r)?;
    }
    Ok(())
}
