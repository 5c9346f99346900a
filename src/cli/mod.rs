//! The headless command line. Scripts depend on it: names, flags and columns are stable.

mod args;
mod ask;
mod at_step;
pub mod compare;
mod lessons;
mod output;
mod simulate;
mod state;
mod sweep;
mod web;

use std::fmt;
use std::str::FromStr;

use clap::{Args, Parser, Subcommand, ValueEnum};
use glam::{DQuat, DVec3};

use crate::body::BodyState;
use crate::body::inertia::Inertia;
use crate::integrators::{Integrator, NAME_WIDTH};
use crate::scene::{self, DEFAULT_SCENE, Scene, ranges};
use crate::world::World;

pub use crate::lab::records::{CSV_HEADER, Record};

#[derive(Debug, Parser)]
#[command(
    name = "gyrolab",
    version,
    about = "A rigid-body sandbox that shows why rotation is hard"
)]
pub struct Cli {
    /// Scene to open in the app (a built-in name or a .ron file).
    #[arg(long, default_value = DEFAULT_SCENE)]
    pub scene: String,
    /// Render, save a PNG of the window (UI included) and exit.
    #[arg(long, value_name = "FILE.png")]
    pub screenshot: Option<std::path::PathBuf>,
    /// Frames to render before the screenshot.
    #[arg(long, default_value_t = 90, requires = "screenshot", value_parser = clap::value_parser!(u32).range(1..))]
    pub frames: u32,
    /// After the frames, pause and show the moment S seconds back on the timeline (at
    /// most back to the recording's start), then save the screenshot.
    #[arg(long, value_name = "S", requires = "screenshot", allow_hyphen_values = true, value_parser = args::duration)]
    pub seek_back: Option<f64>,
    /// Open the app on a lesson (a built-in name or a lesson file), at its first step.
    #[arg(long, value_name = "NAME|FILE", conflicts_with = "setup")]
    pub lesson: Option<String>,
    /// Record a clip of the view into this new directory, as numbered PNG frames, or,
    /// named FILE.gif, into one looping animated GIF, then exit: the run is simulated to
    /// --to, then each frame's moment shown and saved.
    #[arg(
        long,
        value_name = "DIR|FILE.gif",
        conflicts_with = "screenshot",
        requires = "to"
    )]
    pub clip: Option<std::path::PathBuf>,
    /// The clip's first moment, s.
    #[arg(long, value_name = "S", default_value_t = 0.0, requires = "clip", allow_hyphen_values = true, value_parser = args::time)]
    pub from: f64,
    /// The clip's last moment, s.
    #[arg(long, value_name = "S", requires = "clip", allow_hyphen_values = true, value_parser = args::time)]
    pub to: Option<f64>,
    /// The clip's frames per second of simulated time.
    #[arg(long, value_name = "N", default_value_t = 20.0, requires = "clip", allow_hyphen_values = true, value_parser = args::time)]
    pub fps: f64,
    /// Open the app on a set-up code (the app's "Copy set-up"): its scene, settings and
    /// lesson step.
    #[arg(long, value_name = "CODE", allow_hyphen_values = true)]
    pub setup: Option<String>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List scenes: name and a one-line description.
    Scenes,
    /// Describe one scene: its bodies (shapes, sizes, masses, where they start), joints,
    /// moving frames, contacts (each body's friction against each plane) and readout.
    Scene {
        /// A built-in scene's name or a scene file's path.
        scene: String,
    },
    /// List integrators: name, order and what each conserves.
    Integrators,
    /// Run a scene headless and write its trajectory.
    Simulate(SimulateArgs),
    /// Run a scene with several integrators and tabulate their errors.
    Compare(CompareArgs),
    /// List lessons: name, scene and title.
    Lessons,
    /// Take a lesson headless: each readout measured beside the value the lesson states
    /// (exit 1 when one disagrees).
    Lesson {
        /// A built-in lesson's name or a lesson file's path.
        lesson: String,
        /// Also write a row per question answered and per readout taken to this CSV file,
        /// only when the lesson ran. Columns: lesson, step, kind, time, text, answer,
        /// right, quantity, unit, measured, stated, tolerance, tolerance_is, stated_is,
        /// theory_value, theory, agrees (docs/command-line.md says what each holds).
        #[arg(long, value_name = "FILE.csv")]
        out: Option<std::path::PathBuf>,
        /// Take the lesson in the terminal: each question asked, its answer (a letter)
        /// read from standard input before the run after it, then the readouts and
        /// explanations, and at the end your answers and the lesson's set-up code.
        #[arg(long)]
        ask: bool,
    },
    /// Read a set-up code (the app's "Copy set-up") and say what it opens, without a
    /// window.
    Setup {
        /// The code, GL1-... (one that starts with '-' is a bad code, not a flag: the
        /// fuzz suite's mutated codes met clap's flag error instead of the code's).
        #[arg(allow_hyphen_values = true)]
        code: String,
    },
    /// Make a set-up code: a scene as it ships, or a lesson at a step with answers given
    /// (for a worksheet, or to open a lesson part-way).
    Share {
        /// A built-in scene's name or a scene file's path.
        #[arg(conflicts_with = "lesson")]
        scene: Option<String>,
        /// A built-in lesson's name or a lesson file's path.
        #[arg(long, value_name = "NAME|FILE")]
        lesson: Option<String>,
        /// The lesson's step to open at, from 1; the runs before it are taken.
        #[arg(long, value_name = "K", default_value_t = 1, requires = "lesson", value_parser = clap::value_parser!(u32).range(1..=10_000))]
        step: u32,
        /// Answers to the lesson's questions in their order, each a choice's letter (a,
        /// b, ..., as `lesson --ask` and `setup` show them) or its index from 0 (as lesson
        /// files number them).
        #[arg(
            long,
            value_name = "A,B,...",
            value_delimiter = ',',
            requires = "lesson",
            value_parser = args::choice
        )]
        answers: Vec<usize>,
    },
    /// Write the lab as one web page that opens in any browser with no network: live, every
    /// built-in scene and lesson computed in the page by the lab's wasm module, opening at
    /// the first NAME, with the scene and lesson files named added to its menus. With
    /// --recorded: one lesson or scene, its runs recorded here and played back in 3D with
    /// the dock's plots, a lesson's steps walked as the app walks them (at most 5 MB; exit 1
    /// when a lesson's readout disagrees with what it states, as `lesson`).
    Web {
        /// Built-in lessons' or scenes' names, or .ron files: a lesson where one is named
        /// so.
        names: Vec<String>,
        /// The page to write, FILE.html; written only once every run is recorded.
        #[arg(long, value_name = "FILE.html")]
        out: std::path::PathBuf,
        /// Take the scene of a name, not the lesson.
        #[arg(long)]
        scene: bool,
        /// The recorded page of one NAME, which needs no wasm module.
        #[arg(long)]
        recorded: bool,
        /// A recorded scene's run, s (default: the scene's own duration, up to 30 s; at
        /// most 300).
        #[arg(long, value_name = "S", allow_hyphen_values = true, value_parser = args::duration, requires = "recorded")]
        duration: Option<f64>,
        /// The lab's wasm module for the live page (default: GYROLAB_WASM, else where
        /// scripts/build-wasm writes it beside this program's target directory).
        #[arg(long, value_name = "FILE.wasm", conflicts_with = "recorded")]
        wasm: Option<std::path::PathBuf>,
    },
}

