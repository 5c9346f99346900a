//! The timeline strip under the dock: a scrubber over the recorded time that pauses and
//! shows the moment dragged to, steps back and forward, replay, the history's memory
//! against its budget, the divergence flag (Box2D's samples flag a replay that departs
//! from its recording [Box2D samples]), and the moment file's controls at its right end
//! (`moments.rs`). The lab does the work (`lab::seek`); the keys and the screenshot's
//! `--seek-back` call the same functions as the strip.

use std::ops::RangeInclusive;

use bevy::prelude::*;
use bevy_egui::egui;

use super::clip::{Clip, ClipRequest, MAX_FRAMES};
use super::moments::moment_file;
use super::physics::{Playback, Sim};
use super::view::{Message, View};

/// Pauses (ending a replay) and shows the recorded moment nearest time `t`: the slider
/// and `--seek-back` call it.
pub fn show_time(sim: &mut Sim, time: &mut Time<Virtual>, t: f64) {
    time.pause();
    sim.seek_time(t);
}

/// Pauses and shows the moment `seconds` before the one shown (at most back to the
/// recording's start).
pub fn seek_back(sim: &mut Sim, time: &mut Time<Virtual>, seconds: f64) {
    let t = sim.time() - seconds;
    show_time(sim, time, t);
}

/// One physics step back, while paused: the left arrow and the strip's button.
pub fn step_back(sim: &mut Sim, time: &Time<Virtual>) {
    if time.is_paused() {
        sim.step_back();
    }
}

/// One physics step forward, while paused: through the recording, or past its end a new
/// live step. The right arrow, N, and the strip's and panel's buttons.
pub fn step_forward(sim: &mut Sim, time: &Time<Virtual>) {
    if time.is_paused() {
        sim.step_forward();
    }
}

/// Starts replaying the recording from the moment shown, or pauses a replay under way.
pub fn toggle_replay(
    sim: &Sim,
    time: &mut Time<Virtual>,
    playback: &mut Playback,
) -> Result<(), String> {
    if *playback == Playback::Replay && !time.is_paused() {
        time.pause();
        return Ok(());
    }
    if sim.steps_ahead() == 0 {
        return Err(
            "nothing to replay: the moment shown is the newest recorded; \
                    drag the timeline back first"
                .into(),
        );
    }
    *playback = Playback::Replay;
    time.unpause();
    Ok(())
}

/// The flag a replay that departed from its recording raises.
pub fn divergence(sim: &Sim) -> Option<String> {
    sim.diverged()
        .map(|step| format!("diverged from the recording at step {step}"))
}

fn megabytes(bytes: usize) -> f64 {
    bytes as f64 / f64::from(1 << 20)
}

/// The strip: buttons, the scrubber, where the moment shown lies in the recording, the
/// history's memory, the divergence flag, and the moment file.
pub fn strip(
    ui: &mut egui::Ui,
    sim: &mut Sim,
    view: &mut View,
    time: &mut Time<Virtual>,
    playback: &mut Playback,
    message: &mut Message,
    clip: &mut Clip,
) {
    let recorded = sim.recorded();
    let paused = time.is_paused();
    let replaying = *playback == Playback::Replay && !paused;
    ui.horizontal(|ui| {
        step_buttons(ui, sim, time, playback, message, paused);
        divergence_flag(ui, sim);
        let marks: Vec<(f64, String)> = (view.lesson.iter())
            .flat_map(|w| w.events.iter().flatten())
            .map(|(t, e)| (*t, e.to_string()))
            .collect();
        scrubber(
            ui,
            sim,
            time,
            recorded.last > recorded.first,
            recorded.first_time..=recorded.last_time,
            &marks,
        );
    });
    ui.horizontal(|ui| {
        // The moment file's controls keep the right end; what the strip says fills the rest.
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            moment_file(ui, sim, view, playback, message);
            ui.separator();
            record_clip(ui, sim, clip, message);
            ui.separator();
            ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                ui.label(format!(
                    "t = {:.3} s  step {}  of {:.2} … {:.2} s",
                    sim.time(),
                    sim.step_index(),
                    recorded.first_time,
                    recorded.last_time,
                ))
                .on_hover_text(format!(
                    "the moment shown, and the recorded range: steps {} to {}",
                    recorded.first, recorded.last
                ));
                recording_status(ui, sim, replaying);
            });
        });
    });
}

