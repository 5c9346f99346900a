//! Going back in time: the lab's side of the timeline. Seeking restores the keyframe at
//! or before a recorded step and simulates again to it, applying the logged inputs at
//! the integrator steps they were applied at; stepping back is a seek one step back;
//! replaying simulates the recording forward and checks each step's fingerprint,
//! flagging the first that does not match (Box2D's samples flag a run that diverges
//! from its recording [Box2D samples]); a branch makes the moment shown the present and
//! discards the old future.

use super::Lab;
use super::timeline::Timeline;

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
        self.clock.step()
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
        self.timeline.head().saturating_sub(self.step_index())
    }

    /// The first step simulated again that did not match its recording, if any.
    pub fn diverged(&self) -> Option<u64> {
        self.timeline.diverged()
    }

    /// Whether the lab shows a moment before the recording's head, or has been edited
    /// there: the next live step branches.
    pub(crate) fn in_past(&self) -> bool {
        self.step_index() < self.timeline.head() || !self.timeline.log().edits().is_empty()
    }

    /// Shows recorded step `step` (clamped to the recorded range): restores the keyframe
    /// at or before it and simulates again to it, applying the logged inputs on the way.
    /// Whether every step simulated again matched its recording (if not,
    /// [`Lab::diverged`] says where). Edits made away from the head are dropped.
    pub fn seek(&mut self, step: u64) -> bool {
        if self.timeline.is_empty() {
            return true;
        }
        let target = step.clamp(self.timeline.first(), self.timeline.head());
        self.restore_keyframe(target);
        let bad = self.again_to(target, false);
        self.flag(bad)
    }

    /// Shows the recorded moment nearest time `t`.
    pub fn seek_time(&mut self, t: f64) -> bool {
        let step = self.timeline.step_at_time(t);
        self.seek(step)
    }

    /// One step back, if there is a recorded one; whether it matched its recording.
    pub fn step_back(&mut self) -> bool {
        let step = self.step_index().saturating_sub(1);
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
    /// it matched. Inputs made under the replay (edits) stay, and the run goes on from
    /// them; the first step that then differs trips [`Lab::diverged`].
    pub fn replay_step(&mut self) -> Option<bool> {
        let from = self.step_index();
        if from >= self.timeline.head() || !self.may_step() {
            return None;
        }
        let applied = self.timeline.log().applied();
        let bad = self.again_to(from + 1, false);
        // The branch an edit starts keeps the recorded inputs applied after it.
        self.timeline.log_mut().keep_applied_since(applied);
        Some(self.flag(bad))
    }

    /// Makes the moment shown the present: the recording after it is discarded (every
    /// recorded series too), and play goes on from here. With edits made away from the
    /// head, the recording is cut at the first and the steps from there to the moment
    /// shown are recorded again with the edits: the same keyframe and inputs give the
    /// same states.
    pub fn branch(&mut self) {
        if !self.in_past() {
            self.catch_up();
            return;
        }
        let now = self.step_index();
        let edits = self.timeline.log_mut().take_edits();
        let cut = edits.first().map_or(now, |l| l.step);
        self.cut_after(cut);
        if !edits.is_empty() {
            self.timeline.log_mut().append(edits);
            self.seek(cut);
            self.again_to(now, true);
        }
        self.catch_up();
    }

    /// Sets the divergence flag at the first bad step, if any; whether none was bad.
    fn flag(&mut self, bad: Option<u64>) -> bool {
        if let Some(step) = bad {
            self.timeline.flag_diverged(step);
        }
        bad.is_none()
    }
}
