//! The convergence maps of the implicit midpoint step [Mizerski 2020]: Newton's
//! iterations (or the simple iterator's, the article's other figure) needed for each
//! angular momentum on a grid in the body xy-plane, with the time step folded into `L`,
//! and the safe radius up to which one step is solved without sub-steps. That radius is the Kantorovich bound for Newton started at zero
//! [Kantorovich]; the step starts Newton from a predictor, so inside it convergence is
//! measured (tests), not proved. The app computes the map in the background and draws it
//! as an image.

use glam::DVec3;

use crate::integrators::{ImplicitRule, Midpoint, fixed_point_solve, newton_solve};

/// How the midpoint equation is solved for the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// Newton's iteration from the predictor, as the step solves it.
    Newton,
    /// The simple iterator `v ← I⁻¹ R(−v/2) k` from zero [Mizerski 2020].
    FixedPoint,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ConvergenceMap {
    /// Pixels per side; row-major, row 0 at `L_y = −extent`.
    pub size: usize,
    /// Half the side of the square of `h·L` values, centred on zero.
    pub extent: f64,
    /// Newton iterations per pixel, `None` where Newton did not converge.
    pub iterations: Vec<Option<u32>>,
    /// `|h·L|` up to which the midpoint step takes no sub-steps: see [`safe_radius`].
    pub safe_radius: f64,
}

impl ConvergenceMap {
    pub fn compute(inertia: DVec3, extent: f64, size: usize, method: Method) -> Self {
        let mut map = Self {
            size,
            extent,
            iterations: Vec::new(),
            safe_radius: safe_radius(inertia),
        };
        let inv = inertia.recip();
        let iterations = (0..size * size)
            .map(|p| {
                let k = map.momentum(p % size, p / size);
                let solved = match method {
                    Method::Newton => newton_solve::<Midpoint>(inertia, inv, k),
                    Method::FixedPoint => fixed_point_solve::<Midpoint>(inertia, inv, k),
                };
                solved.map(|(_, it)| it)
            })
            .collect();
        map.iterations = iterations;
        map
    }

    /// `h·L` at the centre of pixel `(x, y)`.
    pub fn momentum(&self, x: usize, y: usize) -> DVec3 {
        let coord =
            |i: usize| -self.extent + 2.0 * self.extent * (i as f64 + 0.5) / self.size as f64;
        DVec3::new(coord(x), coord(y), 0.0)
    }
}

/// `|h·L|` up to which the midpoint step takes no sub-steps, `√2·I_min`: the Kantorovich
/// bound for Newton from zero; for Newton from the predictor, as run, a measured one.
pub fn safe_radius(inertia: DVec3) -> f64 {
    Midpoint::SAFE_STEP * inertia.min_element()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newton_converges_everywhere_inside_the_safe_radius() {
        // A body and range where the map shows both: I = (2.5, 1.4, 1.3), L in (−15, 15)².
        let map = ConvergenceMap::compute(DVec3::new(2.5, 1.4, 1.3), 15.0, 96, Method::Newton);
        let mut inside = 0;
        for y in 0..map.size {
            for x in 0..map.size {
                if map.momentum(x, y).length() <= map.safe_radius {
                    inside += 1;
                    assert!(map.iterations[y * map.size + x].is_some(), "pixel {x},{y}");
                }
            }
        }
        assert!(inside > 50, "the safe disc covers pixels");
        // Far outside the safe radius Newton can fail.
        assert!(map.iterations.iter().any(Option::is_none));
    }

    /// The article's figure: on the same body and square, the simple iterator converges
    /// on a quarter of Newton's area at most (far out, on roots of its own), and near
    /// the origin more slowly; the solution it finds there is Newton's.
    #[test]
    fn the_simple_iterator_converges_on_less_and_slower_than_newton() {
        let inertia = DVec3::new(2.5, 1.4, 1.3);
        let newton = ConvergenceMap::compute(inertia, 15.0, 96, Method::Newton);
        let simple = ConvergenceMap::compute(inertia, 15.0, 96, Method::FixedPoint);
        let count = |m: &ConvergenceMap| m.iterations.iter().flatten().count();
        let (n, f) = (count(&newton), count(&simple));
        assert!(f * 4 < n, "simple {f} pixels against Newton's {n}");
        assert!(f > 0, "it converges near the origin");
        // Inside the safe disc both converge, the simple iterator always more slowly.
        for y in 0..newton.size {
            for x in 0..newton.size {
                if newton.momentum(x, y).length() <= newton.safe_radius {
                    let p = y * newton.size + x;
                    let (a, b) = (newton.iterations[p], simple.iterations[p]);
                    assert!(b > a && a.is_some(), "pixel {x},{y}: {b:?} against {a:?}");
                }
            }
        }
        let inv = inertia.recip();
        let k = DVec3::new(0.4, -0.3, 0.0);
        let (vn, _) = newton_solve::<Midpoint>(inertia, inv, k).unwrap();
        let (vf, _) = fixed_point_solve::<Midpoint>(inertia, inv, k).unwrap();
        assert!((vn - vf).length() < 1e-12 * vn.length(), "{vn} {vf}");
    }
}