/// "record clip" and "record GIF": the recorded range up to the moment shown, as PNG
/// frames in a new `gyrolab-clip-SCENE-N` directory or as one `gyrolab-clip-SCENE-N.gif`;
/// while one is recorded, how far it has come.
fn record_clip(ui: &mut egui::Ui, sim: &Sim, clip: &mut Clip, message: &mut Message) {
    if let Some(status) = clip.status() {
        ui.label(status);
        return;
    }
    let recorded = sim.recorded();
    let kinds = [
        ("record clip", "", "as numbered PNG files in a new folder"),
        (
            "record GIF",
            ".gif",
            "as one looping animated GIF, for slides",
        ),
    ];
    for (label, ext, what) in kinds {
        let button = egui::Button::new(label);
        let clicked = ui
            .add_enabled(sim.time() > recorded.first_time, button)
            .on_hover_text(format!(
                "the recording from its start (at most the last 8 minutes) to the moment \
                 shown, 20 frames a second, {what}"
            ))
            .clicked();
        if !clicked {
            continue;
        }
        let name = super::files::safe(&sim.scene().name);
        let dir = super::files::unused(&format!("gyrolab-clip-{name}"), ext);
        // At most the frames a clip may have: the last 499.95 s at 20 a second.
        const FPS: f64 = 20.0;
        let from = recorded
            .first_time
            .max(sim.time() - (MAX_FRAMES - 1) as f64 / FPS);
        let asked = clip.ask(ClipRequest {
            dir,
            from,
            to: sim.time(),
            fps: FPS,
            exit: false,
        });
        if let Err(e) = asked {
            message.set(Err(e));
        }
    }
}

/// One step back, replay or pause, one step forward. `paused` is taken as the strip
/// began, so a click on replay does not change the step buttons until the next frame.
fn step_buttons(
    ui: &mut egui::Ui,
    sim: &mut Sim,
    time: &mut Time<Virtual>,
    playback: &mut Playback,
    message: &mut Message,
    paused: bool,
) {
    let replaying = *playback == Playback::Replay && !paused;
    if ui
        .add_enabled(paused, egui::Button::new("◀"))
        .on_hover_text("one physics step back (the Left arrow key, while paused)")
        .clicked()
    {
        step_back(sim, time);
    }
    let label = if replaying {
        "⏸ replay"
    } else {
        "▶ replay"
    };
    if ui
        .button(label)
        .on_hover_text(
            "play the recording back from the moment shown, at the time scale (P); \
             it pauses at the recording's end",
        )
        .clicked()
        && let Err(e) = toggle_replay(sim, time, playback)
    {
        message.set(Err(e));
    }
    if ui
        .add_enabled(paused, egui::Button::new("▶"))
        .on_hover_text("one physics step forward (the Right arrow key or N, while paused)")
        .clicked()
    {
        step_forward(sim, time);
    }
}

/// The divergence flag, in white on red, while a replay has departed from its recording.
fn divergence_flag(ui: &mut egui::Ui, sim: &Sim) {
    if let Some(flag) = divergence(sim) {
        ui.label(
            egui::RichText::new(flag)
                .color(egui::Color32::WHITE)
                .background_color(egui::Color32::from_rgb(190, 30, 30))
                .strong(),
        )
        .on_hover_text(
            "a step simulated again did not match its recording bitwise: a setting \
             changed under the replay; play (space) branches from here",
        );
    }
}

