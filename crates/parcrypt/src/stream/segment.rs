//! One segment's cryptography, a batch of segments at a time: the nonce,
//! sealing, opening (each segment one AEAD call, out of place: AES-256-GCM
//! for the stream format, ChaCha20-Poly1305 for age's chunks, whose STREAM
//! nonce this is), and where a batch's sealed bytes come from.

use std::fs::File;
use std::io;

use super::Error;
use super::buffer::Buffer;
use crate::ffi::AeadKey;
use crate::io::read_exact_at;
use crate::par::{Grain, Parallelism};

/// The GCM tag at the end of every segment.
pub(crate) const TAG: usize = 16;

/// The segment nonce: 88-bit big-endian counter ‖ last flag.
pub(crate) fn nonce(index: u64, last: bool) -> [u8; 12] {
    let mut n = [0u8; 12];
    n[3..11].copy_from_slice(&index.to_be_bytes());
    n[11] = u8::from(last);
    n
}

/// Cuts work into whole encrypted segments, several per part.
fn grain(unit: usize) -> Grain {
    let per = (1usize << 20).div_ceil(unit).max(1) * unit;
    Grain {
        unit,
        min_part: per,
        task: per,
    }
}

/// Where the plaintext of a batch comes from.
#[derive(Clone, Copy)]
pub(crate) enum Plain<'a> {
    /// Bytes in memory, sealed out of place in one pass.
    Memory(&'a [u8]),
    /// `len` bytes of `file` from `at`, each segment read with a positional
    /// read into its place in the output by the worker that seals it there
    /// (in place, while it is in that core's cache).
    File { file: &'a File, at: u64, len: usize },
}

impl Plain<'_> {
    fn len(&self) -> usize {
        match *self {
            Plain::Memory(bytes) => bytes.len(),
            Plain::File { len, .. } => len,
        }
    }
}

/// Seals the segments of `plain` (cut every `seg` bytes) into `sealed`,
/// sized to hold them, each followed by its tag, in one pass per segment;
/// the batch's last segment is the stream's last if `final_batch`. Returns
/// the number of segments: an empty batch (only ever an empty stream) is
/// one empty segment.
///
/// # Errors
/// [`Error::Options`] for a batch whose size overflows; a read error (the
/// file shrank while it was read).
pub(crate) fn seal_segments(
    key: &AeadKey,
    plain: Plain<'_>,
    sealed: &mut Buffer,
    seg: usize,
    base: u64,
    final_batch: bool,
    par: &Parallelism,
) -> Result<u64, Error> {
    let count = plain.len().div_ceil(seg).max(1);
    let len = count
        .checked_mul(TAG)
        .and_then(|tags| tags.checked_add(plain.len()))
        .ok_or_else(|| Error::Options("batch size overflows".into()))?;
    sealed.sized(len);
    seal_into(key, plain, sealed, seg, base, final_batch, par)?;
    Ok(count as u64)
}

/// [`seal_segments`] into `sealed`, which must be exactly as long as the
/// sealed segments (`plain` plus a tag per segment; one tag for nothing).
///
/// # Errors
/// A read error (the file shrank while it was read).
///
/// # Panics
/// If `sealed` has the wrong length.
pub(crate) fn seal_into(
    key: &AeadKey,
    plain: Plain<'_>,
    sealed: &mut [u8],
    seg: usize,
    base: u64,
    final_batch: bool,
    par: &Parallelism,
) -> io::Result<()> {
    let enc = seg + TAG;
    let count = plain.len().div_ceil(seg).max(1);
    assert_eq!(
        sealed.len(),
        plain.len() + count * TAG,
        "sealed segments sized for their plaintext"
    );
    let results = par.map_mut(sealed, &grain(enc), |_, offset, part| {
        for (j, out) in part.chunks_mut(enc).enumerate() {
            let i = offset / enc + j;
            let nonce = nonce(base + i as u64, final_batch && i + 1 == count);
            let (body, tag_room) = out.split_at_mut(out.len() - TAG);
            let tag = match plain {
                Plain::Memory(bytes) => {
                    key.seal_into(&nonce, &bytes[i * seg..i * seg + body.len()], body, &[])
                }
                Plain::File { file, at, .. } => {
                    read_exact_at(file, body, at + (i * seg) as u64)?;
                    key.seal_in_place(&nonce, body, &[])
                }
            };
            tag_room.copy_from_slice(&tag);
        }
        Ok::<(), io::Error>(())
    });
    results.into_iter().collect::<io::Result<()>>()
}

/// Where the sealed segments of a batch come from.
#[derive(Clone, Copy)]
pub(crate) enum Sealed<'a> {
    /// Bytes already in this process's private memory (read from a pipe).
    Memory(&'a [u8]),
    /// `len` bytes of `file` from `at`, read segment by segment into
    /// private buffers from `scratch` by the worker that opens them.
    File {
        file: &'a File,
        at: u64,
        len: usize,
        scratch: &'a Scratch,
    },
}

