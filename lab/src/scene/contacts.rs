//! The contact part of a scene file: the ground and ramps (half-spaces), the solver's
//! settings, joints between bodies, and generators that lay out many bodies from one
//! parameter (a pyramid's rows, a pile's count).

use std::collections::HashMap;

use glam::DVec3;
use serde::Deserialize;

use super::check::material;
use super::error::{Invalid, unknown};
use super::ranges::{
    ANGLE, BODIES, DAMPING_RATIO, DIRECTION, DURATION, ERP, FORCE, HINGE_LIMIT, JOINT_LENGTH, MASS,
    POSITION, Range, SIZE, SOLVER_DISTANCE, SOLVER_ITERATIONS, SOLVER_SPEED, SOLVER_SUBSTEPS, SOR,
    SPIN, STIFFNESS, TORQUE, TRAVEL, VELOCITY,
};
use super::{BodyDesc, PartDesc, euler_deg};
use crate::body::Material;
use crate::body::inertia::Shape;
use crate::collision::{Plane, Pose};
use crate::contacts::Contacts;
use crate::joints::{JointKind, LinearMotor, Motor, Placement, Spring};
use crate::solver::SolverSettings;
use crate::world::World;

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContactsDesc {
    #[serde(default)]
    pub planes: Vec<PlaneDesc>,
    /// The material of bodies that do not set their own.
    #[serde(default = "default_friction")]
    pub friction: f64,
    #[serde(default)]
    pub restitution: f64,
    #[serde(default)]
    pub solver: SolverSettings,
}

fn default_friction() -> f64 {
    Material::DEFAULT.friction
}

/// A half-space: the solid below the plane through `point` whose normal is +Y turned by
/// `orientation_deg` (XYZ Euler angles, like bodies).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlaneDesc {
    #[serde(default)]
    pub point: DVec3,
    #[serde(default)]
    pub orientation_deg: DVec3,
    #[serde(default = "default_friction")]
    pub friction: f64,
    #[serde(default)]
    pub restitution: f64,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
pub enum JointType {
    Ball,
    Hinge,
    Fixed,
    Slider,
    Distance,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JointDesc {
    pub kind: JointType,
    pub a: String,
    /// The second body; none to fix `a` to the world (or to `frame`).
    #[serde(default)]
    pub b: Option<String>,
    /// A driven frame to hold `a` to, instead of a second body.
    #[serde(default)]
    pub frame: Option<String>,
    /// World point where the joint sits, in the scene's starting pose.
    pub anchor: DVec3,
    /// Distance joint: the anchor on `b` (or the world, or `frame`), a world point in
    /// the starting pose, written as a plain tuple like `anchor`.
    #[serde(default, deserialize_with = "plain_point")]
    pub anchor_b: Option<DVec3>,
    /// Hinge or slider axis, world (+Y when not given), written as a plain tuple.
    #[serde(default, deserialize_with = "plain_point")]
    pub axis: Option<DVec3>,
    /// Hinge limits of a relative to b, degrees.
    #[serde(default)]
    pub limits_deg: Option<(f64, f64)>,
    /// Slider limits: a's travel along the axis from the start, metres.
    #[serde(default)]
    pub limits_m: Option<(f64, f64)>,
    /// Hinge motor: target speed (rad/s) and the torque it may use (N·m); slider
    /// motor: target speed (m/s) and the force it may use (N).
    #[serde(default)]
    pub motor: Option<(f64, f64)>,
    /// Distance joint: the least and most distance between the anchors (m).
    #[serde(default)]
    pub length: Option<(f64, f64)>,
    /// Distance joint: a spring's frequency (Hz) and damping ratio.
    #[serde(default)]
    pub spring: Option<(f64, f64)>,
    /// The force (N) and torque (N·m) past which the joint breaks.
    #[serde(default)]
    pub break_force: Option<f64>,
    #[serde(default)]
    pub break_torque: Option<f64>,
}

/// A point or direction given without `Some(..)`, as `anchor` is.
fn plain_point<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<DVec3>, D::Error> {
    DVec3::deserialize(d).map(Some)
}

/// Bodies laid out from a parameter; `size` is a box's half extents.
#[derive(Clone, Debug, Deserialize)]
pub enum Generator {
    /// A 2D pyramid of boxes on the ground, `rows` at the base.
    Pyramid { rows: usize, size: DVec3, mass: f64 },
    /// `count` boxes stacked straight up.
    Stack {
        count: usize,
        size: DVec3,
        mass: f64,
    },
    /// `count` boxes in a grid above the ground, falling into a pile: every other
    /// layer is shifted by half the grid's pitch and every box is turned, so the boxes
    /// land on edges and corners and tumble into a heap (boxes dropped square onto each
    /// other stood in tall columns that buckled seconds later). The pitch, 2.2 times a
    /// box's half-diagonal, keeps every box clear of the others whatever its turn.
    Pile {
        count: usize,
        size: DVec3,
        mass: f64,
    },
    /// `count` upright dominoes along +x, `spacing` apart; the first is tipped.
    Dominoes {
        count: usize,
        size: DVec3,
        spacing: f64,
        mass: f64,
    },
}

impl Generator {
    pub fn count(&self) -> usize {
        match *self {
            // Saturating: a huge `rows` must be refused by the bound, not wrap into it.
            Generator::Pyramid { rows, .. } => rows.saturating_mul(rows.saturating_add(1)) / 2,
            Generator::Stack { count, .. }
            | Generator::Pile { count, .. }
            | Generator::Dominoes { count, .. } => count,
        }
    }

