//! Box against box: the separating-axis test over the 15 candidate axes, then, for a face
//! axis, the incident face clipped against the reference face's sides (up to eight
//! points, reduced to four); for an edge axis, the closest points of the two edges.

use arrayvec::ArrayVec;
use glam::{DMat3, DVec3};

use crate::collision::geometry::{Geom, closest_segments};
use crate::collision::manifold::{
    Candidates, ContactPoint, MAX_CANDIDATES, Manifold, Side, reduce,
};

/// The second box's faces win only if clearly better than the first's: near-ties
/// otherwise flip the manifold (and its feature ids) from step to step, warm starting is
/// lost and a stack jitters.
const FACE_BIAS: f64 = 1e-3;

/// Two edges make the manifold only if their separation beats the face contact's deepest
/// clipped point by these (relative, then absolute in m): with two boxes resting face on
/// face at a small angle, edge axes between the two faces' normals come out a little
/// better than either face axis, and a one-point edge contact then held the box at one
/// corner, 18 mm deep, jumping between edge pairs every step (seen in the 1,000-box heap,
/// which crept on and never slept). Comparing with the clipped points, not the face axis,
/// and these tolerances are Gregorius's ("Robust Contact Creation for Physics
/// Simulations", GDC 2015; Catto's box3d compares a hull's edges with the clipped face
/// contact the same way). Gregorius states the relative part for penetration; for a
/// speculative contact (a positive separation) it is taken of the gap here.
const EDGE_RELATIVE: f64 = 0.9;
const EDGE_ABSOLUTE: f64 = 2.5e-3;

/// How much better (m of separation) the other box's best face axis must be than the
/// face axis the pair's last manifold used (and [`FACE_BIAS`] more, 3 mm in all, to
/// switch to the second box's face).
/// Two boxes resting on each other at a small angle have two face axes within a
/// millimetre of each other; picking them in turn clips the faces against different
/// reference planes, so the points, their ids and their warm starts change every step,
/// and the box jitters and creeps (seen in the 1,000-box heap, which then never slept).
/// Keeping the last choice unless another is clearly better is the temporal coherence
/// of Gregorius, "Robust Contact Creation for Physics Simulations" (GDC 2015).
const HYSTERESIS: f64 = 2e-3;

/// Set in the point ids of a face manifold whose reference face is the second box's.
const SECOND_REFERENCE: u32 = 1 << 31;
/// Set in the point id of an edge manifold.
const EDGE: u32 = 1 << 30;

/// Which axis a box-box manifold was made on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reference {
    FirstFace,
    SecondFace,
    Edges,
}

impl Reference {
    /// What the manifold's ids say it was made on.
    fn of(m: &Manifold) -> Option<Self> {
        let id = m.points().first()?.id;
        Some(if id & EDGE != 0 {
            Self::Edges
        } else if id & SECOND_REFERENCE != 0 {
            Self::SecondFace
        } else {
            Self::FirstFace
        })
    }
}

/// Incident points this far outside a side of the reference face (relative to its
/// half-width) are kept as they are: aligned boxes then keep their corner ids instead of
/// swapping corners for clipped points with every round-off.
const CLIP_TOLERANCE: f64 = 1e-3;

/// The manifold of two boxes within `margin`; `last` is the pair's manifold of the last
/// step, if any, whose kind of axis is kept unless another is clearly better.
pub fn box_box(a: &Geom, b: &Geom, margin: f64, last: Option<&Manifold>) -> Option<Manifold> {
    let (Some(a), Some(b)) = (pose_of(a), pose_of(b)) else {
        unreachable!("box_box takes two boxes");
    };
    let axes = best_axes(a, b, margin)?;
    let face = face_manifold(a, b, &axes, margin, last);
    let (s, l, i, j) = axes.edge;
    if s > f64::NEG_INFINITY && face.as_ref().is_none_or(|m| edges_win(s, m, &axes)) {
        let n = if l.dot(b.0 - a.0) < 0.0 { -l } else { l };
        return Some(edge_contact(a, b, n, i, j));
    }
    face
}

