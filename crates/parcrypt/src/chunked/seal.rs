//! A batch of chunks sealed or opened at a time, across `par`'s threads:
//! each chunk one AEAD call, out of place (AES-GCM for the `stream` format
//! and C2SP chunked-encryption, ChaCha20-Poly1305 for age), its nonce from
//! the format's [`Framing`](super::Framing); and where a batch's bytes come
//! from.

use std::fs::File;
use std::io::{self, IoSliceMut};

use super::buffer::Buffer;
use super::{Chunks, Error, TAG};
use crate::io::{Input, read_exact_at, read_exact_vectored_at};
use crate::par::{Grain, Parallelism};

/// Bytes of chunks a worker reads from a file (or copies from shared
/// memory) at a time: one positional read for as many chunks as fit, so
/// that C2SP's 16 KiB chunks cost one system call per 16 chunks, not one
/// each (65,540 `pread`s for 1 GiB), while the run is still in the core's
/// cache when its chunks are sealed or opened (L2 is 512 KiB–2 MiB a core).
const RUN_BYTES: usize = 256 << 10;

/// Chunks in a run: the whole number nearest [`RUN_BYTES`] of them (16 of
/// C2SP's, 4 of age's, so that runs cut a worker's 1 MiB part evenly), at
/// least one, at most 512 (within `IOV_MAX`, for the scattered reads of
/// [`seal_into`]).
fn run_chunks(enc: usize) -> usize {
    (RUN_BYTES.saturating_add(enc / 2) / enc).clamp(1, 512)
}

/// Cuts work into whole encrypted chunks, at least 1 MiB a part.
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
    /// `len` bytes of `file` from `at`, read by the worker that seals them
    /// straight into their places in the output, a run of chunks per
    /// positional read (`preadv`: each chunk's bytes before the room for
    /// its tag), and sealed there in place while they are in that core's
    /// cache.
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

/// Seals `plain` as chunks `base ..` into `sealed`, sized here to hold
/// them, each followed by its tag, in one pass per chunk; the batch ends the
/// message if `final_batch`. Returns the number of chunks
/// ([`Chunks::count`]: an empty final batch is one empty chunk).
///
/// # Errors
/// [`Error::Overflow`] for a batch whose size overflows,
/// [`Error::TooManyChunks`] beyond the format's limit (nothing sealed); a
/// read error (the file shrank while it was read).
pub(crate) fn seal_batch(
    chunks: &Chunks<'_>,
    plain: Plain<'_>,
    sealed: &mut Buffer,
    base: u64,
    final_batch: bool,
    par: &Parallelism,
) -> Result<u64, Error> {
    let count = chunks.count(plain.len(), final_batch) as u64;
    chunks.check_limit(base, count)?;
    sealed.sized(chunks.sealed_len(plain.len(), final_batch)?);
    seal_into(chunks, plain, sealed, base, final_batch, par)?;
    Ok(count)
}

/// [`seal_batch`] into `sealed`, which must be exactly
/// [`Chunks::sealed_len`] bytes long (no limit check: the caller's).
///
/// # Errors
/// A read error (the file shrank while it was read).
///
/// # Panics
/// If `sealed` has the wrong length.
pub(crate) fn seal_into(
    chunks: &Chunks<'_>,
    plain: Plain<'_>,
    sealed: &mut [u8],
    base: u64,
    final_batch: bool,
    par: &Parallelism,
) -> io::Result<()> {
    let (seg, enc) = (chunks.size, chunks.sealed_size());
    let count = chunks.count(plain.len(), final_batch);
    assert_eq!(
        sealed.len(),
        plain.len() + count * TAG,
        "sealed chunks sized for their plaintext"
    );
    let (key, framing) = (chunks.key, chunks.framing);
    let per_run = run_chunks(enc);
    let results = par.map_mut(sealed, &grain(enc), |_, offset, part| {
        for (r, run) in part.chunks_mut(enc * per_run).enumerate() {
            let first = offset / enc + r * per_run;
            if let Plain::File { file, at, .. } = plain {
                let mut bodies: Vec<IoSliceMut<'_>> = run
                    .chunks_mut(enc)
                    .map(|out| {
                        let body = out.len() - TAG;
                        IoSliceMut::new(&mut out[..body])
                    })
                    .collect();
                read_exact_vectored_at(file, &mut bodies, at + (first * seg) as u64)?;
            }
            for (j, out) in run.chunks_mut(enc).enumerate() {
                let i = first + j;
                let nonce = framing.nonce(base + i as u64, final_batch && i + 1 == count);
                let (body, tag_room) = out.split_at_mut(out.len() - TAG);
                let tag = match plain {
                    Plain::Memory(bytes) => {
                        key.seal_into(&nonce, &bytes[i * seg..i * seg + body.len()], body, &[])
                    }
                    Plain::File { .. } => key.seal_in_place(&nonce, body, &[]),
                };
                tag_room.copy_from_slice(&tag);
            }
        }
        Ok::<(), io::Error>(())
    });
    results.into_iter().collect::<io::Result<()>>()
}

