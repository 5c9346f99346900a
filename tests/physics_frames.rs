//! Bodies integrated in moving frames, against analytic answers: a free body's straight
//! world line seen from a spinning, accelerating frame; the carousel's Coriolis curve;
//! Foucault's precession; loose boxes in a crash; shells leaving a gun on a turret that a
//! motor turns on a driving hull.

use glam::{DQuat, DVec3};
use gyrolab::hierarchy::precession::FoucaultSite;
use gyrolab::hierarchy::rig::{Frame, Mount, Rider};
use gyrolab::hierarchy::{Drive, DynamicTransform, PrecessionMeter, Transform};
use gyrolab::scene::Scene;
use gyrolab::world::World;

fn scene(name: &str) -> World {
    Scene::load(name).unwrap().build()
}

fn rider(world: &World, body: usize) -> &Rider {
    match &world.mounts()[body] {
        Mount::Riding(r) => r,
        other => panic!("body {body} is not a rider: {other:?}"),
    }
}

/// A frame spinning about a tilted axis, spinning up (α ∥ ω: Euler force), translating
/// and accelerating; a body riding in it with no real force must move in a straight line
/// in the world, exactly as the same body integrated in the world does.
#[test]
fn a_free_body_moves_straight_in_the_world_seen_from_a_spinning_accelerating_frame() {
    let axis = DVec3::new(0.3, 1.0, -0.4).normalize();
    let frame = DynamicTransform {
        transform: Transform::from_translation_rotation(
            DVec3::new(1.0, -2.0, 0.5),
            DQuat::from_axis_angle(DVec3::X, 0.7),
        ),
        velocity: DVec3::new(1.0, 2.0, 0.0),
        accel: DVec3::new(0.5, -1.0, 0.3),
        angular_velocity: axis * 0.9,
        angular_accel: axis * 0.15,
    };
    let free = scene("free-body");
    let body = free.bodies()[0].clone();
    let mut world = World::new(Vec::new(), DVec3::ZERO, free.integrator());
    world.add_frame(Frame {
        name: "spinning".into(),
        parent: None,
        drive: Drive::Steady,
        local: frame,
        global: frame,
        parts: Vec::new(),
        material: Default::default(),
    });
    let (x0, v0) = (DVec3::new(0.4, 1.5, -2.0), DVec3::new(-0.3, 0.2, 0.8));
    // The rider's local state for world position x0 and world velocity v0.
    let global = DynamicTransform {
        velocity: v0,
        ..DynamicTransform::at_rest(Transform::from_translation_rotation(
            x0,
            body.state.orientation,
        ))
    };
    let local = frame.local_of(&global);
    let in_frame = body.clone();
    let riding = Mount::Riding(Box::new(Rider {
        frame: 0,
        local: DynamicTransform {
            angular_velocity: DVec3::ZERO,
            angular_accel: DVec3::ZERO,
            accel: DVec3::ZERO,
            ..local
        },
        gravity: DVec3::ZERO,
        tether: None,
    }));
    let mut in_world = body;
    in_world.state.position = x0;
    in_world.state.velocity = v0;
    world.add_body(in_frame, riding);
    world.add_body(in_world, Mount::World);
    world.sync_hierarchy();
    let run = |mut world: World, h: f64| {
        let mut worst: f64 = 0.0;
        while world.time() < 10.0 - 1e-9 {
            world.advance(h).unwrap();
            let exact = x0 + v0 * world.time();
            worst = worst.max((world.bodies()[0].state.position - exact).length());
            assert!((world.bodies()[1].state.position - exact).length() < 1e-9);
        }
        (worst, world)
    };
    let (coarse, _) = run(world.clone(), 0.02);
    let (worst, world) = run(world, 0.01);
    // 10 s in a frame whose spin reaches 2.4 rad/s and which has moved 45 m: the body
    // crosses the frame at up to 100 m/s, yet stays on its line to RK4's accuracy.
    assert!(
        worst < 2e-6,
        "world path off a straight line by {worst:e} m"
    );
    assert!(
        coarse / worst > 12.0,
        "fourth order: {coarse:e} at 20 ms, {worst:e} at 10 ms"
    );
    // The rotation, kept in world terms, is the same in both.
    let (a, b) = (&world.bodies()[0].state, &world.bodies()[1].state);
    assert!((a.angular_momentum - b.angular_momentum).length() < 1e-12);
    assert!(a.orientation.dot(b.orientation).abs() > 1.0 - 1e-12);
}

