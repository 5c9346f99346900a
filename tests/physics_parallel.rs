//! The coloured solve on several threads: bitwise the same as on one, with either
//! solver; and a 10,000-box pile that settles without exploding or gaining energy.

mod common;
use common::bits;

use bits::state_bits;
use gyrolab::scene::Scene;
use gyrolab::solver::SolverKind;
use gyrolab::solver::parallel::PARALLEL_ROWS;
use gyrolab::world::World;

fn pile(count: usize, solver: SolverKind) -> (World, f64) {
    let mut scene = Scene::load("pile").unwrap();
    scene.set_generated_size(count).unwrap();
    let mut world = scene.build();
    world.change_solver_settings(|s| (s.solver, s.sleep) = (solver, false));
    // A team every step, not only where it measured faster: the loops on threads are
    // what is compared.
    world.contacts_mut().unwrap().set_timed_teams(false);
    (world, scene.dt)
}

/// A thousand boxes piling up, stepped on pools of one, two and four threads, each stage
/// on a team every step: the states agree to the bit after every step, with either
/// solver. The colours must be big enough that their rows really ran at once (checked),
/// or the test would compare nothing.
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
                pool.install(|| world.advance(*dt)).unwrap();
            }
            let contacts = worlds[0].0.contacts().unwrap();
            widest = widest.max(contacts.last_step().widest_colour());
            let reference = state_bits(&worlds[0].0);
            for (threads, (world, _)) in [2, 4].iter().zip(&worlds[1..]) {
                assert!(
                    state_bits(world) == reference,
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

/// A 10,000-box pile (the benchmark's) falls and settles, kept awake: no box flies off
/// (above where it started, or faster than the fall could make it), and once settled
/// the total energy does not rise by more than a tenth of what lifting every box by the
/// slop (the overlap the contacts leave uncorrected) would take. Settled means every box
/// slower than the sleep speed, within 20 s. Slow (three to four minutes on two cores):
/// run it with `cargo test --release --no-default-features --test physics_parallel -- --ignored`.
#[test]
#[ignore]
fn a_ten_thousand_box_pile_settles_without_explosion_or_energy_gain() {
    let (mut world, dt) = pile(10_000, SolverKind::Soft);
    let top = world
        .bodies()
        .iter()
        .map(|b| b.state.position.y)
        .fold(f64::NEG_INFINITY, f64::max);
    // The fastest a box can come down from where it started, and a margin: the tip of a
    // rigid column of that height toppling over, `√(3 g h)` (faster than a free fall's
    // `√(2 g h)`: boxes landing on a box can pass it some of their energy).
    let v_max = (3.0 * 9.81 * top).sqrt() + 1.0;
    let check = |w: &World, t: f64| {
        for b in w.bodies() {
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
    let speed = |w: &World| {
        w.bodies()
            .iter()
            .map(|b| b.state.velocity.length())
            .fold(0.0, f64::max)
    };
    // Settled: every box slower than the speed at which islands may sleep, for twice
    // the time after which they would (a brief calm while the heap forms does not last
    // that long).
    let settings = *world.contacts().unwrap().settings();
    let (limit, watch) = (20.0, 3.0);
    let steps = |seconds: f64| (seconds / dt).round() as usize;
    let (mut settle, mut calm) = (0.0, 0.0);
    while calm < 2.0 * settings.sleep_time {
        assert!(
            settle < limit,
            "still moving at {} m/s after {limit} s",
            speed(&world)
        );
        world.advance(dt).unwrap();
        settle += dt;
        check(&world, settle);
        calm = if speed(&world) < settings.sleep_speed {
            calm + dt
        } else {
            0.0
        };
    }
    let settled = world.energy();
    let mut highest = settled;
    for k in 0..steps(watch) {
        world.advance(dt).unwrap();
        check(&world, settle + k as f64 * dt);
        highest = highest.max(world.energy());
    }
    let mass: f64 = world.bodies().iter().map(|b| b.props.mass).sum();
    let tolerance = 0.1 * mass * 9.81 * settings.slop;
    assert!(
        highest <= settled + tolerance,
        "the settled pile gained {} J (from {settled} J; allowed {tolerance} J)",
        highest - settled
    );
}
