//! The front ends for readers and writers (pipes, sockets, anything that
//! is `Read` or `Write`), on the chunk engine's pipeline (`chunked::flow`):
//! a reader thread reads ahead a batch at a time, with one byte of
//! look-ahead, since only the end of the input tells which segment is the
//! last.

use std::io::{Read, Write};

use super::header::Header;
use super::{DecryptOptions, Error, Identity, Options, Recipient, chunks};
use crate::chunked::{Budget, TAG, flow};
use crate::par::Parallelism;

/// Encrypts everything `input` yields to `output` for `recipients`; returns
/// the plaintext length. Segments are sealed on the threads of `par`;
/// `progress` is called with plaintext bytes done.
///
/// # Errors
/// [`Error::Options`] for no recipients, a passphrase beside other
/// recipients, or a bad segment size; I/O errors.
pub fn encrypt_stream(
    recipients: &[Recipient<'_>],
    input: impl Read + Send,
    mut output: impl Write + Send,
    opts: &Options,
    par: &Parallelism,
    progress: impl FnMut(u64),
) -> Result<u64, Error> {
    let (header, keys) = Header::seal(recipients, opts.segment_size)?;
    output.write_all(&header)?;
    let seg = opts.segment_size;
    let budget = Budget::new(seg + TAG, par.threads().get());
    let chunks = chunks(&keys.payload, seg);
    Ok(flow::seal_reader(&chunks, input, output, budget, par, progress)?)
}

/// Decrypts a stream from `input` to `output` with the first of
/// `identities` that opens its header; returns the plaintext length.
/// Segments are opened on the threads of `par` (an RSA identity's private
/// operation uses them too); `progress` is called with plaintext bytes done.
/// Each segment's plaintext is written only after it verifies; a failure
/// stops before anything of the failing segment is written (callers writing
/// a file should write to a temporary file and keep it only on `Ok`).
///
/// # Errors
/// [`Error::NoMatchingIdentity`] (no identity opens it: wrong key or passphrase),
/// [`Error::WorkFactor`] (a passphrase stanza over the limit),
/// [`Error::HeaderAuthentication`], [`Error::Truncated`],
/// [`Error::SegmentAuthentication`], header format errors, I/O errors.
pub fn decrypt_stream(
    identities: &[Identity<'_>],
    mut input: impl Read + Send,
    output: impl Write + Send,
    opts: &DecryptOptions,
    par: &Parallelism,
    progress: impl FnMut(u64),
) -> Result<u64, Error> {
    let (header, _) = Header::read(&mut input)?;
    let keys = header.open(identities, opts, par)?;
    let seg = header.segment_size;
    let budget = Budget::new(seg + TAG, par.threads().get());
    let chunks = chunks(&keys.payload, seg);
    Ok(flow::open_reader(&chunks, input, output, budget, par, progress)?)
}
