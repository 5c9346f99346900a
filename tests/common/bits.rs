//! Every body's state as bits, for the tests that check two ways of stepping a world
//! give the same result to the last bit.

use gyrolab::world::World;

/// Each body's position, velocity, angular momentum and orientation, as bits.
pub fn state_bits(world: &World) -> Vec<u64> {
    world
        .bodies()
        .iter()
        .flat_map(|b| {
            let s = &b.state;
            let q = s.orientation;
            [
                s.position.to_array(),
                s.velocity.to_array(),
                s.angular_momentum.to_array(),
            ]
            .into_iter()
            .flatten()
            .chain([q.x, q.y, q.z, q.w])
            .map(f64::to_bits)
            .collect::<Vec<_>>()
        })
        .collect()
}
