//! ☠ Dangerous primitives, for compatibility and study only.
//!
//! Nothing here protects integrity; ECB does not even hide patterns, and RC4
//! is biased. PARC4 is the PARC4 paper's block-parallel RC4 made well-defined.
//! The research paper's bulk RSA ([`rsa_bulk_encrypt`]) cuts a message into
//! independent OAEP blocks that can be dropped or reordered undetected.
//! Each item says what is wrong with it; prefer [`crate::aes`] GCM or the
//! [`crate::stream`] format.
//!
//! `hazmat` sits above [`crate::aes`] and [`crate::rsa`] and builds on them;
//! they never import it (a layering test checks).
//!
//! Each item reports its own family's error, as it would outside hazmat:
//! ECB and unpadded CBC (and the [`Crypter`]s made here) [`aes::Error`],
//! bulk RSA [`rsa::Error`](crate::rsa::Error), RC4 and PARC4 [`Rc4Error`].

mod ecb;
mod parc4;
mod rc4;
mod rsa_bulk;

use crate::aes::{self, Crypter};

pub use ecb::Ecb;
pub use parc4::{
    PARC4_DEFAULT_BLOCK_SIZE, PARC4_DROP, PARC4_INFO, PARC4_KEY_LEN, PARC4_MAX_BLOCK_SIZE, PARC4_NONCE_LEN,
    Parc4,
};
pub use rc4::{RC4_KEY_LEN, Rc4};
pub use rsa_bulk::{rsa_bulk_block_capacity, rsa_bulk_blocks, rsa_bulk_decrypt, rsa_bulk_encrypt};

/// What can go wrong with RC4 and PARC4.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Rc4Error {
    /// The key length is outside the accepted range.
    #[error("key is {0} bytes; RC4 takes 5 to 256 bytes (40 to 2048 bits), PARC4 16 to 256")]
    KeyLength(usize),
    /// The PARC4 nonce length is outside 8–64 bytes.
    #[error("nonce is {0} bytes; PARC4 takes 8 to 64 bytes")]
    NonceLength(usize),
    /// A PARC4 block size of 0 or over [`PARC4_MAX_BLOCK_SIZE`].
    #[error("block size must be 1 byte to 16 MiB")]
    BlockSize,
    /// Reading input or writing output failed (the `io::Error` is the source).
    #[error("I/O error")]
    Io(#[from] std::io::Error),
}

/// Streaming raw AES-ECB encryption with PKCS#7 padding (`openssl enc
/// -aes-*-ecb -e`).
///
/// # Errors
/// [`aes::Error::KeyLength`].
pub fn ecb_encrypter(key: &[u8]) -> Result<Crypter, aes::Error> {
    Ok(Crypter::block_mode(Box::new(Ecb::new(key)?), true, true))
}

/// Streaming raw AES-ECB decryption, PKCS#7 padding checked and removed
/// (`openssl enc -aes-*-ecb -d`).
///
/// # Errors
/// [`aes::Error::KeyLength`].
pub fn ecb_decrypter(key: &[u8]) -> Result<Crypter, aes::Error> {
    Ok(Crypter::block_mode(Box::new(Ecb::new(key)?), false, true))
}

/// Streaming raw AES-ECB encryption without padding (`openssl enc
/// -aes-*-ecb -nopad`): the input must be whole blocks.
///
/// # Errors
/// [`aes::Error::KeyLength`].
pub fn ecb_encrypter_no_padding(key: &[u8]) -> Result<Crypter, aes::Error> {
    Ok(Crypter::block_mode(Box::new(Ecb::new(key)?), true, false))
}

/// Streaming raw AES-ECB decryption without padding (`openssl enc
/// -aes-*-ecb -d -nopad`): the input must be whole blocks, and nothing
/// checks the decrypted result.
///
/// # Errors
/// [`aes::Error::KeyLength`].
pub fn ecb_decrypter_no_padding(key: &[u8]) -> Result<Crypter, aes::Error> {
    Ok(Crypter::block_mode(Box::new(Ecb::new(key)?), false, false))
}

/// Streaming AES-CBC encryption without padding (`openssl enc -aes-*-cbc
/// -nopad`): the input must be whole blocks.
///
/// # Errors
/// [`aes::Error::KeyLength`],
/// [`aes::Error::IvLength`].
pub fn cbc_encrypter_no_padding(key: &[u8], iv: &[u8]) -> Result<Crypter, aes::Error> {
    Crypter::cbc(key, iv, true, false)
}

/// Streaming AES-CBC decryption without padding (`openssl enc -aes-*-cbc
/// -d -nopad`): the input must be whole blocks, and nothing checks the
/// decrypted result.
///
/// # Errors
/// [`aes::Error::KeyLength`],
/// [`aes::Error::IvLength`].
pub fn cbc_decrypter_no_padding(key: &[u8], iv: &[u8]) -> Result<Crypter, aes::Error> {
    Crypter::cbc(key, iv, false, false)
}
