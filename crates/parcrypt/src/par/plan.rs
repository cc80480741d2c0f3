//! How an input is cut: the [`Grain`] an algorithm asks for and the [`Plan`]
//! of parts a [`super::Parallelism`] makes from it.
use std::ops::Range;

/// How an algorithm wants its input cut. All sizes are in elements of the
/// slice being processed (bytes for ciphers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grain {
    /// Parts start at multiples of this (the cipher block size, say).
    pub unit: usize,
    /// The smallest part worth handing to another thread. Inputs shorter than
    /// twice this run as one part on the calling thread.
    pub min_part: usize,
    /// The task size for [`super::Strategy::WorkStealing`].
    pub task: usize,
}

impl Grain {
    pub(super) fn align_up(&self, n: usize) -> usize {
        n.div_ceil(self.unit.max(1)) * self.unit.max(1)
    }
}

/// The parts an input of a given length is cut into, in order; they cover the
/// input exactly and do not overlap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub(super) parts: Vec<Range<usize>>,
    pub(super) run: Run,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Run {
    Inline,
    Team(usize),
    Pool(usize),
}

impl Plan {
    /// The parts, in input order.
    pub fn parts(&self) -> &[Range<usize>] {
        &self.parts
    }

    /// Whether the plan runs on more than the calling thread.
    pub fn is_parallel(&self) -> bool {
        self.run != Run::Inline
    }
}

/// Cuts `len` into `n` parts whose lengths are multiples of `unit` (except the
/// last) and differ by at most one unit.
pub(super) fn near_equal_parts(len: usize, n: usize, unit: usize) -> Vec<Range<usize>> {
    let units = len.div_ceil(unit);
    let n = n.min(units).max(1);
    let (base, extra) = (units / n, units % n);
    let mut start = 0;
    (0..n)
        .map(|i| {
            let end = (start + (base + usize::from(i < extra)) * unit).min(len);
            let range = start..end;
            start = end;
            range
        })
        .collect()
}
