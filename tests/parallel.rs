//! The coloured solve on several threads: bitwise the same as on one, with either
//! solver; and a 10,000-box pile that settles without exploding or gaining energy.

use gyrolab::contact::SolverKind;
use gyrolab::contact::parallel::PARALLEL_ROWS;
use gyrolab::scene::Scene;
use gyrolab::world::World;

fn pile(count: usize, solver: SolverKind) -> (World, f64) {
    let mut scene = Scene::load("pile").unwrap();
    scene.set_generated_size(count).unwrap();
    let mut world = scene.build();
    let s = &mut world.contacts.as_mut().unwrap().settings;
    s.solver = solver;
    s.sleep = false;
    (world, scene.dt)
}

/// Every body's state, as bits.
fn bits(world: &World) -> Vec<u64> {
    world
        .bodies
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

/// A thousand boxes piling up, stepped on pools of one, two and four threads: the states
/// agree to the bit after every step, with either solver. The colours must be big enough
/// that their rows really ran at once (checked), or the test would compare nothing.
#[test]
fn the_coloured_solve_is_bitwise_the_same_on_any_number_of_threads() {
    for solver in SolverKind::ALL {
        let pools: Vec<rayon::ThreadPool> = [1, 2, 4]
            .map(|n| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(n)
                    .build()
                    .unwrap()
            })
            .into();
        let mut worlds: Vec<(World, f64)> = pools.iter().map(|_| pile(1000, solver)).collect();
        let mut widest = 0;
        for step in 0..150 {
            for (pool, (world, dt)) in pools.iter().zip(&mut worlds) {
                pool.install(|| world.step(*dt)).unwrap();
            }
            let contacts = worlds[0].0.contacts.as_ref().unwrap();
            widest = contacts
                .state
                .colours
                .ranges
                .iter()
                .map(|r| r.len())
                .fold(widest, usize::max);
            let reference = bits(&worlds[0].0);
            for (threads, (world, _)) in [2, 4].iter().zip(&worlds[1..]) {
                assert!(
                    bits(world) == reference,
                    "{solver}: {threads} threads differ from one at step {step}"
                );
            }
        }
        assert!(
            widest >= PARALLEL_ROWS,
            "{solver}: the widest colour had {widest} rows, too few to run in parallel"
        );
    }
}

/// A 10,000-box pile (the benchmark's) falls, piles up and settles, kept awake: no box
/// flies off (above where it started, or faster than the fall could make it), and once
/// settled the total energy never rises. Slow (a minute on two cores): run it with
/// `cargo test --release --no-default-features --test parallel -- --ignored`.
#[test]
#[ignore]
fn a_ten_thousand_box_pile_settles_without_explosion_or_energy_gain() {
    let (mut world, dt) = pile(10_000, SolverKind::Soft);
    let top = world
        .bodies
        .iter()
        .map(|b| b.state.position.y)
        .fold(f64::NEG_INFINITY, f64::max);
    // The fastest any box can fall from where it started, and a margin.
    let v_max = (2.0 * 9.81 * top).sqrt() + 1.0;
    let check = |w: &World, t: f64| {
        for b in &w.bodies {
            let s = &b.state;
            assert!(s.is_finite(), "{} is not finite at {t} s", b.name);
            assert!(
                s.position.y < top + 0.5,
                "{} flew up to {} at {t} s",
                b.name,
                s.position.y
            );
            assert!(
                s.position.y > 0.0,
                "{} fell through the ground at {t} s",
                b.name
            );
            let v = s.velocity.length();
            assert!(v < v_max, "{} moves at {v} m/s at {t} s", b.name);
        }
    };
    let (settle, watch) = (6.0, 3.0);
    let steps = |seconds: f64| (seconds / dt).round() as usize;
    for k in 0..steps(settle) {
        world.step(dt).unwrap();
        check(&world, k as f64 * dt);
    }
    let settled = world.energy();
    let speed = |w: &World| {
        w.bodies
            .iter()
            .map(|b| b.state.velocity.length())
            .fold(0.0, f64::max)
    };
    assert!(
        speed(&world) < 0.5,
        "still moving at {} m/s after {settle} s",
        speed(&world)
    );
    let mut highest = settled;
    for k in 0..steps(watch) {
        world.step(dt).unwrap();
        check(&world, settle + k as f64 * dt);
        highest = highest.max(world.energy());
    }
    // The energy of 10,000 boxes is about 1e6 J; 1 J is a box rising by 10 cm.
    assert!(
        highest <= settled + 1.0,
        "the settled pile gained {} J (from {settled} J)",
        highest - settled
    );
}
