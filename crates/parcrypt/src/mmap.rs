//! Read-only memory maps of file windows, for reading files without copying
//! them out of the page cache. With `ffi/` and `secret.rs`, the only
//! `unsafe` code in the crate.
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
//! instead (`stream::decrypt_file`).
//!
//! The uses:
//! - **Hashing** (`merkle`: SHA-256 of leaves and of whole files, RustCrypto's
//!   `sha2`). Each byte is read once; a concurrent writer makes the digest that of some mix of
//!   old and new bytes, as with `read(2)` during a write. The digest
//!   vouches for nothing beyond "these were the bytes read".
//! - **Sealing** (`stream::encrypt_file`: AES-GCM seal of plaintext segments).
//!   The plaintext is read once, by the CTR pass; GHASH runs over the
//!   ciphertext, which is written to parcrypt's own buffers. A concurrent
//!   writer changes which plaintext is sealed, never the agreement between
//!   the stream's ciphertext and its tags: the stream still decrypts and
//!   authenticates, to a mix of old and new bytes, as with `read(2)`.

#![allow(unsafe_code)]

use std::fs::File;
use std::io;

use memmap2::{Advice, Mmap, MmapOptions};

/// Maps `len` bytes of `file` from `offset` (any alignment), read-only, for
/// one of the uses listed in the module documentation.
pub(crate) fn map(file: &File, offset: u64, len: usize) -> io::Result<Mmap> {
    // SAFETY: the map is read-only and parcrypt never writes the file, and
    // the `Mmap` is unmapped when dropped, before `file` can be closed.
    // What memmap2 asks callers to rule out — the bytes changing while they
    // are borrowed — parcrypt cannot rule out for a file others may write;
    // the bytes are handed only to code that reads each of them once
    // (RustCrypto's SHA-256, AWS-LC's AES-GCM seal) and whose result for
    // changed bytes is sound, per use, as argued in the module docs;
    // parcrypt's own code only slices the map by length. Truncation is the
    // documented SIGBUS caveat.
    let map = unsafe { MmapOptions::new().offset(offset).len(len).map(file)? };
    // Only a hint: a kernel that refuses it still reads the map correctly.
    let _ = map.advise(Advice::Sequential);
    Ok(map)
}
