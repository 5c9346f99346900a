//! Contact scenes in the app: the ground planes, contact points and normals as gizmos,
//! and the solver panel (every setting live, spawn and throw bodies).

use bevy::prelude::*;
use bevy_egui::egui;
use glam::DVec3;

use super::colors::{CONTACT_COLOR, GROUND_COLOR, SLEEP_TINT};
use super::layout::lane_offset;
use super::physics::Sim;
use super::timing::Timed;
use super::view::{Message, View};
use crate::body::inertia::Shape;
use crate::contact::{SolverKind, geometry::tangents};

pub struct ContactsPlugin;

impl Plugin for ContactsPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, draw);
    }
}

fn draw(sim: Res<Sim>, view: Res<View>, mut gizmos: Gizmos) {
    let _timed = Timed::start();
    for (lane, run) in sim.lanes.iter().enumerate() {
        let Some(contacts) = &run.world.contacts else {
            continue;
        };
        let offset = lane_offset(&sim, lane);
        // 1 m squares, enough to reach past the scene.
        let cells = (2.0 * sim.radius).ceil().max(24.0) as u32;
        for plane in &contacts.planes {
            let center = plane.normal * plane.offset;
            let (u, v) = tangents(plane.normal);
            let rotation = Quat::from_mat3(&Mat3::from_cols(
                u.as_vec3(),
                v.as_vec3(),
                plane.normal.as_vec3(),
            ));
            gizmos.grid(
                Isometry3d::new(center.as_vec3() + offset, rotation),
                UVec2::splat(cells),
                Vec2::splat(1.0),
                GROUND_COLOR,
            );
        }
        if !view.contacts {
            continue;
        }
        for contact in contacts.graph.values() {
            let m = &contact.manifold;
            for p in m.points() {
                let at = p.position.as_vec3() + offset;
                // Normals point from the first shape into the second; draw them out of
                // the ground or the lower body, 0.3 m per unit, longer with more load.
                let n = -m.normal.as_vec3();
                let length = 0.15 + (p.normal_impulse as f32).min(1.0) * 0.3;
                gizmos.sphere(Isometry3d::from_translation(at), 0.02, CONTACT_COLOR);
                gizmos.arrow(at, at + n * length, CONTACT_COLOR);
            }
        }
        for (i, body) in run.world.bodies.iter().enumerate() {
            if contacts.is_asleep(i) {
                let at = body.state.position.as_vec3() + offset;
                gizmos.sphere(Isometry3d::from_translation(at), 0.08, SLEEP_TINT);
            }
        }
    }
}

