//! The time series the dock plots, recorded after every live physics step with the
//! lab's other series ([`super::recorders::Recorders`]), so one cut discards them all:
//! each lane's energies and contacts, the solver's time per stage, the inertial forces
//! on the first lane's riders, a Foucault pendulum's swing plane, the circling rate and
//! a mechanism's measurement.

use glam::{DVec2, DVec3};

use super::dock::{Dock, DockKind, riders};
use super::lane::Lane;
use super::mechanism::MechanismSample;
use super::series::{Series, Stamped};
use super::stage_time::PerStage;
use crate::hierarchy::PrecessionMeter;
use crate::hierarchy::precession::FoucaultSite;
use crate::hierarchy::rig::Mount;
use crate::scene::{Readout, Scene};
use crate::world::World;

/// One lane's energy: kinetic (translation and rotation) and gravitational potential,
/// summed over its bodies, in joules.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EnergySample {
    pub t: f64,
    pub kinetic: f64,
    pub potential: f64,
}

impl Stamped for EnergySample {
    fn t(&self) -> f64 {
        self.t
    }
}

impl EnergySample {
    pub fn of(world: &World) -> Self {
        let (kinetic, potential) = world.bodies().iter().fold((0.0, 0.0), |(k, p), b| {
            (
                k + b.state.kinetic_energy(&b.props),
                p + b.potential_energy(world.gravity()),
            )
        });
        Self {
            t: world.time(),
            kinetic,
            potential,
        }
    }
}

/// One lane's contacts as this step's detection found them: manifold points (speculative
/// ones, not touching yet, included) and the deepest overlap among them, in metres.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactSample {
    pub t: f64,
    pub points: usize,
    pub depth: f64,
}

impl Stamped for ContactSample {
    fn t(&self) -> f64 {
        self.t
    }
}

impl ContactSample {
    pub fn of(world: &World) -> Option<Self> {
        let contacts = world.contacts()?;
        let points = || {
            contacts
                .graph()
                .values()
                .iter()
                .flat_map(|c| c.manifold.points())
        };
        let depth = points().map(|p| -p.separation).fold(0.0, f64::max);
        // Every contact's, asleep ones' too (the step's readout counts those it solved).
        Some(Self {
            t: world.time(),
            points: points().count(),
            depth,
        })
    }
}

/// The solver's wall time per stage of an integrator step (every lane), smoothed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StageSample {
    pub t: f64,
    pub micros: PerStage,
}

impl Stamped for StageSample {
    fn t(&self) -> f64 {
        self.t
    }
}

/// The magnitudes of the inertial accelerations on a rider (force per unit mass, m/s²),
/// in the order of [`crate::hierarchy::InertialForces::named`]: frame, Euler,
/// centrifugal, Coriolis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ForceSample {
    pub t: f64,
    pub magnitudes: [f64; 4],
}

impl Stamped for ForceSample {
    fn t(&self) -> f64 {
        self.t
    }
}

/// One rider of the first lane and its inertial forces over time.
#[derive(Clone, Debug)]
pub struct RiderForces {
    pub body: usize,
    pub series: Series<ForceSample>,
}

/// A rolling ball's circling rate measured so far against the textbook's 2Ω/7, rad/s.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RateSample {
    pub t: f64,
    pub measured: f64,
    pub expected: f64,
}

impl Stamped for RateSample {
    fn t(&self) -> f64 {
        self.t
    }
}

/// A pendulum in a turning frame: its bob, its frame, its pivot in the frame's
/// coordinates, and the meter of its swing plane's turning.
#[derive(Clone, Debug)]
pub struct Pendulum {
    pub body: usize,
    pub frame: usize,
    pub pivot: DVec3,
    pub meter: PrecessionMeter,
}

impl Pendulum {
    /// The scene's Foucault readout (a bob on a joint), or else a rider on a tether.
    pub fn of(scene: &Scene, world: &World) -> Option<Self> {
        let (body, frame, pivot) =
            if let Some(Readout::Foucault { body, frame, pivot }) = &scene.readout {
                (
                    world.bodies().iter().position(|x| &x.name == body)?,
                    world.frames().iter().position(|x| &x.name == frame)?,
                    *pivot,
                )
            } else {
                world
                    .mounts()
                    .iter()
                    .enumerate()
                    .find_map(|(b, m)| match m {
                        Mount::Riding(r) => r.tether.map(|rod| (b, r.frame, rod.anchor)),
                        _ => None,
                    })?
            };
        Some(Self {
            body,
            frame,
            pivot,
            meter: PrecessionMeter::default(),
        })
    }

