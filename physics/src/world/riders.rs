//! Riders: bodies described in a moving frame's coordinates and moved there, under the
//! inertial forces of the frame's motion through the step [cwzx, Hierarchy]. Their
//! rotation stays in world terms (orientation and world angular momentum), where every
//! integrator works and where, torque-free, it does not depend on the frame at all.
//!
//! A rider's world velocity is what forces and impulses change (gravity's kick, added
//! loads, the contact solver): each move starts by reading it back into the frame's
//! coordinates, so an impulse solved in world terms reaches the rider as a local change
//! through the hierarchy algebra, and the inertial forces of its new local velocity
//! (Coriolis included) follow from there.

use glam::DVec3;

use crate::body::Body;
use crate::hierarchy::rig::{self, Frame, FrameStart, Mount, Rider};
use crate::hierarchy::{DynamicTransform, Transform, step_in_frame};
use crate::integrators::{Integrator, Loads, StepError};
use crate::solver::Movers;

/// The frames' motion through one step, to move riders through any part of it.
#[derive(Clone, Debug, Default)]
pub struct FrameMotion {
    /// The frames at the step's start: their drives and locals give their global
    /// dynamics at any time of the step.
    start: Vec<FrameStart>,
    t: f64,
    /// The globals last asked for, at `s`, `s + h/2` and `s + h`: the riders of one
    /// sub-step share them.
    cache: Option<(f64, f64, [Vec<DynamicTransform>; 3])>,
}

impl FrameMotion {
    /// The motion of `frames` through the step that starts at `t` (the buffer is kept
    /// from step to step).
    pub fn restart(&mut self, frames: &[Frame], t: f64) {
        self.start.clear();
        self.start.extend(frames.iter().map(Frame::start));
        self.t = t;
        self.cache = None;
    }

    /// Every frame's global dynamics `s` into the step.
    pub fn at(&self, s: f64) -> Vec<DynamicTransform> {
        rig::globals_after(&self.start, self.t, s)
    }

    /// Every frame's global dynamics at the start, middle and end of `[s, s + h]`.
    fn over(&mut self, s: f64, h: f64) -> &[Vec<DynamicTransform>; 3] {
        if !matches!(&self.cache, Some((cs, ch, _)) if *cs == s && *ch == h) {
            let globals = [self.at(s), self.at(s + 0.5 * h), self.at(s + h)];
            self.cache = Some((s, h, globals));
        }
        &self.cache.as_ref().expect("just filled").2
    }
}

/// Moves a rider through `h`, with its frame's global dynamics at the start, middle and
/// end: its world velocity read into the frame, RK4 in the frame under the inertial
/// forces (and its tether and extra gravity), its rotation by `integrator` torque-free,
/// and its world state at the end.
pub fn advance(
    rider: &mut Rider,
    body: &mut Body,
    [start, mid, end]: [&DynamicTransform; 3],
    integrator: Integrator,
    h: f64,
) -> Result<(), StepError> {
    let world = DynamicTransform {
        velocity: body.state.velocity,
        ..DynamicTransform::at_rest(Transform::from_translation_rotation(
            start
                .transform
                .transform_point(rider.local.transform.translation),
            body.state.orientation,
        ))
    };
    let velocity = start.local_of(&world).velocity;
    let (g, tether) = (rider.gravity, rider.tether);
    let motion = step_in_frame(
        [start, mid, end],
        rider.local.transform.translation,
        velocity,
        h,
        |x, v, inertial| g + tether.map_or(DVec3::ZERO, |rod| rod.accel(x, v, g + inertial)),
    );
    if !(motion.position.is_finite() && motion.velocity.is_finite()) {
        return Err(StepError::NonFinite);
    }
    let mut spin = body.state;
    integrator.step(&body.props, &mut spin, Loads::default(), h)?;
    body.state.orientation = spin.orientation;
    body.state.angular_momentum = spin.angular_momentum;
    rider.local.transform.translation = motion.position;
    rider.local.velocity = motion.velocity;
    rider.local.accel = motion.accel;
    place(rider, body, end);
    Ok(())
}

/// A rider's world position and velocity from its frame's global dynamics.
pub fn place(rider: &Rider, body: &mut Body, frame: &DynamicTransform) {
    let global = *frame * rider.local;
    body.state.position = global.transform.translation;
    body.state.velocity = global.velocity;
}

/// Reads a rider's world velocity (as the solver left it) back into its frame.
pub fn take_world_velocity(rider: &mut Rider, body: &Body, frame: &DynamicTransform) {
    let world = DynamicTransform {
        velocity: body.state.velocity,
        ..DynamicTransform::at_rest(Transform::from_translation_rotation(
            body.state.position,
            body.state.orientation,
        ))
    };
    rider.local.velocity = frame.local_of(&world).velocity;
}

/// The contact solver's hook: riders are moved in their frames, sub-step by sub-step.
pub struct RiderMovers<'a> {
    /// Where each body is mounted; riders' local states are moved here.
    pub mounts: &'a mut [Mount],
    /// The frames' motion through the step.
    pub motion: &'a mut FrameMotion,
    /// The integrator that turns the riders.
    pub integrator: Integrator,
    /// How far into the step each body has been moved.
    pub elapsed: &'a mut [f64],
}

impl Movers for RiderMovers<'_> {
    fn moves(&self, i: usize) -> bool {
        matches!(self.mounts.get(i), Some(Mount::Riding(_)))
    }

    fn advance(&mut self, i: usize, body: &mut Body, h: f64) -> Result<(), StepError> {
        let Mount::Riding(rider) = &mut self.mounts[i] else {
            return Ok(());
        };
        let s = self.elapsed[i];
        let f = rider.frame;
        let [a, b, c] = self.motion.over(s, h);
        advance(rider, body, [&a[f], &b[f], &c[f]], self.integrator, h)?;
        self.elapsed[i] += h;
        Ok(())
    }
}
