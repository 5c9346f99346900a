//! Transform-hierarchy dynamics ([cwzx, Hierarchy]; see docs/references.md): transforms with their motion, composed and
//! inverted along a parent tree, and rigid bodies integrated in their parent's moving
//! frame under the inertial forces that frame produces.

pub mod drive;
pub mod dynamic;
pub mod moving_frame;
pub mod precession;
pub mod rig;
pub mod transform;

pub use drive::Drive;
pub use dynamic::{Delta, DynamicTransform};
pub use moving_frame::{InertialForces, LocalMotion, Tether, step_in_frame};
pub use precession::PrecessionMeter;
pub use rig::{Frame, Gun, Mount, Rider};
pub use transform::Transform;
