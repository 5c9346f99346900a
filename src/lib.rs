//! gyrolab: a rigid-body physics sandbox that shows why rotation is hard.
//! See README.md for the architecture.

pub mod analytic;
pub mod body;
pub mod inertia;
pub mod integrators;
pub mod math;
