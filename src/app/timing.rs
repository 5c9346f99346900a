//! The CPU time of gyrolab's own systems: every system starts a [`Timed`] guard, and the
//! status line reads the total once per frame.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Nanoseconds spent in our own systems this frame. A global counter rather than a
/// resource: a `ResMut` in every system would serialise them and change what is measured.
static OURS: AtomicU64 = AtomicU64::new(0);

/// Adds the time until it is dropped to this frame's cost of our systems.
pub struct Timed(Instant);

impl Timed {
    pub fn start() -> Self {
        Self(Instant::now())
    }
}

impl Drop for Timed {
    fn drop(&mut self) {
        OURS.fetch_add(self.0.elapsed().as_nanos() as u64, Ordering::Relaxed);
    }
}

/// Milliseconds our systems took since the last call, and starts counting again.
pub fn take_ours_ms() -> f64 {
    OURS.swap(0, Ordering::Relaxed) as f64 * 1e-6
}
