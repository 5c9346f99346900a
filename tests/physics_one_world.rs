//! One world: moving frames, riders, contacts and a gun in one physics step, against
//! analytic answers and invariants.

use glam::DVec3;
use gyrolab::hierarchy::rig::Mount;
use gyrolab::scene::Scene;
use gyrolab::solver::ROW_EPSILON;
use gyrolab::world::World;

const TURNTABLE: &str = include_str!("../assets/scenes/turntable.ron");

fn parse(text: &str) -> World {
    Scene::parse("test.ron", text).unwrap().build()
}

/// The angle the ball's world velocity turned through, and its speed, every step.
fn circling(world: &mut World, seconds: f64) -> Vec<(f64, f64, f64)> {
    let h = 0.005;
    let mut out = Vec::new();
    let (mut angle, mut last) = (0.0, world.bodies()[0].state.velocity);
    for _ in 0..(seconds / h).round() as usize {
        world.advance(h).unwrap();
        let v = world.bodies()[0].state.velocity;
        let (a, b) = (
            last * DVec3::new(1.0, 0.0, 1.0),
            v * DVec3::new(1.0, 0.0, 1.0),
        );
        angle += a.cross(b).y.atan2(a.dot(b));
        out.push((world.time(), angle, b.length()));
        last = v;
    }
    out
}

/// Rolling without slipping on a table turning at Ω, a solid sphere's velocity turns at
/// 2Ω/7 at constant speed (the friction force `f` turns `v` through `m v̇ = f` while its
/// torque keeps the contact point moving with the table; with `I = 2/5 m r²` the two give
/// `v̇ = (2/7) Ω × v`). Checked over 20 s with the ball in the world and riding in the
/// table's frame.
#[test]
fn a_ball_rolling_on_a_turntable_circles_at_two_sevenths_of_its_rate() {
    // The scene's ball, and the same ball described in the table's frame: its velocity
    // and spin relative to the table (the table's own motion added by the scene).
    let omega = 1.0;
    let relative_velocity = DVec3::new(0.0, 0.0, -2.0 / 7.0) - DVec3::new(0.0, 0.0, -omega);
    let riding = TURNTABLE
        .replace(
            "name: \"ball\",",
            "name: \"ball\",\n            frame: Some(\"table\"),",
        )
        .replace(
            "velocity: (0.0, 0.0, -0.2857142857142857),",
            &format!("velocity: (0.0, 0.0, {}),", relative_velocity.z),
        )
        .replace(
            "omega: (3.5714285714285716, 0.0, 0.0),",
            "omega: (3.5714285714285716, -1.0, 0.0),",
        );
    for (what, mut world) in [
        ("in the world", parse(TURNTABLE)),
        ("riding", parse(&riding)),
    ] {
        assert_eq!(
            matches!(world.mounts()[0], Mount::Riding(_)),
            what == "riding"
        );
        let v0 = world.bodies()[0].state.velocity;
        assert!(
            (v0 - DVec3::new(0.0, 0.0, -2.0 / 7.0)).length() < 1e-12,
            "{what}: {v0}"
        );
        let trace = circling(&mut world, 20.0);
        let &(t, angle, _) = trace.last().unwrap();
        // Seen from above (+y), the table turns counter-clockwise: positive about y.
        let rate = angle / t;
        let expected = 2.0 * omega / 7.0;
        assert!(
            (rate / expected - 1.0).abs() < 0.01,
            "{what}: turns at {rate} rad/s, 2Ω/7 = {expected}"
        );
        for &(t, _, speed) in &trace {
            assert!(
                (speed / v0.length() - 1.0).abs() < 0.01,
                "{what}: speed {speed} at {t} s"
            );
        }
    }
}

