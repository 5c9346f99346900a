//! A cheap 64-bit fingerprint of a moment: XXH3 [Collet, XXH3] over the bits of the time and of every
//! body's state (position, velocity, orientation, angular momentum) in every lane. The
//! timeline keeps one per recorded step, so a step simulated again can be checked against
//! the recording without keeping every state.

use std::hash::Hasher;

use twox_hash::XxHash3_64;

use crate::world::World;

pub fn fingerprint<'a>(worlds: impl IntoIterator<Item = &'a World>) -> u64 {
    let mut hasher = XxHash3_64::default();
    for world in worlds {
        hasher.write_u64(world.time().to_bits());
        for body in world.bodies() {
            let s = &body.state;
            let words = [
                s.position.to_array(),
                s.velocity.to_array(),
                s.angular_momentum.to_array(),
            ];
            let orientation = s.orientation.to_array();
            let mut bytes = [0u8; 13 * 8];
            let values = words.iter().flatten().chain(&orientation);
            for (chunk, x) in bytes.chunks_exact_mut(8).zip(values) {
                chunk.copy_from_slice(&x.to_bits().to_le_bytes());
            }
            hasher.write(&bytes);
        }
    }
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::Scene;

    /// Any change of one bit of one body's state changes the fingerprint; equal states
    /// give equal fingerprints.
    #[test]
    fn one_bit_of_one_body_changes_the_fingerprint() {
        let world = Scene::load("stack").unwrap().build();
        let base = fingerprint([&world]);
        assert_eq!(base, fingerprint([&world.clone()]));
        let mut other = world.clone();
        let z = &mut other.bodies_mut()[7].state.angular_momentum.z;
        *z = f64::from_bits(z.to_bits() ^ 1);
        assert_ne!(base, fingerprint([&other]));
        // The clock is the world's own: moved by one bit in its serialised form.
        let mut later = serde_json::to_value(&world).unwrap();
        later["time"] = f64::from_bits(world.time().to_bits() ^ 1).into();
        let later: World = serde_json::from_value(later).unwrap();
        assert_ne!(base, fingerprint([&later]));
    }
}
