//! A scene whose run fails within a second: `free-body`'s box spun hundreds of times
//! faster, stepped by explicit Euler at a coarse step, overflows at t = 0.4 s. Tests of
//! what a failed run leaves use it.

use std::path::{Path, PathBuf};

/// The scene, named `boom`, written as `dir/boom.ron`.
pub fn exploding_scene(dir: &Path) -> PathBuf {
    let scene = include_str!("../../assets/scenes/free-body.ron")
        .replace("name: \"free-body\"", "name: \"boom\"")
        .replace("dt: 0.01", "dt: 0.05")
        .replace(
            "integrator: \"midpoint\"",
            "integrator: \"explicit-euler-world\"",
        )
        .replace("omega: (0.4, 0.3, 6.0)", "omega: (300.0, 200.0, 600.0)");
    let path = dir.join("boom.ron");
    std::fs::write(&path, scene).unwrap();
    path
}
