//! The labs a page holds, by handle, each with the lesson walked on it if any: what the
//! exported functions make, change and read. Every change goes through the lab's
//! `apply`, as in the app and on the command line.

use std::cell::RefCell;

use glam::DVec3;
use gyrolab_lab::integrators::Integrator;
use gyrolab_lab::joints::Motor;
use gyrolab_lab::lab::drawing::{self, Drawing, drawn_joints};
use gyrolab_lab::lab::presets::Start;
use gyrolab_lab::lab::{Input, Lab};
use gyrolab_lab::lesson::setup::Setup;
use gyrolab_lab::lesson::walk::Walk;
use gyrolab_lab::lesson::{self, Lesson};
use gyrolab_lab::scene::Scene;
use gyrolab_lab::solver::SolverSettings;
use gyrolab_lab::world::grab::Grab;
use serde::{Deserialize, Serialize};

use crate::lesson_view::LessonView;

/// What a lab is made from, as JSON: `{"scene": "dzhanibekov"}`, `{"scene_file":
/// {"path": "my.ron", "text": "…"}}`, `{"lesson": "energy-drift"}`, `{"lesson_file":
/// {…}}` or `{"setup": "GL1-…"}`.
#[derive(Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum LabRequest {
    Scene(String),
    SceneFile(File),
    Lesson(String),
    LessonFile(File),
    Setup(String),
}

/// A file the page was given: its name (for errors) and text; a lesson file's scene file
/// with it, where its scene is not built in (a page has no file system to read it from).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct File {
    pub path: String,
    pub text: String,
    #[serde(default)]
    pub scene: Option<Box<File>>,
}

/// A lab and the lesson walked on it.
pub struct Held {
    pub lab: Lab,
    pub walk: Option<Walk>,
}

thread_local! {
    static LABS: RefCell<Vec<Option<Held>>> = const { RefCell::new(Vec::new()) };
}

/// A lab made as `request` (JSON) asks.
pub fn make(request: &str) -> Result<Held, String> {
    let request: LabRequest = serde_json::from_str(request).map_err(|e| format!("request: {e}"))?;
    let lesson_on = |lesson: Lesson| -> Result<Held, String> {
        let mut lab = Lab::new(lesson.scene().map_err(|e| e.to_string())?);
        let walk = Walk::start(lesson, &mut lab)?;
        Ok(Held {
            lab,
            walk: Some(walk),
        })
    };
    match request {
        LabRequest::Scene(name) => scene_lab(Scene::load(&name)),
        LabRequest::SceneFile(f) => scene_lab(Scene::parse(&f.path, &f.text)),
        LabRequest::Lesson(name) => lesson_on(lesson::load(&name).map_err(|e| e.to_string())?),
        LabRequest::LessonFile(f) => lesson_file(&f),
        LabRequest::Setup(code) => {
            let mut lab = Lab::new(
                Scene::load(gyrolab_lab::scene::DEFAULT_SCENE).map_err(|e| e.to_string())?,
            );
            let walk = Setup::from_code(&code)?.open(&mut lab)?;
            let mut held = Held { lab, walk };
            hold(&mut held);
            Ok(held)
        }
    }
}

/// A lesson file, on its scene file where it came with one.
fn lesson_file(f: &File) -> Result<Held, String> {
    let text = |e: gyrolab_lab::scene::SceneError| e.to_string();
    let Some(scene_file) = &f.scene else {
        let lesson = Lesson::parse(&f.path, &f.text).map_err(text)?;
        let mut lab = Lab::new(lesson.scene().map_err(text)?);
        let walk = Walk::start(lesson, &mut lab)?;
        return Ok(Held {
            lab,
            walk: Some(walk),
        });
    };
    let scene = Scene::parse(&scene_file.path, &scene_file.text).map_err(text)?;
    let lesson = Lesson::parse_on(&f.path, &f.text, Some(&scene)).map_err(text)?;
    let mut lab = Lab::new(scene);
    let walk = Walk::start_on(lesson, &mut lab)?;
    Ok(Held {
        lab,
        walk: Some(walk),
    })
}

