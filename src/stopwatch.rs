//! The native clock the lab is handed ([`crate::lab::stage_time::Now`]): seconds since
//! the process first asked. The lab reads no clock itself, so that it builds for the
//! browser, where `std::time::Instant` panics.

use std::sync::OnceLock;
use std::time::Instant;

/// Seconds since the first call.
pub fn now() -> f64 {
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64()
}
