//! What can go wrong reading or writing a stream.

use std::io;

use crate::chunked;
use crate::rsa;

/// What can go wrong reading or writing a stream.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Reading or writing failed; the [`io::Error`] is the source (so a
    /// caller walking the error chain finds a broken pipe).
    #[error("I/O error")]
    Io(#[from] io::Error),
    /// The input does not start with the format's magic bytes (the same
    /// name in every format: `age::Error::WrongFormat`).
    #[error("not a parcrypt stream (no PARCRYPT header)")]
    WrongFormat,
    /// A version this build does not read.
    #[error("stream format version {0} is not supported (this build reads version 1)")]
    UnsupportedVersion(u8),
    /// The header is cut short or inconsistent.
    #[error("malformed stream header: {0}")]
    MalformedHeader(&'static str),
    /// No recipient stanza opens with any identity given.
    #[error("wrong key or passphrase (no recipient in the header matches)")]
    NoMatchingIdentity,
    /// The header's MAC does not verify: it was modified.
    #[error("the stream header failed authentication (it was modified)")]
    HeaderAuthentication,
    /// The stream ends early: the last segment present was not sealed as
    /// the last one, or no segment follows the header at all.
    #[error("the file is truncated ({})", ends_after(*.segment))]
    Truncated {
        /// The index of the last segment present; `None` when the stream
        /// ends right after its header (even an empty stream has a segment).
        segment: Option<u64>,
    },
    /// A segment does not verify (modified, reordered, spliced, or cut mid-segment at the end).
    #[error("segment {segment} failed authentication (modified, reordered, or truncated)")]
    SegmentAuthentication {
        /// The segment's index.
        segment: u64,
    },
    /// Bad parameters for writing (segment size, passphrase cost, no recipients).
    #[error("invalid options: {0}")]
    Options(String),
    /// The passphrase stanza asks for more scrypt work than the reader
    /// allows ([`DecryptOptions::max_work_factor`](super::DecryptOptions::max_work_factor)); nothing was computed.
    #[error(
        "the passphrase stanza asks for scrypt work factor {log2_n} (N = 2^{log2_n}), above the limit of {max}"
    )]
    WorkFactor {
        /// log2 of scrypt's N in the header.
        log2_n: u8,
        /// The reader's limit.
        max: u8,
    },
    /// A byte range beyond the end of the plaintext.
    #[error("range {start}+{len} is beyond the end of the plaintext ({total} bytes)")]
    Range {
        /// The first byte asked for.
        start: u64,
        /// How many bytes.
        len: u64,
        /// The plaintext length.
        total: u64,
    },
    /// An RSA operation on a recipient stanza failed unexpectedly.
    #[error("RSA recipient: {0}")]
    Rsa(#[from] rsa::Error),
}

/// Where a truncated stream ends, for [`Error::Truncated`]'s message.
fn ends_after(segment: Option<u64>) -> String {
    match segment {
        Some(s) => format!("it ends after segment {s}"),
        None => "it ends right after the header, before any segment".to_owned(),
    }
}

impl From<chunked::Error> for Error {
    fn from(e: chunked::Error) -> Self {
        match e {
            chunked::Error::Io(e) => Error::Io(e),
            chunked::Error::Authentication { chunk } => Error::SegmentAuthentication { segment: chunk },
            chunked::Error::Truncated { chunk } => Error::Truncated { segment: chunk },
            // The stream format sets no limit on its segments.
            chunked::Error::TooManyChunks | chunked::Error::Overflow => {
                Error::Options("batch size overflows".into())
            }
        }
    }
}
