//! Collision: which shapes touch and where. The detect stage (`detect`) places each
//! body's parts ([`geometry`], `pose`; driven colliders in `kinematic`) as proxies,
//! sweeps and prunes their boxes ([`broad_phase`]), makes a manifold for each pair within
//! reach (`narrow_phase`, `box_box`, `manifold.rs`) and keeps them in the contact
//! graph ([`graph`], each a [`Contact`]); `ccd` stops fast bodies short of tunnelling;
//! `ray` casts rays (picking). The solver ([`crate::solver`]) turns the manifolds into
//! impulses.

pub(crate) mod box_box;
pub mod broad_phase;
mod ccd;
mod contact;
pub(crate) mod detect;
pub mod geometry;
pub mod graph;
pub(crate) mod kinematic;
pub(crate) mod manifold;
pub(crate) mod narrow_phase;
pub(crate) mod pose;
pub(crate) mod proxy;
mod ray;

pub use contact::Contact;
pub use geometry::{Aabb, Geom, Plane};
pub use graph::{ContactGraph, NONE};
pub use kinematic::Kinematic;
pub use manifold::{ContactPoint, Manifold, Origin};
pub use pose::Pose;
