//! Going back in time: the lab's side of the timeline. Seeking restores the keyframe at
//! or before a recorded step and simulates again to it, applying the logged inputs at
//! the integrator steps they were applied at; stepping back is a seek one step back;
//! replaying simulates the recording forward and checks each step's fingerprint,
//! flagging the first that does not match (Box2D's samples flag a run that diverges
//! from its recording [Box2D samples]); a branch makes the moment shown the present and
//! discards the old future.

use super::input::Logged;
use super::timeline::Timeline;
use super::{Lab, Mode};
use crate::world::Stage;

/// The recorded range: first and last step, and their times.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Recorded {
    pub first: u64,
    pub last: u64,
    pub first_time: f64,
    pub last_time: f64,
}

impl Lab {
    /// The step shown: physics steps since the start.
    pub fn step_index(&self) -> u64 {
        self.step_index
    }

    pub fn timeline(&self) -> &Timeline {
        &self.timeline
    }

    /// The history's memory budget in bytes (default
    /// [`super::timeline::DEFAULT_BUDGET`]).
    pub fn set_history_budget(&mut self, bytes: usize) {
        self.timeline.set_budget(bytes);
    }

    /// Records history (the default) or not. Turned off, the moment shown becomes the
    /// present and the recording goes; turned on, it starts at the next step.
    pub fn set_history(&mut self, on: bool) {
        self.branch();
        self.timeline.set_enabled(on);
    }

    /// The recorded steps and their times.
    pub fn recorded(&self) -> Recorded {
        let (first, last) = (self.timeline.first(), self.timeline.head());
        let time = |s| self.timeline.time_of(s).unwrap_or(self.time());
        Recorded {
            first,
            last,
            first_time: time(first),
            last_time: time(last),
        }
    }

    /// Steps between the moment shown and the last recorded one: the app draws trails
    /// without their newest this many points.
    pub fn steps_ahead(&self) -> u64 {
        self.timeline.head().saturating_sub(self.step_index)
    }

    /// The first step simulated again that did not match its recording, if any.
    pub fn diverged(&self) -> Option<u64> {
        self.timeline.diverged
    }

    /// Whether the lab shows a moment before the recording's head, or has been edited
    /// there: the next live step branches.
    pub(crate) fn in_past(&self) -> bool {
        self.step_index < self.timeline.head() || !self.timeline.edits.is_empty()
    }

    /// Shows recorded step `step` (clamped to the recorded range): restores the keyframe
    /// at or before it and simulates again to it. Whether every step simulated again
    /// matched its recording (if not, [`Lab::diverged`] says where). Edits made away
    /// from the head are dropped.
    pub fn seek(&mut self, step: u64) -> bool {
        if self.timeline.is_empty() {
            return true;
        }
        let target = step.clamp(self.timeline.first(), self.timeline.head());
        let timeline = std::mem::take(&mut self.timeline);
        let key = timeline
            .keyframe_before(target)
            .expect("the first recorded step has a keyframe");
        self.restore_state(key);
        let inputs = timeline.inputs_from(key.step);
        let mode = std::mem::replace(&mut self.mode, Mode::Again);
        let bad = self.again_to(target, inputs, &mut 0, Some(&timeline));
        self.mode = mode;
        self.timeline = timeline;
        self.timeline.edits.clear();
        self.flag(bad)
    }

    /// Shows the recorded moment nearest time `t`.
    pub fn seek_time(&mut self, t: f64) -> bool {
        let step = self.timeline.step_at_time(t);
        self.seek(step)
    }

    /// One step back, if there is a recorded one; whether it matched its recording.
    pub fn step_back(&mut self) -> bool {
        let step = self.step_index.saturating_sub(1);
        self.seek(step)
    }

    /// One step forward: through the recording (as [`Lab::replay_step`]), or past its
    /// head a new live step. Whether a replayed step matched its recording.
    pub fn step_forward(&mut self) -> bool {
        match self.replay_step() {
            Some(matched) => matched,
            None => {
                self.step();
                true
            }
        }
    }

