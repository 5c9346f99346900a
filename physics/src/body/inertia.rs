//! Mass properties: principal moments from shapes, compounds by the parallel-axis theorem,
//! the principal frame by symmetric eigen-decomposition, and validation.

use std::fmt;

use glam::{DMat3, DQuat, DVec3};
use serde::{Deserialize, Serialize};

/// A validated diagonal inertia in the body's principal frame. Stored as its principal
/// moments, validated again when read.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "DVec3", into = "DVec3")]
pub struct Inertia {
    principal: DVec3,
    inverse: DVec3,
}

/// Why three principal moments are not a rigid body's inertia.
#[derive(Clone, Debug, PartialEq)]
pub enum InertiaError {
    /// A moment is NaN or infinite.
    NotFinite(DVec3),
    /// A moment is zero or negative.
    NotPositive {
        /// The axis: 'x', 'y' or 'z'.
        axis: char,
        /// The moment given, kg·m².
        value: f64,
    },
    /// A physical body satisfies `Ia + Ib ≥ Ic` for every labelling of its axes.
    TriangleInequality {
        /// One moment, kg·m².
        a: f64,
        /// Another moment, kg·m².
        b: f64,
        /// The moment that exceeds `a + b`, kg·m².
        c: f64,
    },
}

impl fmt::Display for InertiaError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Self::NotFinite(v) => write!(f, "inertia {v} is not finite"),
            Self::NotPositive { axis, value } => {
                write!(f, "inertia about {axis} must be positive, got {value}")
            }
            Self::TriangleInequality { a, b, c } => write!(
                f,
                "inertia violates the triangle inequality: {a} + {b} < {c} (no rigid body has these moments)"
            ),
        }
    }
}

impl std::error::Error for InertiaError {}

impl TryFrom<DVec3> for Inertia {
    type Error = InertiaError;
    fn try_from(principal: DVec3) -> Result<Self, InertiaError> {
        Self::new(principal)
    }
}

impl From<Inertia> for DVec3 {
    fn from(inertia: Inertia) -> DVec3 {
        inertia.principal
    }
}

impl Inertia {
    /// Validates principal moments (kg·m²): finite, positive, and each at most the sum
    /// of the other two (to round-off).
    pub fn new(principal: DVec3) -> Result<Self, InertiaError> {
        if !principal.is_finite() {
            return Err(InertiaError::NotFinite(principal));
        }
        for (axis, value) in ['x', 'y', 'z'].into_iter().zip(principal.to_array()) {
            if value <= 0.0 {
                return Err(InertiaError::NotPositive { axis, value });
            }
        }
        let [x, y, z] = principal.to_array();
        // Flat plates sit exactly on the boundary; allow round-off there.
        let slack = 1e-9 * (x + y + z);
        for (a, b, c) in [(x, y, z), (y, z, x), (z, x, y)] {
            if a + b + slack < c {
                return Err(InertiaError::TriangleInequality { a, b, c });
            }
        }
        Ok(Self {
            principal,
            inverse: principal.recip(),
        })
    }

    /// The principal moments, kg·m².
    #[inline]
    pub fn principal(&self) -> DVec3 {
        self.principal
    }
    /// Their reciprocals, 1/(kg·m²).
    #[inline]
    pub fn inverse(&self) -> DVec3 {
        self.inverse
    }
    /// The smallest principal moment, kg·m².
    #[inline]
    pub fn min(&self) -> f64 {
        self.principal.min_element()
    }
    /// Whether the three moments are equal (a sphere, a cube): then `I ω ∥ ω`, the
    /// gyroscopic term `ω × I ω` vanishes, and a torque-free body spins at a constant
    /// rate about a fixed axis.
    #[inline]
    pub fn is_isotropic(&self) -> bool {
        let p = self.principal;
        p.x == p.y && p.y == p.z
    }
    /// The axis (0, 1, 2) of the intermediate moment, if all three moments differ.
    pub fn intermediate_axis(&self) -> Option<usize> {
        let p = self.principal.to_array();
        let (lo, hi) = (self.principal.min_element(), self.principal.max_element());
        let tol = 1e-12 * hi;
        (0..3).find(|&i| p[i] > lo + tol && p[i] < hi - tol)
    }
}

/// Primitive shapes, centred on their own origin; cylinders and capsules lie along local Y
/// (Bevy's convention, so rendering needs no extra rotation).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Shape {
    /// A solid ball.
    Sphere {
        /// Radius, m.
        radius: f64,
    },
    /// A solid box.
    Box {
        /// Half the side lengths along local x, y, z, m.
        half_extents: DVec3,
    },
    /// A solid cylinder along local Y.
    Cylinder {
        /// Radius, m.
        radius: f64,
        /// Length along Y, m.
        length: f64,
    },
    /// `length` is the straight part, without the two hemispherical caps.
    Capsule {
        /// Radius of the cylinder and the caps, m.
        radius: f64,
        /// Length of the straight part along Y, m.
        length: f64,
    },
}

