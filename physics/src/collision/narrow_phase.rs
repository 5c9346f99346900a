//! Narrow phase: the contact manifold of every pair of shapes gyrolab collides. Normals
//! point from the first shape to the second; points within `margin` of touching are kept
//! as speculative contacts, so a fast body is caught the step before it would tunnel.

use arrayvec::ArrayVec;
use glam::{DMat3, DVec3};

use super::box_box::{self, box_box};
use crate::collision::geometry::{
    Geom, Plane, box_signed_distance, closest_segments, segment_parameter,
};
use crate::collision::manifold::{Candidates, Manifold, Side, reduce};

/// The manifold between two shapes, if they are within `margin` of each other; `last` is
/// the pair's manifold of the last step, if any (two boxes keep the kind of axis it was
/// made on unless another is clearly better).
pub fn collide(a: &Geom, b: &Geom, margin: f64, last: Option<&Manifold>) -> Option<Manifold> {
    use Geom::*;
    match (*a, *b) {
        (Box { .. }, Box { .. }) => box_box(a, b, margin, last),
        (Box { .. }, _) => collide(b, a, margin, None).map(Manifold::flipped),
        (
            Sphere { center, radius },
            Box {
                center: c,
                axes,
                half,
            },
        ) => rounded_segment_box((center, center, radius), (c, axes, half), margin),
        (Capsule { a: p, b: q, radius }, Box { center, axes, half }) => {
            rounded_segment_box((p, q, radius), (center, axes, half), margin)
        }
        (Cylinder { .. }, _) | (_, Cylinder { .. }) => {
            collide(&inscribed_capsule(a), &inscribed_capsule(b), margin, None)
        }
        _ => {
            let (p1, q1, r1) = segment_of(a);
            let (p2, q2, r2) = segment_of(b);
            rounded_segments((p1, q1, r1), (p2, q2, r2), margin)
        }
    }
}

/// Which shape's face a manifold between `a` and `b` was made on, so that its normal can
/// be carried with that body: box-box face contacts only (a rounded shape's normal runs
/// along the line between closest points, fixed in neither body).
pub fn face_of(a: &Geom, b: &Geom, m: &Manifold) -> Option<Side> {
    match (a, b) {
        (Geom::Box { .. }, Geom::Box { .. }) => box_box::face_of(m),
        _ => None,
    }
}

/// The manifold between a shape and a static half-space, normal into the half-space.
pub fn collide_plane(g: &Geom, plane: &Plane, margin: f64) -> Option<Manifold> {
    let n = plane.normal;
    let mut candidates = Candidates::new();
    let mut add = |p: DVec3, id: u32| {
        let sep = plane.height(p);
        if sep <= margin {
            candidates.push((p - n * (0.5 * sep), sep, id));
        }
    };
    match *g {
        Geom::Sphere { center, radius } => add(center - n * radius, 0),
        Geom::Capsule { a, b, radius } => {
            add(a - n * radius, 0);
            add(b - n * radius, 1);
        }
        Geom::Box { center, axes, half } => {
            for k in 0..8u32 {
                let s = DVec3::new(
                    if k & 1 == 0 { -1.0 } else { 1.0 },
                    if k & 2 == 0 { -1.0 } else { 1.0 },
                    if k & 4 == 0 { -1.0 } else { 1.0 },
                );
                add(center + axes * (half * s), k);
            }
        }
        Geom::Cylinder {
            center,
            axis,
            radius,
            half_length,
        } => {
            let radial = -n + axis * n.dot(axis);
            let len = radial.length();
            // Lying on an end face: four rim points span it; otherwise the lowest point
            // of each rim.
            let rims: ArrayVec<DVec3, 4> = if len < 1e-3 {
                let (u, v) = crate::collision::geometry::tangents(axis);
                ArrayVec::from([u, v, -u, -v])
            } else {
                [radial / len].into_iter().collect()
            };
            for (e, end) in [-1.0, 1.0].into_iter().enumerate() {
                for (k, r) in rims.iter().enumerate() {
                    add(
                        center + axis * (end * half_length) + *r * radius,
                        (e * 4 + k) as u32,
                    );
                }
            }
        }
    }
    manifold_of(-n, &reduce(&candidates, n, &[]))
}

fn manifold_of(normal: DVec3, points: &[(DVec3, f64, u32)]) -> Option<Manifold> {
    if points.is_empty() {
        return None;
    }
    let mut m = Manifold::new(normal);
    for &(p, s, id) in points {
        m.push(p, s, id);
    }
    Some(m)
}

