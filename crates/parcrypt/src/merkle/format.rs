//! [`Format`], the name of what `parcrypt hash --format` computes, and the
//! calls that hash a stream or a file in any format ([`hash_reader`],
//! [`hash_file`]).

use std::fmt;
use std::fs::File;
use std::io::Read;
use std::str::FromStr;

use super::stream::Source;
use super::{BitTorrentV2, Error, Glacier, Rfc6962, compact};
use crate::digest::Digest;
use crate::name::UnknownName;
use crate::par::Parallelism;

/// What [`hash_reader`], [`hash_file`] and [`super::hash_files`] compute.
///
/// Parsed with [`FromStr`] from the names `parcrypt hash --format` takes
/// (`sha256`, `rfc6962`, `bittorrent-v2`, `glacier`, and the aliases
/// [`compact::Tree`] accepts); `rfc6962` parses with leaves of
/// [`Format::DEFAULT_LEAF_SIZE`] bytes, [`Format::with_leaf_size`] sets
/// another.
///
/// # Examples
/// ```
/// use parcrypt::merkle::Format;
///
/// let format: Format = "rfc6962".parse()?;
/// assert_eq!(format, Format::Rfc6962 { leaf_size: 4096 });
/// assert_eq!(format.with_leaf_size(1024), Format::Rfc6962 { leaf_size: 1024 });
/// assert_eq!("glacier".parse::<Format>()?.with_leaf_size(1024), Format::Glacier);
/// assert_eq!(Format::BitTorrentV2.to_string(), "bittorrent-v2");
/// # Ok::<(), parcrypt::UnknownName>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Format {
    /// Plain SHA-256 of the whole input (serial by nature), like `sha256sum`:
    /// one of the formats `hash` and `sums` choose from, hashed by
    /// [`crate::digest::sha256_file`] (where plain SHA-256 lives).
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
    /// The leaf size `rfc6962` parses with (and `parcrypt hash` uses
    /// without `--leaf-size`): 4 KiB.
    pub const DEFAULT_LEAF_SIZE: usize = 4096;

    /// This format with RFC 6962 leaves of `leaf_size` bytes; the other
    /// formats fix their leaves (or have none) and are returned as they are.
    #[must_use]
    pub fn with_leaf_size(self, leaf_size: usize) -> Format {
        match self {
            Format::Rfc6962 { .. } => Format::Rfc6962 { leaf_size },
            other => other,
        }
    }

    /// The name, as [`FromStr`] reads it and `parcrypt hash --format` takes
    /// it: `sha256`, `rfc6962`, `bittorrent-v2`, `glacier`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Sha256 => "sha256",
            Format::Rfc6962 { .. } => compact::Tree::Rfc6962.name(),
            Format::BitTorrentV2 => compact::Tree::BitTorrentV2.name(),
            Format::Glacier => compact::Tree::Glacier.name(),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = UnknownName;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        if name == "sha256" {
            return Ok(Format::Sha256);
        }
        let tree = name.parse::<compact::Tree>().map_err(|_| {
            UnknownName::new("hash format", name, "sha256, rfc6962, bittorrent-v2 or glacier")
        })?;
        Ok(match tree {
            compact::Tree::Rfc6962 => Format::Rfc6962 {
                leaf_size: Format::DEFAULT_LEAF_SIZE,
            },
            compact::Tree::BitTorrentV2 => Format::BitTorrentV2,
            compact::Tree::Glacier => Format::Glacier,
        })
    }
}

/// The hash of everything `input` yields, in `format`, read in bounded memory
/// with reading overlapped with hashing. `progress` is called with the number
/// of bytes read. Returns None only for an empty input in
/// [`Format::BitTorrentV2`], which BEP 52 lists without a root (the one
/// exception to the empty-input rule of [`crate::merkle`], kept here because
/// this is what `parcrypt hash` prints).
///
/// # Errors
/// [`Error::LeafSize`]; [`Error::Io`] from reading.
pub fn hash_reader(
    format: Format,
    input: impl Read + Send,
    par: &Parallelism,
    progress: impl FnMut(u64),
) -> Result<Option<Digest>, Error> {
    hash_source(format, Source::Reader(input), par, progress)
}

/// Like [`hash_reader`] for an open file. A regular file is hashed whole,
/// as long as it was when hashing started, whatever its current position,
/// read with positional reads by every thread (memory stays bounded for
/// any file size); anything else (a pipe, a device) is read like a stream.
///
/// A file that another process truncates while it is hashed is an
/// [`Error::Io`] (`UnexpectedEof`, saying where it ended), never a signal:
/// nothing is memory-mapped, so a process embedding the library (Python,
/// Java) survives it.
///
/// # Errors
/// [`Error::LeafSize`]; [`Error::Io`] from reading or mapping.
pub fn hash_file(
    format: Format,
    file: &File,
    par: &Parallelism,
    progress: impl FnMut(u64),
) -> Result<Option<Digest>, Error> {
    hash_source(format, Source::of_file(file), par, progress)
}

fn hash_source(
    format: Format,
    source: Source<'_, impl Read + Send>,
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
            Ok(BitTorrentV2::hashes_source(source, piece, par, progress)?.pieces_root)
        }
        Format::Glacier => Glacier::root_source(source, par, progress).map(Some),
    }
}