    /// Sets the generator's parameter (rows or count), for `--rows`.
    pub fn set_size(&mut self, n: usize) {
        match self {
            Generator::Pyramid { rows, .. } => *rows = n,
            Generator::Stack { count, .. }
            | Generator::Pile { count, .. }
            | Generator::Dominoes { count, .. } => *count = n,
        }
    }

    /// The count before any body is made, then the size, mass and spacing, each at
    /// its field (`rows`, `size.x`, …).
    pub(super) fn validate(&self) -> Result<(), Invalid> {
        let (size, mass) = match *self {
            Generator::Pyramid { size, mass, .. }
            | Generator::Stack { size, mass, .. }
            | Generator::Pile { size, mass, .. }
            | Generator::Dominoes { size, mass, .. } => (size, mass),
        };
        let field = match self {
            Generator::Pyramid { .. } => "rows",
            _ => "count",
        };
        if !BODIES.contains(self.count() as f64) {
            return Err(Invalid::new(
                field,
                format!(
                    "makes {} bodies, outside the accepted {} range, {}",
                    self.count(),
                    BODIES.quantity,
                    BODIES.accepted()
                ),
            ));
        }
        SIZE.check_each("size", size)?;
        MASS.check("mass", mass)?;
        if let Generator::Dominoes { spacing, .. } = *self {
            SIZE.check("spacing", spacing)?;
        }
        Ok(())
    }