/// How a command that ran went: done, or a lesson whose readouts disagree with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Done,
    Disagrees,
}

/// Changes to a scene shared by `simulate` and `compare`.
#[derive(Debug, Args)]
pub struct SceneArgs {
    /// Built-in scene name or path to a .ron file (default: dzhanibekov, or with
    /// `simulate --state` the file's scene).
    pub scene: Option<String>,
    /// Time step in seconds (default: the scene's).
    #[arg(long, allow_hyphen_values = true, value_parser = args::dt)]
    pub dt: Option<f64>,
    /// Principal moments I1,I2,I3 of the first body along its body x, y, z axes.
    #[arg(long, value_name = "I1,I2,I3", allow_hyphen_values = true)]
    pub inertia: Option<Vec3Arg>,
    /// Initial angular velocity X,Y,Z of the first body in its body axes (orientation
    /// then starts at the identity).
    #[arg(long, value_name = "X,Y,Z", allow_hyphen_values = true)]
    pub omega: Option<Vec3Arg>,
    /// Size of the scene's generated bodies: a pyramid's rows, a stack's or a pile's
    /// box count, the number of dominoes.
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = args::rows)]
    pub rows: Option<usize>,
    /// Contact solver, `pgs` or `soft` (default: the scene's).
    #[arg(long)]
    pub solver: Option<String>,
}