fn scene_lab(scene: Result<Scene, gyrolab_lab::scene::SceneError>) -> Result<Held, String> {
    let lab = Lab::new(scene.map_err(|e| e.to_string())?);
    Ok(Held { lab, walk: None })
}

/// Keeps a lab made as `request` asks; its handle.
pub fn open(request: &str) -> Result<u32, String> {
    let held = make(request)?;
    LABS.with(|labs| {
        let mut labs = labs.borrow_mut();
        labs.push(Some(held));
        u32::try_from(labs.len() - 1).map_err(|_| "too many labs".into())
    })
}

pub fn close(handle: u32) {
    LABS.with(|labs| {
        if let Some(slot) = labs.borrow_mut().get_mut(handle as usize) {
            *slot = None;
        }
    });
}

/// Runs `f` on the lab of `handle`.
fn with<R>(handle: u32, f: impl FnOnce(&mut Held) -> R) -> Option<R> {
    LABS.with(|labs| {
        let mut labs = labs.borrow_mut();
        labs.get_mut(handle as usize)?.as_mut().map(f)
    })
}

const NO_LAB: &str = "no such lab";

/// The lab's hold is its lesson's, wherever the lab now stands (the app sets it every
/// frame): after a step, an input (a restart), a seek, an answer or a step of the walk.
fn hold(h: &mut Held) {
    if let Some(walk) = &h.walk {
        walk.hold(&mut h.lab);
    }
}

pub fn apply(handle: u32, input: &str) -> Result<(), String> {
    let input: Input = serde_json::from_str(input).map_err(|e| format!("input: {e}"))?;
    with(handle, |h| {
        let applied = h.lab.apply(input);
        hold(h);
        applied
    })
    .ok_or(NO_LAB)?
}

/// Up to `steps` physics steps; how many the lab took. A lesson's walk holds the lab
/// after each, as the app's does every frame (a run stops at its event).
pub fn step(handle: u32, steps: u32) -> Option<u32> {
    with(handle, |h| {
        hold(h);
        let mut taken = 0;
        while taken < steps && h.lab.step() {
            taken += 1;
            hold(h);
        }
        taken
    })
}

/// Every lane's bodies' poses, then the ghost's: position and orientation, 7 numbers a
/// body.
pub fn poses(handle: u32) -> Option<Vec<f64>> {
    with(handle, |h| {
        let runs = h.lab.lanes().iter().chain(h.lab.ghost());
        let bodies = runs.flat_map(|r| r.world().bodies());
        bodies
            .flat_map(|b| {
                let (p, q) = (b.state.position, b.state.orientation);
                [p.x, p.y, p.z, q.x, q.y, q.z, q.w]
            })
            .collect()
    })
}

/// What a page shows of a lab beside its view, as JSON.
#[derive(Serialize)]
pub struct State {
    pub scene: String,
    /// The scene's one line.
    pub about: String,
    pub time: f64,
    pub dt: f64,
    pub steps_per_dt: u32,
    /// Single-body scenes compare integrators side by side over the exact ghost.
    pub side_by_side: bool,
    /// The start conditions (the first body's inertia and spin).
    pub start: Start,
    /// The contact solver's settings and the friction, in scenes with contacts.
    pub solver: Option<SolverSettings>,
    pub friction: Option<f64>,
    /// The scene's camera, as the app sets it on load: where it looks, how far away, how
    /// steeply down (degrees).
    pub camera: Option<([f64; 3], f64, f64)>,
    /// The scene's hinge motors, by joint index.
    pub motors: Vec<(usize, Motor)>,
    /// The body held with the mouse: its lane and the pull.
    pub grab: Option<(usize, Grab)>,
    /// The recording: its first and last physics steps, and the step shown.
    pub first_step: u64,
    pub last_step: u64,
    pub step: u64,
    /// Each lane's integrator (its name), body count and failure, if it stopped.
    pub lanes: Vec<(String, usize, Option<String>)>,
    pub ghost: bool,
    /// The lesson's step shown, from 0, and its count.
    pub lesson_at: Option<(usize, usize)>,
}

