//! Set-up codes: a short text that reproduces a scene, what was changed about it (start
//! conditions, integrators, step, solver, friction) and the lesson step shown, so a
//! teacher can hand a class exactly what they see (as myPhysicsLab's share links and
//! PhET-iO's fixed start states do).
//!
//! A code is `GL1-` and then, in URL-safe base64, a checksum of the set-up and the set-up
//! itself (JSON, deflated). A built-in scene or lesson travels by name with a hash of its
//! text, so a gyrolab whose built-in differs refuses the code instead of showing
//! something else; a scene or lesson opened from a file travels whole, as it was read,
//! and on again in a code made where that code was opened. A lesson's set-up holds what
//! differs from the lesson's own settings at its step (a "now try" is the lesson's), and
//! opening it replays the runs before that step with the settings of their own steps.
//! What a set-up holds is checked by the same `Lab::apply` that checks the app's controls.

use crate::lab::Input;
use std::io::Read;

use data_encoding::BASE64URL_NOPAD;
use flate2::Compression;
use flate2::read::{DeflateDecoder, DeflateEncoder};
use serde::{Deserialize, Serialize};
use twox_hash::XxHash3_64;

use super::walk::Walk;
use super::{Card, Lesson};
use crate::integrators::Integrator;
use crate::joints::Motor;
use crate::lab::Lab;
use crate::lab::presets::Start;
use crate::scene::Scene;
use crate::solver::SolverSettings;

/// The set-up format this gyrolab writes and reads; a code of another is refused.
pub const VERSION: u32 = 1;
/// The longest code read (a scene file travels whole): 1 MB.
const MAX_CODE: usize = 1 << 20;
/// The most a code inflates to: 8 MB, so a damaged or hostile code cannot fill memory.
const MAX_JSON: u64 = 8 << 20;

/// Where a scene or a lesson comes from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
enum Source {
    /// A built-in, by name, with the hash of its text.
    Builtin { name: String, hash: u64 },
    /// A file's whole text, and the path it was read from (to name it in errors).
    File { path: String, text: String },
}

/// What a set-up code holds: the scene, what differs from the scene's own settings, and
/// the lesson and its step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    scene: Source,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    start: Option<Start>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    compared: Option<Vec<Integrator>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    dt: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    steps_per_dt: Option<u32>,
    /// A single-lane scene's integrator.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    integrator: Option<Integrator>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    solver: Option<SolverSettings>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    friction: Option<f64>,
    /// Hinge motors set from the panel: (joint, motor).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    motors: Vec<(usize, Motor)>,
    /// The lesson, the step shown and the student's answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    lesson: Option<LessonAt>,
}

/// A lesson at a step, with the answers given to its questions so far (by step).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct LessonAt {
    source: Source,
    step: usize,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    answers: Vec<Option<usize>>,
}

/// A scene's source: a built-in by name (where it is this gyrolab's built-in), or the
/// text it was read from.
fn scene_source(scene: &Scene) -> Source {
    let builtin = crate::scene::scene_names().contains(&scene.origin.as_str())
        && Scene::load(&scene.origin).is_ok_and(|s| s.source_hash == scene.source_hash);
    if builtin {
        Source::Builtin {
            name: scene.origin.clone(),
            hash: scene.source_hash,
        }
    } else {
        Source::File {
            path: scene.origin.clone(),
            text: scene.source_text.to_string(),
        }
    }
}

/// A lesson's source: a built-in by name (where it is this gyrolab's built-in), or the
/// text it was read from, so that a lesson that came in a code travels on in the next.
fn lesson_source(lesson: &Lesson) -> Source {
    match super::builtin::text(&lesson.origin) {
        Some(text) if text == lesson.text => Source::Builtin {
            name: lesson.origin.clone(),
            hash: hash(text),
        },
        _ => Source::File {
            path: lesson.origin.clone(),
            text: lesson.text.clone(),
        },
    }
}

