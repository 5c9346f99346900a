//! A rigid body: its mass properties, its state and its shapes. The bottom layer above
//! `math`: integrators, the hierarchy and contacts all work on these types.

pub mod inertia;
mod material;
mod rigid_body;
mod state;

pub use material::Material;
pub use rigid_body::Body;
pub use state::{BodyState, MassProps};