impl Shape {
    /// Radius of the smallest sphere about the shape's centre that holds it.
    pub fn bounding_radius(&self) -> f64 {
        match *self {
            Shape::Sphere { radius } => radius,
            Shape::Box { half_extents } => half_extents.length(),
            Shape::Cylinder { radius, length } => libm::hypot(radius, 0.5 * length),
            Shape::Capsule { radius, length } => 0.5 * length + radius,
        }
    }

    /// Inertia tensor about the shape's centre for a given mass, in the shape's frame.
    pub fn inertia_tensor(&self, mass: f64) -> DMat3 {
        let d = match *self {
            Shape::Sphere { radius } => DVec3::splat(0.4 * mass * radius * radius),
            Shape::Box { half_extents: h } => {
                let s = h * h;
                DVec3::new(s.y + s.z, s.x + s.z, s.x + s.y) * (mass / 3.0)
            }
            Shape::Cylinder { radius, length } => {
                let side = mass * (3.0 * radius * radius + length * length) / 12.0;
                DVec3::new(side, 0.5 * mass * radius * radius, side)
            }
            Shape::Capsule { radius, length } => {
                let (r, h) = (radius, length);
                let (vc, vs) = (r * r * h, 4.0 / 3.0 * r * r * r);
                let (mc, ms) = (mass * vc / (vc + vs), mass * vs / (vc + vs));
                let axial = 0.5 * mc * r * r + 0.4 * ms * r * r;
                // Caps about their own centre (83/320 m r²), shifted by h/2 + 3r/8.
                let side = mc * (h * h / 12.0 + r * r / 4.0)
                    + ms * (0.4 * r * r + h * h / 4.0 + 3.0 * h * r / 8.0);
                DVec3::new(side, axial, side)
            }
        };
        DMat3::from_diagonal(d)
    }
}

/// One part of a compound body.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Part {
    /// The part's shape, in its own frame.
    pub shape: Shape,
    /// Its mass, kg.
    pub mass: f64,
    /// Its centre in the compound's frame, m.
    pub offset: DVec3,
    /// Its orientation in the compound's frame.
    pub rotation: DQuat,
}

impl Part {
    /// Radius of a sphere about the body's centre (the origin of `offset`) that holds
    /// the part: how far the part reaches when the body turns.
    pub fn radius_from_centre(&self) -> f64 {
        self.offset.length() + self.shape.bounding_radius()
    }
}

/// Mass, centre of mass and principal inertia of a compound, and the rotation from the
/// principal frame to the frame the parts were given in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MassProperties {
    /// Total mass, kg.
    pub mass: f64,
    /// Centre of mass in the parts' frame, m.
    pub center_of_mass: DVec3,
    /// Principal moments about the centre of mass, kg·m².
    pub principal: DVec3,
    /// The rotation from the principal frame to the parts' frame.
    pub principal_frame: DQuat,
}

/// Combines parts by the parallel-axis theorem and diagonalises the result.
pub fn compound(parts: &[Part]) -> MassProperties {
    let mass: f64 = parts.iter().map(|p| p.mass).sum();
    let com = parts.iter().map(|p| p.offset * p.mass).sum::<DVec3>() / mass;
    let tensor = parts.iter().fold(DMat3::ZERO, |acc, p| {
        let r = DMat3::from_quat(p.rotation);
        let d = p.offset - com;
        let shift = DMat3::from_diagonal(DVec3::splat(d.length_squared()))
            - DMat3::from_cols(d * d.x, d * d.y, d * d.z);
        acc + r * p.shape.inertia_tensor(p.mass) * r.transpose() + shift * p.mass
    });
    let (principal, frame) = symmetric_eigen(tensor);
    MassProperties {
        mass,
        center_of_mass: com,
        principal,
        principal_frame: frame,
    }
}

