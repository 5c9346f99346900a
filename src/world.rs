//! A world of bodies and the order of one physics step.
//!
//! One step of length `h`:
//! 1. **forces**: gravity and user forces become per-body [`Loads`];
//! 2. **hierarchy** (transform-hierarchy issue): parents' global dynamics are propagated
//!    top-down and free children get the inertial forces of their moving frame;
//! 3. **velocities** and 4. **contacts** (contacts issue): the solver turns contacts and
//!    joints into impulses on linear and angular momentum before positions move;
//! 5. **positions**: the selected integrator advances each body (its rotation is where
//!    the integrators differ);
//! 6. **render sync** happens outside, in the app, which reads the states.

use glam::DVec3;
use rayon::prelude::*;

use crate::body::{BodyState, MassProps};

use crate::inertia::Part;
use crate::integrators::{Integrator, Loads, StepError};

#[derive(Clone, Debug)]
pub struct Body {
    pub name: String,
    pub props: MassProps,
    pub state: BodyState,
    /// Shapes in the principal body frame, for rendering.
    pub parts: Vec<Part>,
}

impl Body {
    /// Kinetic plus gravitational potential energy.
    pub fn energy(&self, gravity: DVec3) -> f64 {
        self.state.kinetic_energy(&self.props) - self.props.mass * gravity.dot(self.state.position)
    }
}

#[derive(Clone, Debug)]
pub struct World {
    pub bodies: Vec<Body>,
    pub gravity: DVec3,
    pub integrator: Integrator,
    pub time: f64,
}

/// Below this many bodies a step is cheaper on one thread than the fork-join.
const PARALLEL_THRESHOLD: usize = 4096;

impl World {
    /// Whether the exact solution applies: one body, no torque.
    pub fn analytic_applies(&self) -> bool {
        self.bodies.len() == 1
    }

    /// Advances every body by `h`, in place and on all cores for large worlds. A body
    /// whose step fails keeps its state and the first error is returned; the world is then
    /// not consistent in time and callers stop (the CLI exits, the app shows the error).
    pub fn step(&mut self, h: f64) -> Result<(), StepError> {
        if self.integrator == Integrator::Analytic && !self.analytic_applies() {
            return Err(StepError::AnalyticNeedsTorqueFree);
        }
        let (integrator, gravity) = (self.integrator, self.gravity);
        let advance = |body: &mut Body| {
            let loads = Loads {
                force: gravity * body.props.mass,
                torque: DVec3::ZERO,
            };
            integrator
                .step(&body.props, &mut body.state, loads, h)
                .map(|_| ())
        };
        if self.bodies.len() >= PARALLEL_THRESHOLD {
            self.bodies.par_iter_mut().try_for_each(advance)?;
        } else {
            self.bodies.iter_mut().try_for_each(advance)?;
        }
        self.time += h;
        Ok(())
    }

    pub fn energy(&self) -> f64 {
        self.bodies.iter().map(|b| b.energy(self.gravity)).sum()
    }
}
