//! Contacts and joints against physics: restitution, Coulomb friction on a slope, a
//! pendulum's period, momentum in free collisions, no tunnelling, Newton's cradle, a
//! resting stack, a standing pyramid, falling dominoes, the dancing pole, a top's
//! precession; and the broad phase against a brute-force pass over distinct pairs.

mod common;
use common::{crossings, momentum, stepping};
use std::f64::consts::{PI, TAU};

use crossings::Crossings;
use momentum::total_momentum;
use stepping::{parse, run};

use glam::DVec3;
use gyrolab::body::inertia::Shape;
use gyrolab::collision::Aabb;
use gyrolab::collision::broad_phase::SweepAndPrune;
use gyrolab::integrators::Integrator;
use gyrolab::scene::Scene;
use gyrolab::solver::{ROW_EPSILON, SolverKind};
use gyrolab::world::World;
use proptest::prelude::*;

const G: f64 = 9.81;

fn load(name: &str) -> World {
    Scene::load(name).unwrap().build()
}

/// Successive apex heights of a dropped ball scale by e².
#[test]
fn bounce_apex_heights_scale_by_e_squared() {
    for solver in SolverKind::ALL {
        let mut world = load("bounce");
        world.change_solver_settings(|s| s.solver = solver);
        let e = world.bodies()[0].material.restitution;
        let r = 0.2;
        let mut apexes = vec![world.bodies()[0].state.position.y - r];
        let mut last_vy = 0.0;
        run(&mut world, 0.001, 4.0, |w| {
            let s = &w.bodies()[0].state;
            if last_vy > 0.0 && s.velocity.y <= 0.0 {
                apexes.push(s.position.y - r);
            }
            last_vy = s.velocity.y;
        });
        assert!(apexes.len() >= 4, "{solver}: apexes {apexes:?}");
        for pair in apexes[..4].windows(2) {
            let ratio = pair[1] / pair[0];
            assert!(
                (ratio / (e * e) - 1.0).abs() < 0.03,
                "{solver}: apex ratio {ratio} vs e² = {} ({apexes:?})",
                e * e
            );
        }
    }
}

/// A ball dropped in `bounce` falls as free fall says, `y = y₀ − ½gt²`, to 1e-9 m at
/// every step until it comes near the ground, at any step size and with either solver:
/// a body no row pushes takes the ballistic step, not the sub-steps' symplectic Euler
/// (which ran ahead by `g·h·t/2`, 2.45 mm at 0.4 s with the scene's 5 ms step).
#[test]
fn a_dropped_ball_follows_free_fall_exactly_until_it_touches() {
    for solver in SolverKind::ALL {
        for dt in [0.001, 0.0037, 0.005, 1.0 / 60.0, 0.02] {
            let mut world = load("bounce");
            world.change_solver_settings(|s| s.solver = solver);
            let (y0, r) = (world.bodies()[0].state.position.y, 0.2);
            let (mut t, mut checked) = (0.0, 0);
            let mut worst = 0.0_f64;
            loop {
                world.advance(dt).unwrap();
                t += dt;
                let exact = y0 - 0.5 * G * t * t;
                // Checked while the ball ends the step clear of the ground's reach.
                if exact - r < 1e-3 {
                    break;
                }
                let y = world.bodies()[0].state.position.y;
                worst = worst.max((y - exact).abs());
                checked += 1;
            }
            assert!(
                checked > 10,
                "{solver} dt {dt}: only {checked} steps in flight"
            );
            assert!(
                worst < 1e-9,
                "{solver} dt {dt}: the ball left free fall by {worst} m"
            );
        }
    }
}

/// What the restitution lesson says of the scene's own 5 ms step: the first bounce comes
/// out short of e² and the last, slow ones shorter still (each bounces back e times its
/// speed at the start of the step in which it lands, and what it gains in that step
/// weighs more the slower it lands). Apexes are read to the step, down to 1 cm.
#[test]
fn at_the_scene_s_step_the_last_slow_bounces_come_out_shorter_than_the_first() {
    let mut world = load("bounce");
    let (e, r) = (world.bodies()[0].material.restitution, 0.2);
    let mut apexes = vec![world.bodies()[0].state.position.y - r];
    let mut last_vy = 0.0;
    run(&mut world, world_dt("bounce"), 6.0, |w| {
        let s = &w.bodies()[0].state;
        if last_vy > 0.0 && s.velocity.y <= 0.0 && s.position.y - r > 0.01 {
            apexes.push(s.position.y - r);
        }
        last_vy = s.velocity.y;
    });
    let ratios: Vec<f64> = apexes.windows(2).map(|p| p[1] / p[0]).collect();
    assert!(ratios.len() >= 6, "{apexes:?}");
    let first = ratios[0];
    assert!(first < e * e, "the first {first} against e² = {}", e * e);
    for last in &ratios[ratios.len() - 2..] {
        assert!(
            *last < first,
            "a last, slow bounce {last} against the first {first}: {ratios:?}"
        );
    }
}

