//! Ray casts against the world shapes, for picking bodies with the mouse.

use glam::DVec3;

use crate::collision::geometry::Geom;

impl Geom {
    /// Distance along the ray `origin + t dir` (`dir` unit, `t ≥ 0`) to the shape's
    /// surface, or `None` if the ray misses. A ray starting inside hits at `t = 0`.
    pub fn ray(&self, origin: DVec3, dir: DVec3) -> Option<f64> {
        match *self {
            Geom::Sphere { center, radius } => sphere(origin - center, dir, radius),
            Geom::Box { center, axes, half } => {
                let (o, d) = (axes.transpose() * (origin - center), axes.transpose() * dir);
                slab(o, d, half)
            }
            Geom::Capsule { a, b, radius } => {
                let axis = b - a;
                let len = axis.length();
                let u = if len > 0.0 { axis / len } else { DVec3::Y };
                [
                    sphere(origin - a, dir, radius),
                    sphere(origin - b, dir, radius),
                    side(origin - a, dir, u, radius, len),
                ]
                .into_iter()
                .flatten()
                .reduce(f64::min)
            }
            Geom::Cylinder {
                center,
                axis,
                radius,
                half_length,
            } => {
                let base = center - axis * half_length;
                let length = 2.0 * half_length;
                let o = origin - base;
                [
                    side(o, dir, axis, radius, length),
                    disk(o, dir, axis, radius, 0.0),
                    disk(o, dir, axis, radius, length),
                ]
                .into_iter()
                .flatten()
                .reduce(f64::min)
            }
        }
    }
}

/// The ray from `o` (relative to the centre) against a sphere.
fn sphere(o: DVec3, d: DVec3, r: f64) -> Option<f64> {
    let (b, c) = (o.dot(d), o.length_squared() - r * r);
    if c <= 0.0 {
        return Some(0.0);
    }
    let disc = b * b - c;
    (b < 0.0 && disc >= 0.0).then(|| -b - disc.sqrt())
}

/// The ray against the box `|x| ≤ half` in its own frame (Kay–Kajiya slabs).
fn slab(o: DVec3, d: DVec3, half: DVec3) -> Option<f64> {
    let (mut near, mut far) = (0.0_f64, f64::INFINITY);
    for k in 0..3 {
        if d[k].abs() < 1e-300 {
            if o[k].abs() > half[k] {
                return None;
            }
            continue;
        }
        let (t1, t2) = ((-half[k] - o[k]) / d[k], (half[k] - o[k]) / d[k]);
        near = near.max(t1.min(t2));
        far = far.min(t1.max(t2));
        if near > far {
            return None;
        }
    }
    Some(near)
}

/// The ray against the side of the cylinder of radius `r` along unit `u` from the
/// origin to `length`, the ray starting at `o` relative to its base.
fn side(o: DVec3, d: DVec3, u: DVec3, r: f64, length: f64) -> Option<f64> {
    let (op, dp) = (o - u * o.dot(u), d - u * d.dot(u));
    let a = dp.length_squared();
    let inside = |t: f64| (0.0..=length).contains(&(o + d * t).dot(u));
    let c = op.length_squared() - r * r;
    if c <= 0.0 && inside(0.0) {
        return Some(0.0);
    }
    if a < 1e-300 {
        return None;
    }
    let b = op.dot(dp);
    let disc = b * b - a * c;
    if disc < 0.0 {
        return None;
    }
    let t = (-b - disc.sqrt()) / a;
    (t >= 0.0 && inside(t)).then_some(t)
}

/// The ray against the disk of radius `r` across unit `u` at height `at` above the base.
fn disk(o: DVec3, d: DVec3, u: DVec3, r: f64, at: f64) -> Option<f64> {
    let dn = d.dot(u);
    if dn.abs() < 1e-300 {
        return None;
    }
    let t = (at - o.dot(u)) / dn;
    let p = o + d * t - u * at;
    (t >= 0.0 && p.length_squared() <= r * r).then_some(t)
}

#[cfg(test)]
mod tests {
    use glam::DMat3;

    use super::*;

    /// Every shape is hit where its surface is, from outside along each axis, and a ray
    /// that passes beside it misses.
    #[test]
    fn rays_hit_the_surface_and_miss_beside_it() {
        let c = DVec3::new(1.0, 2.0, 3.0);
        let shapes = [
            (
                Geom::Sphere {
                    center: c,
                    radius: 0.5,
                },
                0.5,
            ),
            (
                Geom::Box {
                    center: c,
                    axes: DMat3::IDENTITY,
                    half: DVec3::splat(0.5),
                },
                0.5,
            ),
            (
                Geom::Capsule {
                    a: c - DVec3::Y,
                    b: c + DVec3::Y,
                    radius: 0.5,
                },
                0.5,
            ),
            (
                Geom::Cylinder {
                    center: c,
                    axis: DVec3::Y,
                    radius: 0.5,
                    half_length: 1.0,
                },
                0.5,
            ),
        ];
        for (geom, radius) in shapes {
            for dir in [DVec3::X, -DVec3::X, DVec3::Z, -DVec3::Z] {
                let t = geom.ray(c - dir * 5.0, dir).expect("hit");
                assert!((t - (5.0 - radius)).abs() < 1e-12, "{geom:?} {dir}: {t}");
                assert_eq!(
                    geom.ray(c - dir * 5.0 + dir.cross(DVec3::Y) * 0.6, dir),
                    None
                );
                assert_eq!(geom.ray(c + dir * 5.0, dir), None, "behind the ray");
            }
        }
        // Along the axis: the box's face, the capsule's cap, the cylinder's disk.
        let down = -DVec3::Y;
        let from = c + DVec3::Y * 5.0;
        let ends = [0.5, 0.5, 1.5, 1.0];
        for ((geom, _), end) in shapes.iter().zip(ends) {
            let t = geom.ray(from, down).expect("hit");
            assert!((t - (5.0 - end)).abs() < 1e-12, "{geom:?}: {t}");
        }
    }
}
