//! A tree of driven frames and the bodies that ride in them: the data a world steps when
//! a scene has a hierarchy.
//!
//! Frames are listed parents first, so one pass in order propagates global dynamics top
//! down (as Bevy propagates `GlobalTransform`). A body that uses a frame as its reference
//! keeps its translation in that frame's coordinates and is integrated there under the
//! inertial forces; its rotation stays in world terms (orientation and world angular
//! momentum), where every integrator of gyrolab already works and where, torque-free, it
//! does not depend on the frame at all.

use glam::DVec3;

use super::{Delta, Drive, DynamicTransform, InertialForces, Tether, Transform};
use crate::body::inertia::Part;
use crate::body::{Body, Material};

/// A driven, massless frame: a tank's hull, its turret, a carousel's platform.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Frame {
    /// The name scenes and readouts refer to it by.
    pub name: String,
    /// Index of the parent frame, always smaller than this frame's own index.
    pub parent: Option<usize>,
    /// How it moves relative to its parent.
    pub drive: Drive,
    /// Relative to the parent (to the world for a root).
    pub local: DynamicTransform,
    /// Relative to the world; set by [`propagate`].
    pub global: DynamicTransform,
    /// Shapes in the frame's coordinates: drawn, and in a world with contacts solid,
    /// kinematic colliders that push bodies and are not pushed.
    pub parts: Vec<Part>,
    /// Friction and restitution of those shapes.
    pub material: Material,
}

/// Where a body's motion is described.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Mount {
    /// In the world: the integrator moves it under world gravity.
    #[default]
    World,
    /// Riding in a frame: described in the frame's coordinates and moved there under the
    /// inertial forces of the frame's motion.
    Riding(Box<Rider>),
    /// Carried at a fixed point of a frame or a body until released (a shell in the
    /// breech).
    Carried {
        /// What carries it.
        by: Carrier,
        /// The point, in the carrier's coordinates, m.
        at: DVec3,
    },
}

/// A body that uses a frame as its reference.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Rider {
    /// Index of the frame it rides in.
    pub frame: usize,
    /// The body's translational motion relative to the frame: translation (its centre of
    /// mass), velocity and acceleration. Its rotation is not kept here but in its
    /// `BodyState`, in world terms, so the rotational fields stay at rest.
    pub local: DynamicTransform,
    /// A real acceleration in the frame's basis besides the world's gravity (a
    /// pendulum's local weight on a turning planet, in a scene without world gravity).
    pub gravity: DVec3,
    /// A rod that holds it at a fixed distance from a point of the frame (a pendulum).
    pub tether: Option<Tether>,
}

impl Rider {
    /// The inertial accelerations on the body now, in the frame's basis.
    pub fn inertial(&self, frames: &[Frame]) -> InertialForces {
        InertialForces::at(
            &frames[self.frame].global,
            self.local.transform.translation,
            self.local.velocity,
        )
    }
}

/// What carries a gun and its shells: a driven frame, or a body (a turret on a hinge).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Carrier {
    /// The driven frame of this index.
    Frame(usize),
    /// The body of this index.
    Body(usize),
}

impl Carrier {
    /// The carrier's motion in the world now.
    pub fn motion(self, frames: &[Frame], bodies: &[Body]) -> DynamicTransform {
        match self {
            Carrier::Frame(f) => frames[f].global,
            Carrier::Body(b) => {
                let s = &bodies[b].state;
                DynamicTransform {
                    velocity: s.velocity,
                    angular_velocity: s.world_omega(&bodies[b].props),
                    ..DynamicTransform::at_rest(Transform::from_translation_rotation(
                        s.position,
                        s.orientation,
                    ))
                }
            }
        }
    }
}

/// A barrel that fires its held shells one by one, each leaving with the muzzle's world
/// velocity plus `speed` along the barrel.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Gun {
    /// What the gun is mounted on.
    pub carrier: Carrier,
    /// The muzzle, and the barrel's direction, in the carrier's coordinates.
    pub muzzle: DVec3,
    /// The barrel's direction, in the carrier's coordinates.
    pub direction: DVec3,
    /// Muzzle speed along the barrel, m/s.
    pub speed: f64,
    /// Time between shots, s; the first is due half a period in.
    pub period: f64,
    /// Bodies that are shells, in firing order; the oldest is reloaded when all are out.
    pub shells: Vec<usize>,
    /// Shots fired so far.
    pub fired: usize,
}

impl Gun {
    /// The world motion of the muzzle point, and the barrel's world direction.
    pub fn muzzle_motion(&self, frames: &[Frame], bodies: &[Body]) -> (DynamicTransform, DVec3) {
        let carrier = self.carrier.motion(frames, bodies);
        (
            carrier.point(self.muzzle),
            carrier.transform.rotation * self.direction,
        )
    }

    /// Whether a shot is due in the step from `t` to `t + h`.
    pub fn due(&self, t: f64, h: f64) -> bool {
        let next = self.fired as f64 * self.period + 0.5 * self.period;
        t < next && next <= t + h + 1e-12
    }
}

/// Recomputes every frame's global dynamics from the locals, parents first.
pub fn propagate(frames: &mut [Frame]) {
    for i in 0..frames.len() {
        frames[i].global = match frames[i].parent {
            Some(p) => frames[p].global * frames[i].local,
            None => frames[i].local,
        };
    }
}

/// What a frame's motion through a step follows from: its parent, drive and local
/// motion at the step's start (plain data, copied each step without allocating).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrameStart {
    /// Index of the parent frame.
    pub parent: Option<usize>,
    /// How it moves relative to its parent.
    pub drive: Drive,
    /// Its motion relative to the parent at the step's start.
    pub local: DynamicTransform,
}

impl Frame {
    /// Its parent, drive and local motion now.
    pub fn start(&self) -> FrameStart {
        FrameStart {
            parent: self.parent,
            drive: self.drive,
            local: self.local,
        }
    }
}

/// Every frame's global dynamics `s` after `t`, leaving the frames as they are, and
/// without a sudden change a drive makes at `t + s` (a dead stop happens at the end of a
/// step: up to then the frame moves on, and its riders with it; the stop itself is then
/// counteracted for the riders that keep their world motion).
pub fn globals_after(frames: &[FrameStart], t: f64, s: f64) -> Vec<DynamicTransform> {
    let mut globals: Vec<DynamicTransform> = Vec::with_capacity(frames.len());
    for f in frames {
        let mut local = f.local;
        if let Some(jump) = f.drive.advance(&mut local, t, s) {
            local.apply(-jump);
        }
        let global = match f.parent {
            Some(p) => globals[p] * local,
            None => local,
        };
        globals.push(global);
    }
    globals
}

/// Advances every frame's drive by `h` and propagates. Returns, per frame, the abrupt
/// change of its local motion a drive made in this step (none almost always).
pub fn drive_frames(frames: &mut [Frame], t: f64, h: f64) -> Vec<Option<Delta>> {
    let jumps = frames
        .iter_mut()
        .map(|f| f.drive.advance(&mut f.local, t, h))
        .collect();
    propagate(frames);
    jumps
}
