//! A row of your own: a gear that couples two wheels on hinges, ω_a = −r·ω_b, added
//! through gyrolab's `UserRow` trait (Havok's user constraints). A motor turns the big
//! wheel b; the gear row turns the small wheel a the other way, r times as fast. Its
//! teeth may carry a limited torque, past which they slip.
//!
//! `cargo run --release --example gear` prints both wheels' spins; `tests/physics_gear.rs` runs
//! the same world and checks the ratio.

use glam::DVec3;
use gyrolab::collision::Pose;
use gyrolab::joints::{Jacobian, UserRow};
use gyrolab::scene::Scene;
use gyrolab::world::World;

/// Two meshing gears about parallel `axis`: the first turns `ratio` times as fast as
/// the second, the other way.
#[derive(Clone, Debug)]
pub struct Gear {
    pub a: usize,
    pub b: usize,
    pub axis: DVec3,
    pub ratio: f64,
    /// The most torque (N·m) the teeth carry on the small wheel; past it they slip.
    pub max_torque: f64,
    /// The accumulated impulse (N·m·s), kept between steps for the warm start.
    pub impulse: f64,
}

impl UserRow for Gear {
    fn bodies(&self) -> (usize, Option<usize>) {
        (self.a, Some(self.b))
    }

    /// `J v = ω_a·axis + r ω_b·axis`, zero when they mesh.
    fn jacobian(&self, _a: &Pose, _b: &Pose) -> Jacobian {
        Jacobian {
            linear: DVec3::ZERO,
            angular_a: -self.axis,
            angular_b: self.ratio * self.axis,
        }
    }

    /// The torque limit over the solver's step `h`: an impulse of at most τ h.
    fn bounds(&self, h: f64) -> (f64, f64) {
        let most = self.max_torque * h;
        (-most, most)
    }

    fn impulse(&self) -> f64 {
        self.impulse
    }

    fn keep(&mut self, impulse: f64) {
        self.impulse = impulse;
    }

    fn boxed_clone(&self) -> Box<dyn UserRow> {
        Box::new(self.clone())
    }
}

/// The small wheel's radius, the big one's, and so the gear ratio.
pub const RADII: (f64, f64) = (0.2, 0.4);

/// The two wheels on hinges about z, the big one motorised at 1 rad/s if `motor`, and
/// the gear, whose teeth carry at most `max_torque`.
pub fn world(motor: bool, max_torque: f64) -> World {
    let motor = if motor { "Some((1.0, 100.0))" } else { "None" };
    let scene = Scene::parse(
        "gear.ron",
        &format!(
            "(name: \"gear\", description: \"two wheels and a gear\", gravity: (0.0, -9.81, 0.0),
          dt: 0.016666666666666666, duration: 5.0, contacts: Some((solver: (sleep: true))),
          bodies: [
            (name: \"small\", parts: [(shape: Cylinder(radius: 0.2, length: 0.05), mass: 1.0)],
             position: (0.0, 1.0, 0.0), orientation_deg: (90.0, 0.0, 0.0)),
            (name: \"big\", parts: [(shape: Cylinder(radius: 0.4, length: 0.05), mass: 4.0)],
             position: (0.65, 1.0, 0.0), orientation_deg: (90.0, 0.0, 0.0)),
          ],
          joints: [
            (kind: Hinge, a: \"small\", anchor: (0.0, 1.0, 0.0), axis: (0.0, 0.0, 1.0)),
            (kind: Hinge, a: \"big\", anchor: (0.65, 1.0, 0.0), axis: (0.0, 0.0, 1.0),
             motor: {motor}),
          ])"
        ),
    )
    .expect("the gear scene is valid");
    let mut world = scene.build();
    let gear = Gear {
        a: 0,
        b: 1,
        axis: DVec3::Z,
        ratio: RADII.1 / RADII.0,
        max_torque,
        impulse: 0.0,
    };
    let contacts = world.contacts_mut().expect("the scene has contacts");
    contacts.add_user_row(Box::new(gear));
    world
}

/// Each wheel's spin about z after every step of `seconds` of `world`: `(t, ω_a, ω_b)`.
pub fn spins(mut world: World, seconds: f64) -> Vec<(f64, f64, f64)> {
    let dt = 1.0 / 60.0;
    let spin = |w: &World, i: usize| w.bodies()[i].state.world_omega(&w.bodies()[i].props).z;
    (0..(seconds / dt).round() as usize)
        .map(|_| {
            world.advance(dt).expect("the gear world steps");
            (world.time(), spin(&world, 0), spin(&world, 1))
        })
        .collect()
}

fn main() {
    for (t, a, b) in spins(world(true, f64::INFINITY), 2.0)
        .into_iter()
        .step_by(15)
    {
        println!(
            "t = {t:5.2} s  small ω = {a:+.6} rad/s  big ω = {b:+.6} rad/s  ratio {:+.6}",
            a / b
        );
    }
}
