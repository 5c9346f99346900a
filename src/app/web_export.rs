//! *export web page* (Share section, beside *Copy set-up*): the live lab
//! ([`crate::web::live`]) opening at what the app shows (its set-up code: the scene as set
//! up here, or the lesson at its step), where this build has the lab's wasm module;
//! without one, the lesson being walked, whole from its start, or the scene as set up
//! here, recorded into one web page ([`crate::web`]) on a thread of its own, with a
//! progress bar in the panel while it records; the window goes on meanwhile. The page is
//! written whole or not at all, under a new name in the working directory.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use bevy_egui::egui;

use super::physics::Sim;
use crate::atomic_file::AtomicFile;
use crate::lab::Lab;
use crate::lesson::setup::Setup;
use crate::lesson::walk::Walk;
use crate::web::{self, PageSource, SCENE_SECONDS};

/// A page being recorded.
pub struct WebExport {
    path: PathBuf,
    /// Per mille recorded.
    done: Arc<AtomicU32>,
    /// The outcome, once there is one.
    outcome: Arc<Mutex<Option<Result<String, String>>>>,
}

impl WebExport {
    /// Starts recording what the app shows: the lesson from its start, else the scene
    /// with the settings a set-up code would carry.
    pub fn start(sim: &Sim, lesson: Option<&Walk>) -> Result<Self, String> {
        // Named after the lesson where one is open (its file's name), else the scene.
        let lesson_name = lesson.map(|w| {
            let origin = std::path::Path::new(&w.lesson.origin);
            origin.file_stem().map_or(w.lesson.origin.clone(), |s| {
                s.to_string_lossy().into_owned()
            })
        });
        let name = super::files::safe(&lesson_name.unwrap_or_else(|| sim.scene().name.clone()));
        Self::start_to(
            sim,
            lesson,
            super::files::unused(&format!("gyrolab-{name}"), ".html"),
        )
    }

    /// [`WebExport::start`], writing to `path`.
    fn start_to(sim: &Sim, lesson: Option<&Walk>, path: PathBuf) -> Result<Self, String> {
        let job = Self {
            path: path.clone(),
            done: Arc::default(),
            outcome: Arc::default(),
        };
        if let Ok(module) = web::live::module_path(None) {
            let wrote = write_live(&module, &Setup::of(sim, lesson)?.to_code(), &path);
            *job.outcome.lock().unwrap_or_else(|e| e.into_inner()) = Some(wrote);
            return Ok(job);
        }
        let source = match lesson {
            Some(walk) => PageSource::Lesson(Box::new(walk.lesson.clone())),
            None => {
                let setup = Setup::of(sim, None)?;
                let mut lab = Lab::new(sim.scene().clone());
                setup.open(&mut lab)?;
                let seconds = lab.scene().duration.min(SCENE_SECONDS);
                PageSource::Scene {
                    lab: Box::new(lab),
                    seconds,
                }
            }
        };
        let (done, outcome) = (job.done.clone(), job.outcome.clone());
        std::thread::spawn(move || {
            // A panic while recording is told, not left as a bar that never ends.
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                write(source, &path, &mut |f| {
                    done.store((f.clamp(0.0, 1.0) * 1000.0) as u32, Ordering::Relaxed)
                })
            }))
            .unwrap_or_else(|_| Err(format!("recording {} failed", path.display())));
            *outcome.lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
        });
        Ok(job)
    }

    /// The progress bar while it records; the outcome once it is done.
    pub fn show(&self, ui: &mut egui::Ui) -> Option<Result<String, String>> {
        let outcome = self.outcome();
        if outcome.is_none() {
            let done = self.done.load(Ordering::Relaxed) as f32 / 1000.0;
            ui.add(
                egui::ProgressBar::new(done)
                    .show_percentage()
                    .text(format!("recording {}", self.path.display())),
            );
            ui.ctx().request_repaint();
        }
        outcome
    }
}

impl WebExport {
    /// The outcome, once: the message for the panel.
    fn outcome(&self) -> Option<Result<String, String>> {
        self.outcome
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
    }
}

