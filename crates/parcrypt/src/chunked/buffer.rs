//! The batch buffers the stream code circulates between its reader, its
//! workers and its writer.
//!
//! Four things made megabyte buffers cost as much as the cryptography they
//! carry, or more memory than the data needs, and this type avoids them:
//! - A buffer is as large as the data it holds, not as the batch it could
//!   hold: the reader grows its buffer (doubling, from 64 KiB) as bytes
//!   arrive ([`Buffer::fill_from`]), and outputs are sized to their batch, so
//!   three bytes of input never cost a segment-sized allocation.
//! - Wiping is one [`crate::secret::wipe`] (`explicit_bzero`) over exactly
//!   the bytes a buffer was ever given (its high-water mark), not its whole
//!   allocation, and only for buffers that may hold plaintext; a volatile
//!   byte loop (`Zeroizing<Vec<u8>>`) took longer than decrypting 16 MiB on
//!   two cores.
//! - Zero-filling a recycled buffer for every batch is a serial pass over
//!   memory. [`Buffer::sized`] keeps the old bytes instead (sealing and
//!   opening overwrite every byte of their output), and a buffer that must
//!   grow beyond its allocation is replaced by a zeroed one, whose fresh
//!   pages the kernel zeroes when the workers first write them.
//! - A call that starts with fresh buffers pays a page fault per 4 KiB of
//!   them (glibc hands large blocks back to the kernel when they are freed),
//!   which made two threads slower than one on 16 MiB streams in a loop. So
//!   a call's output buffers go back to a small process-wide pool when it
//!   ends (wiped first if they held plaintext; at most [`SPARE_MAX`] bytes
//!   in all) and the next call starts with them.

use std::io::{self, Read};
use std::ops::{Deref, DerefMut};
use std::sync::{Mutex, PoisonError};

use crate::secret::wipe;

/// The most bytes of spare buffers kept between calls: two full output
/// batches.
const SPARE_MAX: usize = 2 * super::BATCH_BYTES;

/// The reader's first allocation; it doubles from there as data arrives.
const FIRST_READ: usize = 64 << 10;

/// Spare buffers, all zero or ciphertext: never plaintext.
static SPARE: Mutex<Vec<Vec<u8>>> = Mutex::new(Vec::new());

/// A byte buffer, wiped when dropped or recycled if it may hold plaintext.
pub(crate) struct Buffer {
    /// The allocation, initialised up to its length (zeros, or bytes held
    /// now or before).
    bytes: Vec<u8>,
    /// How many leading bytes the buffer holds now (what it derefs to).
    len: usize,
    /// How many leading bytes were ever given to it since it was last
    /// wiped: the part a wipe must cover.
    dirty: usize,
    secret: bool,
}

impl Buffer {
    /// An empty buffer with no allocation; `secret` if it may ever hold
    /// plaintext.
    pub(crate) fn new(secret: bool) -> Self {
        Buffer {
            bytes: Vec::new(),
            len: 0,
            dirty: 0,
            secret,
        }
    }

    /// A spare buffer from an earlier call if there is one, else an empty
    /// one; `secret` if it may ever hold plaintext.
    pub(crate) fn spare(secret: bool) -> Self {
        let bytes = SPARE.lock().unwrap_or_else(PoisonError::into_inner).pop();
        Buffer {
            // Spare buffers hold zeros or ciphertext, which need no wipe.
            bytes: bytes.unwrap_or_default(),
            ..Buffer::new(secret)
        }
    }

    /// `count` spare buffers (see [`Buffer::spare`]).
    pub(crate) fn spares(count: usize, secret: bool) -> Vec<Self> {
        (0..count).map(|_| Buffer::spare(secret)).collect()
    }

    /// Makes the buffer `len` bytes long for the caller to overwrite whole,
    /// without a pass over it: bytes it held stay; growing beyond its
    /// allocation replaces it (the old one wiped) by a zeroed one.
    pub(crate) fn sized(&mut self, len: usize) {
        if len > self.bytes.len() {
            if len > self.bytes.capacity() {
                *self = Buffer {
                    bytes: vec![0; len],
                    ..Buffer::new(self.secret)
                };
            } else {
                self.bytes.resize(len, 0);
            }
        }
        self.len = len;
        self.dirty = self.dirty.max(len);
    }

