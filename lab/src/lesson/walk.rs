//! A lesson walked step by step, as the app's lesson panel walks it: the student's
//! answers kept, each run's end, and each readout measured when it is reached. The
//! headless runner ([`super::run`]) walks the same way, so the app and `gyrolab lesson`
//! measure the same thing.

use super::measure::{Measured, measure};
use super::read::MAX_STEPS;
use super::schema::{Card, Event, Lesson, Setting};
use super::tolerance::Tolerance;
use crate::integrators::Integrator;
use crate::lab::Input;
use crate::lab::{Lab, Limit};

#[derive(Clone, Debug)]
pub struct Walk {
    pub lesson: Lesson,
    /// The step shown.
    pub at: usize,
    /// The student's answer to each question, by step.
    pub answers: Vec<Option<usize>>,
    /// Each readout's measurement, by step, once reached.
    pub measured: Vec<Option<Measured>>,
    /// The furthest step reached: a question behind it keeps its answer.
    furthest: usize,
    /// When each run to an event saw it, by step, once the run is left behind: the
    /// timeline marks it.
    pub events: Vec<Option<(f64, Event)>>,
}

impl Walk {
    /// Opens the lesson's scene in `lab`, set up as the lesson says, at its first step.
    pub fn start(lesson: Lesson, lab: &mut Lab) -> Result<Self, String> {
        lab.open(&lesson.scene)?;
        Self::start_on(lesson, lab)
    }

    /// Sets up `lab`, already holding the lesson's scene, as the lesson says, at its
    /// first step.
    pub fn start_on(lesson: Lesson, lab: &mut Lab) -> Result<Self, String> {
        if let Some(dt) = lesson.dt {
            lab.apply(Input::SetDt(dt))?;
        }
        match &lesson.integrators {
            Some(names) => compare(lab, names)?,
            // Without the field a lesson runs the scene's own integrator alone, as its
            // file says: the app's four lanes would put explicit Euler first, and a
            // readout of the first lane would measure it.
            None if lab.side_by_side() => {
                let own = lab.scene().integrator.clone();
                compare(lab, std::slice::from_ref(&own))?;
            }
            None => {}
        }
        for set in &lesson.set {
            apply(lab, set)?;
        }
        let n = lesson.steps.len();
        let mut walk = Self {
            lesson,
            at: 0,
            answers: vec![None; n],
            measured: vec![None; n],
            furthest: 0,
            events: vec![None; n],
        };
        walk.arrive(lab)?;
        walk.hold(lab);
        Ok(walk)
    }

    pub fn card(&self) -> Option<&Card> {
        self.lesson.steps.get(self.at)
    }

    /// Whether the lesson hides a control from the panel.
    pub fn hides(&self, control: &str) -> bool {
        self.lesson.hidden.iter().any(|c| c == control)
    }

    /// Why a control is locked, if the lesson locks it.
    pub fn locked(&self, control: &str) -> Option<&str> {
        (self.lesson.locked.iter())
            .find(|(c, _)| c == control)
            .map(|(_, why)| why.as_str())
    }

    /// How far the lab may step at the step shown: not at all before a question ahead is
    /// answered (the student predicts before the run is seen) or a readout ahead is
    /// taken, else to the end of the run ahead, at its `until` or once its event came. A
    /// "now try" ahead starts the run again, so nothing before it binds.
    pub fn limit(&self, lab: &Lab) -> Limit {
        for (k, step) in self.lesson.steps.iter().enumerate().skip(self.at) {
            match step {
                Card::Question { .. } if self.answers[k].is_none() => return Limit::Still,
                Card::Readout { .. } if self.measured[k].is_none() => return Limit::Still,
                Card::Run { event: Some(e), .. } if e.time(lab).is_some() => return Limit::Still,
                &Card::Run { until, .. } => return Limit::Until(until),
                Card::Try { .. } if k > self.at => return Limit::Free,
                _ => {}
            }
        }
        Limit::Free
    }

    /// Sets the lab's limit to the step shown's: every way of stepping the lab obeys it.
    /// Called after each change of the walk and each step of the lab.
    pub fn hold(&self, lab: &mut Lab) {
        let _ = lab.apply(Input::SetLimit(self.limit(lab)));
    }

