//! A lesson or a scene as one web page a class opens in any browser, with no network and
//! no gyrolab: its runs recorded here, every lane side by side with the exact ghost, then
//! played back in the page with three.js, its dock's plots beside, and a lesson's steps
//! walked as the app walks them (the question before the run, the readouts measured
//! beside the values stated, the explanation after, each "now try" recorded too).
//! `gyrolab web` and the app's *export web page* write it.

mod budget;
pub mod live;
mod page;
pub use crate::lab::web_plots as plots;
mod record;
mod steps;

pub use budget::MOST_BYTES;
pub use page::{Page, data_of};

use budget::Need;
use page::Camera;
use record::Recording;

use crate::lab::Lab;
use crate::lesson::run::{Seen, walk_watched};
use crate::lesson::setup::Setup;
use crate::lesson::{self, Card, Lesson};
use crate::scene::{self, Scene};

/// The longest scene run a page records, s: a page is watched, not left running.
pub const LONGEST: f64 = 300.0;

/// A scene's run length when none is asked for: its own, up to this, s.
pub const SCENE_SECONDS: f64 = 30.0;

/// What a page shows.
pub enum PageSource {
    /// Every step of a lesson, from its start.
    Lesson(Box<Lesson>),
    /// A lab as set up (a scene, or what a set-up code opens), run from its start for
    /// `seconds`.
    Scene { lab: Box<Lab>, seconds: f64 },
}

impl PageSource {
    /// `name`: a lesson where one is named so (a built-in lesson, or a .ron file that has
    /// steps), else a scene, or the scene with `scene_only`. `seconds` is the scene's run
    /// (default: its own duration, up to [`SCENE_SECONDS`]); a lesson's runs set their
    /// own.
    pub fn named(name: &str, scene_only: bool, seconds: Option<f64>) -> Result<Self, String> {
        let as_lesson = (!scene_only).then(|| lesson::load(name));
        if let Some(Ok(lesson)) = as_lesson {
            if seconds.is_some() {
                return Err(format!(
                    "--duration: lesson '{name}' sets its runs' lengths itself (--scene takes a scene of that name)"
                ));
            }
            return Ok(Self::Lesson(Box::new(lesson)));
        }
        if !(scene::scene_names().contains(&name) || name.ends_with(".ron")) {
            let scenes = scene::scene_names().join(", ");
            return Err(match scene_only {
                true => format!("no scene '{name}' (scenes: {scenes}; or a path to a .ron file)"),
                false => format!(
                    "no lesson or scene '{name}' (lessons: {}; scenes: {scenes}; or a path to a .ron file)",
                    lesson::lesson_names().join(", "),
                ),
            });
        }
        match Scene::load(name) {
            Ok(scene) => Ok(Self::Scene {
                seconds: seconds.unwrap_or(scene.duration.min(SCENE_SECONDS)),
                lab: Box::new(Lab::new(scene)),
            }),
            // A file that was meant as a lesson (it has steps) is told the lesson's error.
            Err(e) => Err(match as_lesson {
                Some(Err(lesson_error)) if reads_as_lesson(name) => lesson_error.to_string(),
                _ => e.to_string(),
            }),
        }
    }
}

/// Whether the file `name` reads as a lesson: it has a lesson's `steps` and no scene's
/// `bodies` (a scene's comment may well say "steps").
fn reads_as_lesson(name: &str) -> bool {
    std::fs::read_to_string(name)
        .is_ok_and(|text| text.contains("steps:") && !text.contains("bodies:"))
}

/// A page made: its HTML, and the lines of a lesson's readouts that disagree with what
/// it states (the page shows them so; `gyrolab lesson` exits 1 on them).
pub struct Made {
    pub html: String,
    pub disagree: Vec<String>,
}

/// The page of `source`, at most [`MOST_BYTES`]; `progress` is told the fraction
/// recorded as the runs go. A lesson's run whose first lane fails refuses the page.
pub fn page(source: PageSource, progress: &mut dyn FnMut(f64)) -> Result<Made, String> {
    let (page, disagree) = match source {
        PageSource::Lesson(lesson) => lesson_page(&lesson, progress)?,
        PageSource::Scene { lab, seconds } => (scene_page(*lab, seconds, progress)?, Vec::new()),
    };
    Ok(Made {
        html: page.html(MOST_BYTES)?,
        disagree,
    })
}

/// What a take of `lab` needs to record for `seconds`.
fn need(lab: &Lab, seconds: f64, may_cut: bool) -> Need {
    let runs = lab.lanes().len() + usize::from(lab.ghost().is_some());
    let world = lab.world();
    let joints = lab.lanes().len() * crate::lab::drawing::drawn_joints(world).len();
    Need {
        h: lab.h(),
        duration: seconds.max(lab.h()),
        values: runs * world.bodies().len() * 7 + world.frames().len() * 8 + joints * 6,
        bodies: runs * world.bodies().len(),
        may_cut,
    }
}

/// A take's recording started on `lab` for `seconds`, as dense as `takes` takes whose
/// frames share `frame_bytes` by their length allow.
fn start_take(
    lab: &Lab,
    label: String,
    seconds: f64,
    may_cut: bool,
    share: (usize, usize),
) -> Recording {
    let (frame_bytes, takes) = share;
    let plan = budget::plan(need(lab, seconds, may_cut), frame_bytes);
    Recording::start(lab, label, plan, budget::plot_bytes(takes))
}

