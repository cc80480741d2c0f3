//! Compact ranges: a tree built piece by piece, on several threads,
//! processes or machines, with the same root as building it in one place.
//!
//! A [`CompactRange`] over leaves `[begin, end)` holds the roots of the
//! aligned power-of-two subtrees that cover the range, left to right (at most
//! two per level: ≤ 128 hashes, a few KiB serialized). Adjacent ranges
//! [`merge`](CompactRange::merge) exactly; a range from leaf 0 gives the
//! format's [`root`](CompactRange::root). This is transparency-dev's
//! `compact.Range`, for the three formats the engine knows ([`Tree`]):
//!
//! - RFC 6962 / 9162 (leaves of any size, `0x00`/`0x01` prefixes),
//! - BitTorrent v2 (16 KiB blocks, zero-padded perfect tree: the root pads
//!   the last subtrees with zero hashes),
//! - Glacier (1 MiB chunks, no prefixes; its level-by-level pairing gives
//!   the same shape as RFC 6962's split at the largest power of two).
//!
//! The format-specific ways of hashing a tree in parts live with their
//! format: BitTorrent v2's piece layers ([`BitTorrentV2::piece_hashes`],
//! [`BitTorrentV2::root_from_pieces`]) and RFC 6962 audit paths among
//! subtree roots ([`Rfc6962::subtree_path`]).
//!
//! - `tree.rs`: [`Tree`], the formats and their names;
//! - `range.rs`: [`CompactRange`], building, merging and the root;
//! - `bytes.rs`: its serialized form (`PCR1`);
//! - `file.rs`: the range of a byte range of a file, read through the
//!   crate's pipeline ([`CompactRange::from_file_range`]).
//!
//! [`BitTorrentV2::piece_hashes`]: super::BitTorrentV2::piece_hashes
//! [`BitTorrentV2::root_from_pieces`]: super::BitTorrentV2::root_from_pieces
//! [`Rfc6962::subtree_path`]: super::Rfc6962::subtree_path
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
//! assert_eq!(whole.root()?, Rfc6962::root(&leaves[..], &par));
//! # Ok::<(), parcrypt::merkle::Error>(())
//! ```

mod bytes;
mod file;
mod range;
mod tree;

pub use range::CompactRange;
pub use tree::Tree;
