//! Where a contact's normal row takes its velocity bias from in each pass: PGS's fixed
//! Baumgarte bias, or the soft step's spring and speculative gap.

use crate::solver::settings::{Softness, SolverKind, SolverSettings};

/// Where a normal row's velocity bias comes from.
#[derive(Clone, Copy, Debug)]
pub enum NormalBias {
    /// PGS: the bias [`ContactRows::set_pgs_bias`] fixed for the step.
    Fixed,
    /// The soft step: a speculative point closes its gap within the solver sub-step
    /// (`inv_h` is its inverse length); a penetrating one is pushed out by the spring of
    /// `softness` (`static_softness` against a body that does not move), no faster than
    /// `max_push_out` [Catto 2024].
    Soft {
        softness: Softness,
        static_softness: Softness,
        inv_h: f64,
        max_push_out: f64,
    },
}

impl NormalBias {
    /// The iterations' bias, for a step (PGS) or solver sub-step (soft) of `h`.
    pub fn iterate(settings: &SolverSettings, h: f64) -> Self {
        match settings.solver {
            SolverKind::Pgs => Self::Fixed,
            SolverKind::Soft => {
                let (softness, static_softness) = settings.contact_softness(h);
                Self::Soft {
                    softness,
                    static_softness,
                    inv_h: 1.0 / h,
                    max_push_out: settings.max_push_out,
                }
            }
        }
    }

    /// The relax stage's: rigid rows that only close speculative gaps.
    pub fn relax(settings: &SolverSettings, h: f64) -> Self {
        Self::Soft {
            softness: Softness::RIGID,
            static_softness: Softness::RIGID,
            inv_h: 1.0 / h,
            max_push_out: settings.max_push_out,
        }
    }
}
