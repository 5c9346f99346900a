//! The contact solve: a manifold's rows (a normal row per point, friction and twist for
//! the whole manifold), prepared once a step, moved with the bodies through the solver
//! sub-steps, and run pass after pass (warm start, iterations, relax, restitution) colour by
//! colour, eight manifolds at a time in SIMD slots, on a team of threads.
//!
//! - `body.rs`: the solver's view of a body; `soft.rs`: the one impulse formula;
//!   `bias.rs`: where a normal row's bias comes from.
//! - `contact_rows.rs`: one manifold's rows; `kernel.rs`: their maths, alone or in slots;
//!   `refresh.rs`: moving them with their bodies; `wide.rs`: the numbers they run on.
//! - `colouring.rs` and `groups.rs`: the rows packed into colours and SIMD slots;
//!   `parallel.rs` and `team.rs`: the passes, colour by colour, and the threads.

pub(crate) mod bias;
pub(crate) mod body;
pub(crate) mod colouring;
pub(crate) mod contact_rows;
pub(crate) mod groups;
pub(crate) mod kernel;
pub mod parallel;
pub(crate) mod refresh;
pub(crate) mod soft;
pub(crate) mod team;
pub(crate) mod wide;
