//! The lessons that ship with gyrolab, from `assets/lessons/`.

use super::schema::Lesson;
use crate::scene::SceneError;

const BUILTIN: [(&str, &str); 12] = [
    (
        "intermediate-axis",
        include_str!("../../../assets/lessons/intermediate-axis.ron"),
    ),
    (
        "restitution",
        include_str!("../../../assets/lessons/restitution.ron"),
    ),
    (
        "turntable",
        include_str!("../../../assets/lessons/turntable.ron"),
    ),
    (
        "energy-drift",
        include_str!("../../../assets/lessons/energy-drift.ron"),
    ),
    (
        "foucault",
        include_str!("../../../assets/lessons/foucault.ron"),
    ),
    (
        "momentum-clamp",
        include_str!("../../../assets/lessons/momentum-clamp.ron"),
    ),
    (
        "incline",
        include_str!("../../../assets/lessons/incline.ron"),
    ),
    ("van", include_str!("../../../assets/lessons/van.ron")),
    (
        "dancing-pole",
        include_str!("../../../assets/lessons/dancing-pole.ron"),
    ),
    ("truck", include_str!("../../../assets/lessons/truck.ron")),
    (
        "space-pole",
        include_str!("../../../assets/lessons/space-pole.ron"),
    ),
    (
        "pendulum",
        include_str!("../../../assets/lessons/pendulum.ron"),
    ),
];

pub fn lesson_names() -> Vec<&'static str> {
    BUILTIN.iter().map(|(n, _)| *n).collect()
}

/// A built-in lesson's text.
pub fn text(name: &str) -> Option<&'static str> {
    BUILTIN.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// A built-in lesson by name, or a lesson file by path.
pub fn load(name_or_path: &str) -> Result<Lesson, SceneError> {
    match BUILTIN.iter().find(|(n, _)| *n == name_or_path) {
        Some((name, text)) => {
            let mut lesson = Lesson::parse(&format!("assets/lessons/{name}.ron"), text)?;
            lesson.origin = name_or_path.into();
            Ok(lesson)
        }
        None if name_or_path.ends_with(".ron") => Lesson::open(name_or_path),
        None => Err(SceneError::Io {
            file: name_or_path.into(),
            message: format!(
                "no such lesson (valid: {}, or a path to a .ron file)",
                lesson_names().join(", ")
            ),
        }),
    }
}
