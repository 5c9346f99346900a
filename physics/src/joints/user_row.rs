//! Rows of your own (Havok's user constraints): a user's code adds a constraint row by
//! implementing [`UserRow`], and the solver solves it with the joints' rows, warm-started
//! from the impulse the row keeps. `examples/gear.rs` couples two wheels on hinges.

use glam::DVec3;

use super::row::Row;
use crate::collision::pose::Pose;
use crate::solver::body::SolverBody;

/// A row's Jacobian on `(v_a, ω_a, v_b, ω_b)`, in the solver's convention
/// `J v = d·(v_b − v_a) + angular_b·ω_b − angular_a·ω_a`, world axes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Jacobian {
    /// `d`: the direction of a point's relative velocity (zero for a spin).
    pub linear: DVec3,
    /// `angular_a`: the first body's angular part.
    pub angular_a: DVec3,
    /// `angular_b`: the second body's angular part.
    pub angular_b: DVec3,
}

/// One constraint row of a user's own. The solver drives `J v` towards `target` while
/// feeding `error` back with the joints' softness, keeps the accumulated impulse within
/// `bounds`, and hands it back to [`UserRow::keep`] after every solve for the next
/// step's warm start. A row joins its bodies' islands as a joint does: they sleep and
/// wake together.
pub trait UserRow: std::fmt::Debug + Send + Sync {
    /// The bodies the row acts on: the first, and the second or none for the world.
    fn bodies(&self) -> (usize, Option<usize>);
    /// The Jacobian at the bodies' poses now (the world's pose for none).
    fn jacobian(&self, a: &Pose, b: &Pose) -> Jacobian;
    /// The position error `C` the row removes (zero: a velocity-only row).
    fn error(&self, _a: &Pose, _b: &Pose) -> f64 {
        0.0
    }
    /// The velocity `J v` is driven to (a motor's speed; zero to hold).
    fn target(&self) -> f64 {
        0.0
    }
    /// The least and most accumulated impulse (N·s or N·m·s) over one solver step of
    /// `h` (a soft step's sub-step): a force limit F is `(−F h, F h)`, the same force
    /// whatever the number of sub-steps.
    fn bounds(&self, _h: f64) -> (f64, f64) {
        (f64::NEG_INFINITY, f64::INFINITY)
    }
    /// The impulse the row accumulated, where it is kept between steps.
    fn impulse(&self) -> f64;
    /// Keeps `impulse`, the row's accumulated impulse after a pass, for the next step's
    /// warm start.
    fn keep(&mut self, impulse: f64);
    /// A copy, for the world's snapshots.
    fn boxed_clone(&self) -> Box<dyn UserRow>;
}

/// The user rows of a world. Not part of a saved state: code adds them, and adds them
/// again after loading one.
#[derive(Debug, Default)]
pub struct UserRows(pub Vec<Box<dyn UserRow>>);

impl Clone for UserRows {
    fn clone(&self) -> Self {
        Self(self.0.iter().map(|r| r.boxed_clone()).collect())
    }
}

impl UserRows {
    /// The pairs of bodies (of `n`) the rows join, which link islands; a row to the
    /// world, or to a body that is not there, joins none.
    pub fn links(&self, n: usize) -> Vec<(usize, usize)> {
        (self.0.iter())
            .filter_map(|r| match r.bodies() {
                (a, Some(b)) if a < n && b < n => Some((a, b)),
                _ => None,
            })
            .collect()
    }
}

impl Row {
    /// The solver's row of a user's row between solver bodies `(ia, ib)`, for a solver
    /// step of `h`.
    pub fn of_user(
        user: &dyn UserRow,
        bodies: &[SolverBody],
        (ia, ib): (usize, usize),
        poses: (&Pose, &Pose),
        h: f64,
    ) -> Self {
        let j = user.jacobian(poses.0, poses.1);
        let mut row = Row::general(bodies, (ia, ib), j.linear, (j.angular_a, j.angular_b));
        row.error = user.error(poses.0, poses.1);
        row.target = user.target();
        (row.lo, row.hi) = user.bounds(h);
        row.impulse = user.impulse();
        row
    }
}
