//! The payload: STREAM over ChaCha20-Poly1305 in 64 KiB chunks, nonce =
//! 11-byte big-endian chunk counter ‖ last-chunk flag — the chunk engine's
//! STREAM framing (`crate::chunked`), so a batch of chunks is sealed and
//! opened by the engine (`seal_into`, `open_into`) with a
//! ChaCha20-Poly1305 key, across `par`'s threads, and moved by its
//! pipeline, file loop and buffers.
//!
//! What age adds on top, here:
//! - the last chunk may be full, and must not be empty unless it is the
//!   only one (an empty payload);
//! - on a failure, every chunk that verified before the failing one is
//!   still written (as age does: the C2SP test kit checks the hash of what
//!   an implementation released), then the error is returned — a full chunk
//!   sealed as the last one but followed by more data is released too, and
//!   the error is "trailing data".

use std::io::{self, Read, Seek, SeekFrom, Write};

use super::{Error, OptionsError};
use crate::chunked::buffer::Buffer;
use crate::chunked::flow::{self, pipelined};
use crate::chunked::seal::{Plain, Scratch, Sealed, open_into, seal_into};
use crate::chunked::{self, Budget, Chunks, Framing, TAG};
use crate::ffi::AeadKey;
use crate::io::Input;
use crate::par::Parallelism;

/// Plaintext bytes per chunk.
pub const CHUNK: usize = 64 << 10;
/// A sealed full chunk: 64 KiB and a tag.
pub(super) const SEALED_CHUNK: usize = CHUNK + TAG;
/// Chunks per unit of the memory budget: the budget (and the parallel
/// grain) think in 1 MiB units, as for the stream format's default
/// segments, so a batch gives each thread 4 MiB within 16 MiB.
const GROUP: usize = 16;

/// Sealed bytes for `plain` bytes of payload.
pub(super) fn sealed_len(plain: u64) -> u64 {
    plain + plain.div_ceil(CHUNK as u64).max(1) * TAG as u64
}

/// Plaintext bytes of `sealed` bytes of chunks (a last chunk too short
/// for its tag counts as none): the length [`open_chunks`] wants.
pub(super) fn opened_len(sealed: usize) -> usize {
    match sealed.div_ceil(SEALED_CHUNK) {
        0 => 0,
        count => (count - 1) * CHUNK + (sealed - (count - 1) * SEALED_CHUNK).saturating_sub(TAG),
    }
}

/// The payload's chunks, for the chunk engine: STREAM nonces, no limit.
fn chunks(key: &AeadKey) -> Chunks<'_> {
    Chunks {
        key,
        size: CHUNK,
        framing: Framing::Stream,
        max_chunks: u64::MAX,
    }
}

/// Chunks per batch and buffers per side, within the engine's budget.
fn budget(par: &Parallelism) -> Result<Budget, Error> {
    Budget::grouped(SEALED_CHUNK, GROUP, par.threads().get()).map_err(from_engine)
}

/// The engine's errors in age's words.
fn from_engine(e: chunked::Error) -> Error {
    match e {
        chunked::Error::Io(e) => Error::Io(e),
        chunked::Error::Authentication { chunk } => Error::ChunkAuthentication { chunk },
        chunked::Error::Truncated { chunk } => Error::Truncated { chunk },
        chunked::Error::TooManyChunks | chunked::Error::Overflow => Error::Options(OptionsError::Overflow),
    }
}

/// Seals everything `input` yields as chunks `0..` to `output`, a batch at
/// a time on `par`'s threads, reading and writing on threads of their own;
/// returns the plaintext length.
pub(super) fn seal_stream(
    key: &AeadKey,
    input: impl Read + Send,
    output: impl Write + Send,
    par: &Parallelism,
    progress: impl FnMut(u64),
) -> Result<u64, Error> {
    flow::seal_reader(&chunks(key), input, output, budget(par)?, par, progress).map_err(from_engine)
}

/// Seals `len` bytes of `file` (from its start) as chunks `0..` to
/// `output`, a batch at a time, by the engine's file loop
/// (`chunked::flow::seal_file`): on two threads or more, each worker reads
/// the chunks it seals with positional reads straight into their places in
/// the output batch and seals them there, in place; one worker has a
/// reader thread read ahead instead (docs/AGE.md "Measured"); a writer
/// thread overlaps.
pub(super) fn seal_file(
    key: &AeadKey,
    file: &std::fs::File,
    len: u64,
    output: impl Write + Send,
    par: &Parallelism,
    progress: impl FnMut(u64),
) -> Result<u64, Error> {
    flow::seal_file(&chunks(key), file, len, output, budget(par)?, par, progress).map_err(from_engine)
}

/// Seals `plain`, the whole payload, into `sealed` ([`sealed_len`] bytes).
pub(super) fn seal_all(key: &AeadKey, plain: &[u8], sealed: &mut [u8], par: &Parallelism) {
    seal_into(&chunks(key), Plain::Memory(plain), sealed, 0, true, par).expect("memory reads cannot fail");
}

