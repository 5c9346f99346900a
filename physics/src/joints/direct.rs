//! The joints solved directly: every equality row of every tree of joints at once,
//! exactly, in time linear in its bodies and joints, hub or chain (Baraff, "Linear-time
//! dynamics using Lagrange multipliers", SIGGRAPH 1996).
//!
//! The unknowns are each joint's impulses along its equality rows (a ball joint's three
//! point rows, a hinge's five, a fixed joint's six, a slider's five, a rod's one): `K λ = r`
//! with `K = J M⁻¹ Jᵀ`. Eliminated joint by joint, `K` is not sparse enough: every two
//! joints at one body couple, so a body with k joints is a k-clique and costs O(k³).
//! Baraff eliminates on the augmented system `H = [[M, Jᵀ], [J, 0]]` instead, whose
//! vertices are the moving bodies (6×6 blocks `M`) and the joints (zero blocks), an edge
//! joining a joint to each body it holds: its graph is a tree exactly when the joints
//! form one, and eliminating children before parents fills nothing in. Each tree is
//! rooted at its joint to the ground, or at a body when it floats, so every leaf is a
//! body and no pivot is a joint's zero block. A joint that would close a loop stays
//! iterative, as do limits, motors and springs (inequalities and spring rows), and so
//! does a joint whose block turns out singular (rows that depend on each other).
//!
//! A chain's tension also stiffens it: a link turned by δθ turns the joint forces' lever
//! arms with it, `δτ = [F]×[r]× δθ`, a stiffness of |F| |r| per joint. A velocity solve
//! at the step's start takes it explicitly, and a light link under a heavy load rocks
//! faster than such a step can follow (ω² ≈ T l / I: at 288 N, 0.1 m and 4.6e-5 kg·m²,
//! about 800 rad/s, past the 2/h = 480 rad/s of a 1/240 s step) and flies apart however
//! exactly the rows are met: the `chain` scene did at 4 to 7 sub-steps, and held at 8. The tree's body blocks therefore take that stiffness
//! implicitly, `M + h² K` (Tournier et al., "Stable constrained dynamics", SIGGRAPH
//! 2015; Andrews, Teichmann and Kry, "Geometric stiffness for real-time constrained
//! multibody dynamics", Eurographics 2017), bounded above in every direction by
//! `h |λ| |r|` about each axis (λ the point rows' impulse of the last solver step), so
//! the block stays positive definite in compression too.

use glam::{DMat3, DVec3};

use super::dense::Dense;
use super::joint_rows::JointRows;
use crate::solver::body::SolverBody;
use crate::solver::settings::Softness;

/// The most equality rows one joint has (a fixed joint's six): a joint's impulses fit
/// on the stack in the solve's inner loop.
const MOST_ROWS: usize = 6;

/// One equality row of a joint: axis `k` of point block `p`, or row `i` of the joint rows.
#[derive(Clone, Copy, Debug, PartialEq)]
enum EqualityRow {
    Point(usize, usize),
    Row(usize),
}

/// A joint's equality rows and its two solver bodies.
#[derive(Clone, Debug)]
struct Node {
    parts: Vec<EqualityRow>,
    ends: [usize; 2],
}

