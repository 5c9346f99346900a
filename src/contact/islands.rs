//! Islands and sleeping. Bodies linked by contacts or joints form an island; an island
//! whose every body has been slow for the sleep time falls asleep as a whole and is
//! neither solved nor integrated until something awake touches it. Islands are found by
//! walking the contact graph's per-body lists.

use super::graph::{ContactGraph, NONE};
use super::joint::Joint;

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Sleep {
    /// How long the body has been slower than the sleep speed.
    pub timer: f64,
    pub asleep: bool,
}

/// Updates `sleep` from the bodies' speeds; returns how many islands there are and
/// the bodies that fell asleep in this call (their velocities must be zeroed).
pub fn update<V>(
    graph: &ContactGraph<V>,
    joints: &[Joint],
    speeds: &[f64],
    sleep: &mut [Sleep],
    (enabled, sleep_speed, sleep_time, h): (bool, f64, f64, f64),
) -> (usize, Vec<usize>) {
    let n = sleep.len();
    for (s, &v) in sleep.iter_mut().zip(speeds) {
        if !s.asleep {
            s.timer = if v > sleep_speed { 0.0 } else { s.timer + h };
        }
    }
    let mut joined: Vec<Vec<u32>> = Vec::new();
    if !joints.is_empty() {
        joined = vec![Vec::new(); n];
        for j in joints {
            if let Some(b) = j.b {
                joined[j.a].push(b as u32);
                joined[b].push(j.a as u32);
            }
        }
    }
    let mut seen = vec![false; n];
    let mut stack = Vec::new();
    let mut island = Vec::new();
    let mut fell = Vec::new();
    let mut count = 0;
    for root in 0..n {
        if seen[root] {
            continue;
        }
        count += 1;
        island.clear();
        seen[root] = true;
        stack.push(root as u32);
        while let Some(body) = stack.pop() {
            island.push(body as usize);
            let linked = graph.contacts_of(body).map(|(_, other)| other);
            let by_joint = joined.get(body as usize).into_iter().flatten().copied();
            for other in linked.chain(by_joint) {
                if other != NONE && !seen[other as usize] {
                    seen[other as usize] = true;
                    stack.push(other);
                }
            }
        }
        let calm = island
            .iter()
            .map(|&b| sleep[b].timer)
            .fold(f64::INFINITY, f64::min);
        let asleep = enabled && calm >= sleep_time;
        for &b in &island {
            if asleep && !sleep[b].asleep {
                fell.push(b);
            }
            sleep[b].asleep = asleep;
        }
    }
    (count, fell)
}
