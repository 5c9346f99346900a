//! The solve stage: every stage of a contact step after detection, in order (sleep, the
//! solver's stages of [`StepState`] with the integration of the bodies it moves, store
//! impulses, the readout).

use glam::DVec3;

use crate::body::Body;
use crate::contacts::{ContactState, Contacts};
use crate::integrators::{Integrator, Loads, StepError};
use crate::solver::islands;
use crate::solver::parallel;
use crate::solver::settings::SolverKind;
use crate::solver::step::{Movers, Participants};

impl Contacts {
    /// Every stage after detection: sleep, the solver's stages with the integration of
    /// the bodies it moves (the world's `movers` move theirs), store impulses, readout.
    pub(crate) fn solve(
        &mut self,
        bodies: &mut [Body],
        gravity: DVec3,
        loads: &[Loads],
        integrator: Integrator,
        h: f64,
        movers: &mut dyn Movers,
    ) -> Result<(), StepError> {
        if self.state.sleep.len() == bodies.len() && self.at_rest() {
            // The stages would solve and move nothing (see `Contacts::detect`).
            self.scratch.step.awake.clear();
            self.scratch.step.awake.resize(bodies.len(), false);
            self.scratch.step.job_contacts.clear();
            self.update_stats();
            return Ok(());
        }
        let (work, teams) = (self.awake_work(bodies.len()), self.scratch.teams);
        let mut team = teams.solve;
        let solved = team.run((work, teams.timed), || {
            self.solve_stages(bodies, gravity, loads, integrator, h, movers)
        });
        self.scratch.teams.solve = team;
        solved
    }

    fn solve_stages(
        &mut self,
        bodies: &mut [Body],
        gravity: DVec3,
        loads: &[Loads],
        integrator: Integrator,
        h: f64,
        movers: &mut dyn Movers,
    ) -> Result<(), StepError> {
        self.update_sleep(bodies);
        let ContactState {
            settings,
            graph,
            joints,
            user_rows,
            sleep,
            passive,
            kinematic,
            ..
        } = &mut self.state;
        let state = &mut self.scratch.step;
        let who = Participants {
            sleep,
            passive,
            kinematic,
        };
        state.prepare(bodies, who, graph, joints, settings, h);
        state.step_h = h;
        match settings.solver {
            // The classic step: the stages once over the whole step, with Baumgarte's
            // bias on the contacts and joints [Havok solver].
            SolverKind::Pgs => {
                state.integrate_velocities(gravity, loads, h);
                state.prepare_joints((joints, user_rows), settings, h);
                if settings.warm_start {
                    state.warm_start(settings);
                }
                for _ in 0..settings.iterations {
                    state.iterate(settings, h);
                }
                state.integrate_positions(bodies, (integrator, gravity, loads), h, movers)?;
            }
            // The soft step: the stages per solver sub-step with soft rows, a relax pass
            // after each, restitution at the end [Catto 2024].
            SolverKind::Soft => {
                let h_sub = settings.solver_substep(h);
                for _ in 0..settings.substeps {
                    state.integrate_velocities(gravity, loads, h_sub);
                    state.prepare_joints((joints, user_rows), settings, h_sub);
                    state.warm_start(settings);
                    for _ in 0..settings.substep_iterations {
                        state.iterate(settings, h_sub);
                    }
                    state.integrate_positions(
                        bodies,
                        (integrator, gravity, loads),
                        h_sub,
                        movers,
                    )?;
                    state.update_contacts(settings);
                    state.relax(settings, h_sub);
                }
                state.restitution(settings);
                state.finalize_bodies(bodies)?;
            }
        }
        state.store_impulses(graph, (joints, user_rows));
        self.state.stats.made += self.scratch.step.made;
        self.tick_sleep(bodies, h);
        self.update_stats();
        self.sweep_free_bodies(bodies, movers);
        // Only the bodies this step moved can have left the finite.
        if (self.scratch.step.moving.iter()).all(|&i| bodies[i].state.is_finite()) {
            Ok(())
        } else {
            Err(StepError::NonFinite)
        }
    }

