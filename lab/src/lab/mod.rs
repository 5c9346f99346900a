//! What the app shows, without Bevy: a scene run by one integrator per lane from identical
//! start conditions (single-body scenes, with the exact solution as a ghost), or by one
//! integrator switched live (scenes of several bodies); the time step and the integrator
//! steps per time step; the plot series and the recording for CSV export. The app's
//! systems only call into it.
//!
//! `Lab` composes parts, each a type of its own: the lanes with the ghost
//! and the grab ([`lanes`]), the clock (`clock.rs`), the input log inside the timeline
//! ([`input_log`], [`timeline`]), the recording of every series ([`recorders`]) and the
//! readouts ([`dock`]). Its methods delegate to them; every change to a run is an input,
//! applied and logged here.

use glam::DVec3;

mod clock;
pub mod convergence_map;
pub mod diagnosis;
pub mod dock;
pub mod dock_series;
pub mod drawing;
pub mod energy_map;
pub mod export;
pub mod fingerprint;
pub mod input;
pub mod input_log;
pub mod lane;
pub mod lanes;
pub mod layout;
mod limit;
pub mod mechanism;
pub mod metrics;
pub mod moment;
pub mod presets;
pub mod recorders;
pub mod records;
mod seek;
pub mod series;
pub mod snapshot;
pub mod stage_time;
pub mod sweep;
pub mod timeline;
pub mod web_plots;

use crate::body::inertia::Shape;
use crate::integrators::Integrator;
use crate::joints::Motor;
use crate::scene::Scene;
use crate::world::grab::Grab;
use crate::world::{Stage, World};
use clock::Clock;
pub use clock::MAX_STEPS_PER_DT;
use dock::Dock;
pub use input::Input;
use input::Logged;
use lane::Lane;
use lanes::Lanes;
pub use limit::Limit;
use moment::Moment;
use presets::Start;
use recorders::Recorders;
use snapshot::LabState;
use stage_time::{Now, StageTimes};
use timeline::Timeline;

/// Compared by default: wrong motion, no flip, drift, and the method that gets it right.
pub const DEFAULT_COMPARED: [Integrator; 4] = [
    Integrator::ExplicitEulerWorld,
    Integrator::NoGyro,
    Integrator::MomentumClamp,
    Integrator::Midpoint,
];

#[derive(Clone, Debug)]
pub struct Lab {
    scene: Scene,
    start: Start,
    /// Integrators run side by side, in [`Integrator::ALL`] order (single-body scenes).
    compared: Vec<Integrator>,
    /// One physics step of `dt` (the app's fixed step is `h`, an integrator step, while
    /// live, and `dt` under a replay) as `steps_per_dt` integrator steps, and the step
    /// shown.
    clock: Clock,
    /// The lanes, the exact ghost, the grab and a plugin's loads.
    lanes: Lanes,
    /// Every series recorded of the run: plots, trails, export and the dock's.
    recorders: Recorders,
    /// What the dock under the view shows for this kind of scene, and its meters.
    dock: Dock,
    /// The recorded history, to scrub, step back and replay, and the input log.
    timeline: Timeline,
    /// Wall time of each stage of the step.
    stage_times: StageTimes,
    /// Bumped whenever lanes or bodies are rebuilt, so views respawn what they draw.
    generation: u64,
    /// Bumped when another scene is loaded, so the camera reframes.
    scene_generation: u64,
    mode: Mode,
    /// The fingerprint of the last step taken.
    last_fingerprint: u64,
    /// How far the lab may step forward (a lesson's hold).
    limit: Limit,
    /// The live integrator step under way was refused by the limit: its stages and end
    /// do nothing.
    refused: bool,
}

/// Whether steps taken are recorded or simulated again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Steps go into the plots, the export and the timeline; inputs are logged.
    Live,
    /// Steps recorded earlier are simulated again from a keyframe and checked.
    Again,
}

impl Lab {
    pub fn new(scene: Scene) -> Self {
        Self::build(scene, DEFAULT_COMPARED.to_vec(), 0, 0)
    }

    /// Replaces the scene: its own time step and start conditions; the compared set stays.
    pub fn load_scene(&mut self, scene: Scene) {
        let compared = std::mem::take(&mut self.compared);
        let built = Self::build(scene, compared, self.generation, self.scene_generation + 1);
        self.become_lab(built);
    }

    /// Times each stage of the step with the caller's clock (the status line's and the
    /// dock's stage times); without one they read zero. Kept when another scene, moment
    /// or set-up is opened.
    pub fn time_stages_with(&mut self, now: Now) {
        self.stage_times = StageTimes::with_clock(now);
    }

