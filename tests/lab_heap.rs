//! The history's memory budget rests on `heap_bytes`: here it is checked against what
//! the allocator really hands out when a snapshot is taken, counted by a global
//! allocator that this test binary alone installs.

use gyrolab::lab::Lab;
use gyrolab::scene::Scene;

mod common;
use common::counting::{self, Counting};

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Bytes allocated and still held after `f`, which returns what holds them.
fn held_by<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = counting::held();
    let value = f();
    (value, counting::held() - before)
}

/// Snapshots of scenes of every kind: `heap_bytes` is what the snapshot holds, to the
/// byte (one test thread, so nothing else allocates meanwhile).
#[test]
fn heap_bytes_is_what_a_snapshot_holds() {
    for (name, steps) in [
        ("pile", 100),
        ("tank", 200),
        ("dzhanibekov", 10),
        ("turntable", 10),
    ] {
        let mut lab = Lab::new(Scene::load(name).unwrap());
        for _ in 0..steps {
            lab.step();
        }
        let (snapshot, held) = held_by(|| lab.snapshot());
        assert_eq!(snapshot.heap_bytes(), held, "{name}");
        assert!(held > 0);
    }
    // A known case: the pile's 1,000 boxes hold at least their bodies and contacts.
    let mut pile = Lab::new(Scene::load("pile").unwrap());
    pile.step();
    let world = pile.world();
    let floor = std::mem::size_of_val(world.bodies())
        + world.contacts().unwrap().graph().len()
            * std::mem::size_of::<gyrolab::collision::Contact>();
    assert!(pile.snapshot().heap_bytes() > floor);
}
