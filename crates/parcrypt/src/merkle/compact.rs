//! Compact ranges: a tree built piece by piece, on several threads,
//! processes or machines, with the same root as building it in one place.
//!
//! A [`CompactRange`] over leaves `[begin, end)` holds the roots of the
//! aligned power-of-two subtrees that cover the range, left to right (at most
//! two per level: ≤ 128 hashes, a few KiB serialized). Adjacent ranges
//! [`merge`](CompactRange::merge) exactly; a range from leaf 0 gives the
//! format's [`root`](CompactRange::root). This is transparency-dev's
//! `compact.Range`, for the three formats the engine knows:
//!
//! - RFC 6962 / 9162 (leaves of any size, `0x00`/`0x01` prefixes),
//! - BitTorrent v2 (16 KiB blocks, zero-padded perfect tree: the root pads
//!   the last subtrees with zero hashes),
//! - Glacier (1 MiB chunks, no prefixes; its level-by-level pairing gives
//!   the same shape as RFC 6962's split at the largest power of two).
//!
//! For BitTorrent v2's `piece layers`, [`bittorrent_piece_hashes`] hashes
//! whole pieces of a piece-aligned part of a file and
//! [`bittorrent_root_from_pieces`] finishes the tree from them.
//!
//! # Examples
//! ```
//! use parcrypt::merkle::compact::{CompactRange, Tree};
//! use parcrypt::merkle::Rfc6962;
//! use parcrypt::par::Parallelism;
//!
//! let par = Parallelism::default();
//! let leaves: Vec<Vec<u8>> = (0..1000u32).map(|i| i.to_be_bytes().to_vec()).collect();
//! // Two workers, each with a part; the ranges travel as bytes.
//! let left = CompactRange::from_leaves(Tree::Rfc6962, 0, &leaves[..600], &par);
//! let right = CompactRange::from_leaves(Tree::Rfc6962, 600, &leaves[600..], &par);
//! let right = CompactRange::from_bytes(&right.to_bytes())?;
//! let whole = left.merge(&right)?;
//! assert_eq!(whole.root()?, Some(Rfc6962::root(&leaves[..], &par)));
//! # Ok::<(), parcrypt::merkle::compact::Error>(())
//! ```

use crate::digest::Digest;
use std::fmt;
use std::str::FromStr;

use super::bittorrent::BitTorrentV2;
use super::engine::{self, Chunks, Leaves, Rule, Slice, sha256};
use super::glacier::Glacier;
use super::rfc6962::Rfc6962;
use crate::name::UnknownName;
use crate::par::Parallelism;

/// The tree formats a compact range can build.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tree {
    /// RFC 6962 / 9162.
    Rfc6962,
    /// BitTorrent v2 (BEP 52) per-file tree over 16 KiB blocks.
    BitTorrentV2,
    /// The Amazon Glacier tree hash over 1 MiB chunks.
    Glacier,
}

impl Tree {
    /// The name used by the CLI's `--format`: `rfc6962`, `bittorrent-v2`, `glacier`.
    pub fn name(self) -> &'static str {
        match self {
            Tree::Rfc6962 => "rfc6962",
            Tree::BitTorrentV2 => "bittorrent-v2",
            Tree::Glacier => "glacier",
        }
    }

    /// The leaf size in bytes for the formats that fix it (16 KiB, 1 MiB).
    pub fn leaf_size(self) -> Option<usize> {
        match self {
            Tree::Rfc6962 => None,
            Tree::BitTorrentV2 => Some(BitTorrentV2::BLOCK),
            Tree::Glacier => Some(Glacier::CHUNK),
        }
    }

    fn code(self) -> u8 {
        match self {
            Tree::Rfc6962 => 1,
            Tree::BitTorrentV2 => 2,
            Tree::Glacier => 3,
        }
    }

    fn from_code(code: u8) -> Option<Tree> {
        [Tree::Rfc6962, Tree::BitTorrentV2, Tree::Glacier]
            .into_iter()
            .find(|t| t.code() == code)
    }

    fn node(self, left: &Digest, right: &Digest) -> Digest {
        match self {
            Tree::Rfc6962 => Rfc6962.node(left, right),
            Tree::BitTorrentV2 => BitTorrentV2.node(left, right),
            Tree::Glacier => Glacier.node(left, right),
        }
    }

    fn perfect_root(self, level: Vec<Digest>) -> Digest {
        match self {
            Tree::Rfc6962 => engine::perfect_root(&Rfc6962, level),
            Tree::BitTorrentV2 => engine::perfect_root(&BitTorrentV2, level),
            Tree::Glacier => engine::perfect_root(&Glacier, level),
        }
    }

    fn block_root<L: Leaves + ?Sized>(self, leaves: &L, par: &Parallelism) -> Digest {
        let root = match self {
            Tree::Rfc6962 => engine::root(Rfc6962, leaves, par),
            Tree::BitTorrentV2 => engine::root(BitTorrentV2, leaves, par),
            Tree::Glacier => engine::root(Glacier, leaves, par),
        };
        root.expect("a block has at least one leaf")
    }
}

