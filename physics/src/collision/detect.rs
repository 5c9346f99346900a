//! The detect stage: sweep and prune over the parts' boxes, a manifold for each pair
//! that comes within reach, and the contact graph updated to match.

use glam::DVec3;

use crate::body::Body;
use crate::body::Material;
use crate::collision::proxy::{Proxy, Still, Touch};
use crate::collision::{Contact, NONE};
use crate::collision::{Geom, Manifold, Origin, Pose};
use crate::collision::{broad_phase, narrow_phase};
use crate::contacts::Contacts;
use crate::solver::parallel;
use crate::solver::settings::RECYCLE_TURN;

impl Contacts {
    /// Finds every manifold within reach and updates the contact graph: a pair that
    /// still touches keeps its contact (and its impulses, matched by feature id), a new
    /// pair is inserted, a pair that parted is erased. Pairs of sleeping bodies are
    /// left as they are. The stages run in order: proxies, broad phase, pairs, planes,
    /// kinematic parts, stale contacts.
    pub(crate) fn detect(&mut self, bodies: &[Body], h: f64) {
        self.state.sleep.fit(bodies.len());
        self.state.graph.reserve_bodies(bodies.len());
        self.state.stamp += 1;
        self.scratch.woken.clear();
        // Nothing awake and nothing moving: every stage would find nothing new and keep
        // every contact, so none runs (a sleeping world costs nothing), and the threads
        // are not woken for it (waking them took 30 µs a step of the asleep heap).
        if self.at_rest() && self.state.kinematic.iter().all(|k| !k.moves()) {
            self.state.stats.pairs = 0;
            self.state.stats.recycled = 0;
            self.state.stats.made = 0;
            return;
        }
        let (work, teams) = (self.awake_work(bodies.len()), self.scratch.teams);
        let mut team = teams.detect;
        team.run((work, teams.timed), || {
            self.update_proxies(bodies, h);
            self.broad_phase();
            self.collide_pairs(bodies);
            let mut grounded = std::mem::take(&mut self.scratch.found_buffers.touches);
            grounded.clear();
            self.collide_planes(bodies, &mut grounded);
            self.collide_kinematic(bodies, h, &mut grounded);
            for (a, b, m, material) in grounded.drain(..) {
                self.touch(a, b, m, material);
            }
            self.scratch.found_buffers.touches = grounded;
            self.erase_stale();
        });
        self.scratch.teams.detect = team;
    }

    /// Proxies: each part's proxy and its box, grown by the reach, on its own (on the
    /// stage's team when there are many), in body order; and the awake ones' list. A
    /// body asleep now whose state is, bit for bit, the one at rest its proxies were
    /// made from (see [`Still`]) keeps its proxies and boxes where they lie: made again,
    /// they would come out the same.
    fn update_proxies(&mut self, bodies: &[Body], h: f64) {
        let spec = 0.5 * self.state.settings.speculative_distance;
        // A body's parts are fixed once it is in the world: the owners change only with
        // the bodies' count or which are passive.
        let kept = self.scratch.owners_of.0 == bodies.len()
            && self.scratch.owners_of.1 == self.state.passive;
        let owners: Vec<(u32, u32)> = if kept {
            std::mem::take(&mut self.scratch.owners)
        } else {
            (bodies.iter().enumerate())
                .filter(|&(i, _)| !self.is_passive(i))
                .flat_map(|(i, body)| (0..body.parts.len() as u32).map(move |k| (i as u32, k)))
                .collect()
        };
        self.scratch.proxies_made = self.state.stamp;
        let sleep = &self.state.sleep;
        let make = |k: usize| {
            let (i, part) = owners[k];
            let body = &bodies[i as usize];
            let (s, shape) = (&body.state, &body.parts[part as usize]);
            let omega = s.world_omega(&body.props).length();
            let extent = shape.radius_from_centre();
            let reach = spec + h * (s.velocity.length() + omega * extent);
            Proxy {
                body: i,
                part,
                geom: Geom::of_part(shape, s.position, s.orientation),
                reach,
                extent,
                pose: Pose::of(s),
            }
        };
        let boxed = |p: &Proxy| p.geom.aabb().expanded(DVec3::splat(p.reach));
        let mut awake = std::mem::take(&mut self.scratch.awake_proxies);
        awake.clear();
        awake.extend(
            (0..owners.len() as u32).filter(|&k| !sleep.asleep(owners[k as usize].0 as usize)),
        );
        // Made again: the awake bodies' proxies, and those of the asleep bodies not
        // still where and as their proxies were made (fallen asleep since, or moved from
        // outside without being woken). A change of the reach at rest makes every one.
        let layout = (kept || owners == self.scratch.owners)
            && self.scratch.boxes.len() == owners.len()
            && self.scratch.stills.0 == spec
            && self.scratch.stills.1.len() == bodies.len();
        let mut remade = std::mem::take(&mut self.scratch.buffers.remade);
        remade.clear();
        if layout {
            self.moved_asleep(bodies, &owners, &mut remade);
            remade.extend_from_slice(&awake);
            remade.sort_unstable();
        }
        if !layout || remade.len() == owners.len() {
            parallel::collect(owners.len(), &mut self.scratch.proxies, make);
            let proxies = &self.scratch.proxies;
            parallel::collect(proxies.len(), &mut self.scratch.boxes, |k| {
                boxed(&proxies[k])
            });
            self.state.stats.made = owners.len();
            self.scratch.stills.1.clear();
            (self.scratch.stills.1).extend(bodies.iter().map(|b| Still::of(&b.state)));
        } else {
            let mut fresh = std::mem::take(&mut self.scratch.found_buffers.proxies);
            parallel::collect(remade.len(), &mut fresh, |m| make(remade[m] as usize));
            for (&k, proxy) in remade.iter().zip(fresh.drain(..)) {
                self.scratch.boxes[k as usize] = boxed(&proxy);
                self.scratch.proxies[k as usize] = proxy;
                let i = owners[k as usize].0 as usize;
                self.scratch.stills.1[i] = Still::of(&bodies[i].state);
            }
            self.state.stats.made = remade.len();
            self.scratch.found_buffers.proxies = fresh;
        }
        self.scratch.buffers.remade = remade;
        self.scratch.stills.0 = spec;
        self.scratch.owners = owners;
        self.scratch.owners_of.0 = bodies.len();
        self.scratch.owners_of.1.clone_from(&self.state.passive);
        self.scratch.awake_proxies = awake;
    }

