//! The one tree engine every format runs on.
//!
//! A format is a [`Rule`]: how a leaf and a node are hashed, and whether the
//! tree is RFC 6962-shaped (split at the largest power of two below the size,
//! which is the same as pairing left to right level by level and carrying an
//! odd node up) or a perfect tree padded with zero hashes (BEP 52).
//!
//! In both shapes every node at height `h` covers the leaves
//! `[k·2^h, (k+1)·2^h)` (cut at the end of the input). So the input is cut into
//! blocks of `2^h` leaves, the blocks are hashed independently (in parallel,
//! under any [`Parallelism`]), and their roots are combined by the same
//! left-to-right merge that hashes the leaves inside a block. There is no
//! barrier per level; memory is one hash per level plus the block roots of
//! the input at hand.

use crate::digest::Digest;
use crate::par::{Grain, Parallelism};

/// How a format hashes and shapes its tree: a leaf is SHA-256(`LEAF_PREFIX`
/// ‖ data), a node SHA-256(`NODE_PREFIX` ‖ left ‖ right).
pub(crate) trait Rule: Sync {
    /// Perfect binary tree over the leaves padded with zero hashes to a power
    /// of two (BEP 52), instead of the RFC 6962 shape.
    const PADDED: bool;
    /// What is hashed before a leaf's data (RFC 6962: `0x00`).
    const LEAF_PREFIX: &'static [u8];
    /// What is hashed before two child hashes (RFC 6962: `0x01`).
    const NODE_PREFIX: &'static [u8];

    /// The hash of one leaf's data.
    fn leaf(&self, data: &[u8]) -> Digest {
        sha256(&[Self::LEAF_PREFIX, data])
    }
    /// The hash of an inner node.
    fn node(&self, left: &Digest, right: &Digest) -> Digest {
        sha256(&[Self::NODE_PREFIX, left, right])
    }
    /// `out[i]` = the hash of leaf `data[i]`, many at once.
    fn leaves(&self, data: &[&[u8]], out: &mut [Digest]) {
        crate::digest::sha256_many_prefixed_into(Self::LEAF_PREFIX, data, out);
    }
    /// `out[i]` = the node over `pairs[2i]` and `pairs[2i + 1]`, many at once.
    fn nodes(&self, pairs: &[Digest], out: &mut [Digest]) {
        crate::digest::sha256_pairs_into(Self::NODE_PREFIX, pairs, out);
    }
}

/// SHA-256 of the concatenation of `parts`.
pub(crate) use crate::digest::sha256_parts as sha256;

/// The root of an empty input in every format: SHA-256 of nothing (see
/// [`crate::merkle`]).
pub(crate) fn empty_root() -> Digest {
    crate::digest::sha256(&[])
}

/// The leaves of a tree: an indexable list of byte strings.
///
/// Implemented for [`Chunks`] (a byte slice cut into fixed-size pieces) and
/// for slices of anything that is `AsRef<[u8]>` (one leaf per element).
pub trait Leaves: Sync {
    /// How many leaves there are.
    fn count(&self) -> usize;
    /// The data of leaf `index` (`index < count()`).
    fn leaf(&self, index: usize) -> &[u8];
    /// The total number of data bytes (used to size parallel tasks).
    fn bytes(&self) -> usize;
}

/// A byte slice cut into leaves of `leaf_size` bytes; the last leaf may be
/// shorter. An empty slice has no leaves.
#[derive(Clone, Copy, Debug)]
pub struct Chunks<'a> {
    data: &'a [u8],
    size: usize,
}

impl<'a> Chunks<'a> {
    /// `data` cut into leaves of `leaf_size` bytes.
    ///
    /// # Panics
    /// If `leaf_size` is 0.
    pub fn new(data: &'a [u8], leaf_size: usize) -> Self {
        assert!(leaf_size > 0, "leaf size must be at least 1 byte");
        Chunks {
            data,
            size: leaf_size,
        }
    }
}

impl Leaves for Chunks<'_> {
    fn count(&self) -> usize {
        self.data.len().div_ceil(self.size)
    }
    fn leaf(&self, index: usize) -> &[u8] {
        let start = index * self.size;
        &self.data[start..(start + self.size).min(self.data.len())]
    }
    fn bytes(&self) -> usize {
        self.data.len()
    }
}