    /// Replaces what the buffer holds by `first` (if any) and what `input`
    /// yields after it, until it holds `limit` bytes or the input ends;
    /// returns how many bytes it holds. The allocation grows as data
    /// arrives, doubling from `expect` (at least 64 KiB) up to `limit`: a
    /// reader that has seen a full batch expects another, and allocates it
    /// at once instead of copying its way up.
    pub(crate) fn fill_from(
        &mut self,
        input: &mut impl Read,
        first: Option<u8>,
        expect: usize,
        limit: usize,
    ) -> io::Result<usize> {
        let mut held = 0;
        let result = loop {
            let room = self.bytes.len().min(limit);
            if held == room {
                if room == limit {
                    break Ok(());
                }
                let to = held.saturating_mul(2).max(expect).max(FIRST_READ).min(limit);
                self.grow(held, to);
                continue;
            }
            if held == 0
                && let Some(b) = first
            {
                self.bytes[0] = b;
                held = 1;
                self.dirty = self.dirty.max(held);
                continue;
            }
            match crate::io::fill(input, &mut self.bytes[held..room]) {
                Ok(n) => {
                    held += n;
                    self.dirty = self.dirty.max(held);
                    if held < room {
                        // The input ended.
                        break Ok(());
                    }
                }
                Err(e) => {
                    // Some bytes before `room` may have been read: the
                    // wipe covers them all.
                    self.dirty = self.dirty.max(room);
                    break Err(e);
                }
            }
        };
        self.len = held;
        result.map(|()| held)
    }

    /// Moves the first `keep` bytes into a new zeroed allocation of `to`
    /// bytes, wiping the old one if it may hold plaintext.
    fn grow(&mut self, keep: usize, to: usize) {
        let mut bigger = vec![0; to];
        bigger[..keep].copy_from_slice(&self.bytes[..keep]);
        let mut old = std::mem::replace(&mut self.bytes, bigger);
        if self.secret {
            let dirty = self.dirty.min(old.len());
            wipe(&mut old[..dirty]);
        }
        self.dirty = keep;
    }

    /// The bytes held, as a vector: for a buffer that never holds plaintext.
    pub(crate) fn into_ciphertext(mut self) -> Vec<u8> {
        debug_assert!(!self.secret, "plaintext leaves through a copy the caller owns");
        let mut bytes = std::mem::take(&mut self.bytes);
        bytes.truncate(self.len);
        bytes
    }

    /// Gives the buffer back for a later call (wiped first if it may hold
    /// plaintext), or frees it if the pool is full.
    pub(crate) fn recycle(self) {
        let bytes = self.into_spare();
        let mut spare = SPARE.lock().unwrap_or_else(PoisonError::into_inner);
        let held: usize = spare.iter().map(Vec::capacity).sum();
        if held.saturating_add(bytes.capacity()) <= SPARE_MAX {
            spare.push(bytes);
        }
    }

    /// The allocation, with every byte it was given wiped if it may hold
    /// plaintext.
    fn into_spare(mut self) -> Vec<u8> {
        self.wipe();
        std::mem::take(&mut self.bytes)
    }

    /// Wipes every byte given to the buffer if it may hold plaintext.
    fn wipe(&mut self) {
        if self.secret {
            let dirty = self.dirty.min(self.bytes.len());
            wipe(&mut self.bytes[..dirty]);
        }
        self.dirty = 0;
    }
}

impl Drop for Buffer {
    fn drop(&mut self) {
        self.wipe();
    }
}

