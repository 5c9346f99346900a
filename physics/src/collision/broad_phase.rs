//! Broad phase: sweep and prune in slabs. Boxes are sorted by their lower bound on the
//! axis along which their centres spread most (the sweep axis), then swept: each box
//! meets only the boxes that start before it ends. A wide pile spreads on two axes, and
//! a sweep along one alone meets every box of the slice across it; so the boxes are
//! also binned in slabs across the axis of next most spread, each at least as thick as
//! the thickest box (a box lies in one or two), and each slab is swept on its own. A pair
//! is reported by the slab that holds the larger of its two lower bounds across, which
//! both boxes reach when they overlap: once. The order is kept between steps, so the sort
//! of an almost sorted list is nearly linear.
//!
//! Between sweeps the pairs are kept, as Box2D's fat boxes keep them (Catto, Box2D v3,
//! `b2_aabbMargin`, `broad_phase.c`): each box has a fat copy, grown by [`MARGIN`] when
//! it was made, and the pairs of overlapping fat boxes are listed. While a box stays
//! inside its fat box no pair of it can begin that the list lacks, so the list, filtered
//! by the boxes themselves, holds the sweep's pairs. A box that leaves its fat box (or
//! wakes) gets a new one and is tried against every fat box; when many do (a heap
//! forming), the boxes are swept as above. The kept pairs are handed out in the sweep's
//! order (by slab, then along the axis), so that everything after them is bitwise what
//! the sweep gives.

use glam::DVec3;

use crate::collision::geometry::Aabb;
use crate::solver::parallel;

/// The broad phase: sweep and prune in slabs, with the pairs kept between sweeps (see the
/// module).
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct SweepAndPrune {
    /// All boxes by their lower bound on the sweep axis; kept from step to step.
    order: Vec<u32>,
    #[serde(skip)]
    bins: Bins,
    #[serde(skip)]
    kept: Kept,
}

/// Scratch rebuilt each sweep: the boxes of each slab in sweep order, slab after slab
/// (their indices, and copies of them, which the sweep reads in order instead of all over
/// the boxes), and where each slab's run starts (one more entry than slabs).
#[derive(Clone, Debug, Default)]
struct Bins {
    binned: Vec<u32>,
    boxes: Vec<Aabb>,
    starts: Vec<usize>,
}

/// The pairs kept between sweeps, and the fat boxes they are of.
#[derive(Clone, Debug, Default)]
struct Kept {
    /// Each box grown by [`MARGIN`] when it was last made (none before the first step).
    fat: Vec<Aabb>,
    /// The boxes awake at some step since the fat boxes were last swept.
    flagged: Vec<bool>,
    /// Whether `pairs` holds every pair of overlapping fat boxes with a flagged box, once.
    whole: bool,
    /// Those pairs `(key, i, j)`, `i < j`, by `key`: their place in the sweep's order
    /// (see [`Kept::sort`]).
    pairs: Vec<(u64, u32, u32)>,
    /// Whether the keys were made from `ranks` (a box's slab and place in the sweep
    /// order, as [`Kept::sort`] makes them).
    keyed: bool,
    ranks: Vec<(u64, u64)>,
    /// Scratch: which boxes are awake this step; the boxes that left their fat boxes or
    /// woke (listed and marked); the pairs merged in order.
    awake: Vec<bool>,
    moved: Vec<u32>,
    marked: Vec<bool>,
    merged: Vec<(u64, u32, u32)>,
}

