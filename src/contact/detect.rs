//! The detect stage: sweep and prune over the parts' boxes, a manifold for each pair
//! that comes within reach, and the contact graph updated to match.

use glam::DVec3;

use super::settings::RECYCLE_TURN;
use super::{Contact, Contacts, Material, NONE, Proxy, Sleep, broad_phase, narrow_phase, parallel};
use super::{Geom, Manifold, Origin, Pose};
use crate::body::Body;

/// Where a manifold came from. (Passed by value once per pair and never stored: boxing
/// the origin would cost an allocation per computed manifold.)
#[allow(clippy::large_enum_variant)]
enum Source {
    /// The narrow phase, from the bodies at these poses.
    Computed(Origin),
    /// Carried on from the one its contact keeps the origin of.
    Carried,
    /// The narrow phase, against a plane or a kinematic collider, or with a normal fixed
    /// in neither body: not kept to carry on.
    Unkept,
}

/// A manifold found against the ground or a kinematic part: the body's part, the other
/// end (`NONE`, the plane's or part's index, the kinematic collider or `NONE`), the
/// manifold and the mixed material.
type Touch = ((u32, u32), (u32, u32, u32), Manifold, Material);

impl Contacts {
    /// Finds every manifold within reach and updates the contact graph: a pair that
    /// still touches keeps its contact (and its impulses, matched by feature id), a new
    /// pair is inserted, a pair that parted is erased. Pairs of sleeping bodies are
    /// left as they are. The stages run in order: proxies, broad phase, pairs, planes,
    /// kinematic parts, stale contacts.
    pub fn detect(&mut self, bodies: &[Body], h: f64) {
        self.sleep.resize(bodies.len(), Sleep::default());
        self.graph.reserve_bodies(bodies.len());
        self.stamp += 1;
        self.woken.clear();
        // Nothing awake and nothing moving: every stage would find nothing new and keep
        // every contact, so none runs (a sleeping world costs nothing), and the threads
        // are not woken for it (waking them took 30 µs a step of the asleep heap).
        if self.at_rest() && self.kinematic.iter().all(|k| !k.moves()) {
            self.stats.pairs = 0;
            self.stats.recycled = 0;
            self.stats.made = 0;
            return;
        }
        let big = parallel::worth_threads(bodies.len().max(self.graph.len()));
        parallel::on_workers(big, || {
            self.update_proxies(bodies, h);
            self.broad_phase();
            self.collide_pairs(bodies);
            let mut grounded = self.collide_planes(bodies);
            self.collide_kinematic(bodies, h, &mut grounded);
            for (a, b, m, material) in grounded {
                self.touch(a, b, (m, Source::Unkept), material);
            }
            self.erase_stale();
        });
    }

    /// Proxies: each part's proxy and its box, grown by the reach, on its own (on the
    /// stage's team when there are many), in body order; and the awake ones' list. A
    /// body asleep at the last detection too that has not moved since (same pose, no
    /// velocity, same reach) keeps its proxy and box where they lie: made again, they
    /// would come out the same.
    fn update_proxies(&mut self, bodies: &[Body], h: f64) {
        let spec = 0.5 * self.settings.speculative_distance;
        // A body's parts are fixed once it is in the world: the owners change only with
        // the bodies' count or which are passive.
        let owners: Vec<(u32, u32)> =
            if self.owners_of.0 == bodies.len() && self.owners_of.1 == self.passive {
                self.owners.clone()
            } else {
                (bodies.iter().enumerate())
                    .filter(|&(i, _)| !self.is_passive(i))
                    .flat_map(|(i, body)| (0..body.parts.len() as u32).map(move |k| (i as u32, k)))
                    .collect()
            };
        self.proxies_made = self.stamp;
        let sleep = &self.sleep;
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
        let awake: Vec<u32> = (0..owners.len() as u32)
            .filter(|&k| !sleep[owners[k as usize].0 as usize].asleep)
            .collect();
        // Made again: the awake bodies' proxies, and those of the bodies that fell asleep
        // since the last detection made them with their speed's reach.
        let mut remade = std::mem::take(&mut self.awake_proxies);
        let layout = owners == self.owners && self.boxes.len() == owners.len();
        if layout {
            // And those of asleep bodies moved from outside without being woken.
            let proxies = &self.proxies;
            let moved = (0..owners.len() as u32).filter(|&k| {
                let (i, p) = (owners[k as usize].0 as usize, &proxies[k as usize]);
                let s = &bodies[i].state;
                sleep[i].asleep
                    && !(p.pose == Pose::of(s)
                        && (s.velocity, s.angular_momentum) == (DVec3::ZERO, DVec3::ZERO)
                        && p.reach == spec)
            });
            remade.extend(moved);
            remade.extend_from_slice(&awake);
            remade.sort_unstable();
            remade.dedup();
        }
        if !layout || remade.len() == owners.len() {
            parallel::collect(owners.len(), &mut self.proxies, make);
            let proxies = &self.proxies;
            parallel::collect(proxies.len(), &mut self.boxes, |k| boxed(&proxies[k]));
            self.stats.made = owners.len();
        } else {
            let mut fresh = Vec::new();
            parallel::collect(remade.len(), &mut fresh, |m| make(remade[m] as usize));
            for (&k, proxy) in remade.iter().zip(fresh) {
                self.boxes[k as usize] = boxed(&proxy);
                self.proxies[k as usize] = proxy;
            }
            self.stats.made = remade.len();
        }
        self.owners = owners;
        self.owners_of = (bodies.len(), self.passive.clone());
        self.awake_proxies = awake;
    }

