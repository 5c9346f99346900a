//! Scene files: RON descriptions of bodies, loaded with errors that name the file, the
//! line and the field. Its jobs, a file each: what a file holds ([`schema`]), the
//! built-in scenes ([`builtin`]), reading a user's file ([`read`]), parsing and
//! validating ([`parse`], [`validate`] against [`ranges`], [`locate`] for the line and
//! column), and the world a scene describes ([`build`]); `contacts` and `frames` hold
//! those sections' types, checks and building.

mod build;
mod builtin;
mod check;
mod contacts;
mod describe;
mod error;
mod frames;
pub mod locate;
mod parse;
pub mod ranges;
pub mod read;
mod schema;
mod validate;

pub use builtin::{DEFAULT_SCENE, builtin_scenes, scene_names};
pub use check::{check_step, shape as check_shape};
pub use contacts::{JointType, validate_solver};
pub use error::{Invalid, SceneError, unknown};
pub use schema::{BodyDesc, CameraDesc, PartDesc, Readout, Scene};

use schema::euler_deg;

#[cfg(test)]
mod tests;