    /// The proxies, ascending, of the asleep bodies whose state is not the one at rest
    /// their proxies were made from: bodies that fell asleep after the detection that
    /// made them moving, and bodies moved or pushed from outside without being woken.
    ///
    /// The world's bodies are written through public fields by the scene, the lab's
    /// grab, seek and restore, the riders and tests, so no flag set by the writers could
    /// be trusted to be set by all of them: every asleep body's state is read each step.
    /// It is compared, bit for bit, with one cache line per body made when its proxies
    /// were ([`Still`]), in one pass over contiguous memory with no branch on the data
    /// but the sleep flag (comparing each proxy's pose, 208 bytes apart, field by field,
    /// took 8.5 µs a step beside the asleep 1,000-box heap).
    fn moved_asleep(&self, bodies: &[Body], owners: &[(u32, u32)], proxies: &mut Vec<u32>) {
        let each = bodies
            .iter()
            .zip(&self.scratch.stills.1)
            .zip(self.state.sleep.iter());
        let moved = (each.enumerate())
            .filter(|(_, ((body, still), sleep))| sleep.asleep && !still.holds(&body.state))
            .map(|(i, _)| i);
        for i in moved {
            // The owners are in body order: the body's proxies are found by bisection.
            let first = owners.partition_point(|o| (o.0 as usize) < i);
            let count = owners[first..]
                .iter()
                .take_while(|o| o.0 as usize == i)
                .count();
            proxies.extend(first as u32..(first + count) as u32);
        }
    }

    /// Broad phase: the pairs of proxies whose boxes overlap, of different bodies not
    /// both asleep and not jointed (jointed bodies overlap at the joint by design; once
    /// the joint breaks they collide). A few awake proxies beside many asleep ones are
    /// tried against every box instead of swept with them all.
    fn broad_phase(&mut self) {
        // Each proxy's body from the owners (8 bytes a proxy) rather than the proxies
        // themselves: the test runs for every pair, and the owners lie in a few pages.
        let (owners, sleep, joints) = (&self.scratch.owners, &self.state.sleep, &self.state.joints);
        let jointed = |a: usize, b: usize| {
            joints
                .iter()
                .filter(|j| j.holds())
                .any(|j| (j.a == a && j.b == Some(b)) || (j.a == b && j.b == Some(a)))
        };
        let keep = |i: usize, j: usize| {
            let (a, b) = (owners[i].0 as usize, owners[j].0 as usize);
            a != b && !jointed(a, b)
        };
        let awake = |i: usize| !sleep.asleep(owners[i].0 as usize);
        let awake_count = self.scratch.awake_proxies.len();
        if awake_count <= broad_phase::FEW_AWAKE && awake_count < owners.len() {
            broad_phase::pairs_of_few(
                &self.scratch.boxes,
                &self.scratch.awake_proxies,
                keep,
                &mut self.scratch.pairs,
            );
        } else {
            (self.state.broad).pairs(&self.scratch.boxes, (awake, keep), &mut self.scratch.pairs);
        }
        self.state.stats.pairs = self.scratch.pairs.len();
    }

