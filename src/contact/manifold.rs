//! Contact manifolds: up to four points sharing one normal, each with a feature id that
//! stays the same while the same features touch, so last step's impulses warm start it.

use glam::{DQuat, DVec3};

use super::solver::Pose;

/// The greatest number of points a manifold keeps: four span a face contact.
pub const MAX_POINTS: usize = 4;

/// How close (m) a new point must be to an old one of another id to take its warm start.
pub const SAME_PLACE: f64 = 0.01;

#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ContactPoint {
    /// Midway between the two surfaces, world coordinates.
    pub position: DVec3,
    /// Gap along the normal: negative when the shapes overlap, positive for a speculative
    /// point that is not touching yet.
    pub separation: f64,
    /// Which features touch (vertex, edge, face numbers), unique within the manifold.
    pub id: u32,
    /// Accumulated normal impulse of the last step (warm start).
    pub normal_impulse: f64,
}

/// A set of points between two shapes; `normal` points from the first shape to the
/// second.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Manifold {
    pub normal: DVec3,
    pub points: [ContactPoint; MAX_POINTS],
    pub len: usize,
    /// Accumulated friction impulse of the last step at the points' centroid, world
    /// vector (tangent bases may turn between steps; it is projected onto the new ones),
    /// and the twist impulse about the normal.
    pub friction_impulse: DVec3,
    pub twist_impulse: f64,
}

impl Manifold {
    pub fn new(normal: DVec3) -> Self {
        Self {
            normal,
            ..Self::default()
        }
    }

    #[inline]
    pub fn points(&self) -> &[ContactPoint] {
        &self.points[..self.len]
    }

    #[inline]
    pub fn points_mut(&mut self) -> &mut [ContactPoint] {
        &mut self.points[..self.len]
    }

    /// Adds a point if there is room; callers reduce to four before adding more.
    pub fn push(&mut self, position: DVec3, separation: f64, id: u32) {
        if self.len < MAX_POINTS {
            self.points[self.len] = ContactPoint {
                position,
                separation,
                id,
                ..ContactPoint::default()
            };
            self.len += 1;
        }
    }

    /// The same manifold seen from the other shape.
    pub fn flipped(mut self) -> Self {
        self.normal = -self.normal;
        self
    }

    /// Carries last step's impulses over to the points whose features still touch,
    /// and the manifold's friction if any point does. A point whose id is new takes the
    /// impulse of an unmatched old point within [`SAME_PLACE`] of it, as Bullet matches
    /// its cached points by distance: a clipped corner's id depends on which side plane
    /// cut it, which can change from step to step where the point does not move, and a
    /// resting box whose point lost its warm start every other step jittered.
    pub fn warm_from(&mut self, old: &Manifold) {
        let mut kept = false;
        let mut taken = [false; MAX_POINTS];
        let mut unmatched = [false; MAX_POINTS];
        for (k, p) in self.points_mut().iter_mut().enumerate() {
            match old.points().iter().position(|o| o.id == p.id) {
                Some(i) => {
                    p.normal_impulse = old.points[i].normal_impulse;
                    taken[i] = true;
                    kept = true;
                }
                None => unmatched[k] = true,
            }
        }
        for (k, p) in self.points_mut().iter_mut().enumerate() {
            if !unmatched[k] {
                continue;
            }
            let near = (0..old.len)
                .filter(|&i| !taken[i])
                .map(|i| (i, old.points[i].position.distance_squared(p.position)))
                .filter(|&(_, d2)| d2 < SAME_PLACE * SAME_PLACE)
                .min_by(|x, y| x.1.total_cmp(&y.1));
            if let Some((i, _)) = near {
                p.normal_impulse = old.points[i].normal_impulse;
                taken[i] = true;
                kept = true;
            }
        }
        if kept {
            self.friction_impulse = old.friction_impulse;
            self.twist_impulse = old.twist_impulse;
        }
    }
}

