//! Continuous collision for fast bodies: a body that could move more than a share of its
//! own size in a step and ended it deep inside another is moved back along its path, by
//! conservative advancement (bisection on the separation), to where it first came within
//! the slop; its velocity stays, so the next step's speculative contact stops it there.
//! Speculative contacts alone let a tumbling box (a box dropped at 15 m/s onto a heap,
//! spinning at 15 rad/s after the first hit) end steps 10-15 cm inside the boxes it hits
//! next: the features that collide (a corner clipped away from the manifold, an edge
//! pair) were not among the points of the manifold computed at the step's start, which
//! the solver held. Mirtich, "Impulse-based Dynamic Simulation of Rigid Body Systems"
//! (conservative advancement); Catto, "Continuous Collision" (GDC 2013); rapier and Jolt
//! likewise move a fast body back to its time of impact and keep its velocity.

use super::geometry::Geom;
use super::narrow_phase::collide;
use super::{Contacts, Pose, Proxy};
use crate::body::Body;

/// A body is fast when what it can move in a step (its reach past the speculative
/// distance) exceeds this share of its part's smallest half-size.
const FAST_SHARE: f64 = 0.5;

/// A pair that ends the step deeper than this many slops is swept back.
const DEEP: f64 = 2.0;

/// Bisection steps: the time of impact to 1/1024 of the step.
const BISECTIONS: usize = 10;

impl Contacts {
    /// Moves each fast body that ended this step more than [`DEEP`] slops inside another
    /// back along its path (its pose interpolated between the step's start and end) to
    /// the latest time found at which it is within the slop of each such body; `free(i)`:
    /// body `i` moves in the world (a rider moves in its frame, which this leaves alone).
    /// The last of the solve's stages.
    /// A detection at rest makes no proxies: then nothing moved and nothing is swept.
    pub(super) fn sweep_back(&self, bodies: &mut [Body], free: impl Fn(usize) -> bool + Sync) {
        if self.proxies_made != self.stamp {
            return;
        }
        let spec = 0.5 * self.settings.speculative_distance;
        let fast = |p: &Proxy| {
            let b = p.body as usize;
            b < bodies.len() && free(b) && p.reach - spec > FAST_SHARE * inner_size(&p.geom)
        };
        // Only a body that moved in this step can be fast, and it was awake in the
        // detection, or its proxy was made at rest, with no reach to spare.
        if !(self.awake_proxies.iter()).any(|&k| fast(&self.proxies[k as usize])) {
            return;
        }
        let slop = self.settings.slop;
        // Which pairs ended the step deep (most pairs of a forming heap have a falling
        // box at one end), in a loop of one thread: shared with the solve's team, this
        // short loop made the 1,000-box heap's two-thread step twice as slow.
        let bodies_now: &[Body] = bodies;
        let deep: Vec<Option<[bool; 2]>> = (0..self.pairs.len())
            .map(|k| {
                let (i, j) = self.pairs[k];
                let ends = [i, j].map(|k| &self.proxies[k as usize]);
                let moving = ends.map(fast);
                let apart = |e: &[&Proxy; 2]| {
                    let [a, b] = e.map(|p| bodies_now[p.body as usize].state.position);
                    a.distance(b) > e[0].extent + e[1].extent
                };
                let ended_deep = moving != [false, false]
                    && !apart(&ends)
                    && at(&ends, moving, bodies_now, 1.0) < -DEEP * slop
                    && at(&ends, moving, bodies_now, 0.0) >= -slop;
                ended_deep.then_some(moving)
            })
            .collect();
        let mut back: Vec<Option<(f64, Pose)>> = vec![None; bodies.len()];
        for (&(i, j), moving) in self.pairs.iter().zip(deep) {
            let Some(moving) = moving else { continue };
            let ends = [i, j].map(|k| &self.proxies[k as usize]);
            let (mut good, mut bad) = (0.0, 1.0);
            for _ in 0..BISECTIONS {
                let mid = 0.5 * (good + bad);
                if at(&ends, moving, bodies, mid) >= -slop {
                    good = mid;
                } else {
                    bad = mid;
                }
            }
            for (p, _) in ends.iter().zip(moving).filter(|&(_, m)| m) {
                let slot = &mut back[p.body as usize];
                if slot.is_none_or(|(t, _)| good < t) {
                    *slot = Some((good, p.pose));
                }
            }
        }
        for (body, back) in bodies.iter_mut().zip(back) {
            if let Some((t, start)) = back {
                let pose = start.toward(&Pose::of(&body.state), t);
                body.state.position = pose.position;
                body.state.orientation = pose.orientation;
            }
        }
    }
}

/// The separation of a pair's shapes with the `moving` ends moved back to the fraction
/// `t` of their paths (the others where the step ended).
fn at(ends: &[&Proxy; 2], moving: [bool; 2], bodies: &[Body], t: f64) -> f64 {
    let [a, b] = [0, 1].map(|e| geom_at(ends[e], bodies, moving[e].then_some(t)));
    separation(&a, &b)
}

/// The proxy's shape with its body at the step's end, or moved back to the fraction `t`
/// of its path from the step's start.
fn geom_at(p: &Proxy, bodies: &[Body], t: Option<f64>) -> Geom {
    let body = &bodies[p.body as usize];
    let end = Pose::of(&body.state);
    let pose = t.map_or(end, |t| p.pose.toward(&end, t));
    Geom::of_part(
        &body.parts[p.part as usize],
        pose.position,
        pose.orientation,
    )
}

/// How far apart two shapes are: the least separation of their manifold, or a positive
/// number when they do not touch.
fn separation(a: &Geom, b: &Geom) -> f64 {
    collide(a, b, 0.0, None).map_or(f64::INFINITY, |m| {
        m.points()
            .iter()
            .map(|p| p.separation)
            .fold(f64::INFINITY, f64::min)
    })
}

/// The shape's smallest half-size: how far it can move before it could pass through
/// something as thin as itself.
fn inner_size(g: &Geom) -> f64 {
    match *g {
        Geom::Box { half, .. } => half.min_element(),
        Geom::Sphere { radius, .. } | Geom::Capsule { radius, .. } => radius,
        Geom::Cylinder {
            radius,
            half_length,
            ..
        } => radius.min(half_length),
    }
}
