//! Wall time of each stage of the world's step, every lane and the ghost together, as the
//! Box2D and rapier profilers time theirs: measured by the lab around each stage, so the
//! status line and the dock's plot show the same numbers. The lab reads no clock of its
//! own (`std::time::Instant` panics on wasm32-unknown-unknown): the caller passes one.

use crate::world::Stage;

/// Microseconds per stage, in [`Stage::ALL`] order.
pub type PerStage = [f64; Stage::ALL.len()];

/// The caller's clock: seconds since any fixed moment, never going back, and moving on
/// as time passes.
pub type Now = fn() -> f64;

#[derive(Clone, Debug, Default)]
pub struct StageTimes {
    /// The clock stages are timed with; none, and every stage takes no time.
    now: Option<Now>,
    /// This integrator step so far.
    step: PerStage,
    /// Per integrator step, smoothed over recent steps.
    pub smoothed: PerStage,
}

/// Mixes a new measurement into a smoothed one: an exponential average over about the
/// last 20 values, which steadies a readout that changes every step.
pub fn smooth(old: &mut f64, new: f64) {
    *old = if *old == 0.0 {
        new
    } else {
        0.95 * *old + 0.05 * new
    };
}

impl StageTimes {
    /// Stages timed with `now`.
    pub fn with_clock(now: Now) -> Self {
        Self {
            now: Some(now),
            ..Self::default()
        }
    }

    /// The clock stages are timed with, if any.
    pub fn clock(&self) -> Option<Now> {
        self.now
    }

    /// Runs one stage and adds its wall time to this integrator step's.
    pub fn time<R>(&mut self, stage: Stage, run: impl FnOnce() -> R) -> R {
        let Some(now) = self.now else {
            return run();
        };
        let start = now();
        let out = run();
        let k = Stage::ALL
            .iter()
            .position(|&s| s == stage)
            .expect("every stage is in Stage::ALL");
        self.step[k] += (now() - start) * 1e6;
        out
    }

    /// Ends an integrator step: its times join the smoothed ones.
    pub fn end_step(&mut self) {
        for (smoothed, step) in self.smoothed.iter_mut().zip(&mut self.step) {
            smooth(smoothed, *step);
            *step = 0.0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stage that sleeps shows up in its own slot, at least as long as it slept, and
    /// no other stage takes its time.
    #[test]
    fn each_stage_gets_its_own_time() {
        fn now() -> f64 {
            static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
            START
                .get_or_init(std::time::Instant::now)
                .elapsed()
                .as_secs_f64()
        }
        let mut times = StageTimes::with_clock(now);
        times.time(Stage::Solve, || {
            std::thread::sleep(std::time::Duration::from_millis(2))
        });
        times.time(Stage::Detect, || ());
        times.end_step();
        let solve = Stage::ALL.iter().position(|&s| s == Stage::Solve).unwrap();
        assert!(times.smoothed[solve] >= 2000.0, "{:?}", times.smoothed);
        let others: f64 = (0..6)
            .filter(|&k| k != solve)
            .map(|k| times.smoothed[k])
            .sum();
        assert!(others < 1000.0, "{:?}", times.smoothed);
        // The next step starts from zero: a step without the sleep pulls the average down
        // by a twentieth.
        let before = times.smoothed[solve];
        times.time(Stage::Solve, || ());
        times.end_step();
        assert!(
            times.smoothed[solve] < 0.95 * before + 5.0,
            "{before} -> {:?}",
            times.smoothed
        );
    }

    #[test]
    fn smoothing_moves_a_twentieth_of_the_way() {
        let mut x = 0.0;
        smooth(&mut x, 10.0);
        assert_eq!(x, 10.0, "the first value is taken as it is");
        smooth(&mut x, 30.0);
        assert!((x - 11.0).abs() < 1e-12);
    }
}