    /// Pairs: the narrow phase, each pair on its own (on the stage's team when there are
    /// many), and the graph updated to match. A pair that had a contact last step renews
    /// it where it lies in the graph: a pair whose bodies kept their relative pose since
    /// its manifold was computed carries that manifold on (see [`Origin`]), the others
    /// collide again. Then the pairs without one collide and are inserted in the pairs'
    /// order. A settled pile's manifolds are mostly carried, and building each whole and
    /// copying it into the graph through buffers cost about 7% of its step.
    fn collide_pairs(&mut self, bodies: &[Body]) {
        self.plan_pairs(bodies);
        self.renew_contacts(bodies);
        self.insert_fresh(bodies);
    }

    /// Each pair's contact of the last step and whether its manifold is carried on, and
    /// the same seen from the contacts (for [`Self::renew_contacts`]); the pairs without
    /// a contact, in order. No two pairs share a contact: the broad phase finds each pair
    /// of parts once, and a contact is one pair's.
    fn plan_pairs(&mut self, bodies: &[Body]) {
        let (proxies, pairs, graph) = (
            &self.scratch.proxies,
            &self.scratch.pairs,
            &self.state.graph,
        );
        let limits = (
            self.state.settings.recycle_limit(),
            libm::cos(0.5 * RECYCLE_TURN),
        );
        let pose = |p: &Proxy| Pose::of(&bodies[p.body as usize].state);
        parallel::collect(pairs.len(), &mut self.scratch.pair_plans, |k| {
            let (i, j) = pairs[k];
            let (pa, pb) = (&proxies[i as usize], &proxies[j as usize]);
            let same = |c: &Contact| c.part_a == pa.part && c.part_b == pb.part;
            let Some(c) = graph.find(pa.body, pb.body, same) else {
                return (NONE, false);
            };
            let origin = graph.values()[c].origin.as_ref();
            let fits = |o: &Origin| o.fits((&pose(pa), &pose(pb)), pb.extent, limits);
            (c as u32, origin.is_some_and(fits))
        });
        self.scratch.contact_plans.clear();
        self.scratch
            .contact_plans
            .resize(self.state.graph.len(), (NONE, false));
        self.scratch.fresh.clear();
        self.state.stats.recycled = 0;
        for (k, &(c, carried)) in self.scratch.pair_plans.iter().enumerate() {
            if c == NONE {
                self.scratch.fresh.push(k as u32);
            } else {
                self.scratch.contact_plans[c as usize] = (k as u32, carried);
                self.state.stats.recycled += usize::from(carried);
            }
        }
    }

    /// The contacts of last step's pairs, each on its own (on the stage's team when there
    /// are many): carried on or collided again in place, and stamped; a pair that parted
    /// leaves its contact unstamped, for [`Self::erase_stale`].
    fn renew_contacts(&mut self, bodies: &[Body]) {
        let (proxies, pairs, plans) = (
            &self.scratch.proxies,
            &self.scratch.pairs,
            &self.scratch.contact_plans,
        );
        let stamp = self.state.stamp;
        parallel::for_each_indexed(self.state.graph.values_mut(), |c, contact| {
            let (k, carried) = plans[c];
            if k == NONE {
                return;
            }
            let (i, j) = pairs[k as usize];
            let ends = (&proxies[i as usize], &proxies[j as usize]);
            let (a, b) = (&bodies[ends.0.body as usize], &bodies[ends.1.body as usize]);
            let poses = (Pose::of(&a.state), Pose::of(&b.state));
            if let (Some(o), true) = (&contact.origin, carried) {
                o.carry_onto(&poses.0, &poses.1, &mut contact.manifold);
            } else if !collide_again(contact, ends, poses) {
                return;
            }
            let material = Material::mix(&a.material, &b.material);
            (contact.friction, contact.restitution) = (material.friction, material.restitution);
            contact.stamp = stamp;
        });
    }