#[test]
fn the_carousel_puck_curves_by_coriolis_on_the_platform_and_goes_straight_in_the_world() {
    let mut world = scene("carousel");
    let omega = world.frames()[0].local.angular_velocity.y;
    let start = world.bodies()[0].state.position;
    let v = rider(&world, 0).local.velocity;
    let h = 0.01;
    // The puck rests on the solid, frictionless platform: level, it slides straight in
    // the world until the rim, which it reaches after about 2.8 s. The solver shares the
    // puck's weight unevenly among a face's four points, which tilts it by microradians;
    // the face contact's normal leans with it and leaks a part in 1e5 of the weight
    // sideways: 0.14 mm over the 2.5 m.
    let level = |x: DVec3| x * DVec3::new(1.0, 0.0, 1.0);
    while world.time() < 2.5 {
        world.advance(h).unwrap();
        let t = world.time();
        let p = world.bodies()[0].state.position;
        assert!(
            level(p - (start + v * t)).length() < 5e-4,
            "world path at {t}: {p}"
        );
        assert!((p.y - start.y).abs() < 2e-3, "resting on the platform: {p}");
        // On the platform: the straight line turned back by the platform's angle.
        let local = rider(&world, 0).local.transform.translation;
        let expected = DQuat::from_rotation_y(-omega * t) * (start + v * t);
        assert!(
            level(local - expected).length() < 5e-4,
            "platform path at {t}"
        );
    }
    // The Coriolis deflection: the puck's bearing on the platform lags by Ωt.
    let local = rider(&world, 0).local.transform.translation;
    let bearing = (-local.z).atan2(local.x);
    assert!((bearing + omega * world.time()).abs() < 1e-3, "{bearing}");
}

/// The bob's horizontal displacement from below the pivot, counter-clockwise from above.
fn horizontal(world: &World) -> glam::DVec2 {
    let x = rider(world, 0).local.transform.translation - DVec3::new(0.0, 3.2, 0.0);
    glam::DVec2::new(x.x, -x.z)
}

#[test]
fn foucaults_pendulum_precesses_at_omega_sin_latitude() {
    let world = scene("foucault");
    let omega = world.frames()[0].local.angular_velocity.length();
    let up = world.frames()[1].global.transform.rotation * DVec3::Y;
    let latitude = up.y.asin();
    assert!((latitude.to_degrees() - 50.0).abs() < 1e-9);
    // What the app's Foucault window predicts, from the site's own dynamics.
    let site = FoucaultSite::of(&world.frames()[1].global);
    assert!((site.latitude - latitude).abs() < 1e-12);
    assert!((site.spin - omega).abs() < 1e-15);
    assert!((site.rate - omega * latitude.sin()).abs() < 1e-15);
    // A small swing: a spherical pendulum's own (Airy) precession grows with the area of
    // its orbit and would blur the Coriolis one. The bob starts 0.05 rad out, on the ball
    // joint's 3 m below the pivot (the joint made there).
    let pivot = DVec3::new(0.0, 3.2, 0.0);
    let theta: f64 = 0.05;
    let start = pivot + 3.0 * DVec3::new(theta.sin(), -theta.cos(), 0.0);
    let text = include_str!("../assets/scenes/foucault.ron").replace(
        "position: (0.6, 0.26030230871, 0.0),",
        &format!("position: ({:?}, {:?}, 0.0),", start.x, start.y),
    );
    let mut world = Scene::parse("foucault.ron", &text).unwrap().build();
    assert!(world.joints()[0].frame == Some(1));
    let mut meter = PrecessionMeter::default();
    let mut rod = (f64::MAX, 0.0f64);
    while world.time() < 40.0 {
        world.advance(0.005).unwrap();
        meter.record(world.time(), horizontal(&world));
        let length = (rider(&world, 0).local.transform.translation - pivot).length();
        rod = (rod.0.min(length), rod.1.max(length));
    }
    // The soft joint holds the rod's length to a fraction of a millimetre.
    assert!(rod.0 > 2.999 && rod.1 < 3.001, "rod between {rod:?}");
    let rate = meter.rate().unwrap();
    let expected = omega * latitude.sin();
    // Clockwise seen from above in the northern hemisphere: negative about up.
    assert!(rate < 0.0, "precession rate {rate}");
    let period = std::f64::consts::TAU / rate.abs();
    let exact = std::f64::consts::TAU / expected;
    assert!(
        (period / exact - 1.0).abs() < 0.005,
        "measured period {period:.2} s, 2π/(Ω sin φ) = {exact:.2} s ({} turning points)",
        meter.turns.len()
    );
}

#[test]
fn loose_boxes_keep_moving_when_the_van_stops_dead() {
    let mut world = scene("crash");
    let speed = 8.0;
    let before: Vec<DVec3> = world.bodies().iter().map(|b| b.state.position).collect();
    // Just after the stop, before the first box reaches the front wall.
    while world.time() < 2.1 {
        world.advance(0.01).unwrap();
    }
    assert_eq!(
        world.frames()[0].global.velocity,
        DVec3::ZERO,
        "the van stopped"
    );
    for (b, x0) in world.bodies().iter().zip(before) {
        // Since the stop they slide on the floor, slowed by Coulomb friction at μg.
        let slowed = speed - 0.4 * 9.81 * (world.time() - 2.0);
        assert!(
            (b.state.velocity.x - slowed).abs() < 0.01 * speed && b.state.velocity.z.abs() < 1e-3,
            "{} moves at {}, expected {slowed}",
            b.name,
            b.state.velocity
        );
        let travelled = b.state.position - x0;
        let expected = speed * world.time() - 0.5 * 0.4 * 9.81 * (world.time() - 2.0).powi(2);
        assert!(
            (travelled.x - expected).abs() < 0.01,
            "{} travelled {}, expected {expected}",
            b.name,
            travelled.x
        );
    }
}