impl fmt::Display for Tree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Tree {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "rfc6962" | "rfc9162" => Ok(Tree::Rfc6962),
            "bittorrent-v2" | "bittorrent" | "bep52" => Ok(Tree::BitTorrentV2),
            "glacier" => Ok(Tree::Glacier),
            other => Err(UnknownName::new(
                "tree format",
                other,
                "rfc6962, bittorrent-v2 or glacier",
            )),
        }
    }
}

/// What can go wrong with compact ranges.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Merging ranges that are not adjacent or not of the same format.
    #[error("cannot merge {left} with {right}: ranges must be adjacent and of the same format")]
    NotAdjacent {
        /// The left range, as `format[begin, end)`.
        left: String,
        /// The right range.
        right: String,
    },
    /// A root asked of a range that does not start at leaf 0.
    #[error("the range starts at leaf {0}: only a range from leaf 0 has a root")]
    NotFromStart(u64),
    /// Bytes that are not a serialized compact range.
    #[error("malformed compact range: {0}")]
    Malformed(&'static str),
    /// A BitTorrent v2 piece length that is not a power of two ≥ 16 KiB.
    #[error("piece length {0} is not a power of two of at least 16384 bytes")]
    PieceLength(u64),
}

/// The roots of the aligned subtrees covering leaves `[begin, end)`.
#[derive(Clone, PartialEq, Eq)]
pub struct CompactRange {
    tree: Tree,
    begin: u64,
    end: u64,
    /// One per block of [`blocks`]`(begin, end)`, left to right.
    hashes: Vec<Digest>,
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
fn blocks(begin: u64, end: u64) -> Vec<(u64, u32)> {
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

/// The magic and version of a serialized range.
const MAGIC: &[u8; 4] = b"PCR1";
/// Serialized header: magic, format, begin, end, count.
const HEADER: usize = 4 + 1 + 8 + 8 + 1;

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

    /// The tree's root: RFC 6962 and Glacier give SHA-256 of nothing for no
    /// leaves; BitTorrent v2 gives None for an empty file (BEP 52 has no root
    /// then).
    ///
    /// # Errors
    /// [`Error::NotFromStart`] unless the range starts at leaf 0.
    pub fn root(&self) -> Result<Option<Digest>, Error> {
        if self.begin != 0 {
            return Err(Error::NotFromStart(self.begin));
        }
        let Some(&last) = self.hashes.last() else {
            return Ok(match self.tree {
                Tree::BitTorrentV2 => None,
                Tree::Rfc6962 | Tree::Glacier => Some(sha256(&[])),
            });
        };
        let blocks = self.subtrees_log2();
        if self.tree != Tree::BitTorrentV2 {
            // Blocks from 0 shrink left to right: fold from the right.
            let root = blocks[..blocks.len() - 1]
                .iter()
                .rev()
                .fold(last, |acc, (_, _, h)| self.tree.node(h, &acc));
            return Ok(Some(root));
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
        Ok(Some(acc))
    }

    /// The range as bytes (`PCR1`, format, begin, end, count, hashes): at
    /// most 22 + 128 × 32 bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + 32 * self.hashes.len());
        out.extend_from_slice(MAGIC);
        out.push(self.tree.code());
        out.extend_from_slice(&self.begin.to_be_bytes());
        out.extend_from_slice(&self.end.to_be_bytes());
        out.push(self.hashes.len() as u8);
        for h in &self.hashes {
            out.extend_from_slice(h);
        }
        out
    }

    /// A range from [`CompactRange::to_bytes`].
    ///
    /// # Errors
    /// [`Error::Malformed`] for anything else (wrong length, magic, format,
    /// `begin > end`, or a hash count that does not fit the range).
    pub fn from_bytes(bytes: &[u8]) -> Result<CompactRange, Error> {
        if bytes.len() < HEADER || &bytes[..4] != MAGIC {
            return Err(Error::Malformed("no PCR1 header"));
        }
        let tree = Tree::from_code(bytes[4]).ok_or(Error::Malformed("unknown format"))?;
        let word = |at: usize| u64::from_be_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
        let (begin, end) = (word(5), word(13));
        let count = bytes[21] as usize;
        if begin > end {
            return Err(Error::Malformed("begin after end"));
        }
        if bytes.len() != HEADER + 32 * count {
            return Err(Error::Malformed("length does not match the hash count"));
        }
        if blocks(begin, end).len() != count {
            return Err(Error::Malformed("hash count does not match the range"));
        }
        let hashes = bytes[HEADER..]
            .chunks_exact(32)
            .map(|c| c.try_into().expect("32 bytes"))
            .collect();
        Ok(CompactRange {
            tree,
            begin,
            end,
            hashes,
        })
    }
}

/// The RFC 6962 audit path (RFC 9162 §2.1.3.1) of item `index` in a tree
/// whose lowest nodes are `nodes` (subtree roots, not leaves: they are not
/// hashed again).
///
/// With the leaves cut into parts of `2^j` leaves (the last may be
/// shorter), every part is a node of the RFC 6962 tree, so a leaf's global
/// path is its path inside its part (`Rfc6962::inclusion_proof` over the
/// part) followed by this path of the part among the parts' roots — what
/// a cluster computes without gathering the leaves.
///
/// # Panics
/// If `index` is not below `nodes.len()`.
pub fn rfc6962_path(nodes: &[Digest], index: usize) -> Vec<Digest> {
    assert!(index < nodes.len(), "index outside the nodes");
    /// The largest power of two below `n` (n ≥ 2): RFC 6962's split.
    fn split(n: usize) -> usize {
        1 << (usize::BITS - 1 - (n - 1).leading_zeros())
    }
    fn mth(nodes: &[Digest]) -> Digest {
        if nodes.len() == 1 {
            return nodes[0];
        }
        let k = split(nodes.len());
        Rfc6962.node(&mth(&nodes[..k]), &mth(&nodes[k..]))
    }
    fn path(nodes: &[Digest], m: usize, out: &mut Vec<Digest>) {
        if nodes.len() <= 1 {
            return;
        }
        let k = split(nodes.len());
        if m < k {
            path(&nodes[..k], m, out);
            out.push(mth(&nodes[k..]));
        } else {
            path(&nodes[k..], m - k, out);
            out.push(mth(&nodes[..k]));
        }
    }
    let mut out = Vec::new();
    path(nodes, index, &mut out);
    out
}

fn piece_leaves(piece_length: u64) -> Result<u32, Error> {
    if !piece_length.is_power_of_two() || piece_length < BitTorrentV2::BLOCK as u64 {
        return Err(Error::PieceLength(piece_length));
    }
    Ok((piece_length / BitTorrentV2::BLOCK as u64).trailing_zeros())
}

/// BitTorrent v2 `piece layers` entries of a part of a file that starts at a
/// piece boundary: one hash per piece of `piece_length` bytes (the last may
/// be short: its subtree is padded with zero hashes to a full piece, as in
/// the file's own tree). Concatenating the parts' layers in order gives the
/// file's piece layer, for files longer than one piece.
///
/// # Errors
/// [`Error::PieceLength`].
pub fn bittorrent_piece_hashes(
    data: &[u8],
    piece_length: u64,
    par: &Parallelism,
) -> Result<Vec<Digest>, Error> {
    let k = piece_leaves(piece_length)?;
    let piece = piece_length as usize;
    let count = data.len().div_ceil(piece);
    Ok(par
        .map_range(
            count,
            &crate::par::Grain {
                unit: 1,
                min_part: 1,
                task: 1,
            },
            |range| {
                range
                    .map(|i| {
                        let part = &data[i * piece..((i + 1) * piece).min(data.len())];
                        let leaves = Chunks::new(part, BitTorrentV2::BLOCK);
                        let mut acc = Tree::BitTorrentV2.block_root(&leaves, &Parallelism::sequential());
                        // The engine pads to the next power of two of this piece's
                        // blocks; a short last piece pads on up to the piece's size.
                        let mut have = leaves.count().next_power_of_two().trailing_zeros();
                        while have < k {
                            acc = BitTorrentV2.node(&acc, &engine::zero_hash(&BitTorrentV2, have));
                            have += 1;
                        }
                        acc
                    })
                    .collect::<Vec<_>>()
            },
        )
        .concat())
}

/// The BitTorrent v2 `pieces root` of a file longer than one piece, from its
/// piece layer (see [`bittorrent_piece_hashes`]): the layer padded with
/// zero-piece subtrees to a power of two, then folded.
///
/// # Errors
/// [`Error::PieceLength`]; for a file of at most one piece the root is not
/// determined by its single piece hash (BEP 52 pads such a file only to its
/// own size): hash it whole instead, [`Error::Malformed`] then.
pub fn bittorrent_root_from_pieces(layer: &[Digest], piece_length: u64) -> Result<Digest, Error> {
    let k = piece_leaves(piece_length)?;
    if layer.len() < 2 {
        return Err(Error::Malformed(
            "a file of one piece or less: hash it whole (its root pads to its own size)",
        ));
    }
    // Padded with zero-piece hashes to a power of two.
    let mut level = layer.to_vec();
    level.resize(
        layer.len().next_power_of_two(),
        engine::zero_hash(&BitTorrentV2, k),
    );
    Ok(engine::perfect_root(&BitTorrentV2, level))
}

#[cfg(test)]
mod tests {
    use super::*;

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
                    Tree::Rfc6962 => Some(Rfc6962::root(&leaves[..n], &par)),
                    Tree::BitTorrentV2 => engine::root(BitTorrentV2, &leaves[..n], &par),
                    Tree::Glacier => {
                        Some(engine::root(Glacier, &leaves[..n], &par).unwrap_or_else(|| sha256(&[])))
                    }
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
        let plain: Vec<Digest> = leaves.iter().map(|l| sha256(&[l])).collect();
        assert_eq!(
            CompactRange::from_leaf_hashes(Tree::Glacier, 3, &plain[3..30]),
            CompactRange::from_leaves(Tree::Glacier, 3, &leaves[3..30], &par)
        );
    }

