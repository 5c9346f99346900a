//! The solver's number type at two widths, as Box2D v3's contact solver runs on
//! `b2FloatW` [Catto, `contact_solver.c`]: [`Real`] is what the row maths needs of a
//! number, and it is either one `f64` (a row alone) or a [`Wide`] of eight (eight rows,
//! one per slot). Each operation of a `Wide` is the `f64` one, slot by slot, and Rust
//! never fuses a multiply and an add, so eight rows in slots give bitwise what each row
//! gives alone.

use std::ops::{Add, Div, Mul, Neg, Sub};

/// Rows solved at once in a [`Wide`]: two AVX registers of four. A manifold's rows are a
/// chain of Gauss-Seidel updates, each waiting on the last one's velocities; with four
/// slots the processor mostly waited on the chain (the kernel took 79% of the scalar
/// rows' time on the 1,000-box pile), with eight, two independent chains side by side,
/// 49%; twelve took 57% and sixteen 59%, their spills outweighing the overlap.
pub const WIDTH: usize = 8;

/// `[e(0), e(1), …, e(WIDTH − 1)]` for an expression `e` of the slot `$l`, written out so
/// that the kernel has no closure and no loop to vectorise.
macro_rules! slots {
    (|$l:ident| $e:expr) => {
        [
            {
                let $l = 0;
                $e
            },
            {
                let $l = 1;
                $e
            },
            {
                let $l = 2;
                $e
            },
            {
                let $l = 3;
                $e
            },
            {
                let $l = 4;
                $e
            },
            {
                let $l = 5;
                $e
            },
            {
                let $l = 6;
                $e
            },
            {
                let $l = 7;
                $e
            },
        ]
    };
}
pub(super) use slots;

/// `[e(0), e(1), e(2)]` for an expression `e` of the axis `$k`, written out: `array::map`
/// is a call that does not inherit the kernel's instruction set.
macro_rules! xyz {
    (|$k:ident| $e:expr) => {
        [
            {
                let $k = 0;
                $e
            },
            {
                let $k = 1;
                $e
            },
            {
                let $k = 2;
                $e
            },
        ]
    };
}
pub(super) use xyz;

/// What the row maths needs of a number: arithmetic, `f64::max` and `min` (a NaN
/// operand gives way to the other), a square root, comparisons into masks, and a
/// select by mask.
pub trait Real:
    Copy
    + Default
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
{
    /// Per slot, whether a condition holds.
    type Mask: Copy + Default;
    const ZERO: Self;
    fn splat(x: f64) -> Self;
    /// Real `l` is `f(l)`.
    fn gather(f: impl Fn(usize) -> f64) -> Self;
    fn slot(self, l: usize) -> f64;
    fn set_slot(&mut self, l: usize, x: f64);
    fn max(self, o: Self) -> Self;
    fn min(self, o: Self) -> Self;
    fn sqrt(self) -> Self;
    fn gt(self, o: Self) -> Self::Mask;
    fn eq(self, o: Self) -> Self::Mask;
    /// `yes` in the slots of `m`, `no` in the others, bit for bit.
    fn select(m: Self::Mask, yes: Self, no: Self) -> Self;
    fn and(m: Self::Mask, o: Self::Mask) -> Self::Mask;
    fn or(m: Self::Mask, o: Self::Mask) -> Self::Mask;
    fn not(m: Self::Mask) -> Self::Mask;
    fn all(m: Self::Mask) -> bool;
    fn any(m: Self::Mask) -> bool;
    fn set_mask(m: &mut Self::Mask, l: usize, on: bool);
}

impl Real for f64 {
    type Mask = bool;
    const ZERO: Self = 0.0;

