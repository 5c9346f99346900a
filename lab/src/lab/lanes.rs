//! The lanes the lab steps: one lane per compared integrator from identical start
//! conditions (single-body scenes), or one lane switched live (scenes of several
//! bodies); the exact solution as a ghost over every lane, where it exists; the body
//! held with the mouse; and the loads a plugin adds between the forces and frames
//! stages. Every change to them comes from an input the lab has logged.

use glam::DVec3;

use super::input::Input;
use super::lane::Lane;
use crate::body::Material;
use crate::body::inertia::{Inertia, Part, Shape};
use crate::body::{Body, BodyState, MassProps};
use crate::integrators::{Integrator, Loads};
use crate::joints::{JointKind, Motor};
use crate::world::grab::Grab;
use crate::world::{Stage, World};

/// Radius of a sphere about the origin holding a world's bodies and frames' parts.
pub fn radius_of(world: &World) -> f64 {
    world
        .bodies()
        .iter()
        .map(|b| b.state.position.length() + b.radius())
        .chain(world.frames().iter().flat_map(|f| {
            let center = f.global.transform.translation.length();
            f.parts.iter().map(move |p| center + p.radius_from_centre())
        }))
        .fold(0.1, f64::max)
}

#[derive(Clone, Debug, Default)]
pub struct Lanes {
    lanes: Vec<Lane>,
    /// The exact solution, drawn translucent over every lane, when it exists.
    ghost: Option<Lane>,
    /// A body the user holds with the mouse: its lane and the pull.
    grab: Option<(usize, Grab)>,
    /// Plugin loads of the integrator step being taken.
    loads: PluginLoads,
}

/// Loads a plugin adds between the forces and frames stages. Live, they are added as the
/// plugin adds them, after the forces stage; simulating again applies the logged ones
/// before the step, so they wait here for its forces stage (which clears the step's
/// loads) and are added right after it, in the order they were made.
#[derive(Clone, Debug, Default)]
struct PluginLoads {
    due: Vec<(usize, usize, Loads)>,
    /// Whether the forces stage of the integrator step being taken has run.
    forces_run: bool,
}

impl Lanes {
    /// One lane per integrator of `compared`, all from `world`, and the exact ghost for
    /// a torque-free body (not on the ground).
    pub fn compared(world: World, compared: &[Integrator]) -> Self {
        let lanes = compared
            .iter()
            .map(|&i| Lane::new(world.clone(), i))
            .collect();
        let ghost = world
            .analytic_applies()
            .then(|| Lane::new(world, Integrator::Analytic));
        Self {
            lanes,
            ghost,
            ..Self::default()
        }
    }

    /// One lane of `world`, stepped with `integrator`.
    pub fn single(world: World, integrator: Integrator) -> Self {
        Self {
            lanes: vec![Lane::new(world, integrator)],
            ..Self::default()
        }
    }

    pub fn lanes(&self) -> &[Lane] {
        &self.lanes
    }

    pub fn ghost(&self) -> Option<&Lane> {
        self.ghost.as_ref()
    }

    /// Every lane, then the ghost.
    pub fn all(&self) -> impl Iterator<Item = &Lane> {
        self.lanes.iter().chain(&self.ghost)
    }

    fn all_mut(&mut self) -> impl Iterator<Item = &mut Lane> {
        self.lanes.iter_mut().chain(self.ghost.as_mut())
    }

    /// The first lane's world: what the readouts measure.
    pub fn first(&self) -> &World {
        self.lanes[0].world()
    }

    pub fn grab(&self) -> Option<(usize, Grab)> {
        self.grab
    }

    /// Bodies per lane.
    pub fn body_counts(&self) -> Vec<usize> {
        self.lanes
            .iter()
            .map(|r| r.world().bodies().len())
            .collect()
    }

