//! Scene files: RON descriptions of bodies, loaded with errors that name the file, the
//! line and the field. The built-in scenes are compiled in, so the binary works from any
//! directory; a path ending in `.ron` loads a user's own file.

mod contacts;
mod frames;

use std::fmt;

use glam::{DQuat, DVec3, EulerRot};
use serde::Deserialize;

use crate::body::Body;
use crate::body::inertia::{Inertia, Part, Shape, compound};
use crate::body::{BodyState, MassProps};
use crate::contact::Material;
use crate::hierarchy::rig::{Carrier, Mount, Rider};
use crate::hierarchy::{DynamicTransform, Tether, Transform};
use crate::integrators::Integrator;
use crate::world::World;

/// Built-in scenes, in the order the app's number keys use.
const BUILTIN: [(&str, &str); 20] = [
    (
        "dzhanibekov",
        include_str!("../../assets/scenes/dzhanibekov.ron"),
    ),
    (
        "free-body",
        include_str!("../../assets/scenes/free-body.ron"),
    ),
    (
        "tennis-racket",
        include_str!("../../assets/scenes/tennis-racket.ron"),
    ),
    (
        "clamp-drift",
        include_str!("../../assets/scenes/clamp-drift.ron"),
    ),
    (
        "tumbling-crowd",
        include_str!("../../assets/scenes/tumbling-crowd.ron"),
    ),
    ("tank", include_str!("../../assets/scenes/tank.ron")),
    ("carousel", include_str!("../../assets/scenes/carousel.ron")),
    ("foucault", include_str!("../../assets/scenes/foucault.ron")),
    ("crash", include_str!("../../assets/scenes/crash.ron")),
    (
        "turntable",
        include_str!("../../assets/scenes/turntable.ron"),
    ),
    (
        "top-on-turntable",
        include_str!("../../assets/scenes/top-on-turntable.ron"),
    ),
    (
        "dancing-pole",
        include_str!("../../assets/scenes/dancing-pole.ron"),
    ),
    (
        "spinning-top",
        include_str!("../../assets/scenes/spinning-top.ron"),
    ),
    ("stack", include_str!("../../assets/scenes/stack.ron")),
    ("pyramid", include_str!("../../assets/scenes/pyramid.ron")),
    (
        "newtons-cradle",
        include_str!("../../assets/scenes/newtons-cradle.ron"),
    ),
    ("incline", include_str!("../../assets/scenes/incline.ron")),
    ("bounce", include_str!("../../assets/scenes/bounce.ron")),
    ("dominoes", include_str!("../../assets/scenes/dominoes.ron")),
    ("pile", include_str!("../../assets/scenes/pile.ron")),
];

pub const DEFAULT_SCENE: &str = "dzhanibekov";

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

#[derive(Clone, Debug, PartialEq)]
pub enum SceneError {
    Unknown(String),
    Io { file: String, message: String },
    Parse { file: String, message: String },
    Invalid { file: String, message: String },
}

impl fmt::Display for SceneError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Self::Unknown(name) => write!(
                f,
                "unknown scene '{name}' (valid: {}, or a path to a .ron file)",
                scene_names().join(", ")
            ),
            Self::Io { file, message } => write!(f, "{file}: {message}"),
            Self::Parse { file, message } => write!(f, "{file}:{message}"),
            Self::Invalid { file, message } => write!(f, "{file}: {message}"),
        }
    }
}

impl std::error::Error for SceneError {}

pub fn scene_names() -> Vec<&'static str> {
    BUILTIN.iter().map(|(n, _)| *n).collect()
}

/// Every built-in scene, parsed; they are tested to parse, so this cannot fail at runtime.
pub fn builtin_scenes() -> Vec<Scene> {
    scene_names()
        .into_iter()
        .filter_map(|n| Scene::load(n).ok())
        .collect()
}

/// The line an error is about: where the last name it quotes ('...') first appears as a
/// RON string in the text (a body, a frame, a joint's end), else none.
fn line_of(text: &str, message: &str) -> Option<usize> {
    let name = message.rsplit('\'').nth(1)?;
    let quoted = format!("\"{name}\"");
    text.lines()
        .position(|l| l.contains(&quoted))
        .map(|i| i + 1)
}

/// The first of the named vectors that is not finite, as the error to show.
fn all_finite(fields: &[(&str, DVec3)]) -> Result<(), String> {
    match fields.iter().find(|(_, v)| !v.is_finite()) {
        Some((field, v)) => Err(format!("{field} must be finite, got {v}")),
        None => Ok(()),
    }
}

