//! C2SP tlog-tiles logs stored in a directory: check every hash of one
//! ([`verify`]) or write its tiles from its entry bundles ([`rebuild`]).
//!
//! The layout (<https://c2sp.org/tlog-tiles>, <https://c2sp.org/tlog-checkpoint>):
//!
//! ```text
//! DIR/checkpoint                  origin, tree size, base64 RFC 6962 root, then signatures
//! DIR/tile/entries/<N>[.p/<W>]    entry bundles: entries of the level-0 tile N, each a
//!                                 big-endian u16 length and that many bytes
//! DIR/tile/<L>/<N>[.p/<W>]        tiles: up to 256 hashes of 32 bytes; level 0 holds leaf
//!                                 hashes, level L+1 the roots of full level-L tiles
//! ```
//!
//! `<N>` is written in groups of three digits, all but the last prefixed
//! with `x` (1234067 is `x001/x234/067`); `.p/<W>` marks a partial tile of
//! `W` < 256 hashes, the rightmost of a level. A tree of `s` entries has
//! `⌊s / 256^(L+1)⌋` full tiles at level `L` and, if `⌊s / 256^L⌋ mod 256`
//! is not 0, one partial tile of that width.
//!
//! Checkpoint signatures are **not** checked: [`verify`] proves that the
//! entries, every tile and the checkpoint's root agree with each other, not
//! who signed the checkpoint.
//!
//! # How the work is cut
//! Level-0 tiles are independent: a batch of them is handed to the
//! [`Parallelism`], and each task reads a bundle, hashes its entries into
//! leaf hashes, compares them with (or writes) the level-0 tile and hashes
//! the tile into its root (255 node hashes). The calling thread then takes
//! the results in log order, carries full tiles' roots up into the higher
//! levels (one hash per 256 entries: cheap) and into a compact range for the
//! tree's root. The first problem is therefore the first in log order, the
//! same under every strategy and thread count.
//!
//! # Bounded memory
//! A bundle is read whole but never more than a full bundle can hold
//! (256 entries of at most 65,535 bytes each, ~16 MiB), one per task running
//! at a time; the higher levels keep at most 256 hashes each. Nothing grows
//! with the size of the log, whatever its checkpoint claims.

use crate::digest::Digest;
use std::fmt;
use std::fs::{self, File};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use super::engine::{self, Rule};
use super::{Error, Rfc6962};
use crate::par::{Grain, Parallelism};

mod checkpoint;
mod staging;
mod tile;
mod walk;

pub use checkpoint::{Checkpoint, base64_hash};
use staging::Staging;
pub use tile::{Tile, index_path};
use walk::{Compare, Write, walk};

/// Hashes in a full tile (and entries in a full bundle).
pub const TILE_WIDTH: usize = 256;

/// The largest well-formed entry bundle: 256 entries of 65,535 bytes.
const MAX_BUNDLE: usize = TILE_WIDTH * (2 + u16::MAX as usize);

/// The largest checkpoint read (a note is a few hundred bytes).
const MAX_CHECKPOINT: u64 = 1 << 20;

/// Level-0 tiles taken per round: ~262,144 entries, a few ms of work.
const BATCH: u64 = 1024;

/// Tiles per task. A tile of 64-byte entries takes ~50 µs to hash, so four
/// keep a task well above the cost of handing it out.
const GRAIN: Grain = Grain {
    unit: 1,
    min_part: 4,
    task: 8,
};

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> Error + '_ {
    move |source| Error::File {
        path: path.to_owned(),
        source,
    }
}

/// What [`verify`] proved.
#[derive(Clone, Debug)]
pub struct Verified {
    /// The checkpoint (its signatures unchecked).
    pub checkpoint: Checkpoint,
    /// Tiles compared, all levels.
    pub tiles: u64,
}

