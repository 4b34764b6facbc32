//! A tiny fixed-capacity list for the per-step scratch lists of resolution (at most one entry
//! per robot, and a game has at most 8 robots): no allocation in the hot path.

#[derive(Clone, Copy, Debug)]
pub(crate) struct Few<T: Copy + Default, const N: usize> {
    items: [T; N],
    len: usize,
}

impl<T: Copy + Default, const N: usize> Few<T, N> {
    pub(crate) fn new() -> Self {
        Few { items: [T::default(); N], len: 0 }
    }
    /// Push; entries beyond the capacity are dropped (callers never exceed it: ≤ 1 per robot).
    pub(crate) fn push(&mut self, t: T) {
        if self.len < N {
            self.items[self.len] = t;
            self.len += 1;
        }
    }
    pub(crate) fn as_slice(&self) -> &[T] {
        &self.items[..self.len]
    }
    pub(crate) fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.items[..self.len]
    }
}
