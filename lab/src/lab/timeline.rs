//! The lab's history: keyframes (full states, [`LabState`]) every
//! [`KEYFRAME_INTERVAL`] steps, and between them what simulating again needs: the inputs
//! applied, with the integrator step each was applied at, and a fingerprint of every
//! recorded step to check the new run against, as Box2D's samples check a replay
//! against its recording [Box2D samples].
//!
//! It stays within a memory budget counted from the snapshots' real heap sizes: past it
//! the older half of the keyframes thins out (every other one goes, while the gaps stay
//! within [`MAX_GAP`] steps), and then the oldest keyframe goes with the steps before the
//! next, so the recorded range starts later. It never grows without bound; the newest
//! keyframe always stays, so a budget smaller than one keyframe holds that one.

use std::collections::VecDeque;

use super::input_log::InputLog;
use super::snapshot::LabState;

/// 256 MB.
pub const DEFAULT_BUDGET: usize = 256 << 20;

/// Steps between keyframes, chosen from `benches/timeline.rs` on `pile` (1,000 boxes
/// in a heap, awake, 2 s into the fall; the shared 2-core machine): a step takes
/// 7.4–9 ms, a keyframe 155 µs to take and 1.6 MB to keep, a fingerprint 12 µs. Time
/// alone would allow a keyframe every step (2%); memory would not (256 MB would hold 3 s
/// of the pile). The seek's worst case restores a keyframe and takes `K - 1` steps again:
/// 50 ms at `K = 8`, on the 50 ms target, and 37 ms at `K = 6`, which records at 38 µs a
/// step (0.5%) and keeps about 16 s of the pile in 256 MB before the history thins.
pub const KEYFRAME_INTERVAL: u64 = 6;

/// The widest gap between keyframes that thinning makes: a seek into thinned history
/// simulates at most this many steps again.
pub const MAX_GAP: u64 = 16 * KEYFRAME_INTERVAL;

#[derive(Clone, Debug)]
struct Keyframe {
    state: LabState,
    bytes: usize,
}

#[derive(Clone, Debug)]
pub struct Timeline {
    /// Off, nothing is recorded (and there is nothing to go back to).
    enabled: bool,
    budget: usize,
    keyframes: VecDeque<Keyframe>,
    keyframe_bytes: usize,
    /// The first recorded step: the first keyframe's.
    first: u64,
    /// Time and fingerprint of every recorded step from `first` on.
    steps: VecDeque<(f64, u64)>,
    /// The inputs of the recording (none before `first`) and the edits.
    log: InputLog,
    /// The first step simulated again that did not match its recording; it stays set
    /// until the recording is cut (a branch) or started again.
    diverged: Option<u64>,
}

impl Default for Timeline {
    fn default() -> Self {
        Self::new(DEFAULT_BUDGET)
    }
}

impl Timeline {
    pub fn new(budget: usize) -> Self {
        Self {
            enabled: true,
            budget,
            keyframes: VecDeque::new(),
            keyframe_bytes: 0,
            first: 0,
            steps: VecDeque::new(),
            log: InputLog::default(),
            diverged: None,
        }
    }

    /// Forgets the recording; the budget and whether it records stay.
    pub fn clear(&mut self) {
        *self = Self {
            enabled: self.enabled,
            ..Self::new(self.budget)
        };
    }

    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// Turns recording on (from the next step recorded) or off (the recording goes).
    pub fn set_enabled(&mut self, on: bool) {
        self.clear();
        self.enabled = on;
    }

    pub fn budget(&self) -> usize {
        self.budget
    }

    /// A new budget, enforced at once.
    pub fn set_budget(&mut self, bytes: usize) {
        self.budget = bytes;
        self.enforce_budget();
    }

    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// The first recorded step.
    pub fn first(&self) -> u64 {
        self.first
    }

    /// The last recorded step.
    pub fn head(&self) -> u64 {
        self.first + (self.steps.len() as u64).saturating_sub(1)
    }

    /// The time of a recorded step.
    pub fn time_of(&self, step: u64) -> Option<f64> {
        self.entry(step).map(|(t, _)| t)
    }

    /// The fingerprint of a recorded step.
    pub fn fingerprint_of(&self, step: u64) -> Option<u64> {
        self.entry(step).map(|(_, f)| f)
    }

    fn entry(&self, step: u64) -> Option<(f64, u64)> {
        let i = step.checked_sub(self.first)?;
        self.steps.get(usize::try_from(i).ok()?).copied()
    }

