//! The contact graph (index-linked lists [cwzx, Lists]) against the plain alternative, a
//! `HashMap` from body pair to an index in a `Vec`. Both replay the contacts of 100
//! steps of the 1,000-box pile:
//! - bookkeeping: every touching pair is looked up (kept or inserted) and the pairs that
//!   parted are erased;
//! - islands: the graph's list walk and union-find over its contact array (what
//!   gyrolab uses), against a depth-first search over adjacency lists rebuilt from
//!   the map's pairs each step, and union-find over the map's pairs.
//!
//! In the engine's order the lists won by 4× on bookkeeping and 2× with islands; with
//! the pairs shuffled, by 1.5× (figures in docs/speed.md).

use std::collections::HashMap;
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use gyrolab::collision::graph::{ContactGraph, NONE};
use gyrolab::scene::Scene;
use gyrolab::solver::islands::components;

const BODIES: u32 = 1000;
const STEPS: usize = 100;

/// The touching pairs `(a, b)` of each step.
type Steps = Vec<Vec<(u32, u32)>>;

/// What the solver's bookkeeping does with contacts each step.
trait Graph: Default {
    fn touch(&mut self, a: u32, b: u32, stamp: u64);
    fn sweep(&mut self, stamp: u64);
    fn islands(&mut self, bodies: usize) -> usize;
}

impl Graph for ContactGraph<u64> {
    fn touch(&mut self, a: u32, b: u32, stamp: u64) {
        match self.find(a, b, |_| true) {
            Some(c) => self.values_mut()[c] = stamp,
            None => {
                self.insert(a, b, stamp);
            }
        }
    }

    fn sweep(&mut self, stamp: u64) {
        for c in (0..self.len()).rev() {
            if self.values()[c] != stamp {
                self.erase(c);
            }
        }
    }

    fn islands(&mut self, bodies: usize) -> usize {
        let edges = self.ends().iter().map(|&[a, b]| (a, b));
        let roots = components(bodies, edges);
        roots
            .iter()
            .enumerate()
            .filter(|&(b, &r)| r as usize == b)
            .count()
    }
}

/// The same graph, its islands found by walking each body's list.
#[derive(Default)]
struct Walked(ContactGraph<u64>);

impl Graph for Walked {
    fn touch(&mut self, a: u32, b: u32, stamp: u64) {
        self.0.touch(a, b, stamp)
    }

    fn sweep(&mut self, stamp: u64) {
        self.0.sweep(stamp)
    }

    fn islands(&mut self, bodies: usize) -> usize {
        walk(bodies, |body, out| {
            out.extend(self.0.contacts_of(body).map(|(_, other)| other))
        })
    }
}

#[derive(Default)]
struct MapGraph {
    index: HashMap<(u32, u32), usize>,
    pairs: Vec<(u32, u32, u64)>,
    adjacency: Vec<Vec<u32>>,
}

impl Graph for MapGraph {
    fn touch(&mut self, a: u32, b: u32, stamp: u64) {
        match self.index.get(&(a, b)) {
            Some(&c) => self.pairs[c].2 = stamp,
            None => {
                self.index.insert((a, b), self.pairs.len());
                self.pairs.push((a, b, stamp));
            }
        }
    }

    fn sweep(&mut self, stamp: u64) {
        for c in (0..self.pairs.len()).rev() {
            if self.pairs[c].2 != stamp {
                let (a, b, _) = self.pairs.swap_remove(c);
                self.index.remove(&(a, b));
                if let Some(&(ma, mb, _)) = self.pairs.get(c) {
                    self.index.insert((ma, mb), c);
                }
            }
        }
    }

    fn islands(&mut self, bodies: usize) -> usize {
        self.adjacency.resize(bodies, Vec::new());
        self.adjacency.iter_mut().for_each(Vec::clear);
        for &(a, b, _) in &self.pairs {
            self.adjacency[a as usize].push(b);
            if b != NONE {
                self.adjacency[b as usize].push(a);
            }
        }
        let adjacency = &self.adjacency;
        walk(bodies, |body, out| {
            out.extend_from_slice(&adjacency[body as usize])
        })
    }
}

/// The map, its islands by union-find over its pair array.
#[derive(Default)]
struct MapUnion(MapGraph);

impl Graph for MapUnion {
    fn touch(&mut self, a: u32, b: u32, stamp: u64) {
        self.0.touch(a, b, stamp)
    }