fn scene_page(mut lab: Lab, seconds: f64, progress: &mut dyn FnMut(f64)) -> Result<Page, String> {
    let name = lab.scene().name.clone();
    if !(seconds > 0.0 && seconds <= LONGEST) {
        return Err(format!(
            "--duration: {seconds} s; a page records from more than 0 to {LONGEST} s"
        ));
    }
    let setup = Setup::of(&lab, None)?.to_code();
    let bare = start_take(&lab, "run".into(), seconds, true, (0, 1)).bytes();
    let left = budget::frame_bytes_left(page::fixed_bytes(), 1, bare, 0);
    let mut recording = start_take(&lab, "run".into(), seconds, true, (left, 1));
    let until = recording.until();
    // A lane that stops on an error stops in the page too, as in the app, and the page
    // says so. The lab's time is the first lane's: once it stops, so does the recording.
    while lab.time() + 0.5 * lab.h() < until && lab.step() {
        recording.stepped(&lab);
        if recording.all_stopped() {
            return Err(format!(
                "{name}: every lane stopped by t = {:.4} s: {}",
                lab.time(),
                recording.note.as_deref().unwrap_or_default()
            ));
        }
        if lab.lanes()[0].error().is_some() {
            recording.say("The recording ends there: its time is the first lane's.");
            break;
        }
        progress(lab.time() / until);
    }
    recording.close(&lab);
    let scene = lab.scene();
    Ok(Page {
        generator: generator(),
        kind: "scene",
        title: scene.name.clone(),
        scene: scene.name.clone(),
        description: scene.description.clone(),
        setup,
        camera: Camera::of(scene, lab.world()),
        takes: vec![recording],
        steps: Vec::new(),
    })
}

/// Walks the lesson as `gyrolab lesson` does, recording each take's runs.
fn lesson_page(
    lesson: &Lesson,
    progress: &mut dyn FnMut(f64),
) -> Result<(Page, Vec<String>), String> {
    let ranges: Vec<_> = lesson.takes().collect();
    let mut take_of = vec![0; lesson.steps.len()];
    for (p, r) in ranges.iter().enumerate() {
        take_of[r.clone()].fill(p);
    }
    let seconds: Vec<f64> = (ranges.iter())
        .map(|r| Lesson::run_length(&lesson.steps[r.clone()]).unwrap_or(0.0))
        .collect();
    let total: f64 = seconds.iter().sum::<f64>().max(f64::MIN_POSITIVE);
    // How far the runs before each take go, for the progress.
    let before: Vec<f64> = (seconds.iter())
        .scan(0.0, |sum, s| Some(std::mem::replace(sum, *sum + s)))
        .collect();
    let mut takes: Vec<Recording> = Vec::new();
    let mut ends = vec![None; lesson.steps.len()];
    let mut first: Option<(Result<String, String>, Option<Camera>)> = None;
    // The frames' bytes, worked out when the first take starts: every take is assumed to
    // need as much JSON besides its frames as the first.
    let mut frame_bytes = 0;
    let walk = walk_watched(lesson, |seen, walk, lab| {
        let p = take_of[walk.at];
        match seen {
            Seen::Arrived if p == takes.len() => {
                first.get_or_insert_with(|| {
                    let bare = start_take(lab, String::new(), 0.0, false, (0, 1)).bytes();
                    let (fixed, n) = (page::fixed_bytes(), ranges.len());
                    frame_bytes = budget::frame_bytes_left(fixed, n, bare, 2 * lesson.text.len());
                    let code = Setup::of(lab, Some(walk)).map(|s| s.to_code());
                    (code, Camera::of(lab.scene(), lab.world()))
                });
                let share = (frame_bytes as f64 * seconds[p] / total) as usize;
                let label = match walk.card() {
                    Some(Card::Try { text, .. }) => text.clone(),
                    _ => "start".into(),
                };
                takes.push(start_take(
                    lab,
                    label,
                    seconds[p],
                    false,
                    (share, ranges.len()),
                ));
            }
            Seen::Stepped => {
                takes[p].stepped(lab);
                progress((before[p] + lab.time()) / total);
            }
            Seen::Leaving => {
                if let Some(Card::Run { .. }) = walk.card() {
                    ends[walk.at] = Some(lab.time());
                }
                takes[p].close(lab);
            }
            _ => {}
        }
    })?;
    let (setup, camera) = first.expect("a walk arrives at its first step");
    let scene = lesson.scene().map_err(|e| e.to_string())?;
    let disagree = (walk.measured.iter().flatten())
        .filter(|m| !m.agrees())
        .map(|m| m.to_string())
        .collect();
    let page = Page {
        generator: generator(),
        kind: "lesson",
        title: lesson.title.clone(),
        scene: scene.name.clone(),
        description: scene.description.clone(),
        setup: setup?,
        camera,
        takes,
        steps: steps::of(&walk, &ends, &take_of)?,
    };
    Ok((page, disagree))
}

fn generator() -> String {
    format!("gyrolab {}", env!("CARGO_PKG_VERSION"))
}