impl<T: AsRef<[u8]> + Sync> Leaves for [T] {
    fn count(&self) -> usize {
        self.len()
    }
    fn leaf(&self, index: usize) -> &[u8] {
        self[index].as_ref()
    }
    fn bytes(&self) -> usize {
        self.iter().map(|l| l.as_ref().len()).sum()
    }
}

/// Leaves `[start, end)` of another list.
pub(crate) struct Slice<'a, L: ?Sized> {
    pub(crate) inner: &'a L,
    pub(crate) start: usize,
    pub(crate) end: usize,
}

impl<L: Leaves + ?Sized> Leaves for Slice<'_, L> {
    fn count(&self) -> usize {
        self.end - self.start
    }
    fn leaf(&self, index: usize) -> &[u8] {
        self.inner.leaf(self.start + index)
    }
    fn bytes(&self) -> usize {
        // An estimate is enough: it only sizes tasks.
        let n = self.inner.count().max(1);
        self.inner.bytes() / n * self.count()
    }
}

/// The root of the perfect tree over `level` (a power of two of hashes),
/// hashed a level at a time, many nodes at once ([`Rule::nodes`]).
///
/// # Panics
/// If `level.len()` is not a power of two.
pub(crate) fn perfect_root<R: Rule>(rule: &R, level: Vec<Digest>) -> Digest {
    assert!(level.len().is_power_of_two(), "a perfect tree has 2^k leaves");
    let (mut level, mut next) = (level, Vec::new());
    while level.len() > 1 {
        next.clear();
        next.resize(level.len() / 2, [0u8; 32]);
        rule.nodes(&level, &mut next);
        std::mem::swap(&mut level, &mut next);
    }
    level[0]
}

/// The hash of a subtree of `2^height` zero leaves in a padded tree.
pub(crate) fn zero_hash<R: Rule>(rule: &R, height: u32) -> Digest {
    let mut z = [0u8; 32];
    for _ in 0..height {
        z = rule.node(&z, &z);
    }
    z
}

/// The right edge of a tree being built left to right: the roots of the
/// complete subtrees so far, heights strictly decreasing (one per set bit of
/// the leaf count). Optionally records every node reaching one height (the
/// BEP 52 piece layer).
#[derive(Debug, Default)]
pub(crate) struct Frontier {
    stack: Vec<(u32, Digest)>,
    record: Option<(u32, Vec<Digest>)>,
}

impl Frontier {
    pub(crate) fn recording(height: Option<u32>) -> Self {
        Frontier {
            stack: Vec::new(),
            record: height.map(|h| (h, Vec::new())),
        }
    }

    /// Appends the root of a complete subtree of `height`.
    pub(crate) fn push<R: Rule>(&mut self, rule: &R, mut height: u32, mut hash: Digest) {
        self.note(height, &hash);
        while let Some((h, top)) = self.stack.last()
            && *h == height
        {
            hash = rule.node(top, &hash);
            height += 1;
            self.stack.pop();
            self.note(height, &hash);
        }
        self.stack.push((height, hash));
    }

    fn note(&mut self, height: u32, hash: &Digest) {
        if let Some((h, layer)) = &mut self.record
            && *h == height
        {
            layer.push(*hash);
        }
    }

    /// The root (None without leaves), and the recorded layer. RFC 6962
    /// shape: the remaining subtrees are joined right to left. Padded: the
    /// right edge is filled with zero subtrees until one root of at least
    /// `min_height` is left.
    pub(crate) fn finish<R: Rule>(mut self, rule: &R, min_height: u32) -> (Option<Digest>, Vec<Digest>) {
        let root = if R::PADDED {
            loop {
                match self.stack.as_slice() {
                    [] => break None,
                    [(h, root)] if *h >= min_height => break Some(*root),
                    _ => {}
                }
                if let Some((h, top)) = self.stack.pop() {
                    let joined = rule.node(&top, &zero_hash(rule, h));
                    self.push(rule, h + 1, joined);
                }
            }
        } else {
            let mut subtrees = self.stack.iter().rev().map(|(_, hash)| *hash);
            subtrees
                .next()
                .map(|last| subtrees.fold(last, |acc, left| rule.node(&left, &acc)))
        };
        (root, self.record.map(|(_, layer)| layer).unwrap_or_default())
    }
}

