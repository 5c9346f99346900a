//! Continuous collision for fast bodies: a body that could move more than a share of its
//! own size in a step and ended it deep inside another is moved back along its path, by
//! conservative advancement (samples, then bisection on the separation), to where each
//! of its pairs is within the slop or no deeper than at the better end of the path; then
//! an inelastic impulse at the deep pair's deepest point stops that pair closing.
//! Speculative contacts alone let a tumbling box (a box dropped at 15 m/s onto a heap,
//! spinning at 15 rad/s after the first hit) end steps 10-15 cm inside the boxes it hits
//! next: the features that collide (a corner clipped away from the manifold, an edge
//! pair) were not among the points of the manifold computed at the step's start, which
//! the solver held. Moved back with its velocity kept (as rapier and Jolt do), such a box
//! met the same manifold at the next step and was moved back again, step after step,
//! gaining speed where it hung; and judged one pair at a time, it was moved back into a
//! neighbour that had moved in behind it. Mirtich, "Impulse-based Dynamic Simulation of
//! Rigid Body Systems" (conservative advancement, the impulse at the time of impact);
//! Catto, "Continuous Collision" (GDC 2013).

use super::narrow_phase::collide;
use crate::body::{Body, BodyState};
use crate::collision::geometry::Geom;
use crate::collision::pose::Pose;
use crate::collision::proxy::Proxy;
use crate::contacts::Contacts;
use crate::solver::parallel;
use glam::DVec3;

/// A body is fast when what it can move in a step (its reach past the speculative
/// distance) exceeds this share of its part's smallest half-size. At half, a box
/// tumbling at 4 m/s and 7 rad/s onto a heap was not swept and sank 5.4 cm.
const FAST_SHARE: f64 = 0.25;

/// A pair that ends the step deeper than this many slops is swept back.
const DEEP: f64 = 2.0;

/// The path is tried at this many evenly spaced fractions, and the latest clear one is
/// bisected toward the next: moving a
/// body back can take it into a neighbour that moved into where it was, so the
/// separation along the path need not change one way.
const SAMPLES: usize = 8;

/// Bisection steps between the latest clear sample and the next: the time of impact to
/// 1/1024 of the step.
const BISECTIONS: usize = 7;

impl Contacts {
    /// Moves each fast body that ended this step more than [`DEEP`] slops inside another
    /// (and deeper by a slop than it started) back along its path (its pose interpolated
    /// between the step's start and end) to the latest time found at which each of its
    /// pairs is within the slop, or no deeper than the pair was at the better end of the
    /// path; the others where they are, so a body moved back is judged against the
    /// bodies moved back before it. `free(i)`: body `i` moves in the world (a rider
    /// moves in its frame, which this leaves alone). The last of the solve's stages.
    /// A detection at rest makes no proxies: then nothing moved and nothing is swept.
    pub(crate) fn sweep_back(&self, bodies: &mut [Body], free: impl Fn(usize) -> bool + Sync) {
        if self.scratch.proxies_made != self.state.stamp {
            return;
        }
        let spec = 0.5 * self.state.settings.speculative_distance;
        let fast = |p: &Proxy| {
            let b = p.body as usize;
            b < bodies.len() && free(b) && p.reach - spec > FAST_SHARE * inner_size(&p.geom)
        };
        // Only a body that moved in this step can be fast, and it was awake in the
        // detection, or its proxy was made at rest, with no reach to spare.
        if !(self.scratch.awake_proxies.iter()).any(|&k| fast(&self.scratch.proxies[k as usize])) {
            return;
        }
        let swept = self.ended_deep(bodies, fast);
        if swept.is_empty() {
            return;
        }
        // Each swept body's pairs, as (its proxy, the other's).
        let mut theirs: Vec<Vec<[u32; 2]>> = vec![Vec::new(); swept.len()];
        for &(i, j) in &self.scratch.pairs {
            for pair in [[i, j], [j, i]] {
                if let Ok(s) = swept.binary_search(&self.scratch.proxies[pair[0] as usize].body) {
                    theirs[s].push(pair);
                }
            }
        }
        for (&b, pairs) in swept.iter().zip(&theirs) {
            let body = b as usize;
            let path = (
                self.scratch.proxies[pairs[0][0] as usize].pose,
                Pose::of(&bodies[body].state),
            );
            let (t, deep) = latest_clear(
                bodies,
                &self.scratch.proxies,
                pairs,
                path,
                self.state.settings.slop,
            );
            // Clear where the step ended, no pair is deep (a deep one ended deeper than
            // it began, and beyond the slop). Where no sample was clear and the least
            // deep is the end, the body stays there and its deep pairs still stop closing.
            if t < 1.0 {
                let pose = path.0.toward(&path.1, t);
                bodies[body].state.position = pose.position;
                bodies[body].state.orientation = pose.orientation;
            }
            for pair in (pairs.iter().zip(deep)).filter_map(|(p, d)| d.then_some(p)) {
                let [mine, other] = pair.map(|k| &self.scratch.proxies[k as usize]);
                let movable = free(other.body as usize);
                stop_closing(bodies, [mine, other], path.1, movable);
            }
        }
    }

