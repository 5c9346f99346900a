//! The order in which the mouse is read each frame: picking a body first, so that a press
//! on a body holds it, and only a press on empty space orbits the camera.

use bevy::prelude::*;

#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InputSet {
    /// Pick up, drag and release bodies.
    Pick,
    /// Orbit, pan and zoom, unless a body is held.
    Camera,
}

pub struct InputPlugin;

impl Plugin for InputPlugin {
    fn build(&self, app: &mut App) {
        app.configure_sets(Update, (InputSet::Pick, InputSet::Camera).chain());
    }
}
