//! What the camera frames when a scene or a lesson opens: the box holding every lane's
//! bodies at the moment, with the ground under them, seen whole in the view's own shape,
//! with room at the top for the PAUSED banner. The lesson panel is docked beside the
//! view, so the view it frames is the part nothing covers.

use bevy::prelude::*;

use super::layout::{body_size, lane_offset, lane_spacing};
use super::physics::Sim;

/// The top of the view kept free for the PAUSED banner, as a fraction of its half height.
const BANNER: f32 = 0.22;
/// Room left around the box, as a fraction of the view's half width and half height.
const MARGIN: f32 = 0.9;

/// The box, in world coordinates, holding every lane's bodies as they stand, with their
/// ω and L arrows (at most 1.4 body sizes from the centre at the start), and the
/// horizontal ground planes under them (the floor a ball bounces on).
pub fn scene_box(lab: &Sim) -> (Vec3, Vec3) {
    let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
    for (i, run) in lab.lanes().iter().enumerate() {
        let offset = lane_offset(lab, i);
        for b in run.world().bodies() {
            let (c, r) = (b.state.position.as_vec3() + offset, 1.4 * body_size(b));
            (lo, hi) = (lo.min(c - r), hi.max(c + r));
        }
    }
    if !lo.is_finite() {
        return (Vec3::splat(-0.5), Vec3::splat(0.5));
    }
    let planes = lab.world().contacts().into_iter().flat_map(|c| c.planes());
    for p in planes.filter(|p| p.normal.y > 0.9) {
        let ground = (p.offset / p.normal.y) as f32;
        if ground <= lo.y {
            lo.y = ground;
        }
    }
    // A single narrow lane keeps its neighbours' room, so its arrows are not cut.
    let half = 0.5 * lane_spacing(lab).min(hi.x - lo.x + 1.0);
    let mid = 0.5 * (lo.x + hi.x);
    (
        Vec3::new(lo.x.min(mid - half), lo.y, lo.z),
        Vec3::new(hi.x.max(mid + half), hi.y, hi.z),
    )
}

/// The shortest camera distance, from `focus` at `rotation` (the camera's), at which
/// every corner of the box lies in a view of vertical field `fov` and width over height
/// `aspect`, below the banner and within the margin.
pub fn fit_distance(
    (lo, hi): (Vec3, Vec3),
    focus: Vec3,
    rotation: Quat,
    fov: f32,
    aspect: f32,
) -> f32 {
    let tan = (0.5 * fov).tan();
    let corners: Vec<Vec3> = (0..8)
        .map(|k| {
            let pick = |bit: usize, a: f32, b: f32| if k & bit == 0 { a } else { b };
            Vec3::new(
                pick(1, lo.x, hi.x),
                pick(2, lo.y, hi.y),
                pick(4, lo.z, hi.z),
            )
        })
        .collect();
    let inverse = rotation.inverse();
    let seen = |distance: f32| {
        let eye = focus + rotation * Vec3::Z * distance;
        corners.iter().all(|&c| {
            let v = inverse * (c - eye);
            let depth = -v.z;
            depth > 0.0
                && v.x.abs() <= MARGIN * tan * aspect * depth
                && v.y <= (1.0 - BANNER) * tan * depth
                && -v.y <= MARGIN * tan * depth
        })
    };
    let mut distance = 0.05 * (hi - lo).length().max(0.1);
    while !seen(distance) && distance < 5000.0 {
        distance *= 1.03;
    }
    distance
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::Lab;
    use crate::scene::Scene;

    /// The restitution lesson's box runs from the floor to above the ball (its arrows'
    /// room), and at the distance found that top is below the banner and the floor in
    /// the view, nearer than the framing that put the ball at the view's top edge (2.8
    /// times the scene's radius).
    #[test]
    fn the_whole_bounce_is_framed_below_the_banner() {
        let mut lab = Lab::new(Scene::load("free-body").unwrap());
        let lesson = crate::lesson::load("restitution").unwrap();
        crate::lesson::walk::Walk::start(lesson, &mut lab).unwrap();
        assert_eq!(lab.lanes().len(), 1);
        let lab = Sim::new(lab);
        let (lo, hi) = scene_box(&lab);
        assert!(lo.y.abs() < 1e-6 && (hi.y - 2.28).abs() < 1e-5, "{lo} {hi}");
        let rotation = Quat::from_euler(EulerRot::YXZ, 0.0, -0.42, 0.0);
        let focus = 0.5 * (lo + hi);
        let fov = std::f32::consts::FRAC_PI_4;
        let d = fit_distance((lo, hi), focus, rotation, fov, 1.4);
        let height = |p: Vec3| {
            let v = rotation.inverse() * (p - (focus + rotation * Vec3::Z * d));
            v.y / -v.z / (0.5 * fov).tan()
        };
        let (top, floor) = (Vec3::new(0.0, 2.28, 0.0), Vec3::ZERO);
        assert!(height(top) <= 1.0 - BANNER, "{}", height(top));
        assert!(height(floor) >= -1.0, "{}", height(floor));
        assert!(d < 2.8 * lab.scale().radius() as f32, "{d}");
    }
}
