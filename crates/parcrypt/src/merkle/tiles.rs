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

use std::fmt;
use std::fs::{self, File};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

use super::engine::{self, Rule};
use super::{Hash, Rfc6962};
use crate::par::{Grain, Parallelism};

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

/// What can go wrong reading, checking or rebuilding a log. Every variant
/// names the file it is about.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
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
    Mismatch {
        /// The tile holding the wrong hash.
        path: PathBuf,
        /// The tile's level.
        level: u8,
        /// The hash's position in the tile (0 to 255).
        index: usize,
        /// The tile's index in its level.
        tile_index: u64,
        /// The stored hash.
        found: Hash,
        /// The hash computed from the entries (level 0) or from the full
        /// tile below (higher levels).
        computed: Hash,
    },
    /// Every tile agrees with the entries, but not the checkpoint's root.
    #[error(
        "the checkpoint says the root of {size} entries is {}, but the entries and tiles give {}",
        STANDARD.encode(checkpoint),
        STANDARD.encode(computed)
    )]
    RootMismatch {
        /// The checkpoint's tree size.
        size: u64,
        /// The checkpoint's root.
        checkpoint: Hash,
        /// The root of the entries.
        computed: Hash,
    },
    /// [`rebuild`] found tiles and was not told to replace them.
    #[error("{path} already exists")]
    Exists {
        /// The existing level directory.
        path: PathBuf,
    },
    /// [`rebuild`] was asked for more entries than the bundles hold.
    #[error("{path}: {reason}")]
    Layout {
        /// The log directory or bundle concerned.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// Reading or writing a file failed.
    #[error("{path}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The failure.
        #[source]
        source: io::Error,
    },
}

fn mismatch(path: &Path, level: u8, index: usize, tile_index: u64, found: &Hash, computed: &Hash) -> String {
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

fn to_hex(hash: &Hash) -> String {
    hash.iter().map(|b| format!("{b:02x}")).collect()
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> Error + '_ {
    move |source| Error::Io {
        path: path.to_owned(),
        source,
    }
}

/// A log's signed tree head: the note text of a checkpoint. Signatures
/// are counted, not checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    /// The log's identity (first line).
    pub origin: String,
    /// The number of entries.
    pub size: u64,
    /// The RFC 6962 root of those entries.
    pub root: Hash,
    /// Extension lines, if any.
    pub extensions: Vec<String>,
    /// The number of signature lines after the note text (unchecked).
    pub signatures: usize,
}

impl Checkpoint {
    /// Parses a checkpoint note: at least three non-empty lines of text
    /// (origin, tree size in decimal without leading zeros, base64 root of
    /// 32 bytes), each ending in a newline, optionally followed by a blank
    /// line and signature lines.
    ///
    /// # Errors
    /// [`Error::Checkpoint`] naming what is wrong (`path` is empty).
    pub fn parse(note: &[u8]) -> Result<Checkpoint, Error> {
        Self::parse_at(note, Path::new(""))
    }

    /// Reads and parses `DIR/checkpoint`.
    ///
    /// # Errors
    /// [`Error::Missing`], [`Error::Io`], [`Error::Checkpoint`].
    pub fn read(dir: &Path) -> Result<Checkpoint, Error> {
        let path = dir.join("checkpoint");
        let mut note = Vec::new();
        File::open(&path)
            .map_err(|e| match e.kind() {
                io::ErrorKind::NotFound => Error::Missing {
                    path: path.clone(),
                    size: None,
                },
                _ => io_error(&path)(e),
            })?
            .take(MAX_CHECKPOINT + 1)
            .read_to_end(&mut note)
            .map_err(io_error(&path))?;
        if note.len() as u64 > MAX_CHECKPOINT {
            return Err(Error::Checkpoint {
                path,
                reason: "larger than 1 MiB: not a checkpoint".into(),
            });
        }
        Self::parse_at(&note, &path)
    }