/// The lab a lesson sets up by step `at`, none of its runs taken: its own settings, then
/// each "now try" up to that step, in order, as [`Walk`] applies them. What a set-up
/// code holds is what differs from this, so that opening it replays each run with the
/// settings of its own step.
fn lesson_base(scene: &Scene, lesson: &Lesson, at: usize) -> Result<Lab, String> {
    let mut settings = lesson.clone();
    let tries: Vec<_> = (lesson.steps.iter().take(at + 1))
        .filter_map(|s| match s {
            Card::Try { set, .. } => Some(set.clone()),
            _ => None,
        })
        .collect();
    settings.set.extend(tries);
    settings.steps.clear();
    let mut base = Lab::new(scene.clone());
    Walk::start_on(settings, &mut base)?;
    Ok(base)
}

/// `now`, where it is not what the code leaves out (the scene's own, or the lesson's).
fn differs<T: PartialEq>(now: T, own: T) -> Option<T> {
    (now != own).then_some(now)
}

fn hash(text: &str) -> u64 {
    XxHash3_64::oneshot(text.as_bytes())
}

impl Setup {
    /// The set-up a lab shows, with the lesson being walked, if any: what differs from
    /// the scene's own settings, or from the lesson's at its step.
    pub fn of(lab: &Lab, walk: Option<&Walk>) -> Result<Self, String> {
        let scene = lab.scene();
        // Start conditions refused while being edited are not the run's: a code of them
        // would not open.
        lab.start().apply(scene).map_err(|e| {
            format!("the start conditions being edited are refused ({e}): correct them first")
        })?;
        let base = match walk {
            Some(w) => lesson_base(scene, &w.lesson, w.at)?,
            None => Lab::new(scene.clone()),
        };
        let lesson = walk.map(|w| {
            let mut answers = w.answers.clone();
            while answers.last() == Some(&None) {
                answers.pop();
            }
            LessonAt {
                source: lesson_source(&w.lesson),
                step: w.at,
                answers,
            }
        });
        let (run, own) = (&lab.lanes()[0], &base.lanes()[0]);
        let own_motors = base.motors();
        Ok(Self {
            scene: scene_source(scene),
            start: differs(lab.start().clone(), base.start().clone()),
            compared: differs(lab.compared().to_vec(), base.compared().to_vec()),
            dt: differs(lab.dt(), base.dt()),
            steps_per_dt: differs(lab.steps_per_dt(), base.steps_per_dt()),
            integrator: (!lab.side_by_side())
                .then(|| differs(run.integrator(), own.integrator()))
                .flatten(),
            solver: (run.world().contacts())
                .zip(own.world().contacts())
                .and_then(|(now, own)| differs(*now.settings(), *own.settings())),
            friction: differs(lab.friction(), base.friction()).flatten(),
            motors: (lab.motors().into_iter())
                .filter(|m| !own_motors.contains(m))
                .collect(),
            lesson,
        })
    }

    /// The code: `GL1-`, then the checksum and the deflated JSON in URL-safe base64.
    pub fn to_code(&self) -> String {
        let json = serde_json::to_string(self).expect("a set-up serialises");
        let mut bytes = hash(&json).to_le_bytes().to_vec();
        DeflateEncoder::new(json.as_bytes(), Compression::best())
            .read_to_end(&mut bytes)
            .expect("deflating into memory cannot fail");
        format!("GL{VERSION}-{}", BASE64URL_NOPAD.encode(&bytes))
    }

