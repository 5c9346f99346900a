//! One output row per body per written step, in CSV or JSON lines.

use std::fmt::Write;

use crate::integrators::Integrator;
use glam::DVec3;

use crate::body::Body;
use crate::world::World;

pub const CSV_HEADER: &str =
    "t,body,integrator,px,py,pz,qw,qx,qy,qz,wx,wy,wz,wbx,wby,wbz,lx,ly,lz,energy";

/// The columns of one row; every float is printed at full (round-trip) precision.
#[derive(Clone, Debug, PartialEq)]
pub struct Row<'a> {
    pub t: f64,
    pub body: &'a str,
    pub integrator: Integrator,
    pub values: [f64; 17],
}

const VALUE_KEYS: [&str; 17] = [
    "px", "py", "pz", "qw", "qx", "qy", "qz", "wx", "wy", "wz", "wbx", "wby", "wbz", "lx", "ly",
    "lz", "energy",
];

impl<'a> Row<'a> {
    pub fn of_world(world: &'a World) -> impl Iterator<Item = Row<'a>> {
        world
            .bodies
            .iter()
            .map(move |b| Self::of_body(world.time, world.integrator, world.gravity, b))
    }

    /// One body at time `t`; the app's export builds rows from recorded states with it.
    pub fn of_body(t: f64, integrator: Integrator, gravity: DVec3, b: &'a Body) -> Self {
        let s = &b.state;
        let (p, q) = (s.position, s.orientation);
        let (w, wb, l) = (
            s.world_omega(&b.props),
            s.body_omega(&b.props),
            s.angular_momentum,
        );
        Row {
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
            ],
        }
    }

    pub fn write_csv(&self, out: &mut String) {
        let _ = write!(out, "{},{},{}", self.t, self.body, self.integrator);
        for v in self.values {
            let _ = write!(out, ",{v}");
        }
        out.push('\n');
    }

    pub fn write_json(&self, out: &mut String) {
        // serde_json escapes the body name; floats are finite, and Rust prints them in
        // the shortest form that reads back exactly, which is valid JSON.
        let name = serde_json::to_string(self.body).unwrap_or_else(|_| "\"?\"".into());
        let _ = write!(
            out,
            "{{\"t\":{},\"body\":{name},\"integrator\":\"{}\"",
            self.t, self.integrator
        );
        for (k, v) in VALUE_KEYS.iter().zip(self.values) {
            let _ = write!(out, ",\"{k}\":{v}");
        }
        out.push_str("}\n");
    }
}