    fn parse_at(note: &[u8], path: &Path) -> Result<Checkpoint, Error> {
        let bad = |reason: &str| Error::Checkpoint {
            path: path.to_owned(),
            reason: reason.to_owned(),
        };
        let note = std::str::from_utf8(note).map_err(|_| bad("not UTF-8 text"))?;
        let (text, signatures) = match note.split_once("\n\n") {
            Some((text, sigs)) => (text, sigs.lines().filter(|l| !l.is_empty()).count()),
            None => (
                note.strip_suffix('\n')
                    .ok_or_else(|| bad("does not end in a newline"))?,
                0,
            ),
        };
        let mut lines = text.split('\n');
        let origin = lines.next().unwrap_or_default();
        let size = lines.next().ok_or_else(|| bad("no tree size line (line 2)"))?;
        let root = lines.next().ok_or_else(|| bad("no root hash line (line 3)"))?;
        let extensions: Vec<String> = lines.map(str::to_owned).collect();
        if origin.is_empty() {
            return Err(bad("the origin (line 1) is empty"));
        }
        let digits = !size.is_empty() && size.bytes().all(|b| b.is_ascii_digit());
        if !digits || (size.len() > 1 && size.starts_with('0')) {
            return Err(bad(&format!(
                "the tree size (line 2) {size:?} is not a decimal number without leading zeros"
            )));
        }
        let size = size
            .parse::<u64>()
            .map_err(|_| bad(&format!("the tree size (line 2) {size} does not fit in 64 bits")))?;
        let root: Hash = STANDARD
            .decode(root)
            .ok()
            .and_then(|r| r.try_into().ok())
            .ok_or_else(|| bad(&format!("the root (line 3) {root:?} is not 32 bytes in base64")))?;
        if extensions.iter().any(String::is_empty) {
            return Err(bad("an empty line inside the note text"));
        }
        Ok(Checkpoint {
            origin: origin.to_owned(),
            size,
            root,
            extensions,
            signatures,
        })
    }
}

/// A hash as a checkpoint writes it: standard base64 (RFC 4648 §4).
pub fn base64_hash(hash: &Hash) -> String {
    STANDARD.encode(hash)
}

/// A tile's coordinates: level, index in the level, width in hashes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tile {
    /// 0 for leaf hashes; each level up holds the roots of full tiles below.
    pub level: u8,
    /// The tile's position in its level.
    pub index: u64,
    /// Hashes in the tile: 256, or 1 to 255 for a partial tile.
    pub width: usize,
}

impl Tile {
    fn full(level: u8, index: u64) -> Tile {
        Tile {
            level,
            index,
            width: TILE_WIDTH,
        }
    }

    /// `tile/<L>/<N>[.p/<W>]`.
    pub fn path(&self) -> String {
        format!("tile/{}/{}", self.level, self.suffix())
    }

    /// `tile/entries/<N>[.p/<W>]`, the entry bundle of a level-0 tile.
    pub fn entries_path(&self) -> String {
        format!("tile/entries/{}", self.suffix())
    }

    fn suffix(&self) -> String {
        let n = index_path(self.index);
        if self.width == TILE_WIDTH {
            n
        } else {
            format!("{n}.p/{}", self.width)
        }
    }

    /// The tiles of a tree of `size` entries at `level`: the full ones,
    /// then the partial one if any.
    fn count(size: u64, level: u8) -> (u64, usize) {
        let below = u128::from(size) >> (8 * u32::from(level));
        ((below >> 8) as u64, (below & 0xff) as usize)
    }
}

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.path())
    }
}

