//! What detection makes of each body's part and keeps between its stages: a proxy (the
//! shape placed, with its reach), the state a body's proxies were made from, and the
//! buffers a detection fills.

use crate::body::BodyState;
use crate::body::Material;
use crate::collision::{Geom, Manifold, Pose};

/// A shape of a body's part as this detection placed it, with how far its contacts reach.
#[derive(Clone, Debug)]
pub(crate) struct Proxy {
    pub(crate) body: u32,
    pub(crate) part: u32,
    pub(crate) geom: Geom,
    /// How far ahead of touching this shape's contacts start: half the speculative
    /// distance plus what the body can move in one step.
    pub(crate) reach: f64,
    /// How far the shape reaches from its body's centre.
    pub(crate) extent: f64,
    /// The body's pose it was made at.
    pub(crate) pose: Pose,
}

/// A manifold found against the ground or a kinematic part: the body's part, the other
/// end (`NONE`, the plane's or part's index, the kinematic collider or `NONE`), the
/// manifold and the mixed material.
pub(crate) type Touch = ((u32, u32), (u32, u32, u32), Manifold, Material);

/// Detection's buffers of its own types, kept so that a step allocates nothing: the
/// manifolds found against planes and kinematic parts on their way to the graph, and
/// the proxies made again before they take their places.
#[derive(Clone, Debug, Default)]
pub(crate) struct FoundBuffers {
    pub(crate) touches: Vec<Touch>,
    pub(crate) proxies: Vec<Proxy>,
}

/// The bits of a body's state that its proxies were made from: its position and
/// orientation, and whether it was at rest (no velocity, no angular momentum: then each
/// proxy's reach is the speculative half-distance, whatever the step). One cache line,
/// so that a pass over every body's reads contiguous memory.
#[derive(Clone, Copy, Debug)]
#[repr(align(64))]
pub(crate) struct Still([u64; 8]);

impl Still {
    #[inline]
    pub(crate) fn of(s: &BodyState) -> Self {
        let (p, q) = (s.position, s.orientation);
        let moving = [s.velocity, s.angular_momentum]
            .iter()
            .flat_map(|v| v.to_array())
            .fold(0, |m, x| m | x.to_bits());
        // Shifted out, the sign bits: -0 is at rest too.
        let pose = [p.x, p.y, p.z, q.x, q.y, q.z, q.w].map(f64::to_bits);
        let mut bits = [0; 8];
        bits[..7].copy_from_slice(&pose);
        bits[7] = moving << 1;
        Self(bits)
    }

    /// Whether `s` is at rest with this state's pose, bit for bit (the same bits make the
    /// same proxies; -0 against +0 makes them again, needlessly but harmlessly).
    #[inline]
    pub(crate) fn holds(&self, s: &BodyState) -> bool {
        let now = Self::of(s);
        let differ = (now.0.iter().zip(&self.0)).fold(now.0[7], |d, (a, b)| d | (a ^ b));
        differ == 0
    }
}
