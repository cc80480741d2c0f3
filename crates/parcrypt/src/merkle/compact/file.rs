//! [`CompactRange::from_file_range`]: the compact range of a byte range of a
//! file, read through the crate's one pipeline ([`crate::pipe`]) into its
//! buffers and hashed there, buffer by buffer — a worker hashing its part
//! of a large file holds three pipeline buffers, never the part.

use std::fs::File;
use std::io;

use super::{CompactRange, Tree};
use crate::io::ReadAt;
use crate::merkle::engine::Chunks;
use crate::merkle::{Error, MAX_LEAF_SIZE};
use crate::par::Parallelism;
use crate::pipe::{self, Transform};

/// Extends a compact range with each buffer's leaves.
struct Extend<'a> {
    range: CompactRange,
    leaf_size: usize,
    out: &'a mut Option<CompactRange>,
}

impl Transform for Extend<'_> {
    type Error = io::Error;
    fn unit(&self) -> usize {
        // Every buffer but the last is whole leaves.
        self.leaf_size
    }
    fn hold_back(&self, _len: usize) -> usize {
        // The last buffer may end in a short leaf: the file's last.
        0
    }
    fn apply(&mut self, data: &mut [u8], par: &Parallelism) {
        let part = CompactRange::from_leaves(
            self.range.tree(),
            self.range.end(),
            &Chunks::new(data, self.leaf_size),
            par,
        );
        self.range = self
            .range
            .merge(&part)
            .expect("a range and the one starting at its end, of one tree, merge");
    }
    fn finish(self, _tail: &[u8]) -> io::Result<Vec<u8>> {
        *self.out = Some(self.range);
        Ok(Vec::new())
    }
}

impl CompactRange {
    /// The range of the `len` bytes of `file` from byte `offset`, which must
    /// be a multiple of the leaf size (`leaf_size` for RFC 6962; 16 KiB and
    /// 1 MiB for BitTorrent v2 and Glacier, whatever `leaf_size` says): the
    /// same range as [`CompactRange::from_bytes_at`] of those bytes, without
    /// holding them. They are read with positional reads (the file's cursor
    /// is left alone, the file is never mapped) by a reader thread into the
    /// pipeline's buffers, each hashed under `par` while the next is read.
    /// The range ends in a short leaf only if the bytes do.
    ///
    /// # Errors
    /// [`Error::LeafSize`] for a leaf size of 0 or over [`MAX_LEAF_SIZE`];
    /// [`Error::Io`]: `InvalidInput` for an `offset` that is not a multiple
    /// of it, and from reading:
    /// `UnexpectedEof`, saying where, if the file ends before `offset + len`
    /// (shorter than the caller thought, or truncated while it is read).
    pub fn from_file_range(
        tree: Tree,
        leaf_size: usize,
        file: &File,
        offset: u64,
        len: u64,
        par: &Parallelism,
    ) -> Result<CompactRange, Error> {
        let size = tree.leaf_size().unwrap_or(leaf_size);
        if !(1..=MAX_LEAF_SIZE).contains(&size) {
            return Err(Error::LeafSize(size));
        }
        if offset % size as u64 != 0 {
            return Err(Error::Io(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("offset {offset} is not a multiple of the {size}-byte leaf"),
            )));
        }
        let mut out = None;
        let extend = Extend {
            range: CompactRange::empty(tree, offset / size as u64),
            leaf_size: size,
            out: &mut out,
        };
        pipe::run(
            extend,
            ReadAt::exactly(file, offset, len),
            io::sink(),
            pipe::buffer_for(par),
            par,
            |_| {},
        )?;
        Ok(out.expect("the pipeline finishes the transform when it succeeds"))
    }
}
