//! The transform-hierarchy part of a scene file: driven frames, bodies riding in them,
//! and a gun.

use std::collections::HashMap;

use glam::DVec3;
use serde::Deserialize;

use super::{PartDesc, all_finite, euler_deg};
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
) -> Result<(), String> {
    for (i, f) in frames.iter().enumerate() {
        let at = |m: String| format!("frame '{}': {m}", f.name);
        if frames[..i].iter().any(|g| g.name == f.name) {
            return Err(at("the name is used twice".into()));
        }
        if let Some(p) = &f.parent
            && !frames[..i].iter().any(|g| &g.name == p)
        {
            return Err(at(format!(
                "parent '{p}' must be a frame listed before this one"
            )));
        }
        all_finite(&[
            ("position", f.position),
            ("orientation_deg", f.orientation_deg),
            ("velocity", f.velocity),
            ("omega", f.omega),
            ("accel", f.accel),
            ("alpha", f.alpha),
        ])
        .map_err(at)?;
        if let Drive::Vehicle {
            speed,
            yaw_rate,
            stop_at,
        } = f.drive
            && !(speed.is_finite() && yaw_rate.is_finite() && stop_at.is_none_or(f64::is_finite))
        {
            return Err(at(
                "drive: speed, yaw_rate and stop_at must be finite".into()
            ));
        }
        super::contacts::material(
            "material",
            f.friction.unwrap_or(0.0),
            f.restitution.unwrap_or(0.0),
        )
        .map_err(at)?;
        for (k, p) in f.parts.iter().enumerate() {
            p.shape
                .validate()
                .map_err(|m| at(format!("part {k}: {m}")))?;
        }
    }
    if let Some(g) = gun {
        match (&g.frame, &g.body) {
            (Some(f), None) if !frames.iter().any(|x| &x.name == f) => {
                return Err(format!("gun: unknown frame '{f}'"));
            }
            (None, Some(b)) if !bodies.contains(&b.as_str()) => {
                return Err(format!("gun: unknown body '{b}'"));
            }
            (Some(_), None) | (None, Some(_)) => {}
            _ => return Err("gun: give either frame or body".into()),
        }
        if !(g.speed.is_finite() && g.muzzle.is_finite() && g.direction.is_finite()) {
            return Err("gun: speed, muzzle and direction must be finite".into());
        }
        if g.direction.length() < 1e-9 {
            return Err("gun: direction must not be zero".into());
        }
        if !(g.period.is_finite() && g.period > 0.0) {
            return Err(format!("gun: period must be positive, got {}", g.period));
        }
        if g.shells == 0 {
            return Err("gun: needs at least one shell".into());
        }
        g.shell
            .shape
            .validate()
            .map_err(|m| format!("gun: shell: {m}"))?;
        if !(g.shell.mass.is_finite() && g.shell.mass > 0.0) {
            return Err(format!(
                "gun: shell: mass must be positive, got {}",
                g.shell.mass
            ));
        }
    }
    Ok(())
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
    let first = world.bodies.len();
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
    world.gun = Some(Gun {
        carrier,
        muzzle,
        direction: direction.normalize(),
        speed: desc.speed,
        period: desc.period,
        shells: (first..first + desc.shells).collect(),
        fired: 0,
    });
}
