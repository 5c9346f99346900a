//! Contact manifolds: up to four points sharing one normal, each with a feature id that
//! stays the same while the same features touch, so last step's impulses warm start it.

use arrayvec::ArrayVec;
use glam::{DQuat, DVec3};

use crate::collision::pose::Pose;

/// The greatest number of points a manifold keeps: four span a face contact.
pub const MAX_POINTS: usize = 4;

/// A candidate point of a manifold: position, separation, feature id.
pub type Candidate = (DVec3, f64, u32);

/// The most candidates a pair offers: a box's eight corners on a plane, or a face clipped
/// by four side planes (four corners and one more per plane); room for twice that, since
/// rounding may make a nearly straight corner cross a plane twice.
pub const MAX_CANDIDATES: usize = 16;

/// A pair's candidate points, on the stack.
pub type Candidates = ArrayVec<Candidate, MAX_CANDIDATES>;

/// The points a manifold keeps, on the stack.
pub type Reduced = ArrayVec<Candidate, MAX_POINTS>;

/// How close (m) a new point must be to an old one of another id to take its warm start.
pub const SAME_PLACE: f64 = 0.01;

/// One point of a manifold.
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
    /// The normal (unit), from the first shape to the second.
    pub normal: DVec3,
    /// The points; only the first `len` are in use.
    pub points: [ContactPoint; MAX_POINTS],
    /// How many points are in use.
    pub len: usize,
    /// Accumulated friction impulse of the last step at the points' centroid, world
    /// vector (tangent bases may turn between steps; it is projected onto the new ones),
    /// and the twist impulse about the normal.
    pub friction_impulse: DVec3,
    /// The accumulated twist impulse about the normal of the last step.
    pub twist_impulse: f64,
}

impl Manifold {
    /// An empty manifold with normal `normal`.
    pub fn new(normal: DVec3) -> Self {
        Self {
            normal,
            ..Self::default()
        }
    }

    /// The points in use.
    #[inline]
    pub fn points(&self) -> &[ContactPoint] {
        &self.points[..self.len]
    }

    /// The points in use, to change in place.
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
    /// impulse of an unmatched old point within `SAME_PLACE` of it, as Bullet matches
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

/// Which of a pair's two bodies a manifold's normal is fixed in: the body whose face the
/// manifold was made on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Side {
    First,
    Second,
}

/// What a manifold between two bodies was computed from, so that it can be carried with
/// them instead of computed again (Box2D v3.2's contact recycling, Catto, `physics_world.c`).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Origin {
    /// The manifold as computed, and the two bodies' poses then.
    pub manifold: Manifold,
    /// The first body's pose then.
    pub pose_a: Pose,
    /// The second body's pose then.
    pub pose_b: Pose,
    /// The body whose face the normal is: it turns with that body.
    pub face: Side,
}