    fn sweep(&mut self, stamp: u64) {
        self.0.sweep(stamp)
    }

    fn islands(&mut self, bodies: usize) -> usize {
        let roots = components(bodies, self.0.pairs.iter().map(|&(a, b, _)| (a, b)));
        roots
            .iter()
            .enumerate()
            .filter(|&(b, &r)| r as usize == b)
            .count()
    }
}

/// Connected components by depth-first search over `neighbours`.
fn walk(bodies: usize, mut neighbours: impl FnMut(u32, &mut Vec<u32>)) -> usize {
    let mut seen = vec![false; bodies];
    let (mut stack, mut next) = (Vec::new(), Vec::new());
    let mut count = 0;
    for root in 0..bodies {
        if seen[root] {
            continue;
        }
        count += 1;
        seen[root] = true;
        stack.push(root as u32);
        while let Some(body) = stack.pop() {
            next.clear();
            neighbours(body, &mut next);
            for &other in &next {
                if other != NONE && !seen[other as usize] {
                    seen[other as usize] = true;
                    stack.push(other);
                }
            }
        }
    }
    count
}

/// The touching pairs of 100 steps of the `pile` scene (1,000 boxes landing and piling
/// up, sleeping off so every step has work), in the order the engine's graph holds
/// them; and the same pairs shuffled within each step, the worst order for list walks.
fn workloads() -> [(&'static str, Steps); 2] {
    let mut world = Scene::load("pile").expect("built-in scene").build();
    world.change_solver_settings(|s| s.sleep = false);
    let dt = 1.0 / 60.0;
    for _ in 0..120 {
        world.advance(dt).expect("finite step");
    }
    let pile: Steps = (0..STEPS)
        .map(|_| {
            world.advance(dt).expect("finite step");
            let graph = world.contacts().expect("contacts").graph();
            graph.ends().iter().map(|&[a, b]| (a, b)).collect()
        })
        .collect();
    let mut seed = 0x9e3779b97f4a7c15u64;
    let mut rand = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let mut shuffled = pile.clone();
    for step in &mut shuffled {
        for k in (1..step.len()).rev() {
            step.swap(k, rand(k + 1));
        }
    }
    [("pile-order", pile), ("shuffled", shuffled)]
}

/// Replays the steps; `islands` says whether islands are found each step too.
fn replay<G: Graph>(steps: &Steps, islands: bool) -> usize {
    let mut g = G::default();
    let mut count = 0;
    for (stamp, pairs) in steps.iter().enumerate() {
        for &(a, b) in pairs {
            g.touch(a, b, stamp as u64);
        }
        g.sweep(stamp as u64);
        if islands {
            count += g.islands(BODIES as usize);
        }
    }
    count
}

fn graphs(c: &mut Criterion) {
    for (order, steps) in workloads() {
        // All must agree before their times mean anything.
        let islands = replay::<MapGraph>(&steps, true);
        assert_eq!(replay::<ContactGraph<u64>>(&steps, true), islands);
        assert_eq!(replay::<Walked>(&steps, true), islands);
        assert_eq!(replay::<MapUnion>(&steps, true), islands);
        let mut group = c.benchmark_group(format!("contact-graph-100-steps/{order}"));
        group.bench_function("bookkeeping/index-linked lists", |b| {
            b.iter(|| replay::<ContactGraph<u64>>(black_box(&steps), false))
        });
        group.bench_function("bookkeeping/HashMap + Vec", |b| {
            b.iter(|| replay::<MapGraph>(black_box(&steps), false))
        });
        group.bench_function("with-islands/index-linked lists, union-find", |b| {
            b.iter(|| replay::<ContactGraph<u64>>(black_box(&steps), true))
        });
        group.bench_function("with-islands/index-linked lists, list walk", |b| {
            b.iter(|| replay::<Walked>(black_box(&steps), true))
        });
        group.bench_function("with-islands/HashMap + Vec, adjacency walk", |b| {
            b.iter(|| replay::<MapGraph>(black_box(&steps), true))
        });
        group.bench_function("with-islands/HashMap + Vec, union-find", |b| {
            b.iter(|| replay::<MapUnion>(black_box(&steps), true))
        });
        group.finish();
    }
}

criterion_group!(benches, graphs);
criterion_main!(benches);