    /// The pairs without a contact: the narrow phase, each on its own, then a contact
    /// for each that touches, inserted in the pairs' order (so that the graph does not
    /// depend on the threads).
    fn insert_fresh(&mut self, bodies: &[Body]) {
        let mut found = std::mem::take(&mut self.scratch.found);
        let (proxies, pairs, fresh) = (
            &self.scratch.proxies,
            &self.scratch.pairs,
            &self.scratch.fresh,
        );
        let ends = |n: usize| {
            let (i, j) = pairs[fresh[n] as usize];
            (&proxies[i as usize], &proxies[j as usize])
        };
        parallel::collect(fresh.len(), &mut found, |n| {
            let (pa, pb) = ends(n);
            narrow_phase::collide(&pa.geom, &pb.geom, pa.reach + pb.reach, None)
        });
        for (n, m) in found.iter().enumerate() {
            let Some(m) = m else { continue };
            let (pa, pb) = ends(n);
            let (a, b) = (&bodies[pa.body as usize], &bodies[pb.body as usize]);
            let origin = narrow_phase::face_of(&pa.geom, &pb.geom, m).map(|face| Origin {
                manifold: *m,
                pose_a: Pose::of(&a.state),
                pose_b: Pose::of(&b.state),
                face,
            });
            let material = Material::mix(&a.material, &b.material);
            let contact = new_contact((pa.part, pb.part, NONE), *m, material, self.state.stamp);
            self.state
                .graph
                .insert(pa.body, pb.body, Contact { origin, ..contact });
        }
        self.scratch.found = found;
    }

    /// Planes: each awake proxy against each plane that its box reaches, the same way.
    /// Adds the manifolds found to `grounded`, for the graph after the kinematic parts'.
    fn collide_planes(&mut self, bodies: &[Body], grounded: &mut Vec<Touch>) {
        let spec = 0.5 * self.state.settings.speculative_distance;
        let mut found = std::mem::take(&mut self.scratch.found);
        let (proxies, planes, boxes) = (
            &self.scratch.proxies,
            &self.state.planes,
            &self.scratch.boxes,
        );
        let awake = &self.scratch.awake_proxies;
        parallel::collect(awake.len() * planes.len(), &mut found, |k| {
            let (p, plane) = (awake[k / planes.len()] as usize, &planes[k % planes.len()]);
            let proxy = &proxies[p];
            let bb = &boxes[p];
            let lowest = DVec3::select(plane.normal.cmpge(DVec3::ZERO), bb.min, bb.max);
            if plane.height(lowest) > 0.0 {
                return None;
            }
            narrow_phase::collide_plane(&proxy.geom, plane, proxy.reach + spec)
        });
        for (k, m) in found.iter_mut().enumerate() {
            if let Some(m) = m.take() {
                let p = awake[k / planes.len()] as usize;
                let (proxy, plane) = (&proxies[p], k % planes.len());
                let material = Material::mix(
                    &bodies[proxy.body as usize].material,
                    &planes[plane].material(),
                );
                let end = (NONE, plane as u32, NONE);
                grounded.push(((proxy.body, proxy.part), end, m, material));
            }
        }
        self.scratch.found = found;
    }

    /// Kinematic parts: kinematic colliders are few (a frame's parts), so each part is
    /// tried against every proxy's box, then the narrow phase, as for the ground. A
    /// moving collider wakes what it reaches, as Box2D's kinematic bodies do (a sleeping
    /// body would let it pass through): those bodies are handed to the sleep stage.
    fn collide_kinematic(&mut self, bodies: &[Body], h: f64, out: &mut Vec<Touch>) {
        let spec = 0.5 * self.state.settings.speculative_distance;
        for (k, kin) in self.state.kinematic.iter().enumerate() {
            let moving = kin.moves();
            for (kp, part) in kin.parts.iter().enumerate() {
                let geom = Geom::of_part(part, kin.pose.position, kin.pose.orientation);
                let reach = spec + kin.reach(part, h);
                let bb = geom.aabb().expanded(DVec3::splat(reach));
                for (p, proxy) in self.scratch.proxies.iter().enumerate() {
                    let body = proxy.body as usize;
                    // A body jointed to the frame overlaps it at the joint by design.
                    let jointed = || {
                        self.state.joints.iter().any(|j| {
                            j.holds() && j.a == body && j.b.is_none() && j.frame == Some(k)
                        })
                    };
                    if !self.scratch.boxes[p].overlaps(&bb) || jointed() {
                        continue;
                    }
                    if self.state.sleep.asleep(body) && !self.scratch.woken.contains(&body) {
                        if !moving {
                            continue;
                        }
                        self.scratch.woken.push(body);
                    }
                    let same = |c: &Contact| {
                        c.part_a == proxy.part && c.part_b == kp as u32 && c.kinematic == k as u32
                    };
                    let last = (self.state.graph.find(proxy.body, NONE, same))
                        .map(|c| &self.state.graph.values()[c].manifold);
                    let margin = proxy.reach + reach;
                    if let Some(m) = narrow_phase::collide(&proxy.geom, &geom, margin, last) {
                        let material = Material::mix(&bodies[body].material, &kin.material);
                        let end = (NONE, kp as u32, k as u32);
                        out.push(((proxy.body, proxy.part), end, m, material));
                    }
                }
            }
        }
    }