    /// Broad phase: the pairs of proxies whose boxes overlap, of different bodies not
    /// both asleep and not jointed (jointed bodies overlap at the joint by design; once
    /// the joint breaks they collide). A few awake proxies beside many asleep ones are
    /// tried against every box instead of swept with them all.
    fn broad_phase(&mut self) {
        let (proxies, sleep, joints) = (&self.proxies, &self.sleep, &self.joints);
        let jointed = |a: usize, b: usize| {
            joints
                .iter()
                .filter(|j| j.holds())
                .any(|j| (j.a == a && j.b == Some(b)) || (j.a == b && j.b == Some(a)))
        };
        let keep = |i: usize, j: usize| {
            let (a, b) = (proxies[i].body as usize, proxies[j].body as usize);
            a != b && !jointed(a, b)
        };
        let awake = |i: usize| !sleep[proxies[i].body as usize].asleep;
        let awake_count = self.awake_proxies.len();
        if awake_count <= broad_phase::FEW_AWAKE && awake_count < proxies.len() {
            broad_phase::pairs_of_few(&self.boxes, &self.awake_proxies, keep, &mut self.pairs);
        } else {
            (self.broad).pairs(&self.boxes, (awake, keep), &mut self.pairs);
        }
        self.stats.pairs = self.pairs.len();
    }

    /// Pairs: the narrow phase, each pair on its own (on rayon's threads when there are
    /// many); the graph is then updated in the pairs' order. A pair whose bodies kept
    /// their relative pose since its manifold was computed carries that manifold on
    /// instead (see [`Origin`]).
    fn collide_pairs(&mut self, bodies: &[Body]) {
        let mut found = std::mem::take(&mut self.found_pairs);
        let (proxies, pairs, graph) = (&self.proxies, &self.pairs, &self.graph);
        let limits = (self.settings.recycle_limit(), (0.5 * RECYCLE_TURN).cos());
        let pose = |p: &Proxy| Pose::of(&bodies[p.body as usize].state);
        parallel::collect(pairs.len(), &mut found, |k| {
            let (i, j) = pairs[k];
            let (pa, pb) = (&proxies[i as usize], &proxies[j as usize]);
            let same = |c: &Contact| c.part_a == pa.part && c.part_b == pb.part;
            let last = graph
                .find(pa.body, pb.body, same)
                .map(|c| &graph.values()[c]);
            let (a, b) = (pose(pa), pose(pb));
            let origin = last.and_then(|c| c.origin.as_ref());
            if let Some(o) = origin.filter(|o| o.fits((&a, &b), pb.extent, limits)) {
                return Some((o.carried(&a, &b), true));
            }
            let last = last.map(|c| &c.manifold);
            narrow_phase::collide(&pa.geom, &pb.geom, pa.reach + pb.reach, last).map(|m| (m, false))
        });
        self.stats.recycled = 0;
        for (k, found) in found.iter_mut().enumerate() {
            if let Some((m, recycled)) = found.take() {
                let (i, j) = self.pairs[k];
                let (pa, pb) = (&self.proxies[i as usize], &self.proxies[j as usize]);
                let material = Material::mix(
                    &bodies[pa.body as usize].material,
                    &bodies[pb.body as usize].material,
                );
                let origin = if recycled {
                    self.stats.recycled += 1;
                    Source::Carried
                } else {
                    match narrow_phase::face_of(&pa.geom, &pb.geom, &m) {
                        Some(face) => Source::Computed(Origin {
                            manifold: m,
                            pose_a: pose(pa),
                            pose_b: pose(pb),
                            face,
                        }),
                        None => Source::Unkept,
                    }
                };
                let (a, b) = ((pa.body, pa.part), (pb.body, pb.part, NONE));
                self.touch(a, b, (m, origin), material);
            }
        }
        self.found_pairs = found;
    }