/// Opens chunks `base..` of `sealed` into `plain` (sized for them by the
/// caller: [`opened_len`]); `last` if they end the payload. On failure,
/// returns the error and how many leading bytes of `plain` verified (and
/// may be released). A shared input is read once, each chunk copied
/// before it is opened; after a failure, the chunk that failed is opened
/// again in place only to tell which error it is (the caller of a shared
/// input releases nothing on an error).
pub(super) fn open_chunks(
    key: &AeadKey,
    input: Input<'_>,
    plain: &mut [u8],
    base: u64,
    last: bool,
    par: &Parallelism,
) -> Result<u64, (Error, usize)> {
    let sealed = input.bytes();
    let count = sealed.len().div_ceil(SEALED_CHUNK);
    if count == 0 {
        return Err((
            Error::Truncated {
                chunk: base.checked_sub(1),
            },
            0,
        ));
    }
    let last_index = base + count as u64 - 1;
    let last_len = sealed.len() - (count - 1) * SEALED_CHUNK;
    // A runt (shorter than a tag), or an empty last chunk after others:
    // the full chunks before it are opened as middle chunks first.
    let runt = last_len < TAG;
    let empty_after_others = last && last_len == TAG && last_index > 0;
    if runt || empty_after_others {
        if count > 1 {
            let full = (count - 1) * SEALED_CHUNK;
            open_chunks(
                key,
                input.slice(..full),
                &mut plain[..(count - 1) * CHUNK],
                base,
                false,
                par,
            )?;
        }
        let err = if runt {
            Error::ChunkAuthentication { chunk: last_index }
        } else {
            Error::EmptyLastChunk { chunk: last_index }
        };
        return Err((err, (count - 1) * CHUNK));
    }
    let scratch = Scratch::default();
    match open_into(&chunks(key), Sealed::of(input, &scratch), plain, base, last, par) {
        Ok(n) => Ok(n),
        Err(chunked::Error::Authentication { chunk: segment }) => {
            // Every chunk before `segment` verified. A full chunk that
            // fails as a middle one but opens as the last one is the end
            // of the payload with data after it.
            let k = (segment - base) as usize;
            let verified = k * CHUNK;
            let chunk = &sealed[k * SEALED_CHUNK..];
            if chunk.len() > SEALED_CHUNK || (chunk.len() == SEALED_CHUNK && !last) {
                let (body, tag) = chunk[..SEALED_CHUNK].split_at(CHUNK);
                let out = &mut plain[verified..verified + CHUNK];
                if key.open_into(&Framing::Stream.nonce(segment, true), body, tag, out, &[]) {
                    return Err((Error::TrailingData { chunk: segment }, verified + CHUNK));
                }
            }
            Err((Error::ChunkAuthentication { chunk: segment }, verified))
        }
        Err(chunked::Error::Truncated { chunk: Some(segment) }) => {
            // The last chunk present is a genuine middle chunk: released,
            // as age releases it before it finds the end missing.
            let k = (segment - base) as usize;
            let (body, tag) = sealed[k * SEALED_CHUNK..].split_at(CHUNK);
            let out = &mut plain[k * CHUNK..(k + 1) * CHUNK];
            let ok = key.open_into(&Framing::Stream.nonce(segment, false), body, tag, out, &[]);
            let verified = if ok { (k + 1) * CHUNK } else { k * CHUNK };
            Err((Error::Truncated { chunk: Some(segment) }, verified))
        }
        Err(e) => Err((from_engine(e), 0)),
    }
}

/// The check ahead of a payload stored in the regular file `file` (its
/// `sealed` bytes from byte `start`), before anything of it is released:
/// opens the last chunk, which proves the payload's length, with the
/// engine's positional read ([`flow::open_final`]), under age's rule that a
/// last chunk is empty only when it is the only one. A truncated or
/// extended file then fails here, having written nothing; damage elsewhere
/// is still found in order by [`open_stream`], which releases the chunks
/// before it as age does.
///
/// # Errors
/// [`Error::Truncated`], [`Error::ChunkAuthentication`],
/// [`Error::EmptyLastChunk`], I/O errors.
pub(super) fn check_last(
    key: &AeadKey,
    file: &std::fs::File,
    start: u64,
    sealed: u64,
    par: &Parallelism,
) -> Result<(), Error> {
    let enc = SEALED_CHUNK as u64;
    let count = sealed.div_ceil(enc);
    if count > 1 && sealed - (count - 1) * enc == TAG as u64 {
        return Err(Error::EmptyLastChunk { chunk: count - 1 });
    }
    let stored = flow::Stored::File { file, at: start };
    flow::open_final(&chunks(key), stored, sealed, par)
        .map(drop)
        .map_err(from_engine)
}