/// At most this many slabs: enough for a pile of tens of thousands of boxes.
const MAX_SLABS: usize = 1024;
/// Below this many boxes the slabs are swept on the calling thread.
const PARALLEL_BOXES: usize = 512;
/// How far a fat box reaches past its box (m): Box2D's `b2_aabbMargin`.
pub const MARGIN: f64 = 0.1;
/// Beyond this many boxes out of their fat boxes (or an eighth of the boxes), trying each
/// against every box costs more than the sweep.
const FEW_MOVED: usize = 32;
/// A kept pair's key holds two places in the sweep order of 27 bits each (and a slab of
/// 10 bits): with more boxes than that, they are swept every step.
const KEYED_BOXES: usize = 1 << 27;

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

    /// The slab that reports the pair of boxes `a` and `b` when they overlap.
    fn of_pair(&self, a: &Aabb, b: &Aabb) -> usize {
        self.of(a.min[self.across].max(b.min[self.across]))
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

    /// The order the next step starts from, without the scratch buffers and kept pairs.
    pub fn snapshot(&self) -> Self {
        Self {
            order: self.order.clone(),
            bins: Bins::default(),
            kept: Kept::default(),
        }
    }

    /// Takes the order of `from`, keeping this one's scratch buffers and kept pairs (a
    /// box that is not inside its fat box is tried again, whatever moment it is of).
    pub fn restore(&mut self, from: &Self) {
        self.order.clone_from(&from.order);
    }

    /// Every distinct pair `(i, j)`, `i < j`, of overlapping boxes, at least one of them
    /// `awake`, that `keep` accepts, into `out` (cleared first), in the sweep's order. A
    /// slab with no awake box is not swept: beside an asleep heap, one awake box costs the
    /// sweep of its slabs only.
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
        self.sort(boxes, axis);
        let slabs = Slabs::new(boxes, across);
        let moved = self.kept.find_moved(boxes, awake);
        let awake = |i: usize| self.kept.awake[i];
        if moved > FEW_MOVED.min(boxes.len() / 8) || boxes.len() >= KEYED_BOXES {
            self.kept.whole = false;
            (self.bins).sweep(boxes, &self.order, (axis, &slabs), (awake, keep), out);
            return;
        }
        let head = if self.kept.whole {
            self.kept.refit()
        } else {
            self.sweep_fat(boxes, (axis, across), out)
        };
        self.kept.sort(boxes, &self.order, &slabs, head);
        let awake = |i: usize| self.kept.awake[i];
        let touch = |&(_, i, j): &(u64, u32, u32)| {
            let (i, j) = (i as usize, j as usize);
            boxes[i].overlaps(&boxes[j]) && (awake(i) || awake(j)) && keep(i, j)
        };
        let kept = self.kept.pairs.iter().filter(|p| touch(p));
        out.extend(kept.map(|&(_, i, j)| (i, j)));
    }

    /// Insertion sort by lower bound on `axis`: linear on the nearly sorted order of the
    /// last step.
    fn sort(&mut self, boxes: &[Aabb], axis: usize) {
        let lo = |k: u32| boxes[k as usize].min[axis];
        for i in 1..self.order.len() {
            let mut j = i;
            while j > 0 && lo(self.order[j - 1]) > lo(self.order[j]) {
                self.order.swap(j - 1, j);
                j -= 1;
            }
        }
    }

    /// Every fat box made again from its box, the boxes awake now flagged, and the pairs
    /// of fat boxes with a flagged one swept into the kept pairs (`scratch` is left
    /// empty); returns how many. Each fat box is its box grown by the same margin, so the
    /// boxes' order is the fat boxes' too.
    fn sweep_fat(
        &mut self,
        boxes: &[Aabb],
        (axis, across): (usize, usize),
        scratch: &mut Vec<(u32, u32)>,
    ) -> usize {
        let kept = &mut self.kept;
        kept.fat.clear();
        kept.fat
            .extend(boxes.iter().map(|b| b.expanded(DVec3::splat(MARGIN))));
        kept.flagged.clone_from(&kept.awake);
        let slabs = Slabs::new(&kept.fat, across);
        let flagged = &kept.flagged;
        let flags = (|i: usize| flagged[i], |_: usize, _: usize| true);
        (self.bins).sweep(&kept.fat, &self.order, (axis, &slabs), flags, scratch);
        kept.pairs.clear();
        kept.pairs.extend(scratch.drain(..).map(|(i, j)| (0, i, j)));
        kept.whole = true;
        kept.keyed = false;
        kept.pairs.len()
    }
}