    /// Becomes `other`, keeping the caller's stopwatch: the one place a lab is replaced
    /// whole.
    fn become_lab(&mut self, other: Lab) {
        let now = self.stage_times.clock();
        *self = other;
        if let Some(now) = now {
            self.time_stages_with(now);
        }
    }

    /// Becomes `other` (a lab set up elsewhere, as a set-up code is opened), counted as a
    /// new scene and a new run, so that what draws the old one knows to start again.
    pub fn replace_with(&mut self, other: Lab) {
        let (generation, scene_generation) = (self.generation, self.scene_generation);
        self.become_lab(other);
        self.generation += generation + 1;
        self.scene_generation = scene_generation + 1;
    }

    /// Opens a scene by name or `.ron` path. A scene that does not load changes nothing:
    /// the running one goes on, and the error says why, at the file's line and field.
    pub fn open(&mut self, name_or_path: &str) -> Result<(), String> {
        let scene = Scene::load(name_or_path).map_err(|e| e.to_string())?;
        self.load_scene(scene);
        Ok(())
    }

    fn build(
        scene: Scene,
        compared: Vec<Integrator>,
        generation: u64,
        scene_generation: u64,
    ) -> Self {
        let mut lab = Self {
            start: Start::of_scene(&scene),
            clock: Clock::new(scene.dt),
            compared,
            lanes: Lanes::default(),
            recorders: Recorders::default(),
            generation,
            scene_generation,
            dock: Dock::default(),
            stage_times: StageTimes::default(),
            timeline: Timeline::default(),
            mode: Mode::Live,
            last_fingerprint: 0,
            limit: Limit::Free,
            refused: false,
            scene,
        };
        lab.restart()
            .expect("a parsed scene's own start conditions are valid");
        lab
    }

    /// Loads a moment saved from any scene: the lab takes its scene and goes on from it,
    /// with a new recording. Refused with one line, the lab unchanged.
    pub fn load_moment(&mut self, path: &std::path::Path) -> Result<(), String> {
        let (scene, moment) = Moment::read(path, None)?;
        let new_scene =
            scene.source_hash != self.scene.source_hash || scene.name != self.scene.name;
        let generation = self.generation + 1;
        let scene_generation = self.scene_generation + u64::from(new_scene);
        self.become_lab(Lab::from_moment(
            scene,
            moment,
            generation,
            scene_generation,
        ));
        Ok(())
    }

    /// A lab that goes on from `moment` of `scene`, its recording starting there.
    pub fn from_moment(
        scene: Scene,
        moment: Moment,
        generation: u64,
        scene_generation: u64,
    ) -> Lab {
        let mut lab = Lab::build(scene, moment.compared, generation, scene_generation);
        lab.start = moment.start;
        lab.restore_state(&moment.state);
        lab.recorders =
            Recorders::new(&lab.scene, lab.lanes.lanes()).with_switches(moment.switches);
        lab.timeline.clear();
        lab.record();
        lab
    }

    /// Single-body scenes compare integrators side by side against the exact ghost.
    pub fn side_by_side(&self) -> bool {
        self.scene.bodies.len() == 1 && self.scene.frames.is_empty()
    }

    /// Starts again from the start conditions. Impossible conditions are refused with the
    /// reason and the current run goes on.
    fn restart(&mut self) -> Result<(), String> {
        let world = self.start.apply(&self.scene)?;
        let lanes = if self.side_by_side() {
            Lanes::compared(world, &self.compared)
        } else {
            let integrator =
                (self.lanes.lanes().first()).map_or(world.integrator(), Lane::integrator);
            Lanes::single(world, integrator)
        };
        self.lanes = lanes;
        self.recorders = Recorders::new(&self.scene, self.lanes.lanes());
        self.clock.restart();
        self.timeline.clear();
        self.mode = Mode::Live;
        self.dock = Dock::new(&self.scene, self.lanes.first());
        self.generation += 1;
        self.record();
        Ok(())
    }

    /// `compared` with `integrator` turned on or off, in [`Integrator::ALL`] order.
    fn compared_with(&self, integrator: Integrator, on: bool) -> Vec<Integrator> {
        (Integrator::ALL.into_iter())
            .filter(|&i| {
                if i == integrator {
                    on
                } else {
                    self.compared.contains(&i)
                }
            })
            .collect()
    }

    /// Compares exactly `list` side by side and restarts.
    fn set_compared(&mut self, list: &[Integrator]) -> Result<(), String> {
        if list.contains(&Integrator::Analytic) {
            return Err("the exact solution is always shown, as the ghost".into());
        }
        let mut compared: Vec<Integrator> = (Integrator::ALL.into_iter())
            .filter(|i| list.contains(i))
            .collect();
        if compared.is_empty() {
            return Err("compare at least one integrator".into());
        }
        std::mem::swap(&mut self.compared, &mut compared);
        self.restart().inspect_err(|_| self.compared = compared)
    }

