//! The joints solved directly: every equality row of every tree of joints at once,
//! exactly, in time linear in its joints (Baraff, "Linear-time dynamics using Lagrange
//! multipliers", SIGGRAPH 1996).
//!
//! The unknowns are each joint's impulses along its equality rows (a ball joint's three
//! point rows, a hinge's five, a fixed joint's six, a slider's five, a rod's one). The
//! system is `K λ = r` with `K = J M⁻¹ Jᵀ`; two joints couple only through a moving body
//! they share, by `K_jk = Σ lin_r·lin_s / m + ang_r·I⁻¹ ang_s` over their rows' parts on
//! that body. When the bodies and joints form a forest, some joint always has an end that
//! no other joint shares (a leaf body, or the ground): eliminating it changes only the
//! blocks of the joints at its other end, which already couple, so nothing fills in and
//! the factor costs O(n). A joint that would close a loop stays iterative, as do limits,
//! motors and springs (inequalities and soft rows).

use std::collections::HashMap;

use glam::DVec3;

use super::dense::Dense;
use super::joint_rows::JointRows;
use super::solver::SolverBody;

/// One equality row of a joint: axis `k` of point block `p`, or row `i` of the joint rows.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Part {
    Point(usize, usize),
    Row(usize),
}

/// A joint's equality rows and its two solver bodies.
#[derive(Clone, Debug)]
struct Node {
    parts: Vec<Part>,
    ends: [usize; 2],
}

/// A part's Jacobian on `body`, `(linear, angular)`, if the body is one of its ends.
fn jacobian(rows: &JointRows, part: Part, body: usize) -> Option<(DVec3, DVec3)> {
    let (a, b, d, ang_a, ang_b) = match part {
        Part::Point(p, k) => {
            let block = &rows.points[p];
            let d = DVec3::AXES[k];
            (block.a, block.b, d, block.ra.cross(d), block.rb.cross(d))
        }
        Part::Row(i) => {
            let row = &rows.rows[i].2;
            let (ang_a, ang_b) = row.axis.angular();
            (row.a, row.b, DVec3::from_array(row.linear), ang_a, ang_b)
        }
    };
    if body == b {
        Some((d, ang_b))
    } else if body == a {
        Some((-d, -ang_a))
    } else {
        None
    }
}

/// The coupling of nodes `j` and `k` through `body`: `K_jk`, rows of `j` by rows of `k`.
fn coupling(rows: &JointRows, s: &SolverBody, (j, k): (&Node, &Node), body: usize) -> Dense {
    let jac = |n: &Node| -> Vec<(DVec3, DVec3)> {
        (n.parts.iter())
            .map(|&p| jacobian(rows, p, body).unwrap_or_default())
            .collect()
    };
    let (jj, jk) = (jac(j), jac(k));
    Dense::from_fn(jj.len(), jk.len(), |r, c| {
        let ((lr, ar), (lc, ac)) = (jj[r], jk[c]);
        lr.dot(lc) * s.inv_mass + ar.dot(s.inv_inertia * ac)
    })
}

/// A node whose equations were eliminated: its factored diagonal's inverse and, for
/// each node it was coupled to then, that node and `K_kj`.
#[derive(Clone, Debug)]
struct Eliminated {
    node: usize,
    inv: Dense,
    links: Vec<(usize, Dense)>,
}

/// The factored system of one solver sub-step, and which rows it takes from the
/// iterative solve.
#[derive(Clone, Debug, Default)]
pub struct Direct {
    nodes: Vec<Node>,
    order: Vec<Eliminated>,
    /// Joints (by node) that close a loop, left to the iterative solve.
    pub loops: Vec<usize>,
    /// The point blocks and rows the direct solve takes.
    owned_points: Vec<bool>,
    pub owned_rows: Vec<bool>,
    /// Scratch of the solve: right-hand sides and impulses, by node.
    rhs: Vec<Vec<f64>>,
    lambda: Vec<Vec<f64>>,
}

