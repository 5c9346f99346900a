//! Whether a stage's team of threads pays, timed rather than guessed. The work a step
//! has says whether a team may pay ([`parallel::worth_threads`]); whether it does
//! depends on the machine: a two-thread step hands cache lines between the cores
//! thousands of times (each loop's claims and its end, each body's velocities from
//! colour to colour), and a VM's host may place its cores near each other or far apart,
//! and move them from one placement to the other. Far apart, the team cost more than it
//! saved (docs/speed.md, "Issue 46, a third round"). So each stage times its steps both
//! ways, per unit of work, runs the faster way and tries the other now and then. Any
//! number of threads gives the same bits (the parallel loops compute each item alone),
//! so the choice changes time alone.

use std::time::Instant;

use crate::solver::parallel;

/// Steps between tries of the way not taken: from the fewest, doubled after each try
/// that loses up to the most (4 s at 60 Hz), back to the fewest after one that wins.
/// Where the placement holds, a try costs one slow step in the most; where it flips, the
/// faster way is found again within a few steps.
const FEWEST_BETWEEN_TRIES: u32 = 8;
const MOST_BETWEEN_TRIES: u32 = 256;

/// How many of a way's last times make its estimate.
const KEPT: usize = 3;

/// A way's last [`KEPT`] times per unit of work (s; infinite: none yet). Its estimate is
/// the least of them: what stretches a step (the thread preempted, the other core busy)
/// only adds, so one slow step does not turn the choice, and [`KEPT`] slow ones in a row
/// (the cores placed apart) do.
#[derive(Clone, Copy, Debug)]
struct Times {
    last: [f64; KEPT],
    next: usize,
}

impl Default for Times {
    fn default() -> Self {
        Self {
            last: [f64::INFINITY; KEPT],
            next: 0,
        }
    }
}

impl Times {
    fn estimate(&self) -> f64 {
        self.last.iter().copied().fold(f64::INFINITY, f64::min)
    }

    fn tried(&self) -> bool {
        self.estimate().is_finite()
    }

    fn record(&mut self, time: f64) {
        self.last[self.next] = time;
        self.next = (self.next + 1) % KEPT;
    }
}

/// The two stages' choices (detection's, the solve's), and whether they are timed: untimed,
/// a stage takes a team whenever its work is worth one, for a team's own cost to be
/// measured and its loops tested.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Teams {
    pub(crate) detect: TeamChoice,
    pub(crate) solve: TeamChoice,
    pub(crate) timed: bool,
}

impl Default for Teams {
    fn default() -> Self {
        Self {
            detect: TeamChoice::default(),
            solve: TeamChoice::default(),
            timed: true,
        }
    }
}

/// A stage's times with a team and alone, its steps since the way not taken was last
/// tried, how many steps it waits between tries, and whether this step is a try.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TeamChoice {
    team: Times,
    alone: Times,
    since_try: u32,
    between_tries: u32,
    trying: bool,
}

impl Default for TeamChoice {
    fn default() -> Self {
        Self {
            team: Times::default(),
            alone: Times::default(),
            since_try: 0,
            between_tries: FEWEST_BETWEEN_TRIES,
            trying: false,
        }
    }
}

impl TeamChoice {
    /// Runs the stage `f`, of `work` bodies or contacts, with a team of rayon's threads
    /// or alone: if `timed`, whichever has been the faster, and times it; else with a
    /// team. (Inside another stage's team a stage runs on that team's leader alone, and
    /// none is nested so.)
    pub(crate) fn run<R: Send>(
        &mut self,
        (work, timed): (usize, bool),
        f: impl FnOnce() -> R + Send,
    ) -> R {
        let worth = parallel::worth_threads(work);
        // One thread (a pool of one; wasm32's, where there is no clock to time with
        // either): nothing to choose.
        if cfg!(target_arch = "wasm32") || !worth || rayon::current_num_threads() < 2 {
            return f();
        }
        if !timed {
            return parallel::on_workers(true, f);
        }
        let team = self.pick();
        let start = Instant::now();
        let out = parallel::on_workers(team, f);
        self.record(team, start.elapsed().as_secs_f64() / work as f64);
        out
    }