    /// Changes the lab: the one way anything a user, a lesson or a plugin does reaches a
    /// run (see [`Input`]). A change refused is not made, and the reason is given (a
    /// refused [`Input::SetStart`] keeps its conditions as the ones being edited; an
    /// input at the head first applies the logged inputs due there). An input that
    /// changes the run under way is logged where it was applied: at the head after the
    /// logged inputs due there, or, away from the head, as an edit a branch keeps.
    pub fn apply(&mut self, input: Input) -> Result<(), String> {
        if !input.is_logged() {
            return self.effect(input);
        }
        let input = self.resolved(input)?;
        let past = self.in_past();
        if !past {
            self.catch_up();
        }
        self.effect(input.clone())?;
        let (step, sub) = self.clock.at();
        let logged = Logged { step, sub, input };
        let log = self.timeline.log_mut();
        if past {
            log.edit(logged);
        } else {
            log.push(logged);
        }
        Ok(())
    }

    /// The input as logged: checked where its effect cannot check it (against the scene
    /// files' ranges, so a page's or a plugin's input is held to what a scene file is),
    /// and a spawn's position worked out, so that simulating again puts the body where it
    /// went.
    fn resolved(&self, input: Input) -> Result<Input, String> {
        use crate::scene::ranges::{POSITION, VELOCITY};
        let text = |e: crate::scene::Invalid| e.to_string();
        match input {
            Input::AddLoad { lane, body, load } => {
                self.lanes.check_load(lane, body, &load)?;
                Ok(input)
            }
            Input::Hold { grab, .. } => {
                POSITION
                    .check_each("grab.target", grab.target)
                    .map_err(text)?;
                POSITION
                    .check_each("grab.local", grab.local)
                    .map_err(text)?;
                Ok(input)
            }
            Input::DragTo(target) => {
                POSITION.check_each("target", target).map_err(text)?;
                Ok(input)
            }
            Input::Spawn {
                shape,
                velocity,
                position,
            } => {
                crate::scene::check_shape(&shape).map_err(text)?;
                VELOCITY.check_each("velocity", velocity).map_err(text)?;
                let position = position.unwrap_or_else(|| self.lanes.spawn_point(velocity));
                POSITION.check_each("position", position).map_err(text)?;
                Ok(Input::Spawn {
                    shape,
                    velocity,
                    position: Some(position),
                })
            }
            _ => Ok(input),
        }
    }

    /// Applies the logged inputs due at the moment shown that it has not had yet: after
    /// a keyframe is restored, everything a seek or a replay changes reaches the run
    /// through here.
    fn catch_up(&mut self) {
        while let Some(input) = self.timeline.log_mut().next_due(self.clock.at()) {
            // Applied once already, so valid again.
            let _ = self.effect(input);
        }
    }

    /// What an input does; simulating again applies logged inputs through it.
    fn effect(&mut self, input: Input) -> Result<(), String> {
        match input {
            Input::SwitchIntegrator(i) => self.apply_switch(i),
            Input::SetDt(dt) => self.clock.set_dt(dt),
            Input::SetStepsPerDt(steps) => self.clock.set_steps_per_dt(steps),
            Input::Spawn {
                shape,
                velocity,
                position,
            } => self.apply_spawn(shape, position, velocity),
            Input::Compare { integrator, on } => {
                if integrator == Integrator::Analytic {
                    return Err("the exact solution is always shown, as the ghost".into());
                }
                self.set_compared(&self.compared_with(integrator, on))
            }
            Input::SetCompared(list) => self.set_compared(&list),
            Input::SetStart(start) => {
                self.start = start;
                self.restart()
            }
            Input::Restart => self.restart(),
            Input::SetLimit(limit) => {
                self.limit = limit;
                Ok(())
            }
            run_input => self.lanes.apply(&run_input),
        }
    }

    fn apply_switch(&mut self, integrator: Integrator) -> Result<(), String> {
        if self.side_by_side() {
            return Err("this scene compares integrators side by side".into());
        }
        // The plots mark the switch once, when it is first recorded.
        if self.lanes.switch(integrator)? && self.mode == Mode::Live {
            self.recorders.switched(self.time(), integrator);
        }
        Ok(())
    }

    /// One physics step, s.
    pub fn dt(&self) -> f64 {
        self.clock.dt()
    }

    /// The length of one integrator step.
    pub fn h(&self) -> f64 {
        self.clock.h()
    }

