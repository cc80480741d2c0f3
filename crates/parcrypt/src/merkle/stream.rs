//! Hashing a stream in bounded memory through the crate's one pipeline
//! ([`crate::pipe`]): a reader thread fills the next buffer while the current
//! one is hashed block-parallel.

use std::io::{self, Read};

use sha2::{Digest as _, Sha256};

use super::engine::{Builder, Chunks, Hash, Rule};
use crate::par::Parallelism;
use crate::pipe::{self, Transform};

/// Buffers of about this many bytes (rounded up to whole blocks of leaves).
const BUFFER: usize = 8 << 20;

/// Feeds buffers of the stream, cut into leaves, to a tree builder.
struct Feed<'a, R> {
    builder: Builder<R>,
    leaf_size: usize,
    out: &'a mut Option<(Option<Hash>, Vec<Hash>)>,
}

impl<R: Rule + Send> Transform for Feed<'_, R> {
    type Error = io::Error;
    fn unit(&self) -> usize {
        self.leaf_size * self.builder.block_leaves()
    }
    fn hold_back(&self, _len: usize) -> usize {
        // Every buffer but the last is whole units; the last may end in a
        // partial block, which the builder keeps for `finish`.
        0
    }
    fn apply(&mut self, data: &mut [u8], par: &Parallelism) {
        self.builder.add(par, &Chunks::new(data, self.leaf_size));
    }
    fn finish(self, _tail: &[u8]) -> io::Result<Vec<u8>> {
        *self.out = Some(self.builder.finish());
        Ok(Vec::new())
    }
}

/// The root (None for an empty stream) and recorded layer of the tree over
/// `input` cut into `leaf_size`-byte leaves.
pub(crate) fn build<R: Rule + Send>(
    builder: Builder<R>,
    leaf_size: usize,
    input: impl Read + Send,
    par: &Parallelism,
    progress: impl FnMut(usize),
) -> io::Result<(Option<Hash>, Vec<Hash>)> {
    let mut out = None;
    let feed = Feed {
        builder,
        leaf_size,
        out: &mut out,
    };
    pipe::run(feed, input, io::sink(), par, BUFFER, progress)?;
    Ok(out.unwrap_or_default())
}

/// Plain SHA-256 of a stream (one core: Merkle–Damgård is serial), with
/// reading overlapped.
struct Plain<'a> {
    hasher: Sha256,
    out: &'a mut Option<Hash>,
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
        *self.out = Some(self.hasher.finalize().into());
        Ok(Vec::new())
    }
}

/// SHA-256 of everything `input` yields.
pub(crate) fn sha256(input: impl Read + Send, progress: impl FnMut(usize)) -> io::Result<Hash> {
    let mut out = None;
    let plain = Plain {
        hasher: Sha256::new(),
        out: &mut out,
    };
    pipe::run(
        plain,
        input,
        io::sink(),
        &Parallelism::sequential(),
        BUFFER,
        progress,
    )?;
    Ok(out.unwrap_or_default())
}
