//! Broad phase: sweep and prune in slabs. Boxes are sorted by their lower bound on the
//! axis along which their centres spread most (the sweep axis), then swept: each box
//! meets only the boxes that start before it ends. A wide pile spreads on two axes, and
//! a sweep along one alone meets every box of the slice across it; so the boxes are
//! also binned in slabs across the axis of next most spread, each at least as thick as
//! the thickest box (a box lies in one or two), and each slab is swept on its own. A pair
//! is reported by the slab that holds the larger of its two lower bounds across, which
//! both boxes reach when they overlap: once. The order is kept between steps, so the sort
//! of an almost sorted list is nearly linear.

use super::geometry::Aabb;
use super::parallel;

#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct SweepAndPrune {
    /// All boxes by their lower bound on the sweep axis; kept from step to step.
    order: Vec<u32>,
    /// Scratch rebuilt each step: the boxes of each slab in sweep order, slab after slab
    /// (their indices, and copies of them, which the sweep reads in order instead of
    /// all over the boxes), and where each slab's run starts (one more entry than
    /// slabs).
    #[serde(skip)]
    binned: Vec<u32>,
    #[serde(skip)]
    binned_boxes: Vec<Aabb>,
    #[serde(skip)]
    starts: Vec<usize>,
}

/// At most this many slabs: enough for a pile of tens of thousands of boxes.
const MAX_SLABS: usize = 1024;
/// Below this many boxes the slabs are swept on the calling thread.
const PARALLEL_BOXES: usize = 512;

/// The slabs across axis `across`: the first one's lower edge and their thickness.
#[derive(Clone, Copy)]
struct Slabs {
    across: usize,
    low: f64,
    thickness: f64,
    count: usize,
}

impl Slabs {
    fn new(boxes: &[Aabb], across: usize) -> Self {
        let (mut low, mut high, mut thickest) = (f64::INFINITY, f64::NEG_INFINITY, 0.0f64);
        for b in boxes {
            low = low.min(b.min[across]);
            high = high.max(b.max[across]);
            thickest = thickest.max(b.max[across] - b.min[across]);
        }
        let span = high - low;
        // Slabs no thinner than the thickest box, so a box lies in at most two.
        let count = if span.is_finite() && thickest > 0.0 {
            ((span / thickest) as usize).clamp(1, MAX_SLABS)
        } else {
            1
        };
        let thickness = if count > 1 { span / count as f64 } else { 1.0 };
        Self {
            across,
            low,
            thickness,
            count,
        }
    }

    /// The slab of coordinate `x` across.
    fn of(&self, x: f64) -> usize {
        if self.count == 1 {
            return 0;
        }
        (((x - self.low) / self.thickness) as usize).min(self.count - 1)
    }
}

impl SweepAndPrune {
    /// The bytes the kept order holds.
    pub fn heap_bytes(&self) -> usize {
        crate::heap::vec_bytes(&self.order)
    }

    /// Whether the kept order is an order of its boxes (each index once).
    pub fn check(&self) -> Result<(), String> {
        let mut seen = vec![false; self.order.len()];
        for &k in &self.order {
            match seen.get_mut(k as usize) {
                Some(s) if !*s => *s = true,
                _ => return Err("the broad phase's order is not an order of its boxes".into()),
            }
        }
        Ok(())
    }

    /// The order the next step starts from, without the scratch buffers.
    pub fn snapshot(&self) -> Self {
        Self {
            order: self.order.clone(),
            binned: Vec::new(),
            binned_boxes: Vec::new(),
            starts: Vec::new(),
        }
    }

    /// Takes the order of `from`, keeping this one's scratch buffers.
    pub fn restore(&mut self, from: &Self) {
        self.order.clone_from(&from.order);
    }

