//! Steps the lab in `FixedUpdate`, at the rate the user sets: each stage of the world's
//! step is a system of its own, in [`PhysicsSet`] order, calling the same stage function
//! the command line's `World::advance` calls, so the two cannot drift apart. The lab times
//! each stage (`lab::stage_time`); the whole step is timed here. Under a replay
//! ([`Playback::Replay`]) those systems rest and one system plays the recording back.

use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use bevy::prelude::*;

use crate::lab::Lab;
use crate::lab::stage_time::smooth;
use crate::scene::Scene;
use crate::world::Stage;

use super::scale::Scale;
use super::timing::Timed;

/// The lab, as the app's one physics resource, with the view's scales of its scene:
/// the app's, not the lab's (moment files do not keep them), worked out again when the
/// lab's lanes or scene change.
#[derive(Resource, Deref, DerefMut)]
pub struct Sim(#[deref] pub Lab, Mutex<Option<Scale>>);

impl Sim {
    /// The app's lab, its stages timed with the machine's clock.
    pub fn new(mut lab: Lab) -> Self {
        lab.time_stages_with(crate::stopwatch::now);
        Self(lab, Mutex::default())
    }

    /// The view's scales of the lanes shown.
    pub fn scale(&self) -> Scale {
        let mut cached = self.1.lock().unwrap_or_else(PoisonError::into_inner);
        match *cached {
            Some(scale) if scale.is_of(&self.0) => scale,
            _ => *cached.insert(Scale::of(&self.0)),
        }
    }
}

/// The physics step's systems, chained in `FixedUpdate`: `Begin` (the mouse spring), one
/// set per [`Stage`] in [`Stage::ALL`] order, `End` (measurements, plots, recording). A
/// plugin can add forces with `Lab::apply(Input::AddLoad { .. })` in a system after
/// `PhysicsSet::Stage(Stage::Forces)` and before `PhysicsSet::Stage(Stage::Frames)`: they
/// are logged, so the timeline's seeks and replays apply them again.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PhysicsSet {
    Begin,
    Stage(Stage),
    End,
}

/// How the fixed steps advance the lab: live, through the stage systems; or replaying the
/// recording, one recorded physics step per fixed step (of `dt`, so at the time scale
/// chosen), until its end, where the replay pauses. Pausing ends a replay: play then
/// goes on live from the moment shown (the lab branches by itself).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Playback {
    #[default]
    Live,
    Replay,
}

/// Wall time of one physics step (every lane and the ghost), smoothed over recent
/// steps; the lab keeps each stage's.
#[derive(Resource, Default)]
pub struct StepTiming {
    pub micros: f64,
    started: Option<Instant>,
}

pub struct PhysicsPlugin {
    scene: Scene,
}

impl PhysicsPlugin {
    pub fn new(scene: Scene) -> Self {
        Self { scene }
    }
}

impl Plugin for PhysicsPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(Time::<Fixed>::from_seconds(self.scene.dt))
            .insert_resource(Sim::new(Lab::new(self.scene.clone())))
            .init_resource::<StepTiming>()
            .init_resource::<Playback>()
            .add_systems(FixedUpdate, begin.in_set(PhysicsSet::Begin))
            .add_systems(FixedUpdate, end.in_set(PhysicsSet::End))
            .add_systems(
                FixedUpdate,
                replay.run_if(resource_equals(Playback::Replay)),
            )
            .add_systems(Update, (end_replay_when_paused, follow_dt).chain());
        let order: Vec<PhysicsSet> = std::iter::once(PhysicsSet::Begin)
            .chain(Stage::ALL.map(PhysicsSet::Stage))
            .chain([PhysicsSet::End])
            .collect();
        for set in &order {
            app.configure_sets(FixedUpdate, set.run_if(live));
        }
        for pair in order.windows(2) {
            app.configure_sets(FixedUpdate, pair[0].before(pair[1]));
        }
        for stage in Stage::ALL {
            app.add_systems(
                FixedUpdate,
                (move |mut sim: ResMut<Sim>| {
                    let _timed = Timed::start();
                    sim.run_stage(stage);
                })
                .in_set(PhysicsSet::Stage(stage)),
            );
        }
    }
}

fn begin(mut sim: ResMut<Sim>, mut timing: ResMut<StepTiming>) {
    let _timed = Timed::start();
    timing.started = Some(Instant::now());
    sim.begin_integrator_step();
}

fn end(mut sim: ResMut<Sim>, mut timing: ResMut<StepTiming>) {
    let _timed = Timed::start();
    sim.end_integrator_step();
    if let Some(start) = timing.started.take() {
        smooth(&mut timing.micros, start.elapsed().as_secs_f64() * 1e6);
    }
}

/// Live steps run while time runs. Not after a pause within the frame: a replay that
/// reached its end pauses inside the fixed loop, whose remaining steps this frame must not
/// go on live.
fn live(playback: Res<Playback>, time: Res<Time<Virtual>>) -> bool {
    *playback == Playback::Live && !time.is_paused()
}