/// A part's Jacobian on `body`, `(linear, angular)`, if the body is one of its ends.
fn jacobian(rows: &JointRows, part: EqualityRow, body: usize) -> Option<(DVec3, DVec3)> {
    let (a, b, d, ang_a, ang_b) = match part {
        EqualityRow::Point(p, k) => {
            let block = &rows.points[p];
            let d = DVec3::AXES[k];
            (block.a, block.b, d, block.ra.cross(d), block.rb.cross(d))
        }
        EqualityRow::Row(i) => {
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

/// A part's position error, softness and impulse accumulated so far.
fn part_state(rows: &JointRows, part: EqualityRow) -> (f64, Softness, f64) {
    match part {
        EqualityRow::Point(p, k) => {
            let block = &rows.points[p];
            (block.error[k], block.softness, block.impulse[k])
        }
        EqualityRow::Row(i) => {
            let row = &rows.rows[i].2;
            (row.error, row.softness, row.impulse)
        }
    }
}

/// A vertex of the augmented system: a joint (by node) or a moving body (by solver body).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Vertex {
    Joint(usize),
    Body(usize),
}

/// A vertex as factored: its block's inverse after its children were eliminated into it,
/// and its parent (a position in the tree's order) with the block `H(vertex, parent)`.
#[derive(Clone, Debug)]
struct Pivot {
    vertex: Vertex,
    inv: Dense,
    parent: Option<(usize, Dense)>,
}

/// The factored system of one solver sub-step, and which rows it takes from the
/// iterative solve.
#[derive(Clone, Debug, Default)]
pub struct Direct {
    nodes: Vec<Node>,
    /// Every tree's vertices, each after its parent; eliminated from the end.
    tree: Vec<Pivot>,
    /// Joints (by node) that close a loop, left to the iterative solve.
    pub loops: Vec<usize>,
    /// Joints (by node) whose block was singular, left to the iterative solve.
    pub singular: Vec<usize>,
    /// The point blocks and rows the direct solve takes.
    owned_points: Vec<bool>,
    /// Each solver body's inverse inertia in the solve: a tree's bodies' with the
    /// geometric stiffness added, the others' their own.
    turn: Vec<DMat3>,
    pub owned_rows: Vec<bool>,
    /// Scratch of the solve, by position in `tree`: right-hand sides and solutions.
    rhs: Vec<Vec<f64>>,
    y: Vec<Vec<f64>>,
}

impl Direct {
    /// Factors the system of the equality rows of `rows` on `bodies` (a body moves if
    /// its inverse mass is not zero) for a solver step of `h`. A singular pivot leaves a
    /// joint to the iterative solve, and the rest is factored again without it.
    pub fn new(rows: &JointRows, bodies: &[SolverBody], h: f64) -> Self {
        let moves = |i: usize| bodies[i].inv_mass > 0.0;
        let nodes = nodes(rows);
        let stiffness = geometric_stiffness(rows, bodies.len(), h);
        let Forest { loops, still } = forest(&nodes, bodies.len(), moves);
        let mut left = vec![false; nodes.len()];
        loops.iter().chain(&still).for_each(|&j| left[j] = true);
        let mut singular = Vec::new();
        let tree = loop {
            let order = order(&nodes, bodies.len(), moves, &left);
            match factor(rows, (bodies, &stiffness), &nodes, order) {
                Ok(tree) => break tree,
                Err(j) => {
                    singular.push(j);
                    left[j] = true;
                }
            }
        };
        let (mut owned_points, mut owned_rows) =
            (vec![false; rows.points.len()], vec![false; rows.rows.len()]);
        for p in &tree {
            if let Vertex::Joint(j) = p.vertex {
                for &part in &nodes[j].parts {
                    match part {
                        EqualityRow::Point(p, _) => owned_points[p] = true,
                        EqualityRow::Row(i) => owned_rows[i] = true,
                    }
                }
            }
        }
        let size = |p: &Pivot| match p.vertex {
            Vertex::Joint(j) => nodes[j].parts.len(),
            Vertex::Body(_) => 6,
        };
        let scratch = || tree.iter().map(|p| vec![0.0; size(p)]).collect();
        let mut turn: Vec<DMat3> = bodies.iter().map(|b| b.inv_inertia).collect();
        for p in &tree {
            if let Vertex::Body(i) = p.vertex
                && stiffness[i] > 0.0
            {
                let inertia = bodies[i].inv_inertia.inverse();
                turn[i] = (inertia + DMat3::from_diagonal(DVec3::splat(stiffness[i]))).inverse();
            }
        }
        Self {
            turn,
            rhs: scratch(),
            y: scratch(),
            nodes,
            tree,
            loops,
            singular,
            owned_points,
            owned_rows,
        }
    }

    /// Warm start: the rows the direct solve takes apply their accumulated impulses as
    /// it applies them, through its inverse inertias (an impulse that the solve's
    /// stiffer bodies call for, applied to the bodies' own, would throw them); the
    /// others as their own.
    pub fn warm_start(&self, rows: &JointRows, bodies: &mut [SolverBody]) {
        rows.warm_start(bodies, (&self.owned_points, &self.owned_rows));
        for pivot in &self.tree {
            if let Vertex::Joint(j) = pivot.vertex {
                let node = &self.nodes[j];
                let mut accumulated = [0.0; MOST_ROWS];
                for (a, &p) in accumulated.iter_mut().zip(&node.parts) {
                    *a = part_state(rows, p).2;
                }
                apply(rows, (bodies, &self.turn), node, &accumulated);
            }
        }
    }

    /// One solve: the point blocks left out one at a time, then every tree's equality
    /// rows at once, exactly: each joint's impulses are those of its rows' softness, as
    /// a point block's (Box2D's soft impulse with the tree's whole `K⁻¹` as the mass),
    /// and `use_bias = false` (the relax pass) solves them rigid without bias.
    pub fn solve(
        &mut self,
        rows: &mut JointRows,
        bodies: &mut [SolverBody],
        use_bias: bool,
        sor: f64,
    ) {
        for (p, block) in rows.points.iter_mut().enumerate() {
            if !self.owned_points[p] {
                block.update(bodies, use_bias, sor);
            }
        }
        let soft = |s: Softness| if use_bias { s } else { Softness::RIGID };
        for (u, pivot) in self.tree.iter().enumerate() {
            let rhs = &mut self.rhs[u];
            let Vertex::Joint(j) = pivot.vertex else {
                rhs.fill(0.0);
                continue;
            };
            let node = &self.nodes[j];
            for (r, &part) in node.parts.iter().enumerate() {
                let speed: f64 = (node.ends.iter())
                    .filter_map(|&i| jacobian(rows, part, i).map(|j| (i, j)))
                    .map(|(i, (lin, ang))| lin.dot(bodies[i].v) + ang.dot(bodies[i].w))
                    .sum();
                let (error, softness, _) = part_state(rows, part);
                rhs[r] = -(speed + error * soft(softness).bias_rate);
            }
        }
        self.substitute();
        for (u, pivot) in self.tree.iter().enumerate() {
            if let Vertex::Joint(j) = pivot.vertex {
                let node = &self.nodes[j];
                // H [x; y] = [0; r] gives λ = −y.
                let mut delta = [0.0; MOST_ROWS];
                for ((d, &part), &y) in delta.iter_mut().zip(&node.parts).zip(&self.y[u]) {
                    let (_, softness, accumulated) = part_state(rows, part);
                    let s = soft(softness);
                    *d = -y * s.mass_scale - accumulated * s.impulse_scale;
                }
                push(rows, (bodies, &self.turn), node, &delta[..node.parts.len()]);
            }
        }
    }

    /// Forward and back substitution through the factor: `y = H⁻¹ rhs`.
    fn substitute(&mut self) {
        for u in (0..self.tree.len()).rev() {
            if let Some((p, h)) = &self.tree[u].parent {
                let eliminated = self.tree[u].inv.times(&self.rhs[u]);
                let update = h.transpose_times(&eliminated);
                (self.rhs[*p].iter_mut())
                    .zip(update)
                    .for_each(|(r, u)| *r -= u);
            }
        }
        for u in 0..self.tree.len() {
            let mut r = std::mem::take(&mut self.rhs[u]);
            if let Some((p, h)) = &self.tree[u].parent {
                let update = h.times(&self.y[*p]);
                r.iter_mut().zip(update).for_each(|(r, u)| *r -= u);
            }
            self.y[u] = self.tree[u].inv.times(&r);
            self.rhs[u] = r;
        }
    }
}

/// Adds a node's impulses `delta` to its rows and applies them.
fn push(
    rows: &mut JointRows,
    (bodies, turn): (&mut [SolverBody], &[DMat3]),
    node: &Node,
    delta: &[f64],
) {
    apply(rows, (bodies, turn), node, delta);
    for (&part, &l) in node.parts.iter().zip(delta) {
        match part {
            EqualityRow::Point(p, k) => rows.points[p].impulse[k] += l,
            EqualityRow::Row(i) => rows.rows[i].2.impulse += l,
        }
    }
}

/// Applies impulses `lambda` along a node's rows, `M⁻¹ Jᵀ λ` with the inverse inertias
/// of the solve (`turn`).
fn apply(
    rows: &JointRows,
    (bodies, turn): (&mut [SolverBody], &[DMat3]),
    node: &Node,
    lambda: &[f64],
) {
    for (&part, &l) in node.parts.iter().zip(lambda) {
        for i in node.ends {
            if let Some((lin, ang)) = jacobian(rows, part, i) {
                let body = &mut bodies[i];
                body.v += lin * (l * body.inv_mass);
                body.w += turn[i] * ang * l;
            }
        }
    }
}

/// Each body's geometric stiffness over a solver step of `h`, bounded in every
/// direction: `h Σ |λ| |r|` over the point blocks at it (see the module's notes).
fn geometric_stiffness(rows: &JointRows, n: usize, h: f64) -> Vec<f64> {
    let mut stiffness = vec![0.0; n];
    for block in &rows.points {
        let load = h * block.impulse.length();
        for (i, r) in [(block.a, block.ra), (block.b, block.rb)] {
            if let Some(s) = stiffness.get_mut(i) {
                *s += load * r.length();
            }
        }
    }
    stiffness
}

/// Each joint's equality rows as a node, in the order of their joints.
fn nodes(rows: &JointRows) -> Vec<Node> {
    let mut nodes: Vec<Node> = Vec::new();
    let mut of_joint: std::collections::HashMap<usize, usize> = Default::default();
    let mut add = |joint: usize, part: EqualityRow, ends: [usize; 2]| {
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
            add(joint, EqualityRow::Point(p, k), [block.a, block.b]);
        }
    }
    for (i, (joint, _, row)) in rows.rows.iter().enumerate() {
        if row.is_equality() {
            add(*joint, EqualityRow::Row(i), [row.a, row.b]);
        }
    }
    nodes
}

/// The nodes that would close a loop, with everything that does not move (the ground,
/// kinematic frames, sleeping bodies) taken as one body, since two paths to the ground
/// make the rows dependent and `K` singular (a slider-crank's crank and piston both held
/// to the world); and the nodes that join nothing that moves. Both are solved
/// iteratively; the other nodes form a forest in which each tree has at most one joint
/// to what does not move.
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
        } else {
            root[ra] = rb;
        }
    }
    forest
}