    /// The bob's displacement from below the pivot, in the frame's horizontal plane,
    /// counter-clockwise seen from above, into the meter.
    fn record(&mut self, world: &World) {
        let frame = world.frames()[self.frame].global.transform;
        let x = frame
            .inverse()
            .transform_point(world.bodies()[self.body].state.position)
            - self.pivot;
        self.meter.record(world.time(), DVec2::new(x.x, -x.z));
    }

    /// The site of the pendulum on its turning planet.
    pub fn site(&self, world: &World) -> FoucaultSite {
        FoucaultSite::of(&world.frames()[self.frame].global)
    }

    /// The swing plane's textbook turning rate against the ground, counter-clockwise
    /// seen from above: `−Ω sin φ`, clockwise in the northern hemisphere [Foucault 1851].
    pub fn expected_rate(&self, world: &World) -> f64 {
        -self.site(world).rate
    }
}

/// The dock's recorded series.
#[derive(Clone, Debug, Default)]
pub struct DockSeries {
    /// Per lane.
    energy: Vec<Series<EnergySample>>,
    /// Per lane; empty without contacts.
    contacts: Vec<Series<ContactSample>>,
    stages: Series<StageSample>,
    /// The first lane's riders, in the order of [`riders`].
    riders: Vec<RiderForces>,
    pendulum: Option<Pendulum>,
    circling: Series<RateSample>,
    mechanism: Series<MechanismSample>,
}

impl DockSeries {
    /// Empty series for the scene's lanes.
    pub fn new(scene: &Scene, lanes: &[Lane]) -> Self {
        let world = lanes[0].world();
        let contacts = if world.contacts().is_some() {
            vec![Series::default(); lanes.len()]
        } else {
            Vec::new()
        };
        Self {
            energy: vec![Series::default(); lanes.len()],
            contacts,
            riders: riders(world)
                .map(|body| RiderForces {
                    body,
                    series: Series::default(),
                })
                .collect(),
            pendulum: Pendulum::of(scene, world),
            ..Self::default()
        }
    }

    pub fn energy(&self) -> &[Series<EnergySample>] {
        &self.energy
    }

    pub fn contacts(&self) -> &[Series<ContactSample>] {
        &self.contacts
    }

    pub fn stages(&self) -> &Series<StageSample> {
        &self.stages
    }

    pub fn riders(&self) -> &[RiderForces] {
        &self.riders
    }

    pub fn pendulum(&self) -> Option<&Pendulum> {
        self.pendulum.as_ref()
    }

    pub fn circling(&self) -> &Series<RateSample> {
        &self.circling
    }

    pub fn mechanism(&self) -> &Series<MechanismSample> {
        &self.mechanism
    }

    /// Forgets what was recorded after time `t`: a branch discards the old future.
    pub fn truncate_after(&mut self, t: f64) {
        self.energy.iter_mut().for_each(|s| s.truncate_after(t));
        self.contacts.iter_mut().for_each(|s| s.truncate_after(t));
        self.stages.truncate_after(t);
        self.riders
            .iter_mut()
            .for_each(|r| r.series.truncate_after(t));
        self.circling.truncate_after(t);
        self.mechanism.truncate_after(t);
        if let Some(p) = &mut self.pendulum {
            p.meter.truncate_after(t);
        }
    }

    /// One physics step's samples of the dock's readouts; a lane that stopped on an
    /// error records nothing.
    pub fn record(&mut self, dock: &Dock, lanes: &[Lane], stages: &PerStage) {
        let world = lanes[0].world();
        if let Some(p) = &mut self.pendulum {
            p.record(world);
        }
        if let Some(m) = dock.mechanism() {
            self.mechanism.record(m.sample(world));
        }
        if dock.kind() == DockKind::FreeBody {
            return;
        }
        for (lane, run) in lanes.iter().enumerate() {
            if run.error().is_some() {
                continue;
            }
            self.energy[lane].record(EnergySample::of(run.world()));
            if let (Some(series), Some(sample)) =
                (self.contacts.get_mut(lane), ContactSample::of(run.world()))
            {
                series.record(sample);
            }
        }
        self.stages.record(StageSample {
            t: world.time(),
            micros: *stages,
        });
        for rider in &mut self.riders {
            if let Mount::Riding(r) = &world.mounts()[rider.body] {
                let forces = r.inertial(world.frames()).named();
                rider.series.record(ForceSample {
                    t: world.time(),
                    magnitudes: forces.map(|(_, v)| v.length()),
                });
            }
        }
        if let Some(c) = dock.circling()
            && let Some(measured) = c.meter.rate()
        {
            self.circling.record(RateSample {
                t: world.time(),
                measured,
                expected: c.expected(world),
            });
        }
    }
}