/// Opens the payload read from `input` (after its nonce) to `output`, a
/// batch at a time on `par`'s threads, reading and writing on threads of
/// their own; returns the plaintext length. On a failure, everything that
/// verified before it is written, then the error returned.
pub(super) fn open_stream(
    key: &AeadKey,
    input: impl Read + Send,
    output: impl Write + Send,
    par: &Parallelism,
    mut progress: impl FnMut(u64),
) -> Result<u64, Error> {
    let budget = budget(par)?;
    let (mut index, mut total) = (0u64, 0u64);
    let mut failed: Option<Error> = None;
    let result = pipelined(
        input,
        output,
        budget.bytes(SEALED_CHUNK).map_err(from_engine)?,
        budget.depth,
        false,
        |sealed, more, plain: &mut Buffer| {
            if let Some(e) = failed.take() {
                // The batch before failed and its verified part went out: stop.
                return Err(e);
            }
            plain.sized(opened_len(sealed.len()));
            match open_chunks(key, sealed.into(), plain, index, !more, par) {
                Ok(n) => index += n,
                Err((e, verified)) => {
                    plain.sized(verified);
                    failed = Some(e);
                }
            }
            total += plain.len() as u64;
            progress(plain.len() as u64);
            Ok(())
        },
    );
    match (failed, result) {
        (Some(e), _) | (None, Err(e)) => Err(e),
        (None, Ok(())) => Ok(total),
    }
}

/// Where the payload is in a seekable input, and how long it is.
pub(super) struct Layout {
    /// The first sealed chunk's offset.
    pub(super) start: u64,
    /// Sealed bytes (to the end of the input).
    pub(super) sealed: u64,
}

impl Layout {
    fn chunks(&self) -> u64 {
        self.sealed.div_ceil(SEALED_CHUNK as u64)
    }

    /// The plaintext length the sealed length implies (proved by opening
    /// the last chunk).
    fn plain_len(&self) -> Result<u64, Error> {
        match self.chunks() {
            0 => Err(Error::Truncated { chunk: None }),
            chunks => Ok(self.sealed.saturating_sub(chunks * TAG as u64)),
        }
    }
}

/// Reads `len` sealed bytes at `at` into `buf`.
fn read_at(input: &mut (impl Read + Seek), at: u64, buf: &mut Vec<u8>, len: usize) -> Result<(), Error> {
    buf.resize(len, 0);
    input.seek(SeekFrom::Start(at))?;
    input.read_exact(buf).map_err(|e| match e.kind() {
        io::ErrorKind::UnexpectedEof => {
            Error::Io(io::Error::new(e.kind(), "the file shrank while it was read"))
        }
        _ => Error::Io(e),
    })
}

/// Decrypts plaintext bytes `start..start + len` of the payload at
/// `layout` in `input`, reading only the last chunk (first: it proves the
/// plaintext's length) and the chunks of the range, a batch at a time.
pub(super) fn open_range(
    key: &AeadKey,
    input: &mut (impl Read + Seek),
    layout: &Layout,
    start: u64,
    len: u64,
    mut output: impl Write,
    par: &Parallelism,
) -> Result<u64, Error> {
    let total = layout.plain_len()?;
    let chunks = layout.chunks();
    let batch = budget(par)?.batch;
    let mut sealed = Vec::new();
    let mut plain = Buffer::new(true);
    // The last chunk: its flag proves where the plaintext ends.
    let last = chunks - 1;
    let at = last * SEALED_CHUNK as u64;
    read_at(
        input,
        layout.start + at,
        &mut sealed,
        (layout.sealed - at) as usize,
    )?;
    plain.sized(opened_len(sealed.len()));
    open_chunks(key, (&sealed).into(), &mut plain, last, true, par).map_err(|(e, _)| e)?;
    let end = start
        .checked_add(len)
        .filter(|&e| e <= total)
        .ok_or(Error::Range { start, len, total })?;
    if len == 0 {
        return Ok(0);
    }
    let (first, final_chunk) = (start / CHUNK as u64, (end - 1) / CHUNK as u64);
    let mut index = first;
    while index <= final_chunk {
        let count = (batch as u64).min(final_chunk - index + 1);
        let at = index * SEALED_CHUNK as u64;
        let n = (count * SEALED_CHUNK as u64).min(layout.sealed - at) as usize;
        read_at(input, layout.start + at, &mut sealed, n)?;
        plain.sized(opened_len(n));
        let ends = index + count == chunks;
        open_chunks(key, (&sealed).into(), &mut plain, index, ends, par).map_err(|(e, _)| e)?;
        let from = start.saturating_sub(index * CHUNK as u64) as usize;
        let to = (end - index * CHUNK as u64).min(plain.len() as u64) as usize;
        output.write_all(&plain[from..to])?;
        index += count;
    }
    output.flush()?;
    Ok(len)
}