    /// One physics step of every lane and the ghost, where the limit allows it: whether
    /// it was taken. A lane whose step fails stops and keeps its error for the panel; the
    /// others go on. Taken from a moment scrubbed back to, it branches: the old future is
    /// discarded.
    pub fn step(&mut self) -> bool {
        for _ in 0..self.clock.steps_per_dt() {
            self.begin_integrator_step();
            for stage in Stage::ALL {
                self.run_stage(stage);
            }
            self.end_integrator_step();
        }
        !self.refused
    }

    /// Before one integrator step of every lane and the ghost: the mouse spring's pull.
    /// The app's first physics system. Where the limit refuses the step, the step's
    /// stages and end do nothing. From a moment scrubbed back to, it first branches (see
    /// [`Lab::branch`]).
    pub fn begin_integrator_step(&mut self) {
        if !self.may_step() {
            self.refused = true;
            return;
        }
        if self.in_past() {
            self.branch();
        }
        self.begin_tick();
    }

    /// [`Lab::begin_integrator_step`] without the limit and the branch: simulating again
    /// calls it. The logged inputs due now are applied first.
    fn begin_tick(&mut self) {
        self.refused = false;
        self.catch_up();
        self.lanes.begin_step(self.clock.h());
    }

    /// One stage of the step of every lane and the ghost; a lane whose stage fails stops
    /// and keeps its error for the panel, the others go on. The app runs each stage as a
    /// system of its own.
    pub fn run_stage(&mut self, stage: Stage) {
        if self.refused {
            return;
        }
        let (h, lanes) = (self.clock.h(), &mut self.lanes);
        self.stage_times.time(stage, || lanes.run_stage(stage, h));
    }

    /// After one integrator step: the lanes' measurements, and after the last of a
    /// physics step's `steps_per_dt`, the plots, trails and recording.
    pub fn end_integrator_step(&mut self) {
        if self.refused {
            return;
        }
        self.lanes.end_step();
        self.stage_times.end_step();
        if self.clock.tick() {
            self.record();
        }
    }

    /// One integrator step, without the branch [`Lab::begin_integrator_step`] makes.
    fn tick(&mut self) {
        self.begin_tick();
        for stage in Stage::ALL {
            self.run_stage(stage);
        }
        self.end_integrator_step();
    }

    /// Takes physics steps up to `target`, simulating the recording again (checked
    /// against its fingerprints) or, with `live`, recording them anew; the inputs
    /// logged on the way are applied at the integrator steps they were applied at. The
    /// first step that did not match.
    fn again_to(&mut self, target: u64, live: bool) -> Option<u64> {
        let mode = if live { Mode::Live } else { Mode::Again };
        let mode = std::mem::replace(&mut self.mode, mode);
        let mut bad = None;
        while self.clock.step() < target {
            let step = self.clock.step();
            self.tick();
            let now = self.clock.step();
            if !live
                && now != step
                && self.timeline.fingerprint_of(now) != Some(self.last_fingerprint)
            {
                bad = bad.or(Some(now));
            }
        }
        self.mode = mode;
        bad
    }

    /// Restores the keyframe at or before recorded step `step`; the inputs logged from
    /// it on are due again. The keyframe's step.
    fn restore_keyframe(&mut self, step: u64) -> u64 {
        let timeline = std::mem::take(&mut self.timeline);
        let key = timeline
            .keyframe_before(step)
            .expect("the first recorded step has a keyframe");
        self.restore_state(key);
        self.timeline = timeline;
        let at = self.clock.step();
        self.timeline.log_mut().rewind_to(at);
        at
    }

    /// Takes the state of `from`, keeping the lanes' per-step buffers where the lanes
    /// match. Views respawn what they draw when a lane's body count changes.
    pub(crate) fn restore_state(&mut self, from: &LabState) {
        if self
            .lanes
            .restore(&from.lanes, from.ghost.as_ref(), from.grab)
        {
            self.generation += 1;
        }
        self.clock = Clock::of_state(from);
        self.dock.restore(from.circling);
    }

    /// Discards the recording after step `cut`: the timeline's and every recorded
    /// series'.
    fn cut_after(&mut self, cut: u64) {
        let gone = self.timeline.head().saturating_sub(cut);
        let gone = usize::try_from(gone).unwrap_or(usize::MAX);
        self.recorders
            .truncate_after(self.timeline.time_of(cut), gone);
        self.timeline.truncate_after(cut);
    }

    /// After a physics step (or at the start): the circling readout and the step's
    /// fingerprint; live, every recorded series and the timeline too.
    fn record(&mut self) {
        self.dock.measure(self.lanes.first());
        if self.mode == Mode::Again || self.timeline.enabled() {
            self.last_fingerprint = fingerprint::fingerprint(self.lanes.all().map(|r| r.world()));
        }
        if self.mode == Mode::Again {
            return;
        }
        if self.timeline.enabled() {
            let step = self.clock.step();
            let keyframe = self.timeline.wants_keyframe(step).then(|| self.snapshot());
            let time = self.time();
            self.timeline
                .push(step, time, self.last_fingerprint, keyframe);
        }
        let (runs, ghost) = (self.lanes.lanes(), self.lanes.ghost());
        self.recorders
            .record(runs, ghost, &self.dock, &self.stage_times.smoothed);
    }