    #[inline(always)]
    fn splat(x: f64) -> Self {
        x
    }
    #[inline(always)]
    fn gather(f: impl Fn(usize) -> f64) -> Self {
        f(0)
    }
    #[inline(always)]
    fn slot(self, _: usize) -> f64 {
        self
    }
    #[inline(always)]
    fn set_slot(&mut self, _: usize, x: f64) {
        *self = x;
    }
    #[inline(always)]
    fn max(self, o: Self) -> Self {
        f64::max(self, o)
    }
    #[inline(always)]
    fn min(self, o: Self) -> Self {
        f64::min(self, o)
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        f64::sqrt(self)
    }
    #[inline(always)]
    fn gt(self, o: Self) -> bool {
        self > o
    }
    #[inline(always)]
    fn eq(self, o: Self) -> bool {
        self == o
    }
    #[inline(always)]
    fn select(m: bool, yes: Self, no: Self) -> Self {
        if m { yes } else { no }
    }
    #[inline(always)]
    fn and(m: bool, o: bool) -> bool {
        m && o
    }
    #[inline(always)]
    fn or(m: bool, o: bool) -> bool {
        m || o
    }
    #[inline(always)]
    fn not(m: bool) -> bool {
        !m
    }
    #[inline(always)]
    fn all(m: bool) -> bool {
        m
    }
    #[inline(always)]
    fn any(m: bool) -> bool {
        m
    }
    #[inline(always)]
    fn set_mask(m: &mut bool, _: usize, on: bool) {
        *m = on;
    }
}

/// One `f64` per slot; every operation is the scalar one, slot by slot.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
pub struct Wide([f64; WIDTH]);

/// A slot mask: all bits set in the slots where a condition holds.
#[derive(Clone, Copy, Debug, Default)]
pub struct Mask([u64; WIDTH]);

impl Real for Wide {
    type Mask = Mask;
    const ZERO: Self = Self([0.0; WIDTH]);

    #[inline(always)]
    fn splat(x: f64) -> Self {
        Self([x; WIDTH])
    }
    #[inline(always)]
    fn gather(f: impl Fn(usize) -> f64) -> Self {
        Self(slots!(|l| f(l)))
    }
    #[inline(always)]
    fn slot(self, l: usize) -> f64 {
        self.0[l]
    }
    #[inline(always)]
    fn set_slot(&mut self, l: usize, x: f64) {
        self.0[l] = x;
    }
    #[inline(always)]
    fn max(self, o: Self) -> Self {
        Self(slots!(|l| self.0[l].max(o.0[l])))
    }
    #[inline(always)]
    fn min(self, o: Self) -> Self {
        Self(slots!(|l| self.0[l].min(o.0[l])))
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        Self(slots!(|l| self.0[l].sqrt()))
    }
    #[inline(always)]
    fn gt(self, o: Self) -> Mask {
        Mask(slots!(|l| if self.0[l] > o.0[l] { !0 } else { 0 }))
    }
    #[inline(always)]
    fn eq(self, o: Self) -> Mask {
        Mask(slots!(|l| if self.0[l] == o.0[l] { !0 } else { 0 }))
    }
    #[inline(always)]
    fn select(m: Mask, yes: Self, no: Self) -> Self {
        Self(slots!(|l| f64::from_bits(
            (yes.0[l].to_bits() & m.0[l]) | (no.0[l].to_bits() & !m.0[l])
        )))
    }
    #[inline(always)]
    fn and(m: Mask, o: Mask) -> Mask {
        Mask(slots!(|l| m.0[l] & o.0[l]))
    }
    #[inline(always)]
    fn or(m: Mask, o: Mask) -> Mask {
        Mask(slots!(|l| m.0[l] | o.0[l]))
    }
    #[inline(always)]
    fn not(m: Mask) -> Mask {
        Mask(slots!(|l| !m.0[l]))
    }
    #[inline(always)]
    fn all(m: Mask) -> bool {
        m.0.iter().all(|&m| m != 0)
    }
    #[inline(always)]
    fn any(m: Mask) -> bool {
        m.0.iter().any(|&m| m != 0)
    }
    #[inline(always)]
    fn set_mask(m: &mut Mask, l: usize, on: bool) {
        m.0[l] = if on { !0 } else { 0 };
    }
}

macro_rules! slotwise {
    ($trait:ident, $f:ident, $op:tt) => {
        impl $trait for Wide {
            type Output = Wide;
            #[inline(always)]
            fn $f(self, o: Wide) -> Wide {
                Wide(slots!(|l| self.0[l] $op o.0[l]))
            }
        }
    };
}
slotwise!(Add, add, +);
slotwise!(Sub, sub, -);
slotwise!(Mul, mul, *);
slotwise!(Div, div, /);

impl Neg for Wide {
    type Output = Wide;
    #[inline(always)]
    fn neg(self) -> Wide {
        Wide(slots!(|l| -self.0[l]))
    }
}
