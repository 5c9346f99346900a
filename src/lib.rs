//! gyrolab: a rigid-body physics sandbox that shows why rotation is hard.
//!
//! The layers run one way, each using only those before it:
//! `math` ← `body` ← `integrators` ← {`hierarchy`, `contact`} ← `world` ← `scene` ← `lab`
//! ← `lesson` ← {`cli`, `app`}; `heap` (the memory a value owns), `atomic_file` (files written
//! whole or not at all) and `progress` (a bar on a terminal for long work) serve them all.
//! See docs/architecture.md for what each holds.

pub mod atomic_file;
pub mod heap;
pub mod progress;

pub mod math;

pub mod body;

pub mod integrators;

pub mod contact;
pub mod hierarchy;

pub mod world;

pub mod scene;

pub mod lab;

pub mod lesson;

#[cfg(feature = "app")]
pub mod app;
pub mod cli;
