//! `gyrolab scene`: a scene's bodies, joints, frames and contacts as the scene data has
//! them, and the errors that list the names a scene has.

mod common;
use common::binary::gyrolab;

use gyrolab::scene::Scene;

fn described(scene: &str) -> String {
    let o = gyrolab(&["scene", scene]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

/// The line of body `name`: two spaces, the name and a colon.
fn body_line<'a>(text: &'a str, name: &str) -> &'a str {
    let head = format!("  {name}: ");
    (text.lines().find(|l| l.starts_with(&head)))
        .unwrap_or_else(|| panic!("no line for body '{name}' in\n{text}"))
}

/// Every body of the scene has its line, with the mass its parts sum to.
fn assert_bodies_listed(name: &str) -> String {
    let scene = Scene::load(name).unwrap();
    let text = described(name);
    assert!(text.starts_with(&format!("scene {name}: {}\n", scene.description)));
    let bodies = scene.all_bodies();
    assert!(
        text.contains(&format!("bodies ({}):", bodies.len())),
        "{text}"
    );
    for b in bodies.iter() {
        let mass: f64 = b.parts.iter().map(|p| p.mass).sum();
        let line = body_line(&text, &b.name);
        assert!(line.contains(&format!(", {mass} kg, ")), "{line}");
    }
    text
}

/// incline: each box's friction against the slope is √(μ_box · μ_plane), the rule
/// [`gyrolab::body::Material::mix`] applies: 0.49 and 0.09 on a plane of 1.0 give the
/// lesson's μ = 0.7 and 0.3.
#[test]
fn incline_lists_its_boxes_and_the_friction_each_has_on_the_slope() {
    let text = assert_bodies_listed("incline");
    let scene = Scene::load("incline").unwrap();
    let plane = scene.contacts.as_ref().unwrap().planes[0].friction;
    for b in &scene.bodies {
        let own = b.friction.unwrap();
        let mu = (own * plane).sqrt();
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("    {}: friction {own},", b.name)))
            .unwrap_or_else(|| panic!("no friction line for {} in\n{text}", b.name));
        assert!(
            line.ends_with(&format!("on plane 1: μ {mu}, e 0")),
            "{line}"
        );
    }
    assert!(
        text.contains("μ 0.7, e 0") && text.contains("μ 0.3, e 0"),
        "{text}"
    );
    assert!(text.contains("dt 0.005 s, duration 4 s, integrator midpoint"));
}

/// slider-crank: its bodies, and each joint by kind with what it joins, by name.
#[test]
fn slider_crank_lists_its_joints_by_the_names_they_join() {
    let text = assert_bodies_listed("slider-crank");
    let scene = Scene::load("slider-crank").unwrap();
    assert!(text.contains(&format!("joints ({}):", scene.joints.len())));
    for j in &scene.joints {
        let to =
            j.b.as_ref()
                .map_or("the world".into(), |b| format!("'{b}'"));
        let joined = format!(": '{}' to {to}, at ", j.a);
        assert!(
            text.lines().any(|l| l.contains(&joined)),
            "{joined}\n{text}"
        );
    }
    assert!(text.contains("slider: 'piston' to the world"), "{text}");
    assert!(text.contains("limits -0.45 m to 0.05 m"), "{text}");
    assert!(
        text.contains(
            "readout: slider-crank: the position of 'piston' against the one the angle of 'crank' gives"
        ),
        "{text}"
    );
}

/// A name that is not in the scene is refused with the names that are.
#[test]
fn an_unknown_name_lists_the_names_the_scene_has() {
    let dir = std::env::temp_dir().join(format!("gyrolab-scene-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let slider = include_str!("../assets/scenes/slider-crank.ron");
    let turntable = include_str!("../assets/scenes/turntable.ron");
    let cases = [
        (
            "joint.ron",
            slider.replacen("a: \"rod\"", "a: \"rdo\"", 1),
            "unknown body 'rdo' (its bodies: crank, rod, piston)",
        ),
        (
            "body.ron",
            turntable.replace("Circling(body: \"ball\"", "Circling(body: \"bal\""),
            "readout.body: unknown body 'bal' (its bodies: ball)",
        ),
        (
            "frame.ron",
            turntable.replace("frame: \"table\")", "frame: \"tabel\")"),
            "readout.frame: unknown frame 'tabel' (its frames: table)",
        ),
    ];
    for (file, text, needle) in cases {
        assert_ne!(
            text,
            if file == "joint.ron" {
                slider
            } else {
                turntable
            }
        );
        let path = dir.join(file);
        std::fs::write(&path, text).unwrap();
        let o = gyrolab(&["scene", path.to_str().unwrap()]);
        let err = String::from_utf8(o.stderr).unwrap();
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(needle), "{needle} not in {err}");
        assert!(o.stdout.is_empty());
    }
    let o = gyrolab(&["scene", "inclin"]);
    assert_eq!(o.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}
