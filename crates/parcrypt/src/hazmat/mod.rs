//! ☠ Dangerous primitives, for compatibility and study only.
//!
//! Nothing here protects integrity, and ECB does not even hide patterns.
//! Each item says what is wrong with it; prefer [`crate::aes`] CBC/CTR (and,
//! once available, authenticated modes).

use crate::aes::{Crypter, Error};

pub use crate::aes::ecb::Ecb;

/// Streaming raw AES-ECB, PKCS#7-padded or not (`openssl enc -aes-*-ecb [-nopad]`).
///
/// # Errors
/// [`Error::KeyLength`].
pub fn ecb_crypter(key: &[u8], encrypt: bool, padded: bool) -> Result<Crypter, Error> {
    Crypter::ecb(key, encrypt, padded)
}

/// Streaming AES-CBC without padding (`openssl enc -aes-*-cbc -nopad`): the
/// input must be whole blocks, and nothing checks the decrypted result.
///
/// # Errors
/// [`Error::KeyLength`], [`Error::IvLength`].
pub fn cbc_crypter_no_padding(key: &[u8], iv: &[u8], encrypt: bool) -> Result<Crypter, Error> {
    Crypter::cbc(key, iv, encrypt, false)
}
