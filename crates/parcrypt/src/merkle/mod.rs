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
//! - [`sums`]: checksum lists as `sha256sum` writes and reads them
//!   (`--tag`, `-z`, escaped names), verified on all cores
//!   ([`sums::check`]), and directory trees walked in a stable order
//!   ([`sums::walk`]).
//!
//! Leaves come from a byte slice cut into fixed-size [`Chunks`], from a slice
//! of byte strings (one leaf each), or from a reader.
//!
//! # One set of calls per format
//! Every format has the same three: `root` (bytes or leaves in memory),
//! `root_reader` (a stream, in bounded memory, with progress) and
//! `root_file` (an open file: a regular file read with positional reads by
//! every thread, anything else like a stream) — [`Rfc6962::root`], [`BitTorrentV2::root_reader`],
//! [`Glacier::root_file`], … All return a [`Digest`](crate::digest::Digest),
//! the crate's one SHA-256 value. [`hash_reader`] and [`hash_file`] do the
//! same for any [`Format`] (plain SHA-256 included), as `parcrypt hash`.
//!
//! # Empty input
//! The root of an empty input is SHA-256 of nothing (`e3b0c442…b855`) in
//! every format: RFC 6962's empty tree head, Glacier's hash of one empty
//! chunk, and BitTorrent v2's hash of one empty block. Only the places that
//! say what BEP 52 *records* differ: a v2 .torrent lists an empty file
//! without a `pieces root`, so [`FileHashes::pieces_root`] is None for it,
//! and [`hash_reader`], [`hash_file`] and [`hash_files`] — what `parcrypt
//! hash` prints — give None for an empty input in
//! [`Format::BitTorrentV2`].
//!
//! All formats run on one engine: the leaves are cut into blocks of `2^h`
//! leaves (about 64 KiB of data each), blocks are hashed independently under
//! the given [`Parallelism`](crate::par::Parallelism) and their roots merged left to right — every
//! strategy and thread count gives the same hashes as `Sequential`. Why that
//! is exact for each format's split rule: `src/merkle/README.md`.
//!
//! # Performance
//! Inputs below about 512 KiB (fewer than two parts of ~256 KiB) are hashed
//! on the calling thread, so small trees cost what the sequential code costs.

mod bittorrent;
pub mod compact;
mod engine;
mod error;
mod files;
mod format;
mod glacier;
mod rfc6962;
mod stream;
pub mod sums;
pub mod tiles;

pub use bittorrent::{BitTorrentV2, FileHashes};
pub use engine::{Chunks, Leaves};
pub use error::Error;
pub use files::{ALL_THREADS_FROM, FileHash, Input, hash_files};
pub use format::{Format, hash_file, hash_reader};
pub use glacier::Glacier;
pub use rfc6962::Rfc6962;

/// The largest leaf for streamed RFC 6962 trees: a stream is hashed in a few
/// buffers of at least one leaf each, so this bounds memory.
pub const MAX_LEAF_SIZE: usize = 16 << 20;

/// The ParalCrypto paper's level-by-level method, kept for the lab to compare
/// against: every leaf hash first (in parallel), then each level's pairs in
/// parallel with a barrier between levels. Gives the same roots as the
/// formats' own functions; it holds all leaf hashes in memory and
/// synchronizes once per level, so do not use it for real work.
pub mod per_level {
    use super::engine::{Leaves, empty_root, root_per_level};
    use super::{BitTorrentV2, Glacier, Rfc6962};
    use crate::digest::Digest;
    use crate::par::Parallelism;

    /// [`Rfc6962::root`], level by level.
    pub fn rfc6962<L: Leaves + ?Sized>(leaves: &L, par: &Parallelism) -> Digest {
        root_per_level(Rfc6962, leaves, par).unwrap_or_else(empty_root)
    }

    /// [`BitTorrentV2::root`], level by level (16 KiB leaves).
    pub fn bittorrent_v2<L: Leaves + ?Sized>(leaves: &L, par: &Parallelism) -> Digest {
        root_per_level(BitTorrentV2, leaves, par).unwrap_or_else(empty_root)
    }

    /// [`Glacier::root`], level by level (1 MiB leaves).
    pub fn glacier<L: Leaves + ?Sized>(leaves: &L, par: &Parallelism) -> Digest {
        root_per_level(Glacier, leaves, par).unwrap_or_else(empty_root)
    }
}