/// Where the sealed chunks of a batch come from.
#[derive(Clone, Copy)]
pub(crate) enum Sealed<'a> {
    /// Bytes nobody writes while they are opened (read from a pipe into
    /// our buffers, a Rust caller's slice, an immutable Python `bytes`).
    Memory(&'a [u8]),
    /// A caller's bytes that others may write meanwhile
    /// ([`Input::Shared`]): each run of chunks copied into a private buffer
    /// from `scratch` by the worker that opens them, once, and opened there
    /// (the AEAD reads its input twice: to authenticate it, then to decrypt
    /// it).
    Shared { bytes: &'a [u8], scratch: &'a Scratch },
    /// `len` bytes of `file` from `at`, read a run of chunks per positional
    /// read into private buffers from `scratch` by the worker that opens
    /// them.
    File {
        file: &'a File,
        at: u64,
        len: usize,
        scratch: &'a Scratch,
    },
}

impl<'a> Sealed<'a> {
    /// A caller's sealed chunks: opened in place if private, else each
    /// chunk through a copy in a buffer from `scratch`.
    pub(crate) fn of(input: Input<'a>, scratch: &'a Scratch) -> Sealed<'a> {
        match input {
            Input::Private(bytes) => Sealed::Memory(bytes),
            Input::Shared(bytes) => Sealed::Shared { bytes, scratch },
        }
    }

    fn len(&self) -> usize {
        match *self {
            Sealed::Memory(bytes) | Sealed::Shared { bytes, .. } => bytes.len(),
            Sealed::File { len, .. } => len,
        }
    }

    /// Runs `f` on the stored bytes of chunks `first .. first + count`
    /// (stride `enc`; the message's last may be shorter), read into a
    /// private buffer first, in one positional read or one copy, if they
    /// are in a file or shared.
    fn with_chunks<R>(
        &self,
        first: usize,
        count: usize,
        enc: usize,
        f: impl FnOnce(&[u8]) -> R,
    ) -> io::Result<R> {
        let start = first * enc;
        let end = start.saturating_add(count * enc).min(self.len());
        match *self {
            Sealed::Memory(bytes) => Ok(f(&bytes[start..end])),
            Sealed::Shared { bytes, scratch } => {
                let mut buf = scratch.take(end - start);
                let copy = &mut buf[..end - start];
                copy.copy_from_slice(&bytes[start..end]);
                let result = f(copy);
                scratch.give(buf);
                Ok(result)
            }
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

/// Private buffers for chunks read from a file or copied from shared
/// memory, reused across the workers of one call: at most one run per
/// worker at a time, so they never hold more than a batch. They hold only
/// ciphertext.
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

/// Opens the sealed chunks `base ..` of `sealed` (stride
/// [`Chunks::sealed_size`]) into `plain` (stride [`Chunks::size`]), sized
/// here to hold them, in one pass per chunk; returns the number of chunks.
/// On failure the error names the first failing chunk and `plain` holds
/// nothing of it.
///
/// # Errors
/// [`Error::Authentication`], [`Error::Truncated`] (STREAM: the batch's
/// last chunk is a genuine middle one), [`Error::TooManyChunks`] beyond the
/// format's limit (nothing opened), read errors.
pub(crate) fn open_batch(
    chunks: &Chunks<'_>,
    sealed: Sealed<'_>,
    plain: &mut Buffer,
    base: u64,
    final_batch: bool,
    par: &Parallelism,
) -> Result<u64, Error> {
    plain.sized(plain_len(sealed.len(), chunks.size));
    open_into(chunks, sealed, plain, base, final_batch, par)
}

/// [`open_batch`] into `plain`, which must be exactly
/// [`plain_len`]`(sealed.len(), chunks.size)` bytes long.
///
/// # Errors
/// As [`open_batch`].
pub(crate) fn open_into(
    chunks: &Chunks<'_>,
    sealed: Sealed<'_>,
    plain: &mut [u8],
    base: u64,
    final_batch: bool,
    par: &Parallelism,
) -> Result<u64, Error> {
    let (seg, enc) = (chunks.size, chunks.sealed_size());
    let (key, framing) = (chunks.key, chunks.framing);
    let count = sealed.len().div_ceil(enc);
    debug_assert_eq!(plain.len(), plain_len(sealed.len(), seg));
    chunks.check_limit(base, count as u64)?;
    let last_len = sealed.len() - (count.max(1) - 1) * enc;
    if count == 0 || last_len < TAG {
        return Err(Error::Authentication {
            chunk: base + count.saturating_sub(1) as u64,
        });
    }
    // Chunks with no plaintext (an empty message's only chunk, a C2SP
    // message's empty final chunk, or a forged empty one at the end) have
    // no part of `plain`: check them here. They come after every chunk
    // that has plaintext.
    let mut empty_failure = None;
    for i in plain.len().div_ceil(seg)..count {
        let last = final_batch && i + 1 == count;
        let index = base + i as u64;
        let ok = sealed.with_chunks(i, 1, enc, |input| {
            input.len() == TAG && key.open_into(&framing.nonce(index, last), &[], input, &mut [], &[])
        })?;
        if !ok {
            empty_failure = empty_failure.or(Some((index, false)));
        }
    }
    // A final chunk that fails as the last one but opens as a middle one is
    // a genuine chunk of a longer message: only STREAM nonces tell.
    let flagged = !framing.short_final();
    // Each part: its first failing chunk (index, truncated), if any.
    let per_run = run_chunks(enc);
    let failures = par.map_mut(plain, &grain(seg), |_, offset, part| {
        let mut first = None;
        for (r, run) in part.chunks_mut(seg * per_run).enumerate() {
            let start = offset / seg + r * per_run;
            let outs = run.chunks_mut(seg);
            let failed = sealed.with_chunks(start, outs.len(), enc, |inputs| {
                for (j, (out, input)) in outs.zip(inputs.chunks(enc)).enumerate() {
                    let i = start + j;
                    let index = base + i as u64;
                    let last = final_batch && i + 1 == count;
                    let (body, tag) = input.split_at(input.len() - TAG);
                    let out = &mut out[..body.len()];
                    if key.open_into(&framing.nonce(index, last), body, tag, out, &[]) {
                        continue;
                    }
                    let truncated = flagged
                        && last
                        && input.len() == enc
                        && key.open_into(&framing.nonce(index, false), body, tag, out, &[]);
                    out.fill(0);
                    return Some((index, truncated));
                }
                None
            })?;
            if failed.is_some() {
                first = failed;
                break;
            }
        }
        Ok::<_, io::Error>(first)
    });
    // Parts are in chunk order: the first failure of the first failing
    // part is the message's first.
    let mut first = None;
    for part in failures {
        first = first.or(part?);
    }
    match first.or(empty_failure) {
        None => Ok(count as u64),
        Some((chunk, true)) => Err(Error::Truncated { chunk: Some(chunk) }),
        Some((chunk, false)) => Err(Error::Authentication { chunk }),
    }
}

/// The plaintext length of `sealed_len` bytes of sealed chunks of `seg`
/// plaintext bytes (0 if the last is too short to hold a tag, which opening
/// then reports).
pub(crate) fn plain_len(sealed_len: usize, seg: usize) -> usize {
    let enc = seg + TAG;
    let count = sealed_len.div_ceil(enc);
    sealed_len.saturating_sub(count * TAG)
}