/// The scrubber over the recorded times, the rest of the row wide: dragging it pauses
/// and shows the moment dragged to. Disabled while one step is all that is recorded.
fn scrubber(
    ui: &mut egui::Ui,
    sim: &mut Sim,
    time: &mut Time<Virtual>,
    enabled: bool,
    range: RangeInclusive<f64>,
    marks: &[(f64, String)],
) {
    let mut t = sim.time();
    let width = (ui.available_width() - 8.0).max(60.0);
    ui.spacing_mut().slider_width = width;
    let slider = ui
        .add_enabled(
            enabled,
            egui::Slider::new(&mut t, range.clone()).show_value(false),
        )
        .on_hover_text(
            "the recorded time: drag to pause and show that moment in every lane; \
             space plays on from it and discards the old future",
        );
    // The lesson's events, as flags over the track at their times.
    let (lo, hi) = (*range.start(), *range.end());
    let rect = slider.rect;
    for (at, what) in marks
        .iter()
        .filter(|(at, _)| hi > lo && (lo..=hi).contains(at))
    {
        let x = rect.left() + (rect.width() * ((at - lo) / (hi - lo)) as f32);
        let flag = egui::Rect::from_min_size(
            egui::pos2(x - 1.0, rect.top()),
            egui::vec2(2.0, rect.height()),
        );
        ui.painter()
            .rect_filled(flag, 0.0, egui::Color32::from_rgb(250, 200, 60));
        ui.interact(
            flag.expand(3.0),
            ui.id().with(("mark", what)),
            egui::Sense::hover(),
        )
        .on_hover_text(format!("{what} at t = {at:.3} s"));
    }
    if slider.changed() {
        show_time(sim, time, t);
    }
}

