//! The Solver panel of the control panel, for scenes with contacts: every solver setting
//! live, what the detection found, friction and the hinges' motors, and buttons that drop
//! and throw bodies. The contacts' gizmos are in `contact_gizmos.rs`.

use crate::lab::Input;
use bevy_egui::egui;
use glam::DVec3;

use crate::body::inertia::Shape;
use crate::solver::{JointSolver, SolverKind, SolverSettings};

use super::physics::Sim;
use super::view::{Message, View};

/// The solver panel: shown for scenes with contacts. The settings are edited on a copy,
/// applied to every lane at once when one changed.
pub fn show(ui: &mut egui::Ui, sim: &mut Sim, view: &mut View, message: &mut Message) {
    let Some(current) = sim.world().contacts().map(|c| *c.settings()) else {
        ui.label("This scene has no contacts.");
        return;
    };
    let mut s = current;
    solver_choice(ui, &mut s);
    match s.solver {
        SolverKind::Pgs => pgs_settings(ui, &mut s, sim.h()),
        SolverKind::Soft => soft_settings(ui, &mut s),
    }
    shared_settings(ui, &mut s);
    if s != current {
        // A slider in range always validates; a refusal keeps the current settings.
        let _ = sim.apply(Input::SetSolverSettings(s));
    }
    counts(ui, sim);
    ui.checkbox(&mut view.contacts, "show contact points and normals");
    joints(ui, sim);
    friction(ui, sim, message);
    motors(ui, sim, message);
    spawn_buttons(ui, sim, message);
}

/// The solver's kind, with what each does on hover.
fn solver_choice(ui: &mut egui::Ui, s: &mut SolverSettings) {
    egui::ComboBox::from_label("solver")
        .selected_text(s.solver.name())
        .show_ui(ui, |ui| {
            for k in SolverKind::ALL {
                ui.selectable_value(&mut s.solver, k, k.name());
            }
        })
        .response
        .on_hover_text("pgs: sequential impulses with Baumgarte (ERP) once per step. soft: Box2D v3's sub-stepped soft contacts with a relax pass.");
}

/// The PGS solver's own settings; the ERP's β is per integrator step of `h`.
fn pgs_settings(ui: &mut egui::Ui, s: &mut SolverSettings, h: f64) {
    ui.add(egui::Slider::new(&mut s.iterations, 1..=50).text("iterations"));
    ui.add(egui::Slider::new(&mut s.erp, 0.0..=0.99999).text("ERP (per second)"));
    ui.label(format!("β per step = 1 − (1 − ERP)^h = {:.3}", s.beta(h)));
    ui.add(egui::Slider::new(&mut s.sor, 0.1..=1.9).text("SOR ω"));
}

/// The soft solver's own settings: sub-steps, the contacts' and joints' springs.
fn soft_settings(ui: &mut egui::Ui, s: &mut SolverSettings) {
    ui.add(egui::Slider::new(&mut s.substeps, 1..=16).text("solver sub-steps"));
    ui.add(egui::Slider::new(&mut s.substep_iterations, 1..=10).text("iterations / sub-step"));
    ui.add(egui::Slider::new(&mut s.contact_hertz, 5.0..=120.0).text("contact Hz"))
        .on_hover_text(
            "The contacts' spring frequency. Held at 3/16 of the sub-step rate at \
             most (45 Hz at 4 sub-steps of a 60 Hz step), and doubled (four times the \
             stiffness) against the ground or any body the solver cannot move, as in \
             Box2D v3.",
        );
    ui.add(egui::Slider::new(&mut s.contact_damping_ratio, 0.0..=20.0).text("contact ζ"));
    ui.add(egui::Slider::new(&mut s.joint_hertz, 5.0..=240.0).text("joint Hz"));
    ui.checkbox(&mut s.follow_anchors, "anchors follow the bodies")
        .on_hover_text(
            "Move contact points with the bodies every solver sub-step: momentum is \
             conserved to round-off. Off: fixed anchors as in Box2D and rapier.",
        );
}