    /// Reads a code (surrounding blanks and line breaks, as a paste may add, skipped);
    /// a damaged code, or one of another gyrolab's format, gets one line saying so.
    pub fn from_code(code: &str) -> Result<Self, String> {
        let code: String = code.chars().filter(|c| !c.is_whitespace()).collect();
        if code.len() > MAX_CODE {
            return Err(format!(
                "set-up code: {} characters, more than the {MAX_CODE} a code may have",
                code.len()
            ));
        }
        let Some((version, body)) = code.strip_prefix("GL").and_then(|c| c.split_once('-')) else {
            return Err("set-up code: not a gyrolab set-up code (it starts with GL1-)".into());
        };
        match version.parse::<u32>() {
            Ok(VERSION) => {}
            Ok(v) => {
                return Err(format!(
                    "set-up code: made by another version of gyrolab (set-up format {v}; this \
                     gyrolab reads format {VERSION})"
                ));
            }
            Err(_) => {
                return Err("set-up code: not a gyrolab set-up code (it starts with GL1-)".into());
            }
        }
        let damaged = |why: &str| format!("set-up code: damaged ({why}); copy it again");
        let bytes = BASE64URL_NOPAD
            .decode(body.as_bytes())
            .map_err(|_| damaged("not base64"))?;
        let (sum, deflated) = bytes
            .split_first_chunk::<8>()
            .ok_or_else(|| damaged("too short"))?;
        let mut json = String::new();
        let mut inflate = DeflateDecoder::new(deflated);
        (&mut inflate)
            .take(MAX_JSON + 1)
            .read_to_string(&mut json)
            .map_err(|_| damaged("does not inflate"))?;
        if json.len() as u64 > MAX_JSON || hash(&json) != u64::from_le_bytes(*sum) {
            return Err(damaged("checksum"));
        }
        // A code pasted twice reads on as base64 (`GL1-` is base64 too), past where the
        // set-up's data ends: nothing may follow it.
        let after = deflated.len() as u64 - inflate.total_in();
        if after > 0 {
            return Err(damaged(&format!(
                "{after} bytes after its data, as when a code is pasted twice"
            )));
        }
        // The checksum holds, so the set-up is as a gyrolab wrote it: one this gyrolab
        // cannot read (a field it does not know) is of another version's format.
        serde_json::from_str(&json)
            .map_err(|e| format!("set-up code: made by another version of gyrolab ({e})"))
    }

    /// Opens the set-up on `lab`: its scene, or its lesson walked to the step it was at
    /// (each run with the settings of its own step, as the lesson gives them), then each
    /// setting the code holds, checked as the app's controls check it, where the code
    /// was copied. A set-up that does not open leaves `lab` as it was.
    pub fn open(&self, lab: &mut Lab) -> Result<Option<Walk>, String> {
        let mut fresh = Lab::new(self.scene()?);
        // The lanes compared when the lesson was opened, where it does not set its own:
        // the one setting a lab keeps from before a lesson.
        if let Some(compared) = &self.compared {
            (fresh.apply(Input::SetCompared(compared.to_vec())))
                .map_err(|e| format!("set-up code: {e}"))?;
        }
        let walk = match &self.lesson {
            Some(at) => {
                let mut walk = start_lesson(&mut fresh, at)?;
                walk.go_to(&mut fresh, at.step, &at.answers)
                    .map_err(|e| format!("set-up code: {e}"))?;
                Some(walk)
            }
            None => None,
        };
        self.apply(&mut fresh)
            .map_err(|e| format!("set-up code: {e}"))?;
        lab.replace_with(fresh);
        Ok(walk)
    }

    fn scene(&self) -> Result<Scene, String> {
        match &self.scene {
            Source::Builtin { name, hash } => {
                let scene = Scene::load(name).map_err(|e| format!("set-up code: {e}"))?;
                if scene.source_hash != *hash {
                    return Err(format!(
                        "set-up code: made with another version of scene '{name}'"
                    ));
                }
                Ok(scene)
            }
            Source::File { path, text } => {
                Scene::parse(path, text).map_err(|e| format!("set-up code: {e}"))
            }
        }
    }

