//! gyrolab-physics: rigid bodies whose rotation is kept exact, in plain Rust on glam.
//!
//! The layers run one way, each using only those before it:
//! `math` ← `body` ← `integrators` ← {`hierarchy`, contacts} ← `world`; `heap` (the
//! memory a value owns) serves them all. The contacts' layer is four rooms: `collision`
//! (which shapes touch), `solver` (contacts and joints turned into impulses), `joints` (a
//! joint and its rows) and `contacts` (their state and scratch, whose stages are methods
//! in `collision` and `solver`); they import each other file by file, never in a circle
//! (gyrolab's tests/tree.rs checks). See README.md for stepping another engine's bodies
//! with the midpoint rule, and gyrolab's docs/architecture.md for what each holds.

#![deny(missing_docs)]

pub mod heap;

pub mod math;

pub mod body;

pub mod integrators;

pub mod collision;
pub mod contacts;
pub mod hierarchy;
pub mod joints;
pub mod solver;

pub mod world;