fn slope(mu: f64, theta_deg: f64) -> World {
    // One box on a plane through the origin tilted by θ about z; plane and box share μ.
    let t = theta_deg.to_radians();
    let (n, along) = (
        DVec3::new(-t.sin(), t.cos(), 0.0),
        DVec3::new(t.cos(), t.sin(), 0.0),
    );
    let p = along * 2.0 + n * 0.2;
    parse(&format!(
        "(name: \"slope\", description: \"\", gravity: (0.0, -9.81, 0.0), dt: 0.005, duration: 3.0,
          contacts: Some((planes: [(orientation_deg: (0.0, 0.0, {theta_deg}), friction: {mu})], friction: {mu},
                          solver: (sleep: false))),
          bodies: [(name: \"box\", parts: [(shape: Box(half_extents: (0.2, 0.2, 0.2)), mass: 1.0)],
                    position: ({}, {}, 0.0), orientation_deg: (0.0, 0.0, {theta_deg}))])",
        p.x, p.y
    ))
}

/// Coulomb: a box stays on a slope iff tan θ ≤ μ; otherwise it accelerates at
/// g(sin θ − μ cos θ), to 1%, at μ = 0.3 and near the threshold (μ = 0.9 tan θ, where
/// a small error in the friction is a large one in the rate). Checked 10% either side
/// of the threshold: right at it, an iterative solver's friction creeps (the soft step
/// moves a box 3 cm at 1.05 tan θ). With friction at each point instead of the
/// manifold's centroid, uneven load sharing spun the box about the normal and it slid
/// 3.6% (20–30% near the threshold) too fast: see `ContactRows`.
#[test]
fn incline_holds_iff_tan_theta_at_most_mu_else_slides_at_the_coulomb_rate() {
    let theta = 30f64;
    let tan = theta.to_radians().tan();
    for solver in SolverKind::ALL {
        for (mu, holds) in [
            (1.1 * tan, true),
            (0.7, true),
            (0.9 * tan, false),
            (0.3, false),
        ] {
            let mut world = slope(mu, theta);
            world.change_solver_settings(|s| s.solver = solver);
            let down = -DVec3::new(theta.to_radians().cos(), theta.to_radians().sin(), 0.0);
            let start = world.bodies()[0].state.position;
            // Settle first: the box starts a hair above the slope.
            run(&mut world, 0.005, 0.5, |_| {});
            let s1 = (world.bodies()[0].state.position - start).dot(down);
            run(&mut world, 0.005, 0.75, |_| {});
            let s_mid = (world.bodies()[0].state.position - start).dot(down);
            run(&mut world, 0.005, 0.75, |_| {});
            let s2 = (world.bodies()[0].state.position - start).dot(down);
            if holds {
                // After settling: the soft step's contacts give under load as the box
                // lands, and it slips up to 1.5 cm while they do.
                let moved = s2 - s1;
                assert!(
                    moved.abs() < 1e-4,
                    "{solver} μ = {mu}: moved {moved} m but tan θ = {tan} ≤ μ"
                );
            } else {
                // Constant acceleration: the second difference of three positions 0.75 s
                // apart (the landing's slip does not enter it).
                let a = (s2 - 2.0 * s_mid + s1) / (0.75 * 0.75);
                let t = theta.to_radians();
                let expected = G * (t.sin() - mu * t.cos());
                assert!(
                    (a / expected - 1.0).abs() < 0.01,
                    "{solver} μ = {mu}: a = {a}, expected g(sin θ − μ cos θ) = {expected}"
                );
                let spin = world.bodies()[0].state.angular_momentum.length();
                assert!(spin < 1e-6, "{solver} μ = {mu}: spins, L = {spin}");
            }
        }
    }
}

/// A box released at rest on a slope, placed exactly on it, has g(sin θ − μ cos θ) t of
/// speed down the slope after t = 1 s, to 0.5% (the lesson's incline readout, with no
/// settling first), at 30° with μ = 0.3 and 0.5 and at 25° with μ = 0.4, with either
/// solver. While the relax pass solved friction before the normal rows, the soft step's
/// box was 0.6%, 3.7% and 3.5% too fast: friction missed the load the relax pass added as
/// the box sank into its contacts' rest depth. What is left (0.24% at μ = 0.5, 0.25% at
/// 25°) is the first step's: with no load from a step before, friction holds the contact
/// point for a moment by tipping the box.
#[test]
fn a_box_released_on_a_slope_has_the_coulomb_speed_after_one_second() {
    for solver in SolverKind::ALL {
        for (mu, theta) in [(0.3, 30f64), (0.5, 30.0), (0.4, 25.0)] {
            let mut world = slope(mu, theta);
            world.change_solver_settings(|s| s.solver = solver);
            let t = theta.to_radians();
            let down = -DVec3::new(t.cos(), t.sin(), 0.0);
            run(&mut world, 0.005, 1.0, |_| {});
            let v = world.bodies()[0].state.velocity.dot(down);
            let expected = G * (t.sin() - mu * t.cos());
            assert!(
                (v / expected - 1.0).abs() < 5e-3,
                "{solver} θ = {theta}° μ = {mu}: v(1 s) = {v}, expected {expected}"
            );
        }
    }
}

