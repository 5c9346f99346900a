//! Measures how fast a pendulum's swing plane turns: Foucault's experiment, read off the
//! simulation the way one reads it off the floor of the Panthéon.

use std::f64::consts::PI;

use glam::{DVec2, DVec3};

use super::DynamicTransform;

/// What Foucault's pendulum should show at a site on a turning planet: the site's latitude
/// φ (from its local vertical and the planet's spin Ω) and the rate `Ω sin φ` at which
/// the swing plane turns against the ground.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FoucaultSite {
    /// The planet's spin `|Ω|`, rad/s.
    pub spin: f64,
    /// The latitude φ, rad (positive where the vertical leans along Ω).
    pub latitude: f64,
    /// `Ω sin φ`, the swing plane's rate against the ground, rad/s.
    pub rate: f64,
}

impl FoucaultSite {
    /// `site`'s global dynamics, with its local vertical along its own y axis.
    pub fn of(site: &DynamicTransform) -> Self {
        let up = site.transform.rotation * DVec3::Y;
        let omega = site.angular_velocity;
        Self {
            spin: omega.length(),
            latitude: libm::asin(up.dot(omega.normalize_or_zero()).clamp(-1.0, 1.0)),
            rate: omega.dot(up),
        }
    }
}

/// Fed the bob's horizontal displacement every step; records the azimuth of the swing
/// plane at each turning point (modulo π, unwrapped) and fits its rate.
#[derive(Clone, Debug, Default)]
pub struct PrecessionMeter {
    previous: Option<(f64, DVec2)>,
    rising: bool,
    /// (time, azimuth) at each turning point.
    pub turns: Vec<(f64, f64)>,
}

impl PrecessionMeter {
    /// Forgets the turning points after time `t`; the next swing is measured afresh.
    pub fn truncate_after(&mut self, t: f64) {
        self.turns.retain(|&(at, _)| at <= t);
        self.previous = None;
        self.rising = false;
    }

    /// `horizontal` is the bob's displacement from below the pivot, in a right-handed
    /// horizontal basis (azimuth counter-clockwise seen from above).
    pub fn record(&mut self, t: f64, horizontal: DVec2) {
        let r = horizontal.length();
        if let Some((tp, prev)) = self.previous {
            let prev_r = prev.length();
            if self.rising && r < prev_r {
                let mut a = libm::atan2(prev.y, prev.x);
                if let Some(&(_, last)) = self.turns.last() {
                    a += PI * ((last - a) / PI).round();
                }
                self.turns.push((tp, a));
            }
            self.rising = r > prev_r;
        }
        self.previous = Some((t, horizontal));
    }

    /// The swing plane's turning rate (rad/s, counter-clockwise from above), by least
    /// squares over the turning points; `None` before three of them.
    pub fn rate(&self) -> Option<f64> {
        if self.turns.len() < 3 {
            return None;
        }
        let n = self.turns.len() as f64;
        let (mt, ma) = self
            .turns
            .iter()
            .fold((0.0, 0.0), |(t, a), &(ti, ai)| (t + ti / n, a + ai / n));
        let (sta, stt) = self.turns.iter().fold((0.0, 0.0), |(sa, st), &(ti, ai)| {
            (sa + (ti - mt) * (ai - ma), st + (ti - mt) * (ti - mt))
        });
        (stt > 0.0).then(|| sta / stt)
    }
}
