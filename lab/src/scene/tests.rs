//! The scene module's tests: parsing, the built-in scenes, and errors that point at
//! their field.

use super::builtin::BUILTIN;
use super::read::utf8;
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
        assert!(!world.bodies().is_empty());
    }
}

#[test]
fn dzhanibekov_spins_about_the_intermediate_axis() {
    let world = Scene::load("dzhanibekov").unwrap().build();
    let body = &world.bodies()[0];
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
    let base = include_str!("../../../assets/scenes/crash.ron");
    let err = Scene::parse(
        "cam.ron",
        &base.replace("follow: Some(\"van\")", "follow: Some(\"bus\")"),
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("camera.follow: unknown frame 'bus' (its frames: van) to follow"),
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

/// Values out of range, each as (scene, text replaced, replacement, the bad value as
/// written, its field's path, the accepted range); these inputs panicked, hung or gave
/// NaN or inf before.
const OUT_OF_RANGE: [(&str, &str, &str, &str, &str, &str); 9] = [
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

/// Each error names the line and column of the field, its path, the bad value and
/// the accepted range.
#[test]
fn out_of_range_values_point_at_their_field() {
    for (scene, from, to, needle, path, range) in OUT_OF_RANGE {
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
        err.contains("bodies[1].name: the body name 'shell 4' is the name of the gun's shell 4"),
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
    let b = &world.bodies()[0];
    let energy = b.state.kinetic_energy(&b.props);
    assert!(energy.is_finite() && energy > 1e17, "{energy}");
}

/// Hostile values of the joints' fields, each as `(scene, from, to, needle, path,
/// message)`: the error names the line and column of the needle, the field's path and
/// what is accepted, on one line.
const HOSTILE_JOINTS: [(&str, &str, &str, &str, &str, &str); 19] = [
    (
        "wrecking-ball",
        "length: Some((0.0, 4.0))",
        "length: Some((0.0, NaN))",
        "(0.0, NaN))",
        "joints[0].length",
        "0 to 1000 m",
    ),
    (
        "wrecking-ball",
        "length: Some((0.0, 4.0))",
        "length: Some((-1.0, 4.0))",
        "(-1.0, 4.0))",
        "joints[0].length",
        "0 to 1000 m",
    ),
    (
        "wrecking-ball",
        "length: Some((0.0, 4.0))",
        "length: Some((5.0, 4.0))",
        "(5.0, 4.0))",
        "joints[0].length",
        "(5, 4) is not in order",
    ),
    (
        "wrecking-ball",
        "break_force: Some(2000.0)",
        "break_force: Some(0.0)",
        "0.0), break_torque",
        "joints[1].break_force",
        "0 (excluded) to 1e12 N",
    ),
    (
        "wrecking-ball",
        "break_torque: Some(400.0)",
        "break_torque: Some(-400.0)",
        "-400.0)",
        "joints[1].break_torque",
        "0 (excluded) to 1e12",
    ),
    (
        "slider-crank",
        "axis: (1.0, 0.0, 0.0)",
        "axis: (0.0, 0.0, 0.0)",
        "(0.0, 0.0, 0.0)",
        "joints[3].axis",
        "1e-6 to 1e6",
    ),
    (
        "slider-crank",
        "limits_m: Some((-0.45, 0.05))",
        "limits_m: Some((0.45, 0.05))",
        "(0.45, 0.05))",
        "joints[3].limits_m",
        "(0.45, 0.05) is not in order",
    ),
    (
        "slider-crank",
        "axis: (0.0, 0.0, 1.0))",
        "axis: (0.0, 0.0, 1.0), limits_m: Some((0.0, 1.0)))",
        "(0.0, 1.0)))",
        "joints[1].limits_m",
        "belongs to a Slider",
    ),
    (
        "slider-crank",
        "motor: Some((6.283185307179586, 1000.0))",
        "motor: Some((6.283185307179586, inf))",
        "(6.283185307179586, inf))",
        "joints[0].motor",
        "0 to 1e9 N·m",
    ),
    (
        "elastic-pendulum",
        "spring: Some((0.788179, 0.0))",
        "spring: Some((0.788179, -1.0))",
        "(0.788179, -1.0))",
        "joints[0].spring",
        "0 to 1000",
    ),
    (
        "elastic-pendulum",
        "anchor_b: (0.0, 3.0, 0.0)",
        "anchor_b: (0.0, 3e300, 0.0)",
        "3e300",
        "joints[0].anchor_b.y",
        "-1e6 to 1e6 m",
    ),
    (
        "elastic-pendulum",
        "spring: Some((0.788179, 0.0))",
        "spring: Some((NaN, 0.0))",
        "(NaN, 0.0))",
        "joints[0].spring",
        "0.001 to 10000 Hz",
    ),
    (
        "elastic-pendulum",
        "spring: Some((0.788179, 0.0))",
        "spring: Some((0.0, 0.0))",
        "(0.0, 0.0))",
        "joints[0].spring",
        "0.001 to 10000 Hz",
    ),
    (
        "elastic-pendulum",
        "anchor_b: (0.0, 3.0, 0.0)",
        "anchor_b: (0.0, NaN, 0.0)",
        "NaN",
        "joints[0].anchor_b.y",
        "-1e6 to 1e6 m",
    ),
    (
        "elastic-pendulum",
        "anchor_b: (0.0, 3.0, 0.0)",
        "anchor_b: (0.083708, 1.802923, 0.0)",
        "(0.083708, 1.802923, 0.0), spring",
        "joints[0].anchor_b",
        "at least 1 mm apart",
    ),
    (
        "slider-crank",
        "limits_m: Some((-0.45, 0.05))",
        "limits_m: Some((NaN, 0.05))",
        "(NaN, 0.05))",
        "joints[3].limits_m",
        "-1000 to 1000 m",
    ),
    (
        "slider-crank",
        "limits_m: Some((-0.45, 0.05))",
        "limits_m: Some((0.1, 0.5))",
        "(0.1, 0.5))",
        "joints[3].limits_m",
        "does not include 0",
    ),
    (
        "wrecking-ball",
        "length: Some((0.0, 4.0))",
        "length: Some((0.0, 3.0))",
        "(0.0, 3.0))",
        "joints[0].length",
        "does not include the anchors' starting distance 4 m",
    ),
    (
        "chain",
        "(kind: Ball, a: \"link 1\", anchor: (0.0, 4.0, 0.0))",
        "(kind: Ball, a: \"link 1\", anchor: (0.0, 4.0, 0.0), axis: (1.0, 0.0, 0.0))",
        "(1.0, 0.0, 0.0))",
        "joints[0].axis",
        "belongs to a Hinge or a Slider",
    ),
];

#[test]
fn hostile_joint_fields_point_at_their_field() {
    for (scene, from, to, needle, path, message) in HOSTILE_JOINTS {
        let (text, err) = error_after(scene, from, to);
        let at = prefix(&text, needle, path);
        assert!(err.starts_with(&at), "{scene} {to}: {err}, not at {at}");
        assert!(err.contains(message), "{scene} {to}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}