/// A tile index as C2SP path elements: groups of three digits, all but the
/// last prefixed with `x` (`1234067` → `x001/x234/067`, `5` → `005`).
pub fn index_path(index: u64) -> String {
    let mut groups = Vec::new();
    let mut n = index;
    loop {
        groups.push(n % 1000);
        n /= 1000;
        if n == 0 {
            break;
        }
    }
    let last = groups.len() - 1;
    groups
        .iter()
        .rev()
        .enumerate()
        .map(|(i, g)| {
            if i < last {
                format!("x{g:03}")
            } else {
                format!("{g:03}")
            }
        })
        .collect::<Vec<_>>()
        .join("/")
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
/// [`Error::Bundle`], [`Error::TileLength`], [`Error::Mismatch`] (the
/// tile's path and the hash's index), [`Error::RootMismatch`],
/// [`Error::Io`].
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
        return Err(Error::RootMismatch {
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
    pub root: Hash,
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
/// [`Error::Missing`], [`Error::Bundle`], [`Error::Layout`], [`Error::Io`].
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

/// Where [`rebuild`] writes: a fresh directory under `tile/`, removed on
/// drop (after a failure, or after the commit with the old levels in it).
struct Staging {
    path: PathBuf,
}

impl Staging {
    fn new(tile_dir: &Path) -> Result<Staging, Error> {
        fs::create_dir_all(tile_dir).map_err(io_error(tile_dir))?;
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let path = tile_dir.join(format!(".rebuild-{}-{stamp}", std::process::id()));
        fs::create_dir(&path).map_err(io_error(&path))?;
        let staging = Staging { path };
        let new = staging.path.join("new");
        fs::create_dir(&new).map_err(io_error(&new))?;
        Ok(staging)
    }

    /// Moves the old level directories aside, then the new ones in.
    fn commit(&self, tile_dir: &Path, old_levels: &[PathBuf]) -> Result<(), Error> {
        let old = self.path.join("old");
        fs::create_dir(&old).map_err(io_error(&old))?;
        for level in old_levels {
            let aside = old.join(level.file_name().unwrap_or_default());
            fs::rename(level, &aside).map_err(io_error(level))?;
        }
        let new = self.path.join("new");
        for level in level_dirs(&new)? {
            let target = tile_dir.join(level.file_name().unwrap_or_default());
            fs::rename(&level, &target).map_err(io_error(&target))?;
        }
        Ok(())
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.path);
    }
}

/// What the walk does with each tile's computed hashes: compare them with
/// the stored tile, or write the tile.
trait Sink: Sync {
    /// Called on worker threads for level-0 tiles, in log order for the
    /// others.
    fn tile(&self, tile: Tile, hashes: &[Hash]) -> Result<(), Error>;
}

/// [`verify`]'s sink.
struct Compare<'a> {
    dir: &'a Path,
    size: u64,
}

impl Sink for Compare<'_> {
    fn tile(&self, tile: Tile, hashes: &[Hash]) -> Result<(), Error> {
        let (path, mut file, width) = open_partial(self.dir, &tile.path(), tile, self.size)?;
        let want = tile.width * 32;
        let stored_len = width * 32;
        let mut stored = vec![0u8; stored_len];
        let len = read_up_to(&mut file, &mut stored).map_err(io_error(&path))?;
        let more = file.read(&mut [0u8; 1]).map_err(io_error(&path))?;
        if len != stored_len || more != 0 {
            let len = file.metadata().map_or(len as u64, |m| m.len());
            return Err(Error::TileLength { path, len, width });
        }
        let stored = stored[..want].chunks_exact(32);
        if let Some((index, (found, computed))) = stored.zip(hashes).enumerate().find(|(_, (s, c))| s != c) {
            return Err(Error::Mismatch {
                path,
                level: tile.level,
                index,
                tile_index: tile.index,
                found: found.try_into().unwrap_or_default(),
                computed: *computed,
            });
        }
        Ok(())
    }
}

/// [`rebuild`]'s sink: writes tiles under `root` (the staging directory).
struct Write {
    root: PathBuf,
}

impl Sink for Write {
    fn tile(&self, tile: Tile, hashes: &[Hash]) -> Result<(), Error> {
        let path = self.root.join(tile.path().trim_start_matches("tile/"));
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).map_err(io_error(parent))?;
        }
        fs::write(&path, hashes.concat()).map_err(io_error(&path))
    }
}

/// What a walk computed.
struct Walked {
    root: Hash,
    tiles: u64,
}

/// One level-0 tile's outcome.
enum Leaves {
    /// A full tile: its root.
    Full(Hash),
    /// The partial tile: its leaf hashes.
    Partial(Vec<Hash>),
}

