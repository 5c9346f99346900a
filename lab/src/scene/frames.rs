//! The transform-hierarchy part of a scene file: driven frames, bodies riding in them,
//! and a gun.

use std::collections::HashMap;

use glam::DVec3;
use serde::Deserialize;

use super::check::{mass_and_inertia, material, part};
use super::error::{Invalid, unknown};
use super::ranges::{
    ACCELERATION, ANGLE, ANGULAR_ACCELERATION, DIRECTION, DURATION, POSITION, SPIN, STOP_TIME,
    VELOCITY,
};
use super::{PartDesc, euler_deg};
use crate::body::inertia::{Inertia, Part};
use crate::body::{Body, Material};
use crate::hierarchy::rig::{self, Carrier, Frame, Gun, Mount};
use crate::hierarchy::{Drive, DynamicTransform, Transform};
use crate::world::World;

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FrameDesc {
    pub name: String,
    /// Another frame, listed earlier; none for a frame moving in the world.
    #[serde(default)]
    pub parent: Option<String>,
    #[serde(default)]
    pub drive: Drive,
    /// Placement and motion relative to the parent, in the parent's axes.
    #[serde(default)]
    pub position: DVec3,
    #[serde(default)]
    pub orientation_deg: DVec3,
    #[serde(default)]
    pub velocity: DVec3,
    #[serde(default)]
    pub omega: DVec3,
    #[serde(default)]
    pub accel: DVec3,
    #[serde(default)]
    pub alpha: DVec3,
    /// Shapes of the frame: drawn, and solid in a scene with contacts (masses are
    /// ignored: a driven frame is not pushed).
    #[serde(default)]
    pub parts: Vec<PartDesc>,
    /// Overrides the scene's material for the frame's parts.
    #[serde(default)]
    pub friction: Option<f64>,
    #[serde(default)]
    pub restitution: Option<f64>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GunDesc {
    /// What carries the barrel: a frame, or a body (a turret); give one of the two.
    #[serde(default)]
    pub frame: Option<String>,
    #[serde(default)]
    pub body: Option<String>,
    /// The muzzle and the barrel's direction, in the carrier's coordinates (a body's as
    /// authored).
    pub muzzle: DVec3,
    #[serde(default = "default_direction")]
    pub direction: DVec3,
    /// Muzzle speed relative to the barrel, m/s.
    pub speed: f64,
    /// Seconds between shots.
    pub period: f64,
    pub shells: usize,
    pub shell: PartDesc,
}

fn default_direction() -> DVec3 {
    DVec3::X
}

pub(super) fn frame_index(frames: &[FrameDesc]) -> HashMap<&str, usize> {
    frames
        .iter()
        .enumerate()
        .map(|(i, f)| (f.name.as_str(), i))
        .collect()
}

pub(super) fn validate(
    frames: &[FrameDesc],
    gun: Option<&GunDesc>,
    bodies: &[&str],
) -> Result<(), Invalid> {
    for (i, f) in frames.iter().enumerate() {
        frame(f, &frames[..i]).map_err(|e| e.under(&format!("frames[{i}]")))?;
    }
    if let Some(g) = gun {
        shooter(g, frames, bodies).map_err(|e| e.under("gun"))?;
    }
    Ok(())
}

/// A frame, after the frames listed before it.
fn frame(f: &FrameDesc, earlier: &[FrameDesc]) -> Result<(), Invalid> {
    if earlier.iter().any(|g| g.name == f.name) {
        return Err(Invalid::new(
            "name",
            format!("the frame name '{}' is used twice", f.name),
        ));
    }
    if let Some(p) = &f.parent
        && !earlier.iter().any(|g| &g.name == p)
    {
        return Err(Invalid::new(
            "parent",
            format!("parent '{p}' must be a frame listed before this one"),
        ));
    }
    POSITION.check_each("position", f.position)?;
    ANGLE.check_each("orientation_deg", f.orientation_deg)?;
    VELOCITY.check_each("velocity", f.velocity)?;
    SPIN.check_each("omega", f.omega)?;
    ACCELERATION.check_each("accel", f.accel)?;
    ANGULAR_ACCELERATION.check_each("alpha", f.alpha)?;
    if let Drive::Vehicle {
        speed,
        yaw_rate,
        stop_at,
    } = f.drive
    {
        VELOCITY.check("drive.speed", speed)?;
        SPIN.check("drive.yaw_rate", yaw_rate)?;
        if let Some(t) = stop_at {
            STOP_TIME.check("drive.stop_at", t)?;
        }
    }
    material(f.friction, f.restitution)?;
    for (k, p) in f.parts.iter().enumerate() {
        // A driven frame is not pushed: its parts' masses are not used.
        part(p, false).map_err(|e| e.under(&format!("parts[{k}]")))?;
    }
    Ok(())
}

fn shooter(g: &GunDesc, frames: &[FrameDesc], bodies: &[&str]) -> Result<(), Invalid> {
    match (&g.frame, &g.body) {
        (Some(f), None) if !frames.iter().any(|x| &x.name == f) => {
            let names: Vec<&str> = frames.iter().map(|x| x.name.as_str()).collect();
            return Err(Invalid::new("frame", unknown("frame", f, &names)));
        }
        (None, Some(b)) if !bodies.contains(&b.as_str()) => {
            return Err(Invalid::new("body", unknown("body", b, bodies)));
        }
        (Some(_), None) | (None, Some(_)) => {}
        _ => return Err(Invalid::new("", "give either frame or body")),
    }
    POSITION.check_each("muzzle", g.muzzle)?;
    DIRECTION.check("direction", g.direction.length())?;
    VELOCITY.check("speed", g.speed)?;
    DURATION.check("period", g.period)?;
    part(&g.shell, true).map_err(|e| e.under("shell"))?;
    mass_and_inertia(std::slice::from_ref(&g.shell.part()), "shell")
}

/// The frames, parents first, their parts made of `base` unless they say otherwise.
pub(super) fn build_frames(frames: &[FrameDesc], base: Material) -> Vec<Frame> {
    let index = frame_index(frames);
    let mut built: Vec<Frame> = frames
        .iter()
        .map(|f| {
            let mut local = DynamicTransform {
                transform: Transform::from_translation_rotation(
                    f.position,
                    euler_deg(f.orientation_deg),
                ),
                velocity: f.velocity,
                accel: f.accel,
                angular_velocity: f.omega,
                angular_accel: f.alpha,
            };
            f.drive.prime(&mut local, 0.0);
            Frame {
                name: f.name.clone(),
                parent: f.parent.as_ref().map(|p| index[p.as_str()]),
                drive: f.drive,
                local,
                global: local,
                parts: f.parts.iter().map(PartDesc::part).collect(),
                material: Material {
                    friction: f.friction.unwrap_or(base.friction),
                    restitution: f.restitution.unwrap_or(base.restitution),
                },
            }
        })
        .collect();
    rig::propagate(&mut built);
    built
}

/// Adds the gun's shells, held at the muzzle, to the world: `carrier` carries them, with
/// the muzzle and the barrel's direction in its coordinates.
pub(super) fn add_gun(
    world: &mut World,
    desc: &GunDesc,
    carrier: Carrier,
    (muzzle, direction): (DVec3, DVec3),
) {
    let part = desc.shell.part();
    let mp = crate::body::inertia::compound(std::slice::from_ref(&part));
    let props = crate::body::MassProps {
        mass: mp.mass,
        inertia: Inertia::new(mp.principal).expect("validated when parsed"),
    };
    let first = world.bodies().len();
    for k in 0..desc.shells {
        world.add_body(
            Body {
                name: format!("shell {}", k + 1),
                props,
                state: crate::body::BodyState::from_body_omega(
                    &props,
                    glam::DQuat::IDENTITY,
                    DVec3::ZERO,
                ),
                parts: vec![Part {
                    offset: DVec3::ZERO,
                    ..part
                }],
                material: Default::default(),
            },
            Mount::Carried {
                by: carrier,
                at: muzzle,
            },
        );
    }
    world.set_gun(Gun {
        carrier,
        muzzle,
        direction: direction.normalize(),
        speed: desc.speed,
        period: desc.period,
        shells: (first..first + desc.shells).collect(),
        fired: 0,
    });
}