    /// Before one integrator step of `h`: the mouse spring's pull, and each run keeps
    /// its states for interpolated rendering.
    pub fn begin_step(&mut self, h: f64) {
        if let Some((lane, grab)) = self.grab
            && let Some(run) = self.lanes.get_mut(lane)
        {
            grab.pull(run.world_mut(), h);
        }
        self.all_mut().for_each(Lane::begin_step);
    }

    /// One stage of the integrator step of `h` of every lane and the ghost; after the
    /// forces stage, the plugin loads that waited for it.
    pub fn run_stage(&mut self, stage: Stage, h: f64) {
        self.all_mut().for_each(|run| run.run_stage(stage, h));
        if stage == Stage::Forces {
            self.loads.forces_run = true;
            for (lane, body, load) in std::mem::take(&mut self.loads.due) {
                self.add_to_world(lane, body, load);
            }
        }
    }

    /// After one integrator step: each run's measurements; the step's plugin loads are
    /// spent.
    pub fn end_step(&mut self) {
        for run in self.all_mut() {
            let _ = run.end_step();
        }
        self.loads = PluginLoads::default();
    }

    /// What an input that changes the lanes does (the lab's [`Input`]s about its own
    /// clock, lanes and start are the lab's).
    pub fn apply(&mut self, input: &Input) -> Result<(), String> {
        match *input {
            Input::Hold { lane, grab } => {
                self.grab = (lane < self.lanes.len()).then_some((lane, grab));
            }
            Input::DragTo(target) => {
                if let Some((_, grab)) = &mut self.grab {
                    grab.target = target;
                }
            }
            Input::Release => self.grab = None,
            Input::SetMotor { joint, motor } => self.set_motor(joint, motor)?,
            Input::SetFriction(friction) => {
                crate::scene::ranges::FRICTION.check("friction", friction)?;
                (self.lanes.iter_mut()).for_each(|r| r.world_mut().set_friction(friction));
            }
            Input::SetSolverSettings(settings) => {
                crate::scene::validate_solver(&settings).map_err(|e| e.under("solver"))?;
                for run in &mut self.lanes {
                    run.world_mut().change_solver_settings(|s| *s = settings);
                }
            }
            Input::AddLoad { lane, body, load } => self.add_load(lane, body, load),
            ref other => return Err(format!("{other:?} is not a change of the lanes")),
        }
        Ok(())
    }

    /// Switches the single lane's integrator; whether it changed.
    pub fn switch(&mut self, integrator: Integrator) -> Result<bool, String> {
        self.lanes[0].set_integrator(integrator)
    }

    /// The motors of the scene's hinges (the first lane's, every lane has the same), by
    /// joint index.
    pub fn motors(&self) -> Vec<(usize, Motor)> {
        let Some(c) = &self.first().contacts() else {
            return Vec::new();
        };
        c.joints()
            .iter()
            .enumerate()
            .filter_map(|(k, j)| match j.kind {
                JointKind::Hinge { motor: Some(m), .. } => Some((k, m)),
                _ => None,
            })
            .collect()
    }

    fn set_motor(&mut self, joint: usize, motor: Motor) -> Result<(), String> {
        crate::scene::ranges::SPIN.check("motor speed", motor.speed)?;
        crate::scene::ranges::TORQUE.check("motor torque", motor.max_torque)?;
        if !self.motors().iter().any(|&(k, _)| k == joint) {
            return Err(format!("joint {joint} has no motor"));
        }
        for run in &mut self.lanes {
            if let Some(c) = run.world_mut().contacts_mut() {
                c.set_motor(joint, motor);
            }
        }
        Ok(())
    }

    /// The friction of the first lane's first body that has parts.
    pub fn friction(&self) -> Option<f64> {
        let world = self.first();
        world.contacts()?;
        world
            .bodies()
            .iter()
            .find(|b| !b.parts.is_empty())
            .map(|b| b.material.friction)
    }

