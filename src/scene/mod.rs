//! Scene files: RON descriptions of bodies, loaded with errors that name the file, the
//! line and the field. The built-in scenes are compiled in, so the binary works from any
//! directory; a path ending in `.ron` loads a user's own file.

mod contacts;
mod error;
mod frames;
mod locate;
pub mod ranges;
mod validate;

use glam::{DQuat, DVec3, EulerRot};
use serde::Deserialize;

use crate::body::Body;
use crate::body::inertia::{Inertia, Part, Shape, compound};
use crate::body::{BodyState, MassProps};
use crate::contact::Material;
use crate::hierarchy::rig::{Carrier, Mount, Rider};
use crate::hierarchy::{DynamicTransform, Tether, Transform};
use crate::world::World;

pub use contacts::validate_solver;
pub use error::{Invalid, SceneError};
pub use validate::check_step;

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
    /// What [`Scene::load`] takes to load this scene again: a built-in name or a path.
    #[serde(skip)]
    pub origin: String,
    /// A hash of the scene's source text (XXH3-64): a state file saved from it names it,
    /// so a file saved from another version of the scene is refused.
    #[serde(skip)]
    pub source_hash: u64,
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

fn euler_deg(v: DVec3) -> DQuat {
    DQuat::from_euler(
        EulerRot::XYZ,
        v.x.to_radians(),
        v.y.to_radians(),
        v.z.to_radians(),
    )
}

/// The largest scene file read: far beyond any scene (the built-in ones are a few KiB), so
/// that a path such as `/dev/zero` is refused instead of filling memory.
const MAX_FILE_BYTES: u64 = 16 << 20;

fn read_bounded(path: &str) -> Result<Vec<u8>, SceneError> {
    use std::io::Read;
    let io = |message: String| SceneError::Io {
        file: path.into(),
        message,
    };
    let file = std::fs::File::open(path).map_err(|e| io(e.to_string()))?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| io(e.to_string()))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(io(format!(
            "larger than {} MiB; a scene file is text of a few KiB",
            MAX_FILE_BYTES >> 20
        )));
    }
    Ok(bytes)
}

/// A scene file's text, or where its first byte that is not UTF-8 is.
fn utf8(file: &str, bytes: Vec<u8>) -> Result<String, SceneError> {
    String::from_utf8(bytes).map_err(|e| {
        let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = good.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let column = String::from_utf8_lossy(&good[line_start..]).chars().count() + 1;
        SceneError::At {
            file: file.into(),
            line,
            column,
            problem: Invalid::new("", "the file is not UTF-8 text from here on"),
        }
    })
}

impl Scene {
    /// A built-in scene by name, or a `.ron` file by path.
    pub fn load(name_or_path: &str) -> Result<Self, SceneError> {
        if let Some((name, text)) = BUILTIN.iter().find(|(n, _)| *n == name_or_path) {
            let mut scene = Self::parse(&format!("assets/scenes/{name}.ron"), text)?;
            scene.origin = name_or_path.into();
            return Ok(scene);
        }
        if name_or_path.ends_with(".ron") {
            let bytes = read_bounded(name_or_path)?;
            let text = utf8(name_or_path, bytes)?;
            return Self::parse(name_or_path, &text);
        }
        Err(SceneError::Unknown(name_or_path.into()))
    }

    /// Parses and validates scene text; `file` names it in errors.
    pub fn parse(file: &str, text: &str) -> Result<Self, SceneError> {
        // Editors on Windows may start a UTF-8 file with a byte-order mark; RON does not
        // skip it.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let at = |line: usize, column: usize, problem: Invalid| SceneError::At {
            file: file.into(),
            line,
            column,
            problem,
        };
        let mut scene: Scene = ron::from_str(text).map_err(|e| {
            let (line, column) = (e.span.start.line, e.span.start.col);
            // One line: RON's messages may quote text with line breaks.
            let message = e
                .code
                .to_string()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            at(
                line,
                column,
                Invalid::new(locate::path_at(text, line, column), message),
            )
        })?;
        scene.origin = file.into();
        scene.source_hash = twox_hash::XxHash3_64::oneshot(text.as_bytes());
        scene.validate().map_err(|problem| {
            let (line, column) = locate::locate(text, &problem.path);
            at(line, column, problem)
        })?;
        Ok(scene)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A byte that is not UTF-8 is reported where it is, like any other error.
    #[test]
    fn a_file_that_is_not_utf8_points_at_its_first_bad_byte() {
        let bytes = b"(\n  name: \"a\xf4b\",\n".to_vec();
        let e = utf8("x.ron", bytes).unwrap_err().to_string();
        assert!(e.starts_with("x.ron:2:11: "), "{e}");
        assert_eq!(utf8("x.ron", b"(\n)".to_vec()).unwrap(), "(\n)");
    }

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