    /// Whether the student may go on: a question must be answered first, and a run
    /// reach its end.
    pub fn can_go_on(&self, lab: &Lab) -> bool {
        match self.card() {
            Some(Card::Question { .. }) => self.answers[self.at].is_some(),
            Some(Card::Run { until, event }) => self.ended(lab, *until, event.as_ref()),
            Some(_) => true,
            None => false,
        }
    }

    /// Whether the lab's run has reached `until`: its next step would end after it.
    pub fn ran_to(&self, lab: &Lab, until: f64) -> bool {
        !lab.allows(Limit::Until(until))
    }

    /// Whether a run to `until`, or to `event` if it comes sooner, is over.
    pub fn ended(&self, lab: &Lab, until: f64, event: Option<&Event>) -> bool {
        self.ran_to(lab, until) || event.is_some_and(|e| e.time(lab).is_some())
    }

    /// The next step: a readout reached is measured, a "now try" applied, when first
    /// reached.
    pub fn next(&mut self, lab: &mut Lab) -> Result<(), String> {
        if self.at + 1 < self.lesson.steps.len() && self.can_go_on(lab) {
            self.leave(lab);
            self.at += 1;
            self.arrive(lab)?;
        }
        self.hold(lab);
        Ok(())
    }

    /// Walks on to step `target` (or the last): each run before it taken to its end,
    /// readouts measured on the way, each question given its answer in `answers` (by
    /// step) or left unanswered. Refused when the runs would take more than a lesson's
    /// steps at the lab's step (a set-up may have made it smaller), or when a run stops.
    pub fn go_to(
        &mut self,
        lab: &mut Lab,
        target: usize,
        answers: &[Option<usize>],
    ) -> Result<(), String> {
        let target = target.min(self.lesson.steps.len().saturating_sub(1));
        // Each "now try" starts the run again: the runs' ends, take by take.
        let steps = &self.lesson.steps;
        let until: f64 = (self.lesson.takes())
            .filter_map(|p| Lesson::run_length(&steps[p.start.min(target)..p.end.min(target)]))
            .sum();
        if until / lab.h() > MAX_STEPS {
            return Err(format!(
                "reaching step {} runs to {until} s, more than {MAX_STEPS} steps at h = {} s",
                target + 1,
                lab.h()
            ));
        }
        while self.at < target {
            if let Some(Card::Run { until, event }) = self.card() {
                self.run_out(lab, *until, event.as_ref())?;
            }
            self.answer_from(answers);
            self.leave(lab);
            self.at += 1;
            self.arrive(lab)?;
        }
        self.answer_from(answers);
        self.hold(lab);
        Ok(())
    }

    /// Answers the question shown with its answer in `answers` (by step), if any.
    fn answer_from(&mut self, answers: &[Option<usize>]) {
        if let Some(&Some(choice)) = answers.get(self.at) {
            self.answer(choice);
        }
    }

    /// Leaving the step shown: a run to an event keeps when the event came.
    fn leave(&mut self, lab: &Lab) {
        if let Some(Card::Run {
            event: Some(event), ..
        }) = self.card()
        {
            let event = event.clone();
            self.events[self.at] = event.time(lab).map(|t| (t, event));
        }
    }

    /// Steps `lab` until it has run to `until`, or to `event` if it comes sooner, as far
    /// as the step shown's limit lets it; the error of a first lane whose step failed,
    /// which would never get there.
    pub fn run_out(&self, lab: &mut Lab, until: f64, event: Option<&Event>) -> Result<(), String> {
        self.run_out_watched(lab, until, event, &mut |_| {})
    }

    /// [`Walk::run_out`], showing `watch` the lab after each of its steps (a web page
    /// records the run's frames so).
    pub fn run_out_watched(
        &self,
        lab: &mut Lab,
        until: f64,
        event: Option<&Event>,
        watch: &mut dyn FnMut(&Lab),
    ) -> Result<(), String> {
        self.hold(lab);
        while !self.ended(lab, until, event) {
            if let Some(e) = &lab.lanes()[0].error() {
                return Err(format!("the run stopped at t = {:.4} s: {e}", lab.time()));
            }
            if !lab.step() {
                break;
            }
            watch(lab);
            self.hold(lab);
        }
        Ok(())
    }

    pub fn back(&mut self) {
        self.at = self.at.saturating_sub(1);
    }

    /// The student's choice, while the lesson has not gone past the question (a
    /// prediction is made before the result is seen).
    pub fn answer(&mut self, choice: usize) {
        if let Some(Card::Question { choices, .. }) = self.card()
            && choice < choices.len()
            && self.at == self.furthest
        {
            self.answers[self.at] = Some(choice);
        }
    }