/// A bob on a ball joint swings with period 2π√(l/g), corrected for its size (a
/// physical pendulum: l² + 2r²/5 over g l) and amplitude (θ₀²/16): 0.2% and 0.05% here;
/// to 0.1%, with either solver, at 500 Hz and at the default 60 Hz. (The soft step's
/// joint springs made it 0.8% slow at 60 Hz until the point rows became one 3×3 block:
/// see `PointBlock`.)
#[test]
fn pendulum_on_a_joint_has_the_small_angle_period() {
    let (l, r, theta0) = (1.0f64, 0.1f64, 5f64.to_radians());
    for (solver, dt) in [
        ("Pgs", 0.002),
        ("Soft", 0.002),
        ("Pgs", 1.0 / 60.0),
        ("Soft", 1.0 / 60.0),
    ] {
        let mut world = parse(&format!(
            "(name: \"pendulum\", description: \"\", gravity: (0.0, -9.81, 0.0), dt: {dt}, duration: 10.0,
              contacts: Some((solver: (solver: {solver}, sleep: false))),
              bodies: [(name: \"bob\", parts: [(shape: Sphere(radius: {r}), mass: 1.0)],
                        position: ({}, {}, 0.0))],
              joints: [(kind: Ball, a: \"bob\", anchor: (0.0, 2.0, 0.0))])",
            l * theta0.sin(),
            2.0 - l * theta0.cos()
        ));
        let (mut crossings, mut t) = (Crossings::default(), 0.0);
        crossings.record(t, dt, world.bodies()[0].state.position.x);
        run(&mut world, dt, 10.0, |w| {
            t += dt;
            crossings.record(t, dt, w.bodies()[0].state.position.x);
        });
        assert!(crossings.times.len() >= 4, "{solver}: {crossings:?}");
        let period = crossings.period();
        let expected =
            TAU * ((l * l + 0.4 * r * r) / (G * l)).sqrt() * (1.0 + theta0 * theta0 / 16.0);
        assert!(
            (period / expected - 1.0).abs() < 0.001,
            "{solver} at dt = {dt}: period {period} vs 2π√(l/g) = {expected}"
        );
    }
}

/// Contact impulses are equal and opposite and act at one point: the total linear and
/// angular momentum of two free bodies survive an off-centre collision with friction to
/// the round-off of the rows' precision (a few `f32` epsilons: the velocities the rows
/// change are rounded to it), with either solver. (The soft step moves its rows with the
/// bodies after each sub-step for this; with its anchors fixed, as in Box2D, it leaks
/// 2.6% of L here, checked to 5%.)
#[test]
fn momentum_is_conserved_in_free_collisions() {
    for (solver, follow) in [("Pgs", true), ("Soft", true), ("Soft", false)] {
        let mut world = parse(&format!(
            "(name: \"collide\", description: \"\", dt: 0.005, duration: 2.0,
              contacts: Some((friction: 0.8, restitution: 0.5,
                              solver: (solver: {solver}, follow_anchors: {follow}))),
              bodies: [
                (name: \"a\", parts: [(shape: Box(half_extents: (0.3, 0.2, 0.1)), mass: 2.0)],
                 position: (-1.0, 0.15, 0.0), velocity: (3.0, 0.0, 0.2), omega: (0.0, 1.0, 4.0)),
                (name: \"b\", parts: [(shape: Capsule(radius: 0.15, length: 0.4), mass: 1.0)],
                 position: (1.0, -0.1, 0.05), orientation_deg: (0.0, 0.0, 70.0), velocity: (-2.0, 0.0, 0.0)),
              ])"
        ));
        let (p0, l0) = total_momentum(&world);
        let v_rel0 = world.bodies()[1].state.velocity - world.bodies()[0].state.velocity;
        run(&mut world, 0.005, 1.0, |_| {});
        let (p1, l1) = total_momentum(&world);
        let v_rel1 = world.bodies()[1].state.velocity - world.bodies()[0].state.velocity;
        assert!(
            v_rel1.x > 0.0,
            "{solver}: they must have collided ({v_rel0} → {v_rel1})"
        );
        let round_off = 8.0 * ROW_EPSILON;
        assert!(
            (p1 - p0).length() < round_off * p0.length().max(1.0),
            "{solver}: p {p0} → {p1}"
        );
        let tolerance = if follow { round_off } else { 0.05 };
        assert!(
            (l1 - l0).length() < tolerance * l0.length().max(1.0),
            "{solver}: L {l0} → {l1}"
        );
    }
}

/// Speculative contacts: a ball at 30 m/s moves 0.5 m per step at 60 Hz, 25 times the
/// thickness of the plate in its way, and is still stopped by it.
#[test]
fn a_fast_ball_does_not_tunnel_through_a_thin_plate() {
    for solver in ["Pgs", "Soft"] {
        let mut world = parse(&format!(
            "(name: \"shot\", description: \"\", gravity: (0.0, 0.0, 0.0), dt: 0.016666666666666666,
              duration: 1.0, contacts: Some((solver: (solver: {solver}))),
              bodies: [
                (name: \"plate\", parts: [(shape: Box(half_extents: (0.01, 1.0, 1.0)), mass: 1000000.0)],
                 position: (0.0, 0.0, 0.0)),
                (name: \"ball\", parts: [(shape: Sphere(radius: 0.05), mass: 0.1)],
                 position: (-2.2, 0.1, 0.0), velocity: (30.0, 0.0, 0.0)),
              ])"
        ));
        let mut furthest = f64::NEG_INFINITY;
        run(&mut world, 1.0 / 60.0, 1.0, |w| {
            furthest = furthest.max(w.bodies()[1].state.position.x)
        });
        assert!(
            furthest < -0.05,
            "{solver}: the ball's centre reached x = {furthest}; touching the plate is -0.06"
        );
    }
}

