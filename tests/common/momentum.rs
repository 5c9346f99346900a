//! What conserved momentum is checked against: every body's together.

use glam::DVec3;
use gyrolab::world::World;

/// The world's linear momentum and its angular momentum about the origin (each body's
/// `m v`, and its `x × m v` plus its spin).
pub fn total_momentum(w: &World) -> (DVec3, DVec3) {
    let p = w
        .bodies()
        .iter()
        .map(|b| b.state.velocity * b.props.mass)
        .sum();
    let l = w
        .bodies()
        .iter()
        .map(|b| b.state.position.cross(b.state.velocity * b.props.mass) + b.state.angular_momentum)
        .sum();
    (p, l)
}