/// Leaves hashed per call of the many-message SHA-256: enough to fill the
/// widest backend's lanes level after level inside a batch, few enough that
/// the hashes and slices of a batch stay in the L1 cache (~12 KiB).
const BATCH_LEAVES: usize = 256;

/// The hashes of leaves `range` into `out` (cleared first), in batches.
fn leaf_hashes<'a, R: Rule, L: Leaves + ?Sized>(
    rule: &R,
    leaves: &'a L,
    range: std::ops::Range<usize>,
    slices: &mut Vec<&'a [u8]>,
    out: &mut Vec<Digest>,
) {
    out.clear();
    out.resize(range.len(), [0; 32]);
    let mut at = 0;
    for start in range.clone().step_by(BATCH_LEAVES) {
        let end = (start + BATCH_LEAVES).min(range.end);
        slices.clear();
        slices.extend((start..end).map(|i| leaves.leaf(i)));
        rule.leaves(slices, &mut out[at..at + slices.len()]);
        at += slices.len();
    }
}

/// The sequential core for a partial block: hashes leaves `[start, end)`
/// (many at once) and merges them left to right.
fn subtree<R: Rule, L: Leaves + ?Sized>(rule: &R, leaves: &L, start: usize, end: usize) -> Frontier {
    let mut f = Frontier::default();
    let mut hashes = Vec::new();
    leaf_hashes(rule, leaves, start..end, &mut Vec::new(), &mut hashes);
    for h in hashes {
        f.push(rule, 0, h);
    }
    f
}

/// The roots of the full blocks `blocks` of `2^height` leaves each: a batch
/// of whole blocks at a time, its leaves hashed many at once, then each
/// level's pairs many at once, until one hash per block is left. (A full
/// block is a perfect subtree in both shapes, so its root is the same as
/// [`subtree`]'s.)
fn block_roots<R: Rule, L: Leaves + ?Sized>(
    rule: &R,
    leaves: &L,
    blocks: std::ops::Range<usize>,
    height: u32,
) -> Vec<Digest> {
    let per_block = 1usize << height;
    let batch = (BATCH_LEAVES >> height).max(1);
    let mut roots = Vec::with_capacity(blocks.len());
    let (mut slices, mut level, mut next) = (Vec::new(), Vec::new(), Vec::new());
    for first in blocks.clone().step_by(batch) {
        let last = (first + batch).min(blocks.end);
        leaf_hashes(
            rule,
            leaves,
            first * per_block..last * per_block,
            &mut slices,
            &mut level,
        );
        for _ in 0..height {
            next.clear();
            next.resize(level.len() / 2, [0; 32]);
            rule.nodes(&level, &mut next);
            std::mem::swap(&mut level, &mut next);
        }
        roots.extend_from_slice(&level);
    }
    roots
}

/// SHA-256 compressions worth one block: ~64 KiB of data, ~45 µs on one core.
/// Large enough that scheduling a block costs < 1% of hashing it.
const BLOCK_WORK: usize = 1024;
/// Compressions worth one part: ~256 KiB, so inputs from ~512 KiB run in
/// parallel (below that, waking the pool is more than 5% of the work).
const PART_WORK: usize = 4 * BLOCK_WORK;

/// SHA-256 compressions to hash a leaf of `leaf_bytes` and its share of nodes.
fn leaf_work(leaf_bytes: usize) -> usize {
    // Data plus prefix and padding, and about one two-compression node.
    leaf_bytes / 64 + 3
}

/// The block height for leaves of about `leaf_bytes` bytes: the smallest `h`
/// with `2^h` leaves worth [`BLOCK_WORK`] compressions.
fn block_height(leaf_bytes: usize) -> u32 {
    let mut h = 0;
    while (leaf_work(leaf_bytes) << h) < BLOCK_WORK {
        h += 1;
    }
    h
}

