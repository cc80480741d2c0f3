//! The one memory-map window iterator: read-only maps of a file a window
//! at a time, for reading files without copying them out of the page
//! cache. With `ffi/`, `secret.rs`, `io/pipe_size.rs` and `digest/many/`, the only `unsafe`
//! code in the crate.
//!
//! A map is shared with every other process that has the file open: a
//! concurrent writer changes the mapped bytes while parcrypt reads them, and
//! a concurrent truncation makes touching the lost pages raise SIGBUS (the
//! caveat every mmap-based tool shares: b3sum, ripgrep; callers map regular
//! files only and document it). So a map is only handed to work whose
//! result stays sound when its input changes while it is read — each use is
//! argued below — and never to work that reads its input twice and relies
//! on seeing the same bytes: authenticated decryption (AES-GCM open reads
//! the ciphertext once for GHASH and again for CTR, so a tag could verify
//! over bytes other than those decrypted) reads into private buffers
//! instead (`stream::decrypt_file`, through [`super::read_exact_at`]).
//!
//! The uses:
//! - **Hashing** (`merkle`: SHA-256 of leaves and of whole files, RustCrypto's
//!   `sha2`). Each byte is read once; a concurrent writer makes the digest that of some mix of
//!   old and new bytes, as with `read(2)` during a write. The digest
//!   vouches for nothing beyond "these were the bytes read".

#![allow(unsafe_code)]

use std::fs::File;
use std::io;

use memmap2::{Advice, Mmap, MmapOptions};

/// The first `len` bytes of a file, mapped a window at a time: every window
/// but the last is a whole number of units (so a unit never straddles two
/// windows) and about `window` bytes; a unit larger than `window` is a
/// window alone. Each map is advised `MADV_SEQUENTIAL` and unmapped when
/// dropped. For the uses listed in the module documentation only.
#[derive(Debug)]
pub(crate) struct Windows<'a> {
    file: &'a File,
    offset: u64,
    len: u64,
    window: u64,
}

impl<'a> Windows<'a> {
    /// Windows of whole `unit`s (at least one byte), about `window` bytes
    /// each, over the first `len` bytes of `file`.
    pub(crate) fn new(file: &'a File, len: u64, unit: usize, window: usize) -> Self {
        let unit = unit.max(1);
        let window = window.div_ceil(unit).max(1).saturating_mul(unit);
        Windows {
            file,
            offset: 0,
            len,
            window: window as u64,
        }
    }

    /// Whether every window has been handed out (at once for an empty file).
    pub(crate) fn done(&self) -> bool {
        self.offset == self.len
    }
}

impl Iterator for Windows<'_> {
    type Item = io::Result<Mmap>;

    fn next(&mut self) -> Option<io::Result<Mmap>> {
        if self.done() {
            return None;
        }
        let n = (self.len - self.offset).min(self.window);
        let map = usize::try_from(n)
            .map_err(io::Error::other)
            .and_then(|n| map(self.file, self.offset, n));
        self.offset = if map.is_ok() { self.offset + n } else { self.len };
        Some(map)
    }
}

/// Maps `len` bytes of `file` from `offset` (any alignment), read-only.
fn map(file: &File, offset: u64, len: usize) -> io::Result<Mmap> {
    // SAFETY: the map is read-only and parcrypt never writes the file, and
    // the `Mmap` is unmapped when dropped, before `file` can be closed.
    // What memmap2 asks callers to rule out — the bytes changing while they
    // are borrowed — parcrypt cannot rule out for a file others may write;
    // the bytes are handed only to code that reads each of them once
    // (RustCrypto's SHA-256) and whose result for
    // changed bytes is sound, per use, as argued in the module docs;
    // parcrypt's own code only slices the map by length. Truncation is the
    // documented SIGBUS caveat.
    let map = unsafe { MmapOptions::new().offset(offset).len(len).map(file)? };
    // Only a hint: a kernel that refuses it still reads the map correctly.
    let _ = map.advise(Advice::Sequential);
    Ok(map)
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    #[test]
    fn windows_are_whole_units_and_cover_the_file_once() {
        let data: Vec<u8> = (0..10_000u32).map(|i| (i % 251) as u8).collect();
        let mut f = tempfile::tempfile().expect("a temporary file");
        f.write_all(&data).expect("written");
        // Units of 300 bytes, windows of about 1000: rounded up to 1200 bytes.
        let mut windows = Windows::new(&f, data.len() as u64, 300, 1000);
        let mut seen = Vec::new();
        let mut sizes = Vec::new();
        for w in windows.by_ref() {
            let w = w.expect("mapped");
            sizes.push(w.len());
            seen.extend_from_slice(&w);
        }
        assert!(windows.done());
        assert_eq!(seen, data);
        assert_eq!(sizes, [1200, 1200, 1200, 1200, 1200, 1200, 1200, 1200, 400]);
        // A unit over the window is a window alone; part of a file; nothing.
        let sizes: Vec<usize> = Windows::new(&f, 5000, 4096, 1000)
            .map(|w| w.unwrap().len())
            .collect();
        assert_eq!(sizes, [4096, 904]);
        let mut empty = Windows::new(&f, 0, 1, 1 << 20);
        assert!(empty.done());
        assert!(empty.next().is_none());
    }
}
