//! A lab as a view draws it, before any pose: the lanes side by side in their colours,
//! the bodies' and moving frames' shapes, the ground, and the joints drawn as lines.
//! The recorded web page and the live one (through the wasm interface) draw from it.

use serde::Serialize;

use super::Lab;
use super::layout::LaneLayout;
use crate::body::inertia::{Part as BodyPart, Shape};
use glam::DVec3;

use crate::contacts::Contacts;
use crate::joints::JointKind;
use crate::palette;
use crate::world::World;

/// A lane as the page draws it.
#[derive(Clone, Debug, Serialize)]
pub struct LaneLook {
    /// Its integrator's name.
    pub name: String,
    pub color: String,
    /// Where it stands, m.
    pub offset: [f64; 3],
}

/// A body's or a moving frame's name and the shapes it is drawn with.
#[derive(Clone, Debug, Serialize)]
pub struct Drawn {
    pub name: String,
    pub parts: Vec<ShapeAt>,
}

/// One shape, at its place in its body.
#[derive(Clone, Debug, Serialize)]
pub struct ShapeAt {
    pub kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub radius: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub half_extents: Option<[f64; 3]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub length: Option<f64>,
    pub offset: [f64; 3],
    /// x, y, z, w.
    pub rotation: [f64; 4],
}

/// A ground plane: the points p with `normal · p = offset`.
#[derive(Clone, Debug, Serialize)]
pub struct Ground {
    pub normal: [f64; 3],
    pub offset: f64,
}

/// What a view draws of a lab, poses apart.
#[derive(Clone, Debug, Serialize)]
pub struct Drawing {
    pub lanes: Vec<LaneLook>,
    /// The exact solution is drawn over every lane, after the lanes' runs.
    pub ghost: bool,
    pub bodies: Vec<Drawn>,
    pub frames: Vec<Drawn>,
    pub planes: Vec<Ground>,
}

impl Drawing {
    /// `lab`'s lanes, shapes and ground as they stand.
    pub fn of(lab: &Lab) -> Self {
        let layout = LaneLayout::of(lab);
        let world = lab.world();
        Self {
            lanes: (lab.lanes().iter().enumerate())
                .map(|(i, run)| LaneLook {
                    name: run.integrator().name().to_string(),
                    color: palette::hex(palette::INTEGRATORS[run.integrator() as usize]),
                    offset: layout.offset(i).to_array(),
                })
                .collect(),
            ghost: lab.ghost().is_some(),
            bodies: (world.bodies().iter())
                .map(|b| drawn(&b.name, &b.parts))
                .collect(),
            frames: (world.frames().iter())
                .map(|f| drawn(&f.name, &f.parts))
                .collect(),
            planes: (world.contacts().into_iter())
                .flat_map(|c| c.planes())
                .map(|p| Ground {
                    normal: p.normal.to_array(),
                    offset: p.offset,
                })
                .collect(),
        }
    }
}

/// The joints of `world` a page draws: those whose anchors part (a ball, hinge or fixed
/// joint's meet, and a brick wall's hundred would be drawn as nothing).
pub fn drawn_joints(world: &World) -> Vec<usize> {
    let joints = world.joints();
    (joints.iter().enumerate())
        .filter(|(_, j)| {
            matches!(
                j.kind,
                JointKind::Distance { .. } | JointKind::Slider { .. }
            )
        })
        .map(|(k, _)| k)
        .collect()
}

fn drawn(name: &str, parts: &[BodyPart]) -> Drawn {
    Drawn {
        name: name.to_string(),
        parts: parts.iter().map(shape_at).collect(),
    }
}

fn shape_at(part: &BodyPart) -> ShapeAt {
    let (kind, radius, half_extents, length) = match part.shape {
        Shape::Sphere { radius } => ("sphere", Some(radius), None, None),
        Shape::Box { half_extents } => ("box", None, Some(half_extents.to_array()), None),
        Shape::Cylinder { radius, length } => ("cylinder", Some(radius), None, Some(length)),
        Shape::Capsule { radius, length } => ("capsule", Some(radius), None, Some(length)),
    };
    ShapeAt {
        kind,
        radius,
        half_extents,
        length,
        offset: part.offset.to_array(),
        rotation: part.rotation.to_array(),
    }
}

/// The `drawn` joints' anchors in `world`, on their first and second ends, NaN for a
/// broken one (a view draws none).
pub fn joint_ends(world: &World, drawn: &[usize]) -> Vec<[DVec3; 2]> {
    let Some(c) = world.contacts() else {
        return Vec::new();
    };
    let poses = Contacts::poses(world.bodies());
    (drawn.iter())
        .map(|&k| {
            let joint = &c.joints()[k];
            let ends = (world.joint_poses(&poses, k))
                .filter(|_| joint.broken.is_none())
                .map(|(pa, pb)| joint.anchors(&pa, &pb));
            let (a, b) = ends.unwrap_or((DVec3::NAN, DVec3::NAN));
            [a, b]
        })
        .collect()
}