/// The settings both solvers share: ordering, distances, warm starting, sleeping.
fn shared_settings(ui: &mut egui::Ui, s: &mut SolverSettings) {
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
}

/// How the joints' points are solved, for scenes that have joints.
fn joints(ui: &mut egui::Ui, sim: &mut Sim) {
    let Some(c) = &sim.world().contacts() else {
        return;
    };
    if c.joints().is_empty() {
        return;
    }
    let (loops, singular) = (
        c.last_step().direct_loops().len(),
        c.last_step().direct_singular().len(),
    );
    let mut s = *c.settings();
    egui::ComboBox::from_label("joint solver")
        .selected_text(s.joint_solver.name())
        .show_ui(ui, |ui| {
            for k in JointSolver::ALL {
                ui.selectable_value(&mut s.joint_solver, k, k.name());
            }
        })
        .response
        .on_hover_text(
            "iterative: each joint's rows on their own, with the contacts (sequential \
             impulses). direct: the rows that hold each tree of joints together, all at \
             once and exactly, in linear time (Baraff's Lagrange multipliers); limits, \
             motors, springs and ropes stay iterative.",
        );
    if s.joint_solver == JointSolver::Direct && loops > 0 {
        ui.label(format!(
            "{loops} joint(s) close a loop and are solved iteratively"
        ));
    }
    if s.joint_solver == JointSolver::Direct && singular > 0 {
        ui.label(format!(
            "{singular} joint(s) have rows that depend on each other and are solved iteratively"
        ));
    }
    if s != *c.settings() {
        let _ = sim.apply(Input::SetSolverSettings(s));
    }
}

/// What the first lane's detection and islands hold now.
fn counts(ui: &mut egui::Ui, sim: &Sim) {
    let stats = sim
        .world()
        .contacts()
        .map(|c| *c.stats())
        .unwrap_or_default();
    ui.label(format!(
        "{} pairs, {} contacts, {} points solved, {} islands and {} bodies awake",
        stats.pairs, stats.contacts, stats.points, stats.islands, stats.awake
    ));
}

/// One friction for every surface, starting from the lab's (none: no slider).
fn friction(ui: &mut egui::Ui, sim: &mut Sim, message: &mut Message) {
    let Some(friction) = sim.friction() else {
        return;
    };
    let mut mu = friction;
    ui.add(egui::Slider::new(&mut mu, 0.0..=1.5).text("friction μ (every surface)"))
        .on_hover_text(
            "the friction of every body, frame and plane; a pair uses the geometric mean",
        );
    if mu != friction
        && let Err(e) = sim.apply(Input::SetFriction(mu))
    {
        message.set(Err(e));
    }
}

/// Each hinge motor's speed and torque limit; a refusal is the panel's message.
fn motors(ui: &mut egui::Ui, sim: &mut Sim, message: &mut Message) {
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
            && let Err(e) = sim.apply(Input::SetMotor { joint: k, motor: m })
        {
            message.set(Err(e));
        }
    }
}

/// Drop a box from above or throw a ball from the side, into every lane.
fn spawn_buttons(ui: &mut egui::Ui, sim: &mut Sim, message: &mut Message) {
    ui.horizontal(|ui| {
        let dropped = ui.button("drop a box").clicked().then(|| {
            let half_extents = DVec3::splat(0.3);
            sim.apply(Input::Spawn {
                shape: Shape::Box { half_extents },
                velocity: DVec3::ZERO,
                position: None,
            })
        });
        let thrown = ui.button("throw a ball").clicked().then(|| {
            sim.apply(Input::Spawn {
                shape: Shape::Sphere { radius: 0.25 },
                velocity: DVec3::new(-8.0, 2.0, 0.0),
                position: None,
            })
        });
        if let Some(Err(e)) = dropped.or(thrown) {
            message.set(Err(e));
        }
    });
}
