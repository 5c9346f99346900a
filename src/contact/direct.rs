//! The joints' point constraints solved directly: every tree of joints at once, exactly,
//! in time linear in its joints (Baraff, "Linear-time dynamics using Lagrange
//! multipliers", SIGGRAPH 1996).
//!
//! The system is `K λ = r` with `K = J M⁻¹ Jᵀ` over the point blocks' impulses. Two
//! blocks couple only through a moving body they share, with
//! `K_jk = σ_j σ_k (m⁻¹ I − [r_j]× I⁻¹ [r_k]×)` (σ = +1 on the block's second body, −1 on
//! its first). When the bodies and joints form a forest, some joint always has an end
//! that no other joint shares (a leaf body, or the ground): eliminating it changes only
//! the blocks of the joints at its other end, which already couple, so nothing fills in
//! and the factor costs O(n). A joint that would close a loop stays iterative.

use glam::{DMat3, DVec3};

use super::solver::{PointBlock, SolverBody};

/// `[r]×`, the matrix of `v ↦ r × v`.
fn skew(r: DVec3) -> DMat3 {
    DMat3::from_cols(
        DVec3::new(0.0, r.z, -r.y),
        DVec3::new(-r.z, 0.0, r.x),
        DVec3::new(r.y, -r.x, 0.0),
    )
}

/// Block `j`'s lever and sign on body `body`, if it is one of its ends.
fn end(p: &PointBlock, body: usize) -> Option<(DVec3, f64)> {
    if p.b == body {
        Some((p.rb, 1.0))
    } else if p.a == body {
        Some((p.ra, -1.0))
    } else {
        None
    }
}

/// The coupling of blocks `j` and `k` through `body`.
fn coupling(s: &SolverBody, (rj, sj): (DVec3, f64), (rk, sk): (DVec3, f64)) -> DMat3 {
    (DMat3::from_diagonal(DVec3::splat(s.inv_mass)) - skew(rj) * s.inv_inertia * skew(rk))
        * (sj * sk)
}

/// A block whose equations were eliminated: its factored diagonal's inverse and, for
/// each block it was coupled to then, that block and `K_kj`.
#[derive(Clone, Debug, Default)]
struct Eliminated {
    block: usize,
    inv: DMat3,
    links: Vec<(usize, DMat3)>,
}

/// The factored system of one solver sub-step, and the blocks left to iterate.
#[derive(Clone, Debug, Default)]
pub struct Direct {
    order: Vec<Eliminated>,
    /// Blocks that close a loop (or touch nothing that moves), solved one at a time.
    pub iterative: Vec<usize>,
    /// Scratch of the solve: right-hand sides and impulses, by block.
    rhs: Vec<DVec3>,
    lambda: Vec<DVec3>,
}