/// The solver panel: shown for scenes with contacts.
pub fn solver_panel(ui: &mut egui::Ui, sim: &mut Sim, view: &mut View, message: &mut Message) {
    let Some(current) = sim.lanes[0].world.contacts.as_ref().map(|c| c.settings) else {
        ui.label("This scene has no contacts.");
        return;
    };
    let mut s = current;
    egui::ComboBox::from_label("solver")
        .selected_text(s.solver.name())
        .show_ui(ui, |ui| {
            for k in SolverKind::ALL {
                ui.selectable_value(&mut s.solver, k, k.name());
            }
        })
        .response
        .on_hover_text("pgs: sequential impulses with Baumgarte (ERP) once per step. soft: Box2D v3's sub-stepped soft contacts with a relax pass.");
    match s.solver {
        SolverKind::Pgs => {
            ui.add(egui::Slider::new(&mut s.iterations, 1..=50).text("iterations"));
            ui.add(egui::Slider::new(&mut s.erp, 0.0..=0.99999).text("ERP (per second)"));
            ui.label(format!(
                "β per step = 1 − (1 − ERP)^h = {:.3}",
                s.beta(sim.h())
            ));
            ui.add(egui::Slider::new(&mut s.sor, 0.1..=1.9).text("SOR ω"));
        }
        SolverKind::Soft => {
            ui.add(egui::Slider::new(&mut s.substeps, 1..=16).text("solver sub-steps"));
            ui.add(
                egui::Slider::new(&mut s.substep_iterations, 1..=10).text("iterations / sub-step"),
            );
            ui.add(egui::Slider::new(&mut s.contact_hertz, 5.0..=120.0).text("contact Hz"))
                .on_hover_text(
                    "The contacts' spring frequency. Held at a quarter of the sub-step rate \
                     at most, and doubled (four times the stiffness) against the ground or \
                     any body the solver cannot move, as in Box2D v3.",
                );
            ui.add(egui::Slider::new(&mut s.contact_damping_ratio, 0.0..=20.0).text("contact ζ"));
            ui.add(egui::Slider::new(&mut s.joint_hertz, 5.0..=240.0).text("joint Hz"));
            ui.checkbox(&mut s.follow_anchors, "anchors follow the bodies")
                .on_hover_text(
                    "Move contact points with the bodies every solver sub-step: momentum is \
                     conserved to round-off. Off: fixed anchors as in Box2D and rapier.",
                );
        }
    }
    ui.checkbox(&mut s.coloured, "coloured, parallel solve")
        .on_hover_text(
            "Solve the contacts colour by colour, each colour on all cores: the same result \
             on any number of cores. Off: one after another, ground contacts first.",
        );
    ui.add(egui::Slider::new(&mut s.slop, 0.0..=0.02).text("slop (m)"));
    ui.add(egui::Slider::new(&mut s.restitution_threshold, 0.0..=3.0).text("bounce above (m/s)"));
    ui.add(egui::Slider::new(&mut s.speculative_distance, 0.0..=0.1).text("speculative (m)"));
    ui.add(egui::Slider::new(&mut s.recycle_distance, 0.0..=0.05).text("recycle (m)"))
        .on_hover_text(
            "A manifold is carried with its two bodies instead of computed again while \
             they have moved less than this relative to each other, and less than half \
             the speculative distance (0: never)",
        );
    ui.checkbox(&mut s.warm_start, "warm starting");
    ui.checkbox(&mut s.sleep, "sleeping islands");
    if s != current {
        // A slider in range always validates; a refusal keeps the current settings.
        let _ = sim.set_solver_settings(s);
    }
    let stats = sim.lanes[0]
        .world
        .contacts
        .as_ref()
        .map(|c| c.stats)
        .unwrap_or_default();
    ui.label(format!(
        "{} pairs, {} contacts, {} points, {} islands, {} bodies awake",
        stats.pairs, stats.contacts, stats.points, stats.islands, stats.awake
    ));
    ui.checkbox(&mut view.contacts, "show contact points and normals");
    if let Some(friction) = sim.friction() {
        let mut mu = friction;
        ui.add(egui::Slider::new(&mut mu, 0.0..=1.5).text("friction μ (every surface)"))
            .on_hover_text(
                "the friction of every body, frame and plane; a pair uses the geometric mean",
            );
        if mu != friction
            && let Err(e) = sim.set_friction(mu)
        {
            message.set(Err(e));
        }
    }
    for (k, motor) in sim.motors() {
        let mut m = motor;
        ui.add(
            egui::Slider::new(&mut m.speed, -3.0..=3.0).text(format!("motor {k} speed (rad/s)")),
        )
        .on_hover_text("the hinge's target speed, relative to what it is hinged to");
        ui.add(
            egui::Slider::new(&mut m.max_torque, 0.0..=50000.0)
                .logarithmic(true)
                .text(format!("motor {k} max torque (N·m)")),
        );
        if m != motor
            && let Err(e) = sim.set_motor(k, m)
        {
            message.set(Err(e));
        }
    }
    ui.horizontal(|ui| {
        let dropped = ui.button("drop a box").clicked().then(|| {
            let half_extents = DVec3::splat(0.3);
            sim.spawn(Shape::Box { half_extents }, DVec3::ZERO)
        });
        let thrown = ui
            .button("throw a ball")
            .clicked()
            .then(|| sim.spawn(Shape::Sphere { radius: 0.25 }, DVec3::new(-8.0, 2.0, 0.0)));
        if let Some(Err(e)) = dropped.or(thrown) {
            message.set(Err(e));
        }
    });
}
