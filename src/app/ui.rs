//! Lays out the window: the status line at the bottom, the control panel on the left, the
//! dock of plots under the 3D view and the timeline strip under the dock, an open
//! lesson's panel at the right of the view; then tells the camera which rectangle is left
//! for the scene.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::camera::FreeRect;
use super::draw_order::Panels;
use super::newton_map::NewtonMap;
use super::physics::{Playback, Sim, StepTiming};
use super::status::{self, FrameCost};
use super::timing::Timed;
use super::view::{Message, View};
use super::work_precision::WorkPrecision;
use super::{dock_view, panel, timeline_strip};

pub struct UiPlugin;

impl Plugin for UiPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(EguiPrimaryContextPass, layout.in_set(Panels));
    }
}

#[allow(clippy::too_many_arguments)]
fn layout(
    mut contexts: EguiContexts,
    mut sim: ResMut<Sim>,
    mut view: ResMut<View>,
    mut time: ResMut<Time<Virtual>>,
    mut message: ResMut<Message>,
    mut map: ResMut<NewtonMap>,
    wp: Res<WorkPrecision>,
    mut free: ResMut<FreeRect>,
    cost: Res<FrameCost>,
    timing: Res<StepTiming>,
    mut playback: ResMut<Playback>,
    mut clip: ResMut<super::clip::Clip>,
) -> Result {
    let _timed = Timed::start();
    let ctx = contexts.ctx_mut()?.clone();
    let screen = ctx.viewport_rect();
    let mut root = egui::Ui::new(
        ctx.clone(),
        "root".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(screen),
    );
    let status_height = egui::Panel::bottom("status")
        .show(&mut root, |ui| status::line(ui, &sim, &cost, &timing, &map))
        .response
        .rect
        .height();
    let left = egui::Panel::left("controls")
        .default_size(340.0)
        .resizable(true)
        .show(&mut root, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                panel::controls(ui, &mut sim, &mut view, &mut time, &mut message);
            });
        })
        .response
        .rect
        .width();
    let strip_height = egui::Panel::bottom("timeline")
        .show(&mut root, |ui| {
            timeline_strip::strip(
                ui,
                &mut sim,
                &mut view,
                &mut time,
                &mut playback,
                &mut message,
                &mut clip,
            )
        })
        .response
        .rect
        .height();
    let plots_height = egui::Panel::bottom("plots")
        .default_size(0.32 * screen.height())
        .resizable(true)
        .show(&mut root, |ui| {
            dock_view::show(ui, &sim, &mut view, &mut map, &wp)
        })
        .response
        .rect
        .height();
    let lesson = super::lesson_panel::dock(&mut root, &mut sim, &mut view, &mut time, &mut message);
    free.0 = Some(Rect::new(
        screen.min.x + left,
        screen.min.y,
        screen.max.x - lesson,
        screen.max.y - status_height - strip_height - plots_height,
    ));
    Ok(())
}