    fn builtin(name: &str) -> &'static str {
        BUILTIN.iter().find(|(n, _)| *n == name).unwrap().1
    }

    /// The error for `name`'s text with `from` replaced by `to` (once, which must apply).
    fn error_after(name: &str, from: &str, to: &str) -> (String, String) {
        let text = builtin(name).replacen(from, to, 1);
        assert_ne!(text, builtin(name), "{name}: '{from}' is in the scene");
        let err = Scene::parse("edited.ron", &text).unwrap_err().to_string();
        (text, err)
    }

    /// `edited.ron:LINE:COLUMN: PATH: ` where `needle` (in the edited text) starts.
    fn prefix(text: &str, needle: &str, path: &str) -> String {
        let (line, column) = locate::line_column(text, text.find(needle).unwrap());
        format!("edited.ron:{line}:{column}: {path}: ")
    }

    #[test]
    fn typo_in_a_field_names_the_field_and_line() {
        let (text, err) = error_after("free-body", "omega:", "omgea:");
        assert!(
            err.starts_with(&prefix(&text, "omgea", "bodies[0]")),
            "{err}"
        );
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
        assert!(
            err.contains("camera.follow: unknown frame 'bus' to follow"),
            "{err}"
        );
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
            err.contains("camera.pitch_deg: 95 is outside the accepted camera pitch range"),
            "{err}"
        );
        let camera = Scene::load("crash").unwrap().camera.unwrap();
        assert_eq!(camera.follow.as_deref(), Some("van"));
        let default = Scene::load("pyramid").unwrap().camera.unwrap();
        assert_eq!((default.pitch_deg, default.follow), (24.0, None));
    }

    #[test]
    fn a_wrong_type_names_its_field() {
        let (text, err) = error_after("free-body", "mass: 2.0", "mass: \"x\"");
        assert!(
            err.starts_with(&prefix(&text, " \"x\"", "bodies[0].parts[0].mass")),
            "{err}"
        );
    }

    /// Each error names the line and column of the field, its path, the bad value and
    /// the accepted range; these inputs panicked, hung or gave NaN or inf before.
    #[test]
    fn out_of_range_values_point_at_their_field() {
        let cases = [
            // Panicked in the contact rows' clamp (min > max).
            (
                "pile",
                "friction: 0.6",
                "friction: 1e160",
                "1e160",
                "contacts.friction",
                "0 to 10",
            ),
            // Panicked in scene/frames.rs: the shell's inertia underflowed to zero.
            (
                "tank",
                "radius: 0.1), mass: 5.0",
                "radius: 1e-170), mass: 5.0",
                "1e-170",
                "gun.shell.shape.radius",
                "0.001 to 1000 m",
            ),
            // One pile step took a second.
            (
                "pile",
                "-9.81",
                "-1e10",
                "-1e10",
                "gravity.y",
                "-100 to 100 m/s²",
            ),
            // "inertia [NaN, NaN, NaN] is not finite", naming no part.
            (
                "free-body",
                "(0.3, 0.2, 0.1)",
                "(0.3, 1e300, 0.1)",
                "1e300",
                "bodies[0].parts[0].shape.half_extents.y",
                "0.001 to 1000 m",
            ),
            // An infinite energy.
            (
                "free-body",
                "omega: (0.4",
                "velocity: (1e160, 0.0, 0.0), omega: (0.4",
                "1e160",
                "bodies[0].velocity.x",
                "-10000 to 10000 m/s",
            ),
            // "time step must be positive, got NaN" never said `dt`.
            (
                "free-body",
                "dt: 0.01",
                "dt: NaN",
                "NaN",
                "dt",
                "1e-6 to 1 s",
            ),
            (
                "newtons-cradle",
                "restitution_threshold: 0.2",
                "restitution_threshold: -0.2",
                "-0.2",
                "contacts.solver.restitution_threshold",
                "0 to 10000 m/s",
            ),
            (
                "tank",
                "yaw_rate: 0.3",
                "yaw_rate: inf",
                "inf",
                "frames[0].drive.yaw_rate",
                "rad/s",
            ),
            (
                "newtons-cradle",
                "distance: 4.0",
                "distance: 0.00001",
                "0.00001",
                "camera.distance",
                "0.001 to 1e7 m",
            ),
        ];
        for (scene, from, to, needle, path, range) in cases {
            let (text, err) = error_after(scene, from, to);
            assert!(
                err.starts_with(&prefix(&text, needle, path)),
                "{scene}: {err}"
            );
            assert!(err.contains(range), "{scene}: {err}");
            assert_eq!(err.lines().count(), 1, "{err}");
        }
    }

    #[test]
    fn a_generated_body_is_reported_at_its_generator() {
        // 20000 dominoes 1 km apart reach beyond the positions in range.
        let text = builtin("dominoes")
            .replacen("count: 20", "count: 20000", 1)
            .replacen("spacing: 0.5", "spacing: 999.0", 1);
        let err = Scene::parse("edited.ron", &text).unwrap_err().to_string();
        assert!(
            err.starts_with(&prefix(&text, "Dominoes(", "generate[0]")),
            "{err}"
        );
        assert!(
            err.contains("body 'domino 1003': position.x: 1.000998e6 is outside"),
            "{err}"
        );
    }

    /// Two bodies of one name: a joint would take the wrong one (in the cradle, the
    /// second "ball 1" was held by the first ball's hinge and the real one fell away).
    #[test]
    fn duplicate_body_names_are_refused_at_the_second() {
        let (text, err) = error_after("newtons-cradle", "name: \"ball 2\"", "name: \"ball 1\"");
        let second = text.match_indices("\"ball 1\"").nth(1).unwrap().0;
        let (line, column) = locate::line_column(&text, second);
        assert!(
            err.starts_with(&format!("edited.ron:{line}:{column}: bodies[1].name: ")),
            "{err}"
        );
        assert!(
            err.contains("'ball 1' is already used by bodies[0]"),
            "{err}"
        );
        // A listed body named like a generated one, and one named like a gun's shell.
        let (_, err) = error_after(
            "pyramid",
            "bodies: [",
            "bodies: [(name: \"box 3\", parts: [(shape: Sphere(radius: 0.1), mass: 1.0)], position: (9.0, 1.0, 0.0)),",
        );
        assert!(
            err.contains("generate[0]: the body name 'box 3' is already used by bodies[0]"),
            "{err}"
        );
        let (_, err) = error_after("tank", "name: \"ball\"", "name: \"shell 4\"");
        assert!(
            err.contains(
                "bodies[1].name: the body name 'shell 4' is the name of the gun's shell 4"
            ),
            "{err}"
        );
    }

    /// Listed, generated and the gun's bodies count together, before any is made.
    #[test]
    fn the_total_body_count_is_bounded() {
        let ball = "(name: \"ball\", parts: [(shape: Sphere(radius: 0.1), mass: 1.0)])";
        let one_more = builtin("pile").replacen("bodies: [],", &format!("bodies: [{ball}],"), 1);
        assert!(Scene::parse("edited.ron", &one_more).is_ok());
        let most = builtin("pile").replacen("count: 1000", "count: 20000", 1);
        assert!(Scene::parse("edited.ron", &most).is_ok());
        let text = builtin("pile")
            .replacen("count: 1000", "count: 20000", 1)
            .replacen("bodies: [],", &format!("bodies: [{ball}],"), 1);
        let err = Scene::parse("edited.ron", &text).unwrap_err().to_string();
        assert!(
            err.starts_with("edited.ron:2:1: the scene's bodies, listed, generated and shells: 20001 is outside the accepted body count range, 1 to 20000"),
            "{err}"
        );
        let (_, err) = error_after("tank", "shells: 6", "shells: 20000");
        assert!(
            err.contains(": the scene's bodies, listed, generated and shells: 20032 is outside"),
            "{err}"
        );
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let text = format!("\u{feff}{}", builtin("free-body"));
        assert!(Scene::parse("bom.ron", &text).is_ok());
        let err = Scene::parse(
            "bom.ron",
            &format!(
                "\u{feff}{}",
                builtin("free-body").replace("dt: 0.01", "dt: 2.0")
            ),
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains(":7:9: dt: 2 is outside"), "{err}");
    }

    #[test]
    fn every_range_end_is_accepted() {
        // The table's ends run: a body at the largest mass, size and spin in range.
        let text = builtin("free-body")
            .replacen("mass: 2.0", "mass: 1e6", 1)
            .replacen("(0.3, 0.2, 0.1)", "(1000.0, 999.0, 998.0)", 1)
            .replacen(
                "omega: (0.4, 0.3, 6.0)",
                "omega: (10000.0, -10000.0, 10000.0)",
                1,
            );
        let scene = Scene::parse("ends.ron", &text).unwrap_or_else(|e| panic!("{e}"));
        let world = scene.build();
        let b = &world.bodies[0];
        let energy = b.state.kinetic_energy(&b.props);
        assert!(energy.is_finite() && energy > 1e17, "{energy}");
    }
}