/// Spheres and capsules as a segment with a radius (a sphere's segment is a point).
fn segment_of(g: &Geom) -> (DVec3, DVec3, f64) {
    match *g {
        Geom::Sphere { center, radius } => (center, center, radius),
        Geom::Capsule { a, b, radius } => (a, b, radius),
        _ => unreachable!("segment_of is only called on spheres and capsules"),
    }
}

/// Cylinders collide with other solids as the capsule that fits inside them (exact
/// against the ground, where tops and discs meet it).
fn inscribed_capsule(g: &Geom) -> Geom {
    match *g {
        Geom::Cylinder {
            center,
            axis,
            radius,
            half_length,
        } => {
            let r = radius.min(half_length);
            let half = axis * (half_length - r).max(0.0);
            Geom::Capsule {
                a: center - half,
                b: center + half,
                radius: r,
            }
        }
        other => other,
    }
}

/// One contact between the closest points `pa`, `pb` of two cores with radii.
fn contact_between(
    m: &mut Manifold,
    pa: DVec3,
    pb: DVec3,
    ra: f64,
    rb: f64,
    fallback: DVec3,
    id: u32,
) -> f64 {
    let d = pb - pa;
    let dist = d.length();
    let n = if dist > 1e-12 { d / dist } else { fallback };
    if m.len == 0 {
        m.normal = n;
    }
    let sep = dist - ra - rb;
    let surface_a = pa + n * ra;
    m.push(surface_a + n * (0.5 * sep), sep, id);
    sep
}

/// Sphere–sphere, sphere–capsule and capsule–capsule. Nearly parallel capsules touch
/// along a line: two points at the ends of the overlap hold them level.
fn rounded_segments(
    (p1, q1, r1): (DVec3, DVec3, f64),
    (p2, q2, r2): (DVec3, DVec3, f64),
    margin: f64,
) -> Option<Manifold> {
    let (d1, d2) = (q1 - p1, q2 - p2);
    let (l1, l2) = (d1.length(), d2.length());
    let reach = r1 + r2 + margin;
    let mut m = Manifold::new(DVec3::Y);
    if l1 > 1e-9 && l2 > 1e-9 && d1.dot(d2).abs() > 0.995 * l1 * l2 {
        let (t0, t1) = (segment_parameter(p1, q1, p2), segment_parameter(p1, q1, q2));
        let (lo, hi) = (t0.min(t1), t0.max(t1));
        if hi - lo > 1e-6 {
            let pa = p1 + d1 * lo;
            let pb = p2 + d2 * segment_parameter(p2, q2, pa);
            let qa = p1 + d1 * hi;
            let qb = p2 + d2 * segment_parameter(p2, q2, qa);
            if (pb - pa).length() < reach && (qb - qa).length() < reach {
                let fallback = d1.any_orthonormal_vector();
                contact_between(&mut m, pa, pb, r1, r2, fallback, 0);
                contact_between(&mut m, qa, qb, r1, r2, fallback, 1);
                return Some(m);
            }
        }
    }
    let (s, t) = closest_segments(p1, q1, p2, q2);
    let (pa, pb) = (p1 + d1 * s, p2 + d2 * t);
    if (pb - pa).length() >= reach {
        return None;
    }
    let fallback = if l1 > 1e-9 {
        d1.any_orthonormal_vector()
    } else {
        DVec3::Y
    };
    contact_between(&mut m, pa, pb, r1, r2, fallback, 2);
    Some(m)
}

/// A sphere or capsule against a box. The signed distance to a box is convex, so along
/// the capsule's segment it has one minimum, found by golden-section search; the two
/// ends are added when they also reach the box (a capsule lying on a face).
fn rounded_segment_box(
    (p, q, r): (DVec3, DVec3, f64),
    (center, axes, half): (DVec3, DMat3, DVec3),
    margin: f64,
) -> Option<Manifold> {
    let sd = |t: f64| box_signed_distance(center, axes, half, p + (q - p) * t);
    let mut ts = vec![golden_minimum(|t| sd(t).0)];
    if (q - p).length_squared() > 1e-18 {
        for end in [0.0, 1.0] {
            if (end - ts[0]).abs() > 0.05 {
                ts.push(end);
            }
        }
    }
    let mut m = Manifold::new(DVec3::Y);
    for (k, t) in ts.into_iter().enumerate() {
        let (dist, g) = sd(t);
        let sep = dist - r;
        if sep > margin {
            continue;
        }
        if m.len == 0 {
            m.normal = -g;
        }
        let at = p + (q - p) * t;
        m.push(at - g * (0.5 * (dist + r)), sep, k as u32);
    }
    (m.len > 0).then_some(m)
}

