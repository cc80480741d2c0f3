//! The scrypt recipient type: a passphrase, `-> scrypt <salt> <log2 N>`.
//! scrypt itself is AWS-LC's (`EVP_PBE_scrypt`, the stream format's too).

use std::fmt;

use super::format::{Stanza, b64_decode, b64_encode};
use super::primitives::{FileKey, Random, WRAPPED, unwrap, wrap};
use super::{Error, OptionsError};
use crate::ffi;
use crate::secret::{SecretBytes, SecretKey};

const LABEL: &[u8] = b"age-encryption.org/v1/scrypt";
pub(super) const TYPE: &str = "scrypt";

/// The work factor age writes: N = 2^18 (256 MiB, about a second).
pub const DEFAULT_WORK_FACTOR: u8 = 18;

/// The most scrypt work any reader here accepts, as log2 of N: 2^22
/// (4 GiB of memory). age's own, the same ceiling as the `stream`
/// format's, kept apart so that neither format imports the other.
pub(super) const MAX_WORK_FACTOR: u8 = 22;

/// A passphrase to encrypt to (an `scrypt` stanza, which must be a file's
/// only one): wiped on drop, redacted in `Debug`.
#[derive(Clone)]
pub struct Passphrase {
    passphrase: SecretBytes,
    log2_n: u8,
}

impl fmt::Debug for Passphrase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Passphrase(redacted, work factor {})", self.log2_n)
    }
}

fn scrypt_key(passphrase: &[u8], salt: &[u8; 16], log2_n: u8) -> Result<SecretKey<32>, Error> {
    let salt = [LABEL, &salt[..]].concat();
    SecretKey::generate(|out| {
        ffi::scrypt(passphrase, &salt, log2_n, 8, 1, out)
            .then_some(())
            .ok_or(Error::Options(OptionsError::ScryptRefused { log2_n }))
    })
}

impl Passphrase {
    /// `passphrase` with age's work factor ([`DEFAULT_WORK_FACTOR`]).
    ///
    /// # Errors
    /// [`Error::Options`] for an empty passphrase.
    pub fn new(passphrase: SecretBytes) -> Result<Self, Error> {
        Self::with_work_factor(passphrase, DEFAULT_WORK_FACTOR)
    }

    /// `passphrase` with scrypt N = 2^`log2_n` (1 to 22: 4 GiB of memory
    /// at 22, the most any reader here accepts).
    ///
    /// # Errors
    /// [`Error::Options`] for an empty passphrase or a work factor outside 1..=22.
    pub fn with_work_factor(passphrase: SecretBytes, log2_n: u8) -> Result<Self, Error> {
        if passphrase.is_empty() {
            return Err(OptionsError::EmptyPassphrase.into());
        }
        if !(1..=MAX_WORK_FACTOR).contains(&log2_n) {
            return Err(OptionsError::WorkFactorRange {
                log2_n,
                max: MAX_WORK_FACTOR,
            }
            .into());
        }
        Ok(Passphrase { passphrase, log2_n })
    }

    /// log2 of scrypt's N.
    pub fn work_factor(&self) -> u8 {
        self.log2_n
    }

    pub(super) fn wrap(&self, file_key: &FileKey, random: Random<'_>) -> Result<Stanza, Error> {
        let mut salt = [0u8; 16];
        random(&mut salt);
        let key = scrypt_key(self.passphrase.expose(), &salt, self.log2_n)?;
        Ok(Stanza {
            kind: TYPE.into(),
            args: vec![b64_encode(&salt), self.log2_n.to_string()],
            body: wrap(&key, file_key),
        })
    }
}

/// The file key if `stanza` is an scrypt stanza `passphrase` opens;
/// `Ok(None)` for another stanza or a wrong passphrase; an error for a
/// malformed stanza or a work factor above `max` (checked before any work).
pub(super) fn unwrap_passphrase(
    passphrase: &SecretBytes,
    stanza: &Stanza,
    max: u8,
) -> Result<Option<FileKey>, Error> {
    if stanza.kind != TYPE {
        return Ok(None);
    }
    let bad = |why: &str| Error::MalformedHeader(format!("invalid scrypt stanza: {why}"));
    let [salt, log2_n] = &stanza.args[..] else {
        return Err(bad("it must have exactly two arguments"));
    };
    let salt = b64_decode(salt)
        .and_then(|s| <[u8; 16]>::try_from(s).ok())
        .ok_or_else(|| bad("the salt is not canonical base64 of 16 bytes"))?;
    let digits = log2_n.as_bytes();
    if digits.first().is_none_or(|&d| d == b'0') || !digits.iter().all(u8::is_ascii_digit) {
        return Err(bad(
            "the work factor is not a decimal number without leading zeros",
        ));
    }
    let log2_n: u8 = match log2_n.parse::<u64>() {
        Ok(n) if n <= u64::from(max) => n as u8,
        Ok(n) => {
            return Err(Error::WorkFactor {
                log2_n: n.min(255) as u8,
                max,
            });
        }
        Err(_) => return Err(bad("the work factor overflows")),
    };
    if stanza.body.len() != WRAPPED {
        return Err(bad("the body is not a wrapped 16-byte file key"));
    }
    let key = scrypt_key(passphrase.expose(), &salt, log2_n)?;
    Ok(unwrap(&key, &stanza.body))
}
