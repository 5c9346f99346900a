//! Broad phase: sweep and prune. Boxes are sorted by their lower bound on the axis along
//! which their centres spread most, then swept: each box meets only the boxes that start
//! before it ends. The order is kept between steps, so the sort of an almost sorted list
//! is nearly linear.

use rayon::prelude::*;

use super::geometry::Aabb;

#[derive(Clone, Debug, Default)]
pub struct SweepAndPrune {
    order: Vec<u32>,
}

impl SweepAndPrune {
    /// Every distinct pair `(i, j)`, `i < j`, of overlapping boxes that `keep` accepts,
    /// into `out` (cleared first).
    pub fn pairs(
        &mut self,
        boxes: &[Aabb],
        keep: impl Fn(usize, usize) -> bool + Sync,
        out: &mut Vec<(u32, u32)>,
    ) {
        out.clear();
        if self.order.len() != boxes.len() {
            self.order = (0..boxes.len() as u32).collect();
        }
        let axis = sweep_axis(boxes);
        let lo = |k: u32| boxes[k as usize].min[axis];
        // Insertion sort: linear on the nearly sorted order of the last step.
        for i in 1..self.order.len() {
            let mut j = i;
            while j > 0 && lo(self.order[j - 1]) > lo(self.order[j]) {
                self.order.swap(j - 1, j);
                j -= 1;
            }
        }
        let order = &self.order;
        // The boxes that start within box `n`'s extent on the axis, after it.
        let sweep = |n: usize, out: &mut Vec<(u32, u32)>| {
            let i = order[n];
            let a = &boxes[i as usize];
            for &j in &order[n + 1..] {
                let b = &boxes[j as usize];
                if b.min[axis] > a.max[axis] {
                    break;
                }
                if a.overlaps(b) {
                    let (p, q) = (i.min(j), i.max(j));
                    if keep(p as usize, q as usize) {
                        out.push((p, q));
                    }
                }
            }
        };
        if order.len() >= PARALLEL_BOXES {
            // Each box's sweep on its own, on rayon's threads; the runs are joined in
            // the order of the boxes, so the pairs are the same on any number of threads.
            let runs: Vec<Vec<(u32, u32)>> = (0..order.len())
                .into_par_iter()
                .with_min_len(CHUNK)
                .fold(Vec::new, |mut run, n| {
                    sweep(n, &mut run);
                    run
                })
                .collect();
            out.extend(runs.into_iter().flatten());
        } else {
            (0..order.len()).for_each(|n| sweep(n, out));
        }
    }
}

/// Below this many boxes the sweep runs on the calling thread.
const PARALLEL_BOXES: usize = 1024;
/// Boxes a thread sweeps at a time.
const CHUNK: usize = 128;

/// The axis along which the box centres have the largest variance.
fn sweep_axis(boxes: &[Aabb]) -> usize {
    if boxes.is_empty() {
        return 0;
    }
    let n = boxes.len() as f64;
    let (mut sum, mut sq) = (glam::DVec3::ZERO, glam::DVec3::ZERO);
    for b in boxes {
        let c = 0.5 * (b.min + b.max);
        sum += c;
        sq += c * c;
    }
    let var = sq / n - (sum / n) * (sum / n);
    if var.x >= var.y && var.x >= var.z {
        0
    } else if var.y >= var.z {
        1
    } else {
        2
    }
}