    /// The bodies, named `box 1`, `box 2`, … (or `domino k`).
    pub fn bodies(&self) -> Vec<BodyDesc> {
        match *self {
            Generator::Pyramid { rows, size, mass } => pyramid(rows, size, mass),
            Generator::Stack { count, size, mass } => (0..count)
                .map(|k| {
                    let y = size.y + k as f64 * 2.0 * size.y;
                    let name = format!("box {}", k + 1);
                    boxed(name, size, mass, DVec3::new(0.0, y, 0.0))
                })
                .collect(),
            Generator::Pile { count, size, mass } => pile(count, size, mass),
            Generator::Dominoes {
                count,
                size,
                spacing,
                mass,
            } => dominoes(count, size, spacing, mass),
        }
    }
}

/// A box of half extents `size` at `position`.
fn boxed(name: String, size: DVec3, mass: f64, position: DVec3) -> BodyDesc {
    BodyDesc {
        name,
        parts: vec![PartDesc {
            shape: Shape::Box { half_extents: size },
            mass,
            offset: DVec3::ZERO,
            rotation_deg: DVec3::ZERO,
        }],
        position,
        ..BodyDesc::default()
    }
}

/// A 2D pyramid of `rows` rows, each one box shorter than the one below.
fn pyramid(rows: usize, size: DVec3, mass: f64) -> Vec<BodyDesc> {
    let mut out = Vec::new();
    for r in 0..rows {
        let n = rows - r;
        for i in 0..n {
            // A small gap keeps neighbours from starting in contact.
            let x = (i as f64 - 0.5 * (n - 1) as f64) * 2.0 * size.x * 1.01;
            let y = size.y + r as f64 * 2.0 * size.y;
            let name = format!("box {}", out.len() + 1);
            out.push(boxed(name, size, mass, DVec3::new(x, y, 0.0)));
        }
    }
    out
}

/// `count` boxes on a grid, layer over layer, each turned its own way. They start clear
/// of each other and of the ground, however each is turned: the spheres around them
/// (radius |size|) are 10% of a diameter apart.
fn pile(count: usize, size: DVec3, mass: f64) -> Vec<BodyDesc> {
    let side = libm::cbrt(count as f64).ceil().max(1.0) as usize;
    let pitch = 2.2 * size.length();
    (0..count)
        .map(|k| {
            let (i, j, l) = (k % side, (k / side) % side, k / (side * side));
            let c = 0.5 * (side - 1) as f64;
            // Each layer over the gaps of the one below, each box turned by its own
            // angles (spread by coprime strides).
            let shift = 0.5 * pitch * (l % 2) as f64;
            let p = DVec3::new(
                (i as f64 - c) * pitch + shift,
                0.55 * pitch + l as f64 * pitch,
                (j as f64 - c) * pitch + shift,
            );
            let mut b = boxed(format!("box {}", k + 1), size, mass, p);
            b.orientation_deg = DVec3::new(
                ((k * 37) % 31) as f64 - 15.0,
                ((k * 53) % 90) as f64,
                ((k * 71) % 31) as f64 - 15.0,
            );
            b
        })
        .collect()
}

/// A row of `count` dominoes `spacing` apart, the first tipped toward the others.
fn dominoes(count: usize, size: DVec3, spacing: f64, mass: f64) -> Vec<BodyDesc> {
    (0..count)
        .map(|k| {
            let position = DVec3::new(k as f64 * spacing, size.y, 0.0);
            let mut b = boxed(format!("domino {}", k + 1), size, mass, position);
            if k == 0 {
                // Tipped toward the others, just enough to start the run.
                b.orientation_deg = DVec3::new(0.0, 0.0, -12.0);
                b.position.y = size.y * 1.01;
            }
            b
        })
        .collect()
}

/// Joints and generated heaps are solved by the contact solver, which a scene turns on
/// with a `contacts` section: the message gives the smallest one.
const NEEDS_CONTACTS: &str = "needs a `contacts` section, the solver that holds joints and \
     heaps (the smallest: contacts: Some((planes: [])))";

pub(super) fn validate(
    contacts: Option<&ContactsDesc>,
    joints: &[JointDesc],
    generate: &[Generator],
    names: &[&str],
    frames: &[&str],
) -> Result<(), Invalid> {
    let Some(c) = contacts else {
        return match (joints.is_empty(), generate.is_empty()) {
            (false, _) => Err(Invalid::new("joints", NEEDS_CONTACTS)),
            (_, false) => Err(Invalid::new("generate", NEEDS_CONTACTS)),
            _ => Ok(()),
        };
    };
    let under = |prefix: String| move |e: Invalid| e.under(&prefix);
    material(Some(c.friction), Some(c.restitution)).map_err(under("contacts".into()))?;
    validate_solver(&c.solver).map_err(under("contacts.solver".into()))?;
    for (i, p) in c.planes.iter().enumerate() {
        let at = under(format!("contacts.planes[{i}]"));
        POSITION.check_each("point", p.point).map_err(&at)?;
        ANGLE
            .check_each("orientation_deg", p.orientation_deg)
            .map_err(&at)?;
        material(Some(p.friction), Some(p.restitution)).map_err(&at)?;
    }
    for (i, j) in joints.iter().enumerate() {
        joint(j, names, frames).map_err(under(format!("joints[{i}]")))?;
    }
    Ok(())
}

fn joint(j: &JointDesc, names: &[&str], frames: &[&str]) -> Result<(), Invalid> {
    for (field, name) in std::iter::once(("a", &j.a)).chain(j.b.as_ref().map(|b| ("b", b))) {
        if !names.contains(&name.as_str()) {
            return Err(Invalid::new(field, unknown("body", name, names)));
        }
    }
    if j.b.as_ref() == Some(&j.a) {
        return Err(Invalid::new("b", "a body cannot be jointed to itself"));
    }
    if let Some(f) = &j.frame {
        if j.b.is_some() {
            return Err(Invalid::new(
                "frame",
                "give either b (a body) or frame, not both",
            ));
        }
        if !frames.contains(&f.as_str()) {
            return Err(Invalid::new("frame", unknown("frame", f, frames)));
        }
    }
    POSITION.check_each("anchor", j.anchor)?;
    belongs(j)?;
    if let Some(axis) = j.axis {
        DIRECTION.check("axis", axis.length())?;
    }
    if let Some(p) = j.anchor_b {
        POSITION.check_each("anchor_b", p)?;
    }
    if let Some((lo, hi)) = j.limits_deg {
        ordered("limits_deg", HINGE_LIMIT, (lo, hi), lo < hi)?;
    }
    if let Some((lo, hi)) = j.limits_m {
        ordered("limits_m", TRAVEL, (lo, hi), lo < hi)?;
    }
    if let Some((min, max)) = j.length {
        ordered("length", JOINT_LENGTH, (min, max), min <= max && max > 0.0)?;
    }
    if let Some((hertz, zeta)) = j.spring {
        STIFFNESS.check("spring", hertz)?;
        DAMPING_RATIO.check("spring", zeta)?;
    }
    if let Some((speed, most)) = j.motor {
        if j.kind == JointType::Slider {
            VELOCITY.check("motor", speed)?;
            FORCE.check("motor", most)?;
        } else {
            SPIN.check("motor", speed)?;
            TORQUE.check("motor", most)?;
        }
    }
    if let Some(f) = j.break_force {
        FORCE.check("break_force", f)?;
    }
    if let Some(t) = j.break_torque {
        FORCE.check("break_torque", t)?;
    }
    starts_within(j)
}

/// A pair of bounds in `range`, in order (`in_order`).
fn ordered(field: &str, range: Range, (lo, hi): (f64, f64), in_order: bool) -> Result<(), Invalid> {
    range.check(field, lo)?;
    range.check(field, hi)?;
    if in_order {
        Ok(())
    } else {
        Err(Invalid::new(
            field,
            format!("({lo}, {hi}) is not in order: {}", range.fields),
        ))
    }
}

/// A distance joint's anchors at least a millimetre apart (the line between them is its
/// row's direction), and every joint starting within its limits (a start outside would
/// be yanked into range by the first step).
fn starts_within(j: &JointDesc) -> Result<(), Invalid> {
    if j.kind == JointType::Distance {
        let Some(b) = j.anchor_b else {
            return Err(Invalid::new(
                "anchor_b",
                "a Distance joint needs anchor_b, the point on its second end",
            ));
        };
        let start = b.distance(j.anchor);
        if start < SIZE.min {
            return Err(Invalid::new(
                "anchor_b",
                format!(
                    "is {start} m from anchor: a distance joint needs its anchors at least 1 mm apart"
                ),
            ));
        }
        if let Some((min, max)) = j.length
            && !(min..=max).contains(&start)
        {
            return Err(Invalid::new(
                "length",
                format!("({min}, {max}) does not include the anchors' starting distance {start} m"),
            ));
        }
    }
    if let Some((lo, hi)) = j.limits_m
        && !(lo..=hi).contains(&0.0)
    {
        return Err(Invalid::new(
            "limits_m",
            format!("({lo}, {hi}) does not include 0, the starting pose"),
        ));
    }
    if let Some((lo, hi)) = j.limits_deg
        && !(lo..=hi).contains(&0.0)
    {
        return Err(Invalid::new(
            "limits_deg",
            format!("({lo}, {hi}) does not include 0, the starting pose"),
        ));
    }
    Ok(())
}

/// Each optional field belongs to some kinds of joint only.
fn belongs(j: &JointDesc) -> Result<(), Invalid> {
    use JointType::*;
    let fields: [(&str, bool, &[JointType], &str); 8] = [
        ("limits_deg", j.limits_deg.is_some(), &[Hinge], "a Hinge"),
        ("limits_m", j.limits_m.is_some(), &[Slider], "a Slider"),
        (
            "axis",
            j.axis.is_some(),
            &[Hinge, Slider],
            "a Hinge or a Slider",
        ),
        (
            "motor",
            j.motor.is_some(),
            &[Hinge, Slider],
            "a Hinge or a Slider",
        ),
        (
            "anchor_b",
            j.anchor_b.is_some(),
            &[Distance],
            "a Distance joint",
        ),
        (
            "length",
            j.length.is_some(),
            &[Distance],
            "a Distance joint",
        ),
        (
            "spring",
            j.spring.is_some(),
            &[Distance],
            "a Distance joint",
        ),
        (
            "break_torque",
            j.break_torque.is_some(),
            &[Hinge, Fixed, Slider],
            "a joint with angular rows (Hinge, Fixed, Slider)",
        ),
    ];
    match fields
        .iter()
        .find(|(_, given, kinds, _)| *given && !kinds.contains(&j.kind))
    {
        Some((field, _, _, owner)) => Err(Invalid::new(*field, format!("belongs to {owner}"))),
        None => Ok(()),
    }
}

/// The solver's settings, each at `solver.<field>`'s path below its section.
pub fn validate_solver(s: &SolverSettings) -> Result<(), Invalid> {
    STIFFNESS.check("contact_hertz", s.contact_hertz)?;
    STIFFNESS.check("joint_hertz", s.joint_hertz)?;
    DURATION.check("sleep_time", s.sleep_time)?;
    DAMPING_RATIO.check("contact_damping_ratio", s.contact_damping_ratio)?;
    DAMPING_RATIO.check("joint_damping_ratio", s.joint_damping_ratio)?;
    SOLVER_DISTANCE.check("slop", s.slop)?;
    SOLVER_DISTANCE.check("speculative_distance", s.speculative_distance)?;
    SOLVER_DISTANCE.check("recycle_distance", s.recycle_distance)?;
    SOLVER_SPEED.check("restitution_threshold", s.restitution_threshold)?;
    SOLVER_SPEED.check("max_push_out", s.max_push_out)?;
    SOLVER_SPEED.check("sleep_speed", s.sleep_speed)?;
    ERP.check("erp", s.erp)?;
    SOR.check("sor", s.sor)?;
    SOLVER_ITERATIONS.check("iterations", s.iterations.into())?;
    SOLVER_ITERATIONS.check("substep_iterations", s.substep_iterations.into())?;
    SOLVER_SUBSTEPS.check("substeps", s.substeps.into())
}

/// The solver's joint of a scene's (validated) joint.
fn joint_kind(j: &JointDesc) -> JointKind {
    match j.kind {
        JointType::Ball => JointKind::Ball,
        JointType::Fixed => JointKind::Fixed,
        JointType::Hinge => JointKind::Hinge {
            limits: j
                .limits_deg
                .map(|(lo, hi)| (lo.to_radians(), hi.to_radians())),
            motor: j
                .motor
                .map(|(speed, max_torque)| Motor { speed, max_torque }),
        },
        JointType::Slider => JointKind::Slider {
            limits: j.limits_m,
            motor: j
                .motor
                .map(|(speed, max_force)| LinearMotor { speed, max_force }),
        },
        JointType::Distance => JointKind::Distance {
            length: j.length,
            spring: j.spring.map(|(hertz, damping_ratio)| Spring {
                hertz,
                damping_ratio,
            }),
        },
    }
}

/// Adds the contact state (planes, settings, joints) to a built world.
pub(super) fn build(world: &mut World, desc: &ContactsDesc, joints: &[JointDesc]) {
    let planes = desc
        .planes
        .iter()
        .map(|p| {
            let normal = euler_deg(p.orientation_deg) * DVec3::Y;
            Plane::through(p.point, normal, p.friction, p.restitution)
        })
        .collect();
    let mut contacts = Contacts::new(desc.solver, planes);
    let index: HashMap<&str, usize> = world
        .bodies()
        .iter()
        .enumerate()
        .map(|(i, b)| (b.name.as_str(), i))
        .collect();
    for j in joints {
        let a = index[j.a.as_str()];
        let place = Placement {
            anchor: j.anchor,
            anchor_b: j.anchor_b,
            axis: j.axis.unwrap_or(DVec3::Y),
        };
        let k = if let Some(f) = &j.frame {
            let f = world
                .frames()
                .iter()
                .position(|x| &x.name == f)
                .expect("validated when parsed");
            let t = world.frames()[f].global.transform;
            let pose = Pose {
                position: t.translation,
                orientation: t.rotation,
            };
            contacts.add_joint_to_frame(world.bodies(), joint_kind(j), (a, f), pose, place)
        } else {
            let b = j.b.as_ref().map(|n| index[n.as_str()]);
            contacts.add_joint(world.bodies(), joint_kind(j), (a, b), place)
        };
        contacts.set_break_limits(k, (j.break_force, j.break_torque));
    }
    world.set_contacts(contacts);
}
