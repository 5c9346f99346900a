//! The order egui draws in each frame: the panels first, so that the overlays that sit on
//! the 3D view (labels, readouts, the keys' help) know the space the panels left.

use bevy::prelude::*;

/// The panels; overlays that sit on the 3D view are drawn after them.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct Panels;
