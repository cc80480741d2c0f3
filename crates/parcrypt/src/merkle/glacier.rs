//! The Amazon S3 Glacier tree hash.

use std::fs::File;
use std::io::Read;

use super::Error;
use super::engine::{self, Builder, Chunks, Rule, empty_root};
use super::stream::Source;
use crate::digest::Digest;
use crate::par::Parallelism;

/// The Glacier tree hash: SHA-256 of each 1 MiB chunk (the last one as it
/// is), then pairs combined as SHA-256(left ‖ right) level by level, an odd
/// last node carried up unchanged. That is the RFC 6962 shape without the
/// prefixes, so the same engine computes it. Empty input hashes as one empty
/// chunk: SHA-256 of nothing, the rule of every format (see
/// [`crate::merkle`]).
///
/// # Examples
/// ```
/// use parcrypt::merkle::Glacier;
/// use parcrypt::par::Parallelism;
///
/// let data = vec![0u8; 3 << 20];
/// let hash = Glacier::root(&data, &Parallelism::default());
/// # let _ = hash;
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Glacier;

impl Rule for Glacier {
    const PADDED: bool = false;
    const LEAF_PREFIX: &'static [u8] = &[];
    const NODE_PREFIX: &'static [u8] = &[];
}

impl Glacier {
    /// The chunk (leaf) size: 1 MiB.
    pub const CHUNK: usize = 1 << 20;

    /// The tree hash of `data` (SHA-256 of nothing if it is empty).
    pub fn root(data: &[u8], par: &Parallelism) -> Digest {
        engine::root(Glacier, &Chunks::new(data, Self::CHUNK), par).unwrap_or_else(empty_root)
    }

    /// The tree hash of a stream, read in bounded memory; `progress` is
    /// called with the number of bytes read.
    ///
    /// # Errors
    /// [`Error::Io`] from reading.
    pub fn root_reader(
        input: impl Read + Send,
        par: &Parallelism,
        progress: impl FnMut(u64),
    ) -> Result<Digest, Error> {
        Self::root_source(Source::Reader(input), par, progress)
    }

    /// The tree hash of a file, read with positional reads when it
    /// is a regular file (see [`crate::merkle::hash_file`]).
    ///
    /// # Errors
    /// [`Error::Io`] from reading (`UnexpectedEof` if the file shrinks meanwhile).
    pub fn root_file(file: &File, par: &Parallelism, progress: impl FnMut(u64)) -> Result<Digest, Error> {
        Self::root_source(Source::of_file(file), par, progress)
    }

    pub(crate) fn root_source(
        source: Source<'_, impl Read + Send>,
        par: &Parallelism,
        progress: impl FnMut(u64),
    ) -> Result<Digest, Error> {
        let builder = Builder::new(Glacier, Self::CHUNK, None);
        let (root, _) = source.build(builder, Self::CHUNK, par, progress)?;
        Ok(root.unwrap_or_else(empty_root))
    }
}
