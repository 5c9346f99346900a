//! The contact graph, after [cwzx, Lists]' list design: contacts are values in one
//! contiguous array, and the links that thread each body's contacts into a list are kept
//! apart from them, as small integer indices in arrays of their own. Insertion pushes to
//! the back; erasure moves the last contact into the hole and re-points its links (O(1), no
//! allocation). Each contact has two ends (`2c` and `2c + 1`), one per body; a static end
//! (the ground) is not linked, since static bodies join no islands.

/// No link / a static body.
pub const NONE: u32 = u32::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct Link {
    prev: u32,
    next: u32,
    /// The body at the contact's other end, kept beside the links so walking a body's
    /// list reads one array only.
    other: u32,
}

/// Contacts between pairs of bodies (or a body and the static world), each a value `V`,
/// with every body's list of its contacts.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct ContactGraph<V> {
    /// First contact end of each body's list.
    heads: Vec<u32>,
    /// Per contact end: the neighbours in its body's list.
    links: Vec<Link>,
    /// Per contact: its two bodies (`NONE` for static).
    bodies: Vec<[u32; 2]>,
    values: Vec<V>,
}

impl<V> Default for ContactGraph<V> {
    fn default() -> Self {
        Self {
            heads: Vec::new(),
            links: Vec::new(),
            bodies: Vec::new(),
            values: Vec::new(),
        }
    }
}

impl<V> ContactGraph<V> {
    /// Whether every index in the graph is in range for `bodies` bodies: a graph read
    /// from a file is walked by the next step.
    pub fn check(&self, bodies: usize) -> Result<(), String> {
        let n = self.values.len();
        let body = |b: u32| b == NONE || (b as usize) < bodies;
        let end = |e: u32| e == NONE || (e as usize) < self.links.len();
        let fine = self.bodies.len() == n
            && self.links.len() == 2 * n
            && self.heads.len() <= bodies
            && self.heads.iter().all(|&h| end(h))
            && self
                .links
                .iter()
                .all(|l| end(l.prev) && end(l.next) && body(l.other))
            && self.bodies.iter().flatten().all(|&b| body(b));
        if fine {
            Ok(())
        } else {
            Err("the contact graph links bodies or contacts that do not exist".into())
        }
    }

    /// How many contacts there are.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether there is no contact.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Makes room for bodies `0..n`.
    pub fn reserve_bodies(&mut self, n: usize) {
        if self.heads.len() < n {
            self.heads.resize(n, NONE);
        }
    }

    /// Erases every contact, keeping the memory.
    pub fn clear(&mut self) {
        self.heads.iter_mut().for_each(|h| *h = NONE);
        self.links.clear();
        self.bodies.clear();
        self.values.clear();
    }

    /// The bytes the graph's arrays hold (the values' own heap, if any, not included).
    pub fn heap_bytes(&self) -> usize {
        use crate::heap::vec_bytes;
        vec_bytes(&self.heads)
            + vec_bytes(&self.links)
            + vec_bytes(&self.bodies)
            + vec_bytes(&self.values)
    }

    /// The contacts' values, by contact index.
    pub fn values(&self) -> &[V] {
        &self.values
    }

    /// The contacts' values, to change in place (their ends stay).
    pub fn values_mut(&mut self) -> &mut [V] {
        &mut self.values
    }

    /// The two bodies of `contact` (`NONE` for a static end).
    #[inline]
    pub fn bodies(&self, contact: usize) -> [u32; 2] {
        self.bodies[contact]
    }

    /// Both bodies of every contact, in contact order.
    pub fn ends(&self) -> &[[u32; 2]] {
        &self.bodies
    }

    /// Adds a contact between `a` and `b` (either may be `NONE`); returns its index.
    pub fn insert(&mut self, a: u32, b: u32, value: V) -> usize {
        let c = self.values.len();
        self.values.push(value);
        self.bodies.push([a, b]);
        for (side, body) in [a, b].into_iter().enumerate() {
            let end = (2 * c + side) as u32;
            let mut link = Link {
                prev: NONE,
                next: NONE,
                other: [b, a][side],
            };
            if body != NONE {
                self.reserve_bodies(body as usize + 1);
                let head = self.heads[body as usize];
                link.next = head;
                if head != NONE {
                    self.links[head as usize].prev = end;
                }
                self.heads[body as usize] = end;
            }
            self.links.push(link);
        }
        c
    }

    /// Removes contact `c`; the last contact takes its index.
    pub fn erase(&mut self, c: usize) -> V {
        for side in 0..2 {
            self.unlink((2 * c + side) as u32);
        }
        let last = self.values.len() - 1;
        if c != last {
            for side in 0..2 {
                let (from, to) = ((2 * last + side) as u32, (2 * c + side) as u32);
                let link = self.links[from as usize];
                self.links[to as usize] = link;
                let body = self.bodies[last][side];
                if body == NONE {
                    continue;
                }
                if link.prev == NONE {
                    self.heads[body as usize] = to;
                } else {
                    self.links[link.prev as usize].next = to;
                }
                if link.next != NONE {
                    self.links[link.next as usize].prev = to;
                }
            }
            self.bodies[c] = self.bodies[last];
        }
        self.links.truncate(2 * last);
        self.bodies.pop();
        self.values.swap_remove(c)
    }

    fn unlink(&mut self, end: u32) {
        let c = end as usize / 2;
        let body = self.bodies[c][end as usize % 2];
        if body == NONE {
            return;
        }
        let Link { prev, next, .. } = self.links[end as usize];
        if prev == NONE {
            self.heads[body as usize] = next;
        } else {
            self.links[prev as usize].next = next;
        }
        if next != NONE {
            self.links[next as usize].prev = prev;
        }
    }

    /// The contacts of `body`, with the body at the other end (`NONE` for static).
    pub fn contacts_of(&self, body: u32) -> impl Iterator<Item = (usize, u32)> + '_ {
        let mut end = self.heads.get(body as usize).copied().unwrap_or(NONE);
        std::iter::from_fn(move || {
            if end == NONE {
                return None;
            }
            let link = &self.links[end as usize];
            let c = end as usize / 2;
            end = link.next;
            Some((c, link.other))
        })
    }

    /// The contact between `a` and `b` for which `same` holds, walking `a`'s list.
    pub fn find(&self, a: u32, b: u32, mut same: impl FnMut(&V) -> bool) -> Option<usize> {
        self.contacts_of(a)
            .find(|&(c, other)| other == b && same(&self.values[c]))
            .map(|(c, _)| c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lists agree with a plain scan of the contact array after any insert/erase mix.
    #[test]
    fn lists_match_the_array_after_inserts_and_erases() {
        let mut g = ContactGraph::default();
        let mut seed = 12345u64;
        let mut rand = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        for step in 0..2000u32 {
            if g.is_empty() || rand(3) > 0 {
                let a = rand(20) as u32;
                let b = if rand(5) == 0 { NONE } else { rand(20) as u32 };
                g.insert(a, b, step);
            } else {
                let c = rand(g.len() as u64) as usize;
                g.erase(c);
            }
            for body in 0..20u32 {
                let mut listed: Vec<usize> = g.contacts_of(body).map(|(c, _)| c).collect();
                let mut scanned: Vec<usize> = (0..g.len())
                    .filter(|&c| g.bodies(c).contains(&body))
                    .collect();
                listed.sort();
                scanned.sort();
                // A self-contact would be listed twice; the test never makes one with NONE.
                listed.dedup();
                assert_eq!(listed, scanned, "body {body} after step {step}");
            }
        }
    }
}