/// The live page with `module`, opening at set-up `code`, written to `path`.
fn write_live(module: &Path, code: &str, path: &Path) -> Result<String, String> {
    let refuse = |e: &dyn std::fmt::Display| format!("cannot write {}: {e}", path.display());
    let bytes = std::fs::read(module).map_err(|e| format!("{}: {e}", module.display()))?;
    let opening = serde_json::json!({ "open": { "setup": code }, "files": [] });
    let html = web::live::html(&bytes, &opening);
    let mut file = AtomicFile::create(path).map_err(|e| refuse(&e))?;
    file.write_all(html.as_bytes()).map_err(|e| refuse(&e))?;
    file.commit().map_err(|e| refuse(&e))?;
    Ok(format!(
        "wrote {} ({:.1} MB), the live lab at this set-up: open it in any browser",
        path.display(),
        html.len() as f64 / 1e6
    ))
}

/// The page of `source` written to `path`: the file is made before the runs, so an
/// unwritable place is refused at once, and appears only once the page is whole.
fn write(source: PageSource, path: &Path, progress: &mut dyn FnMut(f64)) -> Result<String, String> {
    let refuse = |e: &dyn std::fmt::Display| format!("cannot write {}: {e}", path.display());
    let mut file = AtomicFile::create(path).map_err(|e| refuse(&e))?;
    let made = web::page(source, progress)?;
    file.write_all(made.html.as_bytes())
        .map_err(|e| refuse(&e))?;
    file.commit().map_err(|e| refuse(&e))?;
    let disagree = match made.disagree.len() {
        0 => String::new(),
        n => format!("; {n} of its readouts disagree with what the lesson states"),
    };
    Ok(format!(
        "wrote {} ({:.1} MB): open it in any browser{disagree}",
        path.display(),
        made.html.len() as f64 / 1e6
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::Input;
    use crate::scene::Scene;

    fn finish(job: &WebExport) -> Result<String, String> {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
        loop {
            if let Some(outcome) = job.outcome() {
                return outcome;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the page never finished"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    /// The scene as set up here (a changed step), carried by the page's set-up code;
    /// an open lesson is recorded whole from its start, wherever the student is in it.
    #[test]
    fn the_scene_as_set_up_and_the_lesson_whole() {
        let dir = tempfile::tempdir().unwrap();
        let mut sim = Sim::new(Lab::new(Scene::load("bounce").unwrap()));
        sim.0.apply(Input::SetDt(0.004)).unwrap();
        let mut walking: Option<Walk> = None;
        let path = dir.path().join("bounce.html");
        let said =
            finish(&WebExport::start_to(&sim, walking.as_ref(), path.clone()).unwrap()).unwrap();
        assert!(
            said.starts_with(&format!("wrote {}", path.display())),
            "{said}"
        );
        let html = std::fs::read_to_string(&path).unwrap();
        let code = Setup::of(&sim, None).unwrap().to_code();
        assert!(html.contains(&code));
        assert!(html.contains(r#""kind":"scene""#));

        let lesson = crate::lesson::load("restitution").unwrap();
        let steps = lesson.steps.len();
        let mut walk = crate::lesson::walk::Walk::start(lesson, &mut sim.0).unwrap();
        walk.answer(0);
        walk.next(&mut sim.0).unwrap();
        walking = Some(walk);
        let path = dir.path().join("lesson.html");
        finish(&WebExport::start_to(&sim, walking.as_ref(), path.clone()).unwrap()).unwrap();
        let html = std::fs::read_to_string(&path).unwrap();
        let page: serde_json::Value = serde_json::from_str(web::data_of(&html).unwrap()).unwrap();
        assert_eq!(page["kind"], "lesson");
        assert_eq!(page["steps"].as_array().unwrap().len(), steps);
        assert_eq!(page["takes"][0]["times"][0], 0.0, "from its start");

        let refused =
            WebExport::start_to(&sim, walking.as_ref(), dir.path().join("no/such/p.html")).unwrap();
        assert!(finish(&refused).unwrap_err().starts_with("cannot write"));
    }
}
