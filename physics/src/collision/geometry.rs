//! Collision geometry placed in the world: the shapes of a body's parts at the body's
//! current pose, their bounding boxes, and the static half-spaces (ground, ramps).

use glam::{DMat3, DQuat, DVec3};

use crate::body::Material;
use crate::body::inertia::{Part, Shape};

/// A convex shape in world coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Geom {
    /// A ball.
    Sphere {
        /// Its centre.
        center: DVec3,
        /// Its radius.
        radius: f64,
    },
    /// The points within `radius` of the segment `a`–`b`.
    Capsule {
        /// One end of the segment.
        a: DVec3,
        /// The other end.
        b: DVec3,
        /// How far the surface is from the segment.
        radius: f64,
    },
    /// `axes` columns are the box's local x, y, z in world coordinates.
    Box {
        /// Its centre.
        center: DVec3,
        /// Its local axes as columns, in world coordinates.
        axes: DMat3,
        /// Its half sizes along its local axes.
        half: DVec3,
    },
    /// A solid cylinder along `axis` (unit), `half_length` either side of the centre.
    Cylinder {
        /// Its centre.
        center: DVec3,
        /// Its axis (unit).
        axis: DVec3,
        /// Its radius.
        radius: f64,
        /// Half its length along the axis.
        half_length: f64,
    },
}

/// The static half-space `normal · x ≤ offset` (`normal` unit, pointing out of the solid).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Plane {
    /// The outward normal (unit).
    pub normal: DVec3,
    /// `normal · x` on the surface.
    pub offset: f64,
    /// Its friction coefficient.
    pub friction: f64,
    /// Its restitution coefficient.
    pub restitution: f64,
}

impl Plane {
    /// The half-space below the plane through `point` with outward `normal`.
    pub fn through(point: DVec3, normal: DVec3, friction: f64, restitution: f64) -> Self {
        let normal = normal.normalize();
        Self {
            normal,
            offset: normal.dot(point),
            friction,
            restitution,
        }
    }

    /// Its friction and restitution, to mix with a body's.
    pub fn material(&self) -> Material {
        Material {
            friction: self.friction,
            restitution: self.restitution,
        }
    }

    /// Signed distance of a point above the surface.
    #[inline]
    pub fn height(&self, p: DVec3) -> f64 {
        self.normal.dot(p) - self.offset
    }
}

/// Axis-aligned bounding box.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Aabb {
    /// The lowest corner.
    pub min: DVec3,
    /// The highest corner.
    pub max: DVec3,
}

impl Aabb {
    /// Whether the two boxes overlap (touching counts).
    #[inline]
    pub fn overlaps(&self, o: &Aabb) -> bool {
        self.min.cmple(o.max).all() && o.min.cmple(self.max).all()
    }

    /// The box grown by `by` on every side.
    pub fn expanded(self, by: DVec3) -> Self {
        Self {
            min: self.min - by,
            max: self.max + by,
        }
    }
}

impl Geom {
    /// A body part at the body's pose (`position` of the centre of mass, `orientation`
    /// of the principal frame, in which the part's offset and rotation are given).
    pub fn of_part(part: &Part, position: DVec3, orientation: DQuat) -> Self {
        let center = position + orientation * part.offset;
        let rotation = orientation * part.rotation;
        match part.shape {
            Shape::Sphere { radius } => Geom::Sphere { center, radius },
            Shape::Box { half_extents } => Geom::Box {
                center,
                axes: DMat3::from_quat(rotation),
                half: half_extents,
            },
            Shape::Capsule { radius, length } => {
                let half = rotation * DVec3::Y * (0.5 * length);
                Geom::Capsule {
                    a: center - half,
                    b: center + half,
                    radius,
                }
            }
            Shape::Cylinder { radius, length } => Geom::Cylinder {
                center,
                axis: rotation * DVec3::Y,
                radius,
                half_length: 0.5 * length,
            },
        }
    }

    /// The shape's axis-aligned bounding box.
    pub fn aabb(&self) -> Aabb {
        let (lo, hi) = match *self {
            Geom::Sphere { center, radius } => (center - radius, center + radius),
            Geom::Capsule { a, b, radius } => (a.min(b) - radius, a.max(b) + radius),
            Geom::Box { center, axes, half } => {
                let extent = axes.abs() * half;
                (center - extent, center + extent)
            }
            Geom::Cylinder {
                center,
                axis,
                radius,
                half_length,
            } => {
                // Each end disc reaches r·√(1 − a_i²) along world axis i.
                let disc = (DVec3::ONE - axis * axis).max(DVec3::ZERO).powf(0.5) * radius;
                let extent = axis.abs() * half_length + disc;
                (center - extent, center + extent)
            }
        };
        Aabb { min: lo, max: hi }
    }

    /// The centre the shape is placed around.
    pub fn center(&self) -> DVec3 {
        match *self {
            Geom::Sphere { center, .. }
            | Geom::Box { center, .. }
            | Geom::Cylinder { center, .. } => center,
            Geom::Capsule { a, b, .. } => 0.5 * (a + b),
        }
    }
}

