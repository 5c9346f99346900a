//! gyrolab-physics: rigid bodies whose rotation is kept exact, in plain Rust on glam.
//!
//! The layers run one way, each using only those before it:
//! `math` ← `body` ← `integrators` ← {`hierarchy`, `collision`, `joints`, `solver`} ←
//! `contacts` ← `world`; `heap` (the memory a value owns) serves them all. Collision
//! (which shapes touch) and solving (contacts and joints turned into impulses) are rooms
//! apart, joints one of their own; `contacts` holds their state and runs their stages. See README.md for stepping another engine's
//! bodies with the midpoint rule, and gyrolab's docs/architecture.md for what each holds.

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