impl Origin {
    /// Whether the bodies, now at `a` and `b`, are still near enough to where the
    /// manifold was computed: neither has turned by more than the angle whose half has
    /// the cosine `cos_half_turn`, and no point of the second body within `extent` of its
    /// centre has moved `distance` relative to the first. (No trigonometry: a unit
    /// quaternion's scalar part is the cosine of half its angle, and a turn by θ moves a
    /// point at r by the chord 2r·sin(θ/2), r times twice its vector part's length.)
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
        moved + extent * 2.0 * turn.xyz().length() < distance
    }

    /// The manifold carried with the bodies, now at `a` and `b`: each point's anchor on
    /// each body moves with that body, the normal turns with the body whose face it is,
    /// the separation changes by the anchors' relative motion along it, and the point lies
    /// midway between its anchors. The ids stay, and with them the warm starts.
    pub fn carried(&self, a: &Pose, b: &Pose) -> Manifold {
        let mut m = self.manifold;
        self.move_points(a, b, &mut m);
        m
    }

    /// Makes `m`, the pair's manifold of the last step, what [`Self::carried`] warmed from
    /// it would be, in place where it can: a pile's contacts are mostly carried, and
    /// building each one whole and copying it over its predecessor cost a tenth of a
    /// settled step. Where `m` has this origin's points (the same ids, each once, in the
    /// same order, as a manifold carried from it has) every point keeps its own warm start
    /// and only the geometry changes; otherwise the manifold is carried and warmed whole.
    pub fn carry_onto(&self, a: &Pose, b: &Pose, m: &mut Manifold) {
        let (own, len) = (&self.manifold.points, self.manifold.len);
        let ids = |k: usize| own[k].id;
        let same = len > 0
            && m.len == len
            && (0..len).all(|k| m.points[k].id == ids(k) && (0..k).all(|j| ids(j) != ids(k)));
        if !same {
            let mut carried = self.carried(a, b);
            carried.warm_from(m);
            *m = carried;
            return;
        }
        // The points past the manifold's length are the origin's in a carried one too.
        m.points[len..].copy_from_slice(&own[len..]);
        self.move_points(a, b, m);
    }

    /// The geometry of [`Self::carried`]: `m`'s normal and its points' places and
    /// separations, from this origin's, with the bodies now at `a` and `b`.
    fn move_points(&self, a: &Pose, b: &Pose, m: &mut Manifold) {
        let turn_a = a.orientation * self.pose_a.orientation.inverse();
        let turn_b = b.orientation * self.pose_b.orientation.inverse();
        let face_turn = match self.face {
            Side::First => turn_a,
            Side::Second => turn_b,
        };
        let n = (face_turn * self.manifold.normal).normalize();
        m.normal = n;
        for (p, o) in m.points_mut().iter_mut().zip(self.manifold.points()) {
            let on_a = a.position + turn_a * (o.position - self.pose_a.position);
            let on_b = b.position + turn_b * (o.position - self.pose_b.position);
            p.separation = o.separation + n.dot(on_b - on_a);
            p.position = 0.5 * (on_a + on_b);
        }
    }
}

/// How much shallower (m) than the deepest candidate a point of the pair's last manifold
/// may be, and what share of the best spread (distance, then area) it may give up, and
/// still be kept in that place of the reduction. Two boxes of one size resting face on
/// face at a small tilt clip to eight candidates of which two tie for deepest within a
/// fraction of a millimetre; picking them in turn changed all four points every few
/// steps, moving the support under the box, which rocked on for good (a 600-box heap that
/// never slept). Keeping last step's picks unless another is clearly better is the
/// temporal coherence of Gregorius, "Robust Contact Creation for Physics Simulations"
/// (GDC 2015), as Bullet's persistent manifold keeps its points.
const KEEP_DEPTH: f64 = 1e-3;
const KEEP_SHARE: f64 = 0.9;

/// Keeps at most four of `candidates` (position, separation, id). If one to four of them
/// touch (separation ≤ 0), those, then the clear ones that spread them most
/// ([`spread_from`]): the touching points are the support, and picked by depth and
/// spread, one beside the deepest was dropped, the box sank there until it was the
/// deepest, and rocked so for good (a 1,500-box heap). Otherwise the deepest, the one
/// farthest from it, then the two that add the most area on either side of that line.
/// Each choice goes to a point of `last` (the pair's manifold of the last step) within
/// [`KEEP_DEPTH`] or [`KEEP_SHARE`] of the best. Four well-spread points hold a box flat;
/// four clustered ones let it rock.
pub fn reduce(candidates: &[Candidate], normal: DVec3, last: &[ContactPoint]) -> Reduced {
    if candidates.len() <= MAX_POINTS {
        return candidates.iter().copied().collect();
    }
    let all = 0..candidates.len();
    let before = |k: usize| last.iter().any(|p| p.id == candidates[k].2);
    let is_touching = |k: &usize| candidates[*k].1 <= 0.0;
    let touching = all.clone().filter(is_touching).count();
    if (1..=MAX_POINTS).contains(&touching) {
        let keep = all.clone().filter(is_touching).collect();
        let keep = spread_from(keep, candidates, normal, before);
        return keep.into_iter().map(|k| candidates[k]).collect();
    }
    let deepest = pick(
        all.clone(),
        |k| -candidates[k].1,
        |top| top - KEEP_DEPTH,
        before,
    );
    let deepest = deepest.unwrap_or(0);
    let p0 = candidates[deepest].0;
    let far = pick(
        all.clone(),
        |k| (candidates[k].0 - p0).length(),
        spread,
        before,
    );
    let far = far.unwrap_or(0);
    let p1 = candidates[far].0;
    let area = |k: usize| (p1 - p0).cross(candidates[k].0 - p0).dot(normal);
    let mut keep: ArrayVec<usize, MAX_POINTS> = ArrayVec::new();
    keep.push(deepest);
    keep.push(far);
    for sign in [1.0, -1.0] {
        let others = all.clone().filter(|&k| k != deepest && k != far);
        if let Some(k) = pick(others, |k| sign * area(k), spread, before)
            && !keep.contains(&k)
        {
            keep.push(k);
        }
    }
    keep.into_iter().map(|k| candidates[k]).collect()
}