/// What [`forest`] finds.
struct Forest {
    loops: Vec<usize>,
    still: Vec<usize>,
}

/// The vertices of the forest of the nodes not `left`, tree by tree in pre-order from
/// the tree's root (its joint to the ground, or a body when it floats), each with its
/// parent's position: every vertex comes after its parent.
fn order(
    nodes: &[Node],
    n: usize,
    moves: impl Fn(usize) -> bool,
    left: &[bool],
) -> Vec<(Vertex, Option<usize>)> {
    let mut at = vec![Vec::new(); n];
    let kept = || (0..nodes.len()).filter(|&j| !left[j]);
    for j in kept() {
        nodes[j]
            .ends
            .into_iter()
            .filter(|&i| moves(i))
            .for_each(|i| at[i].push(j));
    }
    let grounded = |j: &usize| nodes[*j].ends.into_iter().filter(|&i| moves(i)).count() == 1;
    let roots = (kept().filter(grounded).map(Vertex::Joint))
        .chain((0..n).filter(|&i| !at[i].is_empty()).map(Vertex::Body));
    let (mut seen_joint, mut seen_body) = (vec![false; nodes.len()], vec![false; n]);
    let mut out = Vec::new();
    for root in roots {
        let mut stack = vec![(root, None)];
        while let Some((v, parent)) = stack.pop() {
            let seen = match v {
                Vertex::Joint(j) => &mut seen_joint[j],
                Vertex::Body(i) => &mut seen_body[i],
            };
            if std::mem::replace(seen, true) {
                continue;
            }
            out.push((v, parent));
            let here = Some(out.len() - 1);
            match v {
                Vertex::Joint(j) => stack.extend(
                    (nodes[j].ends.into_iter())
                        .filter(|&i| moves(i) && !seen_body[i])
                        .map(|i| (Vertex::Body(i), here)),
                ),
                Vertex::Body(i) => stack.extend(
                    (at[i].iter())
                        .filter(|&&j| !seen_joint[j])
                        .map(|&j| (Vertex::Joint(j), here)),
                ),
            }
        }
    }
    out
}

