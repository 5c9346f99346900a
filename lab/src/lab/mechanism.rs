//! The readouts of jointed mechanisms: a slider-crank's piston against the formula its
//! geometry gives, and how far a chain's joints have pulled apart.

use glam::DVec3;

use super::series::Stamped;
use crate::contacts::Contacts;
use crate::scene::{Readout, Scene};
use crate::world::World;

/// A measured quantity against what it should be.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MechanismSample {
    pub t: f64,
    pub measured: f64,
    pub expected: f64,
}

impl Stamped for MechanismSample {
    fn t(&self) -> f64 {
        self.t
    }
}

/// What a jointed scene's readout measures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mechanism {
    /// The piston's distance along x from the crank's pivot (m), against
    /// `x(θ) = r cos θ + √(l² − r² sin² θ)`.
    Piston {
        crank: usize,
        piston: usize,
        pivot: DVec3,
        r: f64,
        l: f64,
    },
    /// The joints' gaps summed, over `span` (the first joint's anchor to the last's at
    /// the start), against no stretch at all.
    Stretch { span: f64 },
}

impl Mechanism {
    pub fn of(scene: &Scene, world: &World) -> Option<Self> {
        let body = |name: &str| world.bodies().iter().position(|b| b.name == name);
        match scene.readout.as_ref()? {
            Readout::SliderCrank {
                crank,
                piston,
                pivot,
                crank_length,
                rod_length,
            } => Some(Self::Piston {
                crank: body(crank)?,
                piston: body(piston)?,
                pivot: *pivot,
                r: *crank_length,
                l: *rod_length,
            }),
            Readout::Stretch => {
                let c = world.contacts()?;
                let poses = Contacts::poses(world.bodies());
                let anchor = |k: usize| c.joint_anchors(&poses, k).0;
                let span = anchor(0).distance(anchor(c.joints().len() - 1));
                // One joint, or a ring: no length to measure the stretch against.
                (span > 1e-6).then_some(Self::Stretch { span })
            }
            _ => None,
        }
    }

    /// The measurement in `world` now.
    pub fn sample(&self, world: &World) -> MechanismSample {
        let (measured, expected) = match *self {
            Self::Piston {
                crank,
                piston,
                pivot,
                r,
                l,
            } => {
                let arm = world.bodies()[crank].state.orientation * DVec3::X;
                let theta = libm::atan2(arm.y, arm.x);
                let x = world.bodies()[piston].state.position.x - pivot.x;
                let s = r * libm::sin(theta);
                (x, r * libm::cos(theta) + (l * l - s * s).sqrt())
            }
            Self::Stretch { span } => {
                let gap = world.contacts().map_or(0.0, |c| {
                    let poses = Contacts::poses(world.bodies());
                    (0..c.joints().len())
                        .filter(|&k| c.joints()[k].holds())
                        .map(|k| {
                            let (a, b) = c.joint_anchors(&poses, k);
                            a.distance(b)
                        })
                        .sum()
                });
                (gap / span, 0.0)
            }
        };
        MechanismSample {
            t: world.time(),
            measured,
            expected,
        }
    }
}