fn euler_deg(v: DVec3) -> DQuat {
    DQuat::from_euler(
        EulerRot::XYZ,
        v.x.to_radians(),
        v.y.to_radians(),
        v.z.to_radians(),
    )
}

impl Scene {
    /// A built-in scene by name, or a `.ron` file by path.
    pub fn load(name_or_path: &str) -> Result<Self, SceneError> {
        if let Some((name, text)) = BUILTIN.iter().find(|(n, _)| *n == name_or_path) {
            return Self::parse(&format!("assets/scenes/{name}.ron"), text);
        }
        if name_or_path.ends_with(".ron") {
            let text = std::fs::read_to_string(name_or_path).map_err(|e| SceneError::Io {
                file: name_or_path.into(),
                message: e.to_string(),
            })?;
            return Self::parse(name_or_path, &text);
        }
        Err(SceneError::Unknown(name_or_path.into()))
    }

    /// Parses and validates scene text; `file` names it in errors.
    pub fn parse(file: &str, text: &str) -> Result<Self, SceneError> {
        let scene: Scene = ron::from_str(text).map_err(|e| SceneError::Parse {
            file: file.into(),
            message: e.to_string(),
        })?;
        scene.validate().map_err(|message| SceneError::Invalid {
            file: match line_of(text, &message) {
                Some(line) => format!("{file}:{line}"),
                None => file.into(),
            },
            message,
        })?;
        Ok(scene)
    }

    pub(crate) fn validate(&self) -> Result<(), String> {
        check_step(self.dt)?;
        if !(self.duration.is_finite() && self.duration > 0.0) {
            return Err(format!("duration must be positive, got {}", self.duration));
        }
        self.integrator
            .parse::<Integrator>()
            .map_err(|e| format!("integrator: {e}"))?;
        if self.bodies.is_empty() && self.generate.is_empty() {
            return Err("a scene needs at least one body".into());
        }
        // Counts are bounded before a single generated body is made.
        for g in &self.generate {
            g.validate()?;
        }
        let bodies = self.all_bodies();
        let names: Vec<&str> = bodies.iter().map(|b| b.name.as_str()).collect();
        let frame_names: Vec<&str> = self.frames.iter().map(|f| f.name.as_str()).collect();
        contacts::validate(
            self.contacts.as_ref(),
            &self.joints,
            &self.generate,
            &names,
            &frame_names,
        )?;
        if !self.gravity.is_finite() {
            return Err("gravity must be finite".into());
        }
        frames::validate(&self.frames, self.gun.as_ref(), &names)?;
        if let Some(Readout::Circling { body, frame } | Readout::Foucault { body, frame, .. }) =
            &self.readout
        {
            if !names.contains(&body.as_str()) {
                return Err(format!("readout: unknown body '{body}'"));
            }
            if !self.frames.iter().any(|f| &f.name == frame) {
                return Err(format!("readout: unknown frame '{frame}'"));
            }
        }
        if let Some(c) = &self.camera {
            if !(c.focus.is_finite() && c.distance.is_finite() && c.distance > 0.0) {
                return Err("camera: needs a finite focus and a positive distance".into());
            }
            if !(-89.0..=89.0).contains(&c.pitch_deg) {
                return Err(format!(
                    "camera: pitch_deg must be between -89 and 89, got {}",
                    c.pitch_deg
                ));
            }
            if let Some(f) = &c.follow
                && !self.frames.iter().any(|g| &g.name == f)
            {
                return Err(format!("camera: unknown frame '{f}' to follow"));
            }
        }
        for b in bodies.iter() {
            let at = |m: String| format!("body '{}': {m}", b.name);
            contacts::material(
                &format!("body '{}'", b.name),
                b.friction.unwrap_or(0.0),
                b.restitution.unwrap_or(0.0),
            )?;
            if b.parts.is_empty() {
                return Err(at("needs at least one part".into()));
            }
            for (i, p) in b.parts.iter().enumerate() {
                p.shape
                    .validate()
                    .map_err(|m| at(format!("part {i}: {m}")))?;
                if !(p.mass.is_finite() && p.mass > 0.0) {
                    return Err(at(format!(
                        "part {i}: mass must be positive, got {}",
                        p.mass
                    )));
                }
                if !(p.offset.is_finite() && p.rotation_deg.is_finite()) {
                    return Err(at(format!("part {i}: offset and rotation must be finite")));
                }
            }
            if let Some(f) = &b.frame
                && !self.frames.iter().any(|g| &g.name == f)
            {
                return Err(at(format!("unknown frame '{f}'")));
            }
            if b.frame.is_none() && (b.tether.is_some() || b.frame_gravity != DVec3::ZERO) {
                return Err(at("tether and frame_gravity need a frame".into()));
            }
            // The rod's constraint acts inside the frame's integration, which sees
            // frame_gravity; world gravity reaches riders as a kick outside it.
            if b.tether.is_some() && self.gravity != DVec3::ZERO {
                return Err(at(
                    "tether: needs the scene's gravity to be zero; give the \
                     pendulum's weight as frame_gravity"
                        .into(),
                ));
            }
            if let Some(t) = b.tether
                && !(t.anchor.is_finite() && t.length.is_finite() && t.length > 0.0)
            {
                return Err(at(format!(
                    "tether: needs a finite anchor and a positive length, got {}",
                    t.length
                )));
            }
            all_finite(&[
                ("position", b.position),
                ("orientation_deg", b.orientation_deg),
                ("velocity", b.velocity),
                ("omega", b.omega),
                ("frame_gravity", b.frame_gravity),
            ])
            .map_err(at)?;
            Inertia::new(self.mass_properties(b).principal).map_err(|e| at(e.to_string()))?;
        }
        Ok(())
    }

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
    pub fn set_generated_size(&mut self, n: usize) -> Result<(), String> {
        if self.generate.is_empty() {
            return Err(format!(
                "scene '{}' has no generated bodies to size",
                self.name
            ));
        }
        self.generate.iter_mut().for_each(|g| g.set_size(n));
        self.validate()
    }

