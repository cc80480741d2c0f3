//! [`CompactRange`]: the roots of the aligned subtrees covering a run of
//! leaves — built from leaves or leaf hashes, extended subtree by subtree,
//! merged with its right neighbour, and folded into the tree's root.

use std::fmt;

use super::super::bittorrent::BitTorrentV2;
use super::super::engine::{self, Chunks, Leaves, Slice, empty_root};
use super::Tree;
use crate::digest::Digest;
use crate::merkle::Error;
use crate::par::Parallelism;

/// The roots of the aligned subtrees covering leaves `[begin, end)`.
#[derive(Clone, PartialEq, Eq)]
pub struct CompactRange {
    pub(super) tree: Tree,
    pub(super) begin: u64,
    pub(super) end: u64,
    /// One per block of [`blocks`]`(begin, end)`, left to right.
    pub(super) hashes: Vec<Digest>,
}

impl fmt::Debug for CompactRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "CompactRange({}[{}, {}), {} hashes)",
            self.tree,
            self.begin,
            self.end,
            self.hashes.len()
        )
    }
}

/// The aligned blocks covering `[begin, end)`: `(first leaf, log2 size)`,
/// left to right — each as large as its start's alignment and the end allow.
pub(super) fn blocks(begin: u64, end: u64) -> Vec<(u64, u32)> {
    let mut out = Vec::new();
    let mut at = begin;
    while at < end {
        let mut k = if at == 0 { 63 } else { at.trailing_zeros() };
        while k > 0 && (1u64 << k) > end - at {
            k -= 1;
        }
        out.push((at, k));
        at += 1u64 << k;
    }
    out
}

impl CompactRange {
    /// The empty range at leaf `at` (the identity for merging there).
    pub fn empty(tree: Tree, at: u64) -> CompactRange {
        CompactRange {
            tree,
            begin: at,
            end: at,
            hashes: Vec::new(),
        }
    }

    /// The range of `leaves`, which are leaves `begin ..` of the whole tree
    /// (for BitTorrent v2 and Glacier: the file's 16 KiB blocks or 1 MiB
    /// chunks, e.g. [`Chunks`] of a part starting at a leaf boundary).
    /// Each block is hashed by the engine under `par`.
    pub fn from_leaves<L: Leaves + ?Sized>(
        tree: Tree,
        begin: u64,
        leaves: &L,
        par: &Parallelism,
    ) -> CompactRange {
        let end = begin + leaves.count() as u64;
        let hashes = blocks(begin, end)
            .into_iter()
            .map(|(start, k)| {
                let from = (start - begin) as usize;
                let slice = Slice {
                    inner: leaves,
                    start: from,
                    end: from + (1usize << k),
                };
                tree.block_root(&slice, par)
            })
            .collect();
        CompactRange {
            tree,
            begin,
            end,
            hashes,
        }
    }

    /// The range of a part of a file's bytes starting at byte `offset`, which
    /// must be a multiple of the format's leaf size (`leaf_size` for RFC 6962).
    ///
    /// # Panics
    /// If `offset` is not leaf-aligned or `leaf_size` is 0.
    pub fn from_bytes_at(
        tree: Tree,
        leaf_size: usize,
        offset: u64,
        data: &[u8],
        par: &Parallelism,
    ) -> CompactRange {
        let size = tree.leaf_size().unwrap_or(leaf_size);
        assert!(
            size > 0 && offset % size as u64 == 0,
            "offset must be leaf-aligned"
        );
        CompactRange::from_leaves(tree, offset / size as u64, &Chunks::new(data, size), par)
    }

    /// The range of leaf hashes computed elsewhere (RFC 6962 leaf hashes are
    /// `SHA-256(0x00 ‖ leaf)`; the others `SHA-256(leaf)`), leaves `begin ..`.
    pub fn from_leaf_hashes(tree: Tree, begin: u64, hashes: &[Digest]) -> CompactRange {
        let end = begin + hashes.len() as u64;
        let roots = blocks(begin, end)
            .into_iter()
            .map(|(start, k)| {
                let from = (start - begin) as usize;
                tree.perfect_root(hashes[from..from + (1usize << k)].to_vec())
            })
            .collect();
        CompactRange {
            tree,
            begin,
            end,
            hashes: roots,
        }
    }

    /// The format.
    pub fn tree(&self) -> Tree {
        self.tree
    }

    /// The first leaf covered.
    pub fn begin(&self) -> u64 {
        self.begin
    }

    /// One past the last leaf covered.
    pub fn end(&self) -> u64 {
        self.end
    }

