//! How chunks move: the reader/writer pipeline for any `Read` and `Write`
//! (a reader thread reads ahead a batch at a time, with one byte of
//! look-ahead, since only the end of the input tells which chunk is the
//! last; a writer thread drains), regular files (each worker reads the
//! chunks it seals or opens with positional reads; one worker: a reader
//! thread instead), and byte ranges (only the chunks that hold them).
//! Stored chunks (a file, memory) can be read in any order, so their
//! final chunk, which proves the length, is opened before anything is
//! released ([`open_final`]); a reader's end is found last.
//! Every format's streaming and file paths are these loops.

use std::fs::File;
use std::io::{self, Read, Write};

use super::buffer::Buffer;
use super::seal::{Plain, Scratch, Sealed, open_batch, open_into, plain_len, seal_batch};
use super::{Budget, Chunks, Error, TAG};
use crate::io::pipeline::{self, Sink};
use crate::io::{Input, ReadAt};
use crate::par::Parallelism;

/// Seals everything `input` yields as chunks `0 ..` to `output`, a batch at
/// a time on `par`'s threads, reading and writing on threads of their own;
/// returns the plaintext length. `progress` is called with plaintext bytes
/// done.
///
/// # Errors
/// I/O errors; [`Error::TooManyChunks`] beyond the format's limit (the
/// batch that would cross it is not written).
pub(crate) fn seal_reader(
    chunks: &Chunks<'_>,
    input: impl Read + Send,
    output: impl Write + Send,
    budget: Budget,
    par: &Parallelism,
    mut progress: impl FnMut(u64),
) -> Result<u64, Error> {
    let (mut index, mut total) = (0u64, 0u64);
    pipelined(
        input,
        output,
        budget.bytes(chunks.size)?,
        budget.depth,
        true,
        |plain, more, sealed| {
            index += seal_batch(chunks, Plain::Memory(plain), sealed, index, !more, par)?;
            total += plain.len() as u64;
            progress(plain.len() as u64);
            Ok::<(), Error>(())
        },
    )?;
    Ok(total)
}

/// Seals `len` bytes of `file` (from its start) as chunks `0 ..` to
/// `output`, a batch at a time: on two threads or more, each worker reads
/// the chunks it seals with positional reads (`pread`) straight into their
/// places in the output batch and seals them there, in place, while they
/// are in its core's cache, so the copy out of the page cache runs on every
/// thread; a writer thread overlaps. With one thread, a reader thread reads
/// ahead instead ([`seal_reader`]), so that the copy overlaps sealing where
/// the worker's own reads would alternate with it. Returns `len`.
///
/// # Errors
/// As [`seal_reader`]; an I/O error if the file shrinks while it is read.
pub(crate) fn seal_file(
    chunks: &Chunks<'_>,
    file: &File,
    len: u64,
    output: impl Write + Send,
    budget: Budget,
    par: &Parallelism,
    mut progress: impl FnMut(u64),
) -> Result<u64, Error> {
    if !par.is_parallel() {
        return seal_reader(
            chunks,
            ReadAt::exactly(file, 0, len),
            output,
            budget,
            par,
            progress,
        );
    }
    let batch = budget.bytes(chunks.size)? as u64;
    with_writer(output, budget.depth, false, |sink| {
        let (mut index, mut at) = (0u64, 0u64);
        loop {
            // An empty file is one batch of nothing: one empty chunk.
            let n = (len - at).min(batch);
            let last = at + n == len;
            let plain = Plain::File {
                file,
                at,
                len: usize::try_from(n).map_err(io::Error::other)?,
            };
            let mut sealed = sink.take()?;
            index += seal_batch(chunks, plain, &mut sealed, index, last, par)?;
            sink.send(sealed)?;
            at += n;
            progress(n);
            if last {
                return Ok(());
            }
        }
    })?;
    Ok(len)
}

