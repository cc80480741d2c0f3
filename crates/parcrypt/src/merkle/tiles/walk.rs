//! The walk over a log: level-0 tiles on the workers (bundle → leaf
//! hashes → tile root), higher levels and the tree's compact range on the
//! calling thread, each tile handed to a sink that compares or writes it.
use super::*;
use crate::digest::Digest;
use crate::merkle::compact::{CompactRange, Tree};

/// What the walk does with each tile's computed hashes: compare them with
/// the stored tile, or write the tile.
pub(super) trait Sink: Sync {
    /// Called on worker threads for level-0 tiles, in log order for the
    /// others.
    fn tile(&self, tile: Tile, hashes: &[Digest]) -> Result<(), Error>;
}

/// [`verify`]'s sink.
pub(super) struct Compare<'a> {
    pub(super) dir: &'a Path,
    pub(super) size: u64,
}

impl Sink for Compare<'_> {
    fn tile(&self, tile: Tile, hashes: &[Digest]) -> Result<(), Error> {
        let (path, mut file, width) = open_partial(self.dir, &tile.path(), tile, self.size)?;
        let want = tile.width * 32;
        let stored_len = width * 32;
        let mut stored = vec![0u8; stored_len];
        let len = crate::io::fill(&mut file, &mut stored).map_err(io_error(&path))?;
        let more = crate::io::fill(&mut file, &mut [0u8; 1]).map_err(io_error(&path))?;
        if len != stored_len || more != 0 {
            let len = file.metadata().map_or(len as u64, |m| m.len());
            return Err(Error::TileLength { path, len, width });
        }
        let stored = stored[..want].chunks_exact(32);
        if let Some((index, (found, computed))) = stored.zip(hashes).enumerate().find(|(_, (s, c))| s != c) {
            return Err(Error::TileHash {
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
pub(super) struct Write {
    pub(super) root: PathBuf,
}

impl Sink for Write {
    fn tile(&self, tile: Tile, hashes: &[Digest]) -> Result<(), Error> {
        let path = self.root.join(tile.path().trim_start_matches("tile/"));
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).map_err(io_error(parent))?;
        }
        fs::write(&path, hashes.concat()).map_err(io_error(&path))
    }
}

/// What a walk computed.
pub(super) struct Walked {
    pub(super) root: Digest,
    pub(super) tiles: u64,
}

/// One level-0 tile's outcome.
pub(super) enum Leaves {
    /// A full tile: its root.
    Full(Digest),
    /// The partial tile: its leaf hashes.
    Partial(Vec<Digest>),
}

/// The one traversal behind [`verify`] and [`rebuild`]: level-0 tiles in
/// parallel batches, everything above in log order on the calling thread.
pub(super) fn walk(
    dir: &Path,
    size: u64,
    sink: &impl Sink,
    par: &Parallelism,
    mut progress: impl FnMut(u64),
) -> Result<Walked, Error> {
    let (full, partial) = Tile::count(size, 0);
    let count = full + u64::from(partial > 0);
    let mut upper = Upper::default();
    // The tree's compact range, for its root: whole level-0 tiles are
    // aligned subtrees of 2^8 leaves, the partial tile's hashes single leaves.
    let mut range = CompactRange::empty(Tree::Rfc6962, 0);
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
                    range.push(8, root).expect("full tiles come first: aligned");
                    upper.add(1, root, sink, &mut tiles)?;
                    progress(TILE_WIDTH as u64);
                }
                Leaves::Partial(hashes) => {
                    for h in &hashes {
                        range.push(0, *h).expect("a leaf is always aligned");
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
        root: range.root().expect("the range starts at leaf 0"),
        tiles,
    })
}

/// Reads, hashes and hands to the sink one level-0 tile.
pub(super) fn level0(
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
pub(super) fn leaf_hashes(bundle: &[u8], tile: Tile, prefix: bool) -> Result<Vec<Digest>, String> {
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
pub(super) fn open_partial(
    dir: &Path,
    rel: &str,
    tile: Tile,
    size: u64,
) -> Result<(PathBuf, File, usize), Error> {
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

/// The root of a perfect tree over `hashes` (a power of two of them),
/// hashed in place.
pub(super) fn subtree_root(hashes: Vec<Digest>) -> Digest {
    if hashes.is_empty() {
        return Rfc6962::empty_root();
    }
    engine::perfect_root(&Rfc6962, hashes)
}

/// The tiles above level 0 being filled: `levels[i]` holds the hashes of
/// the current tile of level `i + 1`, `done[i]` how many of its tiles are
/// complete.
#[derive(Default)]
pub(super) struct Upper {
    pub(super) levels: Vec<Vec<Digest>>,
    pub(super) done: Vec<u64>,
}

impl Upper {
    /// Adds the root of a full tile of level `level - 1`; a level tile that
    /// fills up goes to the sink and its root one level further up.
    pub(super) fn add(
        &mut self,
        level: u8,
        hash: Digest,
        sink: &impl Sink,
        tiles: &mut u64,
    ) -> Result<(), Error> {
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
