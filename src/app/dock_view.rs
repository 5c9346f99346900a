//! The dock under the 3D view, by the kind of scene the lab says it is
//! ([`crate::lab::dock::DockKind`]): free bodies get their drift plots and the Newton
//! map; contact scenes their energies, contact points, deepest penetration and the
//! solver's time per stage; moving frames the inertial forces on a rider, the scene's
//! measurement against its textbook value, and their energies; jointed mechanisms
//! theirs ([`mechanism_view`]).

use bevy_egui::egui;
use egui_plot::{HLine, LineStyle, PlotPoints, Points};

use crate::hierarchy::InertialForces;
use crate::lab::dock::DockKind;
use crate::lab::dock_series::{Pendulum, RiderForces};
use crate::solver::SolverKind;
use crate::world::Stage;

use super::colors::{FORCE_COLORS, STAGE_COLORS, egui_color};
use super::dock_plots::{energy, lane_color, lane_name, layout};
use super::mechanism_view;
use super::newton_map::NewtonMap;
use super::physics::Sim;
use super::plots::{self, Layout, line, plot};
use super::view::View;
use super::work_precision::WorkPrecision;

pub fn show(
    ui: &mut egui::Ui,
    sim: &Sim,
    view: &mut View,
    map: &mut NewtonMap,
    wp: &WorkPrecision,
) {
    match sim.dock().kind() {
        DockKind::FreeBody => plots::show(ui, sim, view, map, wp),
        DockKind::Contacts => contacts(ui, sim, view),
        DockKind::Frames => frames(ui, sim, view),
        DockKind::Joints => mechanism_view::show(ui, sim, view),
    }
}

/// The contact scenes' dock: the energies, the contact points, the deepest penetration
/// against the slop, and the solver's time per stage.
fn contacts(ui: &mut egui::Ui, sim: &Sim, view: &mut View) {
    ui.horizontal(|ui| {
        ui.checkbox(
            &mut view.autoscroll,
            format!("scroll (last {} s)", plots::WINDOW),
        );
    });
    let layout = layout(ui, 4, view.autoscroll);
    // Compared lanes: the energy plot's legend names them for the points and depth plots too.
    let others = Layout {
        legend: sim.lanes().len() == 1,
        ..layout
    };
    let from = plots::from(sim, view.autoscroll);
    ui.horizontal(|ui| {
        energy(ui, sim, layout, from);
        contact_points(ui, sim, others, from);
        penetration(ui, sim, others, from);
        stages(ui, sim, layout, from);
    });
}

/// Each lane's count of contact points this step.
fn contact_points(ui: &mut egui::Ui, sim: &Sim, layout: Layout, from: f64) {
    plot(
        ui,
        "contact points",
        "contact points",
        "Contact points the detection found this step, in every manifold: the \
         speculative ones, not touching yet, included",
        layout,
        sim,
        |p| {
            for (lane, series) in sim.recorders().dock().contacts().iter().enumerate() {
                p.line(line(
                    &lane_name(sim, lane, "points"),
                    &series.samples,
                    from,
                    false,
                    |s| [s.t, s.points as f64],
                    lane_color(sim, lane),
                ));
            }
        },
    );
}

/// Each lane's deepest overlap in millimetres, with the first lane's slop dashed where
/// its solver (PGS) leaves that much uncorrected.
fn penetration(ui: &mut egui::Ui, sim: &Sim, layout: Layout, from: f64) {
    let settings = sim.world().contacts().map(|c| *c.settings());
    let slop = settings
        .filter(|s| s.solver == SolverKind::Pgs)
        .map(|s| s.slop);
    plot(
        ui,
        "penetration",
        "deepest penetration (mm)",
        "The deepest overlap among this step's contact points, as the detection found \
         it at the step's start, in millimetres. With the soft solver (the default) \
         every contact is a stiff spring: a resting contact sinks until its spring \
         carries the weight on it, so the depth grows with the load (the stack's \
         explanation gives its figures). With the PGS solver the dashed line is the \
         slop, the overlap it leaves uncorrected (Solver panel)",
        layout,
        sim,
        |p| {
            for (lane, series) in sim.recorders().dock().contacts().iter().enumerate() {
                p.line(line(
                    &lane_name(sim, lane, "deepest"),
                    &series.samples,
                    from,
                    false,
                    |s| [s.t, 1e3 * s.depth],
                    lane_color(sim, lane),
                ));
            }
            if let Some(slop) = slop {
                p.hline(
                    HLine::new("slop (left uncorrected)", 1e3 * slop)
                        .color(egui::Color32::GRAY)
                        .style(LineStyle::dashed_loose()),
                );
            }
        },
    );
}

/// The wall time of each stage of the step, every lane together, a line per stage.
fn stages(ui: &mut egui::Ui, sim: &Sim, layout: Layout, from: f64) {
    plot(
        ui,
        "stages",
        "time per stage (µs)",
        "Wall time of each stage of one integrator step, every lane together, \
         smoothed over about 20 steps: the numbers of the status line",
        layout,
        sim,
        |p| {
            for (k, stage) in Stage::ALL.into_iter().enumerate() {
                p.line(line(
                    stage.name(),
                    &sim.recorders().dock().stages().samples,
                    from,
                    false,
                    |s| [s.t, s.micros[k]],
                    egui_color(STAGE_COLORS[k]),
                ));
            }
        },
    );
}

