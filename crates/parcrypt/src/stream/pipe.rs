//! The front ends for readers and writers (pipes, sockets, anything that
//! is `Read` or `Write`): a reader thread reads ahead a batch at a time,
//! with one byte of look-ahead, since only the end of the input tells
//! which segment is the last.

use std::io::{self, Read, Write};

use super::buffer::Buffer;
use super::header::Header;
use super::segment::{Plain, Sealed, TAG, open_segments, seal_segments};
use super::{Budget, DecryptOptions, Error, Identity, Options, Recipient};
use crate::io::pipeline;
use crate::par::Parallelism;

/// Encrypts everything `input` yields to `output` for `recipients`; returns
/// the plaintext length. Segments are sealed on the threads of `par`;
/// `progress` is called with plaintext bytes done.
///
/// # Errors
/// [`Error::Options`] for no recipients, a passphrase beside other
/// recipients, or a bad segment size; I/O errors.
pub fn encrypt(
    recipients: &[Recipient<'_>],
    input: impl Read + Send,
    mut output: impl Write + Send,
    opts: &Options,
    par: &Parallelism,
    mut progress: impl FnMut(u64),
) -> Result<u64, Error> {
    let (header, keys) = Header::seal(recipients, opts.segment_size)?;
    output.write_all(&header)?;
    let seg = opts.segment_size;
    let budget = Budget::new(seg + TAG, par.threads().get());
    let (mut index, mut total) = (0u64, 0u64);
    pipelined(
        input,
        output,
        budget.bytes(seg)?,
        budget.depth,
        true,
        |plain, more, sealed| {
            index += seal_segments(
                &keys.payload,
                Plain::Memory(plain),
                sealed,
                seg,
                index,
                !more,
                par,
            )?;
            total += plain.len() as u64;
            progress(plain.len() as u64);
            Ok::<(), Error>(())
        },
    )?;
    Ok(total)
}

/// Decrypts a stream from `input` to `output`; returns the plaintext length.
/// Segments are opened on the threads of `par` (an RSA identity's private
/// operation uses them too); `progress` is called with plaintext bytes done.
/// Each segment's plaintext is written only after it verifies; a failure
/// stops before anything of the failing segment is written (callers writing
/// a file should write to a temporary file and keep it only on `Ok`).
///
/// # Errors
/// [`Error::NoMatchingIdentity`] (wrong key or passphrase),
/// [`Error::WorkFactor`] (a passphrase stanza over the limit),
/// [`Error::HeaderAuthentication`], [`Error::Truncated`],
/// [`Error::SegmentAuthentication`], header format errors, I/O errors.
pub fn decrypt(
    identity: &Identity<'_>,
    mut input: impl Read + Send,
    output: impl Write + Send,
    opts: &DecryptOptions,
    par: &Parallelism,
    mut progress: impl FnMut(u64),
) -> Result<u64, Error> {
    let (header, _) = Header::read(&mut input)?;
    let keys = header.open(identity, opts, par)?;
    let seg = header.segment_size;
    let enc = seg + TAG;
    let budget = Budget::new(enc, par.threads().get());
    let (mut index, mut total) = (0u64, 0u64);
    pipelined(
        input,
        output,
        budget.bytes(enc)?,
        budget.depth,
        false,
        |sealed, more, plain| {
            if sealed.is_empty() {
                // No segment at all: even an empty stream has one.
                return Err(Error::Truncated {
                    segment: index.checked_sub(1),
                });
            }
            let sealed = Sealed::Memory(sealed);
            index += open_segments(&keys.payload, sealed, plain, seg, index, !more, par)?;
            total += plain.len() as u64;
            progress(plain.len() as u64);
            Ok::<(), Error>(())
        },
    )?;
    Ok(total)
}

/// Runs `work` over the input in batches of at most `in_size` bytes, with
/// reading and writing overlapped with it ([`pipeline::batches`]): a reader
/// thread fills the next batch and a writer thread drains the previous
/// output while `work` runs; `depth` buffers circulate on each side. `work` gets the batch, whether
/// more input follows (one byte of look-ahead tells), and an output buffer
/// to fill; an error stops everything before that batch's output is
/// written. `plaintext_in` says which side holds plaintext (the input when
/// encrypting), whose buffers are wiped. (Also age's payload pipeline.)
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