/// Baraff's factor: eliminates each vertex into its parent, children first,
/// `D_p −= H_pu D_u⁻¹ H_up`, starting from `M` for a body and zero for a joint. A
/// singular pivot names the joint to leave out: its own, or for a body (whose block is
/// `M` plus positive terms, singular only if its inertia is degenerate) a joint at it.
fn factor(
    rows: &JointRows,
    (bodies, stiffness): (&[SolverBody], &[f64]),
    nodes: &[Node],
    order: Vec<(Vertex, Option<usize>)>,
) -> Result<Vec<Pivot>, usize> {
    let mut diag: Vec<Dense> = (order.iter())
        .map(|&(v, _)| match v {
            Vertex::Body(i) => mass(&bodies[i], stiffness[i]),
            Vertex::Joint(j) => Dense::zeros(nodes[j].parts.len(), nodes[j].parts.len()),
        })
        .collect();
    let mut tree: Vec<Pivot> = (order.iter())
        .map(|&(v, parent)| Pivot {
            vertex: v,
            inv: Dense::zeros(0, 0),
            parent: parent.map(|p| (p, coupling(rows, nodes, v, order[p].0))),
        })
        .collect();
    for u in (0..tree.len()).rev() {
        let Some(inv) = diag[u].inverse() else {
            return Err(blame(&order, u));
        };
        if let Some((p, h)) = &tree[u].parent {
            diag[*p] -= &(&h.transpose() * &(&inv * h));
        }
        tree[u].inv = inv;
    }
    Ok(tree)
}

