//! The runs by which a build is compared with another (wasm32 in Node against x86-64,
//! wasm/tests/node.rs): each run's digest is text that two builds give equal only when every
//! pose, velocity, momentum and energy of every lane and the ghost, at every physics
//! step, and every lesson readout, has the same bits. A checkpoint line a simulated
//! second says where two builds first part.

use std::hash::Hasher;

use gyrolab_lab::lab::{Input, Lab};
use gyrolab_lab::lesson::run::{Seen, walk_watched};
use gyrolab_lab::lesson::setup::Setup;
use gyrolab_lab::lesson::{self, Card};
use gyrolab_lab::scene::{Scene, scene_names};
use gyrolab_lab::solver::JointSolver;
use gyrolab_lab::world::World;
use twox_hash::XxHash3_64;

/// The comparison's runs, by name; `setup:CODE` (a set-up code opened and walked on for
/// five seconds, or to its lesson's end) and `steps:SCENE:N` (N steps, timed, of the
/// step alone) are more.
pub const RUNS: [&str; 5] = [
    "dzhanibekov",
    "pile",
    "chain-direct",
    "energy-drift",
    "load-all",
];

/// The digest of run `name`.
pub fn run(name: &str) -> Result<String, String> {
    match name {
        // Four lanes and the exact ghost, 30 s.
        "dzhanibekov" => scene_run(lab_of("dzhanibekov")?, 30.0),
        // 1,000 boxes, 3 s.
        "pile" => scene_run(lab_of("pile")?, 3.0),
        // The chain with the direct joint solve, 5 s.
        "chain-direct" => {
            let mut lab = lab_of("chain")?;
            let contacts = lab.world().contacts().ok_or("chain has no contacts")?;
            let mut settings = *contacts.settings();
            settings.joint_solver = JointSolver::Direct;
            lab.apply(Input::SetSolverSettings(settings))?;
            scene_run(lab, 5.0)
        }
        "energy-drift" => lesson_run(&lesson::load("energy-drift").map_err(|e| e.to_string())?),
        "load-all" => Ok(load_all()),
        _ => {
            if let Some(code) = name.strip_prefix("setup:") {
                setup_run(code)
            } else if let Some(rest) = name.strip_prefix("steps:") {
                steps_run(rest)
            } else {
                Err(format!("no run named {name}: {}", RUNS.join(", ")))
            }
        }
    }
}

fn lab_of(name: &str) -> Result<Lab, String> {
    Ok(Lab::new(Scene::load(name).map_err(|e| e.to_string())?))
}

/// A running hash of states' bits, and the lines written so far.
#[derive(Default)]
struct Digest {
    hash: XxHash3_64,
    lines: String,
}

impl Digest {
    fn add(&mut self, x: f64) {
        self.hash.write_u64(x.to_bits());
    }

    /// Every body's pose, velocity, angular momentum and energy.
    fn add_world(&mut self, world: &World) {
        self.add(world.time());
        for b in world.bodies() {
            let s = &b.state;
            for x in [s.position, s.velocity, s.angular_momentum] {
                x.to_array().into_iter().for_each(|v| self.add(v));
            }
            s.orientation
                .to_array()
                .into_iter()
                .for_each(|v| self.add(v));
            self.add(b.energy(world.gravity()));
        }
    }

    fn add_lab(&mut self, lab: &Lab) {
        for run in lab.lanes().iter().chain(lab.ghost()) {
            self.add_world(run.world());
        }
    }

    fn checkpoint(&mut self, what: &str) {
        self.lines += &format!("{what} {:016x}\n", self.hash.finish());
    }
}

/// Steps `lab` for `seconds`, every state into the digest.
fn scene_run(mut lab: Lab, seconds: f64) -> Result<String, String> {
    let mut digest = Digest::default();
    digest.add_lab(&lab);
    let steps = (seconds / lab.dt()).round() as u64;
    let per_second = (1.0 / lab.dt()).round().max(1.0) as u64;
    for k in 1..=steps {
        if !lab.step() {
            return Err(format!("the lab stopped at step {k}"));
        }
        digest.add_lab(&lab);
        if k % per_second == 0 || k == steps {
            digest.checkpoint(&format!("t={:?}", lab.time()));
        }
    }
    for run in lab.lanes().iter().chain(lab.ghost()) {
        let world = run.world();
        digest.lines += &format!("{} energy {:?}\n", run.integrator(), world.energy());
        if let Some(b) = world.bodies().first() {
            digest.lines += &format!("{:?}\n", b.state);
        }
    }
    Ok(digest.lines)
}

