//! Joints: what a joint is ([`joint`]), its rows each step (`joint_rows`, built of
//! `row`s and `point_block`s, with rows of a user's own in [`user_row`]), and the
//! direct solve of their equality rows (`direct`, on `dense` blocks). The solver
//! ([`crate::solver`]) runs their rows in its passes beside the contacts'.

mod dense;
pub(crate) mod direct;
pub mod joint;
pub(crate) mod joint_rows;
pub(crate) mod point_block;
pub(crate) mod row;
pub mod user_row;

pub use joint::{Break, Joint, JointKind, LinearMotor, Motor, Placement, Spring};
pub use user_row::{Jacobian, UserRow, UserRows};