/// The joint to leave to iterate when the pivot at position `u` is singular.
fn blame(order: &[(Vertex, Option<usize>)], u: usize) -> usize {
    let joint = |w: usize| match order[w].0 {
        Vertex::Joint(j) => Some(j),
        Vertex::Body(_) => None,
    };
    (joint(u))
        .or_else(|| order[u].1.and_then(joint))
        .or_else(|| {
            (0..order.len())
                .find(|&w| order[w].1 == Some(u))
                .and_then(joint)
        })
        .expect("a body in the tree has a joint")
}

/// A moving body's block of `H`: `M = diag(m, m, m, I)`, its world inertia, with
/// `stiffness` added about each axis.
fn mass(body: &SolverBody, stiffness: f64) -> Dense {
    let inertia = body.inv_inertia.inverse() + DMat3::from_diagonal(DVec3::splat(stiffness));
    Dense::from_fn(6, 6, |r, c| match (r, c) {
        (r, c) if r < 3 && c < 3 => f64::from(r == c) / body.inv_mass,
        (r, c) if r >= 3 && c >= 3 => inertia.col(c - 3)[r - 3],
        _ => 0.0,
    })
}

/// The block `H(v, w)` of a joint and a body it holds, rows of `v` by columns of `w`:
/// the joint's rows' Jacobian on the body, `(linear, angular)` per row, or its transpose.
fn coupling(rows: &JointRows, nodes: &[Node], v: Vertex, w: Vertex) -> Dense {
    let (j, body, transposed) = match (v, w) {
        (Vertex::Joint(j), Vertex::Body(i)) => (j, i, false),
        (Vertex::Body(i), Vertex::Joint(j)) => (j, i, true),
        _ => unreachable!("a tree's edges join a joint and a body"),
    };
    let jac: Vec<[f64; 6]> = (nodes[j].parts.iter())
        .map(|&part| {
            let (lin, ang) = jacobian(rows, part, body).unwrap_or_default();
            [lin.x, lin.y, lin.z, ang.x, ang.y, ang.z]
        })
        .collect();
    let block = Dense::from_fn(jac.len(), 6, |r, c| jac[r][c]);
    if transposed { block.transpose() } else { block }
}