    /// The fast bodies (in order) at an end of a pair that ended the step more than
    /// [`DEEP`] slops deep and a slop deeper than with its fast ends where the step
    /// began; each pair on its own, on the stage's team. (Most pairs of a forming heap
    /// have a falling box at one end. This loop once ran on one thread because on two it
    /// made the 1,000-box heap's step twice as slow: the cores placed far apart, which
    /// slowed every loop on two threads; see `solver/choice.rs`.)
    fn ended_deep(&self, bodies: &[Body], fast: impl Fn(&Proxy) -> bool + Sync) -> Vec<u32> {
        let slop = self.state.settings.slop;
        let apart = |e: &[&Proxy; 2]| {
            let [a, b] = e.map(|p| bodies[p.body as usize].state.position);
            a.distance(b) > e[0].extent + e[1].extent
        };
        let ends = |k: usize| {
            let (i, j) = self.scratch.pairs[k];
            [i, j].map(|p| &self.scratch.proxies[p as usize])
        };
        // Which ends of each pair are fast and deep.
        let mut deep_ends = Vec::new();
        parallel::collect(self.scratch.pairs.len(), &mut deep_ends, |k| {
            let ends = ends(k);
            let moving = ends.map(&fast);
            let deep = moving != [false, false] && !apart(&ends) && {
                let end = at(&ends, moving, bodies, 1.0);
                end < -DEEP * slop && end < at(&ends, moving, bodies, 0.0) - slop
            };
            moving.map(|m| deep && m)
        });
        let mut swept: Vec<u32> = (deep_ends.iter().enumerate())
            .flat_map(|(k, deep)| {
                (ends(k).into_iter().zip(deep)).filter_map(|(p, &d)| d.then_some(p.body))
            })
            .collect();
        swept.sort_unstable();
        swept.dedup();
        swept
    }
}

/// The latest fraction `t` of a body's `path` at which each of its `pairs` (its proxy,
/// the other's, the other where it is now) is within the slop or no deeper than at the
/// better end of the path (conservative advancement, Mirtich); where no sample of the
/// path is, the sample whose deepest pair is least deep, so moving back into a
/// neighbour that moved in behind the body costs no more than it gains.
fn latest_clear(
    bodies: &[Body],
    proxies: &[Proxy],
    pairs: &[[u32; 2]],
    path: (Pose, Pose),
    slop: f64,
) -> (f64, Vec<bool>) {
    let others: Vec<Geom> = (pairs.iter())
        .map(|p| geom_at(&proxies[p[1] as usize], bodies, None))
        .collect();
    let seps = |t: f64| -> Vec<f64> {
        let pose = path.0.toward(&path.1, t);
        (pairs.iter().zip(&others))
            .map(|(p, other)| separation(&geom_posed(&proxies[p[0] as usize], bodies, pose), other))
            .collect()
    };
    let (starts, ends) = (seps(0.0), seps(1.0));
    let floors: Vec<f64> = (starts.iter().zip(&ends))
        .map(|(start, end)| start.max(*end).min(-slop))
        .collect();
    let deep = (starts.iter().zip(&ends))
        .map(|(start, end)| *end < -DEEP * slop && *end < start - slop)
        .collect();
    let margin = |t: f64| {
        (seps(t).iter().zip(&floors))
            .map(|(s, floor)| s - floor)
            .fold(f64::INFINITY, f64::min)
    };
    let fraction = |i: usize| i as f64 / SAMPLES as f64;
    let margins: Vec<f64> = (0..=SAMPLES).map(|i| margin(fraction(i))).collect();
    let Some(clear) = margins.iter().rposition(|&m| m >= 0.0) else {
        // The latest of those tied (`max_by` keeps the last).
        let least_deep = (0..=SAMPLES).max_by(|&a, &b| margins[a].total_cmp(&margins[b]));
        return (fraction(least_deep.unwrap_or(0)), deep);
    };
    if clear == SAMPLES {
        return (1.0, deep);
    }
    let (mut good, mut bad) = (fraction(clear), fraction(clear + 1));
    for _ in 0..BISECTIONS {
        let mid = 0.5 * (good + bad);
        if margin(mid) >= 0.0 {
            good = mid;
        } else {
            bad = mid;
        }
    }
    (good, deep)
}