impl Deref for Buffer {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

impl DerefMut for Buffer {
    fn deref_mut(&mut self) -> &mut [u8] {
        &mut self.bytes[..self.len]
    }
}

impl std::fmt::Debug for Buffer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Buffer({} bytes, secret: {})", self.len, self.secret)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sized_keeps_the_allocation_without_a_pass() {
        let mut b = Buffer::new(true);
        b.sized(64);
        b.fill(0xa5);
        let ptr = b.as_ptr();
        b.sized(16);
        assert_eq!(b.len(), 16);
        assert!(b.iter().all(|&x| x == 0xa5), "old bytes kept");
        b.sized(64);
        assert_eq!(b.as_ptr(), ptr, "no reallocation within the allocation");
        b.sized(65);
        assert_eq!(b.len(), 65);
        assert!(b.iter().all(|&x| x == 0), "a grown buffer is zeroed");
    }

    #[test]
    fn plaintext_goes_to_the_pool_wiped_and_ciphertext_as_it_is() {
        // Written whole, then shrunk: the wipe still covers every byte written.
        let mut secret = Buffer::new(true);
        secret.sized(4096);
        secret.fill(0x5a);
        secret.sized(100);
        let spare = secret.into_spare();
        assert_eq!(spare.len(), 4096);
        assert!(spare.iter().all(|&x| x == 0), "no plaintext in the pool");
        let mut sealed = Buffer::new(false);
        sealed.sized(64);
        sealed.fill(0x33);
        assert!(sealed.into_spare().iter().all(|&x| x == 0x33));
        // A spare buffer reused for plaintext: the plaintext is wiped, the
        // ciphertext beyond it (no secret) is left alone.
        let mut reused = Buffer {
            bytes: vec![0x33; 64],
            ..Buffer::new(true)
        };
        reused.sized(8);
        reused.fill(0x5a);
        reused.sized(16);
        reused.fill(0x5a);
        reused.sized(4);
        let wiped = reused.into_spare();
        assert!(wiped[..16].iter().all(|&x| x == 0));
        assert!(wiped[16..].iter().all(|&x| x == 0x33));
    }

    #[test]
    fn the_reader_allocates_as_data_arrives_and_wipes_what_it_read() {
        // Three bytes with a limit of a gigabyte: a 64 KiB allocation.
        let mut b = Buffer::new(true);
        assert_eq!(b.fill_from(&mut &b"abc"[..], None, 0, 1 << 30).unwrap(), 3);
        assert_eq!(&b[..], b"abc");
        assert_eq!(b.bytes.len(), FIRST_READ);
        assert_eq!(b.dirty, 3);
        // Growing keeps the look-ahead byte and what was read, and stops at
        // the limit.
        let data: Vec<u8> = (0..300_000u32).map(|i| i as u8).collect();
        let mut input = &data[..];
        let limit = 200_001;
        assert_eq!(b.fill_from(&mut input, Some(7), 0, limit).unwrap(), limit);
        assert_eq!(b[0], 7);
        assert_eq!(&b[1..], &data[..limit - 1]);
        assert_eq!(b.bytes.len(), limit);
        assert_eq!(input.len(), data.len() - (limit - 1));
        // Recycled to a short read: the wipe covers everything ever read.
        assert_eq!(b.fill_from(&mut &b"xy"[..], None, 0, limit).unwrap(), 2);
        assert_eq!(b.dirty, limit);
        let wiped = b.into_spare();
        assert!(wiped.iter().all(|&x| x == 0));
        // Expecting a full batch: one allocation of the limit.
        let mut c = Buffer::new(false);
        assert_eq!(c.fill_from(&mut &data[..], None, limit, limit).unwrap(), limit);
        assert_eq!(c.bytes.len(), limit);
    }

    #[test]
    fn bytes_read_before_an_error_or_an_interrupt_are_kept_and_wiped() {
        /// Five bytes, an interrupt, five more, then a failure.
        struct Flaky(u8);
        impl Read for Flaky {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                self.0 += 1;
                match self.0 {
                    1 | 3 => {
                        buf[..5].fill(0x77);
                        Ok(5)
                    }
                    2 => Err(io::ErrorKind::Interrupted.into()),
                    _ => Err(io::ErrorKind::ConnectionReset.into()),
                }
            }
        }
        let mut b = Buffer::new(true);
        let err = b.fill_from(&mut Flaky(0), None, 0, 1 << 20).expect_err("fails");
        assert_eq!(err.kind(), io::ErrorKind::ConnectionReset);
        assert!(b.dirty >= 10, "the wipe covers the bytes read: {}", b.dirty);
        let wiped = b.into_spare();
        assert!(wiped.iter().all(|&x| x == 0));
    }
}
