//! Clips: the view from one time of the timeline to another, as a numbered PNG sequence
//! (`frame-0001.png`, ...) or, for a path named `.gif`, one animated GIF
//! ([`crate::gif_clip`]), for a teacher's slides. `--clip DIR|FILE.gif --from S --to S
//! [--fps N]` records one and exits; the timeline strip's *record clip* and *record GIF*
//! record its recorded range.
//!
//! The run is simulated on to `to` first (paused, as fast as it goes), then each frame's
//! moment is sought on the timeline, drawn, and captured. The frames are written into a
//! hidden directory beside `DIR`, renamed to `DIR` only when every frame is on disk (or
//! encoded into the GIF, which appears whole), and removed otherwise: a clip that fails
//! leaves nothing.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};

use super::physics::Sim;
use super::view::Message;
use crate::gif_clip::{self, is_gif};
use crate::progress::Progress;

/// Frames drawn after a seek before the capture: the panels, plots and meshes show the
/// moment sought from the next frame on (as `--screenshot --seek-back` waits).
const SETTLE: u32 = 3;
/// Frames the app draws before the first capture: its meshes and panels appear over the
/// first few.
const WARM_UP: u32 = 30;
/// The longest a clip may reach on the timeline, s, and the most frames it may have.
pub const MAX_TIME: f64 = 600.0;
pub const MAX_FRAMES: usize = 10_000;
/// Time simulated on per app frame while reaching `to`: the window stays responsive.
const BUDGET: Duration = Duration::from_millis(50);

/// A clip asked for.
#[derive(Clone, Debug)]
pub struct ClipRequest {
    pub dir: PathBuf,
    pub from: f64,
    pub to: f64,
    pub fps: f64,
    /// Exit when done (the command line), with code 1 if the clip failed.
    pub exit: bool,
}

impl ClipRequest {
    /// The number of frames: one at `from` and one every 1/fps up to `to`.
    pub fn frames(&self) -> usize {
        ((self.to - self.from) * self.fps + 1e-9).floor() as usize + 1
    }

    /// Why the request cannot be recorded, if it cannot: one line naming the flag and the
    /// accepted range.
    pub fn check(&self) -> Result<(), String> {
        // The command line simulates on to `to`: no further than the longest clip.
        let ordered = 0.0 <= self.from && self.from < self.to;
        let reachable = !self.exit || self.to <= MAX_TIME;
        if !(ordered && self.to - self.from <= MAX_TIME && reachable) {
            return Err(format!(
                "--from {} --to {}: need 0 <= from < to <= {MAX_TIME} s",
                self.from, self.to
            ));
        }
        if !(1.0..=60.0).contains(&self.fps) {
            return Err(format!("--fps {}: must be from 1 to 60", self.fps));
        }
        if self.frames() > MAX_FRAMES {
            return Err(format!(
                "--clip: {} frames, more than {MAX_FRAMES}; shorten the range or lower --fps",
                self.frames()
            ));
        }
        if self.dir.exists() {
            let new = if is_gif(&self.dir) {
                "file"
            } else {
                "directory"
            };
            return Err(format!(
                "--clip: {} already exists; a clip is written into a new {new}",
                self.dir.display()
            ));
        }
        match parent(&self.dir) {
            p if p.is_dir() => Ok(()),
            p => Err(format!(
                "--clip: the directory {} to write {} in is not there",
                p.display(),
                self.dir.display()
            )),
        }
    }
}

fn parent(dir: &Path) -> PathBuf {
    match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Where a clip being recorded stands.
enum ClipPhase {
    /// Simulating on to the clip's end.
    Reaching,
    /// Seeking frame `k` and waiting for it to be drawn until the frame count given.
    Settling { k: usize, until: u32 },
    /// Frame `k` asked for: waiting for it to be written.
    Capturing { k: usize },
}

struct Job {
    request: ClipRequest,
    partial: tempfile::TempDir,
    phase: ClipPhase,
    written: Arc<AtomicUsize>,
    progress: Progress,
}

/// The clip being recorded, if any; a new request is taken when none is.
#[derive(Resource, Default)]
pub struct Clip {
    job: Option<Job>,
    asked: Option<ClipRequest>,
}

impl Clip {
    /// Asks for a clip; refused (with why) while another is being recorded.
    pub fn ask(&mut self, request: ClipRequest) -> Result<(), String> {
        if self.job.is_some() {
            return Err("a clip is being recorded".into());
        }
        request.check()?;
        self.asked = Some(request);
        Ok(())
    }

    /// How far the clip being recorded has come, for the strip.
    pub fn status(&self) -> Option<String> {
        let job = self.job.as_ref()?;
        let n = job.request.frames();
        Some(match job.phase {
            ClipPhase::Reaching => format!("clip: simulating to t = {} s", job.request.to),
            ClipPhase::Settling { k, .. } | ClipPhase::Capturing { k } => {
                format!("clip: frame {} of {n}", k + 1)
            }
        })
    }
}

pub struct ClipPlugin {
    pub request: Option<ClipRequest>,
}

impl Plugin for ClipPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(Clip {
            job: None,
            asked: self.request.clone(),
        })
        .add_systems(Update, record);
    }
}