/// Stops a pair that ended the step deep from closing, as Mirtich's impulse-based
/// simulation does at a time of impact: an inelastic impulse along the normal of the
/// pair's deepest point where the step ended, at that point (carried with the first
/// body to the pose it was moved back to), on both bodies at that one point (on the first alone when the
/// other is not free: asleep, riding its frame, or jointed). Those features may be missing
/// from the manifold the solver held (a corner the clipping left out, an edge pair):
/// without the impulse, the body moved back keeps its velocity, meets the same
/// manifold at the next step, and is moved back again, step after step.
fn stop_closing(bodies: &mut [Body], [mine, other]: [&Proxy; 2], end: Pose, movable: bool) {
    let (a, b) = (geom_posed(mine, bodies, end), geom_at(other, bodies, None));
    let Some(m) = collide(&a, &b, 0.0, None) else {
        return;
    };
    let points = m.points().iter();
    let Some(deepest) = points.min_by(|p, q| p.separation.total_cmp(&q.separation)) else {
        return;
    };
    let (i, j) = (mine.body as usize, other.body as usize);
    let now = Pose::of(&bodies[i].state);
    let lever = now.orientation * (end.orientation.inverse() * (deepest.position - end.position));
    // Both impulses at that one point: angular momentum is kept, as in the solver.
    let levers = [lever, now.position + lever - bodies[j].state.position];
    let n = m.normal;
    let point_velocity =
        |body: &Body, r: DVec3| body.state.velocity + body.state.world_omega(&body.props).cross(r);
    // The change of a point's velocity along `n` for a unit impulse along `n` there.
    let give = |body: &Body, r: DVec3| {
        let unit = BodyState {
            angular_momentum: r.cross(n),
            ..body.state
        };
        1.0 / body.props.mass + unit.world_omega(&body.props).cross(r).dot(n)
    };
    // Closing relative to the other body, which moves on its own where it is not free (a
    // rider with its frame).
    let closing =
        (point_velocity(&bodies[i], levers[0]) - point_velocity(&bodies[j], levers[1])).dot(n);
    let mut k = give(&bodies[i], levers[0]);
    if movable {
        k += give(&bodies[j], levers[1]);
    }
    if closing <= 0.0 {
        return;
    }
    let impulse = n * (closing / k);
    let push = |body: &mut Body, p: DVec3, r: DVec3| {
        body.state.velocity += p / body.props.mass;
        body.state.angular_momentum += r.cross(p);
    };
    push(&mut bodies[i], -impulse, levers[0]);
    if movable {
        push(&mut bodies[j], impulse, levers[1]);
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
    let end = Pose::of(&bodies[p.body as usize].state);
    geom_posed(p, bodies, t.map_or(end, |t| p.pose.toward(&end, t)))
}

/// The proxy's shape with its body at `pose`.
fn geom_posed(p: &Proxy, bodies: &[Body], pose: Pose) -> Geom {
    let part = &bodies[p.body as usize].parts[p.part as usize];
    Geom::of_part(part, pose.position, pose.orientation)
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