/// One recorded physics step simulated again; at the recording's end the replay pauses.
fn replay(mut sim: ResMut<Sim>, mut playback: ResMut<Playback>, mut time: ResMut<Time<Virtual>>) {
    let _timed = Timed::start();
    if time.is_paused() {
        return;
    }
    if sim.replay_step().is_none() || sim.steps_ahead() == 0 {
        *playback = Playback::Live;
        time.pause();
    }
}

/// However time was paused (space, the panel's button, the timeline), the replay ends.
fn end_replay_when_paused(time: Res<Time<Virtual>>, mut playback: ResMut<Playback>) {
    if time.is_paused() && *playback == Playback::Replay {
        *playback = Playback::Live;
    }
}

/// One fixed step is one integrator step `h = dt / steps_per_dt` of the lab, so the
/// fixed rate follows the dt and steps-per-dt sliders; under a replay it is one physics
/// step `dt`, what [`crate::lab::Lab::replay_step`] takes.
fn follow_dt(sim: Res<Sim>, playback: Res<Playback>, mut fixed: ResMut<Time<Fixed>>) {
    let _timed = Timed::start();
    let step = match *playback {
        Playback::Live => sim.h(),
        Playback::Replay => sim.dt(),
    };
    if (fixed.timestep().as_secs_f64() - step).abs() > 1e-12 {
        fixed.set_timestep_seconds(step);
    }
}

#[cfg(test)]
mod tests {
    use crate::lab::Input;
    use std::time::Duration;

    use bevy::time::TimeUpdateStrategy;

    use glam::DVec3;

    use super::*;
    use crate::app::view::{View, ViewPlugin};

    /// A headless app with the physics and the time scale, advanced 50 ms per frame.
    fn app() -> App {
        let mut app = App::new();
        app.add_plugins((
            MinimalPlugins,
            PhysicsPlugin::new(Scene::load("dzhanibekov").unwrap()),
            ViewPlugin,
        ))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
            50,
        )));
        app.update();
        app
    }

    fn lab_time(app: &App) -> f64 {
        app.world().resource::<Sim>().time()
    }

    fn run(app: &mut App, frames: usize) -> f64 {
        let t0 = lab_time(app);
        for _ in 0..frames {
            app.update();
        }
        lab_time(app) - t0
    }

    #[test]
    fn physics_follows_virtual_time_not_frames() {
        let mut app = app();
        let dt = app.world().resource::<Sim>().dt();
        // 20 frames of 50 ms: one second of physics at 100 steps per second.
        assert!((run(&mut app, 20) - 1.0).abs() <= 2.0 * dt);
        // Slow motion: a quarter of the time; the time scale takes effect next frame.
        app.world_mut().resource_mut::<View>().time_scale = 0.25;
        app.update();
        assert!((run(&mut app, 20) - 0.25).abs() <= 2.0 * dt);
        // A larger dt: fewer, longer steps for the same time.
        app.world_mut().resource_mut::<View>().time_scale = 1.0;
        app.world_mut()
            .resource_mut::<Sim>()
            .apply(Input::SetDt(0.025))
            .unwrap();
        app.update();
        let steps_before = app.world().resource::<Sim>().recorders().series()[0]
            .samples
            .len();
        let elapsed = run(&mut app, 20);
        let steps = app.world().resource::<Sim>().recorders().series()[0]
            .samples
            .len()
            - steps_before;
        assert!((elapsed - 1.0).abs() <= 2.0 * 0.025, "{elapsed}");
        assert!(
            (39..=41).contains(&steps),
            "{steps} steps of 25 ms in one second"
        );
    }

    #[test]
    fn pausing_stops_the_physics() {
        let mut app = app();
        app.world_mut().resource_mut::<Time<Virtual>>().pause();
        assert_eq!(run(&mut app, 10), 0.0);
    }

    /// A plugin's system between the forces and frames stages adds a load that the
    /// world's later stages apply: the body speeds up by F h / m more per step.
    #[test]
    fn a_system_between_stages_can_add_forces() {
        use crate::integrators::Loads;
        fn push(mut sim: ResMut<Sim>) {
            for lane in 0..sim.lanes().len() {
                let load = Loads {
                    force: DVec3::new(2.0, 0.0, 0.0),
                    torque: DVec3::ZERO,
                };
                sim.apply(Input::AddLoad {
                    lane,
                    body: 0,
                    load,
                })
                .unwrap();
            }
        }
        let velocity = |app: &App| {
            app.world().resource::<Sim>().world().bodies()[0]
                .state
                .velocity
        };
        let mut plain = app();
        let mut pushed = app();
        pushed.add_systems(
            FixedUpdate,
            push.after(PhysicsSet::Stage(Stage::Forces))
                .before(PhysicsSet::Stage(Stage::Frames)),
        );
        run(&mut plain, 20);
        run(&mut pushed, 20);
        let sim = pushed.world().resource::<Sim>();
        let (t, mass) = (sim.time(), sim.world().bodies()[0].props.mass);
        let dv = velocity(&pushed) - velocity(&plain);
        assert!(t > 0.5, "time ran: {t}");
        assert!(
            (dv.x - 2.0 / mass * t).abs() < 1e-9 * t.max(1.0),
            "{dv} after {t} s"
        );
    }
}
