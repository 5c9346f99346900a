//! `--screenshot FILE --frames N [--seek-back S]`: render N frames, optionally pause and
//! show the moment S seconds back on the timeline, save the window (UI included), print
//! the measured frame cost, exit.

use std::path::PathBuf;

use bevy::diagnostic::FrameCount;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};

use super::physics::{Sim, StepTiming};
use super::status::FrameCost;
use super::timeline_strip::seek_back;

pub struct ScreenshotPlugin {
    pub path: PathBuf,
    pub frames: u32,
    pub seek_back: Option<f64>,
}

/// Frames drawn after a seek before the picture: the panels, plots and meshes show the
/// moment sought from the next frame on.
const SETTLE: u32 = 3;

#[derive(Resource)]
struct Request {
    path: PathBuf,
    frames: u32,
    seek_back: Option<f64>,
    taken: bool,
}

impl Plugin for ScreenshotPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(Request {
            path: self.path.clone(),
            frames: self.frames,
            seek_back: self.seek_back,
            taken: false,
        })
        .add_systems(Update, take);
    }
}

fn take(
    mut commands: Commands,
    frames: Res<FrameCount>,
    mut request: ResMut<Request>,
    mut sim: ResMut<Sim>,
    mut time: ResMut<Time<Virtual>>,
) {
    if request.taken || frames.0 < request.frames {
        return;
    }
    if let Some(seconds) = request.seek_back.take() {
        seek_back(&mut sim, &mut time, seconds);
        request.frames = frames.0 + SETTLE;
        return;
    }
    request.taken = true;
    commands
        .spawn(Screenshot::primary_window())
        .observe(save_to_disk(request.path.clone()))
        .observe(
            |_: On<ScreenshotCaptured>,
             cost: Res<FrameCost>,
             timing: Res<StepTiming>,
             mut exit: MessageWriter<AppExit>| {
                println!("{}", cost.summary(&timing));
                exit.write(AppExit::Success);
            },
        );
}
