//! SHA-256 Merkle trees in the formats people verify against, hashed on all
//! cores.
//!
//! - [`Rfc6962`]: Certificate Transparency / RFC 9162 tree heads, inclusion
//!   and consistency proofs and their verification.
//! - [`BitTorrentV2`]: BEP 52 `pieces root` and `piece layers`.
//! - [`Glacier`]: the Amazon S3 Glacier tree hash.
//! - [`hash_reader`]: any [`Format`] (and plain SHA-256) of a file or pipe in
//!   bounded memory.
//! - [`tiles`]: check ([`tiles::verify`]) or rebuild ([`tiles::rebuild`]) a
//!   C2SP tlog-tiles log stored in a directory, every entry hashed on all
//!   cores.
//! - [`hash_files`]: many files at once across threads, results in order.
//!
//! Leaves come from a byte slice cut into fixed-size [`Chunks`], from a slice
//! of byte strings (one leaf each), or from a reader.
//!
//! All formats run on one engine: the leaves are cut into blocks of `2^h`
//! leaves (about 64 KiB of data each), blocks are hashed independently under
//! the given [`Parallelism`] and their roots merged left to right — every
//! strategy and thread count gives the same hashes as `Sequential`. Why that
//! is exact for each format's split rule: `src/merkle/README.md`.
//!
//! # Performance
//! Inputs below about 512 KiB (fewer than two parts of ~256 KiB) are hashed
//! on the calling thread, so small trees cost what the sequential code costs.

mod bittorrent;
pub mod compact;
mod engine;
mod files;
mod glacier;
mod rfc6962;
mod stream;
pub mod tiles;

use crate::digest::Digest;
use std::fs::File;
use std::io::Read;

pub use bittorrent::{BitTorrentV2, FileHashes};
pub use engine::{Chunks, Leaves};
pub use files::{ALL_THREADS_FROM, FileHash, Input, hash_files};
pub use glacier::Glacier;
pub use rfc6962::Rfc6962;

use crate::par::Parallelism;

/// What can go wrong building or checking a tree.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A leaf index outside the tree.
    #[error("leaf index {index} is outside a tree of {size} leaves")]
    Index {
        /// The index asked for.
        index: u64,
        /// The number of leaves.
        size: u64,
    },
    /// Tree sizes that admit no consistency proof.
    #[error("no consistency proof from {old_size} to {new_size} leaves (need 0 < old ≤ new ≤ {leaves})")]
    Sizes {
        /// The older tree's size.
        old_size: u64,
        /// The newer tree's size.
        new_size: u64,
        /// The leaves available.
        leaves: u64,
    },
    /// A proof with the wrong number of hashes for its index and sizes.
    #[error("the proof has the wrong number of hashes for this index and tree size")]
    ProofLength,
    /// A proof that leads to another root.
    #[error("the proof does not lead to the given root")]
    RootMismatch,
    /// A leaf size of 0 or over [`MAX_LEAF_SIZE`].
    #[error("leaf size {0} is outside 1 byte to 16 MiB")]
    LeafSize(usize),
    /// A BEP 52 piece length that is not a power of two ≥ 16 KiB.
    #[error("piece length {0} is not a power of two of at least 16384 bytes")]
    PieceLength(u64),
    /// Reading the input failed (the `io::Error` is the source).
    #[error("I/O error")]
    Io(#[from] std::io::Error),
}

/// The largest leaf for streamed RFC 6962 trees: a stream is hashed in a few
/// buffers of at least one leaf each, so this bounds memory.
pub const MAX_LEAF_SIZE: usize = 16 << 20;

/// What [`hash_reader`] computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Format {
    /// Plain SHA-256 of the whole input (serial by nature), like `sha256sum`.
    Sha256,
    /// The RFC 6962 tree head over leaves of `leaf_size` bytes.
    Rfc6962 {
        /// Bytes per leaf (the last leaf may be shorter).
        leaf_size: usize,
    },
    /// The BEP 52 pieces root (16 KiB blocks).
    BitTorrentV2,
    /// The Glacier tree hash (1 MiB chunks).
    Glacier,
}

impl Format {
    /// The format named as `parcrypt hash --format` names it (`sha256`,
    /// `rfc6962`, `bittorrent-v2`, `glacier`, and the aliases
    /// [`compact::Tree`] accepts), with `leaf_size` used by RFC 6962 only.
    ///
    /// # Errors
    /// [`UnknownName`](crate::UnknownName) for any other name.
    pub fn from_name(name: &str, leaf_size: usize) -> Result<Format, crate::UnknownName> {
        if name == "sha256" {
            return Ok(Format::Sha256);
        }
        let tree = name.parse::<compact::Tree>().map_err(|_| {
            crate::UnknownName::new("hash format", name, "sha256, rfc6962, bittorrent-v2 or glacier")
        })?;
        Ok(match tree {
            compact::Tree::Rfc6962 => Format::Rfc6962 { leaf_size },
            compact::Tree::BitTorrentV2 => Format::BitTorrentV2,
            compact::Tree::Glacier => Format::Glacier,
        })
    }
}

