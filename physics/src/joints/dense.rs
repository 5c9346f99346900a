//! Small dense matrices for the direct joint solve: a body's block is 6×6 and a joint's
//! at most 6×6, so a row-major array on the stack (the factor makes thousands a step,
//! none on the heap) and Gauss-Jordan elimination are all it needs.

use std::ops::{Mul, SubAssign};

/// The most entries a matrix has: 6×6.
const MOST: usize = 36;

/// A matrix of at most [`MOST`] entries; those past `rows × cols` stay zero.
#[derive(Clone, Debug, PartialEq)]
pub struct Dense {
    rows: usize,
    cols: usize,
    v: [f64; MOST],
}

impl Dense {
    pub fn zeros(rows: usize, cols: usize) -> Self {
        assert!(rows * cols <= MOST, "a {rows}×{cols} block is past 6×6");
        Self {
            rows,
            cols,
            v: [0.0; MOST],
        }
    }

    pub fn from_fn(rows: usize, cols: usize, f: impl Fn(usize, usize) -> f64) -> Self {
        let mut m = Self::zeros(rows, cols);
        for (i, x) in m.v[..rows * cols].iter_mut().enumerate() {
            *x = f(i / cols, i % cols);
        }
        m
    }

    pub fn at(&self, r: usize, c: usize) -> f64 {
        self.v[r * self.cols + c]
    }

    pub fn transpose(&self) -> Self {
        Self::from_fn(self.cols, self.rows, |r, c| self.at(c, r))
    }

    /// The product with a vector.
    pub fn times(&self, x: &[f64]) -> Vec<f64> {
        (0..self.rows)
            .map(|r| (0..self.cols).map(|c| self.at(r, c) * x[c]).sum())
            .collect()
    }

    /// The transpose's product with a vector.
    pub fn transpose_times(&self, x: &[f64]) -> Vec<f64> {
        (0..self.cols)
            .map(|c| (0..self.rows).map(|r| self.at(r, c) * x[r]).sum())
            .collect()
    }

    /// The inverse of a square matrix by Gauss-Jordan elimination with partial pivoting,
    /// or none if it is singular (a pivot below 1e-14 of its largest entry) or not finite.
    pub fn inverse(&self) -> Option<Self> {
        let n = self.rows;
        let (mut a, mut inv) = (self.clone(), Self::from_fn(n, n, |r, c| f64::from(r == c)));
        let scale = (self.v.iter()).fold(0.0f64, |m, x| m.max(x.abs()));
        if !scale.is_finite() {
            return None;
        }
        for col in 0..n {
            let pivot = (col..n)
                .max_by(|&i, &j| a.at(i, col).abs().total_cmp(&a.at(j, col).abs()))
                .unwrap_or(col);
            let size = a.at(pivot, col).abs();
            if size.is_nan() || size <= 1e-14 * scale {
                return None;
            }
            for m in [&mut a, &mut inv] {
                for c in 0..n {
                    m.v.swap(col * n + c, pivot * n + c);
                }
            }
            let p = a.at(col, col);
            for c in 0..n {
                a.v[col * n + c] /= p;
                inv.v[col * n + c] /= p;
            }
            for r in (0..n).filter(|&r| r != col) {
                let f = a.at(r, col);
                for c in 0..n {
                    a.v[r * n + c] -= f * a.at(col, c);
                    inv.v[r * n + c] -= f * inv.at(col, c);
                }
            }
        }
        Some(inv)
    }
}

impl SubAssign<&Dense> for Dense {
    fn sub_assign(&mut self, o: &Dense) {
        self.v.iter_mut().zip(&o.v).for_each(|(a, b)| *a -= b);
    }
}

impl Mul for &Dense {
    type Output = Dense;
    fn mul(self, o: &Dense) -> Dense {
        Dense::from_fn(self.rows, o.cols, |r, c| {
            (0..self.cols).map(|k| self.at(r, k) * o.at(k, c)).sum()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_inverse_times_its_matrix_is_the_identity() {
        let a = Dense::from_fn(5, 5, |r, c| {
            if r == c {
                4.0
            } else {
                1.0 / (1 + r + c) as f64
            }
        });
        let id = &a * &a.inverse().unwrap();
        for r in 0..5 {
            for c in 0..5 {
                assert!((id.at(r, c) - f64::from(r == c)).abs() < 1e-14, "{id:?}");
            }
        }
        let x = [1.0, -2.0, 0.5, 3.0, 0.25];
        assert_eq!(a.transpose_times(&x), a.transpose().times(&x));
    }

    /// A matrix with two equal rows, a zero one and one that is not finite have no
    /// inverse: the caller is told, not handed zeros.
    #[test]
    fn a_singular_matrix_has_no_inverse() {
        let twice = Dense::from_fn(3, 3, |r, c| {
            if r == 2 {
                1.0 + c as f64
            } else {
                (1 + r + c) as f64
            }
        });
        assert_eq!(twice.inverse(), None);
        assert_eq!(Dense::zeros(3, 3).inverse(), None);
        let nan = Dense::from_fn(2, 2, |r, c| if r == c { f64::NAN } else { 0.0 });
        assert_eq!(nan.inverse(), None);
    }
}
