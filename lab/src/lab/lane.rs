//! A world stepped with one integrator, measuring what the comparisons show: energy and
//! momentum drift, and flips of the first body: sign changes of its angular velocity about
//! the axis it was spun about, which is the body turning over. The command line's
//! `compare` and the app's lanes share it.

use std::sync::Arc;

use crate::body::{Body, BodyState};
use crate::heap::vec_bytes;
use crate::hierarchy::rig::Mount;
use crate::integrators::analytic::TorqueFreeTop;
use crate::integrators::{Integrator, StepError};
use crate::lab::diagnosis::diagnose;
use crate::lab::metrics::{Drift, FlipCounter};
use crate::world::{Stage, World};

/// Its fields change only through its methods: the world through a step and the
/// inputs a lab applies, the measurements with every step.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
// The name state files' errors have always given it.
#[serde(rename = "Run")]
pub struct Lane {
    world: World,
    /// States one step back, for interpolated rendering.
    previous: Vec<BodyState>,
    drift: Drift,
    flips: FlipCounter,
    /// The first body's spin axis at the start (the body axis of largest |ω|), if the
    /// body has three different moments.
    flip_axis: Option<usize>,
    /// The exact time between flips; `None` when the exact motion never flips (a spin
    /// about the largest or smallest axis only wobbles).
    analytic_flip_period: Option<f64>,
    /// The first failure; a failed run stops instead of spreading NaN.
    error: Option<StepError>,
    /// That failure explained: the body, the step, the time and the likely cause.
    failure: Option<String>,
    /// The world at the start, which the explanation compares with; shared, so the
    /// timeline's keyframes do not copy it. A state file leaves it out: a run loaded from
    /// one starts at the loaded moment.
    #[serde(skip)]
    start: Option<Arc<World>>,
    /// Steps completed.
    steps: u64,
    /// The step being taken.
    h: f64,
}

impl Lane {
    pub fn new(mut world: World, integrator: Integrator) -> Self {
        world.set_integrator(integrator);
        let body = &world.bodies()[0];
        let omega = body.state.body_omega(&body.props);
        let top = TorqueFreeTop::new(body.props.inertia.principal(), omega);
        let flip_axis = body
            .props
            .inertia
            .intermediate_axis()
            .map(|_| omega.abs().max_position());
        let analytic_flip_period = flip_axis
            .filter(|&axis| top.steady_axis() != Some(axis))
            .and_then(|_| top.flip_period());
        Self {
            previous: world.bodies().iter().map(|b| b.state).collect(),
            drift: Drift::new(world.energy(), body.state.angular_momentum),
            flips: FlipCounter::default(),
            flip_axis,
            analytic_flip_period,
            error: None,
            failure: None,
            start: Some(Arc::new(world.clone())),
            steps: 0,
            h: 0.0,
            world,
        }
    }

    /// Adds a body in the world, counted in the drift's energy and woken with every body
    /// before it (it may land on sleeping ones); its index.
    pub fn spawn(&mut self, body: Body) -> usize {
        let world = &mut self.world;
        self.drift.add_energy(body.energy(world.gravity()));
        self.previous.push(body.state);
        let added = world.add_body(body, Mount::World);
        if let Some(contacts) = world.contacts_mut() {
            (0..=added).for_each(|b| contacts.wake(b));
        }
        added
    }

    pub fn world(&self) -> &World {
        &self.world
    }

    /// The world, leaving the run (the command line goes on from a saved one).
    pub fn into_world(self) -> World {
        self.world
    }

    /// The world to change: for the checked changes [`super::lanes::Lanes::apply`] makes,
    /// and for tests that corrupt a saved state.
    pub(crate) fn world_mut(&mut self) -> &mut World {
        &mut self.world
    }

    /// States one step back, for interpolated rendering.
    pub fn previous(&self) -> &[BodyState] {
        &self.previous
    }

    pub fn drift(&self) -> &Drift {
        &self.drift
    }

    pub fn flips(&self) -> &FlipCounter {
        &self.flips
    }

    /// The first body's spin axis at the start, if it has three different moments.
    pub fn flip_axis(&self) -> Option<usize> {
        self.flip_axis
    }

    /// The exact time between flips, when the exact motion flips.
    pub fn analytic_flip_period(&self) -> Option<f64> {
        self.analytic_flip_period
    }

    /// The first failure, which stopped the run.
    pub fn error(&self) -> Option<&StepError> {
        self.error.as_ref()
    }

    /// That failure explained.
    pub fn failure(&self) -> Option<&str> {
        self.failure.as_deref()
    }

    /// Switches the integrator mid-motion; whether it changed. The exact solution is
    /// refused where it does not exist.
    pub fn set_integrator(&mut self, integrator: Integrator) -> Result<bool, String> {
        if integrator == Integrator::Analytic && !self.world.analytic_applies() {
            return Err("the exact solution exists for a single torque-free body only".into());
        }
        let changed = self.world.integrator() != integrator;
        self.world.set_integrator(integrator);
        Ok(changed)
    }

    /// The world at the start (a run loaded from a state file starts at the loaded
    /// moment).
    pub fn start_world(&self) -> &World {
        self.start.as_deref().unwrap_or(&self.world)
    }

    pub fn integrator(&self) -> Integrator {
        self.world.integrator()
    }

    /// One integrator step of `h` and its measurements (a lab's physics step is
    /// `steps_per_dt` of these); does nothing once the run has failed.
    pub fn advance(&mut self, h: f64) -> Result<(), StepError> {
        self.begin_step();
        for stage in Stage::ALL {
            self.run_stage(stage, h);
        }
        self.end_step()
    }

