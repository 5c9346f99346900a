//! The moment file, at the right end of the timeline strip: its name, and the buttons
//! that save the moment shown to it and load one from it. The lab reads and writes the
//! file (`lab::moment`); `gyrolab simulate --state FILE` goes on from the same files.

use std::path::Path;

use bevy_egui::egui;

use super::layout::omega_lane;
use super::physics::{Playback, Sim};
use super::view::{Message, View};

/// The moment file's field and its buttons, right to left.
pub(super) fn moment_file(
    ui: &mut egui::Ui,
    sim: &mut Sim,
    view: &mut View,
    playback: &mut Playback,
    message: &mut Message,
) {
    if ui
        .button("Load moment")
        .on_hover_text("go on from a saved moment: its scene, lanes and state")
        .clicked()
    {
        message.set(load_moment(sim, view, playback, &view.moment_file.clone()));
    }
    if ui
        .button("Save moment")
        .on_hover_text(
            "the full state shown, to go on from it here or with \
             `gyrolab simulate --state FILE`",
        )
        .clicked()
    {
        let path = view.moment_file.clone();
        message.set(
            crate::state_file::save_lab(sim, Path::new(&path))
                .map(|()| format!("saved the moment at t = {:.3} s to {path}", sim.time())),
        );
    }
    ui.add(
        egui::TextEdit::singleline(&mut view.moment_file)
            .hint_text("gyrolab-moment.json")
            .desired_width(140.0),
    );
}

/// Loads a moment file: the lab goes on from it with a new recording; a replay ends.
/// One line if refused, the lab unchanged.
fn load_moment(
    sim: &mut Sim,
    view: &mut View,
    playback: &mut Playback,
    path: &str,
) -> Result<String, String> {
    sim.load_moment(Path::new(path))?;
    *playback = Playback::Live;
    view.omega_lane = omega_lane(sim);
    view.rider = None;
    Ok(format!(
        "loaded {path}: {} at t = {:.3} s",
        sim.scene().name,
        sim.time()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::Lab;
    use crate::scene::Scene;

    /// A moment saved and loaded through the moment file's functions; a file that is not one
    /// is refused with one line and the lab goes on unchanged.
    #[test]
    fn moments_save_and_load_and_bad_files_are_one_line() {
        let dir = std::env::temp_dir().join(format!("gyrolab-ui-moment-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("m.json");
        let mut sim = Sim::new(Lab::new(Scene::load("dzhanibekov").unwrap()));
        for _ in 0..30 {
            sim.step();
        }
        crate::state_file::save_lab(&sim, &file).unwrap();
        let saved = (sim.step_index(), sim.time());
        let mut other = Sim::new(Lab::new(Scene::load("free-body").unwrap()));
        let (mut view, mut playback) = (View::default(), Playback::Replay);
        let loaded = load_moment(&mut other, &mut view, &mut playback, file.to_str().unwrap());
        assert!(loaded.unwrap().contains("dzhanibekov"));
        assert_eq!((other.step_index(), other.time()), saved);
        assert_eq!(playback, Playback::Live);
        let bad = dir.join("bad.json");
        std::fs::write(&bad, "not a moment\n").unwrap();
        let before = other.time();
        let e =
            load_moment(&mut other, &mut view, &mut playback, bad.to_str().unwrap()).unwrap_err();
        assert_eq!(e.lines().count(), 1, "{e}");
        assert!(e.contains("bad.json"), "{e}");
        assert_eq!(other.time(), before);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