/// The moving frames' dock: the inertial forces on the chosen rider, the scene's
/// measurement (the swing plane, or the circling rate) against its textbook value, and
/// the energies where they fit.
fn frames(ui: &mut egui::Ui, sim: &Sim, view: &mut View) {
    let series = sim.recorders().dock();
    let chosen = frame_switches(ui, sim, view);
    let readout = series.pendulum().is_some() || sim.dock().circling().is_some();
    // The energies fill the dock where the forces or the readout leave room; not beside
    // both: a Foucault pendulum's weight is its frame's gravity, not the world's, which
    // the potential energy counts.
    let forces = !series.riders().is_empty();
    let energies = !(forces && readout);
    let count = usize::from(forces) + usize::from(readout) + usize::from(energies);
    let layout = layout(ui, count, view.autoscroll);
    let from = plots::from(sim, view.autoscroll);
    ui.horizontal(|ui| {
        if let Some(rider) = series.riders().get(chosen) {
            inertial_forces(ui, sim, rider, layout, from);
        }
        if let Some(pendulum) = series.pendulum() {
            swing_plane(ui, sim, pendulum, layout, from);
        } else if readout {
            circling(ui, sim, layout, from);
        }
        if energies {
            energy(ui, sim, layout, from);
        }
    });
}

/// The row over the frames' plots: scrolling, and the rider whose inertial forces are
/// plotted. Returns the rider shown this frame (the view's choice, else the dock's
/// default), as it was before the row was clicked.
fn frame_switches(ui: &mut egui::Ui, sim: &Sim, view: &mut View) -> usize {
    let riders = sim.recorders().dock().riders();
    let world = sim.world();
    let chosen = view
        .rider
        .and_then(|body| riders.iter().position(|r| r.body == body))
        .unwrap_or(sim.dock().default_rider());
    ui.horizontal(|ui| {
        ui.checkbox(
            &mut view.autoscroll,
            format!("scroll (last {} s)", plots::WINDOW),
        );
        if let Some(rider) = riders.get(chosen) {
            egui::ComboBox::from_label("inertial forces on")
                .selected_text(&world.bodies()[rider.body].name)
                .show_ui(ui, |ui| {
                    for r in riders {
                        ui.selectable_value(
                            &mut view.rider,
                            Some(r.body),
                            &world.bodies()[r.body].name,
                        );
                    }
                });
        }
    });
    chosen
}

/// The magnitudes of the inertial forces per kilogram on one rider, a line per force in
/// its arrow's colour.
fn inertial_forces(ui: &mut egui::Ui, sim: &Sim, rider: &RiderForces, layout: Layout, from: f64) {
    let name = &sim.world().bodies()[rider.body].name;
    plot(
        ui,
        "inertial forces",
        "inertial force per kg (m/s²)",
        &format!(
            "The inertial forces on {name} in its frame, per kilogram: the arrows \
             in the view. frame: the frame's own acceleration, felt backwards \
             (−a); Euler: −α × x; centrifugal: −ω × (ω × x); Coriolis: −2 ω × v; \
             with the frame's ω and α, and x and v the rider's place and velocity \
             in it"
        ),
        layout,
        sim,
        |p| {
            let names = InertialForces::default().named().map(|(n, _)| n);
            for (k, force) in names.into_iter().enumerate() {
                p.line(line(
                    force,
                    &rider.series.samples,
                    from,
                    false,
                    |s| [s.t, s.magnitudes[k]],
                    egui_color(FORCE_COLORS[k]),
                ));
            }
        },
    );
}

/// A Foucault pendulum's swing plane at each turning point, against the textbook's
/// −Ω sin φ·t from the first one.
fn swing_plane(ui: &mut egui::Ui, sim: &Sim, pendulum: &Pendulum, layout: Layout, from: f64) {
    let expected = pendulum.expected_rate(sim.world());
    plot(
        ui,
        "swing plane",
        "swing plane angle (°)",
        "The swing plane's direction at each turning point of the bob, \
         counter-clockwise seen from above, from the first one; the dashed line is \
         the textbook's −Ω sin φ·t: clockwise in the northern hemisphere",
        layout,
        sim,
        |p| {
            let turns = &pendulum.meter.turns;
            if let Some(&(t0, a0)) = turns.first() {
                let measured: PlotPoints = turns
                    .iter()
                    .filter(|(t, _)| *t >= from)
                    .map(|&(t, a)| [t, (a - a0).to_degrees()])
                    .collect();
                p.points(
                    Points::new("measured", measured)
                        .radius(2.5)
                        .color(egui::Color32::WHITE),
                );
                let t1 = sim.time();
                let textbook: PlotPoints = [t0.max(from), t1]
                    .into_iter()
                    .map(|t| [t, (expected * (t - t0)).to_degrees()])
                    .collect();
                p.line(
                    egui_plot::Line::new("−Ω sin φ·t", textbook)
                        .color(egui::Color32::LIGHT_BLUE)
                        .style(LineStyle::dashed_loose()),
                );
            }
        },
    );
}

/// A ball rolling on a turning table: its measured circling rate against 2Ω/7.
fn circling(ui: &mut egui::Ui, sim: &Sim, layout: Layout, from: f64) {
    plot(
        ui,
        "circling",
        "circling rate (rad/s)",
        "How fast the ball's world velocity has turned, on average since it \
         started, against the textbook's 2Ω/7 for a solid sphere rolling without \
         slipping on a table turning at Ω",
        layout,
        sim,
        |p| {
            let samples = &sim.recorders().dock().circling().samples;
            p.line(line(
                "measured",
                samples,
                from,
                false,
                |s| [s.t, s.measured],
                egui::Color32::WHITE,
            ));
            p.line(
                line(
                    "2Ω/7",
                    samples,
                    from,
                    false,
                    |s| [s.t, s.expected],
                    egui::Color32::LIGHT_BLUE,
                )
                .style(LineStyle::dashed_loose()),
            );
        },
    );
}
