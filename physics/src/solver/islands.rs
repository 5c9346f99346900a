//! Islands and sleeping. Bodies linked by contacts or joints form an island; an island
//! whose every body has been slow for the sleep time falls asleep as a whole and is
//! neither solved nor integrated until something awake touches it.
//!
//! The bodies' sleep states are a [`Sleeping`], written only by its methods here: fitted
//! to the bodies by detection, woken, ticked after each step and decided island by
//! island by the sleep stage.

use crate::collision::graph::{ContactGraph, NONE};
use crate::contacts::buffers::Buffers;
use crate::joints::joint::Joint;
use crate::solver::settings::SolverSettings;

/// One body's sleep state.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Sleep {
    /// How long the body has been slower than the sleep speed.
    pub timer: f64,
    /// Whether the body sleeps: it is neither solved nor integrated.
    pub asleep: bool,
}

/// Every body's sleep state, by body index (saved as the list of them).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct Sleeping(Vec<Sleep>);

impl Sleeping {
    /// How many bodies have a state.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether no body has a state (before the first detection).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether body `body` sleeps; it must have a state.
    #[inline]
    pub fn asleep(&self, body: usize) -> bool {
        self.0[body].asleep
    }

    /// Each body's state, in body order.
    pub fn iter(&self) -> std::slice::Iter<'_, Sleep> {
        self.0.iter()
    }

    /// The bytes the states take on the heap.
    pub(crate) fn heap_bytes(&self) -> usize {
        crate::heap::vec_bytes(&self.0)
    }

    /// A state for each of `bodies` bodies: new ones awake with their timers at zero.
    pub(crate) fn fit(&mut self, bodies: usize) {
        self.0.resize(bodies, Sleep::default());
    }

    /// Wakes `body` (and, at the next sleep stage, its island), its timer at zero; a body
    /// without a state is left alone.
    pub fn wake(&mut self, body: usize) {
        if let Some(s) = self.0.get_mut(body) {
            *s = Sleep::default();
        }
    }

    /// Advances the sleep timer of each awake body of `bodies` over a step of `h` in
    /// which it moved at its `speeds` (see [`sleep_speed`]): reset where the body was
    /// faster than the sleep speed.
    pub(crate) fn tick(
        &mut self,
        (bodies, speeds): (&[usize], &[f64]),
        settings: &SolverSettings,
        h: f64,
    ) {
        for (&b, &v) in bodies.iter().zip(speeds) {
            let s = &mut self.0[b];
            if !s.asleep {
                s.timer = if v > settings.sleep_speed {
                    0.0
                } else {
                    s.timer + h
                };
            }
        }
    }

    /// Puts to sleep every island whose bodies have all been slow for the sleep time, and
    /// wakes the others; returns how many islands are awake and how many bodies it
    /// walked, and leaves the bodies that fell asleep (their velocities must be zeroed)
    /// in `scratch.fell_asleep`. `edges` are the joints and the pairs of bodies the user
    /// rows join.
    pub(crate) fn update<V>(
        &mut self,
        graph: &ContactGraph<V>,
        edges: (&[Joint], &[(usize, usize)]),
        settings: &SolverSettings,
        scratch: &mut Buffers,
    ) -> (usize, usize) {
        update(graph, edges, (&mut self.0, scratch), settings)
    }
}

/// How fast a body moved through a step of `h`, for the sleep test: the speed of its
/// farthest point (`radius` from its centre), or half the speed of its position change
/// if that is more. Position correction moves a body without leaving it a velocity (the
/// relax pass takes that velocity out), so a body being pushed out of a penetration is
/// not at rest, whatever its velocity (Box2D v3's `sleepVelocity`, Catto, `solver.c`).
pub fn sleep_speed(
    (velocity, omega): (glam::DVec3, glam::DVec3),
    (moved, turned): (glam::DVec3, f64),
    radius: f64,
    h: f64,
) -> f64 {
    let moving = velocity.length() + omega.length() * radius;
    let correcting = 0.5 * (moved.length() + turned * radius) / h;
    moving.max(correcting)
}

/// Puts to sleep every island whose bodies have all been slow for the sleep time, and
/// wakes the others; returns how many islands are awake and how many bodies it walked,
/// and leaves the bodies that fell asleep in this call in `scratch.fell_asleep`. `links` are the pairs of bodies the
/// user rows join: a row links an island as a joint does, so it never holds an awake
/// body against a sleeping one, which the solver takes as immovable.
///
/// Where no awake body is linked to an asleep one, the asleep islands cannot change:
/// then only the awake bodies' links are walked (an asleep heap beside them costs
/// nothing). An asleep island's timers are all past the sleep time (it fell asleep
/// so), so this decides as the walk of every link would.
fn update<V>(
    graph: &ContactGraph<V>,
    (joints, links): (&[Joint], &[(usize, usize)]),
    (sleep, scratch): (&mut [Sleep], &mut Buffers),
    settings: &SolverSettings,
) -> (usize, usize) {
    let n = sleep.len();
    let joined = || {
        joints
            .iter()
            .filter(|j| j.holds())
            .filter_map(|j| j.b.map(|b| (j.a as u32, b as u32)))
            .chain(links.iter().map(|&(a, b)| (a as u32, b as u32)))
    };
    // The bodies walked (the awake ones, or every one) and the awake ones' links.
    let mut walked = std::mem::take(&mut scratch.awake);
    walked.clear();
    walked.extend((0..n as u32).filter(|&b| !sleep[b as usize].asleep));
    let mut edges = std::mem::take(&mut scratch.links);
    let (islands, count) = if settings.sleep
        && walked.len() < n
        && awake_links(graph, joined(), (&walked, &mut edges), sleep)
    {
        decide(
            n,
            edges.iter().copied(),
            (&walked, sleep, scratch),
            settings,
        )
    } else {
        let every = graph.ends().iter().map(|&[a, b]| (a, b)).chain(joined());
        walked.clear();
        walked.extend(0..n as u32);
        decide(n, every, (&walked, sleep, scratch), settings)
    };
    (scratch.awake, scratch.links) = (walked, edges);
    (islands, count)
}