/// Newton's cradle: the first ball stops and the last swings out to nearly its height.
#[test]
fn newtons_cradle_passes_the_motion_to_the_last_ball() {
    let mut world = load("newtons-cradle");
    let n = world.bodies().len();
    let rise0 = world.bodies()[0].state.position.y - world.bodies()[1].state.position.y;
    let rest = world.bodies()[n - 1].state.position.y;
    // At the last ball's highest point the others should be (nearly) at rest.
    let (mut last_max, mut others_then) = (0.0f64, f64::INFINITY);
    run(&mut world, 0.002, 1.2, |w| {
        let rise = w.bodies()[n - 1].state.position.y - rest;
        if rise > last_max {
            last_max = rise;
            others_then = w.bodies()[..n - 1]
                .iter()
                .map(|b| b.state.velocity.length())
                .fold(0.0, f64::max);
        }
    });
    assert!(
        last_max > 0.9 * rise0,
        "last ball rose {last_max} of {rise0}"
    );
    let incoming = (2.0 * G * rise0).sqrt();
    assert!(
        others_then < 0.1 * incoming,
        "the other balls still move at {others_then} m/s (incoming {incoming})"
    );
}

/// Ten boxes on the ground: after settling, no box moves by a millimetre in 10 s and
/// the energy never rises above where it started. The soft step at the scene's 60 Hz
/// with sleeping on (the stack falls asleep) and off (the solver alone holds it); PGS
/// awake at 240 Hz (at 60 Hz, ten iterations do not hold ten boxes: a finding).
#[test]
fn a_ten_box_stack_stays_put_and_gains_no_energy() {
    let dt = world_dt("stack");
    for (solver, sleep, dt) in [
        (SolverKind::Soft, true, dt),
        (SolverKind::Soft, false, dt),
        (SolverKind::Pgs, false, 1.0 / 240.0),
    ] {
        ten_box_stack(solver, sleep, dt);
    }
}

fn ten_box_stack(solver: SolverKind, sleep: bool, dt: f64) {
    let mut world = load("stack");
    {
        world.change_solver_settings(|s| (s.solver, s.sleep) = (solver, sleep));
    }
    assert_eq!(world.bodies().len(), 10);
    let e0 = world.energy();
    let mut max_energy = f64::NEG_INFINITY;
    run(&mut world, dt, 1.0, |w| {
        max_energy = max_energy.max(w.energy())
    });
    let settled: Vec<DVec3> = world.bodies().iter().map(|b| b.state.position).collect();
    run(&mut world, dt, 10.0, |w| {
        max_energy = max_energy.max(w.energy())
    });
    for (b, p) in world.bodies().iter().zip(&settled) {
        let drift = (b.state.position - *p).length();
        assert!(
            drift < 1e-3,
            "{solver}, sleep {sleep}: {} drifted {drift} m",
            b.name
        );
        let lateral = (b.state.position - DVec3::new(0.0, b.state.position.y, 0.0)).length();
        assert!(lateral < 1e-2, "{} is {lateral} m off the column", b.name);
    }
    assert!(
        max_energy <= e0 + 1e-9,
        "energy rose from {e0} to {max_energy}"
    );
    assert!(
        world.contacts().unwrap().stats().awake == if sleep { 0 } else { 10 },
        "a resting stack sleeps iff sleeping is on"
    );
}

/// Soft contacts sink with their load, as a spring does: in the resting ten-box stack the
/// contact under `k` boxes is `k` times as deep as the top one (to 1%), and the stack's
/// explanation gives the depths this build measures: per box, under nine, on the ground.
#[test]
fn a_stack_s_contacts_sink_in_proportion_to_their_load() {
    let mut world = load("stack");
    world.change_solver_settings(|s| s.sleep = false);
    run(&mut world, world_dt("stack"), 10.0, |_| {});
    let contacts = world.contacts().unwrap();
    let graph = contacts.graph();
    let (mut between, mut ground) = (vec![0.0; 10], 0.0);
    for (c, contact) in graph.values().iter().enumerate() {
        let points = contact.manifold.points();
        let deepest = -points
            .iter()
            .map(|p| p.separation)
            .fold(f64::INFINITY, f64::min);
        // The ground's end is past the bodies.
        match graph.bodies(c) {
            [_, b] if b as usize >= 10 => ground = deepest,
            [a, b] => between[a.max(b) as usize] = deepest,
        }
    }
    // The contact under box k holds up boxes k to 9: 10 − k of them.
    let per_box = between[9];
    for (k, &depth) in between.iter().enumerate().skip(1) {
        let load = (10 - k) as f64;
        assert!(
            (depth / (load * per_box) - 1.0).abs() < 0.01,
            "under {load} boxes: {depth} m, against {} m per box",
            per_box
        );
    }
    let explanation = Scene::load("stack").unwrap().explanation;
    for figure in [
        format!("{:.2} mm for every box", 1e3 * per_box),
        format!("nine boxes, {:.1} mm", 1e3 * between[1]),
        format!("{:.2} mm deep under all ten", 1e3 * ground),
        format!("near {:.1} mm", 1e3 * between[1]),
    ] {
        assert!(
            explanation.contains(&figure),
            "'{figure}' not in: {explanation}"
        );
    }
}

