//! Solving: contacts and joints turned into impulses by a sequential-impulse solver,
//! classic (PGS with Baumgarte) or soft (Box2D v3's soft step, in solver sub-steps), and
//! the bodies it moves integrated; islands and sleep; every parameter.
//!
//! # Where the rotational integrators come in
//! A step is split the way Havok and Box2D split it [Havok solver]: first the
//! velocities, then the positions. Gravity and every contact and joint impulse change
//! linear and angular momentum: an impulse `P` at lever `r` adds `P/m` to `v` and `r × P`
//! to `L` exactly, whatever integrator is chosen, because impulses are instantaneous.
//! The solver works in world angular velocity `ω = I_w⁻¹ L` at the step's start
//! orientation and hands `L = I_w ω` back. Then the chosen integrator advances each
//! body through the step as a FREE body with that momentum: the position by `h v`, the
//! orientation by its own rule, gyroscopic term included (or left out, for `no-gyro`).
//! This is a Lie–Trotter splitting (kick, then free flight): first order in the
//! coupling, but the free flight keeps each integrator's character, so the dancing pole
//! precesses and falls with `midpoint` and spins on with `no-gyro`, as it does without
//! contacts. Every integrator works here; the torque-free exact solution does too,
//! between impulses.
//!
//! # Where things are
//! - `solve.rs`: the solve stage, every stage after detection in order; `step.rs`: the
//!   solver's stages ([`StepState`]); `islands.rs`: islands and every body's sleep state;
//!   `settings.rs`: every parameter.
//! - `body.rs`: the solver's view of a body; `soft.rs`: the one impulse formula;
//!   `bias.rs`: where a normal row's bias comes from.
//! - `contact_rows.rs`: one manifold's rows (a normal row per point, friction and twist
//!   for the whole manifold), prepared once a step and moved with the bodies through the
//!   solver sub-steps; `kernel.rs`: their maths, alone or in slots; `refresh.rs`: moving
//!   them with their bodies; `wide.rs`: the numbers they run on.
//! - `colouring.rs` and `groups.rs`: the rows packed into colours and SIMD slots, eight
//!   manifolds at a time; `parallel.rs` and `team.rs`: the passes (warm start,
//!   iterations, relax, restitution), colour by colour, and the threads; `choice.rs`:
//!   whether a team of threads pays, timed.
//!
//! A joint's rows are built in [`crate::joints`] and run in the same passes.

pub(crate) mod bias;
pub(crate) mod body;
pub(crate) mod choice;
pub(crate) mod colouring;
pub(crate) mod contact_rows;
pub(crate) mod groups;
pub mod islands;
pub(crate) mod kernel;
pub mod parallel;
pub(crate) mod refresh;
pub mod settings;
pub(crate) mod soft;
mod solve;
pub(crate) mod step;
pub(crate) mod team;
pub(crate) mod wide;

pub use islands::{Sleep, Sleeping};
pub use settings::{JointSolver, Softness, SolverKind, SolverSettings};
pub(crate) use step::Movers;
pub use step::StepState;
pub use wide::ROW_EPSILON;