impl Direct {
    /// Factors the system of `points` on `bodies` (a body moves if its inverse mass is
    /// not zero).
    pub fn new(points: &[PointBlock], bodies: &[SolverBody]) -> Self {
        let moves = |i: usize| bodies[i].inv_mass > 0.0;
        let (mut at, iterative) = forest(points, bodies.len(), moves);
        let mut diag: Vec<DMat3> = (points.iter())
            .map(|p| {
                [(p.a, p.ra, -1.0), (p.b, p.rb, 1.0)]
                    .into_iter()
                    .filter(|&(i, ..)| moves(i))
                    .map(|(i, r, s)| coupling(&bodies[i], (r, s), (r, s)))
                    .fold(DMat3::ZERO, |k, c| k + c)
            })
            .collect();
        let mut off = std::collections::HashMap::new();
        let mut order = Vec::with_capacity(points.len() - iterative.len());
        let mut ready: Vec<usize> = (0..points.len())
            .filter(|&j| !iterative.contains(&j) && leaf(&points[j], &at, moves))
            .collect();
        let mut done = vec![false; points.len()];
        while let Some(j) = ready.pop() {
            if std::mem::replace(&mut done[j], true) {
                continue;
            }
            let p = &points[j];
            let inv = if diag[j].determinant().abs() > 1e-300 {
                diag[j].inverse()
            } else {
                DMat3::ZERO
            };
            // The end other joints still share (at most one: `j` is a leaf).
            let shared = [p.a, p.b]
                .into_iter()
                .find(|&i| moves(i) && at[i].len() > 1);
            let mut links = Vec::new();
            for body in [p.a, p.b].into_iter().filter(|&i| moves(i)) {
                at[body].retain(|&k| k != j);
            }
            if let Some(body) = shared {
                let mut kj = |k: usize| {
                    *off.entry((k, j)).or_insert_with(|| {
                        let s = &bodies[body];
                        coupling(s, end(&points[k], body).unwrap(), end(p, body).unwrap())
                    })
                };
                links = at[body].iter().map(|&k| (k, kj(k))).collect();
                eliminate(
                    &links,
                    inv,
                    &mut diag,
                    &mut off,
                    (points, &bodies[body], body),
                );
                if at[body].len() == 1 {
                    ready.push(at[body][0]);
                }
            }
            order.push(Eliminated {
                block: j,
                inv,
                links,
            });
        }
        // None is left in a forest; this only guards the solve against a missed block.
        let missed: Vec<usize> = (0..points.len())
            .filter(|&j| !done[j] && !iterative.contains(&j))
            .collect();
        let iterative = [iterative, missed].concat();
        Self {
            order,
            iterative,
            rhs: vec![DVec3::ZERO; points.len()],
            lambda: vec![DVec3::ZERO; points.len()],
        }
    }

    /// One solve: the iterative blocks one at a time, then every tree's impulses at once
    /// so that each point's velocity meets its bias exactly (rigid, with the bias rate of
    /// the blocks' softness; `use_bias = false`: none, the relax pass).
    pub fn solve(
        &mut self,
        points: &mut [PointBlock],
        bodies: &mut [SolverBody],
        use_bias: bool,
        sor: f64,
    ) {
        for &j in &self.iterative {
            points[j].solve(bodies, use_bias, sor);
        }
        for e in &self.order {
            let p = &points[e.block];
            let (a, b) = (&bodies[p.a], &bodies[p.b]);
            let cdot = b.point_velocity(p.rb) - a.point_velocity(p.ra);
            let bias = if use_bias {
                p.error * p.softness.bias_rate
            } else {
                DVec3::ZERO
            };
            self.rhs[e.block] = -(cdot + bias);
        }
        // Forward: each block's equations into those of the blocks it was coupled to.
        for e in &self.order {
            let y = e.inv * self.rhs[e.block];
            for &(k, kkj) in &e.links {
                self.rhs[k] -= kkj * y;
            }
        }
        // Back: from the last block eliminated (a tree's root) to the first.
        for e in self.order.iter().rev() {
            let mut r = self.rhs[e.block];
            for &(k, kkj) in &e.links {
                r -= kkj.transpose() * self.lambda[k];
            }
            self.lambda[e.block] = e.inv * r;
        }
        for e in &self.order {
            let p = &mut points[e.block];
            p.impulse += self.lambda[e.block];
            p.apply(bodies, self.lambda[e.block]);
        }
    }
}

/// Which blocks each moving body has, and the blocks that would close a loop among the
/// moving bodies (or join none): those are solved iteratively.
fn forest(
    points: &[PointBlock],
    n: usize,
    moves: impl Fn(usize) -> bool,
) -> (Vec<Vec<usize>>, Vec<usize>) {
    let mut root: Vec<usize> = (0..n).collect();
    fn find(root: &mut [usize], mut i: usize) -> usize {
        while root[i] != i {
            root[i] = root[root[i]];
            i = root[i];
        }
        i
    }
    let (mut at, mut iterative) = (vec![Vec::new(); n], Vec::new());
    for (j, p) in points.iter().enumerate() {
        let ends: Vec<usize> = [p.a, p.b].into_iter().filter(|&i| moves(i)).collect();
        let closes = match ends[..] {
            [] => true,
            [a, b] => {
                let (ra, rb) = (find(&mut root, a), find(&mut root, b));
                root[ra] = rb;
                ra == rb
            }
            _ => false,
        };
        if closes {
            iterative.push(j);
        } else {
            ends.iter().for_each(|&i| at[i].push(j));
        }
    }
    (at, iterative)
}

