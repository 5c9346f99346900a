//! The inputs of the recording, each with the moment it was applied, and how far the
//! moment shown has applied them. Simulating again from a keyframe applies them at the
//! integrator steps they were applied at, so every change to a run (a restored keyframe
//! included) reaches the run through here and a seek or a replay reproduces it
//! bitwise. Inputs made away from the recording's head are edits, kept apart until a
//! branch makes them the recording's.

use super::input::{Input, Logged};
use crate::heap::vec_bytes;

/// The inputs a run was given, each with the step it came at, and how far the moment
/// shown has applied them: what a seek or a replay applies again.
#[derive(Clone, Debug, Default)]
pub struct InputLog {
    /// Inputs of the recording in the order applied (none before its first step).
    inputs: Vec<Logged>,
    /// How many of `inputs` the moment shown has had applied.
    applied: usize,
    /// Inputs applied away from the recording's head (scrubbed back, or under a
    /// replay), followed by the recorded ones a replay applied after them: the future a
    /// branch keeps.
    edits: Vec<Logged>,
}

impl InputLog {
    /// The inputs made away from the head since the last seek or branch.
    pub fn edits(&self) -> &[Logged] {
        &self.edits
    }

    /// Logs an input applied at the head, after every logged one.
    pub fn push(&mut self, input: Logged) {
        self.inputs.push(input);
        self.applied = self.inputs.len();
    }

    /// Keeps an input applied away from the head as an edit.
    pub fn edit(&mut self, input: Logged) {
        self.edits.push(input);
    }

    /// The next logged input not applied yet, if it is due at `at` (physics steps,
    /// integrator steps of the next), counted as applied.
    pub fn next_due(&mut self, at: (u64, u32)) -> Option<Input> {
        let input = self
            .inputs
            .get(self.applied)
            .filter(|l| l.at() <= at)?
            .input
            .clone();
        self.applied += 1;
        Some(input)
    }

    /// After a keyframe of step `step` is restored: the inputs from it on are due
    /// again, and the edits go.
    pub fn rewind_to(&mut self, step: u64) {
        self.applied = self.inputs.partition_point(|l| l.step < step);
        self.edits.clear();
    }

    /// How many logged inputs have been applied.
    pub fn applied(&self) -> usize {
        self.applied
    }

    /// After a replayed step: with edits made, the recorded inputs it applied (those
    /// from `since` on) join them, as the future a branch keeps.
    pub fn keep_applied_since(&mut self, since: usize) {
        if !self.edits.is_empty() {
            self.edits
                .extend_from_slice(&self.inputs[since..self.applied]);
        }
    }

    /// Takes the edits, to be appended after a cut.
    pub fn take_edits(&mut self) -> Vec<Logged> {
        std::mem::take(&mut self.edits)
    }

    /// Appends inputs after the recorded ones (a branch's edits), not applied yet.
    pub fn append(&mut self, inputs: Vec<Logged>) {
        self.inputs.extend(inputs);
    }

    /// Forgets the inputs applied after step `step` was recorded, and the edits.
    pub fn truncate_after(&mut self, step: u64) {
        self.inputs.retain(|l| l.step < step);
        self.applied = self.applied.min(self.inputs.len());
        self.edits.clear();
    }

    /// Forgets the inputs applied before step `step` (the oldest history went).
    pub fn drop_before(&mut self, step: u64) {
        let before = self.inputs.partition_point(|l| l.step < step);
        self.inputs.drain(..before);
        self.applied = self.applied.saturating_sub(before);
    }

    /// The bytes the log holds.
    pub fn heap_bytes(&self) -> usize {
        vec_bytes(&self.inputs) + vec_bytes(&self.edits)
    }
}
