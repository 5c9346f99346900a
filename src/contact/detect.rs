//! The detect stage: sweep and prune over the parts' boxes, a manifold for each pair
//! that comes within reach, and the contact graph updated to match.

use glam::DVec3;

use super::{Contact, Contacts, Material, NONE, Proxy, Sleep, narrow_phase, parallel};
use super::{Geom, Manifold};
use crate::body::Body;

impl Contacts {
    /// Finds every manifold within reach and updates the contact graph: a pair that
    /// still touches keeps its contact (and its impulses, matched by feature id), a new
    /// pair is inserted, a pair that parted is erased. Pairs of sleeping bodies are
    /// left as they are.
    pub fn detect(&mut self, bodies: &[Body], h: f64) {
        let big = parallel::worth_threads(bodies.len().max(self.graph.len()));
        parallel::on_workers(big, || self.detect_pairs(bodies, h));
    }

    fn detect_pairs(&mut self, bodies: &[Body], h: f64) {
        let spec = 0.5 * self.settings.speculative_distance;
        self.sleep.resize(bodies.len(), Sleep::default());
        self.graph.reserve_bodies(bodies.len());
        // Each part's proxy and box on its own (on the stage's team when there are many),
        // in body order.
        let owners: Vec<(u32, u32)> = bodies
            .iter()
            .enumerate()
            .filter(|&(i, _)| !self.is_passive(i))
            .flat_map(|(i, body)| (0..body.parts.len() as u32).map(move |k| (i as u32, k)))
            .collect();
        parallel::collect(owners.len(), &mut self.proxies, |k| {
            let (i, part) = owners[k];
            let body = &bodies[i as usize];
            let (s, shape) = (&body.state, &body.parts[part as usize]);
            let omega = s.world_omega(&body.props).length();
            let reach = spec + h * (s.velocity.length() + omega * shape.radius_from_centre());
            Proxy {
                body: i,
                part,
                geom: Geom::of_part(shape, s.position, s.orientation),
                reach,
            }
        });
        let proxies = &self.proxies;
        parallel::collect(proxies.len(), &mut self.boxes, |k| {
            let p = &proxies[k];
            p.geom.aabb().expanded(DVec3::splat(p.reach))
        });
        let mut pairs = std::mem::take(&mut self.pairs);
        {
            let (proxies, sleep, joints) = (&self.proxies, &self.sleep, &self.joints);
            // Jointed bodies overlap at the joint by design: they do not collide.
            let jointed = |a: usize, b: usize| {
                joints
                    .iter()
                    .any(|j| (j.a == a && j.b == Some(b)) || (j.a == b && j.b == Some(a)))
            };
            self.broad.pairs(
                &self.boxes,
                |i, j| {
                    let (a, b) = (proxies[i].body as usize, proxies[j].body as usize);
                    a != b && !(sleep[a].asleep && sleep[b].asleep) && !jointed(a, b)
                },
                &mut pairs,
            );
        }
        self.stamp += 1;
        // The narrow phase, each pair on its own (on rayon's threads when there are
        // many); the graph is then updated in the pairs' order.
        let mut found = std::mem::take(&mut self.found);
        {
            let proxies = &self.proxies;
            parallel::collect(pairs.len(), &mut found, |k| {
                let (i, j) = pairs[k];
                let (pa, pb) = (&proxies[i as usize], &proxies[j as usize]);
                narrow_phase::collide(&pa.geom, &pb.geom, pa.reach + pb.reach)
            });
        }
        for (&(i, j), m) in pairs.iter().zip(&mut found) {
            if let Some(m) = m.take() {
                let (pa, pb) = (&self.proxies[i as usize], &self.proxies[j as usize]);
                let material = Material::mix(
                    &bodies[pa.body as usize].material,
                    &bodies[pb.body as usize].material,
                );
                self.touch((pa.body, pa.part), (pb.body, pb.part, NONE), m, material);
            }
        }
        // Each proxy against each plane, the same way.
        {
            let (proxies, planes, boxes, sleep) =
                (&self.proxies, &self.planes, &self.boxes, &self.sleep);
            parallel::collect(proxies.len() * planes.len(), &mut found, |k| {
                let (p, plane) = (k / planes.len(), &planes[k % planes.len()]);
                let proxy = &proxies[p];
                let bb = &boxes[p];
                let lowest = DVec3::select(plane.normal.cmpge(DVec3::ZERO), bb.min, bb.max);
                if sleep[proxy.body as usize].asleep || plane.height(lowest) > 0.0 {
                    return None;
                }
                narrow_phase::collide_plane(&proxy.geom, plane, proxy.reach + spec)
            });
        }
        let mut grounded = Vec::new();
        for (k, m) in found.iter_mut().enumerate() {
            if let Some(m) = m.take() {
                let (proxy, plane) = (&self.proxies[k / self.planes.len()], k % self.planes.len());
                let material = Material::mix(
                    &bodies[proxy.body as usize].material,
                    &self.planes[plane].material(),
                );
                grounded.push((
                    (proxy.body, proxy.part),
                    (NONE, plane as u32, NONE),
                    m,
                    material,
                ));
            }
        }
        self.found = found;
        // Kinematic colliders are few (a frame's parts): each part against every proxy's
        // box, then the narrow phase, as for the ground.
        for (k, kin) in self.kinematic.iter().enumerate() {
            let moving = kin.velocity != DVec3::ZERO || kin.angular_velocity != DVec3::ZERO;
            for (kp, part) in kin.parts.iter().enumerate() {
                let geom = Geom::of_part(part, kin.pose.position, kin.pose.orientation);
                let reach = spec + kin.reach(part, h);
                let bb = geom.aabb().expanded(DVec3::splat(reach));
                for (p, proxy) in self.proxies.iter().enumerate() {
                    let body = proxy.body as usize;
                    // A body jointed to the frame overlaps it at the joint by design.
                    let jointed = || {
                        self.joints
                            .iter()
                            .any(|j| j.a == body && j.b.is_none() && j.frame == Some(k))
                    };
                    if !self.boxes[p].overlaps(&bb) || jointed() {
                        continue;
                    }
                    // A moving collider wakes what it reaches, as Box2D's kinematic
                    // bodies do: a sleeping body would let it pass through.
                    if self.sleep[body].asleep {
                        if !moving {
                            continue;
                        }
                        self.sleep[body] = Sleep::default();
                    }
                    if let Some(m) = narrow_phase::collide(&proxy.geom, &geom, proxy.reach + reach)
                    {
                        let material = Material::mix(&bodies[body].material, &kin.material);
                        let end = (NONE, kp as u32, k as u32);
                        grounded.push(((proxy.body, proxy.part), end, m, material));
                    }
                }
            }
        }
        for (a, b, m, material) in grounded {
            self.touch(a, b, m, material);
        }
        self.stats.pairs = pairs.len();
        self.pairs = pairs;
        let (stamp, sleep) = (self.stamp, &self.sleep);
        let asleep = |b: u32| b == NONE || sleep[b as usize].asleep;
        for c in (0..self.graph.len()).rev() {
            let [a, b] = self.graph.bodies(c);
            let keep = self.graph.values()[c].stamp == stamp || (asleep(a) && asleep(b));
            if !keep {
                self.graph.erase(c);
            }
        }
    }

    /// Records a manifold between part `pa` of body `a` and part `pb` of `b` (of the
    /// kinematic collider `kin` when not `NONE`).
    fn touch(
        &mut self,
        (a, pa): (u32, u32),
        (b, pb, kin): (u32, u32, u32),
        mut m: Manifold,
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
            }
            None => {
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
                        stamp,
                    },
                );
            }
        }
    }
}
