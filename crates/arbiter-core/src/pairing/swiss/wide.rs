//! Integers of `N` 64-bit limbs (two's complement, little-endian): the weights of art. 3.6.2's
//! order of identifiers need about `B·log2(B+1)` bits for a bracket of `B` teams.
#![allow(clippy::needless_range_loop)] // limb arithmetic reads clearest by index

use std::cmp::Ordering;
use std::ops::{Add, Sub};

/// What the weighted matching computes with.
pub(crate) trait Weight: Copy + Ord + Add<Output = Self> + Sub<Output = Self> {
    fn zero() -> Self;
    fn from_u64(x: u64) -> Self;
    /// Halves an even number (exactly).
    fn half(self) -> Self;
    fn is_negative(self) -> bool;
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Wide<const N: usize>(pub [u64; N]);

impl<const N: usize> Wide<N> {
    /// `self * k` for a small non-negative `k`; `None` when it does not fit.
    pub fn mul_small(self, k: u64) -> Option<Self> {
        let mut out = [0u64; N];
        let mut carry: u128 = 0;
        for (o, &x) in out.iter_mut().zip(self.0.iter()) {
            let v = u128::from(x) * u128::from(k) + carry;
            *o = v as u64;
            carry = v >> 64;
        }
        let w = Wide(out);
        (carry == 0 && !w.is_negative()).then_some(w)
    }
}

impl<const N: usize> Add for Wide<N> {
    type Output = Self;
    fn add(self, o: Self) -> Self {
        let mut out = [0u64; N];
        let mut carry = false;
        for i in 0..N {
            let (a, c1) = self.0[i].overflowing_add(o.0[i]);
            let (b, c2) = a.overflowing_add(u64::from(carry));
            out[i] = b;
            carry = c1 || c2;
        }
        Wide(out)
    }
}

impl<const N: usize> Sub for Wide<N> {
    type Output = Self;
    fn sub(self, o: Self) -> Self {
        let mut out = [0u64; N];
        let mut borrow = false;
        for i in 0..N {
            let (a, b1) = self.0[i].overflowing_sub(o.0[i]);
            let (b, b2) = a.overflowing_sub(u64::from(borrow));
            out[i] = b;
            borrow = b1 || b2;
        }
        Wide(out)
    }
}

impl<const N: usize> Ord for Wide<N> {
    fn cmp(&self, o: &Self) -> Ordering {
        match (self.is_negative(), o.is_negative()) {
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            _ => {}
        }
        for i in (0..N).rev() {
            match self.0[i].cmp(&o.0[i]) {
                Ordering::Equal => {}
                other => return other,
            }
        }
        Ordering::Equal
    }
}

impl<const N: usize> PartialOrd for Wide<N> {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl<const N: usize> Weight for Wide<N> {
    fn zero() -> Self {
        Wide([0; N])
    }
    fn from_u64(x: u64) -> Self {
        let mut out = [0; N];
        out[0] = x;
        Wide(out)
    }
    fn half(self) -> Self {
        let mut out = [0u64; N];
        let sign = if self.is_negative() { 1u64 << 63 } else { 0 };
        for i in 0..N {
            let high = if i + 1 < N { self.0[i + 1] << 63 } else { sign };
            out[i] = (self.0[i] >> 1) | high;
        }
        Wide(out)
    }
    fn is_negative(self) -> bool {
        self.0[N - 1] >> 63 == 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_carries_across_limbs_and_keeps_the_sign() {
        let big = Wide::<2>::from_u64(u64::MAX);
        let two = Wide::<2>::from_u64(2);
        assert_eq!((big + two).0, [1, 1]);
        assert_eq!((big + two - two), big);
        let minus_one = Wide::<2>::zero() - Wide::from_u64(1);
        assert!(minus_one.is_negative());
        assert!(minus_one < Wide::zero());
        assert_eq!((Wide::<2>::zero() - two).half(), minus_one);
        assert_eq!((big + two).half().0, [1 << 63, 0]);
        assert_eq!(big.mul_small(4).map(|w| w.0), Some([u64::MAX - 3, 3]));
        assert_eq!(Wide::<1>::from_u64(1 << 62).mul_small(2), None);
    }
}
