//! Broad phase: sweep and prune. Boxes are sorted by their lower bound on the axis along
//! which their centres spread most, then swept: each box meets only the boxes that start
//! before it ends. The order is kept between steps, so the sort of an almost sorted list
//! is nearly linear.

use super::geometry::Aabb;

#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct SweepAndPrune {
    order: Vec<u32>,
}

impl SweepAndPrune {
    /// The bytes the kept order holds.
    pub fn heap_bytes(&self) -> usize {
        crate::heap::vec_bytes(&self.order)
    }

    /// Every distinct pair `(i, j)`, `i < j`, of overlapping boxes that `keep` accepts,
    /// into `out` (cleared first).
    pub fn pairs(
        &mut self,
        boxes: &[Aabb],
        mut keep: impl FnMut(usize, usize) -> bool,
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
        for (n, &i) in self.order.iter().enumerate() {
            let a = &boxes[i as usize];
            for &j in &self.order[n + 1..] {
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
        }
    }
}

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
