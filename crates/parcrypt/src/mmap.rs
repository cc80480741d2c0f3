//! Read-only memory maps of file windows, for hashing files without copying
//! them out of the page cache. With `ffi.rs`, the only `unsafe` code in the
//! crate.
//!
//! The caveat every mmap-based tool shares (b3sum, ripgrep): if another
//! process truncates the file while a window is mapped, touching the lost
//! pages raises SIGBUS. Callers map regular files only and document it.
#![allow(unsafe_code)]

use std::fs::File;
use std::io;

use memmap2::{Advice, Mmap, MmapOptions};

/// Maps `len` bytes of `file` from `offset` (any alignment), read-only.
pub(crate) fn map(file: &File, offset: u64, len: usize) -> io::Result<Mmap> {
    // SAFETY: the map is read-only and private to this process; parcrypt
    // never writes the file. Concurrent writes by others can only change the
    // bytes hashed (as with read(2)); truncation is the documented SIGBUS
    // caveat above. The `Mmap` is dropped (unmapped) before `file` can be.
    let map = unsafe { MmapOptions::new().offset(offset).len(len).map(file)? };
    // Only a hint: a kernel that refuses it still reads the map correctly.
    let _ = map.advise(Advice::Sequential);
    Ok(map)
}
