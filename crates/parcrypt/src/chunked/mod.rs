//! The chunk engine under every chunked format (`stream`, age's STREAM
//! payload, C2SP chunked-encryption): independent chunks sealed and opened
//! on all cores in bounded memory, read ahead and written in order, nothing
//! released before its chunk authenticates.
//!
//! A format describes its chunks with [`Chunks`] (the AEAD key, the
//! plaintext bytes of a full chunk, and its [`Framing`]: how a chunk's
//! nonce is made and how the final chunk is told apart) and its memory
//! with a [`Budget`]; the engine does the rest:
//! - `seal`: a batch of chunks sealed or opened into caller buffers, each
//!   chunk one AEAD call, the batch cut across `par`'s threads;
//! - `flow`: the reader/writer pipeline (a reader thread reading ahead,
//!   a writer thread draining, the batch in between), the regular-file
//!   paths (every worker reading its own chunks with `pread`; one worker:
//!   a reader thread instead; the final chunk opened first, so a stored
//!   message's length is proved before anything is released), and byte
//!   ranges;
//! - `buffer`: the batch buffers (sized to their data, wiped if they may
//!   hold plaintext, recycled between calls).
//!
//! Formats map the engine's [`Error`] to their own errors; none of them
//! imports another (the layering test in `lib.rs` holds them to it).
//! `README.md` beside this file has the design and the measurements.

pub(crate) mod buffer;
pub(crate) mod flow;
pub(crate) mod seal;

use std::io;

use crate::ffi::AeadKey;

/// The tag after every sealed chunk (AES-GCM, ChaCha20-Poly1305).
pub(crate) const TAG: usize = 16;

/// Chunks (or groups of small chunks) handed to each thread per batch,
/// while the batch fits [`BATCH_BYTES`].
const BATCH_PER_THREAD: usize = 4;

/// The most bytes of sealed chunks in one batch, unless one chunk is
/// larger. Two input and two output batches circulate, so buffers hold at
/// most 64 MiB whatever the thread count; a chunk larger than this is a
/// batch alone, with one buffer on each side (two chunks in memory).
const BATCH_BYTES: usize = 16 << 20;

/// What can go wrong moving chunks, for each format to say in its own words.
#[derive(Debug)]
pub(crate) enum Error {
    /// Reading or writing failed.
    Io(io::Error),
    /// Chunk `chunk` does not verify (modified, misplaced, cut short).
    Authentication {
        /// The chunk's index.
        chunk: u64,
    },
    /// The input ends early: the last chunk present is a genuine middle
    /// chunk (`Some`), or there is no chunk at all (`None`).
    Truncated {
        /// The index of the last chunk present.
        chunk: Option<u64>,
    },
    /// More chunks than the format allows ([`Chunks::max_chunks`]).
    TooManyChunks,
    /// A batch whose size overflows memory arithmetic.
    Overflow,
}

impl From<io::Error> for Error {
    fn from(e: io::Error) -> Self {
        Error::Io(e)
    }
}

/// How a format makes chunk nonces and marks its final chunk.
#[derive(Clone, Copy)]
pub(crate) enum Framing {
    /// STREAM (Hoang, Reyhanitabar, Rogaway, Vizár 2015), as the `stream`
    /// format and age use it: nonce = 88-bit big-endian counter ‖ a byte
    /// that is 1 on the last chunk; the last chunk may be full, and is
    /// empty only when it is the only one.
    Stream,
    /// The TLS 1.3 record-layer nonce, as C2SP chunked-encryption uses it:
    /// nonce = base nonce XOR the 64-bit big-endian counter in its last
    /// 8 bytes; the final chunk is always shorter than a full one (an empty
    /// one after a run of full chunks), so its length marks the end.
    Xor([u8; 12]),
}

impl Framing {
    /// The nonce of chunk `index`; `last` if it ends the message.
    pub(crate) fn nonce(&self, index: u64, last: bool) -> [u8; 12] {
        match self {
            Framing::Stream => {
                let mut n = [0u8; 12];
                n[3..11].copy_from_slice(&index.to_be_bytes());
                n[11] = u8::from(last);
                n
            }
            Framing::Xor(base) => {
                let mut n = *base;
                for (b, c) in n[4..].iter_mut().zip(index.to_be_bytes()) {
                    *b ^= c;
                }
                n
            }
        }
    }

    /// Whether the final chunk is always short (`Xor`), so that a run of
    /// full chunks at the end of the input is a truncated message.
    pub(crate) fn short_final(&self) -> bool {
        matches!(self, Framing::Xor(_))
    }
}

/// One message's chunks: what the engine needs to seal or open them.
#[derive(Clone, Copy)]
pub(crate) struct Chunks<'a> {
    /// The AEAD key (16-byte tags, 12-byte nonces).
    pub(crate) key: &'a AeadKey,
    /// Plaintext bytes of a full chunk.
    pub(crate) size: usize,
    /// Nonces and the final chunk.
    pub(crate) framing: Framing,
    /// The most chunks a message may have (`u64::MAX`: no limit).
    pub(crate) max_chunks: u64,
}

