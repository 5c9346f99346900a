//! gyrolab's lab, the part of gyrolab that the app, the command line and the browser
//! share: `scene` (scene files read, checked, described and built) ← `lab` (lanes of
//! integrators from one start beside the exact ghost, the recording, the timeline and the
//! dock's series, changed only through [`lab::Lab::apply`]) ← `lesson` (lessons read,
//! walked and measured, set-up codes). It writes no file and reads no clock: callers
//! write the bytes it hands them and pass the time when they want stages timed.
//!
//! `palette` holds the colours every view of a lab shares (the app's, the pages').
//!
//! The physics crate's modules are re-exported under their own names, so that the lab's
//! paths read as gyrolab's.

pub use gyrolab_physics::{
    body, collision, contacts, heap, hierarchy, integrators, joints, math, solver, world,
};

pub mod scene;

pub mod lab;

pub mod lesson;

pub mod palette;