    /// Planes: each awake proxy against each plane that its box reaches, the same way.
    /// Returns the manifolds found, for the graph after the kinematic parts'.
    fn collide_planes(&mut self, bodies: &[Body]) -> Vec<Touch> {
        let spec = 0.5 * self.settings.speculative_distance;
        let mut found = std::mem::take(&mut self.found);
        let (proxies, planes, boxes) = (&self.proxies, &self.planes, &self.boxes);
        let awake = &self.awake_proxies;
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
        let mut grounded = Vec::new();
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
        self.found = found;
        grounded
    }

    /// Kinematic parts: kinematic colliders are few (a frame's parts), so each part is
    /// tried against every proxy's box, then the narrow phase, as for the ground. A
    /// moving collider wakes what it reaches, as Box2D's kinematic bodies do (a sleeping
    /// body would let it pass through): those bodies are handed to the sleep stage.
    fn collide_kinematic(&mut self, bodies: &[Body], h: f64, out: &mut Vec<Touch>) {
        let spec = 0.5 * self.settings.speculative_distance;
        for (k, kin) in self.kinematic.iter().enumerate() {
            let moving = kin.moves();
            for (kp, part) in kin.parts.iter().enumerate() {
                let geom = Geom::of_part(part, kin.pose.position, kin.pose.orientation);
                let reach = spec + kin.reach(part, h);
                let bb = geom.aabb().expanded(DVec3::splat(reach));
                for (p, proxy) in self.proxies.iter().enumerate() {
                    let body = proxy.body as usize;
                    // A body jointed to the frame overlaps it at the joint by design.
                    let jointed = || {
                        self.joints.iter().any(|j| {
                            j.holds() && j.a == body && j.b.is_none() && j.frame == Some(k)
                        })
                    };
                    if !self.boxes[p].overlaps(&bb) || jointed() {
                        continue;
                    }
                    if self.sleep[body].asleep && !self.woken.contains(&body) {
                        if !moving {
                            continue;
                        }
                        self.woken.push(body);
                    }
                    let same = |c: &Contact| {
                        c.part_a == proxy.part && c.part_b == kp as u32 && c.kinematic == k as u32
                    };
                    let last = (self.graph.find(proxy.body, NONE, same))
                        .map(|c| &self.graph.values()[c].manifold);
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
        let (stamp, sleep) = (self.stamp, &self.sleep);
        let asleep = |b: u32| b == NONE || sleep[b as usize].asleep;
        let n = sleep.len() as u32;
        let awake: Vec<u32> = (0..n).filter(|&b| !asleep(b)).collect();
        let tried: Vec<usize> = if 4 * awake.len() < n as usize {
            let mut listed: Vec<usize> = (awake.iter())
                .flat_map(|&b| self.graph.contacts_of(b).map(|(c, _)| c))
                .collect();
            listed.sort_unstable();
            listed.dedup();
            listed
        } else {
            (0..self.graph.len()).collect()
        };
        for &c in tried.iter().rev() {
            let [a, b] = self.graph.bodies(c);
            let keep = (asleep(a) && asleep(b)) || self.graph.values()[c].stamp == stamp;
            if !keep {
                self.graph.erase(c);
            }
        }
    }

    /// Records a manifold between part `pa` of body `a` and part `pb` of `b` (of the
    /// kinematic collider `kin` when not `NONE`), and where it came from.
    fn touch(
        &mut self,
        (a, pa): (u32, u32),
        (b, pb, kin): (u32, u32, u32),
        (mut m, source): (Manifold, Source),
        mat: Material,
    ) {
        let stamp = self.stamp;
        let same = |c: &Contact| c.part_a == pa && c.part_b == pb && c.kinematic == kin;
        match self.graph.find(a, b, same) {
            Some(c) => {
                let contact = &mut self.graph.values_mut()[c];
                m.warm_from(&contact.manifold);
                contact.manifold = m;
                contact.friction = mat.friction;
                contact.restitution = mat.restitution;
                contact.stamp = stamp;
                match source {
                    Source::Computed(o) => contact.origin = Some(o),
                    Source::Carried => {}
                    Source::Unkept => contact.origin = None,
                }
            }
            None => {
                let origin = match source {
                    Source::Computed(o) => Some(o),
                    Source::Carried | Source::Unkept => None,
                };
                self.graph.insert(
                    a,
                    b,
                    Contact {
                        part_a: pa,
                        part_b: pb,
                        kinematic: kin,
                        manifold: m,
                        friction: mat.friction,
                        restitution: mat.restitution,
                        origin,
                        stamp,
                    },
                );
            }
        }
    }
}