/// `keep` (the touching points), then, while there is room, the candidate farthest from
/// a lone kept point, or adding the most area to the kept ones, each pick going to a
/// point that was `before` within [`KEEP_SHARE`] of the best.
fn spread_from(
    mut keep: ArrayVec<usize, MAX_POINTS>,
    candidates: &[Candidate],
    normal: DVec3,
    before: impl Fn(usize) -> bool + Copy,
) -> ArrayVec<usize, MAX_POINTS> {
    let at = |k: usize| candidates[k].0;
    while keep.len() < MAX_POINTS {
        let kept: ArrayVec<DVec3, MAX_POINTS> = keep.iter().map(|&i| at(i)).collect();
        let base = if keep.len() >= 3 {
            hull_area(&kept, normal)
        } else {
            0.0
        };
        // What a point adds: the floor is a share of the most any adds, so that a point
        // of the last manifold that adds nothing is not kept over one that does.
        let gain = |k: usize| {
            let mut with = kept.clone();
            with.push(at(k));
            match with.len() {
                2 => (with[1] - with[0]).length(),
                _ => hull_area(&with, normal) - base,
            }
        };
        let rest = (0..candidates.len()).filter(|&k| !keep.contains(&k) && gain(k) > 0.0);
        match pick(rest, gain, spread, before) {
            Some(k) => keep.push(k),
            None => break,
        }
    }
    keep
}

/// The area of the convex hull of three or four points, seen along `normal`: of four,
/// half the sum of the four triangles' areas (twice the hull's whether one point lies
/// inside the others' triangle or not).
fn hull_area(points: &[DVec3], normal: DVec3) -> f64 {
    let triangle = |a: DVec3, b: DVec3, c: DVec3| 0.5 * (b - a).cross(c - a).dot(normal).abs();
    match *points {
        [a, b, c] => triangle(a, b, c),
        [a, b, c, d] => {
            let sum = triangle(a, b, c) + triangle(a, b, d) + triangle(a, c, d) + triangle(b, c, d);
            0.5 * sum
        }
        _ => 0.0,
    }
}

/// The least spread (distance or area) a point of the last manifold may keep its place
/// with: [`KEEP_SHARE`] of the best.
fn spread(best: f64) -> f64 {
    best - (1.0 - KEEP_SHARE) * best.abs()
}