    #[test]
    fn bittorrent_piece_layers_and_roots_match_the_file_tree() {
        let par = Parallelism::new(3, crate::par::Strategy::WorkStealing);
        let piece = 32 * 1024u64;
        for size in [32 * 1024 + 1, 100_000, 5 * 32 * 1024, 300_001] {
            let file = data(size);
            let expected = BitTorrentV2::hash(&file, piece, &par).expect("piece length");
            // Two parts cut at a piece boundary.
            let cut = 2 * piece as usize;
            let mut layer = bittorrent_piece_hashes(&file[..cut.min(size)], piece, &par).expect("ok");
            layer.extend(bittorrent_piece_hashes(&file[cut.min(size)..], piece, &par).expect("ok"));
            assert_eq!(layer, expected.piece_layer, "size {size}");
            assert_eq!(
                Some(bittorrent_root_from_pieces(&layer, piece).expect("ok")),
                expected.pieces_root
            );
        }
        assert!(bittorrent_root_from_pieces(&[[0; 32]], piece).is_err());
        assert_eq!(
            bittorrent_piece_hashes(b"x", 1000, &par),
            Err(Error::PieceLength(1000))
        );
    }

    #[test]
    fn a_global_audit_path_is_the_parts_path_then_the_path_among_parts() {
        let par = Parallelism::sequential();
        let leaves: Vec<Vec<u8>> = (0..77u32).map(|i| i.to_le_bytes().to_vec()).collect();
        for n in [1usize, 2, 3, 4, 5, 8, 9, 16, 17, 31, 64, 77] {
            for j in 0..5u32 {
                let part = 1usize << j;
                let parts: Vec<&[Vec<u8>]> = leaves[..n].chunks(part).collect();
                let roots: Vec<Digest> = parts.iter().map(|p| Rfc6962::root(*p, &par)).collect();
                assert_eq!(rfc6962_path(&roots, 0).is_empty(), roots.len() == 1);
                for m in 0..n {
                    let mut proof =
                        Rfc6962::inclusion_proof(parts[m / part], (m % part) as u64, &par).expect("in part");
                    proof.extend(rfc6962_path(&roots, m / part));
                    let expected = Rfc6962::inclusion_proof(&leaves[..n], m as u64, &par).expect("in tree");
                    assert_eq!(proof, expected, "n={n} j={j} m={m}");
                }
            }
        }
    }

    #[test]
    fn hostile_bytes_and_misuse_are_errors() {
        let par = Parallelism::sequential();
        let r = CompactRange::from_leaves(Tree::Rfc6962, 3, &[b"a", b"b"][..], &par);
        let bytes = r.to_bytes();
        for cut in 0..bytes.len() {
            assert!(CompactRange::from_bytes(&bytes[..cut]).is_err());
        }
        let mut wrong = bytes.clone();
        wrong[21] += 1;
        assert!(CompactRange::from_bytes(&wrong).is_err());
        assert_eq!(r.root(), Err(Error::NotFromStart(3)));
        let other = CompactRange::empty(Tree::Glacier, 5);
        assert!(matches!(r.merge(&other), Err(Error::NotAdjacent { .. })));
        assert!(matches!(
            r.merge(&CompactRange::empty(Tree::Rfc6962, 4)),
            Err(Error::NotAdjacent { .. })
        ));
        assert_eq!(r.merge(&CompactRange::empty(Tree::Rfc6962, 5)), Ok(r.clone()));
    }
}
