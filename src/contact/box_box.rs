//! Box against box: the separating-axis test over the 15 candidate axes, then, for a face
//! axis, the incident face clipped against the reference face's sides (up to eight
//! points, reduced to four); for an edge axis, the closest points of the two edges.

use glam::{DMat3, DVec3};

use super::geometry::{Geom, closest_segments};
use super::manifold::{Manifold, reduce};

/// Edge axes win only if clearly better than the best face axis, and the second box's
/// faces only if clearly better than the first's: near-ties otherwise flip the manifold
/// (and its feature ids) from step to step, warm starting is lost and a stack jitters.
const EDGE_BIAS: f64 = 1e-3;
const FACE_BIAS: f64 = 1e-3;

/// Incident points this far outside a side of the reference face (relative to its
/// half-width) are kept as they are: aligned boxes then keep their corner ids instead of
/// swapping corners for clipped points with every round-off.
const CLIP_TOLERANCE: f64 = 1e-3;

pub fn box_box(a: &Geom, b: &Geom, margin: f64) -> Option<Manifold> {
    let (
        &Geom::Box {
            center: ca,
            axes: ra,
            half: ha,
        },
        &Geom::Box {
            center: cb,
            axes: rb,
            half: hb,
        },
    ) = (a, b)
    else {
        unreachable!("box_box takes two boxes");
    };
    let d = cb - ca;
    let separation = |l: DVec3| {
        let pa = ha.x * l.dot(ra.x_axis).abs()
            + ha.y * l.dot(ra.y_axis).abs()
            + ha.z * l.dot(ra.z_axis).abs();
        let pb = hb.x * l.dot(rb.x_axis).abs()
            + hb.y * l.dot(rb.y_axis).abs()
            + hb.z * l.dot(rb.z_axis).abs();
        l.dot(d).abs() - pa - pb
    };
    // Best face axis: (separation, axis, which box owns the face, axis number).
    let mut face = (f64::NEG_INFINITY, DVec3::X, 0usize, 0usize);
    for (owner, r) in [ra, rb].into_iter().enumerate() {
        for i in 0..3 {
            let l = r.col(i);
            let s = separation(l);
            if s > margin {
                return None;
            }
            let bias = if owner == 0 { 1e-9 } else { FACE_BIAS };
            if s > face.0 + bias {
                face = (s, l, owner, i);
            }
        }
    }
    let mut edge = (f64::NEG_INFINITY, DVec3::X, 0usize, 0usize);
    for i in 0..3 {
        for j in 0..3 {
            let c = ra.col(i).cross(rb.col(j));
            let len = c.length();
            if len < 1e-6 {
                continue;
            }
            let l = c / len;
            let s = separation(l);
            if s > margin {
                return None;
            }
            if s > edge.0 {
                edge = (s, l, i, j);
            }
        }
    }
    if edge.0 > face.0 + EDGE_BIAS {
        let (_, l, i, j) = edge;
        let n = if l.dot(d) < 0.0 { -l } else { l };
        return Some(edge_contact((ca, ra, ha), (cb, rb, hb), n, i, j));
    }
    let (_, l, owner, axis) = face;
    let n = if l.dot(d) < 0.0 { -l } else { l };
    if owner == 0 {
        face_contact((ca, ra, ha), (cb, rb, hb), n, axis, margin)
    } else {
        face_contact((cb, rb, hb), (ca, ra, ha), -n, axis, margin).map(Manifold::flipped)
    }
}

type BoxPose = (DVec3, DMat3, DVec3);

/// `n` is the reference box's face normal `axis` pointing toward the incident box.
fn face_contact(
    (cr, rr, hr): BoxPose,
    (ci, ri, hi): BoxPose,
    n: DVec3,
    axis: usize,
    margin: f64,
) -> Option<Manifold> {
    let sign = if n.dot(rr.col(axis)) > 0.0 { 1.0 } else { 0.0 };
    let ref_face = (axis * 2) as u32 + sign as u32;
    let face_center = cr + n * hr[axis];
    let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
    let (du, dv) = (rr.col(u), rr.col(v));
    // The incident face: the one most opposed to n.
    let k = (0..3)
        .max_by(|&x, &y| ri.col(x).dot(n).abs().total_cmp(&ri.col(y).dot(n).abs()))
        .unwrap_or(0);
    let inc_sign = if ri.col(k).dot(n) > 0.0 { -1.0 } else { 1.0 };
    let inc_face = (k * 2) as u32 + if inc_sign > 0.0 { 1 } else { 0 };
    let inc_center = ci + ri.col(k) * (inc_sign * hi[k]);
    let (a1, a2) = ((k + 1) % 3, (k + 2) % 3);
    let (e1, e2) = (ri.col(a1) * hi[a1], ri.col(a2) * hi[a2]);
    let mut poly: Vec<(DVec3, u32)> = vec![
        (inc_center + e1 + e2, 0),
        (inc_center - e1 + e2, 1),
        (inc_center - e1 - e2, 2),
        (inc_center + e1 - e2, 3),
    ];
    for (plane, (dir, ext)) in [(du, hr[u]), (-du, hr[u]), (dv, hr[v]), (-dv, hr[v])]
        .into_iter()
        .enumerate()
    {
        let offset = dir.dot(face_center) + ext * (1.0 + CLIP_TOLERANCE);
        poly = clip(&poly, dir, offset, plane as u32);
        if poly.is_empty() {
            return None;
        }
    }
    let candidates: Vec<(DVec3, f64, u32)> = poly
        .into_iter()
        .filter_map(|(p, id)| {
            let sep = n.dot(p - face_center);
            (sep <= margin).then(|| {
                (
                    p - n * (0.5 * sep),
                    sep,
                    ref_face << 24 | inc_face << 16 | id,
                )
            })
        })
        .collect();
    let kept = reduce(&candidates, n);
    if kept.is_empty() {
        return None;
    }
    let mut m = Manifold::new(n);
    for (p, s, id) in kept {
        m.push(p, s, id);
    }
    Some(m)
}

