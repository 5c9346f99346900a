//! How far the lab may step: a lesson holds it still while the student predicts, and
//! ends a run at its `until`. Every way of stepping forward (a live integrator step, a
//! whole physics step, a step through the recording) asks [`Lab::may_step`], so a key,
//! a button, play and a replay all stop at the same place; simulating again to a
//! recorded moment (a seek) is not a step forward and is not limited.

use super::Lab;

/// A bound on the lab's steps forward.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Limit {
    #[default]
    Free,
    /// No step at all.
    Still,
    /// No physics step that would end after this time: the run stops at the last step
    /// that ends at or before it.
    Until(f64),
}

impl Lab {
    /// Whether `limit` lets the lab take its next step forward.
    pub fn allows(&self, limit: Limit) -> bool {
        match limit {
            Limit::Free => true,
            Limit::Still => false,
            Limit::Until(t) => self.steps_within(t),
        }
    }

    /// Whether the lab's own limit lets it take its next step forward.
    pub fn may_step(&self) -> bool {
        self.allows(self.limit)
    }

    /// Whether the physics step under way (or the next, between steps) ends at or before
    /// time `t`, within a thousandth of an integrator step (the time is a sum of steps,
    /// rounded: far less than that off).
    /// Its end does not move as its integrator steps are taken, so a live integrator step
    /// and a whole physics step stop at the same place.
    fn steps_within(&self, t: f64) -> bool {
        let left = f64::from(self.clock.steps_per_dt() - self.clock.steps_taken());
        self.time() + left * self.h() <= t + 1e-3 * self.h()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::Input;
    use crate::scene::Scene;

    fn lab() -> Lab {
        Lab::new(Scene::load("bounce").unwrap())
    }

    /// The app's live path: an integrator step's stages one by one, as its systems run
    /// them.
    fn live_step(lab: &mut Lab) {
        lab.begin_integrator_step();
        for stage in crate::world::Stage::ALL {
            lab.run_stage(stage);
        }
        lab.end_integrator_step();
    }

    /// Held still, no way of stepping forward moves the lab: a whole step, a step
    /// forward, a live integrator step, a step through the recording after a step back.
    #[test]
    fn held_still_nothing_steps() {
        let mut lab = lab();
        for _ in 0..3 {
            lab.step();
        }
        lab.step_back();
        let at = (lab.step_index(), lab.time());
        lab.apply(Input::SetLimit(Limit::Still)).unwrap();
        assert!(!lab.step());
        lab.step_forward();
        assert_eq!(lab.replay_step(), None);
        for _ in 0..5 {
            live_step(&mut lab);
        }
        assert_eq!((lab.step_index(), lab.time()), at);
        lab.apply(Input::SetLimit(Limit::Free)).unwrap();
        assert!(lab.step());
        assert_eq!(lab.step_index(), at.0 + 1);
    }

    /// A run to `until` stops at the last physics step that ends at or before it,
    /// however it is stepped: whole steps, live integrator steps of a step split in
    /// three, or through the recording; an `until` between steps stops on the step
    /// before it.
    #[test]
    fn a_run_stops_at_its_until_however_it_is_stepped() {
        let dt = lab().dt();
        let stops = |until: f64, how: &dyn Fn(&mut Lab)| {
            let mut lab = lab();
            lab.apply(Input::SetLimit(Limit::Until(until))).unwrap();
            for _ in 0..1000 {
                how(&mut lab);
            }
            (lab.step_index(), lab.time())
        };
        let whole = stops(1.0, &|lab| {
            lab.step();
        });
        assert_eq!(whole.0, (1.0 / dt).round() as u64);
        assert!((whole.1 - 1.0).abs() < 1e-9, "{}", whole.1);
        let split = |lab: &mut Lab| {
            if lab.step_index() == 0 && lab.steps_per_dt() == 1 {
                lab.apply(Input::SetStepsPerDt(3)).unwrap();
            }
            live_step(lab);
        };
        assert_eq!(stops(1.0, &split).0, whole.0);
        let between = stops(1.0 + 0.6 * dt, &|lab| {
            lab.step_forward();
        });
        assert_eq!(between.0, whole.0, "not the step after");
        let mut lab = lab();
        for _ in 0..300 {
            lab.step();
        }
        lab.seek(0);
        lab.apply(Input::SetLimit(Limit::Until(1.0))).unwrap();
        for _ in 0..300 {
            lab.step_forward();
        }
        assert_eq!(lab.step_index(), whole.0, "through the recording");
    }
}