/// Checks a log in `dir`: reads `checkpoint`, hashes every entry of every
/// entry bundle up to its tree size into RFC 6962 leaf hashes, compares
/// them with the level-0 tiles, recomputes every higher-level tile and the
/// root, and compares those too. Stops at the first problem in log order.
/// `progress` is called with the number of entries checked.
///
/// A partial tile or bundle (`.p/<W>`) that is missing is read from the
/// first `W` hashes or entries of the full one, or of a wider partial one,
/// if that exists: the spec lets clients do so (a log may delete partial
/// tiles once full), and a checkpoint with too small a size is then
/// reported as the root mismatch it is.
/// Tiles and bundles beyond the tree size are ignored.
///
/// Signatures on the checkpoint are not checked.
///
/// # Errors
/// The first problem found: [`Error::Checkpoint`], [`Error::Missing`],
/// [`Error::Bundle`], [`Error::TileLength`], [`Error::TileHash`] (the
/// tile's path and the hash's index), [`Error::CheckpointRoot`],
/// [`Error::File`].
///
/// # Performance
/// Parallel from about 2,000 entries; each entry costs one leaf hash, one
/// node hash and a 32-byte comparison.
pub fn verify(dir: &Path, par: &Parallelism, progress: impl FnMut(u64)) -> Result<Verified, Error> {
    let checkpoint = Checkpoint::read(dir)?;
    let sink = Compare {
        dir,
        size: checkpoint.size,
    };
    let walked = walk(dir, checkpoint.size, &sink, par, progress)?;
    if walked.root != checkpoint.root {
        return Err(Error::CheckpointRoot {
            size: checkpoint.size,
            checkpoint: checkpoint.root,
            computed: walked.root,
        });
    }
    Ok(Verified {
        checkpoint,
        tiles: walked.tiles,
    })
}

/// How [`rebuild`] runs.
#[derive(Clone, Copy, Debug, Default)]
pub struct RebuildOptions {
    /// The tree size to build tiles for; `None` takes every entry the
    /// bundles hold (the full bundles from 0 on, then the widest partial
    /// bundle after them).
    pub size: Option<u64>,
    /// Replace existing tiles (`tile/0`, `tile/1`, …) instead of refusing.
    pub force: bool,
}

/// What [`rebuild`] wrote.
#[derive(Clone, Debug)]
pub struct Rebuilt {
    /// The tree size the tiles are for.
    pub size: u64,
    /// The RFC 6962 root of those entries.
    pub root: Digest,
    /// Tiles written, all levels.
    pub tiles: u64,
}

/// Writes every tile of the log in `dir` (all levels, the partial ones
/// named `.p/<W>`) from its entry bundles alone, and returns the root.
/// `progress` is called with the number of entries hashed.
///
/// The tiles are written into a temporary directory beside them
/// (`tile/.rebuild-*`) and each level directory is renamed into place only
/// once all are written: a failure leaves the log as it was. With
/// `force`, old level directories are moved aside before the new ones go
/// in, then deleted. The checkpoint is left alone (it is signed).
///
/// # Errors
/// [`Error::Exists`] if tiles exist and `force` is not set;
/// [`Error::Missing`], [`Error::Bundle`], [`Error::Layout`], [`Error::File`].
pub fn rebuild(
    dir: &Path,
    options: &RebuildOptions,
    par: &Parallelism,
    progress: impl FnMut(u64),
) -> Result<Rebuilt, Error> {
    let tile_dir = dir.join("tile");
    let old_levels = level_dirs(&tile_dir)?;
    if let (Some(first), false) = (old_levels.first(), options.force) {
        return Err(Error::Exists { path: first.clone() });
    }
    let size = match options.size {
        Some(size) => size,
        None => bundled_size(dir)?,
    };
    let staging = Staging::new(&tile_dir)?;
    let sink = Write {
        root: staging.path.join("new"),
    };
    let walked = walk(dir, size, &sink, par, progress)?;
    staging.commit(&tile_dir, &old_levels)?;
    Ok(Rebuilt {
        size,
        root: walked.root,
        tiles: walked.tiles,
    })
}

/// The level directories (`tile/<digits>`) under `tile_dir`.
fn level_dirs(tile_dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let entries = match fs::read_dir(tile_dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(io_error(tile_dir)(e)),
    };
    let mut levels = Vec::new();
    for entry in entries {
        let entry = entry.map_err(io_error(tile_dir))?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit()) {
            levels.push(entry.path());
        }
    }
    levels.sort();
    Ok(levels)
}