#[cfg(test)]
mod tests {
    use glam::DMat3;

    use super::*;
    use crate::joints::point_block::PointBlock;
    use crate::joints::row::Row;
    use crate::solver::settings::Softness;

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

    /// The largest `|J v|` of any row.
    fn worst(rows: &JointRows, bodies: &[SolverBody]) -> f64 {
        (speeds(rows, bodies).iter()).fold(0.0f64, |m, s| m.max(s.abs()))
    }

    /// One direct solve without bias meets every row to 1e-9 of the largest `|J v|`
    /// before it (the random joints' rows are far from orthogonal, and the factor's
    /// round-off grows with their conditioning), and a second, from the velocities the
    /// first left, to round-off.
    fn meets_every_row(direct: &mut Direct, rows: &mut JointRows, bodies: &mut [SolverBody]) {
        let before = worst(rows, bodies);
        direct.solve(rows, bodies, false, 1.0);
        let once = worst(rows, bodies);
        assert!(
            once < 1e-9 * before,
            "J v = {once} after one solve, from {before}"
        );
        direct.solve(rows, bodies, false, 1.0);
        let twice = worst(rows, bodies);
        assert!(
            twice < 1e-14 * before,
            "J v = {twice} after two, from {before}"
        );
    }

    /// A direct solve without bias meets every equality row of every joint (see
    /// [`meets_every_row`]), on a tree with branches (a body with three joints), joints
    /// of one to six rows, and joints to the ground.
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
        let mut direct = Direct::new(&rows, &bodies, 1.0 / 240.0);
        assert!(direct.loops.is_empty());
        assert!(direct.owned_rows.iter().all(|&o| o));
        meets_every_row(&mut direct, &mut rows, &mut bodies);
    }

    /// A hub with twenty arms, each arm a joint of one to six rows (a body with twenty
    /// joints, which eliminated joint by joint would be a 20-clique): one solve meets
    /// every row, and the factor has one pivot per body and per joint.
    #[test]
    fn one_solve_meets_every_row_of_a_hub() {
        let mut rng = Lcg(11);
        let arms = 20;
        let (hub, ground) = (arms, arms + 1);
        let mut bodies = bodies(arms + 1, &mut rng);
        let mut rows = JointRows::default();
        joint(&mut rows, &bodies, (0, (hub, ground), true, 3), &mut rng);
        for k in 0..arms {
            let (point, extra) = (k % 2 == 0, 1 + k % 6);
            let extra = if point { extra.min(3) } else { extra };
            joint(
                &mut rows,
                &bodies,
                (k + 1, (k, hub), point, extra),
                &mut rng,
            );
        }
        // Loaded joints: the bodies' blocks take their geometric stiffness.
        rows.points.iter_mut().for_each(|p| p.impulse = rng.vec());
        let mut direct = Direct::new(&rows, &bodies, 1.0 / 240.0);
        assert!(direct.singular.is_empty() && direct.loops.is_empty());
        assert_eq!(direct.tree.len(), (arms + 1) + (arms + 1));
        assert_ne!(direct.turn[hub], bodies[hub].inv_inertia);
        meets_every_row(&mut direct, &mut rows, &mut bodies);
    }

    /// A joint whose rows depend on each other (a row given twice) makes a singular
    /// block: it is left to the iterative solve, named once in `singular`, and the
    /// passes of a step (its rows one at a time, then the direct solve) still bring
    /// every row of the chain to rest; the other joints stay direct.
    #[test]
    fn a_singular_block_falls_back_to_iterating_and_still_holds() {
        let mut rng = Lcg(5);
        let mut bodies = bodies(3, &mut rng);
        let mut rows = JointRows::default();
        for (k, ends) in [(0, 3), (1, 0), (2, 1)].into_iter().enumerate() {
            joint(&mut rows, &bodies, (k, ends, true, 1), &mut rng);
        }
        let twice = rows.rows[1];
        rows.rows.push(twice);
        let mut direct = Direct::new(&rows, &bodies, 1.0 / 240.0);
        assert_eq!(direct.singular, vec![1]);
        assert_eq!(direct.owned_rows, vec![true, false, true, false]);
        let before = worst(&rows, &bodies);
        for _ in 0..200 {
            rows.update_rows(&mut bodies, (false, 1.0), &direct.owned_rows);
            direct.solve(&mut rows, &mut bodies, false, 1.0);
        }
        let after = worst(&rows, &bodies);
        assert!(after < 1e-9 * before, "J v = {after}, from {before}");
    }

    /// With the soft step's softness the direct solve gives each row Box2D's soft
    /// impulse with the tree's whole effective mass: on one ball joint to the ground,
    /// whose `K⁻¹` is the point block's 3×3 mass, it gives the point block's impulses
    /// exactly, position error included, in a first solve and in a second that starts
    /// from the first's accumulated impulse. (The factor's geometric stiffness is of
    /// the impulse before the first, zero here.)
    #[test]
    fn a_direct_joint_keeps_its_softness() {
        let mut rng = Lcg(9);
        let bodies = bodies(1, &mut rng);
        let soft = Softness::new(60.0, 2.0, 1.0 / 240.0);
        let levers = (rng.vec(), DVec3::ZERO);
        let mut block = PointBlock::new(&bodies, (0, 1), levers, rng.vec() * 0.01, soft);
        let mut rows = JointRows::default();
        rows.points.push(block);
        rows.point_joints.push(0);
        let (mut iterated, mut direct_bodies) = (bodies.clone(), bodies.clone());
        let mut direct = Direct::new(&rows, &bodies, 1.0 / 240.0);
        for _ in 0..2 {
            block.update(&mut iterated, true, 1.0);
            direct.solve(&mut rows, &mut direct_bodies, true, 1.0);
            assert!((rows.points[0].impulse - block.impulse).length() < 1e-9);
            let (a, b) = (iterated[0], direct_bodies[0]);
            assert!(
                (a.v - b.v).length() + (a.w - b.w).length() < 1e-9,
                "{a:?} {b:?}"
            );
        }
        assert!(block.impulse.length() > 1e-3, "the test has an impulse");
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
        let direct = Direct::new(&rows, &bodies, 1.0 / 240.0);
        assert_eq!(direct.loops, vec![3]);
        assert_eq!(direct.owned_rows, vec![true, true, true, false]);
        let mut bridge = JointRows::default();
        for (k, ends) in [(0, 3), (1, 0), (1, 3)].into_iter().enumerate() {
            joint(&mut bridge, &bodies, (k, ends, true, 0), &mut rng);
        }
        assert_eq!(Direct::new(&bridge, &bodies, 1.0 / 240.0).loops, vec![2]);
    }
}
