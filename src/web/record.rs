//! One recorded run of every lane side by side, as a page plays it: the lanes, their
//! bodies' shapes, the moving frames and the ground, and at each frame every run's
//! bodies' poses and the frames' poses, in f32 (what WebGL draws with).

use glam::{DQuat, DVec3};
use serde::{Serialize, Serializer};

use super::budget::Sampling;
use super::plots::{self, Plot};
use crate::lab::Lab;
use crate::lab::drawing::{Drawing, drawn_joints, joint_ends};
use crate::world::World;

/// One take of a page: a run of every lane from its start.
#[derive(Clone, Debug, Serialize)]
pub struct Recording {
    pub label: String,
    /// The lanes, shapes and ground; the exact solution, where drawn, is the last run of
    /// the poses.
    #[serde(flatten)]
    pub drawing: Drawing,
    /// Each frame's simulated time, s.
    pub times: Vec<f64>,
    /// [frame][run][body][px, py, pz, qx, qy, qz, qw], as base64 of little-endian f32.
    #[serde(serialize_with = "base64_f32")]
    pub poses: Vec<f32>,
    /// [frame][moving frame][px, py, pz, qx, qy, qz, qw, scale], the same way.
    #[serde(serialize_with = "base64_f32")]
    pub frame_poses: Vec<f32>,
    /// The joints drawn, by index, written as how many a lane has: those that hold
    /// their ends apart (rods, ropes, springs, sliders; a ball, hinge or fixed joint's two
    /// anchors meet).
    #[serde(rename = "joints", serialize_with = "count")]
    drawn: Vec<usize>,
    /// [frame][lane][joint][ax, ay, az, bx, by, bz]: each drawn joint's anchor on its
    /// first and on its second end, NaN once it broke; the same way.
    #[serde(serialize_with = "base64_f32")]
    pub joint_ends: Vec<f32>,
    pub plots: Vec<Plot>,
    /// What the page says about the recording: frames or seconds cut, lanes stopped.
    pub note: Option<String>,
    /// Physics steps between frames, and taken since the start.
    #[serde(skip)]
    every: u64,
    #[serde(skip)]
    steps: u64,
    /// The recording's length as planned, s.
    #[serde(skip)]
    until: f64,
    /// Which lanes have stopped on an error.
    #[serde(skip)]
    stopped: Vec<bool>,
    /// The bytes its plots may take.
    #[serde(skip)]
    plot_bytes: usize,
}

/// A list written as its length.
fn count<S: Serializer, T>(items: &[T], s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u64(items.len() as u64)
}

/// Numbers as the page reads them: f32, little-endian, in base64.
fn base64_f32<S: Serializer>(values: &[f32], s: S) -> Result<S::Ok, S::Error> {
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    s.serialize_str(&data_encoding::BASE64.encode(&bytes))
}

impl Recording {
    /// A recording of `lab`'s lanes as they stand (at their start), as `plan` says.
    pub fn start(lab: &Lab, label: String, plan: Sampling, plot_bytes: usize) -> Self {
        let world = lab.world();
        let mut recording = Self {
            label,
            drawing: Drawing::of(lab),
            times: Vec::new(),
            poses: Vec::new(),
            frame_poses: Vec::new(),
            drawn: drawn_joints(world),
            joint_ends: Vec::new(),
            plots: Vec::new(),
            note: plan.note,
            every: plan.every,
            steps: 0,
            until: plan.until,
            stopped: vec![false; lab.lanes().len()],
            plot_bytes,
        };
        recording.frame(lab);
        recording
    }

    /// Adds `line` to what the page says about the recording.
    pub fn say(&mut self, line: &str) {
        self.note = Some(match self.note.take() {
            Some(note) => format!("{note} {line}"),
            None => line.to_string(),
        });
    }

    /// Its JSON's bytes as it stands.
    pub fn bytes(&self) -> usize {
        serde_json::to_string(self).map_or(0, |s| s.len())
    }

    /// Whether every lane has stopped on an error: nothing moves on.
    pub fn all_stopped(&self) -> bool {
        self.stopped.iter().all(|&s| s)
    }

    /// The time this recording is planned to reach, s.
    pub fn until(&self) -> f64 {
        self.until
    }

    /// After one physics step of `lab`: a frame every `every` steps.
    pub fn stepped(&mut self, lab: &Lab) {
        let mut stopped = Vec::new();
        for (run, seen) in lab.lanes().iter().zip(&mut self.stopped) {
            if let (Some(e), false) = (run.error(), *seen) {
                *seen = true;
                let name = run.integrator().name();
                stopped.push(format!(
                    "The {name} lane stopped at t = {:.4} s: {e}.",
                    run.world().time()
                ));
            }
        }
        for line in stopped {
            self.say(&line);
        }
        self.steps += 1;
        if self.steps.is_multiple_of(self.every) {
            self.frame(lab);
        }
    }

    /// Where a run of the lesson ends (or the recording): the lab's moment as a frame, if
    /// it is not one yet, and the dock's plots as recorded so far.
    pub fn close(&mut self, lab: &Lab) {
        if self.times.last() != Some(&lab.time()) {
            self.frame(lab);
        }
        self.plots = plots::of(lab, self.plot_bytes);
    }

    /// The lab's moment as a frame. A lane stopped on an error keeps its last finite
    /// pose (its world may hold the step that failed).
    fn frame(&mut self, lab: &Lab) {
        let start = self.poses.len();
        let runs = lab.lanes().iter().chain(lab.ghost());
        for body in runs.flat_map(|r| r.world().bodies()) {
            push_pose(&mut self.poses, body.state.position, body.state.orientation);
        }
        let per_frame = self.poses.len() - start;
        if start >= per_frame {
            for k in (start..self.poses.len()).step_by(7) {
                if !self.poses[k..k + 7].iter().all(|v| v.is_finite()) {
                    self.poses.copy_within(k - per_frame..k - per_frame + 7, k);
                }
            }
        }
        for run in lab.lanes() {
            push_joint_ends(&mut self.joint_ends, run.world(), &self.drawn);
        }
        for f in lab.world().frames() {
            let t = &f.global.transform;
            push_pose(&mut self.frame_poses, t.translation, t.rotation);
            self.frame_poses.push(t.scale as f32);
        }
        self.times.push(lab.time());
    }
}

/// The `drawn` joints' anchors in `world` ([`joint_ends`]), in f32.
fn push_joint_ends(out: &mut Vec<f32>, world: &World, drawn: &[usize]) {
    for [a, b] in joint_ends(world, drawn) {
        out.extend(
            a.to_array()
                .into_iter()
                .chain(b.to_array())
                .map(|v| v as f32),
        );
    }
}

fn push_pose(out: &mut Vec<f32>, position: DVec3, rotation: DQuat) {
    out.extend(position.to_array().map(|v| v as f32));
    out.extend(rotation.to_array().map(|v| v as f32));
}
