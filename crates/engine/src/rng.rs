use rand_chacha::ChaCha8Rng;
use rand_core::{Rng as _, SeedableRng};

/// The one source of chance in a game: ChaCha8 seeded from a `u64`.
///
/// Lives inside a game's state, so a cloned state draws the same future; every draw goes
/// through it in a fixed order, which makes (setup, seed, log) replay byte for byte.
#[derive(Clone, Debug, PartialEq)]
pub struct Rng(ChaCha8Rng);

impl Rng {
    pub fn seeded(seed: u64) -> Rng {
        Rng(ChaCha8Rng::seed_from_u64(seed))
    }
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        self.0.next_u32()
    }
    /// A uniform number in `0..n` (`n > 0`), without modulo bias (Lemire's method).
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        assert!(n > 0, "Rng::below(0)");
        loop {
            let m = (self.0.next_u32() as u64) * (n as u64);
            let low = m as u32;
            if low >= n || low >= (n.wrapping_neg() % n) {
                return (m >> 32) as u32;
            }
        }
    }
    /// A uniform index into a slice of length `len > 0`.
    #[inline]
    pub fn index(&mut self, len: usize) -> usize {
        self.below(len as u32) as usize
    }
    /// A uniform element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() { None } else { Some(&items[self.index(items.len())]) }
    }
    /// Fisher–Yates shuffle.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.index(i + 1);
            items.swap(i, j);
        }
    }
    /// A fresh generator split off this one (for determinized copies and bot playouts).
    pub fn fork(&mut self) -> Rng {
        Rng::seeded(self.next_u64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_draws() {
        let (mut a, mut b) = (Rng::seeded(7), Rng::seeded(7));
        for _ in 0..100 {
            assert_eq!(a.below(13), b.below(13));
        }
        assert_ne!(Rng::seeded(7).next_u64(), Rng::seeded(8).next_u64());
    }

    #[test]
    fn below_is_roughly_uniform_and_in_range() {
        let mut r = Rng::seeded(1);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[r.below(6) as usize] += 1;
        }
        for c in counts {
            assert!((9_000..11_000).contains(&c), "{counts:?}");
        }
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut r = Rng::seeded(3);
        let mut v: Vec<u32> = (0..84).collect();
        r.shuffle(&mut v);
        assert_ne!(v, (0..84).collect::<Vec<_>>());
        v.sort();
        assert_eq!(v, (0..84).collect::<Vec<_>>());
    }
}
