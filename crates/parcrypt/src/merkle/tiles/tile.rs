//! Tile coordinates and their paths (`tile/<L>/<N>[.p/<W>]`, the entry
//! bundles under `tile/entries/`).
use super::*;

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
    pub(in crate::merkle) fn full(level: u8, index: u64) -> Tile {
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

    pub(super) fn suffix(&self) -> String {
        let n = index_path(self.index);
        if self.width == TILE_WIDTH {
            n
        } else {
            format!("{n}.p/{}", self.width)
        }
    }

    /// The tiles of a tree of `size` entries at `level`: the full ones,
    /// then the partial one if any.
    pub(super) fn count(size: u64, level: u8) -> (u64, usize) {
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