/// Which body's face a box-box manifold was made on: none for an edge contact, whose
/// normal is fixed in neither box.
pub fn face_of(m: &Manifold) -> Option<Side> {
    match Reference::of(m)? {
        Reference::FirstFace => Some(Side::First),
        Reference::SecondFace => Some(Side::Second),
        Reference::Edges => None,
    }
}

type BoxPose = (DVec3, DMat3, DVec3);

fn pose_of(g: &Geom) -> Option<BoxPose> {
    match *g {
        Geom::Box { center, axes, half } => Some((center, axes, half)),
        _ => None,
    }
}

/// The best separating axes found: each box's best face axis and the best edge pair,
/// each as (separation, axis, then the axis numbers).
struct Axes {
    faces: [(f64, DVec3, usize); 2],
    edge: (f64, DVec3, usize, usize),
}

/// The separating-axis test over the 15 candidate axes; none when one separates the
/// boxes by more than `margin`. Each axis's separation is read off the nine cosines
/// between the boxes' axes and the centres' offset in a's axes, computed once (Gottschalk,
/// Lin and Manocha, "OBBTree", 1996; Ericson, "Real-Time Collision Detection", 4.4.1),
/// instead of projecting both boxes on each axis anew; an edge axis's separation is
/// divided by the length of its cross product, so every separation is in metres.
fn best_axes((ca, ra, ha): BoxPose, (cb, rb, hb): BoxPose, margin: f64) -> Option<Axes> {
    let d = cb - ca;
    // cos[i][j] = a's axis i · b's axis j; t: the offset along a's axes, u: along b's.
    let cos: [[f64; 3]; 3] =
        std::array::from_fn(|i| std::array::from_fn(|j| ra.col(i).dot(rb.col(j))));
    let abs = cos.map(|row| row.map(f64::abs));
    let t: [f64; 3] = std::array::from_fn(|i| d.dot(ra.col(i)));
    let u: [f64; 3] = std::array::from_fn(|j| d.dot(rb.col(j)));
    let mut faces = [(f64::NEG_INFINITY, DVec3::X, 0usize); 2];
    for i in 0..3 {
        let pb = hb.x * abs[i][0] + hb.y * abs[i][1] + hb.z * abs[i][2];
        let s = t[i].abs() - ha[i] - pb;
        if s > margin {
            return None;
        }
        if s > faces[0].0 {
            faces[0] = (s, ra.col(i), i);
        }
    }
    for j in 0..3 {
        let pa = ha.x * abs[0][j] + ha.y * abs[1][j] + ha.z * abs[2][j];
        let s = u[j].abs() - pa - hb[j];
        if s > margin {
            return None;
        }
        if s > faces[1].0 {
            faces[1] = (s, rb.col(j), j);
        }
    }
    let mut edge = (f64::NEG_INFINITY, 0usize, 0usize);
    for i in 0..3 {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        for j in 0..3 {
            // |a_i × b_j|² = (a_i1 · b_j)² + (a_i2 · b_j)², the same cosines as the
            // rest of the axis (1 − (a_i · b_j)² cancels for nearly parallel edges);
            // parallel edges give no axis.
            let len2 = cos[i1][j] * cos[i1][j] + cos[i2][j] * cos[i2][j];
            if len2 < 1e-12 {
                continue;
            }
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            let along = t[i2] * cos[i1][j] - t[i1] * cos[i2][j];
            let pa = ha[i1] * abs[i2][j] + ha[i2] * abs[i1][j];
            let pb = hb[j1] * abs[i][j2] + hb[j2] * abs[i][j1];
            let s = (along.abs() - pa - pb) / libm::sqrt(len2);
            if s > margin {
                return None;
            }
            if s > edge.0 {
                edge = (s, i, j);
            }
        }
    }
    let (s, i, j) = edge;
    let axis = ra.col(i).cross(rb.col(j)).normalize_or(DVec3::X);
    Some(Axes {
        faces,
        edge: (s, axis, i, j),
    })
}