/// The boxes of the crash hit the stopped van's front wall and come to rest against it:
/// none ends up deeper in it than the solver lets contacts sink, none passes through.
#[test]
fn the_crash_boxes_end_against_the_front_wall_not_in_it() {
    let mut world = Scene::load("crash").unwrap().build();
    let slop = world.contacts().unwrap().settings().slop;
    while world.time() < 4.0 {
        world.advance(0.01).unwrap();
    }
    let van = world.frames()[0].global.transform;
    let wall = van.transform_point(DVec3::new(2.5, 0.0, 0.0)).x;
    let mut touching = 0;
    for b in world.bodies() {
        let gyrolab::body::inertia::Shape::Box { half_extents } = b.parts[0].shape else {
            unreachable!("the crash holds boxes");
        };
        let s = &b.state;
        let front = [-1.0, 1.0]
            .into_iter()
            .flat_map(|x| [-1.0, 1.0].map(move |y| (x, y)))
            .flat_map(|(x, y)| [-1.0, 1.0].map(move |z| DVec3::new(x, y, z)))
            .map(|c| (s.position + s.orientation * (c * half_extents)).x)
            .fold(f64::MIN, f64::max);
        assert!(
            front - wall < slop + 1e-3,
            "{} is {} m into the wall",
            b.name,
            front - wall
        );
        touching += usize::from(front - wall > -0.05);
        // Against the wall, or against a box that is: packed at the van's front.
        assert!(
            front - wall > -0.35,
            "{} rests {} m from the wall",
            b.name,
            wall - front
        );
    }
    assert!(touching >= 1, "{touching} boxes against the wall");
    for b in world.bodies() {
        assert!(
            b.state.velocity.length() < 0.05,
            "{} still moves: {}",
            b.name,
            b.state.velocity
        );
    }
}

const WALL: &str = r#"(
    name: "wall",
    description: "a box thrown at a frame's wall",
    dt: 0.01,
    duration: 2.0,
    contacts: Some((planes: [], friction: 0.0, restitution: RESTITUTION)),
    frames: [(
        name: "van",
        drive: Steady,
        velocity: (FRAME_SPEED, 0.0, 0.0),
        parts: [(shape: Box(half_extents: (0.1, 1.0, 1.0)), offset: (3.0, 0.0, 0.0))],
    )],
    bodies: [(
        name: "box",
        MOUNT
        parts: [(shape: Box(half_extents: (0.25, 0.25, 0.25)), mass: 2.0)],
        position: (0.0, 0.0, 0.0),
        velocity: (VELOCITY, 0.0, 0.0),
    )],
)"#;

fn wall(restitution: f64, frame_speed: f64, riding: bool) -> World {
    // The box moves at 5 m/s relative to the frame either way.
    let (mount, velocity) = if riding {
        ("frame: Some(\"van\"),", 5.0)
    } else {
        ("", 5.0 + frame_speed)
    };
    parse(
        &WALL
            .replace("RESTITUTION", &format!("{restitution:?}"))
            .replace("FRAME_SPEED", &format!("{frame_speed:?}"))
            .replace("MOUNT", mount)
            .replace("VELOCITY", &format!("{velocity:?}")),
    )
}

/// A body riding in a frame that hits the frame's own wall follows the world trajectory
/// of the same body in the world hitting that wall, through the impact.
#[test]
fn a_rider_hitting_its_frames_wall_moves_as_the_same_body_in_the_world() {
    let (mut rider, mut free) = (wall(0.5, 2.0, true), wall(0.5, 2.0, false));
    assert!(matches!(rider.mounts()[0], Mount::Riding(_)));
    assert!(matches!(free.mounts()[0], Mount::World));
    let mut bounced = false;
    while rider.time() < 1.5 {
        rider.advance(0.01).unwrap();
        free.advance(0.01).unwrap();
        let (a, b) = (&rider.bodies()[0].state, &free.bodies()[0].state);
        assert!(
            (a.position - b.position).length() < 1e-6,
            "at {}: {} vs {}",
            rider.time(),
            a.position,
            b.position
        );
        assert!((a.velocity - b.velocity).length() < 1e-6);
        bounced |= a.velocity.x < 2.0;
    }
    assert!(bounced, "the box hit the wall and came back");
}

