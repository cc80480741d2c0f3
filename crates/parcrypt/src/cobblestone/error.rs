//! What can go wrong writing or reading a chunked-encryption message.

use std::io;

use crate::chunked;

/// What can go wrong writing or reading a C2SP chunked-encryption message.
/// Authentication failures say which check failed and where, never more.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Reading or writing failed; the [`io::Error`] is the source.
    #[error("I/O error")]
    Io(#[from] io::Error),
    /// The input key is not the AEAD's key length.
    #[error("the key must be {expected} bytes for {aead}, not {got}")]
    KeyLength {
        /// The AEAD's key length.
        expected: usize,
        /// The key's length.
        got: usize,
        /// The AEAD's IANA name.
        aead: &'static str,
    },
    /// The key commitment after the salt does not match the one derived from
    /// the key, salt and context: the wrong key or context, another scheme's
    /// message, or a modified header. Nothing was decrypted.
    #[error(
        "the key commitment does not match (wrong key or context, another scheme, or a modified header); nothing was decrypted"
    )]
    Commitment,
    /// A chunk does not verify (modified, reordered, or cut short).
    #[error("chunk {chunk} failed authentication (modified, reordered, or cut short)")]
    ChunkAuthentication {
        /// The chunk's index.
        chunk: u64,
    },
    /// The message ends early: with a full chunk (the final chunk is always
    /// shorter than 16 KiB), or right after its header.
    #[error("the message is truncated ({})", ends_after(*.chunk))]
    Truncated {
        /// The last chunk present; `None` when the message ends right after
        /// its header (even an empty message has a chunk).
        chunk: Option<u64>,
    },
    /// Fewer bytes than a header (salt and commitment).
    #[error("not a chunked-encryption message: {len} bytes, shorter than the 56-byte salt and commitment")]
    TooShort {
        /// The input's length.
        len: u64,
    },
    /// More chunks than the 2^38 this implementation allows (4 PiB), as
    /// pyca/cryptography: nothing beyond the limit is sealed or opened.
    #[error("the message exceeds the limit of 2^38 chunks (4 PiB)")]
    TooLarge,
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
    /// A caller's output buffer is too small.
    #[error("the output buffer holds {got} bytes; {needed} are needed")]
    BufferTooSmall {
        /// Bytes needed.
        needed: usize,
        /// Bytes given.
        got: usize,
    },
    /// A run of chunks given to [`Parts`](super::Parts) that no message
    /// has there: not whole chunks (or empty) where it does not end the
    /// message.
    #[error("{0}")]
    Part(&'static str),
    /// A streaming decryptor that failed once refuses everything after.
    #[error("this decryptor already failed: a message that failed authentication cannot be continued")]
    Failed,
}

/// Where a truncated message ends, for [`Error::Truncated`]'s message.
fn ends_after(chunk: Option<u64>) -> String {
    match chunk {
        Some(c) => format!("it ends with full chunk {c}, without the short final chunk"),
        None => "it ends right after its header, before any chunk".to_owned(),
    }
}

impl From<chunked::Error> for Error {
    fn from(e: chunked::Error) -> Self {
        match e {
            chunked::Error::Io(e) => Error::Io(e),
            chunked::Error::Authentication { chunk } => Error::ChunkAuthentication { chunk },
            chunked::Error::Truncated { chunk } => Error::Truncated { chunk },
            chunked::Error::TooManyChunks | chunked::Error::Overflow => Error::TooLarge,
        }
    }
}