    /// Every distinct pair `(i, j)`, `i < j`, of overlapping boxes, at least one of them
    /// `awake`, that `keep` accepts, into `out` (cleared first). A slab with no awake box
    /// is not swept: beside an asleep heap, one awake box costs the sweep of its slabs
    /// only.
    pub fn pairs(
        &mut self,
        boxes: &[Aabb],
        (awake, keep): (
            impl Fn(usize) -> bool + Sync,
            impl Fn(usize, usize) -> bool + Sync,
        ),
        out: &mut Vec<(u32, u32)>,
    ) {
        out.clear();
        if self.order.len() != boxes.len() {
            self.order = (0..boxes.len() as u32).collect();
        }
        let (axis, across) = spread_axes(boxes);
        let lo = |k: u32| boxes[k as usize].min[axis];
        // Insertion sort: linear on the nearly sorted order of the last step.
        for i in 1..self.order.len() {
            let mut j = i;
            while j > 0 && lo(self.order[j - 1]) > lo(self.order[j]) {
                self.order.swap(j - 1, j);
                j -= 1;
            }
        }
        let slabs = Slabs::new(boxes, across);
        self.bin(boxes, &slabs);
        let (binned, starts) = (&self.binned, &self.starts);
        let binned_boxes = &self.binned_boxes;
        // Slab `s`'s sweep: the boxes that start within each box's extent on the axis,
        // after it in the slab.
        let sweep = |s: usize, out: &mut Vec<(u32, u32)>| {
            let slab = starts[s]..starts[s + 1];
            let (run, run_boxes) = (&binned[slab.clone()], &binned_boxes[slab]);
            if !run.iter().any(|&i| awake(i as usize)) {
                return;
            }
            for (n, (&i, a)) in run.iter().zip(run_boxes).enumerate() {
                for (&j, b) in run[n + 1..].iter().zip(&run_boxes[n + 1..]) {
                    if b.min[axis] > a.max[axis] {
                        break;
                    }
                    let shared = a.min[across].max(b.min[across]);
                    if a.overlaps(b) && slabs.of(shared) == s {
                        let (p, q) = (i.min(j), i.max(j));
                        let either = awake(p as usize) || awake(q as usize);
                        if either && keep(p as usize, q as usize) {
                            out.push((p, q));
                        }
                    }
                }
            }
        };
        if boxes.len() >= PARALLEL_BOXES {
            // Each slab on its own (on the stage's team, if it has one); the runs are
            // joined in slab order, so the pairs are the same on any number of threads.
            let mut runs: Vec<Vec<(u32, u32)>> = Vec::new();
            parallel::collect_from(slabs.count, 2, &mut runs, |s| {
                let mut run = Vec::new();
                sweep(s, &mut run);
                run
            });
            out.extend(runs.into_iter().flatten());
        } else {
            (0..slabs.count).for_each(|s| sweep(s, out));
        }
    }

    /// Lists the boxes of each slab in sweep order (a counting sort by slab).
    fn bin(&mut self, boxes: &[Aabb], slabs: &Slabs) {
        let span = |k: u32| {
            let b = &boxes[k as usize];
            slabs.of(b.min[slabs.across])..=slabs.of(b.max[slabs.across])
        };
        self.starts.clear();
        self.starts.resize(slabs.count + 1, 0);
        for &k in &self.order {
            for s in span(k) {
                self.starts[s + 1] += 1;
            }
        }
        for s in 0..slabs.count {
            self.starts[s + 1] += self.starts[s];
        }
        self.binned.clear();
        self.binned.resize(self.starts[slabs.count], 0);
        (self.binned_boxes).resize(self.starts[slabs.count], Aabb::default());
        let mut next = self.starts.clone();
        for &k in &self.order {
            for s in span(k) {
                self.binned[next[s]] = k;
                self.binned_boxes[next[s]] = boxes[k as usize];
                next[s] += 1;
            }
        }
    }
}

/// At most this many awake boxes are tried against every box ([`pairs_of_few`]) instead
/// of swept: a box against a box costs a few nanoseconds, the sweep tens per box, so
/// beside a heap asleep a few awake boxes cost what they alone would.
pub const FEW_AWAKE: usize = 16;

/// [`SweepAndPrune::pairs`] for a few `awake` boxes (indices, ascending): every
/// distinct pair `(i, j)`, `i < j`, of overlapping boxes, at least one of them awake,
/// that `keep` accepts, into `out` (cleared first), in the order of `(i, j)`. The kept
/// sweep order is left as it is; the next sweep sorts it again.
pub fn pairs_of_few(
    boxes: &[Aabb],
    awake: &[u32],
    keep: impl Fn(usize, usize) -> bool,
    out: &mut Vec<(u32, u32)>,
) {
    out.clear();
    for (n, &i) in awake.iter().enumerate() {
        let a = &boxes[i as usize];
        for (j, b) in boxes.iter().enumerate() {
            let j = j as u32;
            // A pair of two awake boxes is met from the first of them only.
            let met = || j == i || awake[..n].binary_search(&j).is_ok();
            if a.overlaps(b) && !met() && keep(i.min(j) as usize, i.max(j) as usize) {
                out.push((i.min(j), i.max(j)));
            }
        }
    }
    out.sort_unstable();
}

/// The axes along which the box centres have the largest and the next largest variance.
fn spread_axes(boxes: &[Aabb]) -> (usize, usize) {
    if boxes.is_empty() {
        return (0, 1);
    }
    let n = boxes.len() as f64;
    let (mut sum, mut sq) = (glam::DVec3::ZERO, glam::DVec3::ZERO);
    for b in boxes {
        let c = 0.5 * (b.min + b.max);
        sum += c;
        sq += c * c;
    }
    let var = (sq / n - (sum / n) * (sum / n)).to_array();
    let mut axes = [0, 1, 2];
    // Stable: ties keep x before y before z.
    axes.sort_by(|&i, &j| var[j].total_cmp(&var[i]));
    (axes[0], axes[1])
}
