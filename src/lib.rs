//! gyrolab: a rigid-body physics sandbox that shows why rotation is hard.
//!
//! The physics (`math` ← `body` ← `integrators` ← {`hierarchy`, `collision` + `joints` +
//! `solver` + `contacts`} ← `world`) is
//! the crate `gyrolab-physics`, re-exported here under the same names; on it the crate
//! `gyrolab-lab` runs `scene` ← `lab` ← `lesson` (and `palette`, the colours every view
//! shares), also re-exported; on them run `web` ← {`cli`, `app`}. `atomic_file` (files
//! written whole or not at all), `gif_clip` (a clip's frames as one animated GIF),
//! `progress` (a bar on a terminal for long work), `records` (the lab's records and rows
//! written as CSV or JSON lines), `state_file` (a moment saved) and `stopwatch` (the clock
//! the lab is handed) serve them. See docs/architecture.md for what each holds.

pub use gyrolab_lab::{lab, lesson, palette, scene};
pub use gyrolab_physics::{
    body, collision, contacts, heap, hierarchy, integrators, joints, math, solver, world,
};

pub mod atomic_file;
pub mod gif_clip;
pub mod progress;
pub mod records;
pub mod state_file;
pub mod stopwatch;

pub mod web;

#[cfg(feature = "app")]
pub mod app;
pub mod cli;
