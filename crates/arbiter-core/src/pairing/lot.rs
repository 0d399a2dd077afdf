//! A lot drawn from a recorded seed (AS-8): the same seed draws the same order on every machine
//! and build, so an officer can draw it again and check it. Imports nothing else from core.
//!
//! The generator is SplitMix64.

/// A draw by lot: SplitMix64 (Steele, Lea and Flood 2014), a tiny generator that takes any
/// seed, 0 included, and spreads close seeds far apart. Not for secrets; for fair, repeatable
/// draws.
#[derive(Debug, Clone)]
pub struct Lot(u64);

impl Lot {
    /// The lot drawn from `seed`.
    pub fn new(seed: u64) -> Lot {
        Lot(seed)
    }

    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n`, every one equally likely (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        let n = n as u64;
        if n == 0 {
            return 0;
        }
        // Draws above the last whole multiple of n are drawn again, so no number is favoured.
        let zone = u64::MAX - (u64::MAX % n);
        loop {
            let x = self.next_u64();
            if x < zone {
                return (x % n) as usize;
            }
        }
    }

    /// `items` in the order the lot draws them (Fisher-Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn as_8_the_same_seed_draws_the_same_order() {
        let draw = |seed| {
            let mut v: Vec<u32> = (0..8).collect();
            Lot::new(seed).shuffle(&mut v);
            v
        };
        assert_eq!(draw(7), draw(7));
        assert_ne!(draw(7), draw(8));
        // Every item can come first: the draw is not stuck.
        let firsts: std::collections::BTreeSet<u32> = (0..200).map(|s| draw(s)[0]).collect();
        assert_eq!(firsts.len(), 8);
    }

    #[test]
    fn below_stays_in_range() {
        let mut lot = Lot::new(0);
        assert_eq!(lot.below(0), 0);
        for n in 1..50 {
            assert!(lot.below(n) < n);
        }
    }
}