/// How blocks of `2^height` leaves of `leaf_bytes` are grouped into parts.
fn block_grain(leaf_bytes: usize, height: u32) -> Grain {
    let per_block = leaf_work(leaf_bytes).saturating_mul(1 << height);
    let blocks = PART_WORK.div_ceil(per_block).max(1);
    Grain {
        unit: 1,
        min_part: blocks,
        // A task holds at least 16 leaves, so that the many-message SHA-256
        // fills the widest backend's lanes (1 MiB Glacier chunks: 16 MiB
        // tasks); smaller inputs are still split evenly across threads.
        task: blocks.max(16 >> height.min(4)),
    }
}

/// The bytes [`Builder::add_filled`] fills and hashes at a time on one
/// thread: a quarter of a typical L2 cache (the chunk engine's run of
/// chunks), so a run is still cached when it is hashed...
const FILL_RUN: usize = 256 << 10;
/// ...and at least this many leaves, so that the many-message SHA-256
/// fills the widest backend's lanes (1 MiB Glacier chunks: 16 MiB runs, as
/// [`block_grain`]'s tasks).
const FILL_LEAVES: usize = 16;

/// A tree built from leaves given in order, in one or more calls, in bounded
/// memory: whole blocks of `2^height` leaves are hashed in parallel and only
/// their roots are kept.
#[derive(Debug)]
pub(crate) struct Builder<R> {
    rule: R,
    height: u32,
    grain: Grain,
    frontier: Frontier,
    blocks: u64,
    /// The last, partial block: its leaves' frontier, kept for
    /// [`Builder::finish`] because its padding depends on whether it is the
    /// only block.
    partial: Option<Frontier>,
}

impl<R: Rule> Builder<R> {
    /// A builder for leaves of about `leaf_bytes` bytes; `record` is a
    /// height whose nodes are kept (blocks are made no higher than it).
    pub(crate) fn new(rule: R, leaf_bytes: usize, record: Option<u32>) -> Self {
        let height = block_height(leaf_bytes).min(record.unwrap_or(u32::MAX));
        Builder {
            rule,
            height,
            grain: block_grain(leaf_bytes, height),
            frontier: Frontier::recording(record),
            blocks: 0,
            partial: None,
        }
    }

    /// The number of leaves in one block.
    pub(crate) fn block_leaves(&self) -> usize {
        1 << self.height
    }

    /// Adds the next leaves. Every call but the last must bring whole blocks.
    pub(crate) fn add<L: Leaves + ?Sized>(&mut self, leaves: &L, par: &Parallelism) {
        assert!(self.partial.is_none(), "leaves added after a partial block");
        let n = leaves.count();
        let block = self.block_leaves();
        let full = n / block;
        let rule = &self.rule;
        let height = self.height;
        let roots = par.map_range(full, &self.grain, |blocks| {
            block_roots(rule, leaves, blocks, height)
        });
        for root in roots.into_iter().flatten() {
            self.frontier.push(&self.rule, self.height, root);
        }
        self.blocks += full as u64;
        if n % block != 0 {
            self.partial = Some(subtree(&self.rule, leaves, full * block, n));
        }
    }