    /// Before a step's stages: keeps the states for interpolated rendering.
    pub fn begin_step(&mut self) {
        self.previous.clear();
        self.previous
            .extend(self.world.bodies().iter().map(|b| b.state));
    }

    /// One stage of an integrator step of `h`; a failure stops the run and is kept.
    pub fn run_stage(&mut self, stage: Stage, h: f64) {
        self.h = h;
        if self.error.is_none()
            && let Err(e) = self.world.run_stage(stage, h)
        {
            self.fail(e, h);
        }
    }

    fn fail(&mut self, e: StepError, dt: f64) {
        let start = self.start.as_deref().unwrap_or(&self.world);
        let why = diagnose(&self.world, start, dt, Some(&e));
        self.failure = Some(why.message(self.steps + 1, self.world.time()));
        self.error = Some(e);
    }

    /// After a step's stages: the measurements, or the failure that stopped the run. An
    /// energy that is not finite (a state too large for it) stops the run too, so the
    /// measurements never hold NaN.
    pub fn end_step(&mut self) -> Result<(), StepError> {
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        let energy = self.world.energy();
        if !energy.is_finite() {
            self.fail(StepError::NonFinite, self.h);
            return Err(StepError::NonFinite);
        }
        self.steps += 1;
        let body = &self.world.bodies()[0];
        self.drift.record(energy, body.state.angular_momentum);
        if let Some(axis) = self.flip_axis {
            self.flips
                .record(self.world.time(), body.state.body_omega(&body.props)[axis]);
        }
        Ok(())
    }

    /// The lane without its world's per-step buffers.
    pub(super) fn snapshot(&self) -> Lane {
        Lane {
            world: self.world.snapshot(),
            previous: self.previous.clone(),
            drift: self.drift,
            flips: self.flips.clone(),
            flip_axis: self.flip_axis,
            analytic_flip_period: self.analytic_flip_period,
            error: self.error.clone(),
            failure: self.failure.clone(),
            start: self.start.clone(),
            steps: self.steps,
            h: self.h,
        }
    }

    pub(super) fn restore(&mut self, from: &Lane) {
        self.world.restore(&from.world);
        self.previous.clone_from(&from.previous);
        self.drift = from.drift;
        self.flips.clone_from(&from.flips);
        self.flip_axis = from.flip_axis;
        self.analytic_flip_period = from.analytic_flip_period;
        self.error.clone_from(&from.error);
        self.failure.clone_from(&from.failure);
        // A state read from a file has no start: the run starts at the loaded moment.
        self.start = from
            .start
            .clone()
            .or_else(|| Some(Arc::new(from.world.clone())));
        self.steps = from.steps;
        self.h = from.h;
    }

    pub(super) fn heap_bytes(&self) -> usize {
        self.world.heap_bytes() + vec_bytes(&self.previous) + self.flips.heap_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hierarchy::rig::Mount;
    use crate::scene::Scene;

    #[test]
    fn a_failed_run_stops_and_keeps_its_state() {
        let mut world = Scene::load("free-body").unwrap().build();
        world.add_body(world.bodies()[0].clone(), Mount::World);
        // `analytic` refuses a world of two bodies.
        let mut run = Lane::new(world, Integrator::Analytic);
        let before = run.world.bodies()[0].state;
        assert!(run.advance(0.01).is_err());
        assert!(run.advance(0.01).is_err());
        assert_eq!(run.world.bodies()[0].state, before);
        assert_eq!(run.world.time(), 0.0);
    }

    /// A state whose energy overflows stops the run instead of recording NaN.
    #[test]
    fn an_energy_that_overflows_stops_the_run() {
        let mut world = Scene::load("free-body").unwrap().build();
        world.bodies_mut()[0].state.velocity.x = 1e150;
        let mut run = Lane::new(world, Integrator::Rk4);
        assert_eq!(run.advance(1e-3), Ok(()));
        // ½mv² = ½m·1e320 J does not fit in a double; the state does.
        run.world.bodies_mut()[0].state.velocity.x = 1e160;
        assert_eq!(run.advance(1e-3), Err(StepError::NonFinite));
        assert!(run.drift.max_energy.is_finite() && run.drift.final_energy.is_finite());
        let failure = run.failure.clone().unwrap();
        assert!(
            failure.starts_with("body 'box' at step 2 (t = 0.002 s): energy overflowed"),
            "{failure}"
        );
        assert!(run.advance(1e-3).is_err(), "it stays stopped");
    }

    #[test]
    fn measures_flips_of_the_dzhanibekov_handle() {
        let mut run = Lane::new(
            Scene::load("dzhanibekov").unwrap().build(),
            Integrator::Midpoint,
        );
        for _ in 0..1000 {
            run.advance(0.01).unwrap();
        }
        let (measured, exact) = (
            run.flips.mean_period().unwrap(),
            run.analytic_flip_period.unwrap(),
        );
        assert!((measured - exact).abs() < 2e-3 * exact);
    }

    #[test]
    fn a_stable_spin_wobbles_but_never_flips() {
        // free-body spins near its largest axis: the spin component keeps its sign.
        let mut run = Lane::new(
            Scene::load("free-body").unwrap().build(),
            Integrator::Midpoint,
        );
        for _ in 0..2000 {
            run.advance(0.01).unwrap();
        }
        assert_eq!(run.analytic_flip_period, None);
        assert_eq!(run.flips.flips(), 0);
    }
}