    pub fn time(&self) -> f64 {
        self.lanes.first().time()
    }

    /// Bodies stepped per physics step, the ghost included.
    pub fn bodies(&self) -> usize {
        self.lanes.all().map(|r| r.world().bodies().len()).sum()
    }

    /// The first body's principal moments and its `h·L` in body axes: the midpoint
    /// integrator's Newton problem, the point the convergence map marks.
    pub fn newton_point(&self) -> (DVec3, DVec3) {
        let body = &self.lanes.first().bodies()[0];
        (
            body.props.inertia.principal(),
            self.h() * body.state.body_momentum(),
        )
    }

    /// The motors of the scene's hinges (the first lane's, every lane has the same), by
    /// joint index.
    pub fn motors(&self) -> Vec<(usize, Motor)> {
        self.lanes.motors()
    }

    /// The friction of the first lane's first body that has parts: the value the Solver
    /// panel's friction slider starts from.
    pub fn friction(&self) -> Option<f64> {
        self.lanes.friction()
    }

    fn apply_spawn(
        &mut self,
        shape: Shape,
        position: Option<DVec3>,
        velocity: DVec3,
    ) -> Result<(), String> {
        let position = position.unwrap_or_else(|| self.lanes.spawn_point(velocity));
        self.lanes.spawn(shape, position, velocity)?;
        // Simulated again, a lane keeps the trail it had.
        for (lane, bodies) in self.lanes.body_counts().into_iter().enumerate() {
            self.recorders.add_trail(lane, bodies);
        }
        self.generation += 1;
        Ok(())
    }

    /// The start conditions the run starts from (edited with [`Input::SetStart`]).
    pub fn start(&self) -> &Start {
        &self.start
    }

    /// Integrator steps per physics step (set with [`Input::SetStepsPerDt`]).
    pub fn steps_per_dt(&self) -> u32 {
        self.clock.steps_per_dt()
    }

    /// The integrators run side by side (set with [`Input::Compare`] and [`Input::SetCompared`]).
    pub fn compared(&self) -> &[Integrator] {
        &self.compared
    }

    /// The body held with the mouse: its lane and the pull (set by
    /// [`Input::Hold`], [`Input::DragTo`] and [`Input::Release`]).
    pub fn grab(&self) -> Option<(usize, Grab)> {
        self.lanes.grab()
    }

    /// The scene the lab runs.
    pub fn scene(&self) -> &Scene {
        &self.scene
    }

    /// The scene's readouts (their series are in [`Lab::recorders`]).
    pub fn dock(&self) -> &Dock {
        &self.dock
    }

    /// Wall time of each stage of the step.
    pub fn stage_times(&self) -> &StageTimes {
        &self.stage_times
    }

    /// Bumped whenever lanes or bodies are rebuilt, so views respawn what they draw.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Bumped when another scene is loaded, so the camera reframes.
    pub fn scene_generation(&self) -> u64 {
        self.scene_generation
    }

    /// The runs side by side (one for scenes of several bodies), changed only through
    /// [`Lab::apply`].
    pub fn lanes(&self) -> &[Lane] {
        self.lanes.lanes()
    }

    /// The first lane's world: what the panels and the readouts read.
    pub fn world(&self) -> &World {
        self.lanes.first()
    }

    /// The exact solution drawn over every lane, when it exists.
    pub fn ghost(&self) -> Option<&Lane> {
        self.lanes.ghost()
    }

