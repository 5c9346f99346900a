//! `--screenshot FILE --frames N`: render N frames, save the window (UI included), print
//! the measured frame cost, exit.

use std::path::PathBuf;

use bevy::diagnostic::FrameCount;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};

use super::physics::StepTiming;
use super::status::FrameCost;

pub struct ScreenshotPlugin {
    pub path: PathBuf,
    pub frames: u32,
}

#[derive(Resource)]
struct Request {
    path: PathBuf,
    frames: u32,
    taken: bool,
}

impl Plugin for ScreenshotPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(Request {
            path: self.path.clone(),
            frames: self.frames,
            taken: false,
        })
        .add_systems(Update, take);
    }
}

fn take(mut commands: Commands, frames: Res<FrameCount>, mut request: ResMut<Request>) {
    if request.taken || frames.0 < request.frames {
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
