//! A copy of the contact state that the next step reads (the graph with its manifolds and
//! warm-start impulses, the joints' impulses, sleep, the broad phase's order), without the
//! scratch each step rebuilds: the lab's history keeps many, so they stay small.

use crate::contacts::{ContactState, Contacts, Scratch};
use crate::heap::vec_bytes;

impl Contacts {
    /// Whether every index the next step follows is in range, for a world of `bodies`
    /// bodies and `frames` frames: a state read from a file must not panic the step.
    pub fn check(&self, bodies: usize, frames: usize) -> Result<(), String> {
        let s = &self.state;
        s.graph.check(bodies)?;
        s.broad.check()?;
        if s.sleep.len() < bodies || s.kinematic.len() > frames {
            return Err("the contacts' sleep or colliders do not match the bodies".into());
        }
        for (k, j) in s.joints.iter().enumerate() {
            if j.a >= bodies
                || j.b.is_some_and(|b| b >= bodies)
                || j.frame.is_some_and(|f| f >= frames)
            {
                return Err(format!(
                    "joint {k} joins a body or frame that does not exist"
                ));
            }
        }
        Ok(())
    }

    /// The state alone, with empty scratch.
    pub fn snapshot(&self) -> Contacts {
        Contacts::from(self.state.snapshot())
    }

    /// Takes the state of `from` (a snapshot), keeping this one's scratch, whose memory
    /// the next step reuses.
    pub fn restore(&mut self, from: &Contacts) {
        self.state.restore(&from.state);
        self.scratch.forget_moment();
    }

    /// The bytes the state owns on the heap, this box included (scratch not counted: a
    /// snapshot has none).
    pub fn heap_bytes(&self) -> usize {
        let s = &self.state;
        std::mem::size_of::<Contacts>()
            + vec_bytes(&s.planes)
            + vec_bytes(&s.kinematic)
            + s.kinematic
                .iter()
                .map(|k| vec_bytes(&k.parts))
                .sum::<usize>()
            + vec_bytes(&s.passive)
            + vec_bytes(&s.joints)
            + s.graph.heap_bytes()
            + s.sleep.heap_bytes()
            + s.broad.heap_bytes()
    }
}

impl ContactState {
    /// A copy, the broad phase's without its sweep's buffers. Every field is named, so a
    /// field added to the state does not compile until it is copied.
    fn snapshot(&self) -> Self {
        let Self {
            settings,
            planes,
            kinematic,
            passive,
            joints,
            user_rows,
            graph,
            sleep,
            stats,
            broad,
            stamp,
        } = self;
        Self {
            settings: *settings,
            planes: planes.clone(),
            kinematic: kinematic.clone(),
            passive: passive.clone(),
            joints: joints.clone(),
            user_rows: user_rows.clone(),
            graph: graph.clone(),
            sleep: sleep.clone(),
            stats: *stats,
            broad: broad.snapshot(),
            stamp: *stamp,
        }
    }

    /// Takes `from`'s state, keeping this one's buffers' memory. Every field is named,
    /// so a field added to the state does not compile until it is restored.
    fn restore(&mut self, from: &Self) {
        let Self {
            settings,
            planes,
            kinematic,
            passive,
            joints,
            user_rows,
            graph,
            sleep,
            stats,
            broad,
            stamp,
        } = from;
        self.settings = *settings;
        self.planes.clone_from(planes);
        self.kinematic.clone_from(kinematic);
        self.passive.clone_from(passive);
        self.joints.clone_from(joints);
        self.user_rows = user_rows.clone();
        self.graph.clone_from(graph);
        self.sleep.clone_from(sleep);
        self.stats = *stats;
        self.broad.restore(broad);
        self.stamp = *stamp;
    }
}

impl Scratch {
    /// What the next step must not take from the moment before a restore. Every field is
    /// named, so a field added to the scratch does not compile until it is sorted here.
    fn forget_moment(&mut self) {
        let Scratch {
            proxies: _,
            proxies_made,
            boxes: _,
            awake_proxies: _,
            owners,
            owners_of,
            stills: _,
            pairs: _,
            found: _,
            pair_plans: _,
            contact_plans: _,
            fresh: _,
            woken: _,
            step: _,
            buffers: _,
            found_buffers: _,
            teams: _,
        } = self;
        // The proxies are of another moment: none was made at the restored stamp, and the
        // next detection makes every one again (the rest is rebuilt by each step).
        *proxies_made = 0;
        owners.clear();
        *owners_of = (0, Vec::new());
    }
}