    /// The fast pairs' sweep ([`Contacts::sweep_back`]) over the bodies it may move:
    /// riders move in their frames, and a jointed body moved back alone would start the
    /// next step with its joint stretched, so neither is swept.
    fn sweep_free_bodies(&mut self, bodies: &mut [Body], movers: &dyn Movers) {
        // Only bodies this step moved (an asleep or passive one has nothing to sweep).
        let mut free = std::mem::take(&mut self.scratch.buffers.free);
        free.clear();
        free.resize(bodies.len(), false);
        for &i in &self.scratch.step.moving {
            free[i] = !movers.moves(i);
        }
        for j in self.state.joints.iter().filter(|j| j.holds()) {
            for b in std::iter::once(j.a).chain(j.b) {
                if let Some(f) = free.get_mut(b) {
                    *f = false;
                }
            }
        }
        self.sweep_back(bodies, |i| free[i]);
        self.scratch.buffers.free = free;
    }

    /// Readout: what the last step found, for the app (the sleep stage counts the
    /// islands): the points of the contacts it solved only, so that an asleep heap is
    /// not walked for it.
    pub(crate) fn update_stats(&mut self) {
        let values = self.state.graph.values();
        self.state.stats.contacts = self.state.graph.len();
        self.state.stats.points = (self.scratch.step.job_contacts.iter())
            .map(|&c| values[c].manifold.len)
            .sum();
        self.state.stats.awake = self.scratch.step.awake.iter().filter(|a| **a).count();
    }

    /// Sleep: wakes the bodies a moving kinematic collider reached, finds the islands,
    /// and puts to sleep those whose bodies have all been slow for the sleep time; their
    /// bodies stop dead. Sleep state changes only through [`Sleeping`]'s methods (in
    /// [`islands`]), called here, in [`Self::tick_sleep`], in [`Contacts::wake`] and by
    /// detection, which fits it to the bodies.
    fn update_sleep(&mut self, bodies: &mut [Body]) {
        for b in self.scratch.woken.drain(..) {
            self.state.sleep.wake(b);
        }
        let links = self.state.user_rows.links(bodies.len());
        let edges = (&self.state.joints[..], &links[..]);
        let (islands, walked) = (self.state.sleep).update(
            &self.state.graph,
            edges,
            &self.state.settings,
            &mut self.scratch.buffers,
        );
        for &b in &self.scratch.buffers.fell_asleep {
            bodies[b].state.velocity = DVec3::ZERO;
            bodies[b].state.angular_momentum = DVec3::ZERO;
        }
        self.state.stats.islands = islands;
        self.state.stats.made += walked;
    }

    /// Sleep timers: each awake body's timer advances over the step of `h` just taken, or
    /// is reset if it moved faster than the sleep speed ([`islands::sleep_speed`]).
    fn tick_sleep(&mut self, bodies: &[Body], h: f64) {
        let mut speeds = std::mem::take(&mut self.scratch.buffers.speeds);
        let mut ticking = std::mem::take(&mut self.scratch.buffers.ticking);
        let (start, sleep) = (&self.scratch.step.start, &self.state.sleep);
        // An asleep body's timer does not move.
        ticking.clear();
        ticking.extend((0..bodies.len()).filter(|&i| !sleep.asleep(i)));
        parallel::collect(ticking.len(), &mut speeds, |k| {
            let i = ticking[k];
            let (b, from) = (&bodies[i], &start[i]);
            let s = &b.state;
            let turn = s.orientation * from.orientation.inverse();
            islands::sleep_speed(
                (s.velocity, s.world_omega(&b.props)),
                (
                    s.position - from.position,
                    turn.angle_between(glam::DQuat::IDENTITY),
                ),
                b.radius(),
                h,
            )
        });
        (self.state.sleep).tick((&ticking, &speeds), &self.state.settings, h);
        (self.scratch.buffers.speeds, self.scratch.buffers.ticking) = (speeds, ticking);
    }
}
