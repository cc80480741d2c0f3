//! The batch buffers the stream code circulates between its reader, its
//! workers and its writer.
//!
//! Three things made megabyte buffers cost as much as the cryptography they
//! carry, and this type avoids them:
//! - `Zeroizing<Vec<u8>>` wipes with one volatile store per byte (about a
//!   byte per cycle), so wiping two 8 MiB buffers at the end of a call took
//!   longer than decrypting 16 MiB on two cores. A [`Buffer`] that may hold
//!   plaintext is wiped with one `memset` over the bytes it ever held, kept
//!   from being optimised away by `black_box` and a compiler fence; one that
//!   only ever holds ciphertext is not wiped at all.
//! - Zero-filling a recycled buffer for every batch is a serial pass over
//!   memory. [`Buffer::sized`] keeps the old bytes instead (sealing and
//!   opening overwrite every byte of their output), and a buffer that must
//!   grow is replaced by a zeroed allocation, whose fresh pages the kernel
//!   zeroes when the workers first write them.
//! - A call that starts with fresh buffers pays a page fault per 4 KiB of
//!   them (glibc hands large blocks back to the kernel when they are freed),
//!   which made two threads slower than one on 16 MiB streams in a loop. So
//!   a call's output buffers go back to a small process-wide pool when it
//!   ends (wiped first if they held plaintext; at most [`SPARE_MAX`] bytes
//!   in all) and the next call starts with them.

use std::ops::{Deref, DerefMut};
use std::sync::atomic::{Ordering, compiler_fence};
use std::sync::{Mutex, PoisonError};

/// The most bytes of spare buffers kept between calls: the default batch on
/// 8 threads (32 MiB) twice.
const SPARE_MAX: usize = 64 << 20;

/// Spare buffers, all zero or ciphertext: never plaintext.
static SPARE: Mutex<Vec<Vec<u8>>> = Mutex::new(Vec::new());

/// A byte buffer, wiped when dropped or recycled if it may hold plaintext.
pub(super) struct Buffer {
    bytes: Vec<u8>,
    secret: bool,
    /// How many leading bytes may hold plaintext: the part a wipe must
    /// cover. Only [`Buffer::zeroed`] and [`Buffer::sized`] set the length,
    /// and both raise this to it.
    dirty: usize,
}

impl Buffer {
    /// A spare buffer from an earlier call if there is one, else an empty
    /// one; `secret` if it may ever hold plaintext.
    pub(super) fn spare(secret: bool) -> Self {
        let bytes = SPARE.lock().unwrap_or_else(PoisonError::into_inner).pop();
        Buffer {
            // Spare buffers hold zeros or ciphertext, which need no wipe.
            bytes: bytes.unwrap_or_default(),
            secret,
            dirty: 0,
        }
    }

    /// `len` zero bytes; `secret` if it may ever hold plaintext.
    pub(super) fn zeroed(len: usize, secret: bool) -> Self {
        Buffer {
            bytes: vec![0; len],
            secret,
            dirty: len,
        }
    }

    /// Makes the buffer `len` bytes long for the caller to overwrite whole,
    /// without a pass over it: bytes it held stay; growing beyond its
    /// capacity replaces the allocation (the old one wiped) by a zeroed one.
    pub(super) fn sized(&mut self, len: usize) {
        if self.bytes.capacity() < len {
            *self = Buffer::zeroed(len, self.secret);
        } else {
            self.bytes.truncate(len);
            self.bytes.resize(len, 0);
        }
        self.dirty = self.dirty.max(len);
    }

    /// Gives the buffer back for a later call (wiped first if it may hold
    /// plaintext), or frees it if the pool is full.
    pub(super) fn recycle(self) {
        let bytes = self.into_spare();
        let mut spare = SPARE.lock().unwrap_or_else(PoisonError::into_inner);
        let held: usize = spare.iter().map(Vec::capacity).sum();
        if held + bytes.capacity() <= SPARE_MAX {
            spare.push(bytes);
        }
    }

    /// The allocation, with every byte it was given wiped if it may hold
    /// plaintext.
    fn into_spare(mut self) -> Vec<u8> {
        let mut bytes = std::mem::take(&mut self.bytes);
        if self.secret {
            wipe(&mut bytes, self.dirty);
        }
        bytes
    }
}

impl Drop for Buffer {
    fn drop(&mut self) {
        if self.secret {
            wipe(&mut self.bytes, self.dirty);
        }
    }
}

/// Zeroes the first `dirty` bytes of `v`'s allocation and leaves it that
/// long.
fn wipe(v: &mut Vec<u8>, dirty: usize) {
    let upto = dirty.min(v.capacity());
    v.clear();
    v.resize(upto, 0);
    // The zeros must reach memory although the buffer may be freed next.
    std::hint::black_box(v.as_mut_slice());
    compiler_fence(Ordering::SeqCst);
}

impl Deref for Buffer {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.bytes
    }
}

impl DerefMut for Buffer {
    fn deref_mut(&mut self) -> &mut [u8] {
        &mut self.bytes
    }
}

impl std::fmt::Debug for Buffer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Buffer({} bytes, secret: {})", self.bytes.len(), self.secret)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sized_keeps_the_allocation_without_a_pass() {
        let mut b = Buffer::zeroed(64, true);
        b.fill(0xa5);
        let ptr = b.as_ptr();
        b.sized(16);
        assert_eq!(b.len(), 16);
        assert!(b.iter().all(|&x| x == 0xa5), "old bytes kept");
        b.sized(64);
        assert_eq!(b.as_ptr(), ptr, "no reallocation within the capacity");
        b.sized(65);
        assert_eq!(b.len(), 65);
        assert!(b.iter().all(|&x| x == 0), "a grown buffer is zeroed");
    }

    #[test]
    fn plaintext_goes_to_the_pool_wiped_and_ciphertext_as_it_is() {
        // Written whole, then shrunk: the wipe still covers every byte written.
        let mut secret = Buffer::zeroed(0, true);
        secret.sized(4096);
        secret.fill(0x5a);
        secret.sized(100);
        let spare = secret.into_spare();
        assert_eq!(spare.len(), 4096);
        assert!(spare.iter().all(|&x| x == 0), "no plaintext in the pool");
        let mut sealed = Buffer::zeroed(64, false);
        sealed.fill(0x33);
        assert!(sealed.into_spare().iter().all(|&x| x == 0x33));
        // A spare buffer reused for plaintext: the plaintext is wiped, the
        // ciphertext beyond it (no secret) is left alone.
        let mut reused = Buffer {
            bytes: vec![0x33; 64],
            secret: true,
            dirty: 0,
        };
        reused.sized(8);
        reused.fill(0x5a);
        reused.sized(16);
        reused.fill(0x5a);
        reused.sized(4);
        let wiped = reused.into_spare();
        assert_eq!(wiped.len(), 16);
        assert!(wiped.iter().all(|&x| x == 0));
        assert_eq!(wiped.capacity(), 64);
        // The reader's input buffers are written without `sized`: all of
        // them counts as plaintext from the start.
        let mut input = Buffer::zeroed(32, true);
        input.fill(0x5a);
        assert!(input.into_spare().iter().all(|&x| x == 0));
    }
}
