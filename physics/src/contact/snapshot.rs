//! A copy of the contact state that the next step reads (the graph with its manifolds and
//! warm-start impulses, the joints' impulses, sleep, the broad phase's order), without the
//! buffers each step rebuilds: the lab's history keeps many, so they stay small.
//!
//! Every field is named here, in both directions, so a field added to [`Contacts`] does
//! not compile until it is sorted into state or scratch.

use crate::contact::Contacts;
use crate::contact::scratch::Scratch;
use crate::contact::step::StepState;
use crate::heap::vec_bytes;

impl Contacts {
    /// Whether every index the next step follows is in range, for a world of `bodies`
    /// bodies and `frames` frames: a state read from a file must not panic the step.
    pub fn check(&self, bodies: usize, frames: usize) -> Result<(), String> {
        self.graph.check(bodies)?;
        self.broad.check()?;
        if self.sleep.len() < bodies || self.kinematic.len() > frames {
            return Err("the contacts' sleep or colliders do not match the bodies".into());
        }
        for (k, j) in self.joints.iter().enumerate() {
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

    /// The state without the scratch buffers (left empty).
    pub fn snapshot(&self) -> Contacts {
        let Contacts {
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
            proxies: _,
            proxies_made: _,
            boxes: _,
            awake_proxies: _,
            owners: _,
            owners_of: _,
            stills: _,
            pairs: _,
            found: _,
            pair_plans: _,
            contact_plans: _,
            fresh: _,
            woken: _,
            state: _,
            scratch: _,
            found_buffers: _,
        } = self;
        Contacts {
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
            proxies: Vec::new(),
            proxies_made: 0,
            boxes: Vec::new(),
            awake_proxies: Vec::new(),
            owners: Vec::new(),
            owners_of: (0, Vec::new()),
            stills: (0.0, Vec::new()),
            pairs: Vec::new(),
            found: Vec::new(),
            pair_plans: Vec::new(),
            contact_plans: Vec::new(),
            fresh: Vec::new(),
            woken: Vec::new(),
            state: StepState::default(),
            scratch: Scratch::default(),
            found_buffers: Default::default(),
        }
    }

    /// Takes the state of `from` (a snapshot), keeping this one's scratch buffers, whose
    /// memory the next step reuses.
    pub fn restore(&mut self, from: &Contacts) {
        let Contacts {
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
            proxies: _,
            proxies_made: _,
            boxes: _,
            awake_proxies: _,
            owners: _,
            owners_of: _,
            stills: _,
            pairs: _,
            found: _,
            pair_plans: _,
            contact_plans: _,
            fresh: _,
            woken: _,
            state: _,
            scratch: _,
            found_buffers: _,
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
        // This one's proxies are of another moment: none was made at the restored stamp,
        // and the next detection makes every one again.
        self.proxies_made = 0;
        self.owners.clear();
        self.owners_of = (0, Vec::new());
    }

    /// The bytes the state owns on the heap, this box included (scratch buffers not
    /// counted: a snapshot has none).
    pub fn heap_bytes(&self) -> usize {
        std::mem::size_of::<Contacts>()
            + vec_bytes(&self.planes)
            + vec_bytes(&self.kinematic)
            + self
                .kinematic
                .iter()
                .map(|k| vec_bytes(&k.parts))
                .sum::<usize>()
            + vec_bytes(&self.passive)
            + vec_bytes(&self.joints)
            + self.graph.heap_bytes()
            + self.sleep.heap_bytes()
            + self.broad.heap_bytes()
    }
}