    /// Each way first tried, then the faster, with a try of the other after
    /// [`Self::between_tries`] steps, which alone stands for that way: its earlier times
    /// are of another phase of the scene (a heap forming costs more per body than one
    /// falling).
    fn pick(&mut self) -> bool {
        if !(self.team.tried() && self.alone.tried()) {
            return !self.team.tried();
        }
        let faster = self.team_faster();
        self.since_try += 1;
        if self.since_try < self.between_tries {
            return faster;
        }
        self.since_try = 0;
        self.trying = true;
        if faster {
            self.alone = Times::default();
        } else {
            self.team = Times::default();
        }
        !faster
    }

    /// Whether the team's estimate is the better (on a tie, the team's).
    fn team_faster(&self) -> bool {
        self.team.estimate() <= self.alone.estimate()
    }

    /// A step's time per unit of work, kept with its way's; after a try, the wait for
    /// the next: the fewest steps if the try won (a step is only ever stretched, so a try
    /// that came out faster is), twice as many as before if it lost.
    fn record(&mut self, team: bool, time: f64) {
        if team {
            self.team.record(time);
        } else {
            self.alone.record(time);
        }
        if std::mem::take(&mut self.trying) {
            self.between_tries = if self.team_faster() == team {
                FEWEST_BETWEEN_TRIES
            } else {
                (2 * self.between_tries).min(MOST_BETWEEN_TRIES)
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Picks `steps` times, each step timed as `time(team)`; how many ran with a team.
    fn run_for(choice: &mut TeamChoice, steps: usize, time: impl Fn(bool) -> f64) -> usize {
        (0..steps)
            .map(|_| {
                let team = choice.pick();
                choice.record(team, time(team));
                usize::from(team)
            })
            .sum()
    }

    #[test]
    fn the_faster_way_runs_and_the_other_is_tried_less_and_less_often() {
        let mut choice = TeamChoice::default();
        assert!(choice.pick(), "a team first");
        choice.record(true, 3.0);
        assert!(!choice.pick(), "then alone");
        choice.record(false, 2.0);
        // Alone stays faster: the team is tried after 8, 16, 32, … steps, up to 256.
        let tries = run_for(&mut choice, 1000, |team| if team { 3.0 } else { 2.0 });
        assert_eq!(
            tries, 7,
            "tries after 8, 16, 32, 64, 128, 256 and 256 steps"
        );
        assert_eq!(choice.between_tries, MOST_BETWEEN_TRIES);
    }

    #[test]
    fn a_try_that_wins_turns_the_choice_and_brings_the_tries_back() {
        let mut choice = TeamChoice::default();
        run_for(&mut choice, 600, |team| if team { 3.0 } else { 2.0 });
        assert_eq!(choice.between_tries, MOST_BETWEEN_TRIES);
        // The cores placed near each other now: the team's next try, at most 256 steps
        // on, wins; from then on the team runs but for tries of alone, 8, 16, … apart.
        let near = |team: bool| if team { 1.0 } else { 2.0 };
        let first = run_for(&mut choice, 300, near);
        assert!(
            first >= 300 - MOST_BETWEEN_TRIES as usize - 4,
            "{first} of 300"
        );
        assert!(choice.between_tries < MOST_BETWEEN_TRIES);
        let then = run_for(&mut choice, 300, near);
        assert!(then >= 300 - 3, "{then} of 300");
    }

    #[test]
    fn one_slow_step_does_not_turn_the_choice_and_a_run_of_them_does() {
        let mut choice = TeamChoice::default();
        choice.record(true, 1.0);
        choice.record(false, 2.0);
        choice.record(true, 9.0);
        assert!(choice.pick(), "one slow step with a team");
        for _ in 1..KEPT {
            choice.record(true, 9.0);
        }
        assert!(!choice.pick(), "{KEPT} slow steps in a row with a team");
    }

    #[test]
    fn one_thread_runs_the_stage_untimed() {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build();
        let mut choice = TeamChoice::default();
        let ran = pool.unwrap().install(|| choice.run((1 << 20, true), || 7));
        assert_eq!(ran, 7);
        assert!(!choice.team.tried() && !choice.alone.tried());
    }
}
