//! Lessons: a scene, what a teacher fixes about it, and steps that have the student
//! predict, run, measure and compare with theory (the learning cycle of PhET's and the
//! Open Source Physics' lessons). A lesson is a RON file ([`schema`]); it is read with the
//! scene files' errors, file:line:field ([`read`]), and its runs and readouts can be
//! taken without a window ([`run`]), so that a lesson that claims something the
//! simulation does not do fails its test.

mod builtin;
pub mod measure;
mod read;
pub mod run;
mod schema;
pub mod setup;
mod swing;
pub mod tolerance;
pub mod walk;

pub use builtin::{lesson_names, load};
pub use schema::{Axis, Card, Event, Lesson, MOST_CHOICES, Quantity, Setting};
