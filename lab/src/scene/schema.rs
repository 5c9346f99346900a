//! What a scene file holds: the types RON reads it into, field by field, and the
//! conventions of its values (Euler angles in degrees, XYZ).

use glam::{DQuat, DVec3, EulerRot};
use serde::Deserialize;

use super::error::Invalid;
use super::{contacts, frames};
use crate::body::inertia::{MassProperties, Part, Shape, compound};
use crate::hierarchy::Tether;

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scene {
    pub name: String,
    pub description: String,
    /// "What am I seeing?": a few sentences for a student, shown by the app.
    #[serde(default)]
    pub explanation: String,
    #[serde(default)]
    pub gravity: DVec3,
    pub dt: f64,
    pub duration: f64,
    #[serde(default = "default_integrator")]
    pub integrator: String,
    pub bodies: Vec<BodyDesc>,
    /// Driven frames of a transform hierarchy, parents first.
    #[serde(default)]
    pub frames: Vec<frames::FrameDesc>,
    #[serde(default)]
    pub gun: Option<frames::GunDesc>,
    /// Where the app's camera looks on load, when the whole scene is not the point.
    #[serde(default)]
    pub camera: Option<CameraDesc>,
    /// The ground, ramps and solver: bodies collide only in scenes that have this.
    #[serde(default)]
    pub contacts: Option<contacts::ContactsDesc>,
    #[serde(default)]
    pub joints: Vec<contacts::JointDesc>,
    /// Bodies laid out from a parameter (a pyramid's rows), after `bodies`.
    #[serde(default)]
    pub generate: Vec<contacts::Generator>,
    /// A measurement the app shows beside the view.
    #[serde(default)]
    pub readout: Option<Readout>,
    /// What [`Scene::load`] takes to load this scene again: a built-in name or a path.
    #[serde(skip)]
    pub origin: String,
    /// A hash of the scene's source text (XXH3-64): a state file saved from it names it,
    /// so a file saved from another version of the scene is refused.
    #[serde(skip)]
    pub source_hash: u64,
    /// The source text itself: a set-up code carries a scene opened from a file whole,
    /// as it was read (the file may have changed since, or be on another machine).
    #[serde(skip)]
    pub source_text: std::sync::Arc<str>,
}

/// A scene's own measurement, against its analytic answer.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Readout {
    /// How fast a solid ball's world velocity turns as it rolls on a frame turning
    /// about the vertical, against 2Ω/7.
    Circling { body: String, frame: String },
    /// How fast a pendulum's swing plane turns on a turning planet, against `Ω sin φ`:
    /// the bob, the frame of its site, and its pivot in the site's coordinates.
    Foucault {
        body: String,
        frame: String,
        pivot: DVec3,
    },
    /// A slider-crank's piston against `x(θ) = r cos θ + √(l² − r² sin² θ)` from the
    /// crank's angle θ: the crank turns about `pivot` in the xy plane with its own x
    /// axis along its arm, and the piston's centre moves along x from the pivot.
    SliderCrank {
        crank: String,
        piston: String,
        pivot: DVec3,
        crank_length: f64,
        rod_length: f64,
    },
    /// How far the joints' anchors have pulled apart, summed, as a fraction of the
    /// distance from the first joint's anchor to the last's in the starting pose.
    Stretch,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CameraDesc {
    /// Where the camera looks: in the world, or in the followed frame's coordinates.
    pub focus: DVec3,
    pub distance: f64,
    /// How far the camera looks down, in degrees (default 24).
    #[serde(default = "default_pitch")]
    pub pitch_deg: f64,
    /// A frame the camera rides with: focus and view stay fixed in its coordinates.
    #[serde(default)]
    pub follow: Option<String>,
}

fn default_pitch() -> f64 {
    24.0
}

fn default_integrator() -> String {
    "midpoint".into()
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BodyDesc {
    pub name: String,
    pub parts: Vec<PartDesc>,
    #[serde(default)]
    pub position: DVec3,
    /// Orientation of the authored frame, XYZ Euler angles in degrees.
    #[serde(default)]
    pub orientation_deg: DVec3,
    #[serde(default)]
    pub velocity: DVec3,
    /// Initial angular velocity in principal body axes.
    #[serde(default)]
    pub omega: DVec3,
    /// A frame to move in: position, orientation and velocity are then relative to it.
    #[serde(default)]
    pub frame: Option<String>,
    /// With `frame`: a real acceleration in the frame's axes besides the world's gravity
    /// (a pendulum's local weight on a turning planet, in a scene without world gravity).
    #[serde(default)]
    pub frame_gravity: DVec3,
    /// With `frame`: a rigid rod from an anchor in the frame to the centre of mass.
    #[serde(default)]
    pub tether: Option<Tether>,
    /// Overrides the scene's material (`contacts.friction`, `contacts.restitution`).
    #[serde(default)]
    pub friction: Option<f64>,
    #[serde(default)]
    pub restitution: Option<f64>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PartDesc {
    pub shape: Shape,
    #[serde(default)]
    pub mass: f64,
    #[serde(default)]
    pub offset: DVec3,
    #[serde(default)]
    pub rotation_deg: DVec3,
}

/// A scene file's orientation: XYZ Euler angles in degrees.
pub(super) fn euler_deg(v: DVec3) -> DQuat {
    DQuat::from_euler(
        EulerRot::XYZ,
        v.x.to_radians(),
        v.y.to_radians(),
        v.z.to_radians(),
    )
}

impl Scene {
    /// The listed bodies, then the generated ones.
    pub fn all_bodies(&self) -> std::borrow::Cow<'_, [BodyDesc]> {
        if self.generate.is_empty() {
            return std::borrow::Cow::Borrowed(&self.bodies);
        }
        let mut all = self.bodies.clone();
        all.extend(self.generate.iter().flat_map(contacts::Generator::bodies));
        std::borrow::Cow::Owned(all)
    }

    /// Sets every generator's parameter (a pyramid's rows, a stack's count).
    pub fn set_generated_size(&mut self, n: usize) -> Result<(), Invalid> {
        if self.generate.is_empty() {
            return Err(Invalid::new(
                "",
                format!("scene '{}' has no generated bodies to size", self.name),
            ));
        }
        self.generate.iter_mut().for_each(|g| g.set_size(n));
        self.validate()
    }

    /// A body's mass, centre of mass and principal frame, from its parts.
    pub(super) fn mass_properties(&self, b: &BodyDesc) -> MassProperties {
        let parts: Vec<Part> = b.parts.iter().map(PartDesc::part).collect();
        compound(&parts)
    }
}

impl PartDesc {
    pub(super) fn part(&self) -> Part {
        Part {
            shape: self.shape,
            mass: self.mass,
            offset: self.offset,
            rotation: euler_deg(self.rotation_deg),
        }
    }
}