/// Sutherland–Hodgman against `dir · p ≤ offset`. A new vertex's id is derived from its
/// edge's end ids and the plane, so the same configuration gives the same ids.
fn clip(poly: &[(DVec3, u32)], dir: DVec3, offset: f64, plane: u32) -> Vec<(DVec3, u32)> {
    let mut out = Vec::with_capacity(poly.len() + 2);
    for i in 0..poly.len() {
        let (p, ip) = poly[i];
        let (q, iq) = poly[(i + 1) % poly.len()];
        let (dp, dq) = (dir.dot(p) - offset, dir.dot(q) - offset);
        if dp <= 0.0 {
            out.push((p, ip));
        }
        if (dp < 0.0) != (dq < 0.0) && (dp - dq).abs() > 1e-300 {
            let t = dp / (dp - dq);
            let id =
                (ip.wrapping_mul(31) ^ iq.wrapping_mul(7) ^ (plane + 1) << 12) & 0xFFFF | 0x100;
            out.push((p + (q - p) * t, id));
        }
    }
    out
}

/// Edge against edge: the closest points of A's edge along axis `i` and B's along `j`
/// that lie furthest toward each other.
fn edge_contact(
    (ca, ra, ha): BoxPose,
    (cb, rb, hb): BoxPose,
    n: DVec3,
    i: usize,
    j: usize,
) -> Manifold {
    let edge = |c: DVec3, r: DMat3, h: DVec3, axis: usize, toward: DVec3| {
        let mut mid = c;
        for k in 0..3 {
            if k != axis {
                let col = r.col(k);
                mid += col * (h[k] * col.dot(toward).signum());
            }
        }
        let half = r.col(axis) * h[axis];
        (mid - half, mid + half)
    };
    let (p1, q1) = edge(ca, ra, ha, i, n);
    let (p2, q2) = edge(cb, rb, hb, j, -n);
    let (s, t) = closest_segments(p1, q1, p2, q2);
    let (pa, pb) = (p1 + (q1 - p1) * s, p2 + (q2 - p2) * t);
    let sep = n.dot(pb - pa);
    let mut m = Manifold::new(n);
    m.push(0.5 * (pa + pb), sep, 1 << 30 | (i * 3 + j) as u32);
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DQuat;

    fn cube(center: DVec3, q: DQuat) -> Geom {
        Geom::Box {
            center,
            axes: DMat3::from_quat(q),
            half: DVec3::splat(0.5),
        }
    }

    #[test]
    fn stacked_cubes_touch_at_four_corners() {
        let a = cube(DVec3::ZERO, DQuat::IDENTITY);
        let b = cube(DVec3::new(0.1, 0.99, 0.0), DQuat::from_rotation_y(0.3));
        let m = box_box(&a, &b, 0.02).unwrap();
        assert_eq!(m.len, 4);
        assert!((m.normal - DVec3::Y).length() < 1e-12);
        for p in m.points() {
            assert!((p.separation + 0.01).abs() < 1e-12);
        }
        let ids: std::collections::HashSet<u32> = m.points().iter().map(|p| p.id).collect();
        assert_eq!(ids.len(), 4, "ids must be unique");
        // Same contact seen the other way: normal flips, same depth.
        let m2 = box_box(&b, &a, 0.02).unwrap();
        assert!((m2.normal + DVec3::Y).length() < 1e-12);
    }

    #[test]
    fn crossed_edges_meet_at_one_point() {
        let a = cube(
            DVec3::ZERO,
            DQuat::from_rotation_x(std::f64::consts::FRAC_PI_4),
        );
        let b = cube(
            DVec3::new(0.0, 2f64.sqrt() - 0.01, 0.0),
            DQuat::from_rotation_z(std::f64::consts::FRAC_PI_4),
        );
        let m = box_box(&a, &b, 0.0).unwrap();
        assert_eq!(m.len, 1);
        assert!((m.normal - DVec3::Y).length() < 1e-9, "{}", m.normal);
        assert!((m.points[0].separation + 0.01).abs() < 1e-9);
    }

    #[test]
    fn separated_boxes_beyond_the_margin_do_not_touch() {
        let a = cube(DVec3::ZERO, DQuat::IDENTITY);
        let b = cube(DVec3::new(1.1, 0.0, 0.0), DQuat::IDENTITY);
        assert!(box_box(&a, &b, 0.05).is_none());
        assert_eq!(box_box(&a, &b, 0.2).map(|m| m.len), Some(4));
    }
}
