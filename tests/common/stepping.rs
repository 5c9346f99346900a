//! A world from scene text, and stepping it with a look after every step: how the
//! physics tests drive a scene.

use gyrolab::scene::Scene;
use gyrolab::world::World;

/// The world of scene text (named `test.ron` in errors).
pub fn parse(text: &str) -> World {
    Scene::parse("test.ron", text).unwrap().build()
}

/// Runs `seconds` at `dt`, calling `each` after every step.
pub fn run(world: &mut World, dt: f64, seconds: f64, mut each: impl FnMut(&World)) {
    for _ in 0..(seconds / dt).round() as usize {
        world.advance(dt).unwrap();
        each(world);
    }
}