#[derive(Debug, Args)]
pub struct SimulateArgs {
    #[command(flatten)]
    pub scene: SceneArgs,
    /// Integrator name (default: the scene's); see `gyrolab integrators`.
    #[arg(long)]
    pub integrator: Option<String>,
    /// Simulated time in seconds (default: the scene's).
    #[arg(long, conflicts_with = "steps", allow_hyphen_values = true, value_parser = args::duration)]
    pub duration: Option<f64>,
    /// Number of steps instead of a duration.
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = args::steps)]
    pub steps: Option<u64>,
    /// Write every N-th step (the first and the last are always written).
    #[arg(long, value_name = "N", default_value_t = 1, allow_hyphen_values = true, value_parser = args::every)]
    pub every: u64,
    #[arg(long, value_enum, default_value_t = Format::Csv)]
    pub format: Format,
    /// Output file (default: standard output). Written only if the run succeeds.
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
    /// Go on from a state file (written by --save-state or the app's "Save moment"); the
    /// scene comes from the file.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["inertia", "omega", "rows", "solver"])]
    pub state: Option<std::path::PathBuf>,
    /// Run a lesson as the student has it at --step: its scene set up as the lesson is
    /// there (dt, integrators, friction, spin, solver), from t = 0, for the run of the
    /// step's part; every lane is written (the integrator column tells them apart).
    #[arg(long, value_name = "NAME|FILE", conflicts_with_all = LAB_CONFLICTS)]
    pub lesson: Option<String>,
    /// The lesson's step, from 1 (as `share --step` counts).
    #[arg(long, value_name = "K", default_value_t = 1, requires = "lesson", value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub step: u32,
    /// Run what a set-up code (the app's "Copy set-up") opens, from t = 0, as --lesson
    /// does: its scene and settings, or its lesson at its step.
    #[arg(long, value_name = "CODE", allow_hyphen_values = true, conflicts_with_all = LAB_CONFLICTS, conflicts_with = "lesson")]
    pub setup: Option<String>,
    /// Write the full state at the end of the run to FILE, if the run succeeds.
    #[arg(long, value_name = "FILE")]
    pub save_state: Option<std::path::PathBuf>,
}

/// What a lesson or a set-up code sets itself, so `simulate` refuses it beside them.
const LAB_CONFLICTS: [&str; 9] = [
    "scene",
    "state",
    "dt",
    "inertia",
    "omega",
    "rows",
    "solver",
    "integrator",
    "save_state",
];