pub fn state(handle: u32) -> Result<String, String> {
    with(handle, |h| {
        let lab = &h.lab;
        let recorded = lab.recorded();
        let state = State {
            scene: lab.scene().name.clone(),
            about: lab.scene().description.clone(),
            time: lab.time(),
            dt: lab.dt(),
            steps_per_dt: lab.steps_per_dt(),
            side_by_side: lab.side_by_side(),
            start: lab.start().clone(),
            solver: lab.world().contacts().map(|c| *c.settings()),
            friction: lab.friction(),
            camera: (lab.scene().camera.as_ref())
                .map(|c| (c.focus.to_array(), c.distance, c.pitch_deg)),
            motors: lab.motors(),
            grab: lab.grab(),
            first_step: recorded.first,
            last_step: recorded.last,
            step: lab.step_index(),
            lanes: (lab.lanes().iter())
                .map(|r| {
                    let n = r.world().bodies().len();
                    (
                        r.integrator().name().to_string(),
                        n,
                        r.failure().map(String::from),
                    )
                })
                .collect(),
            ghost: lab.ghost().is_some(),
            lesson_at: (h.walk.as_ref()).map(|w| (w.at, w.lesson.steps.len())),
        };
        serde_json::to_string(&state).map_err(|e| e.to_string())
    })
    .ok_or(NO_LAB)?
}

/// What a view draws of a lab (its lanes, shapes and ground), as JSON.
pub fn drawing(handle: u32) -> Result<String, String> {
    with(handle, |h| {
        serde_json::to_string(&Drawing::of(&h.lab)).map_err(|e| e.to_string())
    })
    .ok_or(NO_LAB)?
}

/// The built-in scenes, lessons and integrators a page offers, as JSON.
pub fn catalog() -> String {
    #[derive(Serialize)]
    struct Named {
        name: String,
        about: String,
    }
    #[derive(Serialize)]
    struct Catalog {
        scenes: Vec<Named>,
        lessons: Vec<Named>,
        integrators: Vec<Named>,
        default_scene: &'static str,
    }
    let scenes = (gyrolab_lab::scene::builtin_scenes().into_iter())
        .map(|s| Named {
            name: s.name,
            about: s.description,
        })
        .collect();
    let lessons = (lesson::lesson_names().into_iter())
        .filter_map(|n| lesson::load(n).ok())
        .map(|l| Named {
            name: l
                .origin
                .rsplit('/')
                .next()
                .unwrap_or("")
                .trim_end_matches(".ron")
                .to_string(),
            about: l.title,
        })
        .collect();
    let integrators = (Integrator::ALL.into_iter())
        .map(|i| Named {
            name: i.name().to_string(),
            about: i.to_string(),
        })
        .collect();
    let catalog = Catalog {
        scenes,
        lessons,
        integrators,
        default_scene: gyrolab_lab::scene::DEFAULT_SCENE,
    };
    serde_json::to_string(&catalog).unwrap_or_default()
}

pub fn setup_code(handle: u32) -> Result<String, String> {
    with(handle, |h| {
        Setup::of(&h.lab, h.walk.as_ref()).map(|s| s.to_code())
    })
    .ok_or(NO_LAB)?
}

/// Answers the question shown; refused, with the reason, where the walk would not take
/// the answer.
pub fn answer(handle: u32, choice: usize) -> Result<(), String> {
    with(handle, |h| {
        let walk = h.walk.as_mut().ok_or("this lab walks no lesson")?;
        walk.answer(choice);
        if walk.answers.get(walk.at).copied().flatten() != Some(choice) {
            return Err(format!("step {} takes no answer {choice}", walk.at + 1));
        }
        // An answer frees the run that follows: the lab's hold is the walk's.
        walk.hold(&mut h.lab);
        Ok(())
    })
    .ok_or(NO_LAB)?
}