/// Closest point to `p` on the segment `a`–`b`, as the parameter in [0, 1].
#[inline]
pub fn segment_parameter(a: DVec3, b: DVec3, p: DVec3) -> f64 {
    let d = b - a;
    let len2 = d.length_squared();
    if len2 <= f64::MIN_POSITIVE {
        0.0
    } else {
        ((p - a).dot(d) / len2).clamp(0.0, 1.0)
    }
}

/// Parameters (s, t) of the closest points of segments `p1`–`q1` and `p2`–`q2`
/// (Ericson, Real-Time Collision Detection §5.1.9).
pub fn closest_segments(p1: DVec3, q1: DVec3, p2: DVec3, q2: DVec3) -> (f64, f64) {
    let (d1, d2, r) = (q1 - p1, q2 - p2, p1 - p2);
    let (a, e, f) = (d1.length_squared(), d2.length_squared(), d2.dot(r));
    let eps = 1e-14;
    if a <= eps && e <= eps {
        return (0.0, 0.0);
    }
    if a <= eps {
        return (0.0, (f / e).clamp(0.0, 1.0));
    }
    let c = d1.dot(r);
    if e <= eps {
        return ((-c / a).clamp(0.0, 1.0), 0.0);
    }
    let b = d1.dot(d2);
    let denom = a * e - b * b;
    let mut s = if denom > eps * a * e {
        ((b * f - c * e) / denom).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let mut t = (b * s + f) / e;
    if t < 0.0 {
        t = 0.0;
        s = (-c / a).clamp(0.0, 1.0);
    } else if t > 1.0 {
        t = 1.0;
        s = ((b - c) / a).clamp(0.0, 1.0);
    }
    (s, t)
}

/// Signed distance from a point to a box and the outward normal there.
pub fn box_signed_distance(center: DVec3, axes: DMat3, half: DVec3, p: DVec3) -> (f64, DVec3) {
    let q = axes.transpose() * (p - center);
    let d = q.abs() - half;
    let outside = d.max(DVec3::ZERO);
    if outside.length_squared() > 0.0 {
        let clamped = q.clamp(-half, half);
        let local = q - clamped;
        let dist = local.length();
        (dist, axes * (local / dist))
    } else {
        let i = if d.x >= d.y && d.x >= d.z {
            0
        } else if d.y >= d.z {
            1
        } else {
            2
        };
        let mut n = DVec3::ZERO;
        n[i] = q[i].signum();
        (d[i], axes * n)
    }
}

/// Two unit vectors that complete `n` to a right-handed orthonormal basis.
#[inline]
pub fn tangents(n: DVec3) -> (DVec3, DVec3) {
    let t1 = n.any_orthonormal_vector();
    (t1, n.cross(t1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_distance_outside_inside_and_on_an_edge() {
        let (c, h) = (DVec3::ZERO, DVec3::new(1.0, 2.0, 3.0));
        let (d, n) = box_signed_distance(c, DMat3::IDENTITY, h, DVec3::new(3.0, 0.0, 0.0));
        assert!((d - 2.0).abs() < 1e-15 && (n - DVec3::X).length() < 1e-15);
        let (d, n) = box_signed_distance(c, DMat3::IDENTITY, h, DVec3::new(0.0, -1.5, 0.0));
        assert!((d + 0.5).abs() < 1e-15 && (n + DVec3::Y).length() < 1e-15);
        let (d, _) = box_signed_distance(c, DMat3::IDENTITY, h, DVec3::new(2.0, 3.0, 0.0));
        assert!((d - 2f64.sqrt()).abs() < 1e-15);
    }

    #[test]
    fn closest_points_of_crossing_and_parallel_segments() {
        let (s, t) = closest_segments(
            DVec3::new(-1.0, 0.0, 0.0),
            DVec3::new(1.0, 0.0, 0.0),
            DVec3::new(0.5, -1.0, 1.0),
            DVec3::new(0.5, 1.0, 1.0),
        );
        assert!((s - 0.75).abs() < 1e-15 && (t - 0.5).abs() < 1e-15);
        let (s, t) = closest_segments(DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Y + DVec3::X);
        let gap = (DVec3::X * s - (DVec3::Y + DVec3::X * t)).length();
        assert!((gap - 1.0).abs() < 1e-15);
    }

    #[test]
    fn aabb_of_a_tilted_cylinder_holds_its_rims() {
        let axis = DVec3::new(1.0, 1.0, 0.0).normalize();
        let g = Geom::Cylinder {
            center: DVec3::ZERO,
            axis,
            radius: 0.5,
            half_length: 1.0,
        };
        let bb = g.aabb();
        let (u, v) = tangents(axis);
        for k in 0..64 {
            let phi = k as f64 * std::f64::consts::TAU / 64.0;
            for end in [-1.0, 1.0] {
                let p = axis * end + 0.5 * (u * phi.cos() + v * phi.sin());
                assert!(p.cmpge(bb.min - 1e-12).all() && p.cmple(bb.max + 1e-12).all());
            }
        }
    }
}