    fn mass_properties(&self, b: &BodyDesc) -> crate::body::inertia::MassProperties {
        let parts: Vec<Part> = b.parts.iter().map(PartDesc::part).collect();
        compound(&parts)
    }

    /// The simulation this scene describes. The body frame is the principal frame; parts
    /// are re-expressed in it for rendering.
    pub fn build(&self) -> World {
        let base = self
            .contacts
            .as_ref()
            .map_or(Material::DEFAULT, |c| Material {
                friction: c.friction,
                restitution: c.restitution,
            });
        let frames = frames::build_frames(&self.frames, base);
        let index = frames::frame_index(&self.frames);
        let material = |b: &BodyDesc| Material {
            friction: b.friction.unwrap_or(base.friction),
            restitution: b.restitution.unwrap_or(base.restitution),
        };
        let (bodies, mounts): (Vec<Body>, Vec<Mount>) = self
            .all_bodies()
            .iter()
            .map(|b| {
                let mp = self.mass_properties(b);
                let to_principal = mp.principal_frame.inverse();
                let parts = b
                    .parts
                    .iter()
                    .map(|p| {
                        let mut part = p.part();
                        part.offset = to_principal * (part.offset - mp.center_of_mass);
                        part.rotation = to_principal * part.rotation;
                        part
                    })
                    .collect();
                let props = MassProps {
                    mass: mp.mass,
                    inertia: Inertia::new(mp.principal).expect("validated when parsed"),
                };
                let authored = euler_deg(b.orientation_deg);
                let position = b.position + authored * mp.center_of_mass;
                let (mount, placement) = match &b.frame {
                    None => (Mount::World, Transform::IDENTITY),
                    Some(f) => {
                        let frame = index[f.as_str()];
                        let local = DynamicTransform {
                            velocity: b.velocity,
                            ..DynamicTransform::at_rest(Transform {
                                translation: position,
                                ..Transform::IDENTITY
                            })
                        };
                        let rider = Rider {
                            frame,
                            local,
                            gravity: b.frame_gravity,
                            tether: b.tether,
                        };
                        (
                            Mount::Riding(Box::new(rider)),
                            frames[frame].global.transform,
                        )
                    }
                };
                let orientation = (placement.rotation * authored * mp.principal_frame).normalize();
                let mut state = BodyState::from_body_omega(&props, orientation, b.omega);
                if let Mount::Riding(rider) = &mount {
                    // A rider's spin, like its velocity, is relative to its frame.
                    let carried = frames[rider.frame].global.angular_velocity;
                    state.set_world_omega(&props, carried + state.world_omega(&props));
                }
                state.position = position;
                state.velocity = b.velocity;
                let body = Body {
                    name: b.name.clone(),
                    props,
                    state,
                    parts,
                    material: material(b),
                };
                (body, mount)
            })
            .unzip();
        let integrator = self.integrator.parse().expect("validated when parsed");
        let mut world = World::new(Vec::new(), self.gravity, integrator);
        (world.bodies, world.mounts, world.frames) = (bodies, mounts, frames);
        if let Some(gun) = &self.gun {
            let (carrier, at) = match (&gun.frame, &gun.body) {
                (Some(f), _) => {
                    let f = frames::frame_index(&self.frames)[f.as_str()];
                    (Carrier::Frame(f), (gun.muzzle, gun.direction))
                }
                (None, Some(name)) => {
                    // Bodies live in their principal frame about the centre of mass.
                    let all = self.all_bodies();
                    let b = all.iter().position(|b| &b.name == name).expect("validated");
                    let mp = self.mass_properties(&all[b]);
                    let to_principal = mp.principal_frame.inverse();
                    let at = (
                        to_principal * (gun.muzzle - mp.center_of_mass),
                        to_principal * gun.direction,
                    );
                    (Carrier::Body(b), at)
                }
                (None, None) => unreachable!("validated when parsed"),
            };
            frames::add_gun(&mut world, gun, carrier, at);
        }
        // Riders and carried bodies to their world places first: joints are made between
        // the bodies where they are.
        world.sync_hierarchy();
        if let Some(c) = &self.contacts {
            contacts::build(&mut world, c, &self.joints);
        }
        world
    }
}