impl Bins {
    /// The pairs of `boxes` (in `order` along `axis`) that overlap, with an `awake` box,
    /// that `keep` accepts, each reported by its slab.
    fn sweep(
        &mut self,
        boxes: &[Aabb],
        order: &[u32],
        (axis, slabs): (usize, &Slabs),
        (awake, keep): (
            impl Fn(usize) -> bool + Sync,
            impl Fn(usize, usize) -> bool + Sync,
        ),
        out: &mut Vec<(u32, u32)>,
    ) {
        self.bin(boxes, order, slabs);
        let (binned, starts, binned_boxes) = (&self.binned, &self.starts, &self.boxes);
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
                    if a.overlaps(b) && slabs.of_pair(a, b) == s {
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
    fn bin(&mut self, boxes: &[Aabb], order: &[u32], slabs: &Slabs) {
        let span = |k: u32| {
            let b = &boxes[k as usize];
            slabs.of(b.min[slabs.across])..=slabs.of(b.max[slabs.across])
        };
        self.starts.clear();
        self.starts.resize(slabs.count + 1, 0);
        for &k in order {
            for s in span(k) {
                self.starts[s + 1] += 1;
            }
        }
        for s in 0..slabs.count {
            self.starts[s + 1] += self.starts[s];
        }
        self.binned.clear();
        self.binned.resize(self.starts[slabs.count], 0);
        (self.boxes).resize(self.starts[slabs.count], Aabb::default());
        let mut next = self.starts.clone();
        for &k in order {
            for s in span(k) {
                self.binned[next[s]] = k;
                self.boxes[next[s]] = boxes[k as usize];
                next[s] += 1;
            }
        }
    }
}

impl Kept {
    /// Notes which boxes are `awake`, and lists the boxes out of their fat boxes and the
    /// boxes awake and not flagged, making their fat boxes again and flagging the woken
    /// ones; returns how many. Before the first step (or with another count of boxes)
    /// every box counts.
    fn find_moved(&mut self, boxes: &[Aabb], awake: impl Fn(usize) -> bool) -> usize {
        self.awake.clear();
        self.awake.extend((0..boxes.len()).map(awake));
        self.moved.clear();
        if self.fat.len() != boxes.len() {
            self.fat.clear();
            (self.fat).extend(boxes.iter().map(|b| b.expanded(DVec3::splat(MARGIN))));
            self.flagged.clone_from(&self.awake);
            self.marked.clear();
            self.marked.resize(boxes.len(), false);
            self.whole = false;
            return boxes.len();
        }
        for (k, (b, fat)) in boxes.iter().zip(&mut self.fat).enumerate() {
            let out = !(fat.min.cmple(b.min).all() && b.max.cmple(fat.max).all());
            let woken = self.awake[k] && !self.flagged[k];
            if out || woken {
                *fat = b.expanded(DVec3::splat(MARGIN));
                self.flagged[k] |= woken;
                self.moved.push(k as u32);
            }
        }
        self.moved.len()
    }

    /// The kept pairs of the moved boxes dropped, and each moved box tried against every
    /// fat box (a pair of two moved boxes from the first of them) and its pairs added
    /// after the others; returns how many others.
    fn refit(&mut self) -> usize {
        for &i in &self.moved {
            self.marked[i as usize] = true;
        }
        let (fat, flagged, marked) = (&self.fat, &self.flagged, &self.marked);
        self.pairs
            .retain(|&(_, i, j)| !marked[i as usize] && !marked[j as usize]);
        let head = self.pairs.len();
        for &i in &self.moved {
            let a = &fat[i as usize];
            for (j, b) in fat.iter().enumerate() {
                // The axes one by one: most boxes are left at the first.
                let meet = (0..3).all(|k| a.min[k] <= b.max[k] && b.min[k] <= a.max[k]);
                let met = j == i as usize || (marked[j] && j < i as usize);
                if meet && !met && (flagged[i as usize] || flagged[j]) {
                    let j = j as u32;
                    self.pairs.push((0, i.min(j), i.max(j)));
                }
            }
        }
        for &i in &self.moved {
            self.marked[i as usize] = false;
        }
        head
    }

    /// The kept pairs in the order the sweep of `boxes` reports them: by slab (the larger
    /// of the two boxes' slabs of their lower bounds across, since a slab grows with its
    /// coordinate), then by the place in `order` of the first of the two boxes, then of
    /// the second. The first `head` pairs are in the last step's order, which is nearly
    /// this one (or is this one, where no box changed slab or place: a pile at rest); the
    /// others are sorted apart and merged in.
    fn sort(&mut self, boxes: &[Aabb], order: &[u32], slabs: &Slabs, head: usize) {
        let mut same = self.keyed && self.ranks.len() == order.len();
        self.ranks.resize(order.len(), (0, 0));
        for (p, &k) in order.iter().enumerate() {
            let slab = slabs.of(boxes[k as usize].min[slabs.across]) as u64;
            let rank = (slab << 54, p as u64);
            same &= self.ranks[k as usize] == rank;
            self.ranks[k as usize] = rank;
        }
        self.keyed = true;
        let ranks = &self.ranks;
        let from = if same { head } else { 0 };
        for (key, i, j) in &mut self.pairs[from..] {
            let ((sa, pa), (sb, pb)) = (ranks[*i as usize], ranks[*j as usize]);
            *key = sa.max(sb) | pa.min(pb) << 27 | pa.max(pb);
        }
        let (old, new) = self.pairs.split_at_mut(head);
        if !same {
            // Every key is its pair's own (the pairs are distinct, and their two places
            // in the order, each below 2²⁷, fill the key's low bits), so an unstable
            // sort orders them as a stable one would, with no buffer.
            debug_assert!(order.len() < 1 << 27);
            old.sort_unstable_by_key(|p| p.0);
        }
        new.sort_unstable_by_key(|p| p.0);
        if old.is_empty() || new.is_empty() {
            return;
        }
        self.merged.clear();
        let (mut a, mut b) = (0, 0);
        while a < old.len() && b < new.len() {
            if new[b].0 < old[a].0 {
                self.merged.push(new[b]);
                b += 1;
            } else {
                self.merged.push(old[a]);
                a += 1;
            }
        }
        self.merged.extend_from_slice(&old[a..]);
        self.merged.extend_from_slice(&new[b..]);
        std::mem::swap(&mut self.pairs, &mut self.merged);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic generator (splitmix64) of numbers in `[0, 1)`.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> f64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
        }

        fn vec(&mut self, half: f64) -> DVec3 {
            DVec3::new(self.next(), self.next(), self.next()) * 2.0 * half - half
        }
    }

    /// A jumble of 600 boxes 0.8 to 1.2 m wide over 12 × 12 × 3 m: each overlaps several.
    fn jumble(rng: &mut Rng) -> Vec<Aabb> {
        (0..600)
            .map(|_| {
                let c = DVec3::new(12.0 * rng.next(), 3.0 * rng.next(), 12.0 * rng.next());
                let half = DVec3::splat(0.5) + rng.vec(0.1);
                Aabb {
                    min: c - half,
                    max: c + half,
                }
            })
            .collect()
    }

    /// Not the pairs whose indices add up to a multiple of 7 (as a joint would).
    fn keep(i: usize, j: usize) -> bool {
        !(i + j).is_multiple_of(7)
    }

    /// The pairs of `boxes` from `sap` and from a sweep made afresh, which must be the
    /// same pairs in the same order; and the pairs.
    fn both(sap: &mut SweepAndPrune, boxes: &[Aabb], awake: &[bool]) -> Vec<(u32, u32)> {
        let (mut kept, mut swept) = (Vec::new(), Vec::new());
        sap.pairs(boxes, (|i| awake[i], keep), &mut kept);
        SweepAndPrune::default().pairs(boxes, (|i| awake[i], keep), &mut swept);
        assert_eq!(kept, swept);
        kept
    }

    /// The first pair of overlapping boxes, both asleep, that [`keep`] keeps.
    fn asleep_pair(boxes: &[Aabb], awake: &[bool]) -> (u32, u32) {
        let n = boxes.len();
        let all = (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j)));
        let mut dozing = all
            .filter(|&(i, j)| !awake[i] && !awake[j] && boxes[i].overlaps(&boxes[j]) && keep(i, j));
        let (i, j) = dozing.next().expect("two asleep boxes overlap");
        (i as u32, j as u32)
    }

    /// Pairs kept while the boxes move a little (1 cm a step on each axis, some leaving
    /// their fat boxes after a while), then when one box jumps out of its fat box, when a
    /// box wakes beside an asleep one, and when boxes fall asleep, are each time those of
    /// a fresh sweep, in its order; and each of these steps keeps the pairs rather than
    /// sweeping.
    #[test]
    fn kept_pairs_are_the_pairs_of_a_fresh_sweep() {
        let mut rng = Rng(7);
        let mut boxes = jumble(&mut rng);
        let mut awake: Vec<bool> = (0..boxes.len()).map(|i| i % 3 != 0).collect();
        let mut sap = SweepAndPrune::default();
        let mut last = both(&mut sap, &boxes, &awake);
        let (mut changed, mut left) = (0, 0);
        for _ in 0..40 {
            for b in &mut boxes {
                let d = rng.vec(0.01);
                (b.min, b.max) = (b.min + d, b.max + d);
            }
            let pairs = both(&mut sap, &boxes, &awake);
            assert!(sap.kept.whole, "the pairs were swept, not kept");
            changed += usize::from(pairs != last);
            left += sap.kept.moved.len();
            last = pairs;
        }
        assert!(
            changed > 20 && left > 0,
            "{changed} steps changed pairs, {left} left"
        );
        // Box 0 jumps 3 m: a pair of it that no fat box of the last step held.
        let jump = DVec3::new(3.0, 0.0, 0.0);
        (boxes[0].min, boxes[0].max) = (boxes[0].min + jump, boxes[0].max + jump);
        let pairs = both(&mut sap, &boxes, &awake);
        assert!(sap.kept.whole && sap.kept.moved == [0]);
        assert!(pairs.iter().any(|p| p.0 == 0 && !last.contains(p)));
        // A box wakes beside an asleep one: their pair is new.
        let (i, j) = asleep_pair(&boxes, &awake);
        assert!(!pairs.contains(&(i, j)));
        awake[i as usize] = true;
        let pairs = both(&mut sap, &boxes, &awake);
        assert!(sap.kept.whole && pairs.contains(&(i, j)));
        // A third of the boxes fall asleep.
        awake.iter_mut().skip(1).step_by(3).for_each(|a| *a = false);
        both(&mut sap, &boxes, &awake);
        assert!(sap.kept.whole);
    }
}
