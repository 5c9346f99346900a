//! Joints in the view, as gizmos: anchors, hinge and slider axes with their limits, rods,
//! ropes (taut straight, slack sagging), springs as coils, the force each joint carries
//! as an arrow on its first body, and a cross where a joint broke in the last two seconds.

use bevy::prelude::*;
use glam::DVec3;

use super::colors::{BREAK_COLOR, JOINT_COLOR, JOINT_FORCE_COLOR, SLACK_COLOR};
use super::layout::lane_offset;
use super::physics::Sim;
use super::timing::Timed;
use super::view::View;
use crate::collision::Pose;
use crate::collision::geometry::tangents;
use crate::contacts::Contacts;
use crate::joints::{Joint, JointKind};

pub struct JointsPlugin;

impl Plugin for JointsPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, draw);
    }
}

/// Metres of arrow per newton carried.
const FORCE_SCALE: f64 = 0.002;
/// How long a break stays marked (s).
const BREAK_MARK: f64 = 2.0;

fn draw(sim: Res<Sim>, view: Res<View>, mut gizmos: Gizmos) {
    let _timed = Timed::start();
    if !view.joints {
        return;
    }
    for (lane, run) in sim.lanes().iter().enumerate() {
        let Some(c) = &run.world().contacts() else {
            continue;
        };
        let offset = lane_offset(&sim, lane).as_dvec3();
        let poses = Contacts::poses(run.world().bodies());
        let h = c.last_step().step_h();
        for (k, j) in c.joints().iter().enumerate() {
            let Some((pa, pb)) = run.world().joint_poses(&poses, k) else {
                continue;
            };
            let (wa, wb) = j.anchors(&pa, &pb);
            let at = |p: DVec3| (p + offset).as_vec3();
            if let Some(b) = j.broken {
                if run.world().time() - b.time < BREAK_MARK {
                    cross(&mut gizmos, at(wa), 0.12);
                }
                continue;
            }
            shape(&mut gizmos, j, (&pa, &pb), (at(wa), at(wb)));
            if view.joint_forces && h > 0.0 {
                let force = -j.linear_impulse(&j.step_impulses, &pa, &pb) / h;
                let tip = wa + force * FORCE_SCALE;
                gizmos.arrow(at(wa), at(tip), JOINT_FORCE_COLOR);
            }
        }
    }
}

/// A red cross where a joint broke.
fn cross(gizmos: &mut Gizmos, at: Vec3, size: f32) {
    for d in [Vec3::new(1.0, 1.0, 0.0), Vec3::new(1.0, -1.0, 0.0)] {
        gizmos.line(at - d * size, at + d * size, BREAK_COLOR);
    }
}

/// The joint itself, between its anchors `wa` (first body) and `wb`.
fn shape(gizmos: &mut Gizmos, j: &Joint, (pa, pb): (&Pose, &Pose), (wa, wb): (Vec3, Vec3)) {
    let ball = |g: &mut Gizmos, p: Vec3| {
        g.sphere(Isometry3d::from_translation(p), 0.03, JOINT_COLOR);
    };
    match j.kind {
        JointKind::Ball | JointKind::Fixed => ball(gizmos, wa),
        JointKind::Hinge { limits, .. } => {
            ball(gizmos, wa);
            let axis = (pa.orientation * j.axis_a).as_vec3();
            gizmos.line(wa - axis * 0.15, wa + axis * 0.15, JOINT_COLOR);
            if let Some((lo, hi)) = limits {
                // The first body's reference may turn from the second's by lo to hi.
                let reference = pb.orientation * j.ref_b;
                for angle in [lo, hi] {
                    let turn = glam::DQuat::from_axis_angle(pa.orientation * j.axis_a, angle);
                    gizmos.line(wa, wa + (turn * reference).as_vec3() * 0.2, SLACK_COLOR);
                }
            }
        }
        JointKind::Slider { limits, .. } => {
            ball(gizmos, wa);
            let axis = (pb.orientation * j.axis_b).as_vec3();
            let (lo, hi) = limits.unwrap_or((-0.5, 0.5));
            let start = wa - axis * j.travel(pa, pb) as f32;
            gizmos.line(
                start + axis * lo as f32,
                start + axis * hi as f32,
                JOINT_COLOR,
            );
        }
        JointKind::Distance { length, spring } => {
            let d = wa.distance(wb) as f64;
            match (spring, length) {
                (Some(_), _) => coil(gizmos, wa, wb),
                (None, Some((min, max))) if min < max && d < max - 0.01 => sag(gizmos, wa, wb, max),
                _ => {
                    gizmos.line(wa, wb, JOINT_COLOR);
                }
            }
            ball(gizmos, wa);
            ball(gizmos, wb);
        }
    }
}

/// A spring as a coil of twelve turns between `a` and `b`.
fn coil(gizmos: &mut Gizmos, a: Vec3, b: Vec3) {
    let (u, v) = tangents((b - a).as_dvec3().normalize_or(DVec3::Y));
    let (u, v) = (u.as_vec3() * 0.05, v.as_vec3() * 0.05);
    let points = (0..=240).map(|i| {
        let s = i as f32 / 240.0;
        let turn = s * 12.0 * std::f32::consts::TAU;
        a.lerp(b, s) + u * turn.cos() + v * turn.sin()
    });
    gizmos.linestrip(points, JOINT_COLOR);
}

/// A slack rope of length `length` between `a` and `b`: a parabola sagging downwards so
/// that its length is about the rope's.
fn sag(gizmos: &mut Gizmos, a: Vec3, b: Vec3, length: f64) {
    let d = a.distance(b) as f64;
    // A shallow parabola of span d and sag s is d + 8s²/(3d) long.
    let s = ((length - d).max(0.0) * 3.0 * d / 8.0).sqrt() as f32;
    let points = (0..=32).map(|i| {
        let t = i as f32 / 32.0;
        a.lerp(b, t) - Vec3::Y * (4.0 * s * t * (1.0 - t))
    });
    gizmos.linestrip(points, SLACK_COLOR);
}