fn golden_minimum(f: impl Fn(f64) -> f64) -> f64 {
    let inv_phi = 0.5 * (5f64.sqrt() - 1.0);
    let (mut a, mut b) = (0.0, 1.0);
    let mut c = b - inv_phi * (b - a);
    let mut d = a + inv_phi * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..40 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - inv_phi * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + inv_phi * (b - a);
            fd = f(d);
        }
    }
    let mid = 0.5 * (a + b);
    // The minimum of a convex function on [0, 1] may sit at an end.
    [0.0, mid, 1.0]
        .into_iter()
        .min_by(|x, y| f(*x).total_cmp(&f(*y)))
        .unwrap_or(mid)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit_box(center: DVec3, axes: DMat3) -> Geom {
        Geom::Box {
            center,
            axes,
            half: DVec3::splat(0.5),
        }
    }

    #[test]
    fn box_resting_on_the_ground_has_its_four_bottom_corners() {
        let ground = Plane::through(DVec3::ZERO, DVec3::Y, 0.5, 0.0);
        let m = collide_plane(
            &unit_box(DVec3::new(0.0, 0.49, 0.0), DMat3::IDENTITY),
            &ground,
            0.02,
        )
        .unwrap();
        assert_eq!(m.len, 4);
        assert_eq!(m.normal, -DVec3::Y);
        for p in m.points() {
            assert!((p.separation + 0.01).abs() < 1e-12);
            assert!((p.position.y + 0.005).abs() < 1e-12);
        }
    }

    #[test]
    fn sphere_on_a_box_face_and_capsule_lying_on_a_box() {
        let b = unit_box(DVec3::ZERO, DMat3::IDENTITY);
        let s = Geom::Sphere {
            center: DVec3::new(0.1, 0.7, 0.0),
            radius: 0.25,
        };
        let m = collide(&s, &b, 0.01, None).unwrap();
        assert!((m.normal + DVec3::Y).length() < 1e-12);
        assert!((m.points[0].separation + 0.05).abs() < 1e-9);
        let m2 = collide(&b, &s, 0.01, None).unwrap();
        assert!((m2.normal - DVec3::Y).length() < 1e-12);
        let c = Geom::Capsule {
            a: DVec3::new(-0.4, 0.69, 0.0),
            b: DVec3::new(0.4, 0.69, 0.0),
            radius: 0.2,
        };
        let m = collide(&c, &b, 0.01, None).unwrap();
        assert!(
            m.len >= 2,
            "a lying capsule needs two points, got {}",
            m.len
        );
        for p in m.points() {
            assert!((p.separation + 0.01).abs() < 1e-6);
        }
    }

    #[test]
    fn spheres_and_parallel_capsules() {
        let a = Geom::Sphere {
            center: DVec3::ZERO,
            radius: 1.0,
        };
        let b = Geom::Sphere {
            center: DVec3::new(1.9, 0.0, 0.0),
            radius: 1.0,
        };
        let m = collide(&a, &b, 0.0, None).unwrap();
        assert!((m.normal - DVec3::X).length() < 1e-15);
        assert!((m.points[0].separation + 0.1).abs() < 1e-12);
        assert!((m.points[0].position.x - 0.95).abs() < 1e-12);
        let cap = |y: f64| Geom::Capsule {
            a: DVec3::new(-1.0, y, 0.0),
            b: DVec3::new(1.0, y, 0.0),
            radius: 0.1,
        };
        let m = collide(&cap(0.0), &cap(0.19), 0.0, None).unwrap();
        assert_eq!(m.len, 2);
        assert!(collide(&cap(0.0), &cap(0.3), 0.05, None).is_none());
    }

    #[test]
    fn tilted_cylinder_touches_the_ground_at_its_lowest_rim_point() {
        let axis = DVec3::new(0.6, 0.8, 0.0);
        let g = Geom::Cylinder {
            center: DVec3::new(0.0, 1.0, 0.0),
            axis,
            radius: 0.5,
            half_length: 1.0,
        };
        let ground = Plane::through(DVec3::ZERO, DVec3::Y, 0.5, 0.0);
        let m = collide_plane(&g, &ground, 0.5).unwrap();
        let lowest = m
            .points()
            .iter()
            .map(|p| p.separation)
            .fold(f64::INFINITY, f64::min);
        // Lower rim: centre height 1 − 0.8, minus r·sin(tilt) = 0.5·0.6.
        assert!((lowest - (0.2 - 0.3)).abs() < 1e-12, "{lowest}");
    }
}