/// A 20-row pyramid (210 boxes), kept awake, stands for 10 s with the default solver:
/// no box slides sideways or sinks by more than the soft contacts' compression.
#[test]
fn a_twenty_row_pyramid_stands_awake() {
    let mut scene = Scene::load("pyramid").unwrap();
    scene.set_generated_size(20).unwrap();
    let mut world = scene.build();
    world.change_solver_settings(|s| s.sleep = false);
    let start: Vec<DVec3> = world.bodies().iter().map(|b| b.state.position).collect();
    run(&mut world, scene.dt, 10.0, |_| {});
    for (b, p) in world.bodies().iter().zip(&start) {
        let d = b.state.position - *p;
        let lateral = DVec3::new(d.x, 0.0, d.z).length();
        assert!(lateral < 0.02, "{} slid {lateral} m", b.name);
        assert!(-d.y < 0.05, "{} sank {} m", b.name, -d.y);
        let tilt = (b.state.orientation * DVec3::Y).angle_between(DVec3::Y);
        assert!(tilt < 0.02, "{} tipped {tilt} rad", b.name);
    }
}

/// The dominoes: every one falls, each after the one before it, and ends leaning on
/// the next (the last lies flat).
#[test]
fn every_domino_falls_in_turn() {
    let dt = world_dt("dominoes");
    let mut world = load("dominoes");
    let n = world.bodies().len();
    let mut fell_at = vec![f64::NAN; n];
    run(&mut world, dt, 8.0, |w| {
        for (k, b) in w.bodies().iter().enumerate() {
            let tilt = (b.state.orientation * DVec3::Y).angle_between(DVec3::Y);
            if fell_at[k].is_nan() && tilt > 45f64.to_radians() {
                fell_at[k] = w.time();
            }
        }
    });
    for k in 0..n {
        assert!(!fell_at[k].is_nan(), "domino {} still stands", k + 1);
        if k > 0 {
            assert!(
                fell_at[k] > fell_at[k - 1],
                "domino {} fell at {} s, before domino {} at {} s",
                k + 1,
                fell_at[k],
                k,
                fell_at[k - 1]
            );
        }
    }
}

/// A top spinning on a frictionless floor: no horizontal force, so its centre of mass
/// stays on its vertical line, and the axis precesses at the steady rate Ω of the
/// symmetric top, the smaller root of `I₁ cos θ Ω² − I₃ ω₃ Ω + m g d = 0` (`I₁` about
/// the centre of mass, `d` from it to the centre of the rounded tip, whose lowest point
/// touches the floor). Measured over 8 s of the nutating start, to 1%.
#[test]
fn spinning_top_precesses_at_the_gyroscopic_rate() {
    let mut scene = Scene::load("spinning-top").unwrap();
    let contacts = scene.contacts.as_mut().unwrap();
    contacts.friction = 0.0;
    contacts.planes.iter_mut().for_each(|p| p.friction = 0.0);
    let mut world = scene.build();
    let top = &world.bodies()[0];
    let tip = top
        .parts
        .iter()
        .find_map(|p| match p.shape {
            Shape::Capsule { length, .. } => {
                Some(p.offset - p.rotation * DVec3::Y * (0.5 * length))
            }
            _ => None,
        })
        .expect("the top's stem is a capsule");
    let axis = |w: &World| w.bodies()[0].state.orientation * DVec3::Y;
    let (i1, i3) = (
        top.props.inertia.principal().x,
        top.props.inertia.principal().y,
    );
    let omega3 = top.state.body_omega(&top.props).y;
    let mgd = top.props.mass * G * tip.length();
    let cos = axis(&world).y;
    let expected =
        (i3 * omega3 - ((i3 * omega3).powi(2) - 4.0 * i1 * cos * mgd).sqrt()) / (2.0 * i1 * cos);
    let start = top.state.position;
    let (mut azimuth, mut last, mut from) = (0.0, 0.0, None);
    let mut drift = 0.0f64;
    run(&mut world, scene.dt, 10.0, |w| {
        let a = axis(w);
        let phi = a.z.atan2(a.x);
        azimuth += (phi - last + PI).rem_euclid(TAU) - PI;
        last = phi;
        if w.time() >= 2.0 && from.is_none() {
            from = Some((w.time(), azimuth));
        }
        let d = w.bodies()[0].state.position - start;
        drift = drift.max(DVec3::new(d.x, 0.0, d.z).length());
    });
    let (t0, a0) = from.unwrap();
    let rate = (azimuth - a0).abs() / (world.time() - t0);
    assert!(drift < 1e-6, "the centre of mass moved {drift} m sideways");
    assert!(
        (rate / expected - 1.0).abs() < 0.01,
        "precession {rate} rad/s, steady rate {expected} rad/s"
    );
}

fn world_dt(name: &str) -> f64 {
    Scene::load(name).unwrap().dt
}

/// The pole's tilt from vertical, degrees.
fn tilt(world: &World) -> f64 {
    let axis = world.bodies()[0].state.orientation * DVec3::Y;
    axis.y.abs().clamp(0.0, 1.0).acos().to_degrees()
}