    /// [`Builder::add`] of the leaves of `leaf_size` bytes in `data`, whose
    /// bytes `fill(offset, part)` writes first (a file's positional reads):
    /// each thread fills a run of whole blocks ([`FILL_RUN`] bytes, at least
    /// [`FILL_LEAVES`] leaves) and hashes it while it is in that core's cache, then its
    /// next run — one pass over the bytes instead of a buffer read whole on
    /// every thread and then hashed. Same blocks, same roots, same order.
    /// Every call but the last must bring whole blocks.
    ///
    /// # Errors
    /// The first error of `fill`; the builder is then unusable.
    pub(crate) fn add_filled(
        &mut self,
        data: &mut [u8],
        leaf_size: usize,
        par: &Parallelism,
        fill: &crate::pipe::Fill<'_>,
    ) -> std::io::Result<()> {
        assert!(self.partial.is_none(), "leaves added after a partial block");
        // The caller checked that a block's bytes do not overflow.
        let block = leaf_size * self.block_leaves();
        let full = data.len() / block;
        let (whole, rest) = data.split_at_mut(full * block);
        let grain = Grain {
            unit: block,
            min_part: self.grain.min_part.saturating_mul(block),
            task: self.grain.task.saturating_mul(block),
        };
        let run_blocks = (FILL_RUN / block)
            .max(FILL_LEAVES.div_ceil(self.block_leaves()))
            .max(1);
        let run = run_blocks.saturating_mul(block);
        let (rule, height) = (&self.rule, self.height);
        let parts = par.map_mut(whole, &grain, |_, offset, part| -> std::io::Result<Vec<Digest>> {
            let mut roots = Vec::with_capacity(part.len() / block);
            for (i, piece) in part.chunks_mut(run).enumerate() {
                fill(offset + i * run, piece)?;
                let blocks = piece.len() / block;
                roots.extend(block_roots(
                    rule,
                    &Chunks::new(piece, leaf_size),
                    0..blocks,
                    height,
                ));
            }
            Ok(roots)
        });
        for roots in parts {
            for root in roots? {
                self.frontier.push(&self.rule, self.height, root);
            }
        }
        self.blocks += full as u64;
        if !rest.is_empty() {
            fill(full * block, rest)?;
            let leaves = Chunks::new(rest, leaf_size);
            self.partial = Some(subtree(&self.rule, &leaves, 0, leaves.count()));
        }
        Ok(())
    }

    /// The root (None for no leaves) and the recorded layer.
    pub(crate) fn finish(mut self) -> (Option<Digest>, Vec<Digest>) {
        if let Some(partial) = self.partial.take() {
            if self.blocks == 0 {
                // The only block: padded to the next power of two of its own
                // leaves, not to a whole block.
                return partial.finish(&self.rule, 0);
            }
            if let (Some(root), _) = partial.finish(&self.rule, self.height) {
                self.frontier.push(&self.rule, self.height, root);
            }
        }
        self.frontier.finish(&self.rule, 0)
    }
}

/// The root of `leaves` under `rule` (None without leaves).
pub(crate) fn root<R: Rule, L: Leaves + ?Sized>(rule: R, leaves: &L, par: &Parallelism) -> Option<Digest> {
    let mut b = Builder::new(rule, leaves.bytes() / leaves.count().max(1), None);
    b.add(leaves, par);
    b.finish().0
}