/// Opens every chunk `input` yields (from its first) to `output`, a batch
/// at a time on `par`'s threads, reading and writing on threads of their
/// own; returns the plaintext length. A batch is written only once all its
/// chunks verified; a failure stops before anything of the failing batch is
/// written.
///
/// # Errors
/// [`Error::Truncated`] (no chunk at all; a genuine middle chunk last; with
/// a short-final framing, a full chunk last), [`Error::Authentication`],
/// [`Error::TooManyChunks`], I/O errors.
pub(crate) fn open_reader(
    chunks: &Chunks<'_>,
    input: impl Read + Send,
    output: impl Write + Send,
    budget: Budget,
    par: &Parallelism,
    mut progress: impl FnMut(u64),
) -> Result<u64, Error> {
    let enc = chunks.sealed_size();
    let (mut index, mut total) = (0u64, 0u64);
    pipelined(
        input,
        output,
        budget.bytes(enc)?,
        budget.depth,
        false,
        |sealed, more, plain| {
            if sealed.is_empty() {
                // No chunk at all: even an empty message has one.
                return Err(Error::Truncated {
                    chunk: index.checked_sub(1),
                });
            }
            index += open_batch(chunks, Sealed::Memory(sealed), plain, index, !more, par)?;
            if !more {
                ends_short(chunks, sealed.len() as u64, index)?;
            }
            total += plain.len() as u64;
            progress(plain.len() as u64);
            Ok::<(), Error>(())
        },
    )?;
    Ok(total)
}

/// With a short-final framing, a message whose sealed chunks (`body` bytes,
/// ending at chunk `end`) end with a full chunk is truncated.
fn ends_short(chunks: &Chunks<'_>, body: u64, end: u64) -> Result<(), Error> {
    if chunks.framing.short_final() && body % chunks.sealed_size() as u64 == 0 {
        return Err(Error::Truncated {
            chunk: end.checked_sub(1),
        });
    }
    Ok(())
}

/// Where a message's sealed chunks are stored, for random access.
#[derive(Clone, Copy)]
pub(crate) enum Stored<'a> {
    /// In memory: the sealed chunks, from the first (each chunk of a
    /// shared input copied before it is opened: [`Sealed::of`]).
    Memory(Input<'a>),
    /// In a regular file, the first chunk at byte `at`; each worker reads
    /// the chunks it opens into a private buffer with positional reads
    /// (AES-GCM reads its input twice, so it never opens bytes that another
    /// process could change in between).
    File {
        /// The file.
        file: &'a File,
        /// Where chunk 0 starts.
        at: u64,
    },
}