/// Whether block `p` has an end no other block shares.
fn leaf(p: &PointBlock, at: &[Vec<usize>], moves: impl Fn(usize) -> bool) -> bool {
    [p.a, p.b]
        .into_iter()
        .any(|i| !moves(i) || at[i].len() == 1)
}

/// Eliminates a block with factored inverse `inv` coupled to `links` (each `(k, K_kj)`)
/// through `body`: `K_kl −= K_kj inv K_jl` for every pair, diagonal included.
fn eliminate(
    links: &[(usize, DMat3)],
    inv: DMat3,
    diag: &mut [DMat3],
    off: &mut std::collections::HashMap<(usize, usize), DMat3>,
    (points, s, body): (&[PointBlock], &SolverBody, usize),
) {
    for &(k, kkj) in links {
        for &(l, klj) in links {
            let update = kkj * inv * klj.transpose();
            if k == l {
                diag[k] -= update;
            } else {
                let kl = off.entry((k, l)).or_insert_with(|| {
                    coupling(
                        s,
                        end(&points[k], body).unwrap(),
                        end(&points[l], body).unwrap(),
                    )
                });
                *kl -= update;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact::settings::Softness;

    /// A small deterministic generator, so the test needs no crate.
    struct Lcg(u64);
    impl Lcg {
        fn next(&mut self) -> f64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        }
        fn vec(&mut self) -> DVec3 {
            DVec3::new(self.next(), self.next(), self.next())
        }
    }

    /// Bodies of unlike masses and anisotropic, turned inertias; the last is the ground.
    fn bodies(n: usize, rng: &mut Lcg) -> Vec<SolverBody> {
        let mut out: Vec<SolverBody> = (0..n)
            .map(|_| {
                let a = DMat3::from_cols(rng.vec(), rng.vec(), rng.vec());
                SolverBody {
                    v: rng.vec(),
                    w: rng.vec(),
                    inv_mass: 0.05 + rng.next().abs() * 20.0,
                    inv_inertia: a * a.transpose() + DMat3::IDENTITY * 0.1,
                }
            })
            .collect();
        out.push(SolverBody::STATIC);
        out
    }

    /// After one direct solve without bias every joint's two anchor points move
    /// together, on a tree with branches (a body with three joints), chains and
    /// joints to the ground, in the order given.
    #[test]
    fn one_solve_meets_every_joint_of_a_tree_exactly() {
        let mut rng = Lcg(7);
        let n = 8;
        let ground = n;
        let mut bodies = bodies(n, &mut rng);
        let edges = [
            (0, ground),
            (1, 0),
            (2, 0),
            (3, 0),
            (4, 1),
            (5, 4),
            (6, 2),
            (7, ground),
        ];
        let mut points: Vec<PointBlock> = edges
            .iter()
            .map(|&(a, b)| {
                PointBlock::new(
                    &bodies,
                    (a, b),
                    (rng.vec(), rng.vec()),
                    DVec3::ZERO,
                    Softness::RIGID,
                )
            })
            .collect();
        let mut direct = Direct::new(&points, &bodies);
        assert!(direct.iterative.is_empty());
        direct.solve(&mut points, &mut bodies, false, 1.0);
        for p in &points {
            let cdot = bodies[p.b].point_velocity(p.rb) - bodies[p.a].point_velocity(p.ra);
            assert!(cdot.length() < 1e-9, "{p:?}: {cdot}");
        }
    }

    /// A joint that closes a loop is left to the iterative solve.
    #[test]
    fn a_loop_is_left_to_iterate() {
        let mut rng = Lcg(3);
        let bodies = bodies(3, &mut rng);
        let edges = [(0, 3), (1, 0), (2, 1), (0, 2)];
        let points: Vec<PointBlock> = edges
            .iter()
            .map(|&(a, b)| {
                PointBlock::new(
                    &bodies,
                    (a, b),
                    (rng.vec(), rng.vec()),
                    DVec3::ZERO,
                    Softness::RIGID,
                )
            })
            .collect();
        assert_eq!(Direct::new(&points, &bodies).iterative, vec![3]);
    }
}