impl Direct {
    /// Factors the system of the equality rows of `rows` on `bodies` (a body moves if
    /// its inverse mass is not zero).
    pub fn new(rows: &JointRows, bodies: &[SolverBody]) -> Self {
        let moves = |i: usize| bodies[i].inv_mass > 0.0;
        let nodes = nodes(rows);
        let Forest {
            mut at,
            loops,
            still,
        } = forest(&nodes, bodies.len(), moves);
        let mut left = vec![false; nodes.len()];
        loops.iter().chain(&still).for_each(|&j| left[j] = true);
        let mut diag: Vec<Dense> = (nodes.iter())
            .map(|n| {
                let ends = n.ends.into_iter().filter(|&i| moves(i));
                let parts = ends.map(|i| coupling(rows, &bodies[i], (n, n), i));
                parts.fold(Dense::zeros(n.parts.len(), n.parts.len()), |k, c| k + c)
            })
            .collect();
        let mut off: HashMap<(usize, usize), Dense> = HashMap::new();
        let mut ready: Vec<usize> = (0..nodes.len())
            .filter(|&j| !left[j] && leaf(&nodes[j], &at, moves))
            .collect();
        let (mut done, mut order) = (vec![false; nodes.len()], Vec::new());
        while let Some(j) = ready.pop() {
            if std::mem::replace(&mut done[j], true) {
                continue;
            }
            let inv = diag[j].inverse();
            let ends = nodes[j].ends;
            // The end other joints still share (at most one: `j` is a leaf).
            let shared = ends.into_iter().find(|&i| moves(i) && at[i].len() > 1);
            for body in ends.into_iter().filter(|&i| moves(i)) {
                at[body].retain(|&k| k != j);
            }
            let mut links = Vec::new();
            if let Some(body) = shared {
                let s = &bodies[body];
                let mut kj = |k: usize| {
                    (off.entry((k, j)))
                        .or_insert_with(|| coupling(rows, s, (&nodes[k], &nodes[j]), body))
                        .clone()
                };
                links = at[body].iter().map(|&k| (k, kj(k))).collect();
                let couple = |k: usize, l: usize| coupling(rows, s, (&nodes[k], &nodes[l]), body);
                eliminate(&links, &inv, (&mut diag, &mut off), couple);
                if at[body].len() == 1 {
                    ready.push(at[body][0]);
                }
            }
            order.push(Eliminated {
                node: j,
                inv,
                links,
            });
        }
        // Every node of a forest is eliminated; the owned rows below are only those.
        debug_assert!((0..nodes.len()).all(|j| done[j] || left[j]));
        let (mut owned_points, mut owned_rows) =
            (vec![false; rows.points.len()], vec![false; rows.rows.len()]);
        for e in &order {
            for &part in &nodes[e.node].parts {
                match part {
                    Part::Point(p, _) => owned_points[p] = true,
                    Part::Row(i) => owned_rows[i] = true,
                }
            }
        }
        let sizes = || nodes.iter().map(|n| vec![0.0; n.parts.len()]).collect();
        Self {
            rhs: sizes(),
            lambda: sizes(),
            nodes,
            order,
            loops,
            owned_points,
            owned_rows,
        }
    }

    /// One solve: the point blocks left out one at a time, then every tree's equality
    /// rows at once so that each meets its bias exactly (rigid, with the bias rate of
    /// the rows' softness; `use_bias = false`: none, the relax pass).
    pub fn solve(
        &mut self,
        rows: &mut JointRows,
        bodies: &mut [SolverBody],
        use_bias: bool,
        sor: f64,
    ) {
        for (p, block) in rows.points.iter_mut().enumerate() {
            if !self.owned_points[p] {
                block.solve(bodies, use_bias, sor);
            }
        }
        for e in &self.order {
            let node = &self.nodes[e.node];
            for (r, &part) in node.parts.iter().enumerate() {
                let speed: f64 = (node.ends.iter())
                    .filter_map(|&i| jacobian(rows, part, i).map(|j| (i, j)))
                    .map(|(i, (lin, ang))| lin.dot(bodies[i].v) + ang.dot(bodies[i].w))
                    .sum();
                let bias = if use_bias { bias(rows, part) } else { 0.0 };
                self.rhs[e.node][r] = -(speed + bias);
            }
        }
        self.substitute();
        for e in &self.order {
            let node = &self.nodes[e.node];
            push(rows, bodies, node, &self.lambda[e.node]);
        }
    }

    /// Forward and back substitution through the factor: `lambda = K⁻¹ rhs`.
    fn substitute(&mut self) {
        for e in &self.order {
            let y = e.inv.times(&self.rhs[e.node]);
            for (k, kkj) in &e.links {
                let update = kkj.times(&y);
                (self.rhs[*k].iter_mut())
                    .zip(update)
                    .for_each(|(r, u)| *r -= u);
            }
        }
        for e in self.order.iter().rev() {
            let mut r = self.rhs[e.node].clone();
            for (k, kkj) in &e.links {
                let update = kkj.transpose().times(&self.lambda[*k]);
                r.iter_mut().zip(update).for_each(|(r, u)| *r -= u);
            }
            self.lambda[e.node] = e.inv.times(&r);
        }
    }
}