impl<'a> Stored<'a> {
    /// `len` sealed bytes from `from` (relative to chunk 0).
    fn slice(self, from: u64, len: usize, scratch: &'a Scratch) -> Sealed<'a> {
        match self {
            Stored::Memory(input) => {
                let from = from as usize;
                Sealed::of(input.slice(from..from + len), scratch)
            }
            Stored::File { file, at } => Sealed::File {
                file,
                at: at + from,
                len,
                scratch,
            },
        }
    }
}

/// Opens all `body` sealed bytes of the chunks in `stored` to `output`, a
/// batch at a time on `par`'s threads (a writer thread overlaps); returns
/// the plaintext length. Same guarantees as [`open_reader`] (a batch is
/// written only once all its chunks verified), and one more, since stored
/// chunks can be read in any order: **the length is proved before the first
/// byte is released**. A message of more than one batch has its final chunk
/// opened first ([`open_final`]: one positional read, one chunk held) and
/// put in place when its batch comes, so a truncated or extended message
/// writes nothing at all; a message of one batch is opened whole before it
/// is written anyway. With a short-final framing, a message ending with a
/// full chunk is refused before anything is opened.
///
/// # Errors
/// As [`open_reader`]; an I/O error if the file shrinks while it is read.
pub(crate) fn open_stored(
    chunks: &Chunks<'_>,
    stored: Stored<'_>,
    body: u64,
    output: impl Write + Send,
    budget: Budget,
    par: &Parallelism,
    mut progress: impl FnMut(u64),
) -> Result<u64, Error> {
    let enc = chunks.sealed_size() as u64;
    if body == 0 {
        return Err(Error::Truncated { chunk: None });
    }
    ends_short(chunks, body, body.div_ceil(enc))?;
    chunks.check_limit(0, body.div_ceil(enc))?;
    let batch = budget.bytes(enc as usize)? as u64;
    // Checked ahead, unless the first batch is the whole message.
    let held = if body > batch {
        Some(open_final(chunks, stored, body, par)?)
    } else {
        None
    };
    let final_at = (body.div_ceil(enc) - 1) * enc;
    let scratch = Scratch::default();
    let mut total = 0u64;
    with_writer(output, budget.depth, true, |sink| {
        let (mut offset, mut index) = (0u64, 0u64);
        while offset < body {
            let n = (body - offset).min(batch) as usize;
            let last = offset + n as u64 == body;
            let mut plain = sink.take()?;
            match held.as_deref().filter(|_| last) {
                None => {
                    let sealed = stored.slice(offset, n, &scratch);
                    index += open_batch(chunks, sealed, &mut plain, index, last, par)?;
                }
                Some(tail) => {
                    // The chunks before the final one, opened as middle
                    // chunks; the final one's plaintext, verified ahead,
                    // after them.
                    let before = (final_at - offset) as usize;
                    let opened = plain_len(before, chunks.size);
                    plain.sized(opened + tail.len());
                    if before > 0 {
                        let sealed = stored.slice(offset, before, &scratch);
                        index += open_into(chunks, sealed, &mut plain[..opened], index, false, par)?;
                    }
                    plain[opened..].copy_from_slice(tail);
                    index += 1;
                }
            }
            total += plain.len() as u64;
            progress(plain.len() as u64);
            sink.send(plain)?;
            offset += n as u64;
        }
        Ok(())
    })?;
    Ok(total)
}

/// Opens the final chunk of the message whose `body` sealed bytes are in
/// `stored`, as the final one, into a private buffer (wiped when dropped)
/// that it returns: the check ahead that proves the message's length before
/// anything of it is released (a regular file's decryption, a range). It
/// reads only that chunk (one positional read from a file). STREAM framing
/// tells a genuine middle chunk at the end (truncation) from damage, as
/// [`open_batch`] does; a final chunk that fails has the first chunk
/// tried too, so that a message none of whose chunks opens is reported
/// from chunk 0, as in order.
///
/// # Errors
/// [`Error::Truncated`] (no chunk at all; a middle chunk last; with a
/// short-final framing, a full chunk last), [`Error::Authentication`] (the
/// final chunk damaged, cut inside, or extended), [`Error::TooManyChunks`],
/// read errors.
pub(crate) fn open_final(
    chunks: &Chunks<'_>,
    stored: Stored<'_>,
    body: u64,
    par: &Parallelism,
) -> Result<Buffer, Error> {
    let enc = chunks.sealed_size() as u64;
    if body == 0 {
        return Err(Error::Truncated { chunk: None });
    }
    let count = body.div_ceil(enc);
    ends_short(chunks, body, count)?;
    chunks.check_limit(0, count)?;
    let at = (count - 1) * enc;
    let scratch = Scratch::default();
    let sealed = stored.slice(at, (body - at) as usize, &scratch);
    let mut plain = Buffer::new(true);
    match open_batch(chunks, sealed, &mut plain, count - 1, true, par) {
        Ok(_) => Ok(plain),
        // When every chunk fails (another stream's header, so another
        // payload key), the error names the first, as reading in order
        // would: chunk 0 is tried too, on this failure path only.
        Err(Error::Authentication { chunk }) if chunk > 0 => {
            let first = stored.slice(0, enc as usize, &scratch);
            match open_batch(chunks, first, &mut plain, 0, false, par) {
                Ok(_) => Err(Error::Authentication { chunk }),
                Err(_) => Err(Error::Authentication { chunk: 0 }),
            }
        }
        Err(e) => Err(e),
    }
}

/// Proves the length of the message in `stored` before plaintext bytes
/// `start .. start + len` of it are opened: opens its final chunk
/// ([`open_final`]) unless that range holds it, when opening the range
/// proves it anyway. A truncated or extended message is then refused
/// whatever the range, before anything of it is written. (A range past the
/// end is the caller's to refuse, after this.)
///
/// # Errors
/// As [`open_final`].
pub(crate) fn prove_length(
    chunks: &Chunks<'_>,
    stored: Stored<'_>,
    body: u64,
    start: u64,
    len: u64,
    par: &Parallelism,
) -> Result<(), Error> {
    let (seg, enc) = (chunks.size as u64, chunks.sealed_size() as u64);
    let count = body.div_ceil(enc);
    let plain = body.saturating_sub(count.saturating_mul(TAG as u64));
    let covers_final = len > 0
        && count > 0
        && start
            .checked_add(len)
            .is_some_and(|end| end <= plain && (end - 1) / seg == count - 1);
    if !covers_final {
        open_final(chunks, stored, body, par)?;
    }
    Ok(())
}

/// Opens only the chunks holding plaintext bytes `start .. end` of the
/// message whose `body` sealed bytes are in `stored`, a batch at a time
/// (memory as for [`open_stored`], whatever the range's length), and
/// writes that range to `output`. Each batch is written once its chunks
/// verified. The caller has checked `start < end <= ` the plaintext length
/// that `body` implies.
///
/// # Errors
/// As [`open_stored`].
#[allow(clippy::too_many_arguments)]
pub(crate) fn open_range(
    chunks: &Chunks<'_>,
    stored: Stored<'_>,
    body: u64,
    start: u64,
    end: u64,
    output: impl Write + Send,
    budget: Budget,
    par: &Parallelism,
) -> Result<(), Error> {
    let (seg, enc) = (chunks.size as u64, chunks.sealed_size() as u64);
    let total_chunks = body.div_ceil(enc);
    let (first, last) = (start / seg, (end - 1) / seg);
    let scratch = Scratch::default();
    with_writer(output, budget.depth, true, |sink| {
        let mut index = first;
        while index <= last {
            let count = (budget.batch as u64).min(last - index + 1);
            let at = index * enc;
            let n = (count * enc).min(body - at) as usize;
            let mut plain = sink.take()?;
            let final_batch = index + count == total_chunks;
            let sealed = stored.slice(at, n, &scratch);
            open_batch(chunks, sealed, &mut plain, index, final_batch, par)?;
            // The part of the range in this batch, moved to the front.
            let from = start.saturating_sub(index * seg) as usize;
            let to = (end - index * seg).min(plain.len() as u64) as usize;
            plain.copy_within(from..to, 0);
            plain.sized(to - from);
            sink.send(plain)?;
            index += count;
        }
        Ok(())
    })
}

/// Runs `work` with a writer thread draining the batches it sends to
/// `output` ([`pipeline::with_writer`]): `depth` output buffers, from the
/// spare pool and back to it at the end; `secret`: they carry plaintext.
fn with_writer<T>(
    output: impl Write + Send,
    depth: usize,
    secret: bool,
    work: impl FnOnce(&Sink<Buffer>) -> Result<T, Error>,
) -> Result<T, Error> {
    pipeline::with_writer(output, Buffer::spares(depth, secret), work, Buffer::recycle)
}

/// Runs `work` over the input in batches of at most `in_size` bytes, with
/// reading and writing overlapped with it ([`pipeline::batches`]): a reader
/// thread fills the next batch and a writer thread drains the previous
/// output while `work` runs; `depth` buffers circulate on each side. `work` gets the batch, whether
/// more input follows (one byte of look-ahead tells), and an output buffer
/// to fill; an error stops everything before that batch's output is
/// written. `plaintext_in` says which side holds plaintext (the input when
/// encrypting), whose buffers are wiped. (Every streaming path of every format.)
pub(crate) fn pipelined<R: Read + Send, W: Write + Send, E: From<io::Error>>(
    input: R,
    output: W,
    in_size: usize,
    depth: usize,
    plaintext_in: bool,
    mut work: impl FnMut(&[u8], bool, &mut Buffer) -> Result<(), E>,
) -> Result<(), E> {
    let limit = in_size
        .checked_add(1)
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "batch size overflows"))?;
    // Each batch keeps one byte of look-ahead for the next.
    let (mut carry, mut expect) = (None, 0);
    let fill = move |input: &mut R, buf: &mut Buffer| {
        let got = buf.fill_from(input, carry.take(), expect, limit)?;
        let more = got == limit;
        if more {
            carry = Some(buf[got - 1]);
            expect = limit;
        }
        Ok(more)
    };
    let inputs = (0..depth).map(|_| Buffer::new(plaintext_in)).collect();
    let outputs = Buffer::spares(depth, !plaintext_in);
    pipeline::batches(
        input,
        output,
        inputs,
        outputs,
        fill,
        |source, sink| loop {
            let (buf, more) = source.next()?;
            let data = &buf[..buf.len() - usize::from(more)];
            let mut out = sink.take()?;
            work(data, more, &mut out)?;
            sink.send(out)?;
            source.give(buf);
            if !more {
                return Ok(());
            }
        },
        Buffer::recycle,
    )
}