/// Lists in `edges` the links of the `awake` bodies (their contacts, and the `joined`
/// pairs); `false` if one links an awake body to an asleep one.
fn awake_links<V>(
    graph: &ContactGraph<V>,
    joined: impl Iterator<Item = (u32, u32)>,
    (awake, edges): (&[u32], &mut Vec<(u32, u32)>),
    sleep: &[Sleep],
) -> bool {
    let asleep = |b: u32| b != NONE && sleep[b as usize].asleep;
    edges.clear();
    for &b in awake {
        for (_, other) in graph.contacts_of(b) {
            if asleep(other) {
                return false;
            }
            edges.push((b, other));
        }
    }
    for (a, b) in joined {
        if asleep(a) != asleep(b) {
            return false;
        }
        if !asleep(a) {
            edges.push((a, b));
        }
    }
    true
}

/// The islands of `edges` among `bodies` (the links of every one of them, and no
/// other's): each is put to sleep if all its bodies have been slow for the sleep time,
/// and woken otherwise; returns how many of them are awake and how many bodies it
/// walked, and leaves the bodies that fell asleep in `scratch.fell_asleep`.
fn decide(
    n: usize,
    edges: impl Iterator<Item = (u32, u32)>,
    (bodies, sleep, scratch): (&[u32], &mut [Sleep], &mut Buffers),
    settings: &SolverSettings,
) -> (usize, usize) {
    let roots = &mut scratch.roots;
    components_into(roots, n, edges);
    let calm = &mut scratch.calm;
    calm.clear();
    calm.resize(n, f64::INFINITY);
    let mut count = 0;
    for &b in bodies {
        let (b, r) = (b as usize, roots[b as usize] as usize);
        calm[r] = calm[r].min(sleep[b].timer);
    }
    let fell_asleep = &mut scratch.fell_asleep;
    fell_asleep.clear();
    for &b in bodies {
        let (b, r) = (b as usize, roots[b as usize]);
        let asleep = settings.sleep && calm[r as usize] >= settings.sleep_time;
        count += usize::from(r as usize == b && !asleep);
        if asleep && !sleep[b].asleep {
            fell_asleep.push(b);
        }
        sleep[b].asleep = asleep;
    }
    (count, bodies.len())
}

/// The island of each body, as the index of one body of it: connected components of `edges`
/// (static ends, `NONE`, join nothing) by union-find. It visits the contact array once, in
/// memory order, instead of walking each body's list: the advice of [cwzx, Lists] for
/// algorithms that see every element in no particular order, and measured faster than the
/// walk in `benches/contact_graph.rs`.
pub fn components(n: usize, edges: impl Iterator<Item = (u32, u32)>) -> Vec<u32> {
    let mut parent = Vec::new();
    components_into(&mut parent, n, edges);
    parent
}

/// [`components`] into `parent`, whose memory is reused.
fn components_into(parent: &mut Vec<u32>, n: usize, edges: impl Iterator<Item = (u32, u32)>) {
    parent.clear();
    parent.extend(0..n as u32);
    fn root(parent: &mut [u32], mut x: u32) -> u32 {
        while parent[x as usize] != x {
            // Path halving: every other node on the way points to its grandparent.
            let grand = parent[parent[x as usize] as usize];
            parent[x as usize] = grand;
            x = grand;
        }
        x
    }
    for (a, b) in edges {
        if a == NONE || b == NONE {
            continue;
        }
        let (ra, rb) = (root(parent, a), root(parent, b));
        // The smaller index becomes the root, so labels do not depend on edge order.
        if ra != rb {
            parent[ra.max(rb) as usize] = ra.min(rb);
        }
    }
    for x in 0..n as u32 {
        parent[x as usize] = root(parent, x);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two bodies share an island iff a path of edges joins them: union-find against
    /// the transitive closure, on random graphs with static ends mixed in.
    #[test]
    fn components_match_reachability() {
        let mut seed = 7u64;
        let mut rand = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        for _ in 0..50 {
            let n = 1 + rand(30) as usize;
            let edges: Vec<(u32, u32)> = (0..rand(40))
                .map(|_| {
                    let b = if rand(4) == 0 {
                        NONE
                    } else {
                        rand(n as u64) as u32
                    };
                    (rand(n as u64) as u32, b)
                })
                .collect();
            let mut reach = vec![vec![false; n]; n];
            for (i, row) in reach.iter_mut().enumerate() {
                row[i] = true;
            }
            for &(a, b) in &edges {
                if b != NONE {
                    reach[a as usize][b as usize] = true;
                    reach[b as usize][a as usize] = true;
                }
            }
            for k in 0..n {
                for i in 0..n {
                    for j in 0..n {
                        if reach[i][k] && reach[k][j] {
                            reach[i][j] = true;
                        }
                    }
                }
            }
            let roots = components(n, edges.iter().copied());
            for i in 0..n {
                for j in 0..n {
                    assert_eq!(roots[i] == roots[j], reach[i][j], "{i} {j} in {edges:?}");
                }
            }
        }
    }
}
