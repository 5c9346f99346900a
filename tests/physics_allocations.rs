//! A settled heap's step allocates nothing: every buffer a step's stages fill (the
//! narrow phase's clipped faces and candidate points, the islands, the sleep timers, the
//! rows' colours, the team's jobs) is kept from step to step or lives on the stack.
//! Counted by a global allocator that this test binary alone installs.

use gyrolab::scene::Scene;
use gyrolab::world::World;

mod common;
use common::counting::{self, Counting};

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The allocations `steps` steps of `world` make.
fn allocations(world: &mut World, steps: usize) -> usize {
    let before = counting::calls();
    for _ in 0..steps {
        world.advance(1.0 / 60.0).unwrap();
    }
    counting::calls() - before
}

/// The 1,000-box pile kept awake, once it has settled into a heap (5 s), on one thread
/// and on two (each stage timing its team, and on a team every step); and the ten-box
/// stack. Each step still detects and solves every contact: only the buffers are the
/// last step's.
#[test]
fn a_settled_heap_s_step_allocates_nothing() {
    let cases = [
        ("pile", 1, true, 300),
        ("pile", 2, true, 300),
        ("pile", 2, false, 300),
        ("stack", 1, true, 120),
    ];
    for (name, threads, timed, settle) in cases {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let mut world = Scene::load(name).unwrap().build();
            world.change_solver_settings(|s| s.sleep = false);
            world.contacts_mut().unwrap().set_timed_teams(timed);
            let settling = allocations(&mut world, settle);
            assert!(settling > 0, "{name}: the count sees nothing");
            let settled = allocations(&mut world, 20);
            assert_eq!(
                settled, 0,
                "{name} on {threads} thread(s): allocations in 20 steps"
            );
        });
    }
}
