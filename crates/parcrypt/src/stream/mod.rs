//! The `stream` file format: authenticated, segmented, seekable encryption
//! of files and pipes, sealed and opened on all cores.
//!
//! A random 32-byte file key is wrapped once per recipient (a raw 32-byte
//! key, a passphrase through scrypt, or an RSA-OAEP public key) in the
//! header; the payload key and the header's MAC key are derived from it by
//! HKDF-SHA256 with the header's random salt. The data is cut into segments
//! (1 MiB by default), each sealed with AES-256-GCM under the nonce
//! `segment counter (88 bits) ‖ last-segment flag`, so truncation,
//! reordering, duplication and splicing are all detected. Segments are
//! sealed and opened in parallel and written in order, in memory bounded by
//! a fixed budget whatever the thread count (64 MiB, or two segments if
//! they are larger); any byte range of a file decrypts by reading only its
//! segments. The byte layout, with test vectors: `docs/FORMAT.md`.
//!
//! # Examples
//! ```
//! use parcrypt::par::Parallelism;
//! use parcrypt::secret::SecretKey;
//! use parcrypt::stream::{self, DecryptOptions, Identity, Options, Recipient};
//!
//! let key = SecretKey::from_slice(&[7u8; 32]).expect("32 bytes");
//! let par = Parallelism::default();
//! let mut sealed = Vec::new();
//! let recipients = [Recipient::Key(key.clone())];
//! stream::encrypt_stream(&recipients, &b"hello"[..], &mut sealed, &Options::default(), &par, |_| {})?;
//! let mut plain = Vec::new();
//! let identities = [Identity::Key(key)];
//! stream::decrypt_stream(&identities, &sealed[..], &mut plain, &DecryptOptions::default(), &par, |_| {})?;
//! assert_eq!(plain, b"hello");
//! # Ok::<(), parcrypt::stream::Error>(())
//! ```

mod error;
mod file;
mod header;
mod pipe;
mod segments;

pub use crate::io::{Input, Source};
pub use error::Error;
pub use file::{decrypt_file, decrypt_range, encrypt_file};
pub use header::{DEFAULT_MAX_WORK_FACTOR, DEFAULT_SCRYPT_LOG2_N, MAX_SCRYPT_LOG2_N};
pub use pipe::{decrypt_stream, encrypt_stream};
pub use segments::Segments;

use crate::chunked::{Chunks, Framing};
use crate::ffi::AeadKey;
use crate::rsa;
use crate::secret::{SecretBytes, SecretKey};

/// The default segment size: 1 MiB.
pub const DEFAULT_SEGMENT: usize = 1 << 20;

/// The smallest segment size: 4 KiB.
pub const MIN_SEGMENT: usize = 1 << 12;

/// The largest segment size: 1 GiB.
pub const MAX_SEGMENT: usize = 1 << 30;

/// Who can open a stream being written.
#[derive(Debug)]
#[non_exhaustive]
pub enum Recipient<'a> {
    /// Whoever holds this 32-byte key (a key file).
    Key(SecretKey<32>),
    /// Whoever knows this passphrase; scrypt with N = 2^log2_n, r = 8, p = 1.
    /// A passphrase must be a stream's only recipient.
    Passphrase {
        /// The passphrase.
        passphrase: SecretBytes,
        /// The scrypt cost (default [`DEFAULT_SCRYPT_LOG2_N`]).
        log2_n: u8,
    },
    /// The holder of this RSA private key (RSA-OAEP-SHA-256 of the file key).
    Rsa(&'a rsa::PublicKey),
}

/// What opens a stream being read.
#[derive(Debug)]
#[non_exhaustive]
pub enum Identity<'a> {
    /// A 32-byte key.
    Key(SecretKey<32>),
    /// A passphrase.
    Passphrase(SecretBytes),
    /// An RSA private key.
    Rsa(&'a rsa::PrivateKey),
}

/// How a stream is written: format choices only (threads and scheduling
/// are the `par` argument of each entry point).
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Plaintext bytes per segment: a power of two from 4 KiB to 1 GiB.
    pub segment_size: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            segment_size: DEFAULT_SEGMENT,
        }
    }
}

/// How a stream is read: policy only (threads and scheduling are the `par`
/// argument of each entry point).
#[derive(Clone, Copy, Debug)]
pub struct DecryptOptions {
    /// The most scrypt work a passphrase stanza may ask for, as log2 of N
    /// (default [`DEFAULT_MAX_WORK_FACTOR`]); a costlier header is refused
    /// with [`Error::WorkFactor`] before any scrypt work. The header's cost
    /// is chosen by whoever wrote the file, and runs before anything in it
    /// is authenticated.
    pub max_work_factor: u8,
}

impl Default for DecryptOptions {
    fn default() -> Self {
        DecryptOptions {
            max_work_factor: DEFAULT_MAX_WORK_FACTOR,
        }
    }
}

/// The stream's segments, for the chunk engine: STREAM nonces (counter ‖
/// last flag), no limit on their number.
fn chunks(payload: &AeadKey, segment_size: usize) -> Chunks<'_> {
    Chunks {
        key: payload,
        size: segment_size,
        framing: Framing::Stream,
        max_chunks: u64::MAX,
    }
}