/// What a manifold between two bodies was computed from, so that it can be carried with
/// them instead of computed again (Box2D v3.2's contact recycling, Catto, `physics_world.c`).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Origin {
    /// The manifold as computed, and the two bodies' poses then.
    pub manifold: Manifold,
    pub pose_a: Pose,
    pub pose_b: Pose,
}

impl Origin {
    /// Whether the bodies, now at `a` and `b`, are still near enough to where the
    /// manifold was computed: neither has turned by more than the angle whose half has
    /// the cosine `cos_half_turn`, and the second body's pose relative to the first has
    /// moved less than `distance` at any point within `extent` of its centre. (No
    /// trigonometry: a unit quaternion's scalar part is the cosine of half its angle, its
    /// vector part's length the sine.)
    pub fn fits(
        &self,
        (a, b): (&Pose, &Pose),
        extent: f64,
        (distance, cos_half_turn): (f64, f64),
    ) -> bool {
        let within = |q: DQuat, q0: DQuat| q.dot(q0).abs() > cos_half_turn;
        if !within(a.orientation, self.pose_a.orientation)
            || !within(b.orientation, self.pose_b.orientation)
        {
            return false;
        }
        let (qa, qa0) = (a.orientation.inverse(), self.pose_a.orientation.inverse());
        let moved = (qa * (b.position - a.position)
            - qa0 * (self.pose_b.position - self.pose_a.position))
            .length();
        let turn = (qa * b.orientation) * (qa0 * self.pose_b.orientation).inverse();
        // sin θ = 2 sin(θ/2) cos(θ/2); θ is at most twice the turn allowed each body.
        let sin_turned = 2.0 * turn.xyz().length() * turn.w.abs();
        moved + extent * sin_turned < distance
    }

    /// The manifold carried with the bodies, now at `a` and `b`: each point's anchor on
    /// each body moves with that body, the separation changes by their relative motion
    /// along the normal, which turns with the second body (the ground's stays put), and
    /// the point lies midway between its anchors. The ids stay, and with them the warm
    /// starts.
    pub fn carried(&self, a: &Pose, b: &Pose) -> Manifold {
        let turn_a = a.orientation * self.pose_a.orientation.inverse();
        let turn_b = b.orientation * self.pose_b.orientation.inverse();
        let mut m = self.manifold;
        let n = (turn_b * m.normal).normalize();
        m.normal = n;
        for p in m.points_mut() {
            let on_a = a.position + turn_a * (p.position - self.pose_a.position);
            let on_b = b.position + turn_b * (p.position - self.pose_b.position);
            p.separation += n.dot(on_b - on_a);
            p.position = 0.5 * (on_a + on_b);
        }
        m
    }
}

/// Keeps at most four of `candidates` (position, separation, id): the deepest, the one
/// farthest from it, then the two that add the most area on either side of that line.
/// Four well-spread points hold a box flat; four clustered ones let it rock.
pub fn reduce(candidates: &[(DVec3, f64, u32)], normal: DVec3) -> Vec<(DVec3, f64, u32)> {
    if candidates.len() <= MAX_POINTS {
        return candidates.to_vec();
    }
    let deepest = (0..candidates.len())
        .min_by(|&i, &j| candidates[i].1.total_cmp(&candidates[j].1))
        .unwrap_or(0);
    let p0 = candidates[deepest].0;
    let far = (0..candidates.len())
        .max_by(|&i, &j| {
            let d = |k: usize| (candidates[k].0 - p0).length_squared();
            d(i).total_cmp(&d(j))
        })
        .unwrap_or(0);
    let p1 = candidates[far].0;
    let area = |k: usize| (p1 - p0).cross(candidates[k].0 - p0).dot(normal);
    let by_area = |sign: f64| {
        (0..candidates.len())
            .filter(|&k| k != deepest && k != far)
            .max_by(|&i, &j| (sign * area(i)).total_cmp(&(sign * area(j))))
    };
    let mut keep = vec![deepest, far];
    for k in [by_area(1.0), by_area(-1.0)].into_iter().flatten() {
        if !keep.contains(&k) {
            keep.push(k);
        }
    }
    keep.into_iter().map(|k| candidates[k]).collect()
}