/// The ParalCrypto paper's method, for comparison only: all leaf hashes in
/// parallel, then each level's pairs in parallel, with a barrier between
/// levels. Same result as [`root`]; it holds every leaf hash in memory and
/// synchronizes once per level.
pub(crate) fn root_per_level<R: Rule, L: Leaves + ?Sized>(
    rule: R,
    leaves: &L,
    par: &Parallelism,
) -> Option<Digest> {
    let n = leaves.count();
    let leaf_grain = block_grain(leaves.bytes() / n.max(1), 0);
    let mut level: Vec<Digest> = par
        .map_range(n, &leaf_grain, |part| {
            let mut hashes = Vec::new();
            leaf_hashes(&rule, leaves, part, &mut Vec::new(), &mut hashes);
            hashes
        })
        .concat();
    let node_grain = block_grain(0, 0);
    let mut height = 0;
    while level.len() > 1 {
        let current = &level;
        let mut next: Vec<Digest> = par
            .map_range(level.len() / 2, &node_grain, |pairs| {
                let mut hashes = vec![[0; 32]; pairs.len()];
                rule.nodes(&current[2 * pairs.start..2 * pairs.end], &mut hashes);
                hashes
            })
            .concat();
        if let Some(odd) = (level.len() % 2 == 1).then(|| level[level.len() - 1]) {
            next.push(if R::PADDED {
                rule.node(&odd, &zero_hash(&rule, height))
            } else {
                odd
            });
        }
        level = next;
        height += 1;
    }
    level.first().copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::par::Strategy;

    struct Plain<const PAD: bool>;
    impl<const PAD: bool> Rule for Plain<PAD> {
        const PADDED: bool = PAD;
        const LEAF_PREFIX: &'static [u8] = b"L";
        const NODE_PREFIX: &'static [u8] = b"N";
    }

    /// The textbook definitions, recursive, for comparison.
    fn split_reference(rule: &impl Rule, leaves: &[Vec<u8>]) -> Option<Digest> {
        match leaves.len() {
            0 => None,
            1 => Some(rule.leaf(&leaves[0])),
            n => {
                let k = 1 << (usize::BITS - 1 - (n - 1).leading_zeros());
                let l = split_reference(rule, &leaves[..k])?;
                let r = split_reference(rule, &leaves[k..])?;
                Some(rule.node(&l, &r))
            }
        }
    }

    fn padded_reference(rule: &impl Rule, leaves: &[Vec<u8>]) -> (Option<Digest>, Vec<Vec<Digest>>) {
        if leaves.is_empty() {
            return (None, vec![]);
        }
        let mut level: Vec<Digest> = leaves.iter().map(|l| rule.leaf(l)).collect();
        level.resize(leaves.len().next_power_of_two(), [0; 32]);
        let mut levels = vec![level.clone()];
        while level.len() > 1 {
            level = level.chunks(2).map(|p| rule.node(&p[0], &p[1])).collect();
            levels.push(level.clone());
        }
        (Some(level[0]), levels)
    }

    fn leaves(n: usize) -> Vec<Vec<u8>> {
        (0..n).map(|i| vec![(i % 251) as u8; i % 7]).collect()
    }

    fn build<R: Rule>(
        rule: R,
        par: &Parallelism,
        leaves: &[Vec<u8>],
        h: u32,
        record: Option<u32>,
        cuts: usize,
    ) -> (Option<Digest>, Vec<Digest>) {
        let mut b = Builder::new(rule, 0, record);
        b.height = h;
        b.grain = Grain {
            unit: 1,
            min_part: 1,
            task: 1,
        };
        // Feed whole blocks in `cuts` calls, the rest in the last one.
        let block = 1 << h;
        let per_call = (leaves.len() / block / cuts.max(1)).max(1) * block;
        let mut start = 0;
        while leaves.len() - start > per_call {
            b.add(&leaves[start..start + per_call], par);
            start += per_call;
        }
        b.add(&leaves[start..], par);
        b.finish()
    }

    #[test]
    fn blocks_and_strategies_match_the_definitions() {
        // Every strategy on 1 to 8 threads; under emulation
        // (`crate::test_schedules`: the aarch64 run checks the hash backend,
        // the native run this schedule logic) a cross-section of three (it
        // was a fifth of the emulated unit tests' time on all three
        // strategies on 2, 3 and 8).
        let schedules = crate::test_schedules(8);
        for n in 0..=70 {
            let l = leaves(n);
            let want_split = split_reference(&Plain::<false>, &l);
            let (want_pad, levels) = padded_reference(&Plain::<true>, &l);
            for h in 0..=3 {
                for &par in &schedules {
                    for cuts in [1, 3] {
                        let (got, _) = build(Plain::<false>, &par, &l, h, None, cuts);
                        assert_eq!(got, want_split, "split n={n} h={h} {par:?} cuts={cuts}");
                        for record in h..=h + 2 {
                            let (got, layer) = build(Plain::<true>, &par, &l, h, Some(record), cuts);
                            assert_eq!(got, want_pad, "padded n={n} h={h} {par:?}");
                            // Recorded nodes are the data-covering prefix of that level.
                            if let Some(level) = levels.get(record as usize) {
                                let covering = n.div_ceil(1 << record);
                                if n > 1 << h {
                                    assert_eq!(layer, level[..covering], "layer n={n} h={h} r={record}");
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn per_level_matches() {
        for n in [0, 1, 2, 3, 5, 17, 64, 65, 1000] {
            let l = leaves(n);
            for strategy in Strategy::ALL {
                let par = Parallelism::new(3, strategy);
                assert_eq!(
                    root_per_level(Plain::<false>, &l[..], &par),
                    split_reference(&Plain::<false>, &l)
                );
                assert_eq!(
                    root_per_level(Plain::<true>, &l[..], &par),
                    padded_reference(&Plain::<true>, &l).0
                );
            }
        }
    }

    #[test]
    fn block_height_targets_64_kib() {
        assert_eq!(block_height(4096), 4);
        assert_eq!(block_height(16 * 1024), 2);
        assert_eq!(block_height(1 << 20), 0);
        assert_eq!(block_height(32), 9);
    }
}