#[test]
fn shells_leave_with_the_muzzles_world_velocity() {
    let mut world = scene("tank");
    let gun = world.gun().cloned().unwrap();
    let turret = world
        .bodies()
        .iter()
        .position(|b| b.name == "turret")
        .unwrap();
    let mut checked = 0;
    while world.time() < 5.0 {
        let fired = world.gun().unwrap().fired;
        world.advance(0.01).unwrap();
        if world.gun().unwrap().fired == fired {
            continue;
        }
        // The muzzle's velocity from rigid-body kinematics: the turret's velocity and its
        // spin carrying the muzzle point, the barrel's direction turned with it.
        let turret = &world.bodies()[turret];
        let (p, q) = (turret.state.position, turret.state.orientation);
        let muzzle = p + q * gun.muzzle;
        let spin = turret.state.world_omega(&turret.props);
        let kinematic = turret.state.velocity + spin.cross(muzzle - p);
        let dir = q * gun.direction;
        // The turret's motor turns it at 0.5 rad/s on the hull.
        let relative = spin - world.frames()[0].global.angular_velocity;
        assert!(
            (relative.y - 0.5).abs() < 0.01,
            "turret turns at {relative}"
        );
        let shell = &world.bodies()[gun.shells[fired % gun.shells.len()]];
        assert!((shell.state.position - muzzle).length() < 1e-12);
        let expected = kinematic + dir * gun.speed;
        assert!(
            (shell.state.velocity - expected).length() < 1e-9,
            "{} vs {expected}",
            shell.state.velocity
        );
        // Not just the muzzle speed along the barrel: the tank's own motion is added.
        assert!((shell.state.velocity - dir * gun.speed).length() > 1.0);
        checked += 1;
    }
    assert!(checked >= 3, "{checked} shots");
}

/// The tank's loose ball stays on the deck, inside its rail, for the scene's first 30 s:
/// the dock's inertial forces are of a ball on the hull throughout (it used to roll off
/// after 2 s). In the hull's coordinates it stays above the deck and within the rail.
#[test]
fn the_tank_s_ball_stays_on_the_deck() {
    let mut world = scene("tank");
    let ball = world
        .bodies()
        .iter()
        .position(|b| b.name == "ball")
        .unwrap();
    // The rail's inner faces are 2.1 and 1.2 from the hull's centre, the ball's radius
    // 0.15: its centre stays 0.15 inside them, and it reaches the outer rail (z = 1.05)
    // after about 1.5 s and stays against it.
    let mut reached = None;
    for _ in 0..3000 {
        world.advance(0.01).unwrap();
        let hull = &world.frames()[0].global.transform;
        let local = hull
            .inverse()
            .transform_point(world.bodies()[ball].state.position);
        assert!(
            (local.y - 0.55).abs() < 0.01 && local.x.abs() < 1.96 && local.z.abs() < 1.06,
            "t = {:.2} s: the ball at {local} in the hull's coordinates",
            world.time()
        );
        let against = local.z > 1.0;
        match reached {
            None if against => reached = Some(world.time()),
            Some(t) => assert!(
                against,
                "left the rail at {:.2} s (reached {t:.2})",
                world.time()
            ),
            None => {}
        }
    }
    let reached = reached.expect("it reaches the rail");
    assert!(
        (1.2..1.8).contains(&reached),
        "reached the rail at {reached} s"
    );
}

/// `top-on-turntable` as its explanation tells it: the tip's rubbing moves the top
/// inwards at first, then outwards, faster and faster, until after about 10 s it slides
/// off the table's edge.
#[test]
fn the_top_on_the_turntable_drifts_in_then_out_and_off() {
    let mut world = scene("top-on-turntable");
    let radius = |w: &World| (w.bodies()[0].state.position * DVec3::new(1.0, 0.0, 1.0)).length();
    let mut samples = Vec::new();
    while world.time() < 13.0 {
        world.advance(0.004).unwrap();
        samples.push((
            world.time(),
            radius(&world),
            world.bodies()[0].state.position.y,
        ));
    }
    let at = |t: f64| samples.iter().find(|s| s.0 >= t).copied().unwrap();
    assert!(at(2.0).1 < 0.85, "inwards first: r = {} at 2 s", at(2.0).1);
    assert!(
        at(6.0).1 > 1.0 && at(8.0).1 > at(6.0).1 + 0.3,
        "then outwards, faster"
    );
    assert!(at(9.0).2 > 0.2, "still on the table at 9 s");
    let off = samples
        .iter()
        .find(|s| s.2 < 0.0)
        .expect("it leaves the table")
        .0;
    assert!((9.5..12.0).contains(&off), "off the table at {off} s");
}
