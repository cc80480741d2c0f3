//! Hashing a stream in bounded memory through the crate's one pipeline
//! ([`crate::pipe`]): a reader thread fills the next buffer while the current
//! one is hashed block-parallel; a regular file is hashed from memory-mapped
//! windows instead ([`crate::io::Windows`]).

use crate::digest::Digest;
use std::fs::File;
use std::io::{self, Read};

use super::engine::{Builder, Chunks, Rule};
use crate::digest::Sha256;
use crate::io::Windows;
use crate::par::Parallelism;
use crate::pipe::{self, Transform};

/// Buffers of about this many bytes for one thread (rounded up to whole
/// blocks of leaves); [`pipe::buffer_for`] grows them with the threads.
const BUFFER: usize = pipe::MIN_BUFFER;

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

    pub(crate) fn sha256(self, mut progress: impl FnMut(u64)) -> io::Result<Digest> {
        match self {
            Source::Reader(input) => sha256(input, progress),
            Source::File(file, len) => {
                let mut hasher = Sha256::new();
                for map in Windows::new(file, len, 1, WINDOW) {
                    let map = map?;
                    hasher.update(&map);
                    progress(map.len() as u64);
                }
                Ok(hasher.finish())
            }
        }
    }
}

/// Plain SHA-256 of a stream (one core: Merkle–Damgård is serial), with
/// reading overlapped.
struct Plain<'a> {
    hasher: Sha256,
    out: &'a mut Option<Digest>,
}

impl Transform for Plain<'_> {
    type Error = io::Error;
    fn unit(&self) -> usize {
        64
    }
    fn hold_back(&self, _len: usize) -> usize {
        0
    }
    fn apply(&mut self, data: &mut [u8], _par: &Parallelism) {
        self.hasher.update(&*data);
    }
    fn finish(self, _tail: &[u8]) -> io::Result<Vec<u8>> {
        *self.out = Some(self.hasher.finish());
        Ok(Vec::new())
    }
}

/// SHA-256 of everything `input` yields.
fn sha256(input: impl Read + Send, progress: impl FnMut(u64)) -> io::Result<Digest> {
    let mut out = None;
    let plain = Plain {
        hasher: Sha256::new(),
        out: &mut out,
    };
    pipe::run(
        plain,
        input,
        io::sink(),
        BUFFER,
        &Parallelism::sequential(),
        progress,
    )?;
    Ok(out.unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::super::{Error, MAX_LEAF_SIZE, Rfc6962};
    use crate::hazmat::{MAX_BLOCK_SIZE, Parc4, Rc4Error};
    use crate::par::Parallelism;

    /// Leaf and block sizes past the limits are refused before any buffer
    /// is sized (they used to overflow, or abort allocating).
    #[test]
    fn huge_leaf_and_block_sizes_are_errors() {
        let par = Parallelism::default();
        for size in [0, MAX_LEAF_SIZE + 1, 100 << 30, 1 << 63, usize::MAX] {
            let got = Rfc6962::root_reader(&b"leaf"[..], size, &par, |_| {});
            assert!(matches!(got, Err(Error::LeafSize(n)) if n == size), "{size}");
        }
        assert!(Rfc6962::root_reader(&b"leaf"[..], MAX_LEAF_SIZE, &par, |_| {}).is_ok());
        for size in [0, MAX_BLOCK_SIZE + 1, 1 << 63, usize::MAX] {
            assert!(
                matches!(Parc4::new(&[1; 16], &[2; 16], size), Err(Rc4Error::BlockSize)),
                "{size}"
            );
        }
        let mut out = Vec::new();
        let parc4 = Parc4::new(&[1; 16], &[2; 16], MAX_BLOCK_SIZE).expect("the largest block");
        assert_eq!(parc4.process(&b"abc"[..], &mut out, &par).ok(), Some(3));
    }
}
