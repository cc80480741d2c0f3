//! The Amazon S3 Glacier tree hash.

use crate::digest::Digest;
use std::io::Read;

use super::Error;
use super::engine::{self, Builder, Chunks, Rule, sha256};
use super::stream::Source;
use crate::par::Parallelism;

/// The Glacier tree hash: SHA-256 of each 1 MiB chunk (the last one as it
/// is), then pairs combined as SHA-256(left ‖ right) level by level, an odd
/// last node carried up unchanged. That is the RFC 6962 shape without the
/// prefixes, so the same engine computes it. Empty input hashes as one empty
/// chunk: SHA-256 of nothing.
///
/// # Examples
/// ```
/// use parcrypt::merkle::Glacier;
/// use parcrypt::par::Parallelism;
///
/// let data = vec![0u8; 3 << 20];
/// let hash = Glacier::tree_hash(&data, &Parallelism::default());
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

    /// The tree hash of `data`.
    pub fn tree_hash(data: &[u8], par: &Parallelism) -> Digest {
        engine::root(Glacier, &Chunks::new(data, Self::CHUNK), par).unwrap_or_else(|| sha256(&[]))
    }

    /// The tree hash of a stream, read in bounded memory; `progress` is
    /// called with the number of bytes read.
    ///
    /// # Errors
    /// [`Error::Io`] from reading.
    pub fn tree_hash_reader(
        input: impl Read + Send,
        par: &Parallelism,
        progress: impl FnMut(u64),
    ) -> Result<Digest, Error> {
        Self::hash_source(Source::Reader(input), par, progress)
    }

    pub(crate) fn hash_source(
        source: Source<'_, impl Read + Send>,
        par: &Parallelism,
        progress: impl FnMut(u64),
    ) -> Result<Digest, Error> {
        let builder = Builder::new(Glacier, Self::CHUNK, None);
        let (root, _) = source.build(builder, Self::CHUNK, par, progress)?;
        Ok(root.unwrap_or_else(|| sha256(&[])))
    }
}