/// The number of entries the bundles hold: full bundles from 0 on, then
/// the widest partial bundle of the next index.
fn bundled_size(dir: &Path) -> Result<u64, Error> {
    let entries = dir.join("tile").join("entries");
    if !entries.is_dir() {
        return Err(Error::Layout {
            path: dir.to_owned(),
            reason: "no tile/entries directory: not a tlog-tiles log".into(),
        });
    }
    let mut full = 0u64;
    while dir.join(Tile::full(0, full).entries_path()).is_file() {
        full += 1;
    }
    let partials = dir.join(format!("{}.p", Tile::full(0, full).entries_path()));
    let mut widest = 0;
    if let Ok(names) = fs::read_dir(&partials) {
        for name in names.flatten() {
            let width = name.file_name().to_str().and_then(|w| w.parse::<usize>().ok());
            if let Some(w) = width.filter(|w| (1..TILE_WIDTH).contains(w)) {
                widest = widest.max(w);
            }
        }
    }
    Ok(full * TILE_WIDTH as u64 + widest as u64)
}

#[cfg(test)]
mod tests {
    use super::walk::subtree_root;
    use super::*;
    use crate::merkle::compact::{CompactRange, Tree};
    use base64::Engine as _;
    use base64::engine::general_purpose::STANDARD;

    #[test]
    fn index_paths_follow_the_spec() {
        assert_eq!(index_path(0), "000");
        assert_eq!(index_path(5), "005");
        assert_eq!(index_path(999), "999");
        assert_eq!(index_path(1000), "x001/000");
        assert_eq!(index_path(1_234_067), "x001/x234/067");
        assert_eq!(index_path(u64::MAX), "x018/x446/x744/x073/x709/x551/615");
        let t = Tile {
            level: 0,
            index: 1_234_067,
            width: 112,
        };
        assert_eq!(t.path(), "tile/0/x001/x234/067.p/112");
        assert_eq!(t.entries_path(), "tile/entries/x001/x234/067.p/112");
    }

    #[test]
    fn tile_counts_match_the_spec_example() {
        // "a tree of size 70,000 will be represented by 273 full level 0
        // tiles, one partial level 0 tile of width 112, one full level 1
        // tile, one partial level 1 tile of width 17, and one partial level
        // 2 tile of width 1."
        assert_eq!(Tile::count(70_000, 0), (273, 112));
        assert_eq!(Tile::count(70_000, 1), (1, 17));
        assert_eq!(Tile::count(70_000, 2), (0, 1));
        assert_eq!(Tile::count(70_000, 3), (0, 0));
        assert_eq!(Tile::count(256, 1), (0, 1));
        assert_eq!(Tile::count(u64::MAX, 7), (0, 255));
    }

    #[test]
    fn compact_range_gives_the_rfc6962_root() {
        let par = Parallelism::sequential();
        for n in [0usize, 1, 2, 3, 5, 255, 256, 257, 600] {
            let leaves: Vec<Vec<u8>> = (0..n).map(|i| vec![i as u8; i % 7]).collect();
            let mut range = CompactRange::empty(Tree::Rfc6962, 0);
            let mut i = 0;
            while i + 256 <= n {
                let hashes = leaves[i..i + 256].iter().map(|l| Rfc6962::leaf_hash(l)).collect();
                range.push(8, subtree_root(hashes)).unwrap();
                i += 256;
            }
            for l in &leaves[i..] {
                range.push(0, Rfc6962::leaf_hash(l)).unwrap();
            }
            assert_eq!(
                range.root().unwrap(),
                Rfc6962::root(&leaves[..], &par),
                "{n} leaves"
            );
        }
    }

    #[test]
    fn checkpoints_parse_strictly() {
        let root = STANDARD.encode([7u8; 32]);
        let good = format!("example.com/log\n1000\n{root}\n\n— example.com/log AAAA\n");
        let cp = Checkpoint::parse(good.as_bytes()).unwrap();
        assert_eq!(
            (cp.origin.as_str(), cp.size, cp.root, cp.signatures),
            ("example.com/log", 1000, [7; 32], 1)
        );
        assert!(Checkpoint::parse(format!("o\n0\n{root}\n").as_bytes()).is_ok());
        for bad in [
            String::new(),
            format!("\n1\n{root}\n"),
            format!("o\n01\n{root}\n"),
            format!("o\n-1\n{root}\n"),
            format!("o\n1 \n{root}\n"),
            format!("o\n99999999999999999999999\n{root}\n"),
            "o\n1\nAAAA\n".to_owned(),
            format!("o\n1\n{root}"),
            "o\n1\n".to_owned(),
        ] {
            assert!(Checkpoint::parse(bad.as_bytes()).is_err(), "{bad:?}");
        }
    }
}