/// `SCENE:N`: N physics steps of a scene and nothing else, to time the step itself; its
/// digest is the last state only.
fn steps_run(what: &str) -> Result<String, String> {
    let (scene, n) = what.split_once(':').ok_or("steps:SCENE:N")?;
    let n: u32 = n.parse().map_err(|e| format!("steps: {e}"))?;
    let mut lab = lab_of(scene)?;
    for k in 1..=n {
        if !lab.step() {
            return Err(format!("the lab stopped at step {k}"));
        }
    }
    let mut digest = Digest::default();
    digest.add_lab(&lab);
    digest.checkpoint(&format!("after {n} steps"));
    Ok(digest.lines)
}

/// A lesson walked to its end as `gyrolab lesson` walks it: every step's states, then
/// every readout as measured (Rust's `{:?}` of a float reads back to its bits).
fn lesson_run(lesson: &lesson::Lesson) -> Result<String, String> {
    let mut digest = Digest::default();
    let walk = walk_watched(lesson, |seen, walk, lab| {
        digest.add_lab(lab);
        if seen != Seen::Stepped {
            digest.checkpoint(&format!("step {} {seen:?}", walk.at));
        }
    })?;
    for (k, m) in walk.measured.iter().enumerate() {
        if let Some(m) = m {
            digest.lines += &format!("readout {k}: {m:?}\n");
        }
    }
    Ok(digest.lines)
}

/// A set-up code opened as the app opens it, then walked: a lesson's from the step it
/// names to the end (answering right), a scene's for five seconds.
fn setup_run(code: &str) -> Result<String, String> {
    let mut lab = lab_of(gyrolab_lab::scene::DEFAULT_SCENE)?;
    let walk = Setup::from_code(code)?.open(&mut lab)?;
    let Some(mut walk) = walk else {
        return scene_run(lab, 5.0);
    };
    let mut digest = Digest::default();
    while let Some(step) = walk.card().cloned() {
        digest.add_lab(&lab);
        match step {
            Card::Question { answer, .. } => walk.answer(answer),
            Card::Run { until, event } => {
                walk.run_out_watched(&mut lab, until, event.as_ref(), &mut |lab| {
                    digest.add_lab(lab)
                })?
            }
            _ => {}
        }
        digest.checkpoint(&format!("step {}", walk.at));
        let at = walk.at;
        walk.next(&mut lab)?;
        if walk.at == at {
            break;
        }
    }
    for (k, m) in walk.measured.iter().enumerate() {
        if let Some(m) = m {
            digest.lines += &format!("readout {k}: {m:?}\n");
        }
    }
    Ok(digest.lines)
}

/// The set-up code of lesson `name` walked (answering right) to its first "now try".
pub fn code_at_first_try(name: &str) -> Result<String, String> {
    let lesson = lesson::load(name).map_err(|e| e.to_string())?;
    let mut lab = Lab::new(lesson.scene().map_err(|e| e.to_string())?);
    let mut walk = gyrolab_lab::lesson::walk::Walk::start(lesson, &mut lab)?;
    loop {
        match walk.card().cloned() {
            None => return Err(format!("{name} has no \"now try\"")),
            Some(Card::Try { .. }) => return Setup::of(&lab, Some(&walk)).map(|s| s.to_code()),
            Some(Card::Question { answer, .. }) => walk.answer(answer),
            Some(Card::Run { until, event }) => walk.run_out(&mut lab, until, event.as_ref())?,
            Some(_) => {}
        }
        let at = walk.at;
        walk.next(&mut lab)?;
        if walk.at == at {
            return Err(format!(
                "{name} stops at step {} before a \"now try\"",
                at + 1
            ));
        }
    }
}

/// Every shipped scene and lesson loaded, and a lab made of each: one line each.
fn load_all() -> String {
    let mut out = String::new();
    for name in scene_names() {
        let made = Scene::load(name).map(Lab::new);
        out += &format!(
            "scene {name}: {}\n",
            made.map_or_else(|e| e.to_string(), |l| l.world().bodies().len().to_string())
        );
    }
    for name in lesson::lesson_names() {
        let made = lesson::load(name).map_err(|e| e.to_string()).and_then(|l| {
            let mut lab = Lab::new(l.scene().map_err(|e| e.to_string())?);
            gyrolab_lab::lesson::walk::Walk::start(l, &mut lab).map(|w| w.lesson.steps.len())
        });
        out += &format!("lesson {name}: {made:?}\n");
    }
    out
}
