//! Where a tree's bytes come from ([`Source`]): a stream or a file, hashed
//! in bounded memory through the crate's one pipeline ([`crate::pipe`]: a
//! stream's next buffer is filled by a reader thread while the current one
//! is hashed block-parallel; a regular file's is read with positional
//! reads by every thread, each run of blocks by the thread that hashes it,
//! just before). Files are never mapped: a map of a file another
//! process truncates raises SIGBUS, which would kill a Python or Java
//! process embedding the library; a positional read returns an error
//! naming where the file ended. Plain SHA-256 is the crate's one streaming
//! hash, [`crate::digest::Hasher`], fed by the same pipeline.

use std::fs::File;
use std::io::{self, Read};

use super::engine::{Builder, Chunks, Rule};
use crate::digest::Digest;
use crate::io::ReadAt;
use crate::par::Parallelism;
use crate::pipe::{self, Transform};

/// Feeds buffers of the stream, cut into leaves, to a tree builder.
struct Feed<'a, R> {
    builder: Builder<R>,
    leaf_size: usize,
    out: &'a mut Option<(Option<Digest>, Vec<Digest>)>,
}

/// The bytes in one block of leaves; `InvalidInput` if that overflows.
fn block_bytes<R: Rule>(builder: &Builder<R>, leaf_size: usize) -> io::Result<usize> {
    leaf_size.checked_mul(builder.block_leaves()).ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("a block of {leaf_size}-byte leaves does not fit in memory"),
        )
    })
}

impl<R: Rule + Send> Transform for Feed<'_, R> {
    type Error = io::Error;
    fn unit(&self) -> usize {
        // `build` checked that this does not overflow.
        self.leaf_size * self.builder.block_leaves()
    }
    fn hold_back(&self, _len: usize) -> usize {
        // Every buffer but the last is whole units; the last may end in a
        // partial block, which the builder keeps for `finish`.
        0
    }
    fn apply(&mut self, data: &mut [u8], par: &Parallelism) {
        self.builder.add(&Chunks::new(data, self.leaf_size), par);
    }
    fn apply_filled(&mut self, data: &mut [u8], par: &Parallelism, fill: &pipe::Fill<'_>) -> io::Result<()> {
        // Each run of blocks read by the thread that hashes it, just before
        // (a regular file on several threads: `pipe::run_file`).
        self.builder.add_filled(data, self.leaf_size, par, fill)
    }
    fn finish(self, _tail: &[u8]) -> io::Result<Vec<u8>> {
        *self.out = Some(self.builder.finish());
        Ok(Vec::new())
    }
}

/// Where a tree's bytes come from: a stream, or an open file.
pub(crate) enum Source<'a, I> {
    Reader(I),
    File(&'a File),
}

impl<'a> Source<'a, ReadAt<'a>> {
    /// A regular file whole, as long as it is when hashing starts (a file
    /// that shrinks meanwhile is an error), or anything else as a stream
    /// from where it is: [`pipe::run_file`], the crate's one file pipeline.
    pub(crate) fn of_file(file: &'a File) -> Self {
        Source::File(file)
    }
}

impl<I: Read + Send> Source<'_, I> {
    pub(crate) fn build<R: Rule + Send>(
        self,
        builder: Builder<R>,
        leaf_size: usize,
        par: &Parallelism,
        progress: impl FnMut(u64),
    ) -> io::Result<(Option<Digest>, Vec<Digest>)> {
        block_bytes(&builder, leaf_size)?;
        let mut out = None;
        let feed = Feed {
            builder,
            leaf_size,
            out: &mut out,
        };
        let buffer = pipe::buffer_for(par);
        match self {
            Source::Reader(input) => pipe::run(feed, input, io::sink(), buffer, par, progress),
            Source::File(file) => pipe::run_file(feed, &[], file, io::sink(), buffer, par, progress),
        }?;
        Ok(out.unwrap_or_default())
    }

    /// Plain SHA-256 of everything: [`crate::digest::sha256_file`] /
    /// [`crate::digest::sha256_reader`], where it lives.
    pub(crate) fn sha256(self, progress: impl FnMut(u64)) -> io::Result<Digest> {
        match self {
            Source::Reader(input) => crate::digest::sha256_reader(input, progress),
            Source::File(file) => crate::digest::sha256_file(file, progress),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Error, MAX_LEAF_SIZE, Rfc6962};
    use crate::par::Parallelism;

    /// Leaf sizes past the limit are refused before any buffer is sized
    /// (they used to overflow, or abort allocating). PARC4's block sizes
    /// have the same test with its other tests (`tests/it/rc4_parc4.rs`).
    #[test]
    fn huge_leaf_sizes_are_errors() {
        let par = Parallelism::default();
        for size in [0, MAX_LEAF_SIZE + 1, 100 << 30, 1 << 63, usize::MAX] {
            let got = Rfc6962::root_reader(&b"leaf"[..], size, &par, |_| {});
            assert!(matches!(got, Err(Error::LeafSize(n)) if n == size), "{size}");
        }
        assert!(Rfc6962::root_reader(&b"leaf"[..], MAX_LEAF_SIZE, &par, |_| {}).is_ok());
    }
}