fn record(
    mut commands: Commands,
    frames: Res<bevy::diagnostic::FrameCount>,
    mut clip: ResMut<Clip>,
    mut sim: ResMut<Sim>,
    mut time: ResMut<Time<Virtual>>,
    mut message: ResMut<Message>,
    mut exit: MessageWriter<AppExit>,
) {
    if let Some(request) = clip.asked.take() {
        let exits = request.exit;
        match begin(request) {
            Ok(job) => clip.job = Some(job),
            Err(e) => return end(Err(e), exits, &mut message, &mut exit),
        }
    }
    let Some(job) = &mut clip.job else {
        return;
    };
    time.pause();
    let outcome = match advance(job, &mut commands, frames.0, &mut sim) {
        Ok(false) => return,
        Ok(true) => Ok(()),
        Err(e) => Err(e),
    };
    let job = clip.job.take().expect("the job advanced");
    let exits = job.request.exit;
    // On an error the job is dropped here, and its hidden directory with it.
    end(
        outcome.and_then(|()| finish(job)),
        exits,
        &mut message,
        &mut exit,
    );
}

/// Says how the clip went (on the terminal too), and exits if asked to: 1 on failure.
fn end(
    result: Result<String, String>,
    exits: bool,
    message: &mut Message,
    exit: &mut MessageWriter<AppExit>,
) {
    match &result {
        Ok(line) => println!("{line}"),
        Err(e) => eprintln!("error: {e}"),
    }
    if exits {
        exit.write(match result {
            Ok(_) => AppExit::Success,
            Err(_) => AppExit::from_code(1),
        });
    }
    message.set(result);
}

/// The hidden directory beside the clip's, and the bar.
fn begin(request: ClipRequest) -> Result<Job, String> {
    request.check()?;
    let partial = tempfile::Builder::new()
        .prefix(".gyrolab-clip-")
        .tempdir_in(parent(&request.dir))
        .map_err(|e| format!("--clip: cannot write beside {}: {e}", request.dir.display()))?;
    let progress = Progress::new(request.frames() as u64, "clip");
    Ok(Job {
        request,
        partial,
        phase: ClipPhase::Reaching,
        written: Arc::new(AtomicUsize::new(0)),
        progress,
    })
}

/// Frame `k`'s file in the hidden directory.
fn frame_path(job: &Job, k: usize) -> PathBuf {
    job.partial.path().join(format!("frame-{:04}.png", k + 1))
}

/// Shows frame `k`'s moment; it is drawn from the next frame on. Refused where the
/// timeline no longer holds that moment within half a step (its history thinned past
/// its memory budget, or off): the clip would repeat frames.
fn seek(sim: &mut Sim, request: &ClipRequest, k: usize, frame: u32) -> Result<ClipPhase, String> {
    let wanted = request.from + k as f64 / request.fps;
    sim.seek_time(wanted);
    if (sim.time() - wanted).abs() > 0.5 * sim.dt() {
        return Err(format!(
            "clip: the timeline no longer holds t = {wanted} s (its history keeps fewer \
             moments than the clip needs); record a shorter range"
        ));
    }
    Ok(ClipPhase::Settling {
        k,
        until: (frame + SETTLE).max(WARM_UP),
    })
}

/// One app frame of the clip: whether every frame is written.
fn advance(
    job: &mut Job,
    commands: &mut Commands,
    frame: u32,
    sim: &mut Sim,
) -> Result<bool, String> {
    match job.phase {
        ClipPhase::Reaching => {
            let start = Instant::now();
            while sim.time() < job.request.to - 0.5 * sim.dt() {
                if let Some(e) = &sim.lanes()[0].error() {
                    return Err(format!(
                        "clip: the run stopped at t = {:.4} s: {e}",
                        sim.time()
                    ));
                }
                if start.elapsed() > BUDGET {
                    return Ok(false);
                }
                if !sim.step() {
                    return Err(format!(
                        "clip: the lesson holds the run at t = {:.4} s, before the clip's end",
                        sim.time()
                    ));
                }
            }
            job.phase = seek(sim, &job.request, 0, frame)?;
        }
        ClipPhase::Settling { k, until } if frame >= until => {
            let written = job.written.clone();
            commands
                .spawn(Screenshot::primary_window())
                .observe(save_to_disk(frame_path(job, k)))
                .observe(move |_: On<ScreenshotCaptured>| {
                    written.fetch_add(1, Ordering::SeqCst);
                });
            job.phase = ClipPhase::Capturing { k };
        }
        ClipPhase::Capturing { k } if job.written.load(Ordering::SeqCst) > k => {
            // Bevy's save_to_disk logs a failed write and goes on: the file is checked.
            let path = frame_path(job, k);
            if !path.is_file() {
                return Err(format!("clip: frame {} could not be written", k + 1));
            }
            job.progress.set(k as u64 + 1);
            if k + 1 == job.request.frames() {
                return Ok(true);
            }
            job.phase = seek(sim, &job.request, k + 1, frame)?;
        }
        _ => {}
    }
    Ok(false)
}

/// Renames the hidden directory to the clip's, or encodes its frames into the clip's GIF
/// (the hidden directory is removed as the job drops).
fn finish(job: Job) -> Result<String, String> {
    let (dir, n) = (&job.request.dir, job.request.frames());
    if is_gif(dir) {
        let frames: Vec<PathBuf> = (0..n).map(|k| frame_path(&job, k)).collect();
        let mut progress = Progress::new(n as u64, "gif");
        gif_clip::write(&frames, job.request.fps, dir, |k| progress.set(k as u64))
            .map_err(|e| format!("--clip: {e}"))?;
    } else {
        let partial = job.partial.keep();
        std::fs::rename(&partial, dir).map_err(|e| {
            let _ = std::fs::remove_dir_all(&partial);
            format!("--clip: cannot make {}: {e}", dir.display())
        })?;
    }
    Ok(format!(
        "clip: {n} frames from t = {} to {} s in {}",
        job.request.from,
        job.request.to,
        dir.display()
    ))
}
