//! The readouts: what the dock under the app's view is about, chosen by the kind of
//! scene, and the scene's meters that are part of the run's state. Free bodies show
//! their energy and momentum drift (the lab's recorders' `series`); a contact scene
//! does not conserve energy (friction and inelastic contacts take it out, by design), so
//! it shows where the energy is, how much touches and how deep, and what the solver's
//! stages cost; a scene in a moving frame shows the inertial forces on a rider and the
//! scene's measurement against its textbook value. The series the dock plots are
//! recorded with the lab's other series ([`super::dock_series`]).

use glam::DVec3;

use super::mechanism::Mechanism;
use super::metrics::TurnRate;
use crate::hierarchy::DynamicTransform;
use crate::hierarchy::rig::Mount;
use crate::scene::{Readout, Scene};
use crate::world::World;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DockKind {
    /// Energy and momentum drift, the body's ω, the Newton map, work-precision.
    #[default]
    FreeBody,
    /// Kinetic and potential energy, contact points, the deepest penetration and the
    /// solver's time per stage.
    Contacts,
    /// The inertial forces on a rider, the scene's measurement against its textbook
    /// value, and kinetic and potential energy.
    Frames,
    /// A mechanism's measurement against its formula, the joints that broke, and kinetic
    /// and potential energy.
    Joints,
}

impl DockKind {
    /// A scene with a frame readout, or a rider in a frame that turns or accelerates, is
    /// about its moving frame, even with contacts: `tank`'s ball on the turning hull is
    /// the point of that scene, and its contacts only carry it. A frame that moves at a
    /// constant velocity is inertial and its riders feel nothing: `crash`'s van drives
    /// straight at 8 m/s and then stops within one step, so a plot of its boxes'
    /// inertial forces would be zero throughout; what that scene shows is contact (the
    /// boxes slide, hit the wall and stop), so it gets the contact dock, as does
    /// `top-on-turntable`, whose top stands on the table without riding in it. Other
    /// contact scenes get the contact dock, the rest the free-body one.
    pub fn of(scene: &Scene, world: &World) -> Self {
        let felt = world.mounts().iter().any(|m| match m {
            Mount::Riding(r) => !inertial(&world.frames()[r.frame].global),
            _ => false,
        });
        let mechanism = matches!(
            scene.readout,
            Some(Readout::SliderCrank { .. } | Readout::Stretch)
        );
        let breakable = world.contacts().is_some_and(|c| {
            (c.joints().iter()).any(|j| j.break_force.is_some() || j.break_torque.is_some())
        });
        if mechanism || breakable {
            Self::Joints
        } else if scene.readout.is_some() || felt {
            Self::Frames
        } else if world.contacts().is_some() {
            Self::Contacts
        } else {
            Self::FreeBody
        }
    }
}

/// Whether a frame's motion is uniform: no turning and no acceleration.
fn inertial(frame: &DynamicTransform) -> bool {
    frame.accel == DVec3::ZERO
        && frame.angular_velocity == DVec3::ZERO
        && frame.angular_accel == DVec3::ZERO
}

/// A ball rolling on a turning frame: how fast its world velocity turns, and the rate
/// theory gives for a solid sphere rolling without slipping, 2/7 of the frame's spin about
/// the vertical.
#[derive(Clone, Copy, Debug, serde::Serialize, serde::Deserialize)]
pub struct Circling {
    pub body: usize,
    pub frame: usize,
    pub meter: TurnRate,
}

impl Circling {
    /// The scene's circling readout, if it has one.
    pub fn of(scene: &Scene, world: &World) -> Option<Self> {
        let Some(Readout::Circling { body, frame }) = &scene.readout else {
            return None;
        };
        Some(Self {
            body: world.bodies().iter().position(|b| &b.name == body)?,
            frame: world.frames().iter().position(|f| &f.name == frame)?,
            meter: TurnRate::default(),
        })
    }

    /// `2Ω/7` for the frame's current spin about the vertical.
    pub fn expected(&self, world: &crate::world::World) -> f64 {
        2.0 / 7.0 * world.frames()[self.frame].global.angular_velocity.y
    }
}

/// The dock's kind and the scene's meters: every readout of every scene is here or in
/// its series, and the app's dock only draws them.
#[derive(Clone, Debug, Default)]
pub struct Dock {
    kind: DockKind,
    /// The rider the dock shows first, among [`riders`]: the readout's body if it
    /// rides, else the first rider no joint holds (a joint makes the rider's motion the
    /// joint's).
    default_rider: usize,
    /// The scene's circling readout, measured on the first lane after every physics
    /// step (simulated again too: a moment's snapshot keeps it).
    circling: Option<Circling>,
    /// A jointed scene's readout, on the first lane.
    mechanism: Option<Mechanism>,
}