/// The dancing pole falls flat with a momentum-conserving integrator and keeps standing
/// with no-gyro, which keeps the angular velocity instead.
#[test]
fn dancing_pole_falls_with_midpoint_and_not_with_no_gyro() {
    let dt = world_dt("dancing-pole");
    for (integrator, falls) in [(Integrator::Midpoint, true), (Integrator::NoGyro, false)] {
        let mut world = load("dancing-pole");
        world.set_integrator(integrator);
        let mut max_tilt = 0.0f64;
        run(&mut world, dt, 4.0, |w| max_tilt = max_tilt.max(tilt(w)));
        if falls {
            assert!(
                tilt(&world) > 80.0,
                "{integrator:?}: tilt {}°",
                tilt(&world)
            );
        } else {
            assert!(max_tilt < 20.0, "{integrator:?}: tilted up to {max_tilt}°");
        }
    }
}

/// A hinge motor spins a wheel up to its target speed; a hinge limit holds a pendulum.
#[test]
fn hinge_motor_reaches_its_speed_and_the_limit_holds() {
    let mut world = parse(
        "(name: \"motor\", description: \"\", dt: 0.01, duration: 3.0, gravity: (0.0, -9.81, 0.0),
          contacts: Some((solver: (sleep: false))),
          bodies: [
            (name: \"wheel\", parts: [(shape: Cylinder(radius: 0.5, length: 0.1), mass: 2.0)], position: (0.0, 2.0, 0.0)),
            (name: \"arm\", parts: [(shape: Box(half_extents: (0.5, 0.05, 0.05)), mass: 1.0)], position: (3.5, 2.0, 0.0)),
          ],
          joints: [
            (kind: Hinge, a: \"wheel\", anchor: (0.0, 2.0, 0.0), axis: (0.0, 1.0, 0.0), motor: Some((5.0, 10.0))),
            (kind: Hinge, a: \"arm\", anchor: (3.0, 2.0, 0.0), axis: (0.0, 0.0, 1.0), limits_deg: Some((-30.0, 30.0))),
          ])",
    );
    let mut lowest = f64::INFINITY;
    run(&mut world, 0.01, 3.0, |w| {
        let b = &w.bodies()[1].state;
        lowest = lowest.min(b.position.y);
    });
    let spin = world.bodies()[0]
        .state
        .world_omega(&world.bodies()[0].props);
    assert!((spin.y - 5.0).abs() < 1e-3, "wheel spins at {spin}");
    // The arm hangs from its left end; at −30° its centre is 0.5 sin 30° below the pivot.
    let floor = 2.0 - 0.5 * (PI / 6.0).sin();
    assert!(
        lowest > floor - 0.01,
        "the arm went down to {lowest}, limit at {floor}"
    );
}

fn aabb() -> impl Strategy<Value = Aabb> {
    (
        prop::array::uniform3(-10.0..10.0f64),
        prop::array::uniform3(0.01..3.0f64),
    )
        .prop_map(|(c, h)| {
            let (c, h) = (DVec3::from_array(c), DVec3::from_array(h));
            Aabb {
                min: c - h,
                max: c + h,
            }
        })
}

proptest! {
    /// Sweep and prune finds exactly the overlapping distinct pairs a brute-force double
    /// loop finds (distinct pairs [cwzx, Lists]: i < j, each pair once), also when the
    /// boxes move and the kept order is stale; and, with some boxes asleep, exactly those
    /// with an awake box.
    #[test]
    fn sweep_and_prune_equals_brute_force(
        first in prop::collection::vec(aabb(), 0..60),
        shift in prop::array::uniform3(-3.0..3.0f64),
        asleep in prop::collection::vec(prop::bool::weighted(0.8), 60),
    ) {
        let mut sap = SweepAndPrune::default();
        let mut pairs = Vec::new();
        for boxes in [first.clone(), first.iter().enumerate().map(|(i, b)| {
            let d = DVec3::from_array(shift) * (i % 3) as f64;
            Aabb { min: b.min + d, max: b.max + d }
        }).collect::<Vec<_>>()] {
            for some_asleep in [false, true] {
                let awake = |i: usize| !(some_asleep && asleep[i]);
                sap.pairs(&boxes, (awake, |_, _| true), &mut pairs);
                let mut got = pairs.clone();
                got.sort();
                let mut brute = Vec::new();
                for i in 0..boxes.len() {
                    for j in i + 1..boxes.len() {
                        if boxes[i].overlaps(&boxes[j]) && (awake(i) || awake(j)) {
                            brute.push((i as u32, j as u32));
                        }
                    }
                }
                prop_assert_eq!(got, brute);
            }
        }
    }
}

/// A ball rolling without slipping on the ground keeps its speed: rolling has no friction
/// loss. (With each contact point midway between the two bodies' material anchors, the
/// ball's anchor rolled up and away within a step, and the misplaced point sped the ball
/// up by half in 7 s; the point now follows the ball.)
#[test]
fn a_rolling_ball_keeps_its_speed() {
    for solver in ["Pgs", "Soft"] {
        let mut world = parse(&format!(
            r#"(
    name: "roll",
    description: "a ball rolling on the ground",
    gravity: (0.0, -9.81, 0.0),
    dt: 0.005,
    duration: 8.0,
    contacts: Some((planes: [(point: (0.0, 0.0, 0.0))], friction: 0.8,
                    solver: (solver: {solver}))),
    bodies: [(
        name: "ball",
        parts: [(shape: Sphere(radius: 0.2), mass: 1.0)],
        position: (0.0, 0.2, 0.0),
        velocity: (0.0, 0.0, -0.3),
        omega: (-1.5, 0.0, 0.0),
    )],
)"#
        ));
        run(&mut world, 0.005, 8.0, |w| {
            let v = w.bodies()[0].state.velocity;
            assert!(
                (v.length() - 0.3).abs() < 1e-3 * 0.3,
                "{solver}: {v} at {}",
                w.time()
            );
        });
        let z = world.bodies()[0].state.position.z;
        assert!((z + 2.4).abs() < 0.01, "{solver}: rolled to {z}");
    }
}

/// A soft contact is a spring: what rests on it sinks by its static deflection,
/// `W / (m_eff ω²)` under a weight `W` with `ω = 2π f` (the soft step's equilibrium: the
/// spring's impulse per sub-step, `m_eff ω² h |s|`, carries `W h`). Two equal balls of
/// mass `m`, one on the other: the ground, which does not move, carries `2 m g` with
/// `m_eff = m` and a spring of twice the frequency, so it sinks `2 g / (2ω)²`; between the
/// balls `m g` with `m_eff = m/2`, `2 g / ω²`. A setting stiffer than 3/16 of the
/// sub-step rate is held at that rate.
#[test]
fn resting_balls_sink_by_the_springs_static_deflection() {
    let balls = |hertz: f64| {
        parse(&format!(
            r#"(
    name: "two balls",
    description: "two balls resting one on the other",
    gravity: (0.0, -9.81, 0.0),
    dt: 0.01,
    duration: 3.0,
    contacts: Some((planes: [(point: (0.0, 0.0, 0.0))], friction: 0.5,
                    solver: (contact_hertz: {hertz}, sleep: false))),
    bodies: [
        (name: "low", parts: [(shape: Sphere(radius: 0.2), mass: 1.0)], position: (0.0, 0.2, 0.0)),
        (name: "high", parts: [(shape: Sphere(radius: 0.2), mass: 1.0)], position: (0.0, 0.6, 0.0)),
    ],
)"#
        ))
    };
    let substep_rate = 4.0 / 0.01;
    let cap = 3.0 / 16.0 * substep_rate;
    for (hertz, expected_f) in [(10.0, 10.0), (25.0, 25.0), (1000.0, cap)] {
        let mut world = balls(hertz);
        run(&mut world, 0.01, 3.0, |_| {});
        let omega = TAU * expected_f;
        let y = |i: usize| world.bodies()[i].state.position.y;
        let ground = 0.2 - y(0);
        let between = 0.4 - (y(1) - y(0));
        let (ground_law, between_law) = (2.0 * G / (2.0 * omega).powi(2), 2.0 * G / omega.powi(2));
        assert!(
            (ground / ground_law - 1.0).abs() < 0.01,
            "{hertz} Hz: the ground contact sank {ground} m, the spring law {ground_law} m"
        );
        assert!(
            (between / between_law - 1.0).abs() < 0.01,
            "{hertz} Hz: the balls overlap {between} m, the spring law {between_law} m"
        );
    }
}

/// Numbers that overflow inside the solver (here a gravity no scene file may give, set
/// on the world directly, as a blow-up would reach it) end the step with an error that
/// leaves every state finite, never a panic: the friction cone's bound `μ Σλ_n` and a
/// joint's impulse bounds become NaN, which `f64::clamp` panics on.
#[test]
fn overflow_in_the_solver_is_a_step_error_not_a_panic() {
    for name in ["turntable", "newtons-cradle", "tank", "stack", "incline"] {
        for solver in SolverKind::ALL {
            for gravity in [
                DVec3::new(-1e300, -9.81, 0.0),
                DVec3::new(0.0, 1e300, 1e300),
            ] {
                let mut world = load(name);
                world.change_solver_settings(|s| s.solver = solver);
                world.set_gravity(gravity);
                for _ in 0..4 {
                    let stepped = world.advance(0.01);
                    assert!(
                        world.bodies().iter().all(|b| b.state.is_finite()),
                        "{name} {solver:?}"
                    );
                    if stepped.is_err() {
                        break;
                    }
                }
            }
        }
    }
}

/// The deepest overlap among a world's manifold points, in metres.
fn deepest(world: &World) -> f64 {
    world
        .contacts()
        .unwrap()
        .graph()
        .values()
        .iter()
        .flat_map(|c| c.manifold.points())
        .map(|p| -p.separation)
        .fold(0.0, f64::max)
}

/// What docs/speed.md and the generator say of `pile`: its turned boxes start clear of
/// each other and of the ground: after the first step no manifold point penetrates
/// (an overlap would be a pair the broad and narrow phases find, with a negative
/// separation).
#[test]
fn the_pile_starts_with_no_box_overlapping_another() {
    let mut world = load("pile");
    world.advance(1.0 / 60.0).unwrap();
    let first = deepest(&world);
    assert!(first == 0.0, "first step: a point {first} m deep");
}

/// `newtons-cradle` as its explanation tells it: at first the end balls swing and the
/// middle ones barely move; the exchange is not perfect, and by about 15 s all five swing
/// alike; by about 25 s the end balls have taken most of it back.
#[test]
fn newtons_cradle_passes_momentum_then_all_swing_then_the_ends_again() {
    let mut world = Scene::load("newtons-cradle").unwrap().build();
    // Each ball's sideways range of motion over each 5 s window.
    let mut ranges = vec![vec![(f64::INFINITY, f64::NEG_INFINITY); 5]; 6];
    while world.time() < 30.0 - 1e-9 {
        world.advance(0.002).unwrap();
        let window = ((world.time() / 5.0) as usize).min(5);
        for (b, r) in world.bodies().iter().zip(&mut ranges[window]) {
            r.0 = r.0.min(b.state.position.x);
            r.1 = r.1.max(b.state.position.x);
        }
    }
    let span: Vec<Vec<f64>> = (ranges.iter())
        .map(|w| w.iter().map(|r| r.1 - r.0).collect())
        .collect();
    let ends = |w: &[f64]| w[0].min(w[4]);
    let middle = |w: &[f64]| w[1].max(w[2]).max(w[3]);
    assert!(
        middle(&span[0]) < 0.3 * ends(&span[0]),
        "at first: {:?}",
        span[0]
    );
    let (lo, hi) = span[3]
        .iter()
        .fold((f64::INFINITY, 0.0f64), |(l, h), &x| (l.min(x), h.max(x)));
    assert!(hi < 1.3 * lo, "15-20 s, all alike: {:?}", span[3]);
    assert!(
        ends(&span[5]) > 1.8 * middle(&span[5]),
        "25-30 s: {:?}",
        span[5]
    );
}

/// An asleep body keeps its broad-phase proxy from step to step only while it has not
/// moved: one moved from outside without being woken is found where it now is. A box
/// asleep on the ground is moved under a box falling from 10 m, 3 m away, which then
/// lands on it (centre 0.6 m up) instead of on the ground (0.2 m).
#[test]
fn an_asleep_body_moved_without_waking_is_found_where_it_now_is() {
    let mut world = parse(
        "(name: \"moved\", description: \"\", gravity: (0.0, -9.81, 0.0), dt: 0.01, duration: 3.0,
          contacts: Some((planes: [(point: (0.0, 0.0, 0.0))], friction: 0.5)),
          bodies: [
            (name: \"rests\", parts: [(shape: Box(half_extents: (0.2, 0.2, 0.2)), mass: 1.0)],
             position: (0.0, 0.2, 0.0)),
            (name: \"falls\", parts: [(shape: Box(half_extents: (0.2, 0.2, 0.2)), mass: 1.0)],
             position: (3.0, 10.0, 0.0)),
          ])",
    );
    run(&mut world, 0.01, 1.0, |_| {});
    assert!(
        world.contacts().unwrap().is_asleep(0),
        "the resting box is asleep before it is moved"
    );
    world.bodies_mut()[0].state.position.x = 3.0;
    run(&mut world, 0.01, 2.0, |_| {});
    let y = world.bodies()[1].state.position.y;
    assert!(
        (y - 0.6).abs() < 0.02,
        "the falling box rests at {y} m, not on the moved box"
    );
}