/// The best of `pool` by `score`, or the best of those that were `before` if one scores
/// at least `floor` of the best score.
fn pick(
    pool: impl Iterator<Item = usize> + Clone,
    score: impl Fn(usize) -> f64,
    floor: impl Fn(f64) -> f64,
    before: impl Fn(usize) -> bool,
) -> Option<usize> {
    let by_score = |i: &usize, j: &usize| score(*i).total_cmp(&score(*j));
    let best = pool.clone().max_by(by_score)?;
    let floor = floor(score(best));
    let kept = pool
        .filter(|&k| before(k) && score(k) >= floor)
        .max_by(by_score);
    Some(kept.unwrap_or(best))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collision::box_box::{box_box, face_of};
    use crate::collision::geometry::Geom;
    use glam::DMat3;

    fn pose(position: DVec3, orientation: DQuat) -> Pose {
        Pose {
            position,
            orientation,
        }
    }

    fn block(p: &Pose, half: DVec3) -> Geom {
        Geom::Box {
            center: p.position,
            axes: DMat3::from_quat(p.orientation),
            half,
        }
    }

    const BASE: DVec3 = DVec3::new(2.0, 0.5, 2.0);
    const CUBE: DVec3 = DVec3::splat(0.5);

    /// A cube on a wide base, tipped 5° onto one edge (two corners touch, 1 mm deep);
    /// `base_first` says which of the two is the pair's first body.
    fn on_edge(base: Pose, cube: Pose, base_first: bool) -> Option<Manifold> {
        let (b, c) = (block(&base, BASE), block(&cube, CUBE));
        if base_first {
            box_box(&b, &c, 0.02, None)
        } else {
            box_box(&c, &b, 0.02, None)
        }
    }

    /// The cube slides 3 mm and the base tilts 0.3°: the carried manifold has the normal
    /// of one computed afresh (it turns with the base, whose face it is, whichever body is
    /// first), its separations to the tilt's second order, and its points within half
    /// the slide (its anchors stay on both bodies).
    #[test]
    fn a_carried_manifold_is_the_one_computed_afresh() {
        let tip = 5f64.to_radians();
        let depth = 0.5 + 0.5 * tip.cos() + 0.5 * tip.sin() - 1e-3;
        let base0 = pose(DVec3::ZERO, DQuat::IDENTITY);
        let cube0 = pose(DVec3::new(0.3, depth, 0.2), DQuat::from_rotation_z(tip));
        let base1 = pose(DVec3::ZERO, DQuat::from_rotation_x(0.3f64.to_radians()));
        let cube1 = pose(
            cube0.position + DVec3::new(3e-3, 0.0, 0.0),
            cube0.orientation,
        );
        for base_first in [true, false] {
            let computed = on_edge(base0, cube0, base_first).unwrap();
            let face = face_of(&computed).unwrap();
            assert_eq!(
                face == Side::First,
                base_first,
                "the base's face is the reference"
            );
            let (poses0, poses1) = if base_first {
                ((base0, cube0), (base1, cube1))
            } else {
                ((cube0, base0), (cube1, base1))
            };
            let origin = Origin {
                manifold: computed,
                pose_a: poses0.0,
                pose_b: poses0.1,
                face,
            };
            let carried = origin.carried(&poses1.0, &poses1.1);
            let fresh = on_edge(base1, cube1, base_first).unwrap();
            assert_eq!(fresh.len, 2);
            assert!(
                carried.normal.distance(fresh.normal) < 1e-12,
                "{base_first}"
            );
            for p in fresh.points() {
                let q = carried.points().iter().find(|q| q.id == p.id).unwrap();
                assert!((q.separation - p.separation).abs() < 1e-7, "{base_first}");
                let moved = 3e-3 + p.position.length() * 0.3f64.to_radians();
                assert!(q.position.distance(p.position) < moved, "{base_first}");
            }
        }
    }

    /// Carrying onto last step's manifold in place gives, bit for bit, the manifold
    /// carried whole and warmed from it: when last step's has the origin's points (warm
    /// starts and friction kept), and when it does not (a point with another id, or one
    /// fewer point), where the whole manifold is carried and warmed.
    #[test]
    fn carrying_in_place_is_carrying_whole_and_warming() {
        let tip = 5f64.to_radians();
        let depth = 0.5 + 0.5 * tip.cos() + 0.5 * tip.sin() - 1e-3;
        let base = pose(DVec3::ZERO, DQuat::IDENTITY);
        let cube = pose(DVec3::new(0.3, depth, 0.2), DQuat::from_rotation_z(tip));
        let computed = on_edge(base, cube, true).unwrap();
        let origin = Origin {
            manifold: computed,
            pose_a: base,
            pose_b: cube,
            face: face_of(&computed).unwrap(),
        };
        let (a, b) = (
            turned(base, 2e-3),
            pose(cube.position + DVec3::X * 1e-3, cube.orientation),
        );
        let mut last = origin.carried(&base, &cube);
        for (k, p) in last.points_mut().iter_mut().enumerate() {
            p.normal_impulse = 0.25 + k as f64;
        }
        (last.friction_impulse, last.twist_impulse) = (DVec3::new(0.1, -0.2, 0.3), 0.05);
        let mut other_id = last;
        other_id.points[1].id ^= 1 << 12;
        let mut fewer = last;
        fewer.len -= 1;
        for old in [last, other_id, fewer] {
            let mut whole = origin.carried(&a, &b);
            whole.warm_from(&old);
            let mut in_place = old;
            origin.carry_onto(&a, &b, &mut in_place);
            assert_eq!(format!("{whole:?}"), format!("{in_place:?}"));
            assert!(in_place.points().iter().any(|p| p.normal_impulse > 0.0));
        }
    }

    /// A pose that a turn of `angle` about z takes `p` to.
    fn turned(p: Pose, angle: f64) -> Pose {
        pose(p.position, DQuat::from_rotation_z(angle) * p.orientation)
    }

    /// Neither body may turn by more than the limit; within it, the second body's turn
    /// moves its farthest point by the chord 2r·sin(θ/2), which must stay within the
    /// distance.
    #[test]
    fn a_pose_fits_while_turns_and_chords_stay_within_limits() {
        let a = pose(DVec3::ZERO, DQuat::IDENTITY);
        let b = pose(DVec3::Y, DQuat::from_rotation_y(0.4));
        let origin = Origin {
            manifold: Manifold::new(DVec3::Y),
            pose_a: a,
            pose_b: b,
            face: Side::First,
        };
        let limit = (0.2f64 * 0.5).cos();
        let far = (1e3, limit);
        assert!(origin.fits((&a, &turned(b, 0.19)), 0.0, far));
        assert!(!origin.fits((&a, &turned(b, 0.21)), 0.0, far));
        assert!(!origin.fits((&turned(a, -0.21), &b), 0.0, far));
        let (r, angle): (f64, f64) = (0.7, 0.05);
        let chord = 2.0 * r * (0.5 * angle).sin();
        let b1 = turned(b, angle);
        assert!(origin.fits((&a, &b1), r, (1.01 * chord, limit)));
        assert!(!origin.fits((&a, &b1), r, (0.99 * chord, limit)));
    }

    /// A point whose id changed keeps the warm start of the old point it sits on, not
    /// of one farther than `SAME_PLACE`.
    #[test]
    fn a_renamed_point_in_the_same_place_keeps_its_warm_start() {
        let mut old = Manifold::new(DVec3::Y);
        old.push(DVec3::ZERO, -1e-3, 5);
        old.points[0].normal_impulse = 3.0;
        old.friction_impulse = DVec3::X;
        let renamed = |at: DVec3| {
            let mut m = Manifold::new(DVec3::Y);
            m.push(at, -1e-3, 9);
            m.warm_from(&old);
            m
        };
        let near = renamed(DVec3::new(0.4 * SAME_PLACE, 0.0, 0.0));
        assert_eq!(near.points[0].normal_impulse, 3.0);
        assert_eq!(near.friction_impulse, DVec3::X);
        let far = renamed(DVec3::new(1.5 * SAME_PLACE, 0.0, 0.0));
        assert_eq!(far.points[0].normal_impulse, 0.0);
        assert_eq!(far.friction_impulse, DVec3::ZERO);
    }

    /// Eight candidates round a face tilted toward a direction that wobbles between two
    /// of them, which take turns as the deepest by 0.05 mm. Reduced afresh, the four kept
    /// points change every step; reduced against the last step's, they stay. A point of
    /// the last manifold 2 mm shallower than the deepest gives way to it.
    #[test]
    fn the_reduction_keeps_last_steps_points_where_candidates_tie() {
        let ring = |wobble: f64, depth: [f64; 8]| -> Vec<(DVec3, f64, u32)> {
            let toward = (22.5 + wobble).to_radians();
            (0..8u32)
                .map(|k| {
                    let at = (45.0 * k as f64).to_radians();
                    // All eight touch (3-5 mm deep), so the four are picked among them.
                    let tilt = -3e-3 - 2e-3 * (at - toward).cos();
                    let extra = depth[k as usize];
                    let p = 0.25 * DVec3::new(at.cos(), 0.0, at.sin());
                    (p, tilt + extra, k)
                })
                .collect()
        };
        let ids = |kept: &[(DVec3, f64, u32)]| {
            let mut ids: Vec<u32> = kept.iter().map(|c| c.2).collect();
            ids.sort();
            ids
        };
        let as_points = |kept: &[(DVec3, f64, u32)]| -> Vec<ContactPoint> {
            kept.iter()
                .map(|&(position, separation, id)| ContactPoint {
                    position,
                    separation,
                    id,
                    normal_impulse: 0.0,
                })
                .collect()
        };
        let mut fresh_sets = Vec::new();
        let mut last = as_points(&reduce(&ring(2.0, [0.0; 8]), DVec3::Y, &[]));
        let first = ids(&reduce(&ring(2.0, [0.0; 8]), DVec3::Y, &[]));
        for step in 0..10 {
            let wobble = if step % 2 == 0 { 2.0 } else { -2.0 };
            let candidates = ring(wobble, [0.0; 8]);
            fresh_sets.push(ids(&reduce(&candidates, DVec3::Y, &[])));
            let kept = reduce(&candidates, DVec3::Y, &last);
            assert_eq!(ids(&kept), first, "step {step}");
            last = as_points(&kept);
        }
        assert!(
            fresh_sets.iter().any(|s| *s != first),
            "the candidates must tie for the test to mean anything"
        );
        // A point the last manifold did not keep, made 2 mm deeper than any, comes first;
        // made 0.5 mm deeper, it does not.
        let out = (0..8u32).find(|k| !first.contains(k)).unwrap();
        let deepened = |by: f64| {
            let mut depth = [0.0; 8];
            let deepest = ring(2.0, depth)
                .iter()
                .map(|c| c.1)
                .fold(f64::MAX, f64::min);
            depth[out as usize] = deepest - ring(2.0, depth)[out as usize].1 - by;
            reduce(&ring(2.0, depth), DVec3::Y, &last)[0].2
        };
        assert_eq!(deepened(2e-3), out, "the clearly deepest point comes first");
        assert_ne!(
            deepened(0.5e-3),
            out,
            "a point barely deeper does not displace"
        );
    }

    /// A box resting on three points of eight candidates (two of them 5 cm apart, the
    /// deepest 1.6 mm in), the other five a few millimetres clear: all three touching
    /// points are kept, and the fourth is the clear one that spreads them most. Picked
    /// deepest-first, farthest and by area, the touching point beside the deepest added
    /// little area and was dropped: the box sank there until it was the deepest, and
    /// rocked so for good (a 1,500-box heap).
    #[test]
    fn the_reduction_keeps_every_touching_point() {
        let candidates = [
            (DVec3::new(0.0, 0.0, 0.0), -1.5e-3, 1),
            (DVec3::new(0.05, 0.0, 0.0), -1.6e-3, 2),
            (DVec3::new(0.45, 0.0, 0.45), -0.6e-3, 3),
            (DVec3::new(-0.25, 0.0, 0.25), 3e-3, 4),
            (DVec3::new(0.25, 0.0, -0.25), 4e-3, 5),
            (DVec3::new(0.5, 0.0, -0.2), 5e-3, 6),
            (DVec3::new(-0.3, 0.0, -0.3), 8e-3, 7),
            (DVec3::new(0.1, 0.0, 0.5), 6e-3, 8),
        ];
        let kept: Vec<u32> = reduce(&candidates, DVec3::Y, &[])
            .iter()
            .map(|c| c.2)
            .collect();
        assert_eq!(kept.len(), MAX_POINTS);
        for id in [1, 2, 3] {
            assert!(kept.contains(&id), "touching point {id} dropped: {kept:?}");
        }
        // Of the clear ones, the one that adds the most area to the three touching.
        let area = |k: usize| {
            let p: Vec<DVec3> = [0, 1, 2, k].iter().map(|&i| candidates[i].0).collect();
            hull_area(&p, DVec3::Y)
        };
        let best = (3..8).max_by(|&i, &j| area(i).total_cmp(&area(j))).unwrap();
        assert_eq!(kept[3], candidates[best].2);
    }
}
