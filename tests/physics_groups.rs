//! The contact solve in SIMD groups: bitwise the same as the rows one at a time.

mod common;
use common::bits;

use bits::state_bits;
use gyrolab::scene::Scene;
use gyrolab::solver::SolverKind;
use gyrolab::world::World;

fn pile(count: usize, solver: SolverKind, scalar: bool) -> (World, f64) {
    let mut scene = Scene::load("pile").unwrap();
    scene.set_generated_size(count).unwrap();
    let mut world = scene.build();
    world.change_solver_settings(|s| (s.solver, s.sleep) = (solver, false));
    world.contacts_mut().unwrap().set_scalar_rows(scalar);
    (world, scene.dt)
}

fn rows_solved(world: &World) -> u64 {
    world.contacts().unwrap().last_step().rows_solved_in_slots()
}

/// A thousand boxes piling up, solved eight at a time in SIMD groups and one row at a time: every body's
/// state agrees to the bit after every step, with either solver; and the groups really
/// solved and warm-started at least 90% of the rows (the rest are left over in their
/// colour's last, partial group). The pile's manifolds all have four points and carry
/// load: the groups' other cases are the unit test's, on random rows.
#[test]
fn the_groups_solve_bitwise_as_the_rows_one_at_a_time() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    for solver in SolverKind::ALL {
        let (mut grouped, dt) = pile(1000, solver, false);
        let (mut rows, _) = pile(1000, solver, true);
        let settings = *grouped.contacts().unwrap().settings();
        // Solve passes and warm starts a step.
        let passes = match solver {
            SolverKind::Pgs => settings.iterations + u32::from(settings.warm_start),
            SolverKind::Soft => settings.substeps * (settings.substep_iterations + 2),
        } as u64;
        let mut row_passes = 0;
        for step in 0..150 {
            pool.install(|| grouped.advance(dt)).unwrap();
            pool.install(|| rows.advance(dt)).unwrap();
            row_passes += passes * grouped.contacts().unwrap().last_step().contact_rows() as u64;
            assert!(
                state_bits(&grouped) == state_bits(&rows),
                "{solver}: the groups differ from the rows at step {step}"
            );
        }
        assert_eq!(rows_solved(&rows), 0, "{solver}: the reference used groups");
        let solved = rows_solved(&grouped);
        assert!(
            10 * solved >= 9 * row_passes && solved <= row_passes,
            "{solver}: the groups solved {solved} of {row_passes} row passes"
        );
    }
}