/// Against a moving wall the bounce is relative to the wall: the box leaves it at e
/// times the speed it hit it with.
#[test]
fn a_box_rebounds_from_a_moving_wall_at_e_times_its_impact_speed() {
    for e in [0.3, 0.7] {
        let mut world = wall(e, 2.0, true);
        let mut after = None;
        while world.time() < 1.5 {
            world.advance(0.01).unwrap();
            let v = world.bodies()[0].state.velocity.x - 2.0;
            if v < 0.0 {
                after = Some(after.map_or(v, |a: f64| a.min(v)));
            }
        }
        let rebound = -after.expect("it bounced");
        assert!(
            (rebound / (e * 5.0) - 1.0).abs() < 0.02,
            "e = {e}: leaves at {rebound} m/s relative, expected {}",
            e * 5.0
        );
    }
}

/// A gun's shell hitting a free box: the pair's linear momentum is the same before and
/// after (nothing else touches them).
#[test]
fn a_shell_hitting_a_free_box_keeps_the_pairs_momentum() {
    let mut world = parse(
        r#"(
    name: "shot",
    description: "a shell into a floating box",
    dt: 0.005,
    duration: 1.0,
    contacts: Some((planes: [], friction: 0.5, restitution: 0.2)),
    frames: [(name: "barrel", drive: Steady, velocity: (1.0, 0.0, 0.5))],
    gun: Some((
        frame: Some("barrel"),
        muzzle: (0.5, 0.0, 0.0),
        speed: 20.0,
        period: 2.0,
        shells: 1,
        shell: (shape: Sphere(radius: 0.1), mass: 0.5),
    )),
    bodies: [(
        name: "box",
        parts: [(shape: Box(half_extents: (0.3, 0.3, 0.3)), mass: 4.0)],
        position: (7.0, 0.0, 0.7),
    )],
)"#,
    );
    let momentum = |w: &World| -> DVec3 {
        w.bodies()
            .iter()
            .zip(w.mounts())
            .filter(|(_, m)| matches!(m, Mount::World))
            .map(|(b, _)| b.props.mass * b.state.velocity)
            .sum()
    };
    while !matches!(world.mounts()[1], Mount::World) {
        world.advance(0.005).unwrap();
    }
    let p0 = momentum(&world);
    assert!(p0.length() > 5.0, "the shell flies: {p0}");
    // The next shot is due at 3 s.
    while world.time() < 2.0 {
        world.advance(0.005).unwrap();
    }
    assert!(
        world.bodies()[0].state.velocity.length() > 0.5,
        "the shell hit the box"
    );
    let p1 = momentum(&world);
    // To the round-off of the contact rows' precision (their impulses are equal and
    // opposite; the velocities they change are rounded to it).
    assert!(
        (p1 - p0).length() < 8.0 * ROW_EPSILON * p0.length(),
        "{p0} before, {p1} after"
    );
}

/// A van turning when it stops dead, a rider on a frame fixed to it (a child frame), no
/// forces: the rider moves straight on in the world, through the stop, as if the van had
/// never carried it: the counteraction reaches riders of child frames and includes the
/// end of the van's turning (Δω × r).
#[test]
fn a_rider_of_a_child_frame_keeps_its_world_velocity_when_a_turning_van_stops() {
    let mut world = parse(
        r#"(
    name: "turning stop",
    description: "a turning van stops dead",
    dt: 0.01,
    duration: 2.0,
    frames: [
        (name: "van", drive: Vehicle(speed: 6.0, yaw_rate: 0.8, stop_at: Some(1.0))),
        (name: "bed", parent: Some("van"), position: (-1.5, 0.5, 0.8)),
    ],
    bodies: [(
        name: "crate",
        frame: Some("bed"),
        parts: [(shape: Box(half_extents: (0.2, 0.2, 0.2)), mass: 1.0)],
        position: (0.3, 0.0, -0.4),
    )],
)"#,
    );
    let v0 = world.bodies()[0].state.velocity;
    assert!(v0.length() > 5.0, "carried by the van: {v0}");
    while world.time() < 2.0 {
        world.advance(0.01).unwrap();
        let v = world.bodies()[0].state.velocity;
        assert!(
            (v - v0).length() < 1e-9,
            "at {}: {v}, started at {v0}",
            world.time()
        );
    }
    assert_eq!(
        world.frames()[0].global.velocity,
        DVec3::ZERO,
        "the van stopped"
    );
}

