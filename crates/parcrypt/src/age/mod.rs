//! age (C2SP age v1, `age-encryption.org/v1`), exactly as the age CLI,
//! rage and filippo.io/age read and write it, with the payload's 64 KiB
//! ChaCha20-Poly1305 chunks sealed and opened on all cores.
//!
//! Recipients and identities: X25519 (`age1…` / `AGE-SECRET-KEY-1…`), the
//! post-quantum hybrid `mlkem768x25519` (`age1pq1…` /
//! `AGE-SECRET-KEY-PQ-1…`), SSH keys (`ssh-ed25519`, `ssh-rsa`; unencrypted
//! OpenSSH private keys), passphrases (scrypt, with a work-factor
//! ceiling on decryption), and age plugins (`age1NAME1…` /
//! `AGE-PLUGIN-NAME-1…`, the program `age-plugin-NAME` run over the plugin
//! protocol to wrap or unwrap the file key: [`PluginClient`]). ASCII armor
//! on writing, detected on reading.
//! Any byte range of a binary file decrypts by reading only its chunks.
//!
//! The format is age's, not ours: parallelism changes nothing in the bytes.
//! Chunk *i* is sealed under nonce `i ‖ last` whichever thread seals it, so
//! every [`Parallelism`](crate::par::Parallelism) (strategy and thread count) writes the same file
//! given the same randomness ([`Encryptor::with_randomness`] makes that
//! testable). `README.md` beside this file has the design.
//!
//! # Examples
//! ```
//! use parcrypt::age::{self, DecryptOptions, Identity, KeyKind, Options};
//! use parcrypt::par::Parallelism;
//!
//! let par = Parallelism::default();
//! let identity = Identity::generate(KeyKind::X25519);
//! let recipient = identity.to_recipient().expect("a public key");
//! let mut sealed = Vec::new();
//! age::encrypt_stream(&[recipient], &b"hello"[..], &mut sealed, &Options::default(), &par, |_| {})?;
//! assert!(sealed.starts_with(b"age-encryption.org/v1\n"));
//! let mut plain = Vec::new();
//! age::decrypt_stream(&[identity], &sealed[..], &mut plain, &DecryptOptions::default(), &par, |_| {})?;
//! assert_eq!(plain, b"hello");
//! # Ok::<(), parcrypt::age::Error>(())
//! ```

mod armor;
mod bech;
mod decrypt;
mod encrypt;
mod error;
mod format;
mod inspect;
mod keys;
mod payload;
mod plugin;
mod pq;
mod primitives;
mod scrypt;
mod ssh;
mod tag;
mod x25519;

pub use armor::{ArmoredReader, ArmoredWriter, BEGIN as ARMOR_BEGIN, END as ARMOR_END};
pub use error::{Error, OptionsError, Outcome};
pub use format::{Header, MAX_HEADER, Stanza};
pub use inspect::{Inspection, Sizes as InspectionSizes, inspect};
pub use keys::{
    Identity, KeyKind, Recipient, RecipientsFile, parse_identities, parse_recipients, read_identities,
    read_recipients, rfc3339_utc,
};
pub use payload::CHUNK;
pub use plugin::{
    DEFAULT_TIMEOUT as PLUGIN_TIMEOUT, PluginClient, PluginIdentity, PluginRecipient, PluginUi,
};
pub use pq::{HybridIdentity, HybridRecipient};
pub use scrypt::{DEFAULT_WORK_FACTOR, Passphrase};
pub use ssh::{EncryptedSshIdentity, PassphraseSource, SshIdentity, SshRecipient};
pub use tag::TagRecipient;
pub use x25519::{X25519Identity, X25519Recipient};

pub use crate::io::{Input, Source};
pub use decrypt::{Decryptor, decrypt, decrypt_file, decrypt_range, decrypt_stream};
pub use encrypt::{Encryptor, encrypt, encrypt_file, encrypt_stream};

/// The most scrypt work a passphrase stanza may ask for unless the reader
/// says otherwise (log2 of N): N = 2^20 (1 GiB, about 3 s on one core), as
/// for the `stream` format. age writes 2^18.
pub const DEFAULT_MAX_WORK_FACTOR: u8 = 20;

/// How many leading bytes [`detect`] needs to see to be sure (armor may
/// follow up to 1 KiB of whitespace).
pub const DETECT_LEN: usize = 1024 + ARMOR_BEGIN.len();

/// How a file is written: format choices only (threads and scheduling are
/// each entry point's `par`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// ASCII armor (`age -a`): PEM-like text instead of binary.
    pub armor: bool,
}

/// Whether input is armored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Armor {
    /// Decide from the first bytes, as the age CLI does ([`detect`]).
    #[default]
    Detect,
    /// The input is armored (the armor is checked strictly).
    Armored,
    /// The input is binary.
    Binary,
}

/// How a file is read: policy only (threads and scheduling are each entry
/// point's `par`).
#[derive(Clone, Copy, Debug)]
pub struct DecryptOptions {
    /// Whether the input is armored (default: detect it).
    pub armor: Armor,
    /// The most scrypt work a passphrase stanza may ask for, as log2 of N
    /// (default [`DEFAULT_MAX_WORK_FACTOR`]; at most 22 is honoured, 4 GiB
    /// of memory): a costlier stanza is refused with [`Error::WorkFactor`]
    /// before any work. Anyone can write a header, and scrypt runs before
    /// anything in it is authenticated.
    pub max_work_factor: u8,
}

impl Default for DecryptOptions {
    fn default() -> Self {
        DecryptOptions {
            armor: Armor::Detect,
            max_work_factor: DEFAULT_MAX_WORK_FACTOR,
        }
    }
}

/// What kind of age file some input is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Binary: it starts with `age-encryption.org/`.
    Binary,
    /// ASCII armor: `-----BEGIN AGE ENCRYPTED FILE-----` after at most 1 KiB of whitespace.
    Armored,
}

/// Tells an age file from other input by its first bytes (give it
/// [`DETECT_LEN`] bytes, or the whole input if shorter): `None` if it is
/// neither kind. A binary file of another version (`age-encryption.org/v2`)
/// is still `Binary`; reading it fails with a clear message.
pub fn detect(prefix: &[u8]) -> Option<Format> {
    if prefix.starts_with(format::MAGIC) {
        return Some(Format::Binary);
    }
    let prefix = &prefix[..prefix.len().min(DETECT_LEN)];
    let trimmed = std::str::from_utf8(prefix)
        .map(str::trim_start)
        .unwrap_or_else(|e| {
            std::str::from_utf8(&prefix[..e.valid_up_to()])
                .unwrap_or_default()
                .trim_start()
        });
    trimmed.starts_with(ARMOR_BEGIN).then_some(Format::Armored)
}