    /// Stale contacts: a contact this detection did not touch is erased, unless both its
    /// ends sleep (a sleeping pair is not looked at, and keeps its contact).
    ///
    /// Only a contact with an end not asleep can be stale: where those ends are few
    /// (beside an asleep heap), their lists are walked instead of every contact. Either
    /// way the contacts are tried from the last, so they are erased in the same order.
    fn erase_stale(&mut self) {
        let (stamp, sleep) = (self.state.stamp, &self.state.sleep);
        let asleep = |b: u32| b == NONE || sleep.asleep(b as usize);
        let n = sleep.len() as u32;
        let (mut awake, mut tried) = (
            std::mem::take(&mut self.scratch.buffers.awake),
            std::mem::take(&mut self.scratch.buffers.contacts),
        );
        awake.clear();
        awake.extend((0..n).filter(|&b| !asleep(b)));
        tried.clear();
        if 4 * awake.len() < n as usize {
            tried.extend(
                (awake.iter()).flat_map(|&b| self.state.graph.contacts_of(b).map(|(c, _)| c)),
            );
            tried.sort_unstable();
            tried.dedup();
        } else {
            tried.extend(0..self.state.graph.len());
        }
        for &c in tried.iter().rev() {
            let [a, b] = self.state.graph.bodies(c);
            let keep = (asleep(a) && asleep(b)) || self.state.graph.values()[c].stamp == stamp;
            if !keep {
                self.state.graph.erase(c);
            }
        }
        (self.scratch.buffers.awake, self.scratch.buffers.contacts) = (awake, tried);
    }

    /// Records a manifold against a plane or a kinematic part, `pb` of `b` (of the
    /// kinematic collider `kin` when not `NONE`), with part `pa` of body `a`. Its normal
    /// is fixed in neither end, so it keeps no origin to be carried on from.
    fn touch(
        &mut self,
        (a, pa): (u32, u32),
        (b, pb, kin): (u32, u32, u32),
        mut m: Manifold,
        mat: Material,
    ) {
        let stamp = self.state.stamp;
        let same = |c: &Contact| c.part_a == pa && c.part_b == pb && c.kinematic == kin;
        match self.state.graph.find(a, b, same) {
            Some(c) => {
                let contact = &mut self.state.graph.values_mut()[c];
                m.warm_from(&contact.manifold);
                *contact = new_contact((pa, pb, kin), m, mat, stamp);
            }
            None => {
                self.state
                    .graph
                    .insert(a, b, new_contact((pa, pb, kin), m, mat, stamp));
            }
        }
    }
}

/// A contact between parts `pa` and `pb` (of the kinematic collider `kin`, or `NONE`)
/// with the manifold `m` of this detection's `stamp`, and no origin.
fn new_contact((pa, pb, kin): (u32, u32, u32), m: Manifold, mat: Material, stamp: u64) -> Contact {
    Contact {
        part_a: pa,
        part_b: pb,
        kinematic: kin,
        manifold: m,
        friction: mat.friction,
        restitution: mat.restitution,
        origin: None,
        stamp,
    }
}

/// Collides the pair of `ends`, now at `poses`, again into its `contact`, warm from the
/// last manifold and with the origin to carry the new one on from; whether they still
/// touch (if not, the contact is left as it was).
fn collide_again(contact: &mut Contact, (pa, pb): (&Proxy, &Proxy), poses: (Pose, Pose)) -> bool {
    let last = Some(&contact.manifold);
    let Some(mut m) = narrow_phase::collide(&pa.geom, &pb.geom, pa.reach + pb.reach, last) else {
        return false;
    };
    contact.origin = narrow_phase::face_of(&pa.geom, &pb.geom, &m).map(|face| Origin {
        manifold: m,
        pose_a: poses.0,
        pose_b: poses.1,
        face,
    });
    m.warm_from(&contact.manifold);
    contact.manifold = m;
    true
}
