//! gyrolab: a rigid-body physics sandbox that shows why rotation is hard.
//! See README.md for the architecture.

pub mod analytic;
#[cfg(feature = "app")]
pub mod app;
pub mod body;
pub mod cli;
pub mod contact;
pub mod convergence_map;
pub mod grab;
pub mod hierarchy;
pub mod history;
pub mod inertia;
pub mod integrators;
pub mod lab;
pub mod math;
pub mod metrics;
pub mod presets;
pub mod recording;
pub mod run;
pub mod scene;
pub mod world;
