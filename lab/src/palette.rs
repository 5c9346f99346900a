//! The colours that the app and the web page share, as sRGB triples from 0 to 1: an
//! integrator, an axis or an inertial force has one colour wherever gyrolab draws it
//! (the app's `app/colors.rs` makes Bevy colours of them, `web` CSS ones).

/// One colour per integrator, in [`crate::integrators::Integrator::ALL`] order.
pub const INTEGRATORS: [[f32; 3]; 16] = [
    [1.00, 0.45, 0.55],
    [0.90, 0.30, 0.25],
    [0.95, 0.60, 0.20],
    // Brown, not grey: the exact ghost is a light translucent grey.
    [0.72, 0.50, 0.32],
    [0.85, 0.75, 0.20],
    [0.70, 0.45, 0.85],
    [0.30, 0.80, 0.45],
    [0.25, 0.75, 0.80],
    [0.35, 0.55, 0.95],
    [0.90, 0.45, 0.70],
    [0.65, 0.85, 0.30],
    [0.55, 0.35, 0.95],
    [1.00, 0.80, 0.55],
    [0.55, 0.90, 0.85],
    [0.80, 0.95, 0.55],
    [0.95, 0.95, 0.95],
];

/// The exact solution's lines in the plots.
pub const GHOST_PLOT: [f32; 3] = [0.86, 0.86, 0.86];

/// Body x, y, z: the principal axes in the view and the body-ω components in the plots.
pub const AXES: [[f32; 3]; 3] = [[0.9, 0.35, 0.35], [0.35, 0.85, 0.4], [0.4, 0.5, 0.95]];

/// The frame's own acceleration, Euler, centrifugal and Coriolis, in
/// [`crate::hierarchy::InertialForces::named`] order.
pub const FORCES: [[f32; 3]; 4] = [
    [0.95, 0.85, 0.3],
    [0.85, 0.4, 0.95],
    [1.0, 0.55, 0.2],
    [0.3, 0.9, 0.95],
];

/// A measurement beside its formula: the measured line and the formula's.
pub const MEASURED: [f32; 3] = [1.0, 1.0, 1.0];
pub const FORMULA: [f32; 3] = [0.68, 0.85, 0.9];

/// `#rrggbb` of a colour, for CSS.
pub fn hex([r, g, b]: [f32; 3]) -> String {
    let byte = |c: f32| (c.clamp(0.0, 1.0) * 255.0).round() as u8;
    format!("#{:02x}{:02x}{:02x}", byte(r), byte(g), byte(b))
}