/// The one traversal behind [`verify`] and [`rebuild`]: level-0 tiles in
/// parallel batches, everything above in log order on the calling thread.
fn walk(
    dir: &Path,
    size: u64,
    sink: &impl Sink,
    par: &Parallelism,
    mut progress: impl FnMut(u64),
) -> Result<Walked, Error> {
    let (full, partial) = Tile::count(size, 0);
    let count = full + u64::from(partial > 0);
    let mut upper = Upper::default();
    let mut range = CompactRange::default();
    let mut tiles = 0u64;
    let mut next = 0u64;
    while next < count {
        let batch = (count - next).min(BATCH) as usize;
        let parts = par.map_range(batch, &GRAIN, |part| {
            let mut bundle = Vec::new();
            let mut done = Vec::with_capacity(part.len());
            for i in part {
                let n = next + i as u64;
                let width = if n < full { TILE_WIDTH } else { partial };
                let result = level0(
                    dir,
                    size,
                    Tile {
                        level: 0,
                        index: n,
                        width,
                    },
                    sink,
                    &mut bundle,
                );
                let failed = result.is_err();
                done.push(result);
                if failed {
                    break; // nothing after it in this part matters
                }
            }
            done
        });
        for result in parts.into_iter().flatten() {
            match result? {
                Leaves::Full(root) => {
                    range.push(root, 8);
                    upper.add(1, root, sink, &mut tiles)?;
                    progress(TILE_WIDTH as u64);
                }
                Leaves::Partial(hashes) => {
                    for h in &hashes {
                        range.push(*h, 0);
                    }
                    progress(hashes.len() as u64);
                }
            }
            tiles += 1;
        }
        next += batch as u64;
    }
    // The partial tiles above level 0: what each level holds at the end.
    for (i, hashes) in upper.levels.iter().enumerate() {
        let level = i as u8 + 1;
        let (index, width) = Tile::count(size, level);
        debug_assert_eq!(width, hashes.len());
        if width > 0 {
            sink.tile(Tile { level, index, width }, hashes)?;
            tiles += 1;
        }
    }
    Ok(Walked {
        root: range.root(),
        tiles,
    })
}

/// Reads, hashes and hands to the sink one level-0 tile.
fn level0(
    dir: &Path,
    size: u64,
    tile: Tile,
    sink: &impl Sink,
    bundle: &mut Vec<u8>,
) -> Result<Leaves, Error> {
    let (path, file, width) = open_partial(dir, &tile.entries_path(), tile, size)?;
    bundle.clear();
    file.take(MAX_BUNDLE as u64 + 1)
        .read_to_end(bundle)
        .map_err(io_error(&path))?;
    let hashes = leaf_hashes(bundle, tile, width > tile.width).map_err(|reason| Error::Bundle {
        path: path.clone(),
        reason,
    })?;
    sink.tile(tile, &hashes)?;
    Ok(if tile.width == TILE_WIDTH {
        Leaves::Full(subtree_root(hashes))
    } else {
        Leaves::Partial(hashes)
    })
}

/// The leaf hashes of the `tile.width` entries of `bundle`. A bundle read
/// for its own width must end there; a full bundle standing in for a
/// missing partial one (`prefix`) may go on.
fn leaf_hashes(bundle: &[u8], tile: Tile, prefix: bool) -> Result<Vec<Hash>, String> {
    if bundle.len() > MAX_BUNDLE {
        return Err(format!(
            "larger than {MAX_BUNDLE} bytes, more than {TILE_WIDTH} entries can take"
        ));
    }
    let first = tile.index * TILE_WIDTH as u64;
    let mut entries = Vec::with_capacity(tile.width);
    let mut rest = bundle;
    for k in 0..tile.width {
        let entry = first + k as u64;
        let Some((len, tail)) = rest.split_first_chunk::<2>() else {
            return Err(format!(
                "ends after {k} of its {} entries (no length for entry {entry})",
                tile.width
            ));
        };
        let len = usize::from(u16::from_be_bytes(*len));
        if tail.len() < len {
            return Err(format!(
                "entry {entry} (number {k} in the bundle) is cut short: {} of its {len} bytes",
                tail.len()
            ));
        }
        let (data, tail) = tail.split_at(len);
        entries.push(data);
        rest = tail;
    }
    if !rest.is_empty() && !prefix {
        return Err(format!("{} bytes follow its {} entries", rest.len(), tile.width));
    }
    // Many entries at once through the multi-message SHA-256.
    let mut hashes = vec![[0u8; 32]; entries.len()];
    Rfc6962.leaves(&entries, &mut hashes);
    Ok(hashes)
}