/// The face contact on the better face axis, the one the last manifold used kept unless
/// the other is better by [`HYSTERESIS`] (and its points kept where they tie).
fn face_manifold(
    a: BoxPose,
    b: BoxPose,
    axes: &Axes,
    margin: f64,
    last: Option<&Manifold>,
) -> Option<Manifold> {
    let points = last.map_or(&[][..], Manifold::points);
    let last = last.and_then(Reference::of);
    let score = |kind: Reference, s: f64, bias: f64| {
        if last == Some(kind) {
            s + HYSTERESIS
        } else {
            s - bias
        }
    };
    let d = b.0 - a.0;
    let toward_b = |l: DVec3| if l.dot(d) < 0.0 { -l } else { l };
    let first = score(Reference::FirstFace, axes.faces[0].0, 0.0);
    let second = score(Reference::SecondFace, axes.faces[1].0, FACE_BIAS);
    if first >= second {
        let (_, l, axis) = axes.faces[0];
        face_contact(a, b, (toward_b(l), axis), margin, (points, 0))
    } else {
        let (_, l, axis) = axes.faces[1];
        let last = (points, SECOND_REFERENCE);
        face_contact(b, a, (-toward_b(l), axis), margin, last).map(Manifold::flipped)
    }
}

/// Whether the edge axis's separation `edge` beats the face contact `face` by
/// [`EDGE_RELATIVE`] and [`EDGE_ABSOLUTE`], measured against its deepest clipped point
/// where it has several (against the better face axis for a one-point contact).
fn edges_win(edge: f64, face: &Manifold, axes: &Axes) -> bool {
    let face_separation = if face.len > 1 {
        face.points()
            .iter()
            .map(|p| p.separation)
            .fold(f64::MAX, f64::min)
    } else {
        axes.faces[0].0.max(axes.faces[1].0)
    };
    // Better by a fraction of the depth (of the gap, for a speculative contact) and more.
    let needed = (1.0 - EDGE_RELATIVE) * face_separation.abs() + EDGE_ABSOLUTE;
    edge > face_separation + needed
}

/// `n` is the reference box's face normal `axis` pointing toward the incident box; `last`
/// the points of the pair's last manifold, kept where they tie (see [`reduce`]), and the
/// bits set in every point's id.
fn face_contact(
    (cr, rr, hr): BoxPose,
    (ci, ri, hi): BoxPose,
    (n, axis): (DVec3, usize),
    margin: f64,
    (last, id_bits): (&[ContactPoint], u32),
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
    // Clipped from one buffer into the other and back: the polygons stay where they are
    // (returned by value, each clip copied its whole buffer).
    let (mut poly, mut next) = (Polygon::new(), Polygon::new());
    poly.extend([
        (inc_center + e1 + e2, 0),
        (inc_center - e1 + e2, 1),
        (inc_center - e1 - e2, 2),
        (inc_center + e1 - e2, 3),
    ]);
    let (mut poly, mut next) = (&mut poly, &mut next);
    for (plane, (dir, ext)) in [(du, hr[u]), (-du, hr[u]), (dv, hr[v]), (-dv, hr[v])]
        .into_iter()
        .enumerate()
    {
        let offset = dir.dot(face_center) + ext * (1.0 + CLIP_TOLERANCE);
        clip(poly, (dir, offset, plane as u32), next);
        if next.is_empty() {
            return None;
        }
        std::mem::swap(&mut poly, &mut next);
    }
    let candidates: Candidates = (poly.iter().copied())
        .filter_map(|(p, id)| {
            let sep = n.dot(p - face_center);
            (sep <= margin).then(|| {
                (
                    p - n * (0.5 * sep),
                    sep,
                    id_bits | ref_face << 24 | inc_face << 16 | id,
                )
            })
        })
        .collect();
    let kept = reduce(&candidates, n, last);
    if kept.is_empty() {
        return None;
    }
    let mut m = Manifold::new(n);
    for (p, s, id) in kept {
        m.push(p, s, id);
    }
    Some(m)
}