/// The position feedback of a part: its error at its softness's bias rate.
fn bias(rows: &JointRows, part: Part) -> f64 {
    match part {
        Part::Point(p, k) => {
            let block = &rows.points[p];
            block.error[k] * block.softness.bias_rate
        }
        Part::Row(i) => {
            let row = &rows.rows[i].2;
            row.error * row.softness.bias_rate
        }
    }
}

/// Adds a node's impulses `lambda` to its rows and applies them.
fn push(rows: &mut JointRows, bodies: &mut [SolverBody], node: &Node, lambda: &[f64]) {
    let mut point: Option<(usize, DVec3)> = None;
    for (&part, &l) in node.parts.iter().zip(lambda) {
        match part {
            Part::Point(p, k) => point.get_or_insert((p, DVec3::ZERO)).1[k] = l,
            Part::Row(i) => rows.rows[i].2.push(bodies, l),
        }
    }
    if let Some((p, impulse)) = point {
        let block = &mut rows.points[p];
        block.impulse += impulse;
        block.apply(bodies, impulse);
    }
}

/// Each joint's equality rows as a node, in the order of their joints.
fn nodes(rows: &JointRows) -> Vec<Node> {
    let mut nodes: Vec<Node> = Vec::new();
    let mut of_joint: HashMap<usize, usize> = HashMap::new();
    let mut add = |joint: usize, part: Part, ends: [usize; 2]| {
        let n = *of_joint.entry(joint).or_insert_with(|| {
            nodes.push(Node {
                parts: Vec::new(),
                ends,
            });
            nodes.len() - 1
        });
        nodes[n].parts.push(part);
    };
    for (p, (&joint, block)) in rows.point_joints.iter().zip(&rows.points).enumerate() {
        for k in 0..3 {
            add(joint, Part::Point(p, k), [block.a, block.b]);
        }
    }
    for (i, (joint, _, row)) in rows.rows.iter().enumerate() {
        if row.is_equality() {
            add(*joint, Part::Row(i), [row.a, row.b]);
        }
    }
    nodes
}

/// Which nodes each moving body has; the nodes that would close a loop, with everything
/// that does not move (the ground, kinematic frames, sleeping bodies) taken as one body,
/// since two paths to the ground make the rows dependent and `K` singular (a
/// slider-crank's crank and piston both held to the world); and the nodes that join
/// nothing that moves. Both lists are solved iteratively.
fn forest(nodes: &[Node], n: usize, moves: impl Fn(usize) -> bool) -> Forest {
    // Union-find over the bodies, index `n` standing for everything that does not move.
    let mut root: Vec<usize> = (0..=n).collect();
    fn find(root: &mut [usize], mut i: usize) -> usize {
        while root[i] != i {
            root[i] = root[root[i]];
            i = root[i];
        }
        i
    }
    let mut forest = Forest {
        at: vec![Vec::new(); n],
        loops: Vec::new(),
        still: Vec::new(),
    };
    for (j, node) in nodes.iter().enumerate() {
        let [a, b] = node.ends.map(|i| if moves(i) { i } else { n });
        if a == n && b == n {
            forest.still.push(j);
            continue;
        }
        let (ra, rb) = (find(&mut root, a), find(&mut root, b));
        if ra == rb {
            forest.loops.push(j);
            continue;
        }
        root[ra] = rb;
        [a, b]
            .into_iter()
            .filter(|&i| i < n)
            .for_each(|i| forest.at[i].push(j));
    }
    forest
}

/// What [`forest`] finds.
struct Forest {
    at: Vec<Vec<usize>>,
    loops: Vec<usize>,
    still: Vec<usize>,
}

/// Whether `node` has an end no other node shares.
fn leaf(node: &Node, at: &[Vec<usize>], moves: impl Fn(usize) -> bool) -> bool {
    node.ends.into_iter().any(|i| !moves(i) || at[i].len() == 1)
}

