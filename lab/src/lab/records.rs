//! One output record per body per written step: its columns, which the command line and
//! the app write as CSV or JSON lines.

use crate::integrators::Integrator;
use glam::DVec3;

use crate::body::Body;
use crate::world::World;

pub const CSV_HEADER: &str =
    "t,body,integrator,px,py,pz,qw,qx,qy,qz,wx,wy,wz,wbx,wby,wbz,lx,ly,lz,energy,vx,vy,vz";

/// The columns of one record; every float is printed at full (round-trip) precision.
#[derive(Clone, Debug, PartialEq)]
pub struct Record<'a> {
    pub t: f64,
    pub body: &'a str,
    pub integrator: Integrator,
    pub values: [f64; 20],
}

/// In the order of [`CSV_HEADER`]: columns added later go at its end, since scripts read
/// the columns by position.
pub const VALUE_KEYS: [&str; 20] = [
    "px", "py", "pz", "qw", "qx", "qy", "qz", "wx", "wy", "wz", "wbx", "wby", "wbz", "lx", "ly",
    "lz", "energy", "vx", "vy", "vz",
];

impl<'a> Record<'a> {
    pub fn of_world(world: &'a World) -> impl Iterator<Item = Record<'a>> {
        world
            .bodies()
            .iter()
            .map(move |b| Self::of_body(world.time(), world.integrator(), world.gravity(), b))
    }

    /// One body at time `t`; the app's export builds records from recorded states with it.
    pub fn of_body(t: f64, integrator: Integrator, gravity: DVec3, b: &'a Body) -> Self {
        let s = &b.state;
        let (p, q, v) = (s.position, s.orientation, s.velocity);
        let (w, wb, l) = (
            s.world_omega(&b.props),
            s.body_omega(&b.props),
            s.angular_momentum,
        );
        Record {
            t,
            body: &b.name,
            integrator,
            values: [
                p.x,
                p.y,
                p.z,
                q.w,
                q.x,
                q.y,
                q.z,
                w.x,
                w.y,
                w.z,
                wb.x,
                wb.y,
                wb.z,
                l.x,
                l.y,
                l.z,
                b.energy(gravity),
                v.x,
                v.y,
                v.z,
            ],
        }
    }

    /// The first column whose value is not finite, if any.
    pub fn non_finite(&self) -> Option<&'static str> {
        if !self.t.is_finite() {
            return Some("t");
        }
        VALUE_KEYS
            .iter()
            .zip(self.values)
            .find(|(_, v)| !v.is_finite())
            .map(|(k, _)| *k)
    }
}
