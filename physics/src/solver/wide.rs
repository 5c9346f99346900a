//! The solver's number type at two widths and two precisions, as Box2D v3's contact
//! solver runs on `b2FloatW` [Catto, `contact_solver.c`]: [`Real`] is what the row maths
//! needs of a number, and it is either one number (a row alone) or a [`Wide`] of eight
//! (eight rows, one per slot), each an `f64` or an `f32`. Each operation of a `Wide` is
//! the scalar one, slot by slot, and Rust never fuses a multiply and an add, so eight rows
//! in slots give bitwise what each row gives alone.
//!
//! The contact rows run on [`RowReal`]: `f32`, as rapier's, Box2D's, Jolt's and PhysX's
//! rows do. Eight of them fill one 256-bit register where eight `f64` took two, and a
//! manifold's rows take half the bytes the passes stream. Bodies' poses and momenta, every
//! integrator and the joints' rows stay `f64`: a row's impulses are rounded to `f32`, the
//! state they change is not.

use std::fmt::Debug;
use std::ops::{Add, BitAnd, BitOr, Div, Mul, Neg, Not, Sub};

/// The precision of the contact rows (their Jacobians, masses, biases, impulses and the
/// velocities the passes change), alone and in slots.
pub type RowReal = f32;

/// Eight contact rows' numbers, one per slot.
pub type RowWide = Wide<RowReal>;

/// The contact rows' relative round-off: what momentum through contacts is conserved to
/// per impulse (their impulses are equal and opposite, at one point, to this precision).
pub const ROW_EPSILON: f64 = RowReal::EPSILON as f64;

/// Rows solved at once in a [`Wide`]: one AVX register of eight `f32` (two of four
/// `f64`). A manifold's rows are a
/// chain of Gauss-Seidel updates, each waiting on the last one's velocities; with four
/// slots the processor mostly waited on the chain (the kernel took 79% of the scalar
/// rows' time on the 1,000-box pile), with eight, two independent chains side by side,
/// 49%; twelve took 57% and sixteen 59%, their spills outweighing the overlap (measured
/// in `f64`).
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

/// A scalar the slots hold: `f64` or `f32`, with its bits for masks.
pub trait Precision:
    Copy
    + Default
    + Debug
    + PartialOrd
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
{
    /// The scalar's bits: a slot's mask is all ones or all zeros.
    type Bits: Copy
        + Default
        + Debug
        + PartialEq
        + BitAnd<Output = Self::Bits>
        + BitOr<Output = Self::Bits>
        + Not<Output = Self::Bits>;
    const ZERO: Self;
    const NONE: Self::Bits;
    /// The nearest scalar to `x` (exact for an `f64`).
    fn of(x: f64) -> Self;
    /// `x` as an `f64`, exactly.
    fn wide(self) -> f64;
    fn to_bits(self) -> Self::Bits;
    fn from_bits(b: Self::Bits) -> Self;
    fn max(self, o: Self) -> Self;
    fn min(self, o: Self) -> Self;
    fn sqrt(self) -> Self;
}

macro_rules! scalar {
    ($t:ty, $bits:ty) => {
        impl Precision for $t {
            type Bits = $bits;
            const ZERO: Self = 0.0;
            const NONE: $bits = 0;
            #[inline(always)]
            fn of(x: f64) -> Self {
                x as $t
            }
            #[inline(always)]
            fn wide(self) -> f64 {
                self as f64
            }
            #[inline(always)]
            fn to_bits(self) -> $bits {
                <$t>::to_bits(self)
            }
            #[inline(always)]
            fn from_bits(b: $bits) -> Self {
                <$t>::from_bits(b)
            }
            #[inline(always)]
            fn max(self, o: Self) -> Self {
                <$t>::max(self, o)
            }
            #[inline(always)]
            fn min(self, o: Self) -> Self {
                <$t>::min(self, o)
            }
            #[inline(always)]
            fn sqrt(self) -> Self {
                <$t>::sqrt(self)
            }
        }
    };
}

scalar!(f64, u64);
scalar!(f32, u32);

/// What the row maths needs of a number: arithmetic, `max` and `min` (a NaN operand
/// gives way to the other), a square root, comparisons into masks, and a select by
/// mask. Values come in and go out as `f64`, rounded to the precision on the way in.
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

/// A scalar alone is a row alone: one slot, whose mask is a `bool`.
impl<T: Precision> Real for T {
    type Mask = bool;
    const ZERO: Self = <T as Precision>::ZERO;