    /// The settings, restarting ones first (a restart keeps the others), then those
    /// taken at the moment the set-up is opened at.
    fn apply(&self, lab: &mut Lab) -> Result<(), String> {
        // Compared again only where the lesson set others: each time restarts the run.
        if let Some(compared) = &self.compared
            && compared[..] != *lab.compared()
        {
            lab.apply(Input::SetCompared(compared.to_vec()))?;
        }
        if let Some(start) = &self.start {
            lab.apply(Input::SetStart(start.clone()))?;
        }
        if let Some(dt) = self.dt {
            lab.apply(Input::SetDt(dt))?;
        }
        if let Some(steps) = self.steps_per_dt {
            lab.apply(Input::SetStepsPerDt(steps))?;
        }
        if let Some(integrator) = self.integrator {
            lab.apply(Input::SwitchIntegrator(integrator))?;
        }
        if let Some(solver) = self.solver {
            lab.apply(Input::SetSolverSettings(solver))?;
        }
        if let Some(friction) = self.friction {
            lab.apply(Input::SetFriction(friction))?;
        }
        for &(joint, motor) in &self.motors {
            lab.apply(Input::SetMotor { joint, motor })?;
        }
        Ok(())
    }

    /// One line on what the set-up holds, for `gyrolab setup`.
    pub fn describe(&self) -> String {
        let name = |s: &Source| match s {
            Source::Builtin { name, .. } => name.clone(),
            Source::File { path, .. } => format!("{path} (carried in the code)"),
        };
        let mut out = format!("scene {}", name(&self.scene));
        if let Some(at) = &self.lesson {
            out += &format!(", lesson {} at step {}", name(&at.source), at.step + 1);
        }
        let changed: Vec<&str> = [
            ("start", self.start.is_some()),
            (
                "integrators",
                self.compared.is_some() || self.integrator.is_some(),
            ),
            ("dt", self.dt.is_some() || self.steps_per_dt.is_some()),
            ("solver", self.solver.is_some()),
            ("friction", self.friction.is_some()),
            ("motors", !self.motors.is_empty()),
        ]
        .into_iter()
        .filter_map(|(what, on)| on.then_some(what))
        .collect();
        if !changed.is_empty() {
            out += &format!("; changed: {}", changed.join(", "));
        }
        out
    }
}

/// The lesson, started on `lab`, which holds the set-up's scene (the code carries it,
/// where the lesson's own scene file may not be at hand); its step and answers are
/// checked.
fn start_lesson(lab: &mut Lab, at: &LessonAt) -> Result<Walk, String> {
    let lesson = lesson_of(&at.source, lab.scene())?;
    let n = lesson.steps.len();
    if at.step >= n || at.answers.len() > n {
        return Err(format!(
            "set-up code: step {} or {} answers in a lesson of {n} steps",
            at.step.saturating_add(1),
            at.answers.len()
        ));
    }
    for (k, answer) in at.answers.iter().enumerate() {
        let choices = match &lesson.steps[k] {
            Card::Question { choices, .. } => choices.len(),
            _ => 0,
        };
        if answer.is_some_and(|a| a >= choices) {
            return Err(format!(
                "set-up code: an answer to step {} that is not one of its choices",
                k + 1
            ));
        }
    }
    // A built-in scene named by the lesson must be the set-up's own (a scene file it
    // names is the one the code carries: the path may be another file here, or none).
    if crate::scene::scene_names().contains(&lesson.scene.as_str())
        && let Ok(own) = Scene::load(&lesson.scene)
        && own.source_hash != lab.scene().source_hash
    {
        return Err(format!(
            "set-up code: its lesson is of scene '{}', not of '{}'",
            lesson.scene,
            lab.scene().name
        ));
    }
    Walk::start_on(lesson, lab).map_err(|e| format!("set-up code: {e}"))
}

/// The lesson a set-up names, checked against `scene`, the set-up's own.
fn lesson_of(source: &Source, scene: &Scene) -> Result<Lesson, String> {
    match source {
        Source::Builtin { name, hash: h } => {
            let text = super::builtin::text(name)
                .ok_or_else(|| format!("set-up code: no built-in lesson '{name}'"))?;
            if hash(text) != *h {
                return Err(format!(
                    "set-up code: made with another version of lesson '{name}'"
                ));
            }
            super::load(name).map_err(|e| format!("set-up code: {e}"))
        }
        Source::File { path, text } => {
            (Lesson::parse_on(path, text, Some(scene))).map_err(|e| format!("set-up code: {e}"))
        }
    }
}