/// What follows the moment's place: how many steps back it is, REPLAY while a replay
/// runs, and the history's memory against its budget.
fn recording_status(ui: &mut egui::Ui, sim: &Sim, replaying: bool) {
    let ahead = sim.steps_ahead();
    if ahead > 0 {
        ui.weak(format!("{ahead} steps back"));
    }
    if replaying {
        ui.strong("REPLAY");
    }
    let history = sim.timeline();
    ui.label(format!(
        "history {:.1}/{:.0} MB",
        megabytes(history.heap_bytes()),
        megabytes(history.budget()),
    ))
    .on_hover_text(
        "memory the recording holds (keyframes, inputs, a fingerprint per step) against \
         its budget; past it the oldest history thins out",
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::BodyState;
    use crate::lab::Input;
    use crate::lab::Lab;

    /// A headless app on `scene`, advanced 50 ms per frame.
    fn app(scene: &str) -> App {
        let mut app = crate::app::headless_app(scene);
        app.update();
        app
    }

    fn run(app: &mut App, frames: usize) {
        for _ in 0..frames {
            app.update();
        }
    }

    /// Every body of every lane and the ghost.
    fn states(app: &App) -> Vec<BodyState> {
        let sim = app.world().resource::<Sim>();
        sim.lanes()
            .iter()
            .chain(sim.ghost())
            .flat_map(|r| r.world().bodies().iter().map(|b| b.state))
            .collect()
    }

    fn bits(states: &[BodyState]) -> Vec<u64> {
        states
            .iter()
            .flat_map(|s| {
                let p = s.position.to_array();
                let q = s.orientation.to_array();
                let v = s.velocity.to_array();
                let l = s.angular_momentum.to_array();
                p.into_iter().chain(q).chain(v).chain(l).map(f64::to_bits)
            })
            .collect()
    }

    /// The strip's slider and the arrow keys' functions, on the running app: back across
    /// a second of the run and forward again, step by step, the states come back bitwise
    /// and nothing branched.
    #[test]
    fn scrubbing_back_and_stepping_forward_returns_bitwise() {
        let mut app = app("dzhanibekov");
        run(&mut app, 40);
        let world = app.world_mut();
        world.resource_mut::<Time<Virtual>>().pause();
        let head = world.resource::<Sim>().step_index();
        assert!(head >= 150, "the run went {head} steps");
        let now = states(&app);
        let world = app.world_mut();
        let t = world.resource::<Sim>().time();
        world.resource_scope(|world, mut sim: Mut<Sim>| {
            let mut time = world.resource_mut::<Time<Virtual>>();
            show_time(&mut sim, &mut time, t - 1.0);
        });
        let back = world.resource::<Sim>().step_index();
        assert_eq!(back, head - 100, "one second is 100 steps of 10 ms");
        assert!(world.resource::<Time<Virtual>>().is_paused());
        assert_ne!(bits(&states(&app)), bits(&now), "the past differs");
        let world = app.world_mut();
        world.resource_scope(|world, mut sim: Mut<Sim>| {
            let time = world.resource::<Time<Virtual>>();
            step_back(&mut sim, time);
            assert_eq!(sim.step_index(), back - 1);
            for _ in 0..101 {
                step_forward(&mut sim, time);
            }
        });
        run(&mut app, 3);
        let sim = app.world().resource::<Sim>();
        assert_eq!(sim.step_index(), head);
        assert_eq!(sim.recorded().last, head, "nothing branched");
        assert_eq!(sim.diverged(), None);
        assert_eq!(bits(&states(&app)), bits(&now));
    }

    /// Seeks back by `seconds` and starts a replay, as the P key does.
    fn replay_from(app: &mut App, seconds: f64) {
        app.world_mut()
            .resource_scope(|world, mut sim: Mut<Sim>| {
                world.resource_scope(|world, mut playback: Mut<Playback>| {
                    let mut time = world.resource_mut::<Time<Virtual>>();
                    seek_back(&mut sim, &mut time, seconds);
                    toggle_replay(&sim, &mut time, &mut playback)
                })
            })
            .unwrap();
    }

    /// A replay plays the recording through the fixed steps, one recorded step per step
    /// of dt, without branching; at the end it pauses and play is live again; the states
    /// are the recorded ones, bitwise.
    #[test]
    fn a_replay_runs_the_recording_to_its_end_and_pauses() {
        let mut app = app("dzhanibekov");
        run(&mut app, 30);
        app.world_mut().resource_mut::<Time<Virtual>>().pause();
        let head = app.world().resource::<Sim>().step_index();
        let now = bits(&states(&app));
        replay_from(&mut app, 1.0);
        let start = app.world().resource::<Sim>().step_index();
        assert_eq!(start, head - 100);
        // Two frames: the fixed step follows dt from the next frame on.
        run(&mut app, 2);
        let sim = app.world().resource::<Sim>();
        let advanced = sim.step_index() - start;
        assert!((1..=10).contains(&advanced), "{advanced} steps in 100 ms");
        assert_eq!(sim.recorded().last, head, "a replay does not branch");
        run(&mut app, 30);
        let world = app.world();
        assert!(world.resource::<Time<Virtual>>().is_paused());
        assert_eq!(*world.resource::<Playback>(), Playback::Live);
        let sim = world.resource::<Sim>();
        assert_eq!(sim.step_index(), head);
        assert_eq!(sim.diverged(), None);
        assert_eq!(bits(&states(&app)), now);
    }

    /// A setting changed under a replay departs from the recording: the flag trips and
    /// the strip shows it with the step.
    #[test]
    fn a_setting_changed_under_a_replay_raises_the_flag() {
        let mut app = app("dzhanibekov");
        run(&mut app, 30);
        app.world_mut().resource_mut::<Time<Virtual>>().pause();
        replay_from(&mut app, 1.0);
        run(&mut app, 4);
        assert_eq!(app.world().resource::<Sim>().diverged(), None);
        let mut sim = app.world_mut().resource_mut::<Sim>();
        sim.apply(Input::SetStepsPerDt(2)).unwrap();
        run(&mut app, 4);
        let sim = app.world().resource::<Sim>();
        let step = sim.diverged().expect("the replay departed");
        assert!(sim.steps_ahead() > 0, "still replaying");
        let mut sim = Sim::new(Lab::clone(sim));
        let text = strip_text(&mut sim);
        assert!(
            text.contains(&format!("diverged from the recording at step {step}")),
            "{text}"
        );
    }

    /// The text the strip draws in one egui frame.
    fn strip_text(sim: &mut Sim) -> String {
        let mut view = View::default();
        let mut time = Time::<Virtual>::default();
        let mut playback = Playback::Live;
        let mut message = Message::default();
        let output = egui::Context::default().run_ui(egui::RawInput::default(), |ui| {
            strip(
                ui,
                sim,
                &mut view,
                &mut time,
                &mut playback,
                &mut message,
                &mut Clip::default(),
            )
        });
        crate::app::drawn_text(&output)
    }
}