impl Chunks<'_> {
    /// Sealed bytes of a full chunk.
    pub(crate) fn sealed_size(&self) -> usize {
        self.size + TAG
    }

    /// How many chunks `len` bytes of plaintext are: whole chunks unless
    /// `final_batch`, where the message ends (STREAM: at least one chunk,
    /// the last possibly full; `Xor`: a short, possibly empty, chunk after
    /// the full ones).
    pub(crate) fn count(&self, len: usize, final_batch: bool) -> usize {
        if final_batch && self.framing.short_final() {
            len / self.size + 1
        } else {
            len.div_ceil(self.size).max(1)
        }
    }

    /// Sealed bytes of `len` bytes of plaintext ([`Chunks::count`] chunks).
    ///
    /// # Errors
    /// [`Error::Overflow`] if that does not fit a `usize`.
    pub(crate) fn sealed_len(&self, len: usize, final_batch: bool) -> Result<usize, Error> {
        self.count(len, final_batch)
            .checked_mul(TAG)
            .and_then(|tags| tags.checked_add(len))
            .ok_or(Error::Overflow)
    }

    /// Checks that chunks `first .. first + count` are within the limit.
    ///
    /// # Errors
    /// [`Error::TooManyChunks`].
    pub(crate) fn check_limit(&self, first: u64, count: u64) -> Result<(), Error> {
        match first.checked_add(count) {
            Some(end) if end <= self.max_chunks => Ok(()),
            _ => Err(Error::TooManyChunks),
        }
    }
}

/// How the work on a message is cut, within the memory budget.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Budget {
    /// Chunks per batch.
    pub(crate) batch: usize,
    /// Batch buffers circulating on each side (input, output).
    pub(crate) depth: usize,
}

impl Budget {
    /// For sealed chunks of `enc` bytes (a chunk and its tag) on `threads`
    /// threads: [`BATCH_PER_THREAD`] chunks a thread, within
    /// [`BATCH_BYTES`] a batch.
    pub(crate) fn new(enc: usize, threads: usize) -> Budget {
        let fit = (BATCH_BYTES / enc).max(1);
        Budget {
            batch: threads.saturating_mul(BATCH_PER_THREAD).min(fit),
            depth: if enc > BATCH_BYTES { 1 } else { 2 },
        }
    }

    /// For small chunks of `enc` sealed bytes, budgeted in groups of
    /// `group` (so that a thread's share is a few megabytes, not a few
    /// small chunks): [`Budget::new`] of a group, in chunks.
    ///
    /// # Errors
    /// [`Error::Overflow`] for a batch whose size overflows.
    pub(crate) fn grouped(enc: usize, group: usize, threads: usize) -> Result<Budget, Error> {
        let unit = group.checked_mul(enc).ok_or(Error::Overflow)?;
        let b = Budget::new(unit, threads);
        Ok(Budget {
            batch: b.batch.checked_mul(group).ok_or(Error::Overflow)?,
            depth: b.depth,
        })
    }

    /// Bytes of a batch of units of `unit` bytes (chunks, or chunks and
    /// their tags): at most `max(BATCH_BYTES, one sealed chunk)`.
    ///
    /// # Errors
    /// [`Error::Overflow`] if that does not fit a `usize`.
    pub(crate) fn bytes(&self, unit: usize) -> Result<usize, Error> {
        self.batch.checked_mul(unit).ok_or(Error::Overflow)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nonces_are_the_formats() {
        assert_eq!(
            Framing::Stream.nonce(0x0102, true),
            [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 1]
        );
        let base = [0xffu8; 12];
        assert_eq!(
            Framing::Xor(base).nonce((1 << 38) - 1, false),
            [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xc0, 0, 0, 0, 0]
        );
        assert_eq!(
            Framing::Xor(base).nonce(5, true),
            Framing::Xor(base).nonce(5, false)
        );
    }

    #[test]
    fn counts_follow_the_framing() {
        let key = AeadKey::new(&[0u8; 16]).expect("a key");
        let stream = Chunks {
            key: &key,
            size: 16,
            framing: Framing::Stream,
            max_chunks: u64::MAX,
        };
        let xor = Chunks {
            framing: Framing::Xor([0; 12]),
            ..stream
        };
        for (len, s, x) in [
            (0, 1, 1),
            (1, 1, 1),
            (15, 1, 1),
            (16, 1, 2),
            (17, 2, 2),
            (32, 2, 3),
        ] {
            assert_eq!(stream.count(len, true), s, "{len}");
            assert_eq!(xor.count(len, true), x, "{len}");
        }
        assert_eq!(xor.count(32, false), 2);
        assert_eq!(xor.sealed_len(32, true).ok(), Some(32 + 3 * TAG));
        let limited = Chunks { max_chunks: 4, ..xor };
        assert!(limited.check_limit(2, 2).is_ok());
        assert!(matches!(limited.check_limit(2, 3), Err(Error::TooManyChunks)));
        assert!(matches!(
            limited.check_limit(u64::MAX, 1),
            Err(Error::TooManyChunks)
        ));
    }

    #[test]
    fn budgets_are_bounded() {
        let b = Budget::new((1 << 20) + TAG, 2);
        assert_eq!((b.batch, b.depth), (8, 2));
        let huge = Budget::new((1 << 30) + TAG, 64);
        assert_eq!((huge.batch, huge.depth), (1, 1));
        // age's chunks: groups of 16 × 64 KiB.
        let g = Budget::grouped((64 << 10) + TAG, 16, 2).expect("fits");
        assert_eq!((g.batch, g.depth), (8 * 16, 2));
    }
}