    /// The subtree roots, left to right, with the leaves each covers
    /// (`(first leaf, leaf count, root)`).
    pub fn subtrees(&self) -> Vec<(u64, u64, Digest)> {
        blocks(self.begin, self.end)
            .into_iter()
            .zip(&self.hashes)
            .map(|((start, k), h)| (start, 1u64 << k, *h))
            .collect()
    }

    /// Extends the range by the root of the subtree of `2^height` leaves
    /// that starts where the range ends (a leaf hash for height 0): how a
    /// tree read in order, whole subtrees at a time, keeps its range.
    ///
    /// # Errors
    /// [`Error::Misaligned`] unless the range ends on a multiple of
    /// `2^height` (then it is not a subtree of the tree), or if the range
    /// would pass 2^64 leaves.
    pub fn push(&mut self, height: u32, root: Digest) -> Result<(), Error> {
        let misaligned = || Error::Misaligned { at: self.end, height };
        let size = 1u64.checked_shl(height).ok_or_else(misaligned)?;
        let end = self.end.checked_add(size).ok_or_else(misaligned)?;
        if self.end % size != 0 {
            return Err(misaligned());
        }
        let subtree = CompactRange {
            tree: self.tree,
            begin: self.end,
            end,
            hashes: vec![root],
        };
        *self = self.merge(&subtree)?;
        Ok(())
    }

    /// This range followed by `right`, which must start where this one ends.
    ///
    /// # Errors
    /// [`Error::NotAdjacent`].
    pub fn merge(&self, right: &CompactRange) -> Result<CompactRange, Error> {
        if self.tree != right.tree || self.end != right.begin {
            return Err(Error::NotAdjacent {
                left: format!("{}[{}, {})", self.tree, self.begin, self.end),
                right: format!("{}[{}, {})", right.tree, right.begin, right.end),
            });
        }
        let mut stack: Vec<(u64, u32, Digest)> = self.subtrees_log2();
        for block in right.subtrees_log2() {
            stack.push(block);
            // Two equal blocks that are the halves of an aligned block merge.
            while let [.., (s1, k1, h1), (s2, k2, h2)] = stack[..] {
                if k1 != k2 || s1 % (2u64 << k1) != 0 || s1 + (1u64 << k1) != s2 {
                    break;
                }
                stack.truncate(stack.len() - 2);
                stack.push((s1, k1 + 1, self.tree.node(&h1, &h2)));
            }
        }
        let merged = CompactRange {
            tree: self.tree,
            begin: self.begin,
            end: right.end,
            hashes: stack.iter().map(|b| b.2).collect(),
        };
        debug_assert_eq!(
            stack.iter().map(|b| (b.0, b.1)).collect::<Vec<_>>(),
            blocks(merged.begin, merged.end),
            "merged blocks are the canonical cover"
        );
        Ok(merged)
    }

    fn subtrees_log2(&self) -> Vec<(u64, u32, Digest)> {
        blocks(self.begin, self.end)
            .into_iter()
            .zip(&self.hashes)
            .map(|((s, k), h)| (s, k, *h))
            .collect()
    }