/// Eliminates a node with factored inverse `inv` coupled to `links` (each `(k, K_kj)`):
/// `K_kl −= K_kj inv K_jl` for every pair, diagonal included; `couple(k, l)` is the
/// coupling of a pair not met before.
fn eliminate(
    links: &[(usize, Dense)],
    inv: &Dense,
    (diag, off): (&mut [Dense], &mut HashMap<(usize, usize), Dense>),
    couple: impl Fn(usize, usize) -> Dense,
) {
    for (k, kkj) in links {
        let left = kkj * inv;
        for (l, klj) in links {
            let update = &left * &klj.transpose();
            if k == l {
                diag[*k] -= &update;
            } else {
                *off.entry((*k, *l)).or_insert_with(|| couple(*k, *l)) -= &update;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use glam::DMat3;

    use super::*;
    use crate::contact::settings::Softness;
    use crate::contact::solver::{PointBlock, Row};

    /// A small deterministic generator, so the test needs no crate.
    struct Lcg(u64);
    impl Lcg {
        fn next(&mut self) -> f64 {
            self.0 = (self.0)
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

    /// Joint `k` between `ends`: a point block (when `point`) and `extra` rows of random
    /// Jacobians, linear and angular, as a hinge's, a fixed joint's or a slider's.
    fn joint(
        rows: &mut JointRows,
        bodies: &[SolverBody],
        (k, ends, point, extra): (usize, (usize, usize), bool, usize),
        rng: &mut Lcg,
    ) {
        if point {
            let levers = (rng.vec(), rng.vec());
            let rigid = Softness::RIGID;
            rows.points
                .push(PointBlock::new(bodies, ends, levers, DVec3::ZERO, rigid));
            rows.point_joints.push(k);
        }
        for slot in 0..extra {
            let d = if slot % 2 == 0 {
                rng.vec()
            } else {
                DVec3::ZERO
            };
            let row = Row::general(bodies, ends, d, (rng.vec(), rng.vec()));
            rows.rows.push((k, 3 + slot, row));
        }
    }

    /// Every row's `J v` now.
    fn speeds(rows: &JointRows, bodies: &[SolverBody]) -> Vec<f64> {
        nodes(rows)
            .iter()
            .flat_map(|n| n.parts.iter().map(move |&p| (n.ends, p)))
            .map(|(ends, part)| {
                (ends.iter())
                    .filter_map(|&i| jacobian(rows, part, i).map(|j| (i, j)))
                    .map(|(i, (l, a))| l.dot(bodies[i].v) + a.dot(bodies[i].w))
                    .sum()
            })
            .collect()
    }

    /// After one direct solve without bias every equality row of every joint is met, on
    /// a tree with branches (a body with three joints), joints of one to six rows, and
    /// joints to the ground.
    #[test]
    fn one_solve_meets_every_row_of_a_tree_exactly() {
        let mut rng = Lcg(7);
        let n = 8;
        let ground = n;
        let mut bodies = bodies(n, &mut rng);
        let tree = [
            ((0, ground), true, 0),
            ((1, 0), true, 2),
            ((2, 0), true, 3),
            ((3, 0), false, 5),
            ((4, 1), false, 1),
            ((5, 4), true, 0),
            ((6, 2), false, 6),
            ((7, ground), true, 3),
        ];
        let mut rows = JointRows::default();
        for (k, (ends, point, extra)) in tree.into_iter().enumerate() {
            joint(&mut rows, &bodies, (k, ends, point, extra), &mut rng);
        }
        let mut direct = Direct::new(&rows, &bodies);
        assert!(direct.loops.is_empty());
        assert!(direct.owned_rows.iter().all(|&o| o));
        direct.solve(&mut rows, &mut bodies, false, 1.0);
        for speed in speeds(&rows, &bodies) {
            assert!(speed.abs() < 1e-9, "J v = {speed}");
        }
    }

    /// A joint that closes a loop is left to the iterative solve: among moving bodies,
    /// and through the ground (a bridge pinned at both ends).
    #[test]
    fn a_loop_is_left_to_iterate() {
        let mut rng = Lcg(3);
        let bodies = bodies(3, &mut rng);
        let mut rows = JointRows::default();
        for (k, ends) in [(0, 3), (1, 0), (2, 1), (0, 2)].into_iter().enumerate() {
            joint(&mut rows, &bodies, (k, ends, true, 1), &mut rng);
        }
        let direct = Direct::new(&rows, &bodies);
        assert_eq!(direct.loops, vec![3]);
        assert_eq!(direct.owned_rows, vec![true, true, true, false]);
        let mut bridge = JointRows::default();
        for (k, ends) in [(0, 3), (1, 0), (1, 3)].into_iter().enumerate() {
            joint(&mut bridge, &bodies, (k, ends, true, 0), &mut rng);
        }
        assert_eq!(Direct::new(&bridge, &bodies).loops, vec![2]);
    }
}
