//! Graph colouring of the contact rows: rows of one colour touch disjoint moving bodies,
//! so they can be solved in any order, or at once on several threads, with bitwise the
//! same result. Greedy, as Box2D v3's constraint graph colours its constraints
//! [Catto 2024]: each row takes the lowest colour that neither of its moving bodies has
//! yet; static ends (the ground, sleeping and kinematic bodies) take no colour, since
//! the solver only reads them.

use std::ops::Range;

use arrayvec::ArrayVec;

/// The colours a body can take part in; a row whose bodies have used them all goes to
/// the overflow, solved alone after the colours.
pub const COLOURS: usize = 64;

/// Rows grouped by colour: `ranges[k]` are the rows of colour `k`, in the order they
/// were given; the last range, if `overflow`, is solved one row after another.
#[derive(Clone, Debug, Default)]
pub struct Colours {
    pub ranges: ArrayVec<Range<usize>, { COLOURS + 1 }>,
    pub overflow: bool,
}

/// What [`colour`] fills on its way, kept to avoid allocations each step: a mask of the
/// colours each body has taken, and each row's colour.
#[derive(Clone, Debug, Default)]
pub struct Marks {
    used: Vec<u64>,
    colour_of: Vec<u8>,
}

impl Colours {
    /// One group of `len` rows solved one after another in the given order: the
    /// sequential solve.
    pub fn sequential(len: usize) -> Self {
        Self {
            ranges: std::iter::once(0..len).collect(),
            overflow: true,
        }
    }

    /// Whether the rows of range `k` may be solved at once.
    pub fn independent(&self, k: usize) -> bool {
        !(self.overflow && k + 1 == self.ranges.len())
    }
}

/// Colours the rows `ends` (each row's two body indices; a body is moving iff
/// `moving(index)`), and returns the permutation that lists the rows colour by colour
/// (stable: within a colour, rows keep their given order) with the colour groups.
pub fn colour(
    ends: &[(usize, usize)],
    moving: impl Fn(usize) -> bool,
    marks: &mut Marks,
    order: &mut Vec<u32>,
) -> Colours {
    let bodies = ends.iter().map(|&(a, b)| a.max(b) + 1).max().unwrap_or(0);
    let Marks { used, colour_of } = marks;
    used.clear();
    used.resize(bodies, 0);
    let overflow = COLOURS as u8;
    colour_of.clear();
    let mut count = [0usize; COLOURS + 1];
    for &(a, b) in ends {
        let (ma, mb) = (moving(a), moving(b));
        let taken = (if ma { used[a] } else { 0 }) | (if mb { used[b] } else { 0 });
        let c = (!taken).trailing_zeros() as usize;
        let c = if c < COLOURS {
            let bit = 1u64 << c;
            if ma {
                used[a] |= bit;
            }
            if mb {
                used[b] |= bit;
            }
            c as u8
        } else {
            overflow
        };
        colour_of.push(c);
        count[c as usize] += 1;
    }
    let mut start = [0usize; COLOURS + 1];
    let mut ranges = ArrayVec::new();
    let mut total = 0;
    for (k, &n) in count.iter().enumerate() {
        start[k] = total;
        if n > 0 {
            ranges.push(total..total + n);
        }
        total += n;
    }
    order.clear();
    order.resize(ends.len(), 0);
    for (row, &c) in colour_of.iter().enumerate() {
        order[start[c as usize]] = row as u32;
        start[c as usize] += 1;
    }
    Colours {
        ranges,
        overflow: count[COLOURS] > 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On random graphs: every row is listed once, rows of one colour share no moving
    /// body, rows keep their order within a colour, and a colouring is the same each
    /// time (the parallel solve's determinism rests on it).
    #[test]
    fn colours_share_no_moving_body() {
        let mut seed = 99u64;
        let mut rand = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        for _ in 0..200 {
            let n = 2 + rand(40) as usize;
            // The last index plays the ground: static.
            let ends: Vec<(usize, usize)> = (0..rand(300))
                .map(|_| {
                    let a = rand(n as u64 - 1) as usize;
                    let b = rand(n as u64) as usize;
                    (a, if b == a { n - 1 } else { b })
                })
                .collect();
            let moving = |i: usize| i != n - 1;
            let (mut used, mut order) = (Marks::default(), Vec::new());
            let colours = colour(&ends, moving, &mut used, &mut order);
            let mut seen = order.clone();
            seen.sort();
            assert_eq!(seen, (0..ends.len() as u32).collect::<Vec<_>>());
            for (k, range) in colours.ranges.iter().enumerate() {
                let rows = &order[range.clone()];
                assert!(rows.windows(2).all(|w| w[0] < w[1]), "order kept");
                if !colours.independent(k) {
                    continue;
                }
                let mut touched = vec![false; n];
                for &r in rows {
                    let (a, b) = ends[r as usize];
                    for body in [a, b].into_iter().filter(|&x| moving(x)) {
                        assert!(!touched[body], "colour {k} touches body {body} twice");
                        touched[body] = true;
                    }
                }
            }
            let mut again = Vec::new();
            colour(&ends, moving, &mut used, &mut again);
            assert_eq!(order, again);
        }
    }

    /// A body in more rows than there are colours sends the rest to the overflow.
    #[test]
    fn a_star_overflows_past_the_colours() {
        let ends: Vec<(usize, usize)> = (1..=COLOURS + 5).map(|k| (0, k)).collect();
        let (mut used, mut order) = (Marks::default(), Vec::new());
        let colours = colour(&ends, |_| true, &mut used, &mut order);
        assert!(colours.overflow);
        assert_eq!(colours.ranges.len(), COLOURS + 1);
        assert_eq!(colours.ranges.last(), Some(&(COLOURS..COLOURS + 5)));
        assert!(!colours.independent(COLOURS));
        assert!(colours.independent(COLOURS - 1));
    }
}