    /// Every series recorded of the run: the plots, trails, export and the dock's.
    pub fn recorders(&self) -> &Recorders {
        &self.recorders
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::presets::InertiaPreset;

    /// The recording as the command line writes it, enough for these tests: the header,
    /// then a line a record (the names here need no quoting).
    fn csv(lab: &Lab) -> String {
        let mut out = format!("{}\n", records::CSV_HEADER);
        let worlds = lab.lanes().iter().map(Lane::world);
        lab.recorders().export().for_each_record(worlds, |r| {
            let values: Vec<String> = r.values.iter().map(f64::to_string).collect();
            out += &format!("{},{},{},{}\n", r.t, r.body, r.integrator, values.join(","));
        });
        out
    }

    fn lab(name: &str) -> Lab {
        Lab::new(Scene::load(name).unwrap())
    }

    #[test]
    fn single_body_scenes_run_the_compared_integrators_over_the_ghost() {
        let lab = lab("dzhanibekov");
        let lanes: Vec<_> = lab.lanes().iter().map(Lane::integrator).collect();
        assert_eq!(lanes, DEFAULT_COMPARED);
        assert_eq!(lab.ghost().unwrap().integrator(), Integrator::Analytic);
        let start = lab.world().bodies()[0].state;
        assert!(
            lab.lanes()
                .iter()
                .all(|r| r.world().bodies()[0].state == start)
        );
    }

    #[test]
    fn switching_the_integrator_mid_run_keeps_the_motion() {
        let mut lab = lab("tumbling-crowd");
        assert!(!lab.side_by_side());
        for _ in 0..50 {
            lab.step();
        }
        let before: Vec<_> = lab.world().bodies().iter().map(|b| b.state).collect();
        let t = lab.time();
        lab.apply(Input::SwitchIntegrator(Integrator::ExplicitEulerWorld))
            .unwrap();
        assert_eq!(lab.time(), t, "no restart");
        lab.step();
        assert_eq!(lab.lanes()[0].integrator(), Integrator::ExplicitEulerWorld);
        assert_eq!(
            lab.recorders().switches(),
            vec![(t, Integrator::ExplicitEulerWorld)]
        );
        // One more step moves every body by about one step of its own velocity.
        for (b, s0) in lab.world().bodies().iter().zip(&before) {
            let moved = s0.orientation.inverse() * b.state.orientation;
            let omega = s0.body_omega(&b.props).length();
            assert!(
                (moved.to_scaled_axis().length() - omega * lab.dt()).abs()
                    < 0.05 * omega * lab.dt()
            );
        }
        assert!(
            lab.apply(Input::SwitchIntegrator(Integrator::Analytic))
                .is_err()
        );
    }

    #[test]
    fn steps_per_dt_are_steps_of_dt_over_n() {
        let mut four = lab("dzhanibekov");
        four.apply(Input::SetStepsPerDt(4)).unwrap();
        let mut fine = lab("dzhanibekov");
        fine.apply(Input::SetDt(four.dt() / 4.0)).unwrap();
        for _ in 0..100 {
            four.step();
            for _ in 0..4 {
                fine.step();
            }
        }
        for (a, b) in four.lanes().iter().zip(fine.lanes()) {
            assert_eq!(a.world().bodies()[0].state, b.world().bodies()[0].state);
        }
        assert!((four.time() - 100.0 * four.dt()).abs() < 1e-12);
        assert!(
            four.apply(Input::SetStepsPerDt(0)).is_err()
                && four
                    .apply(Input::SetStepsPerDt(MAX_STEPS_PER_DT + 1))
                    .is_err()
        );
    }

    #[test]
    fn impossible_settings_are_refused_and_the_run_goes_on() {
        let mut lab = lab("dzhanibekov");
        lab.step();
        let (t, generation) = (lab.time(), lab.generation);
        lab.start.preset = InertiaPreset::Custom;
        lab.start.custom = DVec3::new(1.0, 1.0, 5.0);
        assert!(
            lab.apply(Input::Restart)
                .unwrap_err()
                .contains("triangle inequality")
        );
        assert_eq!((lab.time(), lab.generation), (t, generation));
        assert!(
            lab.apply(Input::SetDt(f64::NAN)).is_err() && lab.apply(Input::SetDt(10.0)).is_err()
        );
        assert!(
            lab.apply(Input::Compare {
                integrator: Integrator::Analytic,
                on: true
            })
            .is_err()
        );
        lab.start.preset = InertiaPreset::Scene;
        for i in DEFAULT_COMPARED {
            let _ = lab.apply(Input::Compare {
                integrator: i,
                on: false,
            });
        }
        assert_eq!(lab.compared.len(), 1, "the last one stays");
    }

    #[test]
    fn the_plots_and_the_export_follow_the_run() {
        let mut lab = lab("free-body");
        for _ in 0..30 {
            lab.step();
        }
        assert_eq!(lab.recorders().series()[0].samples.len(), 31);
        assert_eq!(lab.recorders().ghost_series().samples.len(), 31);
        // The plots show each lane's own drift, and it is not all zero.
        for (series, run) in lab.recorders().series().iter().zip(lab.lanes()) {
            let last = series.last().unwrap();
            assert_eq!(last.energy, run.drift().final_energy);
            assert_eq!(last.momentum, run.drift().momentum);
        }
        let euler = lab
            .compared
            .iter()
            .position(|&i| i == Integrator::ExplicitEulerWorld);
        assert!(
            lab.recorders().series()[euler.unwrap()]
                .last()
                .unwrap()
                .momentum
                > 1e-6
        );
        let csv = csv(&lab);
        let mut lines = csv.lines();
        assert_eq!(lines.next(), Some(records::CSV_HEADER));
        assert_eq!(lines.count(), 31 * lab.lanes().len());
        assert!(csv.contains(",box,midpoint,"));
    }

    /// Dropping a box mid-run: every recorded step exports the bodies it had (earlier
    /// rows are not re-sliced by the new count), and the energy error does not jump by
    /// the new body's energy, which no integrator made.
    #[test]
    fn a_body_added_mid_run_keeps_the_export_and_the_energy_error_aligned() {
        let mut lab = lab("bounce");
        for _ in 0..20 {
            lab.step();
        }
        assert_eq!(lab.world().bodies().len(), 1);
        let before: Vec<String> = csv(&lab).lines().map(String::from).collect();
        let energy_before = lab.recorders().series()[0].last().unwrap().energy;
        lab.apply(Input::Spawn {
            shape: Shape::Box {
                half_extents: DVec3::splat(0.3),
            },
            velocity: DVec3::ZERO,
            position: None,
        })
        .unwrap();
        assert_eq!(lab.world().bodies().len(), 2);
        lab.step();
        let after: Vec<String> = csv(&lab).lines().map(String::from).collect();
        // The export is lane after lane: each lane's rows must start with what they were.
        let lane_rows = |rows: &[String], lane: &Lane| -> Vec<String> {
            let tag = format!(",{},", lane.integrator());
            rows.iter().filter(|r| r.contains(&tag)).cloned().collect()
        };
        for run in lab.lanes() {
            let (was, now) = (lane_rows(&before, run), lane_rows(&after, run));
            assert_eq!(
                now[..was.len()],
                was[..],
                "earlier rows of {}",
                run.integrator()
            );
            let new: Vec<&str> = now[was.len()..]
                .iter()
                .map(|l| l.split(',').nth(1).unwrap())
                .collect();
            assert_eq!(new, ["ball", "spawned 2"], "the new step has every body");
        }
        // One step of the bounce changes the energy error by round-off only; the new
        // body's 1 kg at 2 m would add about 20 J to a total of a few joules.
        let energy_after = lab.recorders().series()[0].last().unwrap().energy;
        assert!(
            (energy_after - energy_before).abs() < 1e-3,
            "{energy_before} -> {energy_after}"
        );
        assert!(
            lab.apply(Input::Spawn {
                shape: Shape::Sphere { radius: 0.1 },
                velocity: DVec3::ZERO,
                position: None
            })
            .is_ok()
        );
        assert!(
            Lab::new(Scene::load("dzhanibekov").unwrap())
                .apply(Input::Spawn {
                    shape: Shape::Sphere { radius: 0.1 },
                    velocity: DVec3::ZERO,
                    position: None
                })
                .is_err()
        );
    }

    /// Solver settings reach every lane and wake every body; settings out of range are
    /// refused and change nothing.
    #[test]
    fn solver_settings_reach_every_lane_and_wake_it() {
        let mut lab = lab("stack");
        for _ in 0..400 {
            lab.step();
        }
        let contacts = |lab: &Lab| lab.world().contacts().unwrap().clone();
        let n = lab.world().bodies().len();
        assert!(
            (0..n).any(|b| contacts(&lab).is_asleep(b)),
            "the stack sleeps"
        );
        let mut s = *contacts(&lab).settings();
        s.iterations += 3;
        lab.apply(Input::SetSolverSettings(s)).unwrap();
        assert_eq!(*contacts(&lab).settings(), s);
        assert!(
            (0..n).all(|b| !contacts(&lab).is_asleep(b)),
            "every body woken"
        );
        let mut bad = s;
        bad.contact_hertz = -1.0;
        assert!(lab.apply(Input::SetSolverSettings(bad)).is_err());
        assert_eq!(*contacts(&lab).settings(), s, "a refusal changes nothing");
    }

    /// The mouse spring holds a body of an existing lane only, pulls it toward the
    /// target, and lets go.
    #[test]
    fn holding_dragging_and_releasing_a_body() {
        let mut lab = lab("bounce");
        let ball = lab.world().bodies()[0].state.position;
        let grab = Grab {
            body: 0,
            local: DVec3::ZERO,
            target: ball,
        };
        lab.apply(Input::Hold {
            lane: lab.lanes().len(),
            grab,
        })
        .unwrap();
        assert_eq!(lab.grab(), None, "no such lane");
        lab.apply(Input::Hold { lane: 0, grab }).unwrap();
        let target = ball + DVec3::new(0.5, 1.0, 0.0);
        lab.apply(Input::DragTo(target)).unwrap();
        for _ in 0..200 {
            lab.step();
        }
        let held = lab.world().bodies()[0].state.position;
        assert!((held - target).length() < 0.05, "{held} vs {target}");
        let free = lab.lanes()[1].world().bodies()[0].state.position;
        assert!(
            (free - target).length() > 1.0,
            "only lane 0 is held: {free}"
        );
        lab.apply(Input::Release).unwrap();
        assert_eq!(lab.grab(), None);
        lab.step();
        let after = lab.world().bodies()[0].state.velocity;
        assert!(after.y < 0.0, "let go, it falls: {after}");
    }

    /// A scene file that does not load leaves the running scene as it was, still
    /// running, and says where the file is wrong; a good one replaces it.
    #[test]
    fn a_scene_that_fails_to_open_leaves_the_running_one() {
        let dir = std::env::temp_dir().join(format!("gyrolab-open-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bad = dir.join("bad.ron");
        let text = include_str!("../../../assets/scenes/free-body.ron");
        std::fs::write(&bad, text.replace("dt: 0.01", "dt: -1.0")).unwrap();
        let mut lab = lab("dzhanibekov");
        lab.step();
        let before = lab.world().time();
        let err = lab.open(bad.to_str().unwrap()).unwrap_err();
        assert!(
            err.starts_with(&format!("{}:7:9: dt: -1 is outside", bad.display())),
            "{err}"
        );
        assert_eq!(lab.scene.name, "dzhanibekov");
        assert_eq!(lab.world().time(), before);
        lab.step();
        assert!(lab.world().time() > before);
        let good = dir.join("good.ron");
        std::fs::write(&good, text).unwrap();
        lab.open(good.to_str().unwrap()).unwrap();
        assert_eq!(lab.scene.name, "free-body");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Friction set live reaches every surface and, at the next detection, the contacts;
    /// bad values are refused.
    #[test]
    fn friction_set_live_reaches_the_contacts() {
        let mut tank = lab("tank");
        tank.apply(Input::SetFriction(0.0)).unwrap();
        assert_eq!(tank.friction(), Some(0.0));
        tank.step();
        let world = tank.world();
        let contacts = world.contacts().unwrap();
        assert!(contacts.graph().values().iter().all(|c| c.friction == 0.0));
        assert!(world.frames().iter().all(|f| f.material.friction == 0.0));
        assert!(
            tank.apply(Input::SetFriction(-1.0)).is_err()
                && tank.apply(Input::SetFriction(f64::NAN)).is_err()
        );
        // Beyond the friction range the contact rows overflowed.
        assert!(tank.apply(Input::SetFriction(1e160)).is_err());
        assert_eq!(lab("dzhanibekov").friction(), None);
    }

    /// The tank's turret motor is edited live in every lane; bad values are refused.
    #[test]
    fn a_hinge_motor_is_set_in_every_lane() {
        let mut tank = lab("tank");
        let motors = tank.motors();
        assert_eq!(motors.len(), 1);
        let (k, m) = motors[0];
        assert_eq!(m.speed, 0.5);
        let faster = Motor { speed: 1.5, ..m };
        tank.apply(Input::SetMotor {
            joint: k,
            motor: faster,
        })
        .unwrap();
        assert_eq!(tank.motors(), vec![(k, faster)]);
        let bad = Motor {
            max_torque: -1.0,
            ..m
        };
        assert!(
            tank.apply(Input::SetMotor {
                joint: k,
                motor: bad
            })
            .is_err()
        );
        assert!(
            tank.apply(Input::SetMotor {
                joint: k + 1,
                motor: m
            })
            .is_err()
        );
        assert!(lab("dzhanibekov").motors().is_empty());
    }

    /// The turntable's readout measures the ball's circling at 2Ω/7.
    #[test]
    fn the_turntable_readout_measures_two_sevenths_of_the_tables_rate() {
        let mut turntable = lab("turntable");
        for _ in 0..2000 {
            turntable.step();
        }
        let c = *turntable.dock().circling().unwrap();
        let world = turntable.world();
        let (rate, expected) = (c.meter.rate().unwrap(), c.expected(world));
        assert!((expected - 2.0 / 7.0).abs() < 1e-12);
        assert!((rate / expected - 1.0).abs() < 0.01, "{rate} vs {expected}");
        assert!(lab("dzhanibekov").dock().circling().is_none());
    }

    #[test]
    fn loading_a_scene_keeps_the_comparison_and_bumps_the_generations() {
        let mut lab = lab("dzhanibekov");
        lab.apply(Input::Compare {
            integrator: Integrator::Rk4,
            on: true,
        })
        .unwrap();
        let (g, s) = (lab.generation, lab.scene_generation);
        lab.load_scene(Scene::load("tennis-racket").unwrap());
        assert!(lab.compared.contains(&Integrator::Rk4));
        assert_eq!(lab.lanes().len(), 5);
        assert!(lab.generation > g && lab.scene_generation == s + 1);
    }
}
