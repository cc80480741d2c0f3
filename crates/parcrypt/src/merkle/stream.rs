//! Where a tree's bytes come from ([`Source`]): a stream, hashed in bounded
//! memory through the crate's one pipeline ([`crate::pipe`]: a reader
//! thread fills the next buffer while the current one is hashed
//! block-parallel), or a regular file, hashed from memory-mapped windows
//! ([`crate::io::Windows`]). Plain SHA-256 is the crate's one streaming
//! hash, [`crate::digest::Hasher`], fed by the same pipeline for a stream.

use std::fs::File;
use std::io::{self, Read};

use super::engine::{Builder, Chunks, Rule};
use crate::digest::{Algorithm, Digest, Hasher};
use crate::io::{ReadAt, Windows};
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
    fn finish(self, _tail: &[u8]) -> io::Result<Vec<u8>> {
        *self.out = Some(self.builder.finish());
        Ok(Vec::new())
    }
}

/// The root (None for an empty stream) and recorded layer of the tree over
/// `input` cut into `leaf_size`-byte leaves.
fn build<R: Rule + Send>(
    builder: Builder<R>,
    leaf_size: usize,
    input: impl Read + Send,
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
    pipe::run(feed, input, io::sink(), pipe::buffer_for(par), par, progress)?;
    Ok(out.unwrap_or_default())
}

/// Files mapped in windows of about this many bytes (whole blocks of leaves).
const WINDOW: usize = 64 << 20;

/// Like [`build`] for a regular file of `len` bytes, hashed straight from the
/// page cache through memory-mapped windows of whole blocks (no copy, no
/// reader thread).
fn build_file<R: Rule>(
    mut builder: Builder<R>,
    leaf_size: usize,
    file: &File,
    len: u64,
    par: &Parallelism,
    mut progress: impl FnMut(u64),
) -> io::Result<(Option<Digest>, Vec<Digest>)> {
    let unit = block_bytes(&builder, leaf_size)?;
    for map in Windows::new(file, len, unit, WINDOW) {
        let map = map?;
        builder.add(&Chunks::new(&map, leaf_size), par);
        progress(map.len() as u64);
    }
    Ok(builder.finish())
}

/// Where a tree's bytes come from: a stream, or a regular file of known
/// length that can be mapped.
pub(crate) enum Source<'a, I> {
    Reader(I),
    File(&'a File, u64),
}

/// Files below this are read: mapping costs more than copying them.
const MAP_MIN: u64 = 1 << 20;

impl<'a> Source<'a, ReadAt<'a>> {
    /// A regular file whole (mapped if large, read from offset 0 if small),
    /// or anything else as a stream from where it is.
    pub(crate) fn of_file(file: &'a File) -> Self {
        match file.metadata() {
            Ok(m) if m.is_file() && m.len() >= MAP_MIN => Source::File(file, m.len()),
            Ok(m) if m.is_file() => Source::Reader(ReadAt::new(file, 0)),
            _ => Source::Reader(ReadAt::current(file)),
        }
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
        match self {
            Source::Reader(input) => build(builder, leaf_size, input, par, progress),
            Source::File(file, len) => build_file(builder, leaf_size, file, len, par, progress),
        }
    }

    /// Plain SHA-256 of everything (one core: Merkle–Damgård is serial).
    pub(crate) fn sha256(self, mut progress: impl FnMut(u64)) -> io::Result<Digest> {
        let mut hasher = Algorithm::Sha256.hasher();
        match self {
            // A reader thread fills the next buffer while this one is
            // hashed (the crate's one pipeline); `Hasher::update_reader`
            // would read and hash in turn.
            Source::Reader(inner) => {
                pipe::run(
                    Plain(&mut hasher),
                    inner,
                    io::sink(),
                    pipe::MIN_BUFFER,
                    &Parallelism::sequential(),
                    progress,
                )?;
            }
            Source::File(file, len) => {
                for map in Windows::new(file, len, 1, WINDOW) {
                    let map = map?;
                    hasher.update(&map);
                    progress(map.len() as u64);
                }
            }
        }
        let mut out = [0u8; 32];
        out.copy_from_slice(&hasher.finish());
        Ok(out)
    }
}

/// Plain SHA-256 of a stream as a pipeline transform: each buffer is
/// added to the hasher where it lies (nothing is written).
struct Plain<'a>(&'a mut Hasher);

impl Transform for Plain<'_> {
    type Error = io::Error;
    fn unit(&self) -> usize {
        64
    }
    fn hold_back(&self, _len: usize) -> usize {
        0
    }
    fn apply(&mut self, data: &mut [u8], _par: &Parallelism) {
        self.0.update(data);
    }
    fn finish(self, _tail: &[u8]) -> io::Result<Vec<u8>> {
        Ok(Vec::new())
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