pub fn next(handle: u32) -> Result<(), String> {
    with(handle, |h| match &mut h.walk {
        Some(walk) => walk.next(&mut h.lab).map(|()| walk.hold(&mut h.lab)),
        None => Err("this lab walks no lesson".to_string()),
    })
    .ok_or(NO_LAB)?
}

/// The lesson walked on a lab, as its page shows it, as JSON.
pub fn lesson(handle: u32) -> Result<String, String> {
    with(handle, |h| {
        let walk = h.walk.as_ref().ok_or("this lab walks no lesson")?;
        serde_json::to_string(&LessonView::of(walk, &h.lab)).map_err(|e| e.to_string())
    })
    .ok_or(NO_LAB)?
}

/// Back to the lesson's step before (a question passed keeps its answer).
pub fn back(handle: u32) -> Result<(), String> {
    with(handle, |h| match &mut h.walk {
        Some(walk) => {
            walk.back();
            walk.hold(&mut h.lab);
            Ok(())
        }
        None => Err("this lab walks no lesson".to_string()),
    })
    .ok_or(NO_LAB)?
}

/// Moves the moment shown along the recording: to physics step `step` (simulated again
/// from a keyframe, bitwise), or one step back. Whether it got there.
pub fn seek(handle: u32, step: Option<u64>) -> Option<bool> {
    with(handle, |h| {
        let moved = match step {
            Some(step) => h.lab.seek(step),
            None => h.lab.step_back(),
        };
        hold(h);
        moved
    })
}

/// The body of lane `lane` that the ray `origin + t·dir` (lane coordinates) hits first,
/// held where it hits, as JSON `{"grab": …, "t": …}`; refused where none is hit or the
/// scene takes no grab (see `Grab::pick`).
pub fn pick(handle: u32, lane: usize, origin: DVec3, dir: DVec3) -> Result<String, String> {
    with(handle, |h| {
        let run = h.lab.lanes().get(lane).ok_or("no such lane")?;
        let dir = dir.try_normalize().ok_or("no direction")?;
        let (grab, t) = Grab::pick(run.world(), origin, dir).ok_or("nothing to hold there")?;
        Ok(serde_json::json!({ "grab": grab, "t": t }).to_string())
    })
    .ok_or(NO_LAB)?
}

/// Every lane's drawn joints' two anchors (see `drawing::joint_ends`), 6 numbers a joint,
/// lane after lane.
pub fn joint_ends(handle: u32) -> Option<Vec<f64>> {
    with(handle, |h| {
        let drawn = drawn_joints(h.lab.world());
        (h.lab.lanes().iter())
            .flat_map(|r| drawing::joint_ends(r.world(), &drawn))
            .flat_map(|[a, b]| a.to_array().into_iter().chain(b.to_array()))
            .collect()
    })
}

/// The dock's plots of the run so far, as the recorded page draws them (each series
/// thinned to fit `bytes`), as JSON.
pub fn plots(handle: u32, bytes: usize) -> Result<String, String> {
    with(handle, |h| {
        let plots = gyrolab_lab::lab::web_plots::of(&h.lab, bytes);
        serde_json::to_string(&plots).map_err(|e| e.to_string())
    })
    .ok_or(NO_LAB)?
}

/// Measures the lesson's readout shown again, on the run as it stands (see
/// `Walk::measure_again`).
pub fn measure_again(handle: u32) -> Result<(), String> {
    with(handle, |h| match &mut h.walk {
        Some(walk) => walk.measure_again(&mut h.lab),
        None => Err("this lab walks no lesson".to_string()),
    })
    .ok_or(NO_LAB)?
}

/// Replays up to `steps` recorded physics steps from the moment shown, each simulated
/// again and checked against the recording; how many, stopping at the recording's head.
pub fn replay(handle: u32, steps: u32) -> Option<u32> {
    with(handle, |h| {
        let mut taken = 0;
        while taken < steps && h.lab.replay_step().is_some() {
            taken += 1;
            hold(h);
        }
        taken
    })
}
