//! The built-in scenes, compiled in so that the binary works from any directory.

use super::Scene;

/// Built-in scenes, in the order the app's number keys use.
pub(super) const BUILTIN: [(&str, &str); 27] = [
    (
        "dzhanibekov",
        include_str!("../../../assets/scenes/dzhanibekov.ron"),
    ),
    (
        "free-body",
        include_str!("../../../assets/scenes/free-body.ron"),
    ),
    (
        "tennis-racket",
        include_str!("../../../assets/scenes/tennis-racket.ron"),
    ),
    (
        "clamp-drift",
        include_str!("../../../assets/scenes/clamp-drift.ron"),
    ),
    (
        "tumbling-crowd",
        include_str!("../../../assets/scenes/tumbling-crowd.ron"),
    ),
    ("truck", include_str!("../../../assets/scenes/truck.ron")),
    (
        "space-pole",
        include_str!("../../../assets/scenes/space-pole.ron"),
    ),
    ("tank", include_str!("../../../assets/scenes/tank.ron")),
    (
        "carousel",
        include_str!("../../../assets/scenes/carousel.ron"),
    ),
    (
        "foucault",
        include_str!("../../../assets/scenes/foucault.ron"),
    ),
    ("crash", include_str!("../../../assets/scenes/crash.ron")),
    (
        "turntable",
        include_str!("../../../assets/scenes/turntable.ron"),
    ),
    (
        "top-on-turntable",
        include_str!("../../../assets/scenes/top-on-turntable.ron"),
    ),
    (
        "dancing-pole",
        include_str!("../../../assets/scenes/dancing-pole.ron"),
    ),
    (
        "spinning-top",
        include_str!("../../../assets/scenes/spinning-top.ron"),
    ),
    ("stack", include_str!("../../../assets/scenes/stack.ron")),
    (
        "pyramid",
        include_str!("../../../assets/scenes/pyramid.ron"),
    ),
    (
        "newtons-cradle",
        include_str!("../../../assets/scenes/newtons-cradle.ron"),
    ),
    (
        "incline",
        include_str!("../../../assets/scenes/incline.ron"),
    ),
    ("bounce", include_str!("../../../assets/scenes/bounce.ron")),
    (
        "dominoes",
        include_str!("../../../assets/scenes/dominoes.ron"),
    ),
    ("pile", include_str!("../../../assets/scenes/pile.ron")),
    (
        "slider-crank",
        include_str!("../../../assets/scenes/slider-crank.ron"),
    ),
    ("chain", include_str!("../../../assets/scenes/chain.ron")),
    (
        "wrecking-ball",
        include_str!("../../../assets/scenes/wrecking-ball.ron"),
    ),
    (
        "elastic-pendulum",
        include_str!("../../../assets/scenes/elastic-pendulum.ron"),
    ),
    (
        "pendulum",
        include_str!("../../../assets/scenes/pendulum.ron"),
    ),
];

/// The scene the app and the command line open when none is named.
pub const DEFAULT_SCENE: &str = "dzhanibekov";

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
