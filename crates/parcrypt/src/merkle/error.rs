//! The Merkle family's one error type.

use std::io;
use std::path::{Path, PathBuf};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

use super::tiles::{TILE_WIDTH, Tile};
use crate::digest::Digest;

/// What can go wrong building or checking a tree, a compact range or a
/// tlog-tiles log. Variants about a log's files name the file.
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
    /// A leaf size of 0 or over [`MAX_LEAF_SIZE`](super::MAX_LEAF_SIZE).
    #[error("leaf size {0} is outside 1 byte to 16 MiB")]
    LeafSize(usize),
    /// A BEP 52 piece length that is not a power of two ≥ 16 KiB.
    #[error("piece length {0} is not a power of two of at least 16384 bytes")]
    PieceLength(u64),
    /// A piece layer of fewer than two pieces given to
    /// [`BitTorrentV2::root_from_pieces`](super::BitTorrentV2::root_from_pieces).
    #[error("a file of one piece or less: hash it whole (its root pads to its own size)")]
    OnePiece,
    /// Reading the input failed (the `io::Error` is the source).
    #[error("I/O error")]
    Io(#[from] std::io::Error),

    // Compact ranges (`compact`).
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
    MalformedRange(&'static str),
    /// A subtree pushed where it does not start on a multiple of its size.
    #[error("a subtree of 2^{height} leaves cannot start at leaf {at}")]
    Misaligned {
        /// Where the range ends (where the subtree would start).
        at: u64,
        /// The subtree's height (log2 of its leaf count).
        height: u32,
    },

    // tlog-tiles logs (`tiles`): every variant names its file.
    /// The checkpoint is not a checkpoint.
    #[error("{path}: {reason}")]
    Checkpoint {
        /// The checkpoint file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// A tile or entry bundle the tree size requires is not there.
    #[error("{path} is missing{}", size.map_or(String::new(), |s| format!(" (a tree of {s} entries needs it)")))]
    Missing {
        /// The file that should exist.
        path: PathBuf,
        /// The tree size that requires it (for tiles and bundles).
        size: Option<u64>,
    },
    /// An entry bundle that does not hold exactly its entries.
    #[error("{path}: {reason}")]
    Bundle {
        /// The bundle.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// A tile of the wrong length.
    #[error("{path} is {len} bytes; a tile of {width} hashes is {} bytes", width * 32)]
    TileLength {
        /// The tile.
        path: PathBuf,
        /// Its length.
        len: u64,
        /// The hashes it should hold.
        width: usize,
    },
    /// A stored hash that differs from the one computed from below.
    #[error("{}", mismatch(path, *level, *index, *tile_index, found, computed))]
    TileHash {
        /// The tile holding the wrong hash.
        path: PathBuf,
        /// The tile's level.
        level: u8,
        /// The hash's position in the tile (0 to 255).
        index: usize,
        /// The tile's index in its level.
        tile_index: u64,
        /// The stored hash.
        found: Digest,
        /// The hash computed from the entries (level 0) or from the full
        /// tile below (higher levels).
        computed: Digest,
    },
    /// Every tile agrees with the entries, but not the checkpoint's root.
    #[error(
        "the checkpoint says the root of {size} entries is {}, but the entries and tiles give {}",
        STANDARD.encode(checkpoint),
        STANDARD.encode(computed)
    )]
    CheckpointRoot {
        /// The checkpoint's tree size.
        size: u64,
        /// The checkpoint's root.
        checkpoint: Digest,
        /// The root of the entries.
        computed: Digest,
    },
    /// [`tiles::rebuild`](super::tiles::rebuild) found tiles and was not told to replace them.
    #[error("{path} already exists")]
    Exists {
        /// The existing level directory.
        path: PathBuf,
    },
    /// [`tiles::rebuild`](super::tiles::rebuild) was asked for more entries than the bundles hold.
    #[error("{path}: {reason}")]
    Layout {
        /// The log directory or bundle concerned.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// Reading or writing a named file failed (the `io::Error` is the
    /// source).
    #[error("{path}")]
    File {
        /// The file.
        path: PathBuf,
        /// The failure.
        #[source]
        source: io::Error,
    },
}

fn mismatch(
    path: &Path,
    level: u8,
    index: usize,
    tile_index: u64,
    found: &Digest,
    computed: &Digest,
) -> String {
    let below = if level == 0 {
        let entry = tile_index * TILE_WIDTH as u64 + index as u64;
        format!("the hash of entry {entry} in its bundle")
    } else {
        let n = tile_index * TILE_WIDTH as u64 + index as u64;
        format!("the root of {}", Tile::full(level - 1, n).path())
    };
    format!(
        "{}: hash {index} is {} but {below} is {}",
        path.display(),
        to_hex(found),
        to_hex(computed)
    )
}

pub(super) fn to_hex(hash: &Digest) -> String {
    hash.iter().map(|b| format!("{b:02x}")).collect()
}