    /// Measures the readout shown again, on the lab as it stands now: after the student
    /// changed what the lesson leaves unlocked and ran its run again, the readout shows
    /// what that run measures beside what the lesson states. Nothing at another step.
    pub fn measure_again(&mut self, lab: &mut Lab) -> Result<(), String> {
        if matches!(self.card(), Some(Card::Readout { .. })) {
            self.measured[self.at] = None;
            self.arrive(lab)?;
            self.hold(lab);
        }
        Ok(())
    }

    /// Measures the step arrived at, if it is a readout not yet measured.
    fn arrive(&mut self, lab: &mut Lab) -> Result<(), String> {
        // A step reached again (after going back) is as it was left.
        let first = self.at > self.furthest || self.at == 0;
        self.furthest = self.furthest.max(self.at);
        if let Some(Card::Try { set, .. }) = self.card()
            && first
        {
            let set = set.clone();
            lab.apply(Input::Restart)?;
            apply(lab, &set)?;
        }
        if let Some(Card::Readout {
            quantity,
            stated,
            tolerance,
            measured: stated_measured,
            ..
        }) = self.card()
            && self.measured[self.at].is_none()
        {
            let (name, unit) = (quantity.name(), quantity.unit().trim());
            let tolerance = Tolerance::read(tolerance, *stated, name, unit)?;
            let (measured, theory) = measure(quantity, lab);
            self.measured[self.at] = Some(Measured {
                step: self.at,
                time: lab.time(),
                quantity: quantity.clone(),
                measured,
                theory,
                stated: *stated,
                tolerance,
                stated_measured: *stated_measured,
            });
        }
        Ok(())
    }
}

/// A "now try" step's setting, on a lab started again.
fn apply(lab: &mut Lab, set: &Setting) -> Result<(), String> {
    match set {
        Setting::Dt(dt) => lab.apply(Input::SetDt(*dt)),
        Setting::Integrators(names) => compare(lab, names),
        Setting::Friction(f) => lab.apply(Input::SetFriction(*f)),
        Setting::Spin(spin) => {
            let mut start = lab.start().clone();
            start.spin = *spin;
            lab.apply(Input::SetStart(start))
        }
        Setting::Solver(settings) => lab.apply(Input::SetSolverSettings(*settings)),
    }
}

/// Runs exactly `names` side by side (a single-body scene), or the first of them.
fn compare(lab: &mut Lab, names: &[String]) -> Result<(), String> {
    let wanted: Vec<Integrator> = (names.iter())
        .map(|n| n.parse::<Integrator>().map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    if !lab.side_by_side() {
        return wanted
            .first()
            .map_or(Ok(()), |&i| lab.apply(Input::SwitchIntegrator(i)));
    }
    lab.apply(Input::SetCompared(wanted.to_vec()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::Scene;

    /// The student cannot skip ahead: a question needs an answer (one of its choices), a
    /// run its end; going back keeps the answer and the measurement.
    #[test]
    fn a_question_must_be_answered_and_a_run_finished_before_going_on() {
        let lesson = crate::lesson::load("restitution").unwrap();
        let mut lab = Lab::new(Scene::load("free-body").unwrap());
        let mut walk = Walk::start(lesson, &mut lab).unwrap();
        assert_eq!(lab.scene().name, "bounce");
        walk.next(&mut lab).unwrap();
        assert_eq!(walk.at, 0, "unanswered");
        walk.answer(9);
        assert_eq!(walk.answers[0], None, "not a choice");
        walk.answer(0);
        walk.next(&mut lab).unwrap();
        assert_eq!(walk.at, 1);
        walk.next(&mut lab).unwrap();
        assert_eq!(walk.at, 1, "the run has not reached its end");
        walk.run_out(&mut lab, 2.0, None).unwrap();
        walk.next(&mut lab).unwrap();
        assert_eq!(walk.at, 2);
        assert!(walk.measured[2].as_ref().is_some_and(|m| m.agrees()));
        walk.back();
        walk.back();
        assert_eq!((walk.at, walk.answers[0]), (0, Some(0)));
        walk.answer(1);
        assert_eq!(
            walk.answers[0],
            Some(0),
            "a prediction is kept once the result is seen"
        );
        assert!(walk.measured[2].is_some());
    }
}
