//! Implicit midpoint in exponential coordinates [Mizerski 2020]: the rule gyrolab
//! recommends, second order, world angular momentum exact, energy bounded.

use super::ObjectSpaceRule;

/// Implicit midpoint: `I v = R(−v/2) k`.
pub struct Midpoint;

impl ObjectSpaceRule for Midpoint {
    const WEIGHT: f64 = 1.0;
    const SCALE: f64 = 0.5;
    const NEWTON_BOUND: f64 = std::f64::consts::SQRT_2;
}