#[cfg(test)]
mod tests {
    use std::io::Write as _;

    use super::*;
    use crate::chunked::Framing;
    use crate::ffi::AeadKey;
    use crate::par::Strategy;

    /// 16-byte chunks, batches of 3 chunks: a few hundred bytes span many.
    const SIZE: usize = 16;
    const BUDGET: Budget = Budget { batch: 3, depth: 2 };

    fn sealed(chunks: &Chunks<'_>, plain: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        let par = Parallelism::sequential();
        seal_reader(chunks, plain, &mut out, BUDGET, &par, |_| {}).unwrap();
        out
    }

    fn file_of(bytes: &[u8]) -> File {
        let mut f = tempfile::tempfile().unwrap();
        f.write_all(bytes).unwrap();
        f
    }

    fn pars() -> [Parallelism; 3] {
        [
            Parallelism::sequential(),
            Parallelism::new(2, Strategy::Static),
            Parallelism::new(3, Strategy::WorkStealing),
        ]
    }

    fn each_framing(mut test: impl FnMut(&Chunks<'_>, &str)) {
        let key = AeadKey::new(&[3u8; 16]).unwrap();
        for (framing, name) in [(Framing::Stream, "stream"), (Framing::Xor([5; 12]), "xor")] {
            let chunks = Chunks {
                key: &key,
                size: SIZE,
                framing,
                max_chunks: u64::MAX,
            };
            test(&chunks, name);
        }
    }

    #[test]
    fn stored_messages_open_whole_at_every_batch_boundary() {
        // Lengths whose final batch is the final chunk alone, ends with a
        // full chunk, or is one batch in all; in memory and in a file.
        each_framing(|chunks, name| {
            for len in [0, 1, 15, 16, 17, 47, 48, 49, 95, 96, 97, 200, 300] {
                let plain: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
                let sealed = sealed(chunks, &plain);
                let file = file_of(&sealed);
                let body = sealed.len() as u64;
                for par in &pars() {
                    for stored in [
                        Stored::Memory((&sealed).into()),
                        Stored::File { file: &file, at: 0 },
                    ] {
                        let mut out = Vec::new();
                        let n = open_stored(chunks, stored, body, &mut out, BUDGET, par, |_| {});
                        assert_eq!(n.unwrap(), len as u64, "{name} {len}");
                        assert_eq!(out, plain, "{name} {len}");
                    }
                }
            }
        });
    }

    #[test]
    fn a_stored_message_with_a_bad_end_releases_nothing() {
        each_framing(|chunks, name| {
            let plain: Vec<u8> = (0..300).map(|i| (i % 251) as u8).collect();
            let good = sealed(chunks, &plain);
            let n = good.len();
            let mut flipped = good.clone();
            flipped[n - 1] ^= 1;
            let cases = [
                ("cut by 1", good[..n - 1].to_vec()),
                ("cut by a chunk", good[..n - SIZE - TAG].to_vec()),
                ("cut by 40", good[..n - 40].to_vec()),
                ("extended by 1", [&good[..], b"x"].concat()),
                ("extended by a chunk", [&good[..], &good[..SIZE + TAG]].concat()),
                ("last tag flipped", flipped),
            ];
            for (case, bad) in &cases {
                let file = file_of(bad);
                for par in &pars() {
                    let stored = Stored::File { file: &file, at: 0 };
                    let mut out = Vec::new();
                    let got = open_stored(chunks, stored, bad.len() as u64, &mut out, BUDGET, par, |_| {});
                    assert!(
                        matches!(got, Err(Error::Truncated { .. } | Error::Authentication { .. })),
                        "{name} {case}: {got:?}"
                    );
                    assert!(out.is_empty(), "{name} {case}: {} bytes released", out.len());
                    // The check alone says the same.
                    assert!(open_final(chunks, stored, bad.len() as u64, par).is_err());
                }
                // From a reader the end is found last: the batches before it went out.
                let mut out = Vec::new();
                let got = open_reader(chunks, &bad[..], &mut out, BUDGET, &pars()[0], |_| {});
                assert!(got.is_err(), "{name} {case}");
                assert!(!out.is_empty() && plain.starts_with(&out), "{name} {case}");
            }
            // Every chunk failing (another key): named from the first.
            let other = AeadKey::new(&[4u8; 16]).unwrap();
            let wrong = Chunks {
                key: &other,
                ..*chunks
            };
            let got = open_final(&wrong, Stored::Memory((&good).into()), n as u64, &pars()[0]).map(drop);
            assert!(
                matches!(got, Err(Error::Authentication { chunk: 0 })),
                "{name}: {got:?}"
            );
            // Damage in the middle: the batches before it, and only those.
            let mut bad = good.clone();
            bad[4 * (SIZE + TAG) + 3] ^= 1;
            let mut out = Vec::new();
            let stored = Stored::Memory((&bad).into());
            let got = open_stored(chunks, stored, n as u64, &mut out, BUDGET, &pars()[1], |_| {});
            assert!(
                matches!(got, Err(Error::Authentication { chunk: 4 })),
                "{name}: {got:?}"
            );
            assert_eq!(out, plain[..3 * SIZE], "{name}");
        });
    }

    #[test]
    fn files_read_in_runs_seal_and_open_as_memory_does() {
        // Batches of 1,100 chunks of 16 bytes: a part holds more chunks
        // than a run (512 of them), so each worker reads several runs, the
        // last one short. Sealed from a file on 1–3 threads as from memory;
        // opened from a file whole, and with one chunk damaged on each side
        // of a run's edge, named exactly and with nothing of its batch out.
        let budget = Budget {
            batch: 1100,
            depth: 2,
        };
        each_framing(|chunks, name| {
            for len in [0, 1, 511 * SIZE, 512 * SIZE + 3, 1100 * SIZE, 2500 * SIZE + 7] {
                let plain: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
                let reference = sealed(chunks, &plain);
                let file = file_of(&plain);
                for par in &pars() {
                    let mut out = Vec::new();
                    seal_file(chunks, &file, len as u64, &mut out, budget, par, |_| {}).unwrap();
                    assert!(out == reference, "{name} {len}: sealed from a file");
                    let stored_file = file_of(&reference);
                    let stored = Stored::File {
                        file: &stored_file,
                        at: 0,
                    };
                    let body = reference.len() as u64;
                    let mut opened = Vec::new();
                    open_stored(chunks, stored, body, &mut opened, budget, par, |_| {}).unwrap();
                    assert!(opened == plain, "{name} {len}: opened from a file");
                }
            }
            let plain: Vec<u8> = (0..2500 * SIZE).map(|i| (i % 251) as u8).collect();
            let good = sealed(chunks, &plain);
            for bad_chunk in [511usize, 512, 1023, 1024, 1099, 1100] {
                let mut bad = good.clone();
                bad[bad_chunk * (SIZE + TAG) + 5] ^= 1;
                let file = file_of(&bad);
                for par in &pars() {
                    let stored = Stored::File { file: &file, at: 0 };
                    let mut out = Vec::new();
                    let got = open_stored(chunks, stored, bad.len() as u64, &mut out, budget, par, |_| {});
                    assert!(
                        matches!(got, Err(Error::Authentication { chunk }) if chunk == bad_chunk as u64),
                        "{name} {bad_chunk}: {got:?}"
                    );
                    let batches_before = bad_chunk / budget.batch * budget.batch;
                    assert_eq!(out, plain[..batches_before * SIZE], "{name} {bad_chunk}");
                }
            }
        });
    }

    #[test]
    fn prove_length_opens_the_final_chunk_unless_the_range_holds_it() {
        each_framing(|chunks, name| {
            let plain: Vec<u8> = (0..100).map(|i| (i % 251) as u8).collect();
            let good = sealed(chunks, &plain);
            let cut = &good[..good.len() - 1];
            let par = Parallelism::sequential();
            for (start, len) in [(0, 0), (0, 1), (17, 20), (90, 9), (99, 1), (0, 100), (200, 5)] {
                let body = good.len() as u64;
                let ok = prove_length(chunks, Stored::Memory((&good).into()), body, start, len, &par);
                assert!(ok.is_ok(), "{name} {start}+{len}");
                let body = cut.len() as u64;
                let bad = prove_length(chunks, Stored::Memory(cut.into()), body, start, len, &par);
                // The cut message claims 99 bytes; a range holding its
                // final chunk (96..99) is proved by opening that range.
                let holds_final = len > 0 && start + len <= 99 && (start + len - 1) / 16 == 6;
                assert_eq!(bad.is_ok(), holds_final, "{name} {start}+{len}");
            }
        });
    }
}
