//! The solver's view of a body (its velocities and inverse mass), and what a row between
//! two of them needs: its two ends, borrowed at once.

use glam::{DMat3, DVec3};

use crate::body::{BodyState, MassProps};

/// A body's velocity and inverse mass as the solver sees them. Static things (the
/// ground, sleeping bodies next to nothing awake) use the extra body at the end of the
/// array, whose inverse mass and inertia are zero, so rows need no branch.
#[derive(Clone, Copy, Debug)]
pub struct SolverBody {
    pub v: DVec3,
    pub w: DVec3,
    pub inv_mass: f64,
    pub inv_inertia: DMat3,
}

impl SolverBody {
    /// Immovable: impulses change nothing. (Not `Default`: glam's default matrix is
    /// the identity, which would let the ground turn.)
    pub const STATIC: Self = Self {
        v: DVec3::ZERO,
        w: DVec3::ZERO,
        inv_mass: 0.0,
        inv_inertia: DMat3::ZERO,
    };

    /// A body's solver view: its velocities and its inverse inertia in world axes.
    pub fn new(props: &MassProps, state: &BodyState) -> Self {
        let inverse = props.inertia.inverse();
        // Equal moments (a cube) look the same in every orientation: no rotation needed.
        let inv_inertia = if props.inertia.is_isotropic() {
            DMat3::from_diagonal(inverse)
        } else {
            let r = DMat3::from_quat(state.orientation);
            r * DMat3::from_diagonal(inverse) * r.transpose()
        };
        Self {
            v: state.velocity,
            w: state.world_omega(props),
            inv_mass: 1.0 / props.mass,
            inv_inertia,
        }
    }

    #[inline]
    pub(crate) fn apply(&mut self, linear: DVec3, angular: DVec3) {
        self.v += linear * self.inv_mass;
        self.w += self.inv_inertia * angular;
    }

    #[inline]
    pub fn point_velocity(&self, r: DVec3) -> DVec3 {
        self.v + self.w.cross(r)
    }
}

/// Borrows the two bodies of a row; `a != b` always holds (a body never touches itself).
#[inline]
pub(crate) fn pair(
    bodies: &mut [SolverBody],
    a: usize,
    b: usize,
) -> (&mut SolverBody, &mut SolverBody) {
    debug_assert_ne!(a, b);
    if a < b {
        let (lo, hi) = bodies.split_at_mut(b);
        (&mut lo[a], &mut hi[0])
    } else {
        let (lo, hi) = bodies.split_at_mut(a);
        (&mut hi[0], &mut lo[b])
    }
}

/// A row of the solver between two bodies.
pub trait Ends {
    /// The indices of its two bodies in the solver's array.
    fn ends(&self) -> (usize, usize);
}