    /// Simulates the next recorded step again and checks it against the recording:
    /// `None` at the recording's head or where the limit refuses the step, else whether
    /// it matched. Inputs made under the
    /// replay (edits) stay, and the run goes on from them; the first step that then
    /// differs trips [`Lab::diverged`].
    pub fn replay_step(&mut self) -> Option<bool> {
        let from = self.step_index;
        if from >= self.timeline.head() || !self.may_step() {
            return None;
        }
        let timeline = std::mem::take(&mut self.timeline);
        let inputs = timeline.inputs_from(from);
        let inputs = &inputs[..inputs.partition_point(|l| l.step <= from)];
        let mut applied = 0;
        let mode = std::mem::replace(&mut self.mode, Mode::Again);
        let bad = self.again_to(from + 1, inputs, &mut applied, Some(&timeline));
        self.mode = mode;
        // The branch an edit starts keeps the recorded inputs applied after it.
        let kept = if timeline.edits.is_empty() {
            Vec::new()
        } else {
            inputs[..applied].to_vec()
        };
        self.timeline = timeline;
        self.timeline.edits.extend(kept);
        Some(self.flag(bad))
    }

    /// Makes the moment shown the present: the recording after it is discarded (plots,
    /// export and trails too), and play goes on from here. With edits made away from
    /// the head, the recording is cut at the first and the steps from there to the
    /// moment shown are recorded again with the edits: the same keyframe and inputs give
    /// the same states.
    pub fn branch(&mut self) {
        if !self.in_past() {
            return;
        }
        let now = self.step_index;
        let edits = std::mem::take(&mut self.timeline.edits);
        let cut = edits.first().map_or(now, |l| l.step);
        self.cut_after(cut);
        if edits.is_empty() {
            return;
        }
        self.timeline.append_inputs(edits);
        self.seek(cut);
        let inputs: Vec<Logged> = self.timeline.inputs_from(cut).to_vec();
        self.again_to(now, &inputs, &mut 0, None);
    }

    /// Discards the recording after step `cut`: the timeline's, the plots', the export's,
    /// the switches' and the trails' newest points.
    fn cut_after(&mut self, cut: u64) {
        let head = self.timeline.head();
        let t = self.timeline.time_of(cut);
        if let Some(t) = t {
            self.dock.truncate_after(t);
        }
        let gone = usize::try_from(head.saturating_sub(cut)).unwrap_or(usize::MAX);
        self.recorders.truncate_after(t, gone);
        self.timeline.truncate_after(cut);
    }

    /// Sets the divergence flag at the first bad step, if any; whether none was bad.
    fn flag(&mut self, bad: Option<u64>) -> bool {
        if let Some(step) = bad {
            self.timeline.diverged.get_or_insert(step);
        }
        bad.is_none()
    }

    /// Takes physics steps up to `target`, applying `inputs[cursor..]` (in order) at the
    /// integrator steps they were applied at; checks each step against `check`'s
    /// fingerprints. The first step that did not match.
    fn again_to(
        &mut self,
        target: u64,
        inputs: &[Logged],
        cursor: &mut usize,
        check: Option<&Timeline>,
    ) -> Option<u64> {
        let mut bad = None;
        while self.step_index < target {
            let step = self.step_index;
            while self.step_index == step {
                while let Some(l) = inputs
                    .get(*cursor)
                    .filter(|l| l.at() <= (self.step_index, self.steps_taken))
                {
                    // Applied once already, so valid again.
                    let _ = self.apply(l.input);
                    *cursor += 1;
                }
                self.tick();
            }
            if let Some(t) = check
                && t.fingerprint_of(self.step_index) != Some(self.last_fingerprint)
            {
                bad = bad.or(Some(self.step_index));
            }
        }
        bad
    }

    /// One integrator step, without the branch [`Lab::begin_integrator_step`] makes.
    fn tick(&mut self) {
        self.begin_tick();
        for stage in Stage::ALL {
            self.run_stage(stage);
        }
        self.end_integrator_step();
    }
}