/// The first lane's riders: the bodies mounted in a moving frame, in body order.
pub fn riders(world: &World) -> impl Iterator<Item = usize> + '_ {
    (world.mounts().iter().enumerate())
        .filter(|(_, m)| matches!(m, Mount::Riding(_)))
        .map(|(body, _)| body)
}

impl Dock {
    /// The readouts of `scene`, whose first lane's world is `world`.
    pub fn new(scene: &Scene, world: &World) -> Self {
        let readout_body = match &scene.readout {
            Some(Readout::Foucault { body, .. } | Readout::Circling { body, .. }) => {
                world.bodies().iter().position(|b| &b.name == body)
            }
            _ => None,
        };
        let jointed = |b: usize| {
            world
                .contacts()
                .is_some_and(|c| c.joints().iter().any(|j| j.a == b || j.b == Some(b)))
        };
        let riders: Vec<usize> = riders(world).collect();
        let default_rider = riders
            .iter()
            .position(|&r| Some(r) == readout_body)
            .or_else(|| riders.iter().position(|&r| !jointed(r)))
            .unwrap_or(0);
        Self {
            kind: DockKind::of(scene, world),
            default_rider,
            circling: Circling::of(scene, world),
            mechanism: Mechanism::of(scene, world),
        }
    }

    pub fn kind(&self) -> DockKind {
        self.kind
    }

    /// The rider the dock shows first, as an index among [`riders`].
    pub fn default_rider(&self) -> usize {
        self.default_rider
    }

    pub fn circling(&self) -> Option<&Circling> {
        self.circling.as_ref()
    }

    pub fn mechanism(&self) -> Option<&Mechanism> {
        self.mechanism.as_ref()
    }

    /// The meters that are part of the run's state, after every physics step of the
    /// first lane's `world`.
    pub fn measure(&mut self, world: &World) {
        if let Some(c) = &mut self.circling {
            c.meter
                .record(world.time(), world.bodies()[c.body].state.velocity);
        }
    }