#[derive(Debug, Args)]
pub struct CompareArgs {
    #[command(flatten)]
    pub scene: SceneArgs,
    /// Comma-separated integrator names (default: all that apply to the scene).
    #[arg(long, value_delimiter = ',')]
    pub integrators: Option<Vec<String>>,
    /// Simulated time in seconds (default: the scene's).
    #[arg(long, allow_hyphen_values = true, value_parser = args::duration)]
    pub duration: Option<f64>,
    #[arg(long, value_enum, default_value_t = TableFormat::Table)]
    pub format: TableFormat,
    /// Work-precision sweep instead: error at the end (--duration, default the scene's
    /// up to 10 s) against cost, for step sizes 8·dt down to dt/8, as CSV.
    #[arg(long)]
    pub sweep: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Csv,
    Jsonl,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TableFormat {
    Table,
    Csv,
}

/// Three comma-separated numbers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Vec3Arg(pub DVec3);

impl FromStr for Vec3Arg {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let parts: Vec<&str> = s.split(',').map(str::trim).collect();
        let numbers: Result<Vec<f64>, _> = parts.iter().map(|p| p.parse::<f64>()).collect();
        match numbers {
            Ok(n) if n.len() == 3 && n.iter().all(|x| x.is_finite()) => {
                Ok(Self(DVec3::new(n[0], n[1], n[2])))
            }
            _ => Err(format!(
                "expected three finite comma-separated numbers like 1,2,3.5, got '{s}'"
            )),
        }
    }
}

/// An error for the user: one line on stderr, exit code 2.
#[derive(Debug)]
pub struct CliError(pub String);

/// Shown as one line: a control character in the text (a name in a scene file may hold a
/// line break) is written escaped, as `\n`.
impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        for c in self.0.chars() {
            if c.is_control() {
                write!(f, "{}", c.escape_default())?;
            } else {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

impl<E: std::error::Error> From<E> for CliError {
    fn from(e: E) -> Self {
        Self(e.to_string())
    }
}

/// The scene with the command line's overrides applied, and its time step.
pub(crate) fn prepare(args: &SceneArgs) -> Result<(Scene, World, f64), CliError> {
    let mut scene = Scene::load(args.scene.as_deref().unwrap_or(DEFAULT_SCENE))?;
    if let Some(n) = args.rows {
        scene
            .set_generated_size(n)
            .map_err(|m| CliError(format!("--rows: {m}")))?;
    }
    // Both are in range: the flag's by its parser, the scene's by the scene's validation.
    let dt = args.dt.unwrap_or(scene.dt);
    let mut world = scene.build();
    if let Some(name) = &args.solver {
        let solver = name
            .parse()
            .map_err(|m| CliError(format!("--solver: {m}")))?;
        let Some(contacts) = world.contacts_mut() else {
            return Err(CliError(format!(
                "--solver: scene '{}' has no contacts to solve",
                scene.name
            )));
        };
        contacts.set_solver(solver);
    }
    let first = &mut world.bodies_mut()[0];
    if let Some(Vec3Arg(principal)) = args.inertia {
        let omega = first.state.body_omega(&first.props);
        for (k, m) in principal.to_array().into_iter().enumerate() {
            ranges::INERTIA
                .check(format!("I{}", k + 1), m)
                .map_err(|e| CliError(format!("--inertia: {e}")))?;
        }
        first.props.inertia =
            Inertia::new(principal).map_err(|e| CliError(format!("--inertia: {e}")))?;
        first.state = BodyState {
            angular_momentum: first.state.orientation * (principal * omega),
            ..first.state
        };
    }
    if let Some(Vec3Arg(omega)) = args.omega {
        ranges::SPIN
            .check_each("", omega)
            .map_err(|e| CliError(format!("--omega: {e}")))?;
        first.state.orientation = DQuat::IDENTITY;
        first.state.angular_momentum = first.props.inertia.principal() * omega;
    }
    Ok((scene, world, dt))
}

pub(crate) fn parse_integrator(name: &str, world: &World) -> Result<Integrator, CliError> {
    let integrator: Integrator = name.parse()?;
    if integrator == Integrator::Analytic && !world.analytic_applies() {
        return Err(CliError(format!(
            "integrator 'analytic' is exact only for a single torque-free body in the world; this scene has {} bodies and {} moving frames",
            world.bodies().len(),
            world.frames().len()
        )));
    }
    Ok(integrator)
}

/// Steps needed to cover `duration` (positive and finite) with steps of `dt`, bounded so a
/// typo cannot hang.
pub(crate) fn step_count(duration: f64, dt: f64) -> Result<u64, CliError> {
    let n = (duration / dt).round().max(1.0);
    if n > MAX_STEPS as f64 {
        return Err(CliError(format!(
            "--duration: {duration} s at dt = {dt} s is {n:e} steps; at most {MAX_STEPS} are allowed"
        )));
    }
    Ok(n as u64)
}

/// The most steps of one run, given by `--steps` or by `--duration` and the step: a run
/// of minutes at the slowest, so a typo cannot hang the program.
pub const MAX_STEPS: u64 = 100_000_000;

/// An integrator's order as listed: a number, `exact` for the torque-free solution, or
/// `none` for a method of another equation, which has no order against the true motion.
pub(crate) fn listed_order(i: Integrator) -> String {
    let info = i.info();
    match (info.order, info.other_equation) {
        (0, _) => "exact".into(),
        (_, Some(_)) => "none".into(),
        (order, None) => order.to_string(),
    }
}

/// Writes a command's output to stdout. A failed write is an I/O error like any other
/// (exit 2 with one line); a reader that closed the pipe ends the program quietly.
pub fn emit(text: &str) -> Result<(), CliError> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(CliError(format!("cannot write to stdout: {e}")))
        }
        _ => Ok(()),
    }
}