/// Opens `rel` (a tile or bundle path) under `dir`; a missing partial one
/// falls back to the full one of the same index, or to a wider partial one
/// (their first hashes and entries are the same). Returns the path opened
/// and the width of what it holds.
fn open_partial(dir: &Path, rel: &str, tile: Tile, size: u64) -> Result<(PathBuf, File, usize), Error> {
    let path = dir.join(rel);
    let missing = |path: PathBuf| Error::Missing {
        path,
        size: Some(size),
    };
    match File::open(&path) {
        Ok(file) => Ok((path, file, tile.width)),
        Err(e) if e.kind() == io::ErrorKind::NotFound && tile.width < TILE_WIDTH => {
            // The full tile, else the narrowest wider partial one.
            let full_rel = rel.split(".p/").next().unwrap_or(rel);
            let wider = (tile.width + 1..TILE_WIDTH).map(|w| (dir.join(format!("{full_rel}.p/{w}")), w));
            std::iter::once((dir.join(full_rel), TILE_WIDTH))
                .chain(wider)
                .find_map(|(p, w)| File::open(&p).ok().map(|f| (p, f, w)))
                .ok_or_else(|| missing(path))
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => Err(missing(path)),
        Err(e) => Err(io_error(&path)(e)),
    }
}

/// Reads until `buf` is full or the file ends; returns the bytes read.
fn read_up_to(file: &mut File, buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match file.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

/// The root of a perfect tree over `hashes` (a power of two of them),
/// hashed in place.
fn subtree_root(hashes: Vec<Hash>) -> Hash {
    if hashes.is_empty() {
        return Rfc6962::empty_root();
    }
    engine::perfect_root(&Rfc6962, hashes)
}

/// The tiles above level 0 being filled: `levels[i]` holds the hashes of
/// the current tile of level `i + 1`, `done[i]` how many of its tiles are
/// complete.
#[derive(Default)]
struct Upper {
    levels: Vec<Vec<Hash>>,
    done: Vec<u64>,
}

impl Upper {
    /// Adds the root of a full tile of level `level - 1`; a level tile that
    /// fills up goes to the sink and its root one level further up.
    fn add(&mut self, level: u8, hash: Hash, sink: &impl Sink, tiles: &mut u64) -> Result<(), Error> {
        let i = usize::from(level - 1);
        if self.levels.len() <= i {
            self.levels.push(Vec::with_capacity(TILE_WIDTH));
            self.done.push(0);
        }
        self.levels[i].push(hash);
        if self.levels[i].len() < TILE_WIDTH {
            return Ok(());
        }
        let tile = Tile::full(level, self.done[i]);
        sink.tile(tile, &self.levels[i])?;
        *tiles += 1;
        self.done[i] += 1;
        let root = subtree_root(std::mem::take(&mut self.levels[i]));
        self.add(level + 1, root, sink, tiles)
    }
}

/// The roots of the complete subtrees of a tree built left to right,
/// heights strictly decreasing ("compact range"); pushes must be aligned
/// (a subtree of height `h` starts at a multiple of `2^h`).
#[derive(Default)]
struct CompactRange {
    stack: Vec<(u32, Hash)>,
}

impl CompactRange {
    fn push(&mut self, mut hash: Hash, mut height: u32) {
        while let Some(&(h, left)) = self.stack.last() {
            if h != height {
                break;
            }
            self.stack.pop();
            hash = Rfc6962::node_hash(&left, &hash);
            height += 1;
        }
        self.stack.push((height, hash));
    }

    /// The RFC 6962 root: the subtrees joined right to left.
    fn root(&self) -> Hash {
        let mut iter = self.stack.iter().rev();
        let Some(&(_, mut root)) = iter.next() else {
            return Rfc6962::empty_root();
        };
        for (_, left) in iter {
            root = Rfc6962::node_hash(left, &root);
        }
        root
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            let mut range = CompactRange::default();
            let mut i = 0;
            while i + 256 <= n {
                let hashes = leaves[i..i + 256].iter().map(|l| Rfc6962::leaf_hash(l)).collect();
                range.push(subtree_root(hashes), 8);
                i += 256;
            }
            for l in &leaves[i..] {
                range.push(Rfc6962::leaf_hash(l), 0);
            }
            assert_eq!(range.root(), Rfc6962::root(&leaves[..], &par), "{n} leaves");
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
