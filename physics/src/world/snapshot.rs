//! A copy of a world that the next step reads, without what one step's stages hand each
//! other (the loads being added, the frames' motion through the step, the solver's rows):
//! restored, it steps on exactly as the world it was taken from. Every field is named
//! here, so a field added to [`World`] does not compile until it is sorted into state or
//! scratch.

use super::{Handoff, World};
use crate::heap::vec_bytes;
use crate::hierarchy::rig::{Carrier, Mount};

impl World {
    /// Whether every index the next step follows is in range (mounts, frames' parents,
    /// the gun, the contacts): a state read from a file must not panic the step.
    pub fn check(&self) -> Result<(), String> {
        let (bodies, frames) = (self.bodies.len(), self.frames.len());
        let carrier = |c: &Carrier| match *c {
            Carrier::Frame(f) => f < frames,
            Carrier::Body(b) => b < bodies,
        };
        if self.mounts.len() != bodies {
            return Err("every body needs a mount".into());
        }
        for (i, m) in self.mounts.iter().enumerate() {
            let fine = match m {
                Mount::World => true,
                Mount::Riding(r) => r.frame < frames,
                Mount::Carried { by, .. } => carrier(by),
            };
            if !fine {
                return Err(format!(
                    "body {i} is mounted on a frame or body that does not exist"
                ));
            }
        }
        for (i, f) in self.frames.iter().enumerate() {
            if f.parent.is_some_and(|p| p >= i) {
                return Err(format!("frame {i}'s parent does not come before it"));
            }
        }
        if let Some(gun) = &self.gun
            && (!carrier(&gun.carrier)
                || gun.shells.is_empty()
                || gun.shells.iter().any(|&s| s >= bodies))
        {
            return Err("the gun names a carrier or shell that does not exist".into());
        }
        match &self.contacts {
            Some(c) => c.check(bodies, frames),
            None => Ok(()),
        }
    }

    /// The state without the scratch buffers (left empty).
    pub fn snapshot(&self) -> World {
        let World {
            bodies,
            mounts,
            gravity,
            integrator,
            time,
            frames,
            gun,
            contacts,
            loads: _,
            handoff: _,
        } = self;
        World {
            bodies: bodies.clone(),
            mounts: mounts.clone(),
            gravity: *gravity,
            integrator: *integrator,
            time: *time,
            frames: frames.clone(),
            gun: gun.clone(),
            contacts: contacts.as_ref().map(|c| Box::new(c.snapshot())),
            loads: Vec::new(),
            handoff: Handoff::default(),
        }
    }

    /// Takes the state of `from` (a snapshot), keeping this world's scratch buffers,
    /// whose memory the next step reuses.
    pub fn restore(&mut self, from: &World) {
        let World {
            bodies,
            mounts,
            gravity,
            integrator,
            time,
            frames,
            gun,
            contacts,
            loads: _,
            handoff: _,
        } = from;
        self.bodies.clone_from(bodies);
        self.mounts.clone_from(mounts);
        self.gravity = *gravity;
        self.integrator = *integrator;
        self.time = *time;
        self.frames.clone_from(frames);
        self.gun.clone_from(gun);
        match (&mut self.contacts, contacts) {
            (Some(mine), Some(theirs)) => mine.restore(theirs),
            (mine, theirs) => *mine = theirs.as_ref().map(|c| Box::new(c.snapshot())),
        }
    }

    /// The bytes the state owns on the heap (scratch buffers not counted: a snapshot has
    /// none).
    pub fn heap_bytes(&self) -> usize {
        let bodies: usize = self
            .bodies
            .iter()
            .map(|b| b.name.capacity() + vec_bytes(&b.parts))
            .sum();
        let riders = self
            .mounts
            .iter()
            .filter(|m| matches!(m, Mount::Riding(_)))
            .count()
            * std::mem::size_of::<crate::hierarchy::rig::Rider>();
        let frames: usize = self
            .frames
            .iter()
            .map(|f| f.name.capacity() + vec_bytes(&f.parts))
            .sum();
        vec_bytes(&self.bodies)
            + bodies
            + vec_bytes(&self.mounts)
            + riders
            + vec_bytes(&self.frames)
            + frames
            + self.gun.as_ref().map_or(0, |g| vec_bytes(&g.shells))
            + self.contacts.as_ref().map_or(0, |c| c.heap_bytes())
    }
}