/// Runs a headless command, writing to stdout.
pub fn run(command: Command) -> Result<Verdict, CliError> {
    match command {
        Command::Scenes => scenes()?,
        Command::Scene { scene } => emit(&Scene::load(&scene)?.describe())?,
        Command::Integrators => integrators()?,
        Command::Simulate(args) => simulate::run(&args)?,
        Command::Compare(args) if args.sweep => sweep::run(&args)?,
        Command::Compare(args) => compare::run(&args)?,
        Command::Lessons => lessons::list()?,
        Command::Lesson { lesson, out, ask } => {
            let agrees = match ask {
                true => ask::ask(&lesson, out.as_deref())?,
                false => lessons::take(&lesson, out.as_deref())?,
            };
            if !agrees {
                return Ok(Verdict::Disagrees);
            }
        }
        Command::Setup { code } => lessons::setup(&code)?,
        Command::Share {
            scene,
            lesson,
            step,
            answers,
        } => lessons::share(scene.as_deref(), lesson.as_deref(), step as usize, &answers)?,
        Command::Web {
            names,
            out,
            scene,
            recorded,
            duration,
            wasm,
        } => match (recorded, names.as_slice()) {
            (true, [name]) => return web::run(name, &out, scene, duration),
            (true, _) => return Err(CliError("--recorded takes one lesson or scene".into())),
            (false, names) => web::live(names, scene, &out, wasm.as_deref())?,
        },
    }
    Ok(Verdict::Done)
}

/// `gyrolab scenes`: each built-in scene and its one line.
fn scenes() -> Result<(), CliError> {
    use std::fmt::Write;
    let mut out = String::new();
    for s in scene::builtin_scenes() {
        let _ = writeln!(out, "{:<16} {}", s.name, s.description);
    }
    emit(&out)
}

/// `gyrolab integrators`: each integrator, its order and what it conserves.
fn integrators() -> Result<(), CliError> {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<w$} {:<6} {:<58} conserves",
        "name",
        "order",
        "summary",
        w = NAME_WIDTH
    );
    for i in Integrator::ALL {
        let info = i.info();
        let _ = writeln!(
            out,
            "{:<w$} {:<6} {:<58} {}",
            info.name,
            listed_order(i),
            info.summary,
            info.conserves,
            w = NAME_WIDTH
        );
    }
    emit(&out)
}

#[cfg(test)]
mod tests {
    use super::CliError;

    /// A name with a line break (or any control character) cannot split the one line.
    #[test]
    fn an_error_is_one_line_whatever_it_quotes() {
        let e = CliError("unknown body 'two\nlines\t\u{7}' (ω)".into()).to_string();
        assert_eq!(e, "unknown body 'two\\nlines\\t\\u{7}' (ω)");
        assert_eq!(e.lines().count(), 1);
    }
}