impl PartDesc {
    fn part(&self) -> Part {
        Part {
            shape: self.shape,
            mass: self.mass,
            offset: self.offset,
            rotation: euler_deg(self.rotation_deg),
        }
    }
}

/// The largest time step gyrolab accepts: beyond it no integrator is meaningful, and the
/// baselines overflow.
pub const MAX_DT: f64 = 1.0;

pub fn check_step(dt: f64) -> Result<(), String> {
    if !(dt.is_finite() && dt > 0.0) {
        Err(format!("time step must be positive, got {dt}"))
    } else if dt > MAX_DT {
        Err(format!(
            "time step {dt} s is too large (at most {MAX_DT} s)"
        ))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_scene_parses_and_builds() {
        for name in scene_names() {
            let scene = Scene::load(name).unwrap_or_else(|e| panic!("{e}"));
            let world = scene.build();
            assert!(!world.bodies.is_empty());
        }
    }

    #[test]
    fn dzhanibekov_spins_about_the_intermediate_axis() {
        let world = Scene::load("dzhanibekov").unwrap().build();
        let body = &world.bodies[0];
        let axis = body.props.inertia.intermediate_axis().expect("asymmetric");
        let w = body.state.body_omega(&body.props);
        assert!(w[axis].abs() > 100.0 * (w.length_squared() - w[axis] * w[axis]).sqrt());
    }

    #[test]
    fn typo_in_a_field_names_the_field_and_line() {
        let text = Scene::load("free-body")
            .map(|_| ())
            .and(Ok(
                include_str!("../../assets/scenes/free-body.ron").replace("omega:", "omgea:")
            ));
        let err = Scene::parse("typo.ron", &text.unwrap())
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("typo.ron:"), "{err}");
        assert!(err.contains("omgea"), "{err}");
    }

    /// A camera that follows a frame the scene does not have, or looks past straight
    /// down, is refused with the field and the line.
    #[test]
    fn a_camera_must_follow_a_frame_of_the_scene() {
        let base = include_str!("../../assets/scenes/crash.ron");
        let err = Scene::parse(
            "cam.ron",
            &base.replace("follow: Some(\"van\")", "follow: Some(\"bus\")"),
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("camera: unknown frame 'bus'"), "{err}");
        let line = base
            .lines()
            .position(|l| l.contains("follow: Some"))
            .unwrap()
            + 1;
        assert!(err.starts_with(&format!("cam.ron:{line}:")), "{err}");
        let err = Scene::parse(
            "cam.ron",
            &base.replace("pitch_deg: 32.0", "pitch_deg: 95.0"),
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("pitch_deg must be between -89 and 89, got 95"),
            "{err}"
        );
        let camera = Scene::load("crash").unwrap().camera.unwrap();
        assert_eq!(camera.follow.as_deref(), Some("van"));
        let default = Scene::load("pyramid").unwrap().camera.unwrap();
        assert_eq!((default.pitch_deg, default.follow), (24.0, None));
    }

    #[test]
    fn negative_mass_and_bad_inertia_are_rejected() {
        let base = include_str!("../../assets/scenes/free-body.ron");
        let err = Scene::parse("neg.ron", &base.replace("mass: 2.0", "mass: -2.0"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("mass must be positive"), "{err}");
        let err = Scene::parse("dt.ron", &base.replace("dt: 0.01", "dt: 1e9"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("too large"), "{err}");
    }
}
