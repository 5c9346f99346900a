//! Whether a stage's team of threads pays, timed rather than guessed. The work a step
//! has says whether a team may pay ([`parallel::worth_threads`]); whether it does pays
//! depends on the machine. On the 2-core VM this was built on, the host places the two
//! cores near each other (an atomic's round trip between them 125 ns) or far apart
//! (430 ns) and moves them between the two for minutes at a time: the forming
//! 1,000-box pile then took 1.78 ms a step on two threads or 3.5 ms, against 2.8 ms on
//! one, because a step hands cache lines between the threads thousands of times (each
//! loop's claims and its end, each body's velocities from colour to colour). So each
//! stage times its steps both ways, per unit of work, and runs the faster way, trying
//! the other again every [`RETRY`] steps. Any number of threads gives the same bits
//! (the parallel loops compute each item alone), so the choice changes time alone.

use std::time::Instant;

use crate::solver::parallel;

/// Steps between tries of the way not taken (2 s at 60 Hz): the placement of the cores
/// changes over minutes, and a try costs at most one slow step in this many.
const RETRY: u32 = 120;

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

/// A stage's times with a team and alone, and its steps since the way not taken was last
/// tried.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct TeamChoice {
    team: Times,
    alone: Times,
    since_try: u32,
}

impl TeamChoice {
    /// Runs the stage `f`, of `work` bodies or contacts, with a team of rayon's threads
    /// or alone, whichever has been the faster; times it if the choice was open.
    pub(crate) fn run<R: Send>(&mut self, work: usize, f: impl FnOnce() -> R + Send) -> R {
        // One thread (wasm32's, or a pool of one): nothing to choose, nothing timed.
        if !parallel::worth_threads(work) || rayon::current_num_threads() < 2 {
            return f();
        }
        let team = self.pick();
        let start = Instant::now();
        let out = parallel::on_workers(team, f);
        let time = start.elapsed().as_secs_f64() / work as f64;
        if team {
            self.team.record(time);
        } else {
            self.alone.record(time);
        }
        out
    }

    /// With a team: each way first tried, then the faster, but for a try of the other
    /// every [`RETRY`] steps, which stands for that way alone. A step is only ever
    /// stretched, so a try that comes out faster is.
    fn pick(&mut self) -> bool {
        if !(self.team.tried() && self.alone.tried()) {
            return !self.team.tried();
        }
        self.since_try += 1;
        let faster = self.team.estimate() <= self.alone.estimate();
        if self.since_try >= RETRY {
            // The other way's times are of another phase of the scene (a heap forming
            // costs more per body than one falling): the try alone stands for it.
            self.since_try = 0;
            if faster {
                self.alone = Times::default();
            } else {
                self.team = Times::default();
            }
            return !faster;
        }
        faster
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_ways_are_tried_then_the_faster_runs_and_the_other_is_tried_again() {
        let mut choice = TeamChoice::default();
        assert!(choice.pick(), "a team first");
        choice.team.record(3.0);
        assert!(!choice.pick(), "then alone");
        choice.alone.record(2.0);
        let picks: Vec<bool> = (0..RETRY).map(|_| choice.pick()).collect();
        assert_eq!(picks.iter().filter(|&&team| team).count(), 1);
        assert!(
            picks[RETRY as usize - 1],
            "the slower way tried after {RETRY} steps"
        );
        // The try alone stands for the team: it measured faster, and is taken from then on.
        choice.team.record(1.0);
        assert!((0..RETRY - 1).all(|_| choice.pick()));
    }

    #[test]
    fn one_slow_step_does_not_turn_the_choice_and_a_run_of_them_does() {
        let mut choice = TeamChoice::default();
        choice.team.record(1.0);
        choice.alone.record(2.0);
        choice.team.record(9.0);
        assert!(choice.pick(), "one slow step with a team");
        for _ in 1..KEPT {
            choice.team.record(9.0);
        }
        assert!(!choice.pick(), "{KEPT} slow steps in a row with a team");
    }

    #[test]
    fn one_thread_runs_the_stage_untimed() {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build();
        let mut choice = TeamChoice::default();
        let ran = pool.unwrap().install(|| choice.run(1 << 20, || 7));
        assert_eq!(ran, 7);
        assert!(!choice.team.tried() && !choice.alone.tried());
    }
}
