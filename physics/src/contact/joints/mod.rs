//! Joints: what a joint is ([`joint`]), its rows each step ([`joint_rows`], built of
//! [`row`]s and [`point_block`]s, with rows of a user's own in [`user_row`]), and the
//! direct solve of their equality rows ([`direct`], on [`dense`] blocks).

mod dense;
pub mod direct;
pub mod joint;
pub mod joint_rows;
pub mod point_block;
pub mod row;
pub mod user_row;