    /// The recorded step whose time is nearest `t`.
    pub fn step_at_time(&self, t: f64) -> u64 {
        let i = self.steps.partition_point(|&(s, _)| s < t);
        let nearest = match (i.checked_sub(1), self.steps.get(i)) {
            (Some(j), Some(&(after, _))) if t - self.steps[j].0 < after - t => j,
            (Some(j), None) => j,
            _ => i,
        };
        self.first + nearest as u64
    }

    /// Whether the step about to be recorded takes a keyframe.
    pub fn wants_keyframe(&self, step: u64) -> bool {
        self.keyframes.is_empty() || step.is_multiple_of(KEYFRAME_INTERVAL)
    }

    /// Records the step after the head (or the first step), with its keyframe if
    /// [`Timeline::wants_keyframe`] said so.
    pub fn push(&mut self, step: u64, time: f64, fingerprint: u64, keyframe: Option<LabState>) {
        if self.steps.is_empty() {
            self.first = step;
        }
        debug_assert_eq!(step, self.first + self.steps.len() as u64, "steps in order");
        self.steps.push_back((time, fingerprint));
        if let Some(state) = keyframe {
            let bytes = state.heap_bytes() + std::mem::size_of::<LabState>();
            self.keyframe_bytes += bytes;
            self.keyframes.push_back(Keyframe { state, bytes });
        }
        self.enforce_budget();
    }

    /// The inputs of the recording and the edits.
    pub fn log(&self) -> &InputLog {
        &self.log
    }

    pub fn log_mut(&mut self) -> &mut InputLog {
        &mut self.log
    }

    /// The first step simulated again that did not match its recording.
    pub fn diverged(&self) -> Option<u64> {
        self.diverged
    }

    /// A step simulated again did not match its recording: the first such stays.
    pub fn flag_diverged(&mut self, step: u64) {
        self.diverged.get_or_insert(step);
    }

    /// The keyframe at or before `step`.
    pub fn keyframe_before(&self, step: u64) -> Option<&LabState> {
        let i = self.keyframes.partition_point(|k| k.state.step <= step);
        Some(&self.keyframes.get(i.checked_sub(1)?)?.state)
    }

    /// The steps of the keyframes, oldest first.
    pub fn keyframe_steps(&self) -> impl Iterator<Item = u64> + '_ {
        self.keyframes.iter().map(|k| k.state.step)
    }

    /// Forgets what came after `step`: later steps and keyframes, and the inputs applied
    /// after it; the divergence flag and the edits go too.
    pub fn truncate_after(&mut self, step: u64) {
        let keep = step.saturating_sub(self.first) + 1;
        self.steps.truncate(keep.try_into().unwrap_or(usize::MAX));
        while self.keyframes.back().is_some_and(|k| k.state.step > step) {
            let k = self.keyframes.pop_back().expect("just checked");
            self.keyframe_bytes -= k.bytes;
        }
        self.log.truncate_after(step);
        self.diverged = None;
    }

    /// The bytes the history holds: keyframes as measured, the steps, the inputs.
    pub fn heap_bytes(&self) -> usize {
        self.keyframe_bytes
            + self.keyframes.capacity() * std::mem::size_of::<Keyframe>()
            + self.steps.capacity() * std::mem::size_of::<(f64, u64)>()
            + self.log.heap_bytes()
    }

    fn enforce_budget(&mut self) {
        while self.heap_bytes() > self.budget && (self.thin() || self.drop_oldest()) {}
    }

    /// Every other keyframe of the older half goes, where the gap left stays within
    /// [`MAX_GAP`]; whether any went.
    fn thin(&mut self) -> bool {
        let older = self.keyframes.len() / 2;
        let mut removed = false;
        let mut i = 1;
        while i < older.min(self.keyframes.len().saturating_sub(1)) {
            let gap = self.keyframes[i + 1].state.step - self.keyframes[i - 1].state.step;
            if gap <= MAX_GAP {
                let k = self.keyframes.remove(i).expect("in range");
                self.keyframe_bytes -= k.bytes;
                removed = true;
            }
            i += 1;
        }
        removed
    }

    /// The oldest keyframe goes, with the steps and inputs before the next; whether it
    /// could (the newest keyframe always stays).
    fn drop_oldest(&mut self) -> bool {
        if self.keyframes.len() < 2 {
            return false;
        }
        let k = self.keyframes.pop_front().expect("two or more");
        self.keyframe_bytes -= k.bytes;
        let first = self.keyframes[0].state.step;
        let gone = (first - self.first).try_into().unwrap_or(usize::MAX);
        self.steps.drain(..gone.min(self.steps.len()));
        self.log.drop_before(first);
        self.first = first;
        true
    }
}
