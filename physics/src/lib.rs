//! gyrolab-physics: rigid bodies whose rotation is kept exact, in plain Rust on glam.
//!
//! The layers run one way, each using only those before it:
//! `math` ← `body` ← `integrators` ← {`hierarchy`, `contact`} ← `world`; `heap` (the
//! memory a value owns) serves them all. See README.md for stepping another engine's
//! bodies with the midpoint rule, and gyrolab's docs/architecture.md for what each holds.

#![deny(missing_docs)]

pub mod heap;

pub mod math;

pub mod body;

pub mod integrators;

pub mod contact;
pub mod hierarchy;

pub mod world;