/// The hash of everything `input` yields, in `format`, read in bounded memory
/// with reading overlapped with hashing. `progress` is called with the number
/// of bytes read. Returns None only for an empty input in
/// [`Format::BitTorrentV2`], which has no root.
///
/// # Errors
/// [`Error::LeafSize`]; [`Error::Io`] from reading.
pub fn hash_reader(
    format: Format,
    input: impl Read + Send,
    par: &Parallelism,
    progress: impl FnMut(u64),
) -> Result<Option<Digest>, Error> {
    hash_source(format, stream::Source::Reader(input), par, progress)
}

/// Like [`hash_reader`] for an open file. A regular file is hashed whole,
/// whatever its current position; a large one straight from the page cache through read-only memory maps of ~64 MiB windows (no
/// copy; memory stays bounded for any file size); anything else (a pipe, a
/// device) is read like a stream.
///
/// As with every mmap-based hasher (b3sum, ripgrep), another process
/// truncating the file while it is being hashed kills this process with
/// SIGBUS.
///
/// # Errors
/// [`Error::LeafSize`]; [`Error::Io`] from reading or mapping.
pub fn hash_file(
    format: Format,
    file: &File,
    par: &Parallelism,
    progress: impl FnMut(u64),
) -> Result<Option<Digest>, Error> {
    hash_source(format, file_source(file), par, progress)
}

/// Files below this are read: mapping costs more than copying them.
const MAP_MIN: u64 = 1 << 20;

/// A regular file whole (mapped if large, read from offset 0 if small), or
/// anything else as a stream from where it is.
fn file_source(file: &File) -> stream::Source<'_, crate::io::ReadAt<'_>> {
    match file.metadata() {
        Ok(m) if m.is_file() && m.len() >= MAP_MIN => stream::Source::File(file, m.len()),
        Ok(m) if m.is_file() => stream::Source::Reader(crate::io::ReadAt::new(file, 0)),
        _ => stream::Source::Reader(crate::io::ReadAt::current(file)),
    }
}

fn hash_source(
    format: Format,
    source: stream::Source<'_, impl Read + Send>,
    par: &Parallelism,
    progress: impl FnMut(u64),
) -> Result<Option<Digest>, Error> {
    match format {
        Format::Sha256 => Ok(Some(source.sha256(progress)?)),
        Format::Rfc6962 { leaf_size } => Rfc6962::root_source(source, leaf_size, par, progress).map(Some),
        Format::BitTorrentV2 => {
            // The root does not depend on the piece length; the smallest one
            // keeps no more than the engine's own blocks.
            let piece = BitTorrentV2::BLOCK as u64;
            Ok(BitTorrentV2::hash_source(source, piece, par, progress)?.pieces_root)
        }
        Format::Glacier => Glacier::hash_source(source, par, progress).map(Some),
    }
}

/// The ParalCrypto paper's level-by-level method, kept for the lab to compare
/// against: every leaf hash first (in parallel), then each level's pairs in
/// parallel with a barrier between levels. Gives the same roots as the
/// formats' own functions; it holds all leaf hashes in memory and
/// synchronizes once per level, so do not use it for real work.
pub mod per_level {
    use super::engine::{Leaves, root_per_level};
    use super::{BitTorrentV2, Glacier, Rfc6962};
    use crate::digest::Digest;
    use crate::par::Parallelism;

    /// [`Rfc6962::root`], level by level.
    pub fn rfc6962<L: Leaves + ?Sized>(leaves: &L, par: &Parallelism) -> Digest {
        root_per_level(Rfc6962, leaves, par).unwrap_or_else(Rfc6962::empty_root)
    }

    /// [`BitTorrentV2::pieces_root`], level by level (16 KiB leaves).
    pub fn bittorrent_v2<L: Leaves + ?Sized>(leaves: &L, par: &Parallelism) -> Option<Digest> {
        root_per_level(BitTorrentV2, leaves, par)
    }

    /// [`Glacier::tree_hash`], level by level (1 MiB leaves).
    pub fn glacier<L: Leaves + ?Sized>(leaves: &L, par: &Parallelism) -> Digest {
        root_per_level(Glacier, leaves, par).unwrap_or_else(|| super::engine::sha256(&[]))
    }
}