/// A load added between the forces stage and the rest of the step acts for that step only,
/// as `Δv = F h / m`, with contacts and without.
#[test]
fn a_load_added_between_stages_acts_for_one_step() {
    use gyrolab::integrators::Loads;
    use gyrolab::world::Stage;
    for name in ["free-body", "bounce"] {
        let mut pushed = Scene::load(name).unwrap().build();
        let mut plain = pushed.clone();
        let (h, force) = (0.01, DVec3::new(3.0, 0.0, -2.0));
        let mass = pushed.bodies()[0].props.mass;
        plain.advance(h).unwrap();
        pushed.run_stage(Stage::Forces, h).unwrap();
        pushed.add_load(
            0,
            Loads {
                force,
                torque: DVec3::ZERO,
            },
        );
        for stage in &Stage::ALL[1..] {
            pushed.run_stage(*stage, h).unwrap();
        }
        let dv = pushed.bodies()[0].state.velocity - plain.bodies()[0].state.velocity;
        assert!(
            (dv - force * h / mass).length() < 1e-12,
            "{name}: {dv} vs {}",
            force * h / mass
        );
        // The next step has no load of its own.
        plain.advance(h).unwrap();
        pushed.advance(h).unwrap();
        let dv2 = pushed.bodies()[0].state.velocity - plain.bodies()[0].state.velocity;
        assert!((dv2 - dv).length() < 1e-12, "{name}: the load lasted");
    }
}

/// A box riding in a van that stops dead slides on (the counteraction) into the van's
/// front wall and bounces off it at e times the speed it hit with.
#[test]
fn a_box_rebounds_from_a_stopped_vans_wall_at_e_times_its_speed() {
    for e in [0.0, 0.5] {
        let mut world = parse(&format!(
            r#"(
    name: "stop",
    description: "a van stops; its box hits the front wall",
    dt: 0.01,
    duration: 3.0,
    contacts: Some((planes: [], friction: 0.0, restitution: {e:?})),
    frames: [(
        name: "van",
        drive: Vehicle(speed: 3.0, yaw_rate: 0.0, stop_at: Some(0.2)),
        parts: [(shape: Box(half_extents: (0.1, 1.0, 1.0)), offset: (3.0, 0.0, 0.0))],
    )],
    bodies: [(
        name: "box",
        frame: Some("van"),
        parts: [(shape: Box(half_extents: (0.25, 0.25, 0.25)), mass: 2.0)],
    )],
)"#
        ));
        let mut fastest_back = 0.0f64;
        while world.time() < 3.0 {
            world.advance(0.01).unwrap();
            if world.time() > 0.25 && world.time() < 0.5 {
                let v = world.bodies()[0].state.velocity.x;
                assert!((v - 3.0).abs() < 1e-9, "slides on at {v} after the stop");
            }
            fastest_back = fastest_back.max(-world.bodies()[0].state.velocity.x);
        }
        assert!(
            (fastest_back - e * 3.0).abs() < 0.02 * 3.0,
            "e = {e}: back at {fastest_back} m/s"
        );
    }
}

/// A frame's moving part wakes a body asleep in its way instead of passing through it.
#[test]
fn a_moving_frame_pushes_a_sleeping_box() {
    let mut world = parse(
        r#"(
    name: "plough",
    description: "a wall driven into a sleeping box",
    gravity: (0.0, -9.81, 0.0),
    dt: 0.01,
    duration: 6.0,
    contacts: Some((planes: [(point: (0.0, 0.0, 0.0))], friction: 0.5)),
    frames: [(
        name: "plough",
        drive: Steady,
        position: (-6.0, 0.5, 0.0),
        velocity: (1.0, 0.0, 0.0),
        parts: [(shape: Box(half_extents: (0.1, 0.5, 1.0)))],
    )],
    bodies: [(
        name: "box",
        parts: [(shape: Box(half_extents: (0.25, 0.25, 0.25)), mass: 1.0)],
        position: (0.0, 0.25, 0.0),
    )],
)"#,
    );
    let mut slept = false;
    while world.time() < 6.0 {
        world.advance(0.01).unwrap();
        slept |= world.contacts().unwrap().is_asleep(0);
    }
    assert!(slept, "the box fell asleep before the wall came");
    let x = world.bodies()[0].state.position.x;
    let wall = world.frames()[0].global.transform.translation.x;
    assert!(
        x > wall + 0.3,
        "pushed ahead of the wall: box at {x}, wall at {wall}"
    );
}