    /// Where a body dropped in starts: above the scene, or beside it when thrown
    /// (`velocity` not zero), at the scale of the first lane's bodies at the start.
    pub fn spawn_point(&self, velocity: DVec3) -> DVec3 {
        let radius = radius_of(self.lanes[0].start_world()).max(1.0);
        if velocity == DVec3::ZERO {
            DVec3::new(0.0, 2.0 * radius, 0.0)
        } else {
            DVec3::new(1.5 * radius, radius, 0.0)
        }
    }

    /// Adds a 1 kg body of `shape` at `position`, moving at `velocity`, to every lane, so
    /// lanes stay comparable; scenes without contacts take none (nothing would stop it
    /// falling).
    pub fn spawn(&mut self, shape: Shape, position: DVec3, velocity: DVec3) -> Result<(), String> {
        if self.lanes.iter().any(|r| r.world().contacts().is_none()) {
            return Err("bodies can be added to scenes with contacts only".into());
        }
        let mass = 1.0;
        let inertia =
            Inertia::new(shape.inertia_tensor(mass).diagonal()).map_err(|e| e.to_string())?;
        let props = MassProps { mass, inertia };
        let mut state =
            BodyState::from_body_omega(&props, glam::DQuat::from_rotation_z(0.3), DVec3::ZERO);
        state.position = position;
        state.velocity = velocity;
        for run in &mut self.lanes {
            let body = Body {
                name: format!("spawned {}", run.world().bodies().len() + 1),
                props,
                state,
                parts: vec![Part {
                    shape,
                    mass,
                    offset: DVec3::ZERO,
                    rotation: glam::DQuat::IDENTITY,
                }],
                material: Material::default(),
            };
            run.spawn(body);
        }
        Ok(())
    }

    /// Checks a plugin load on body `body` of lane `lane`.
    pub fn check_load(&self, lane: usize, body: usize, load: &Loads) -> Result<(), String> {
        let bodies = self.lanes.get(lane).map(|r| r.world().bodies().len());
        if bodies.is_none_or(|n| body >= n) {
            return Err(format!("no body {body} in lane {lane}"));
        }
        if !(load.force.is_finite() && load.torque.is_finite()) {
            return Err(format!("a load must be finite, got {load:?}"));
        }
        Ok(())
    }

    /// A checked plugin load for the integrator step being taken: added now if its
    /// forces stage has run, else right after it.
    fn add_load(&mut self, lane: usize, body: usize, load: Loads) {
        if self.loads.forces_run {
            self.add_to_world(lane, body, load);
        } else {
            self.loads.due.push((lane, body, load));
        }
    }

    fn add_to_world(&mut self, lane: usize, body: usize, load: Loads) {
        if let Some(run) = self.lanes.get_mut(lane) {
            run.world_mut().add_load(body, load);
        }
    }

    /// The lanes and the ghost without their worlds' per-step buffers.
    pub fn snapshot(&self) -> (Vec<Lane>, Option<Lane>) {
        (
            self.lanes.iter().map(Lane::snapshot).collect(),
            self.ghost.as_ref().map(Lane::snapshot),
        )
    }

    /// Takes the lanes, ghost and grab of a saved state, keeping the lanes' per-step
    /// buffers where the lanes match; loads a plugin added for a step that is not taken
    /// now go (the log adds them again). Whether a lane's body count changed.
    pub fn restore(
        &mut self,
        lanes: &[Lane],
        ghost: Option<&Lane>,
        grab: Option<(usize, Grab)>,
    ) -> bool {
        let counts: Vec<usize> = lanes.iter().map(|r| r.world().bodies().len()).collect();
        let changed = self.body_counts() != counts;
        self.lanes.truncate(lanes.len());
        for (lane, theirs) in lanes.iter().enumerate() {
            match self.lanes.get_mut(lane) {
                Some(mine) => mine.restore(theirs),
                None => self.lanes.push(theirs.clone()),
            }
        }
        match (&mut self.ghost, ghost) {
            (Some(mine), Some(theirs)) => mine.restore(theirs),
            (mine, theirs) => mine.clone_from(&theirs.cloned()),
        }
        self.grab = grab;
        self.loads = PluginLoads::default();
        changed
    }
}
