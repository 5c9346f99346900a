//! What the user chose to see: vectors, trails, the ghost, labels, plot options, and the
//! time scale, the moment file; plus the one-line message the panels show after an action.

use bevy::prelude::*;

use super::layout::omega_lane;
use super::physics::Sim;
use super::timing::Timed;

#[derive(Resource)]
pub struct View {
    pub omega: bool,
    pub momentum: bool,
    pub axes: bool,
    pub herpolhode: bool,
    pub polhode: bool,
    pub ghost: bool,
    pub labels: bool,
    /// Inertial-force arrows on bodies riding in moving frames.
    pub inertial: bool,
    /// Riders' paths in the world and in their frame.
    pub paths: bool,
    /// Contact points and normals.
    pub contacts: bool,
    /// Joints drawn (anchors, axes, limits, ropes, springs), and the forces they carry.
    pub joints: bool,
    pub joint_forces: bool,
    pub log_plots: bool,
    pub autoscroll: bool,
    /// The work-precision diagram beside the plots (single free bodies).
    pub work_precision: bool,
    /// The lane whose body-frame ω is plotted.
    pub omega_lane: usize,
    /// The rider whose inertial forces the dock plots, by body; `None`: the lab's choice.
    pub rider: Option<usize>,
    /// Virtual time per real time: slow motion below 1.
    pub time_scale: f64,
    /// The path typed into the panel's scene-file field, and why it last failed to load
    /// (shown under the field while the running scene goes on).
    pub scene_file: String,
    pub scene_error: String,
    /// The timeline strip's moment file, for "Save moment" and "Load moment".
    pub moment_file: String,
    /// The lesson being walked, if any, and whether it has just been opened (the panel
    /// then pauses the run).
    pub lesson: Option<crate::lesson::walk::Walk>,
    pub lesson_fresh: bool,
    /// The lab's scene generation the lesson opened: another scene ends it.
    pub lesson_scene: u64,
    /// The last set-up code made ("Copy set-up"), and the code typed or pasted to open.
    pub setup_code: String,
    pub setup_paste: String,
    /// The web page being recorded ("export web page"), if one is.
    pub web_export: Option<super::web_export::WebExport>,
}

impl View {
    /// Why the open lesson locks `control`, if it does.
    pub fn locked(&self, control: &str) -> Option<&str> {
        self.lesson.as_ref()?.locked(control)
    }

    /// Whether the open lesson hides `control` from the panel.
    pub fn hides(&self, control: &str) -> bool {
        self.lesson.as_ref().is_some_and(|w| w.hides(control))
    }
}

impl Default for View {
    fn default() -> Self {
        Self {
            omega: true,
            momentum: true,
            axes: false,
            herpolhode: true,
            polhode: false,
            ghost: true,
            labels: true,
            inertial: true,
            paths: true,
            contacts: true,
            joints: true,
            joint_forces: false,
            log_plots: true,
            autoscroll: false,
            work_precision: true,
            omega_lane: 0,
            rider: None,
            time_scale: 1.0,
            scene_file: String::new(),
            scene_error: String::new(),
            moment_file: "gyrolab-moment.json".into(),
            lesson: None,
            lesson_fresh: false,
            lesson_scene: 0,
            setup_code: String::new(),
            setup_paste: String::new(),
            web_export: None,
        }
    }
}

pub const MIN_TIME_SCALE: f64 = 0.05;
pub const MAX_TIME_SCALE: f64 = 4.0;

/// The result of the last action: a written file, or why a setting was refused.
#[derive(Resource, Default)]
pub struct Message {
    pub text: String,
    pub error: bool,
}

impl Message {
    pub fn set(&mut self, result: Result<String, String>) {
        (self.text, self.error) = match result {
            Ok(t) => (t, false),
            Err(e) => (e, true),
        };
    }
}

pub struct ViewPlugin;

impl Plugin for ViewPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<View>()
            .init_resource::<Message>()
            .add_systems(Startup, plot_midpoint)
            .add_systems(Update, follow_time_scale);
    }
}

fn plot_midpoint(sim: Res<Sim>, mut view: ResMut<View>) {
    view.omega_lane = omega_lane(&sim);
}

fn follow_time_scale(view: Res<View>, mut time: ResMut<Time<Virtual>>) {
    let _timed = Timed::start();
    let scale = view.time_scale.clamp(MIN_TIME_SCALE, MAX_TIME_SCALE);
    if (time.relative_speed_f64() - scale).abs() > 1e-9 {
        time.set_relative_speed_f64(scale);
    }
}
