//! Transform-hierarchy dynamics (seed 000): transforms with their motion, composed and
//! inverted along a parent tree, and rigid bodies integrated in their parent's moving
//! frame under the inertial forces that frame produces.

pub mod dynamic;
pub mod transform;

pub use dynamic::{Delta, DynamicTransform};
pub use transform::Transform;