/// An incident face's corners as the side planes clip it, with their feature ids.
type Polygon = ArrayVec<(DVec3, u32), MAX_CANDIDATES>;

/// Sutherland–Hodgman against `dir · p ≤ offset`, into `out`. A new vertex's id is derived
/// from its edge's end ids and the plane, so the same configuration gives the same ids. A
/// convex polygon gains at most one corner; a corner beyond the room (which only rounding
/// could make) is left out.
fn clip(poly: &[(DVec3, u32)], (dir, offset, plane): (DVec3, f64, u32), out: &mut Polygon) {
    out.clear();
    for i in 0..poly.len() {
        let (p, ip) = poly[i];
        let (q, iq) = poly[(i + 1) % poly.len()];
        let (dp, dq) = (dir.dot(p) - offset, dir.dot(q) - offset);
        if dp <= 0.0 {
            let _ = out.try_push((p, ip));
        }
        if (dp < 0.0) != (dq < 0.0) && (dp - dq).abs() > 1e-300 {
            let t = dp / (dp - dq);
            let id =
                (ip.wrapping_mul(31) ^ iq.wrapping_mul(7) ^ (plane + 1) << 12) & 0xFFFF | 0x100;
            let _ = out.try_push((p + (q - p) * t, id));
        }
    }
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
    m.push(0.5 * (pa + pb), sep, EDGE | (i * 3 + j) as u32);
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

    /// Each axis's separation read off the cosines equals the boxes' projections on that
    /// axis, measured directly (each box's half-extents on the unit axis, less the
    /// centres' distance along it), on random pairs of boxes near each other: the same
    /// best axes, separations within 1e-12 m, and the same verdict where one separates.
    #[test]
    fn the_cosines_give_each_axis_s_separation() {
        let mut seed = 5u64;
        let mut rand = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut vector = |scale: f64| DVec3::new(rand() - 0.5, rand() - 0.5, rand() - 0.5) * scale;
        let projected = |(ca, ra, ha): BoxPose, (cb, rb, hb): BoxPose, l: DVec3| {
            let half =
                |r: DMat3, h: DVec3| (0..3).map(|k| h[k] * l.dot(r.col(k)).abs()).sum::<f64>();
            l.dot(cb - ca).abs() - half(ra, ha) - half(rb, hb)
        };
        let (mut touching, mut apart) = (0, 0);
        for _ in 0..2000 {
            let mut turn = || DQuat::from_scaled_axis(vector(7.0));
            let (qa, qb) = (turn(), turn());
            let a = (
                vector(2.0),
                DMat3::from_quat(qa),
                vector(1.0).abs() + DVec3::splat(0.1),
            );
            let b = (
                vector(2.0),
                DMat3::from_quat(qb),
                vector(1.0).abs() + DVec3::splat(0.1),
            );
            let margin = 0.05;
            let Some(axes) = best_axes(a, b, margin) else {
                // Separated: some axis of the fifteen shows a gap beyond the margin.
                let mut all = (0..3)
                    .flat_map(|i| [a.1.col(i), b.1.col(i)])
                    .collect::<Vec<_>>();
                for i in 0..3 {
                    for j in 0..3 {
                        let c = a.1.col(i).cross(b.1.col(j));
                        if c.length_squared() > 1e-12 {
                            all.push(c.normalize());
                        }
                    }
                }
                assert!(all.iter().any(|&l| projected(a, b, l) > margin - 1e-12));
                apart += 1;
                continue;
            };
            touching += 1;
            for (k, r) in [a.1, b.1].into_iter().enumerate() {
                let (s, l, i) = axes.faces[k];
                assert!((s - projected(a, b, r.col(i))).abs() < 1e-12);
                assert!(l == r.col(i));
                let best = (0..3)
                    .map(|m| projected(a, b, r.col(m)))
                    .fold(f64::MIN, f64::max);
                assert!((s - best).abs() < 1e-12, "face {k}: {s} against {best}");
            }
            let (s, l, i, j) = axes.edge;
            if s > f64::NEG_INFINITY {
                assert!((s - projected(a, b, l)).abs() < 1e-12, "edge {i}×{j}");
                assert!((l.length() - 1.0).abs() < 1e-12);
            }
        }
        assert!(
            touching > 100 && apart > 100,
            "{touching} touching, {apart} apart"
        );
    }

    #[test]
    fn stacked_cubes_touch_at_four_corners() {
        let a = cube(DVec3::ZERO, DQuat::IDENTITY);
        let b = cube(DVec3::new(0.1, 0.99, 0.0), DQuat::from_rotation_y(0.3));
        let m = box_box(&a, &b, 0.02, None).unwrap();
        assert_eq!(m.len, 4);
        assert!((m.normal - DVec3::Y).length() < 1e-12);
        for p in m.points() {
            assert!((p.separation + 0.01).abs() < 1e-12);
        }
        let ids: std::collections::HashSet<u32> = m.points().iter().map(|p| p.id).collect();
        assert_eq!(ids.len(), 4, "ids must be unique");
        // Same contact seen the other way: normal flips, same depth.
        let m2 = box_box(&b, &a, 0.02, None).unwrap();
        assert!((m2.normal + DVec3::Y).length() < 1e-12);
    }

    /// A last manifold made with the given kind of axis.
    fn made_on(kind: Reference) -> Manifold {
        let id = match kind {
            Reference::FirstFace => 0,
            Reference::SecondFace => SECOND_REFERENCE,
            Reference::Edges => EDGE,
        };
        let mut m = Manifold::new(DVec3::Y);
        m.push(DVec3::ZERO, 0.0, id);
        m
    }

    /// Two cubes resting on each other at a small angle: their two face axes are within
    /// the hysteresis of each other, and the face the last manifold used is kept, either
    /// one; edges are not kept (their axis is here close to the faces' normals, and a
    /// one-point manifold would hold the box up at one point).
    #[test]
    fn a_near_tie_keeps_the_last_reference_face() {
        let a = cube(DVec3::ZERO, DQuat::from_rotation_x(0.01));
        let b = cube(DVec3::new(0.2, 0.995, 0.0), DQuat::from_rotation_x(-0.012));
        let fresh = box_box(&a, &b, 0.02, None).unwrap();
        assert!(Reference::of(&fresh) == Some(Reference::FirstFace));
        for kind in [Reference::FirstFace, Reference::SecondFace] {
            let m = box_box(&a, &b, 0.02, Some(&made_on(kind))).unwrap();
            assert!(Reference::of(&m) == Some(kind));
            assert!((m.normal - DVec3::Y).length() < 0.05, "{}", m.normal);
        }
        let m = box_box(&a, &b, 0.02, Some(&made_on(Reference::Edges))).unwrap();
        assert!(Reference::of(&m) != Some(Reference::Edges));
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
        let m = box_box(&a, &b, 0.0, None).unwrap();
        assert_eq!(m.len, 1);
        assert!((m.normal - DVec3::Y).length() < 1e-9, "{}", m.normal);
        assert!((m.points[0].separation + 0.01).abs() < 1e-9);
    }

    #[test]
    fn separated_boxes_beyond_the_margin_do_not_touch() {
        let a = cube(DVec3::ZERO, DQuat::IDENTITY);
        let b = cube(DVec3::new(1.1, 0.0, 0.0), DQuat::IDENTITY);
        assert!(box_box(&a, &b, 0.05, None).is_none());
        assert_eq!(box_box(&a, &b, 0.2, None).map(|m| m.len), Some(4));
    }
}
