//! The Bevy app: thin systems over the physics core, one plugin per concern.
//!
//! The model is [`crate::lab::Lab`], plain Rust; the plugins step it (`FixedUpdate`, at the
//! rate the user sets), draw it (meshes, arrows, trails), and edit it (panels, keyboard,
//! mouse). Rendering interpolates between the last two physics states and converts f64 to
//! Bevy's f32 `Transform` only here, at the edge.

// Shared by many plugins: the palette, where lanes go, the frame timer, input order.
mod clip;
mod colors;
mod draw_order;
mod files;
mod layout;
mod mouse_order;
mod timing;

mod camera;
mod contact_gizmos;
mod controls;
mod dock_plots;
mod dock_view;
pub mod environment;
mod frame_readouts;
mod frame_view;
mod framing;
mod joint_gizmos;
mod labels;
mod lesson_panel;
mod mechanism_view;
mod moments;
mod newton_map;
mod panel;
mod physics;
mod pick;
mod plots;
mod render_sync;
mod scale;
mod screenshot;
mod share_panel;
mod solver_panel;
mod status;
mod timeline_strip;
mod trails;
mod ui;
mod vectors;
mod view;
mod web_export;
mod widgets;
mod work_precision;

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::window::WindowResolution;

use crate::scene::Scene;

pub use mouse_order::InputSet;

/// The app's physics and view systems without a window, on `scene`, advanced 50 ms a
/// frame: what the systems' tests run (each adds the plugins it tests, then updates).
#[cfg(test)]
fn headless_app(scene: &str) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        physics::PhysicsPlugin::new(Scene::load(scene).unwrap()),
        view::ViewPlugin,
    ))
    .insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(
        std::time::Duration::from_millis(50),
    ));
    app
}

/// What the panels' tests read back: the text an egui frame drew, one shape a line.
#[cfg(test)]
fn drawn_text(output: &bevy_egui::egui::FullOutput) -> String {
    use bevy_egui::egui::epaint::Shape;
    output
        .shapes
        .iter()
        .filter_map(|s| match &s.shape {
            Shape::Text(t) => Some(t.galley.text().to_string()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}
pub use clip::ClipRequest;
pub use physics::Sim;

/// Options from the command line.
#[derive(Clone, Debug, Default)]
pub struct AppOptions {
    /// Save a screenshot here after `frames` frames, then exit.
    pub screenshot: Option<PathBuf>,
    pub frames: u32,
    /// After the frames, pause and show the moment this many seconds back before saving.
    pub seek_back: Option<f64>,
    /// A lesson to open at the start (a built-in name or a file).
    pub lesson: Option<String>,
    /// A set-up code to open at the start (`--setup`), already read.
    pub setup: Option<crate::lesson::setup::Setup>,
    /// A clip to record, then exit (`--clip`).
    pub clip: Option<ClipRequest>,
}

pub fn run(scene: Scene, options: AppOptions) {
    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title: format!("gyrolab: {}", scene.name),
            resolution: WindowResolution::new(1280, 720),
            ..default()
        }),
        ..default()
    }))
    .add_plugins(bevy_egui::EguiPlugin::default())
    .insert_resource(ClearColor(colors::BACKGROUND))
    .add_plugins((
        physics::PhysicsPlugin::new(scene),
        mouse_order::InputPlugin,
        view::ViewPlugin,
        render_sync::RenderSyncPlugin,
        frame_view::FramesPlugin,
        (contact_gizmos::ContactsPlugin, joint_gizmos::JointsPlugin),
        pick::PickPlugin,
        camera::CameraPlugin,
        controls::ControlsPlugin,
        vectors::VectorsPlugin,
        trails::TrailsPlugin,
        ui::UiPlugin,
        labels::LabelsPlugin,
        newton_map::NewtonMapPlugin,
        status::StatusPlugin,
    ))
    .add_plugins(work_precision::WorkPrecisionPlugin)
    .add_plugins(clip::ClipPlugin {
        request: options.clip.clone(),
    })
    .add_plugins(lesson_panel::LessonPlugin {
        open: options.lesson.clone(),
        setup: options.setup.clone(),
    });
    if let Some(path) = options.screenshot {
        app.add_plugins(screenshot::ScreenshotPlugin {
            path,
            frames: options.frames,
            seek_back: options.seek_back,
        });
    }
    app.run();
}
