//! Time series for the app's plots, kept bounded for runs of any length: when a series is
//! full every other sample is dropped and the sampling stride doubles, so an hour-long run
//! still plots end to end in fixed memory; any kind of sample thins the same way (the
//! dock's series are [`Series`] of their own samples). Trails keep the recent path of ω's
//! tip.

use std::collections::VecDeque;

use glam::DVec3;

/// Samples kept per series before it is thinned.
pub const CAPACITY: usize = 4096;

/// One sample: the relative energy error, the relative |ΔL|, and the first body's
/// angular velocity in its body axes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    pub t: f64,
    pub energy: f64,
    pub momentum: f64,
    pub omega: DVec3,
}

/// A sample taken at a simulated time, so a series can be cut at a moment.
pub trait Stamped {
    fn t(&self) -> f64;
}

impl Stamped for Sample {
    fn t(&self) -> f64 {
        self.t
    }
}

#[derive(Clone, Debug)]
pub struct Series<S = Sample> {
    pub samples: Vec<S>,
    stride: usize,
    skipped: usize,
}

impl<S> Default for Series<S> {
    fn default() -> Self {
        Self {
            samples: Vec::new(),
            stride: 0,
            skipped: 0,
        }
    }
}

impl<S> Series<S> {
    pub fn record(&mut self, sample: S) {
        self.stride = self.stride.max(1);
        if self.skipped + 1 < self.stride {
            self.skipped += 1;
            return;
        }
        self.skipped = 0;
        self.samples.push(sample);
        if self.samples.len() >= CAPACITY {
            let mut i = 0;
            self.samples.retain(|_| {
                i += 1;
                i % 2 == 1
            });
            // The newest sample had an odd index and went; the next one is due one old
            // stride after the newest kept sample.
            self.skipped = self.stride;
            self.stride *= 2;
        }
    }

    pub fn last(&self) -> Option<&S> {
        self.samples.last()
    }
}

impl<S: Stamped> Series<S> {
    /// Forgets the samples after time `t` (a branch discards the old future).
    pub fn truncate_after(&mut self, t: f64) {
        self.samples.retain(|s| s.t() <= t);
        self.skipped = 0;
    }
}

/// Steps of ω's path a trail keeps: about two flips of the T-handle at 100 Hz.
pub const TRAIL_LENGTH: usize = 1200;

/// The tip of one body's angular velocity, in world axes (its path is the herpolhode) and
/// in body axes (the polhode), most recent last.
#[derive(Clone, Debug, Default)]
pub struct Trail {
    pub world: VecDeque<DVec3>,
    pub body: VecDeque<DVec3>,
}

impl Trail {
    pub fn record(&mut self, world: DVec3, body: DVec3) {
        if self.world.len() == TRAIL_LENGTH {
            self.world.pop_front();
            self.body.pop_front();
        }
        self.world.push_back(world);
        self.body.push_back(body);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(t: f64) -> Sample {
        Sample {
            t,
            energy: 0.0,
            momentum: 0.0,
            omega: DVec3::ZERO,
        }
    }

    #[test]
    fn a_long_run_stays_bounded_and_evenly_spaced() {
        let mut s = Series::default();
        let n = 100 * CAPACITY;
        for i in 0..n {
            s.record(sample(i as f64));
        }
        assert!(s.samples.len() < CAPACITY);
        assert!(s.samples.len() > CAPACITY / 4);
        assert_eq!(s.samples[0].t, 0.0);
        let gaps: Vec<f64> = s.samples.windows(2).map(|w| w[1].t - w[0].t).collect();
        assert!(gaps.iter().all(|&g| g == gaps[0]), "even spacing");
        // The newest sample is at most one stride behind the run.
        assert!(s.last().unwrap().t >= (n - 1) as f64 - gaps[0]);
    }
}
