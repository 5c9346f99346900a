//! Contact scenes in the view: the ground planes, contact points and normals, and the
//! sleeping bodies, as gizmos. The Solver panel is in `solver_panel.rs`.

use bevy::prelude::*;

use super::colors::{CONTACT_COLOR, GROUND_COLOR, SLEEP_TINT};
use super::layout::lane_offset;
use super::physics::Sim;
use super::timing::Timed;
use super::view::View;
use crate::collision::geometry::tangents;

pub struct ContactsPlugin;

impl Plugin for ContactsPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, draw);
    }
}

fn draw(sim: Res<Sim>, view: Res<View>, mut gizmos: Gizmos) {
    let _timed = Timed::start();
    for (lane, run) in sim.lanes().iter().enumerate() {
        let Some(contacts) = &run.world().contacts() else {
            continue;
        };
        let offset = lane_offset(&sim, lane);
        // 1 m squares, enough to reach past the scene.
        let cells = (2.0 * sim.scale().radius()).ceil().max(24.0) as u32;
        for plane in contacts.planes() {
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
        for contact in contacts.graph().values() {
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
        for (i, body) in run.world().bodies().iter().enumerate() {
            if contacts.is_asleep(i) {
                let at = body.state.position.as_vec3() + offset;
                gizmos.sphere(Isometry3d::from_translation(at), 0.08, SLEEP_TINT);
            }
        }
    }
}