    #[inline(always)]
    fn splat(x: f64) -> Self {
        T::of(x)
    }
    #[inline(always)]
    fn gather(f: impl Fn(usize) -> f64) -> Self {
        T::of(f(0))
    }
    #[inline(always)]
    fn slot(self, _: usize) -> f64 {
        self.wide()
    }
    #[inline(always)]
    fn set_slot(&mut self, _: usize, x: f64) {
        *self = T::of(x);
    }
    #[inline(always)]
    fn max(self, o: Self) -> Self {
        Precision::max(self, o)
    }
    #[inline(always)]
    fn min(self, o: Self) -> Self {
        Precision::min(self, o)
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        Precision::sqrt(self)
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

/// One scalar per slot; every operation is the scalar one, slot by slot. Aligned to a
/// 256-bit register.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(32))]
pub struct Wide<T: Precision>([T; WIDTH]);

/// A slot mask: all bits set in the slots where a condition holds.
#[derive(Clone, Copy, Debug, Default)]
pub struct Mask<B>([B; WIDTH]);

impl<T: Precision> Real for Wide<T> {
    type Mask = Mask<T::Bits>;
    const ZERO: Self = Self([T::ZERO; WIDTH]);

    #[inline(always)]
    fn splat(x: f64) -> Self {
        Self([T::of(x); WIDTH])
    }
    #[inline(always)]
    fn gather(f: impl Fn(usize) -> f64) -> Self {
        Self(slots!(|l| T::of(f(l))))
    }
    #[inline(always)]
    fn slot(self, l: usize) -> f64 {
        self.0[l].wide()
    }
    #[inline(always)]
    fn set_slot(&mut self, l: usize, x: f64) {
        self.0[l] = T::of(x);
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
    fn gt(self, o: Self) -> Self::Mask {
        Mask(slots!(|l| if self.0[l] > o.0[l] {
            !T::NONE
        } else {
            T::NONE
        }))
    }
    #[inline(always)]
    fn eq(self, o: Self) -> Self::Mask {
        Mask(slots!(|l| if self.0[l] == o.0[l] {
            !T::NONE
        } else {
            T::NONE
        }))
    }
    #[inline(always)]
    fn select(m: Self::Mask, yes: Self, no: Self) -> Self {
        Self(slots!(|l| T::from_bits(
            (yes.0[l].to_bits() & m.0[l]) | (no.0[l].to_bits() & !m.0[l])
        )))
    }
    #[inline(always)]
    fn and(m: Self::Mask, o: Self::Mask) -> Self::Mask {
        Mask(slots!(|l| m.0[l] & o.0[l]))
    }
    #[inline(always)]
    fn or(m: Self::Mask, o: Self::Mask) -> Self::Mask {
        Mask(slots!(|l| m.0[l] | o.0[l]))
    }
    #[inline(always)]
    fn not(m: Self::Mask) -> Self::Mask {
        Mask(slots!(|l| !m.0[l]))
    }
    #[inline(always)]
    fn all(m: Self::Mask) -> bool {
        m.0.iter().all(|&m| m != T::NONE)
    }
    #[inline(always)]
    fn any(m: Self::Mask) -> bool {
        m.0.iter().any(|&m| m != T::NONE)
    }
    #[inline(always)]
    fn set_mask(m: &mut Self::Mask, l: usize, on: bool) {
        m.0[l] = if on { !T::NONE } else { T::NONE };
    }
}

macro_rules! slotwise {
    ($trait:ident, $f:ident, $op:tt) => {
        impl<T: Precision> $trait for Wide<T> {
            type Output = Wide<T>;
            #[inline(always)]
            fn $f(self, o: Wide<T>) -> Wide<T> {
                Wide(slots!(|l| self.0[l] $op o.0[l]))
            }
        }
    };
}
slotwise!(Add, add, +);
slotwise!(Sub, sub, -);
slotwise!(Mul, mul, *);
slotwise!(Div, div, /);

impl<T: Precision> Neg for Wide<T> {
    type Output = Wide<T>;
    #[inline(always)]
    fn neg(self) -> Wide<T> {
        Wide(slots!(|l| -self.0[l]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every operation of a `Wide` of `T` is, slot by slot and bit for bit, the scalar
    /// one on `T` (what makes eight rows in slots end as each would alone), for values
    /// with NaN, both zeros and infinities among them.
    fn slotwise_as_alone<T: Real + Precision>() {
        // Hidden from the compiler, which would fold the scalar operations otherwise.
        let values =
            std::hint::black_box([0.0, -0.0, 1.5, -2.25, 3.0e-9, f64::NAN, f64::INFINITY, -7.0]);
        let x = |l: usize| values[l];
        let y = |l: usize| values[(3 * l + 5) % WIDTH];
        let (a, b) = (Wide::<T>::gather(x), Wide::<T>::gather(y));
        let alone = |l: usize| (<T as Real>::splat(x(l)), <T as Real>::splat(y(l)));
        let bits = |v: f64| v.to_bits();
        for l in 0..WIDTH {
            let (p, q) = alone(l);
            let pairs = [
                ((a + b).slot(l), (p + q).slot(0)),
                ((a - b).slot(l), (p - q).slot(0)),
                ((a * b).slot(l), (p * q).slot(0)),
                ((a / b).slot(l), (p / q).slot(0)),
                ((-a).slot(l), (-p).slot(0)),
                (Real::max(a, b).slot(l), Real::max(p, q).slot(0)),
                (Real::min(a, b).slot(l), Real::min(p, q).slot(0)),
                (Real::sqrt(a).slot(l), Real::sqrt(p).slot(0)),
                (
                    Wide::select(a.gt(b), a, b).slot(l),
                    <T as Real>::select(p.gt(q), p, q).slot(0),
                ),
                (
                    Wide::select(a.eq(b), a, b).slot(l),
                    <T as Real>::select(p.eq(q), p, q).slot(0),
                ),
            ];
            // A NaN made by an operation (0/0) may carry either sign, by the compiler's
            // folding or the processor's; every other value, bit for bit.
            for (k, (wide, scalar)) in pairs.into_iter().enumerate() {
                let same = bits(wide) == bits(scalar) || (wide.is_nan() && scalar.is_nan());
                assert!(same, "operation {k}, slot {l}: {wide} against {scalar}");
            }
        }
    }

    #[test]
    fn a_wide_of_either_precision_is_its_scalar_slot_by_slot() {
        slotwise_as_alone::<f64>();
        slotwise_as_alone::<f32>();
    }
}