/// Eigenvalues and a right-handed eigenbasis (as a rotation) of a symmetric 3×3 matrix by
/// cyclic Jacobi rotations. An already diagonal matrix keeps its axes, so axis-aligned
/// compounds keep the body axes their author chose.
pub fn symmetric_eigen(m: DMat3) -> (DVec3, DQuat) {
    let mut a = m.to_cols_array_2d();
    let mut v = DMat3::IDENTITY.to_cols_array_2d();
    let scale = a[0][0].abs() + a[1][1].abs() + a[2][2].abs();
    for _sweep in 0..32 {
        let off = a[0][1].abs() + a[0][2].abs() + a[1][2].abs();
        if off <= 1e-15 * scale {
            break;
        }
        for (p, q) in [(0, 1), (0, 2), (1, 2)] {
            if a[p][q].abs() <= 1e-300 {
                continue;
            }
            let theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
            let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
            let c = 1.0 / (t * t + 1.0).sqrt();
            let s = t * c;
            for row in a.iter_mut() {
                let (akp, akq) = (row[p], row[q]);
                row[p] = c * akp - s * akq;
                row[q] = s * akp + c * akq;
            }
            let (row_p, row_q) = (a[p], a[q]);
            for (k, (apk, aqk)) in row_p.into_iter().zip(row_q).enumerate() {
                a[p][k] = c * apk - s * aqk;
                a[q][k] = s * apk + c * aqk;
            }
            for row in v.iter_mut() {
                let (vp, vq) = (row[p], row[q]);
                row[p] = c * vp - s * vq;
                row[q] = s * vp + c * vq;
            }
        }
    }
    let mut basis = DMat3::from_cols_array_2d(&v).transpose();
    if basis.determinant() < 0.0 {
        basis.z_axis = -basis.z_axis;
    }
    (
        DVec3::new(a[0][0], a[1][1], a[2][2]),
        DQuat::from_mat3(&basis).normalize(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation_names_the_problem() {
        assert!(Inertia::new(DVec3::new(1.0, 2.0, 2.5)).is_ok());
        assert!(matches!(
            Inertia::new(DVec3::new(1.0, -2.0, 2.5)),
            Err(InertiaError::NotPositive { axis: 'y', .. })
        ));
        assert!(matches!(
            Inertia::new(DVec3::new(1.0, 1.0, 3.0)),
            Err(InertiaError::TriangleInequality { .. })
        ));
        assert!(matches!(
            Inertia::new(DVec3::new(f64::NAN, 1.0, 1.0)),
            Err(InertiaError::NotFinite(_))
        ));
        // A flat plate sits exactly on the boundary and is valid.
        let plate = Shape::Box {
            half_extents: DVec3::new(1.0, 0.5, 1e-9),
        }
        .inertia_tensor(2.0);
        assert!(Inertia::new(DVec3::new(plate.x_axis.x, plate.y_axis.y, plate.z_axis.z)).is_ok());
    }

    #[test]
    fn capsule_of_zero_length_is_a_sphere_and_long_one_tends_to_cylinder() {
        let sphere = Shape::Sphere { radius: 0.3 }.inertia_tensor(2.0);
        let capsule = Shape::Capsule {
            radius: 0.3,
            length: 0.0,
        }
        .inertia_tensor(2.0);
        assert!(
            (sphere - capsule)
                .abs()
                .to_cols_array()
                .iter()
                .all(|e| *e < 1e-15)
        );
        let (r, h) = (0.01, 10.0);
        let cap = Shape::Capsule {
            radius: r,
            length: h,
        }
        .inertia_tensor(1.0);
        let cyl = Shape::Cylinder {
            radius: r,
            length: h,
        }
        .inertia_tensor(1.0);
        assert!((cap.x_axis.x / cyl.x_axis.x - 1.0).abs() < 1e-2);
    }

    #[test]
    fn two_boxes_side_by_side_equal_one_long_box() {
        let half = DVec3::new(0.5, 0.25, 0.1);
        let part = |x: f64| Part {
            shape: Shape::Box { half_extents: half },
            mass: 1.0,
            offset: DVec3::new(x, 0.0, 0.0),
            rotation: DQuat::IDENTITY,
        };
        let props = compound(&[part(-0.5), part(0.5)]);
        let whole = Shape::Box {
            half_extents: DVec3::new(1.0, 0.25, 0.1),
        }
        .inertia_tensor(2.0);
        assert!((props.principal - whole.diagonal()).length() < 1e-14);
        assert!(props.center_of_mass.length() < 1e-15);
        assert!(props.principal_frame.angle_between(DQuat::IDENTITY) < 1e-12);
    }

    #[test]
    fn eigen_decomposition_recovers_a_rotated_tensor() {
        let d = DVec3::new(3.0, 2.0, 1.5);
        let q = DQuat::from_axis_angle(DVec3::new(1.0, 2.0, 3.0).normalize(), 0.7);
        let r = DMat3::from_quat(q);
        let (vals, frame) = symmetric_eigen(r * DMat3::from_diagonal(d) * r.transpose());
        let back = DMat3::from_quat(frame)
            * DMat3::from_diagonal(vals)
            * DMat3::from_quat(frame).transpose();
        let m = r * DMat3::from_diagonal(d) * r.transpose();
        assert!((back - m).abs().to_cols_array().iter().all(|e| *e < 1e-13));
        let mut sorted = vals.to_array();
        sorted.sort_by(|a, b| b.total_cmp(a));
        assert!((DVec3::from_array(sorted) - d).length() < 1e-13);
    }
}