/// A plank spinning at 20-40 rad/s about its middle in free space sweeps its end into a
/// box: the end's arc is not the straight line a speculative contact foresees, and the
/// end came 21-23 mm into the box before the fast plank was swept back along its path at
/// the end of each step (conservative advancement). Now no point is deeper than the
/// slop at any step, and the pair's linear momentum is kept (the sweep moves the plank,
/// not its velocity).
#[test]
fn a_spinning_plank_does_not_sweep_its_end_into_a_box() {
    for spin in [20.0, 30.0, 40.0] {
        let mut world = parse(&format!(
            r#"(
    name: "plank", description: "a spinning plank hits a box", gravity: (0.0, 0.0, 0.0),
    dt: 0.016666666666666666, duration: 1.0, integrator: "midpoint",
    contacts: Some((friction: 0.5, solver: (sleep: false))),
    bodies: [
        (name: "plank", parts: [(shape: Box(half_extents: (1.0, 0.05, 0.05)), mass: 1.0)],
         position: (0.0, 0.0, 0.0), omega: (0.0, {spin}, 0.0)),
        (name: "box", parts: [(shape: Box(half_extents: (0.5, 0.5, 0.5)), mass: 1.0)],
         position: (0.3, 0.0, 1.45)),
    ],
)"#
        ));
        let momentum = |w: &World| total_momentum(w).0;
        let (p0, slop) = (momentum(&world), world.contacts().unwrap().settings().slop);
        let mut deepest = 0.0f64;
        run(&mut world, 1.0 / 60.0, 1.0, |w| {
            for c in w.contacts().unwrap().graph().values() {
                for p in c.manifold.points() {
                    deepest = deepest.max(-p.separation);
                }
            }
        });
        let knocked = world.bodies()[1].state.velocity.length();
        assert!(knocked > 1.0, "{spin} rad/s: the plank must hit the box");
        assert!(deepest <= slop, "{spin} rad/s: a point {deepest} m deep");
        let dp = (momentum(&world) - p0).length();
        assert!(dp < 1e-10, "{spin} rad/s: momentum changed by {dp}");
    }
}