    /// The circling meter of a saved state; a state without one (saved from the command
    /// line) keeps the scene's.
    pub fn restore(&mut self, circling: Option<Circling>) {
        if circling.is_some() {
            self.circling = circling;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::Lab;

    fn lab(name: &str) -> Lab {
        Lab::new(Scene::load(name).unwrap())
    }

    #[test]
    fn each_kind_of_scene_gets_its_dock() {
        // Every built-in scene, as docs/app.md lists them.
        let kinds = [
            ("dzhanibekov", DockKind::FreeBody),
            ("free-body", DockKind::FreeBody),
            ("tennis-racket", DockKind::FreeBody),
            ("clamp-drift", DockKind::FreeBody),
            ("tumbling-crowd", DockKind::FreeBody),
            ("stack", DockKind::Contacts),
            ("pyramid", DockKind::Contacts),
            ("pile", DockKind::Contacts),
            ("dominoes", DockKind::Contacts),
            ("bounce", DockKind::Contacts),
            ("incline", DockKind::Contacts),
            ("newtons-cradle", DockKind::Contacts),
            ("dancing-pole", DockKind::Contacts),
            ("spinning-top", DockKind::Contacts),
            ("crash", DockKind::Contacts),
            ("top-on-turntable", DockKind::Contacts),
            ("tank", DockKind::Frames),
            ("carousel", DockKind::Frames),
            ("foucault", DockKind::Frames),
            ("turntable", DockKind::Frames),
            ("elastic-pendulum", DockKind::Contacts),
            ("truck", DockKind::FreeBody),
            ("space-pole", DockKind::FreeBody),
            ("slider-crank", DockKind::Joints),
            ("chain", DockKind::Joints),
            ("wrecking-ball", DockKind::Joints),
            ("pendulum", DockKind::Contacts),
        ];
        assert_eq!(kinds.len(), crate::scene::scene_names().len());
        for (name, kind) in kinds {
            assert_eq!(lab(name).dock().kind(), kind, "{name}");
        }
    }

    /// Why `crash` gets the contact dock: its van drives straight at 8 m/s and stops
    /// within one step, so at every step of the run its boxes feel no inertial force.
    #[test]
    fn the_crash_boxes_feel_no_inertial_force() {
        let mut world = Scene::load("crash").unwrap().build();
        let mut riders = 0;
        while world.time() < 4.0 {
            world.advance(0.01).unwrap();
            for m in world.mounts() {
                if let Mount::Riding(r) = m {
                    riders += 1;
                    assert_eq!(
                        r.inertial(world.frames()).total(),
                        DVec3::ZERO,
                        "{}",
                        world.time()
                    );
                }
            }
        }
        assert!(riders >= 3 * 399);
    }

    /// The exact solution, and with it the app's ghost and its checkbox, exists for one
    /// torque-free body only: not for a pole on the floor, a crowd or a frame.
    #[test]
    fn only_a_single_free_body_has_the_exact_ghost() {
        for name in crate::scene::scene_names() {
            let lab = lab(name);
            let world = lab.world();
            let single_free = world.bodies().len() == 1
                && world.frames().is_empty()
                && world.contacts().is_none();
            assert_eq!(lab.ghost().is_some(), single_free, "{name}");
        }
        assert!(lab("dzhanibekov").ghost().is_some());
        assert!(lab("dancing-pole").ghost().is_none());
    }

    /// A box resting on the ground: the kinetic energy dies out, the potential energy is
    /// m g times the height of its centre (a 1 kg box of half-height 0.5 m), the
    /// detection finds its four corners, and the solver lets them sink no deeper than a
    /// few millimetres.
    #[test]
    fn a_resting_box_has_its_potential_energy_and_shallow_contacts() {
        let mut scene = Scene::load("pyramid").unwrap();
        scene.set_generated_size(1).unwrap();
        let mut lab = Lab::new(scene);
        for _ in 0..120 {
            lab.step();
        }
        let e = *lab.recorders().dock().energy()[0].last().unwrap();
        let g = 9.81;
        assert!(e.kinetic < 1e-6, "{e:?}");
        assert!(
            (e.potential - 1.0 * g * 0.5).abs() < 0.01 * g * 0.5,
            "{e:?}"
        );
        let c = *lab.recorders().dock().contacts()[0].last().unwrap();
        assert_eq!(c.points, 4);
        assert!(c.depth > 0.0 && c.depth < 0.01, "{c:?}");
        assert_eq!(lab.recorders().dock().energy()[0].samples.len(), 121);
    }

    /// The tank's ball is the rider shown first (the turret hangs on a hinge); on the
    /// turning hull it feels the hull's own acceleration backwards, `v Ω` = 0.9 m/s² for a
    /// hull driving at 3 m/s and turning at 0.3 rad/s.
    #[test]
    fn the_tanks_ball_feels_the_hulls_acceleration() {
        let mut lab = lab("tank");
        lab.step();
        let rider = &lab.recorders().dock().riders()[lab.dock().default_rider()];
        assert_eq!(lab.world().bodies()[rider.body].name, "ball");
        let [frame, euler, centrifugal, _] = rider.series.last().unwrap().magnitudes;
        assert!((frame - 3.0 * 0.3).abs() < 1e-9, "{frame}");
        assert!(euler < 1e-12, "steady turning: {euler}");
        assert!(centrifugal > 0.0);
    }

    /// The turntable's circling series ends at the lab's readout, against 2Ω/7.
    #[test]
    fn the_circling_series_follows_the_readout() {
        let mut lab = lab("turntable");
        for _ in 0..400 {
            lab.step();
        }
        let last = *lab.recorders().dock().circling().last().unwrap();
        let c = *lab.dock().circling().unwrap();
        assert_eq!(last.measured, c.meter.rate().unwrap());
        assert!((last.expected - 2.0 / 7.0).abs() < 1e-12);
        assert!(
            (last.measured / last.expected - 1.0).abs() < 0.02,
            "{last:?}"
        );
    }

    /// Foucault's swing plane turns at −Ω sin φ: after 30 s of the scene the measured
    /// rate is within 2% of it (1.3% measured; the scene's wide swing adds its own slow
    /// precession).
    #[test]
    fn the_foucault_meter_measures_omega_sin_latitude() {
        let mut lab = lab("foucault");
        while lab.time() < 30.0 {
            lab.step();
        }
        let p = lab.recorders().dock().pendulum().unwrap();
        let world = lab.world();
        let expected = p.expected_rate(world);
        let latitude = 50f64.to_radians();
        assert!((expected + 2.0 * std::f64::consts::PI / 60.0 * latitude.sin()).abs() < 1e-12);
        let rate = p.meter.rate().unwrap();
        assert!((rate / expected - 1.0).abs() < 0.02, "{rate} vs {expected}");
    }
}