impl Sealed<'_> {
    fn len(&self) -> usize {
        match *self {
            Sealed::Memory(bytes) => bytes.len(),
            Sealed::File { len, .. } => len,
        }
    }

    /// Runs `f` on the stored bytes of segment `i` (stride `enc`), read
    /// into a private buffer first if they are in a file.
    fn with_segment<R>(&self, i: usize, enc: usize, f: impl FnOnce(&[u8]) -> R) -> io::Result<R> {
        let start = i * enc;
        let end = start.saturating_add(enc).min(self.len());
        match *self {
            Sealed::Memory(bytes) => Ok(f(&bytes[start..end])),
            Sealed::File {
                file, at, scratch, ..
            } => {
                let mut buf = scratch.take(end - start);
                let read = read_exact_at(file, &mut buf[..end - start], at + start as u64);
                let result = read.map(|()| f(&buf[..end - start]));
                scratch.give(buf);
                result
            }
        }
    }
}

/// Private buffers for segments read from a file, reused across the
/// workers of one call: at most one per segment being opened at a time, so
/// they never hold more than a batch. They hold only ciphertext.
#[derive(Default)]
pub(crate) struct Scratch(std::sync::Mutex<Vec<Vec<u8>>>);

impl Scratch {
    /// A buffer of at least `len` bytes.
    fn take(&self, len: usize) -> Vec<u8> {
        let mut buf = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .pop()
            .unwrap_or_default();
        if buf.len() < len {
            buf.resize(len, 0);
        }
        buf
    }

    fn give(&self, buf: Vec<u8>) {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(buf);
    }
}

/// Opens the sealed segments of `sealed` (stride `seg + TAG`) into `plain`
/// (stride `seg`), sized to hold them, in one pass per segment; returns the
/// number of segments. On failure the error names the first failing
/// segment and `plain` holds nothing of it.
pub(crate) fn open_segments(
    key: &AeadKey,
    sealed: Sealed<'_>,
    plain: &mut Buffer,
    seg: usize,
    base: u64,
    final_batch: bool,
    par: &Parallelism,
) -> Result<u64, Error> {
    plain.sized(plain_len(sealed.len(), seg));
    open_into(key, sealed, plain, seg, base, final_batch, par)
}

/// [`open_segments`] into `plain`, which must be exactly
/// [`plain_len`]`(sealed.len(), seg)` bytes long.
pub(crate) fn open_into(
    key: &AeadKey,
    sealed: Sealed<'_>,
    plain: &mut [u8],
    seg: usize,
    base: u64,
    final_batch: bool,
    par: &Parallelism,
) -> Result<u64, Error> {
    let enc = seg + TAG;
    let count = sealed.len().div_ceil(enc);
    debug_assert_eq!(plain.len(), plain_len(sealed.len(), seg));
    let last_len = sealed.len() - (count.max(1) - 1) * enc;
    if count == 0 || last_len < TAG {
        return Err(Error::SegmentAuthentication {
            segment: base + count.saturating_sub(1) as u64,
        });
    }
    // Segments with no plaintext (an empty stream's only segment, or a
    // forged empty one at the end) have no part of `plain`: check them here.
    // They come after every segment that has plaintext.
    let mut empty_failure = None;
    for i in plain.len().div_ceil(seg)..count {
        let last = final_batch && i + 1 == count;
        let index = base + i as u64;
        let ok = sealed.with_segment(i, enc, |input| {
            input.len() == TAG && key.open_into(&nonce(index, last), &[], input, &mut [], &[])
        })?;
        if !ok {
            empty_failure = empty_failure.or(Some((index, false)));
        }
    }
    // Each part: its first failing segment (index, truncated), if any.
    let failures = par.map_mut(plain, &grain(seg), |_, offset, part| {
        let mut first = None;
        for (j, out) in part.chunks_mut(seg).enumerate() {
            let i = offset / seg + j;
            let index = base + i as u64;
            let last = final_batch && i + 1 == count;
            let opened = sealed.with_segment(i, enc, |input| {
                let (body, tag) = input.split_at(input.len() - TAG);
                let out = &mut out[..body.len()];
                if key.open_into(&nonce(index, last), body, tag, out, &[]) {
                    return None;
                }
                // The stream's last segment, genuine but sealed as a middle
                // one: the rest of the stream is missing.
                let truncated =
                    last && input.len() == enc && key.open_into(&nonce(index, false), body, tag, out, &[]);
                out.fill(0);
                Some(truncated)
            })?;
            if let Some(truncated) = opened {
                first = first.or(Some((index, truncated)));
            }
        }
        Ok::<_, io::Error>(first)
    });
    // Parts are in segment order: the first failure of the first failing
    // part is the stream's first.
    let mut first = None;
    for part in failures {
        first = first.or(part?);
    }
    match first.or(empty_failure) {
        None => Ok(count as u64),
        Some((segment, true)) => Err(Error::Truncated {
            segment: Some(segment),
        }),
        Some((segment, false)) => Err(Error::SegmentAuthentication { segment }),
    }
}

/// The plaintext length of `sealed_len` bytes of sealed segments (0 if the
/// last is too short to hold a tag, which opening then reports).
pub(crate) fn plain_len(sealed_len: usize, seg: usize) -> usize {
    let enc = seg + TAG;
    let count = sealed_len.div_ceil(enc);
    sealed_len.saturating_sub(count * TAG)
}