/// A turret on a motorised hinge on a driving, turning hull: its spin relative to the
/// hull reaches the motor's speed, and the hinge keeps it on the hull.
#[test]
fn a_motorised_hinge_on_a_driven_frame_reaches_its_speed_relative_to_the_frame() {
    let mut world = parse(
        r#"(
    name: "turret",
    description: "a turret on a motorised hinge on a driving hull",
    gravity: (0.0, -9.81, 0.0),
    dt: 0.005,
    duration: 4.0,
    contacts: Some((planes: [], friction: 0.5)),
    frames: [(
        name: "hull",
        drive: Vehicle(speed: 3.0, yaw_rate: 0.3),
        position: (0.0, 1.0, 0.0),
        parts: [(shape: Box(half_extents: (2.0, 0.4, 1.2)))],
    )],
    bodies: [(
        name: "turret",
        parts: [(shape: Cylinder(radius: 0.8, length: 0.5), mass: 200.0)],
        position: (0.0, 1.65, 0.0),
        velocity: (3.0, 0.0, 0.0),
        omega: (0.0, 0.3, 0.0),
    )],
    joints: [(
        kind: Hinge,
        a: "turret",
        frame: Some("hull"),
        anchor: (0.0, 1.4, 0.0),
        axis: (0.0, 1.0, 0.0),
        motor: Some((0.5, 5000.0)),
    )],
)"#,
    );
    while world.time() < 4.0 {
        world.advance(0.005).unwrap();
    }
    let hull = world.frames()[0].global;
    let turret = &world.bodies()[0];
    let relative = turret.state.world_omega(&turret.props) - hull.angular_velocity;
    assert!(
        (relative.y - 0.5).abs() < 0.005 && relative.length() - relative.y.abs() < 1e-3,
        "turns at {relative} relative to the hull"
    );
    // Still on its hinge: the anchor on the turret sits on the hull's anchor point.
    let on_hull = hull.transform.transform_point(DVec3::new(0.0, 0.4, 0.0));
    let on_turret = turret.state.position + turret.state.orientation * DVec3::new(0.0, -0.25, 0.0);
    assert!(
        (on_hull - on_turret).length() < 0.01,
        "{on_turret} off the hull's {on_hull}"
    );
}

/// The tank's shells collide: the third knocks bricks out of the wall beside the hull's
/// circle, which stood until then.
#[test]
fn the_tanks_shell_knocks_bricks_out_of_the_wall() {
    let mut world = Scene::load("tank").unwrap().build();
    let bricks: Vec<usize> = (0..world.bodies().len())
        .filter(|&i| world.bodies()[i].name.starts_with("brick"))
        .collect();
    assert_eq!(bricks.len(), 30);
    let start: Vec<DVec3> = bricks
        .iter()
        .map(|&i| world.bodies()[i].state.position)
        .collect();
    let moved = |w: &World| {
        bricks
            .iter()
            .zip(&start)
            .filter(|&(&i, x0)| (w.bodies()[i].state.position - *x0).length() > 0.5)
            .count()
    };
    while world.time() < 4.5 {
        world.advance(0.01).unwrap();
    }
    assert_eq!(moved(&world), 0, "the wall stands before the shot");
    while world.time() < 7.0 {
        world.advance(0.01).unwrap();
    }
    assert!(moved(&world) >= 3, "{} bricks knocked out", moved(&world));
}