    /// The tree's root; SHA-256 of nothing for no leaves, in every format
    /// (the rule of [`crate::merkle`]).
    ///
    /// # Errors
    /// [`Error::NotFromStart`] unless the range starts at leaf 0.
    pub fn root(&self) -> Result<Digest, Error> {
        if self.begin != 0 {
            return Err(Error::NotFromStart(self.begin));
        }
        let Some(&last) = self.hashes.last() else {
            return Ok(empty_root());
        };
        let blocks = self.subtrees_log2();
        if self.tree != Tree::BitTorrentV2 {
            // Blocks from 0 shrink left to right: fold from the right.
            let root = blocks[..blocks.len() - 1]
                .iter()
                .rev()
                .fold(last, |acc, (_, _, h)| self.tree.node(h, &acc));
            return Ok(root);
        }
        // BitTorrent v2: the right part is padded with zero subtrees up to the
        // size of the block on its left, and the whole to a power of two.
        let (_, mut k, mut acc) = blocks[blocks.len() - 1];
        for &(_, kb, h) in blocks[..blocks.len() - 1].iter().rev() {
            while k < kb {
                acc = self.tree.node(&acc, &engine::zero_hash(&BitTorrentV2, k));
                k += 1;
            }
            acc = self.tree.node(&h, &acc);
            k = kb + 1;
        }
        Ok(acc)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::merkle::{Glacier, Rfc6962};

    fn data(n: usize) -> Vec<u8> {
        (0..n).map(|i| (i % 251) as u8).collect()
    }

    #[test]
    fn blocks_cover_exactly_with_aligned_powers_of_two() {
        for begin in 0..40u64 {
            for end in begin..80 {
                let b = blocks(begin, end);
                let mut at = begin;
                for (s, k) in &b {
                    assert_eq!(*s, at);
                    assert_eq!(s % (1 << k), 0);
                    at += 1 << k;
                }
                assert_eq!(at, end);
                assert!(b.len() <= 2 * 64);
            }
        }
    }

    #[test]
    fn merged_ranges_give_the_engines_root_for_every_format() {
        let par = Parallelism::new(2, crate::par::Strategy::WorkStealing);
        let leaves: Vec<Vec<u8>> = (0..70u32).map(|i| data(i as usize % 40)).collect();
        for tree in [Tree::Rfc6962, Tree::BitTorrentV2, Tree::Glacier] {
            for n in [0usize, 1, 2, 3, 5, 8, 13, 32, 33, 70] {
                let whole = match tree {
                    Tree::Rfc6962 => Rfc6962::root(&leaves[..n], &par),
                    Tree::BitTorrentV2 => {
                        engine::root(BitTorrentV2, &leaves[..n], &par).unwrap_or_else(empty_root)
                    }
                    Tree::Glacier => engine::root(Glacier, &leaves[..n], &par).unwrap_or_else(empty_root),
                };
                for cut in 0..=n {
                    let a = CompactRange::from_leaves(tree, 0, &leaves[..cut], &par);
                    let b = CompactRange::from_leaves(tree, cut as u64, &leaves[cut..n], &par);
                    let b = CompactRange::from_bytes(&b.to_bytes()).expect("round trip");
                    let m = a.merge(&b).expect("adjacent");
                    assert_eq!(
                        m,
                        CompactRange::from_leaves(tree, 0, &leaves[..n], &par),
                        "{tree} n={n} cut={cut}"
                    );
                    assert_eq!(m.root().expect("from 0"), whole, "{tree} n={n} cut={cut}");
                }
            }
        }
    }

    #[test]
    fn leaf_hashes_give_the_same_ranges() {
        let par = Parallelism::sequential();
        let leaves: Vec<Vec<u8>> = (0..37u32).map(|i| i.to_be_bytes().to_vec()).collect();
        let rfc: Vec<Digest> = leaves.iter().map(|l| Rfc6962::leaf_hash(l)).collect();
        assert_eq!(
            CompactRange::from_leaf_hashes(Tree::Rfc6962, 5, &rfc[5..]),
            CompactRange::from_leaves(Tree::Rfc6962, 5, &leaves[5..], &par)
        );
        let plain: Vec<Digest> = leaves.iter().map(|l| crate::digest::sha256(l)).collect();
        assert_eq!(
            CompactRange::from_leaf_hashes(Tree::Glacier, 3, &plain[3..30]),
            CompactRange::from_leaves(Tree::Glacier, 3, &leaves[3..30], &par)
        );
    }

    #[test]
    fn pushed_subtrees_give_the_ranges_of_their_leaves() {
        let par = Parallelism::sequential();
        let leaves: Vec<Vec<u8>> = (0..600u32).map(|i| data(i as usize % 9)).collect();
        let hashes: Vec<Digest> = leaves.iter().map(|l| Rfc6962::leaf_hash(l)).collect();
        for n in [0usize, 1, 2, 3, 5, 255, 256, 257, 600] {
            // Whole subtrees of 256 leaves while they fit, then leaf by leaf.
            let mut range = CompactRange::empty(Tree::Rfc6962, 0);
            let mut i = 0;
            while i + 256 <= n {
                let root = Rfc6962::root(&leaves[i..i + 256], &par);
                range.push(8, root).expect("aligned");
                i += 256;
            }
            for h in &hashes[i..n] {
                range.push(0, *h).expect("a leaf is always aligned");
            }
            assert_eq!(
                range,
                CompactRange::from_leaves(Tree::Rfc6962, 0, &leaves[..n], &par),
                "{n}"
            );
            assert_eq!(
                range.root().unwrap(),
                Rfc6962::root(&leaves[..n], &par),
                "{n} leaves"
            );
        }
        let mut range = CompactRange::empty(Tree::Rfc6962, 3);
        assert!(matches!(
            range.push(1, [0; 32]),
            Err(Error::Misaligned { at: 3, height: 1 })
        ));
        assert!(matches!(
            range.push(64, [0; 32]),
            Err(Error::Misaligned { at: 3, height: 64 })
        ));
        assert_eq!(range, CompactRange::empty(Tree::Rfc6962, 3));
    }
}
