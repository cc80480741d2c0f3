//! C2SP chunked-encryption v1 (<https://c2sp.org/chunked-encryption>) and
//! its named instantiations Cobblestone-128 and Cobblestone-256, byte for
//! byte as pyca/cryptography's `cryptography.cobblestone` writes and reads
//! them, with the chunks sealed and opened on all cores.
//!
//! A message is `salt (24) ‖ commitment (32) ‖ chunks`. From the input key
//! (the AEAD's key length), HKDF-Expand derives
//! `key ‖ base nonce ‖ commitment` with
//! `info = "c2sp.org/chunked-encryption@v1+" ‖ AEAD name ‖ 0x00 ‖ salt ‖ context`;
//! the plaintext is cut into 16 KiB chunks, the final one always shorter
//! (empty after a run of full ones), each sealed with the AEAD under
//! `base nonce XOR chunk number` and no AAD. This implementation allows
//! 2^38 chunks (4 PiB), as pyca does (the spec allows 2^40 and lets
//! implementations go lower).
//!
//! - [`Scheme`]: the generic scheme (KDF hash SHA-256 or SHA-512 × AEAD
//!   AES-128-GCM, AES-256-GCM or ChaCha20-Poly1305), with
//!   [`Scheme::COBBLESTONE_128`] and [`Scheme::COBBLESTONE_256`] (SHA-512 and
//!   AES-GCM).
//! - Encrypting: [`Scheme::sealer`] draws a salt and derives one message's
//!   keys; the [`Sealer`] seals one message (each method consumes it) in
//!   memory, from a reader, from a file, or pushed through an [`Encryptor`].
//! - Decrypting: [`Scheme::decrypt`] (memory), [`Scheme::decrypt_into`] (a
//!   caller's buffer, wiped on failure), [`Scheme::decrypt_stream`],
//!   [`Scheme::decrypt_file`], [`Scheme::decryptor`] (push), and
//!   [`Scheme::decrypt_range`], which opens only the chunks holding a range
//!   and the final chunk (which proves the message's length).
//! - In parts: [`Parts`] seals or opens any run of one message's chunks
//!   from keys derived once, so that several processes or machines each
//!   write their own range of one message at its offset.
//!
//! Every path checks the key commitment before it opens a chunk, and
//! releases nothing of a chunk before it authenticates. The chunks are
//! sealed and opened by the crate's chunk engine (`crate::chunked`, the
//! `stream` format's and age's too), a batch at a time on `par`'s threads:
//! chunk *i*'s nonce depends only on *i*, so every [`Parallelism`] writes
//! the same bytes given the salt.
//!
//! # Examples
//! ```
//! use parcrypt::cobblestone::Scheme;
//! use parcrypt::par::Parallelism;
//!
//! let par = Parallelism::default();
//! let scheme = Scheme::COBBLESTONE_128;
//! let key = scheme.generate_key();
//! let sealed = scheme.sealer(key.expose(), b"my context")?.encrypt(b"hello", &par)?;
//! assert_eq!(sealed.len(), 56 + 5 + 16);
//! let plain = scheme.decrypt(key.expose(), b"my context", &sealed, &par)?;
//! assert_eq!(plain.expose(), b"hello");
//! assert!(scheme.decrypt(key.expose(), b"another context", &sealed, &par).is_err());
//! # Ok::<(), parcrypt::cobblestone::Error>(())
//! ```

mod decrypt;
mod error;
mod parts;
mod sealer;
mod streaming;

use aws_lc_rs::hkdf;

/// Where a message to decrypt a range of is (the one type of every format's `decrypt_range`).
pub use crate::io::{Input, Source};
pub use error::Error;
pub use parts::Parts;
pub use sealer::Sealer;
pub use streaming::{Decryptor, Encryptor};

use crate::UnknownName;
use crate::chunked::{Budget, Chunks, Framing, TAG};
use crate::ffi::AeadKey;
use crate::par::Parallelism;
use crate::secret::{SecretBytes, wipe};

/// Plaintext bytes of a full chunk: 16 KiB.
pub const CHUNK: usize = 16 << 10;
/// A sealed full chunk: 16 KiB and a 16-byte tag.
pub const SEALED_CHUNK: usize = CHUNK + TAG;
/// Salt bytes at the start of a message.
pub const SALT: usize = 24;
/// Key-commitment bytes after the salt.
pub const COMMITMENT: usize = 32;
/// The header: salt and commitment. Chunk *k* starts at byte
/// `HEADER + k × SEALED_CHUNK`.
pub const HEADER: usize = SALT + COMMITMENT;
/// The most chunks a message may have here (the final one included):
/// 2^38, so at most 2^52 − 1 bytes (4 PiB), as pyca/cryptography.
pub const MAX_CHUNKS: u64 = 1 << 38;

/// The HKDF-Expand info prefix.
const INFO_PREFIX: &[u8] = b"c2sp.org/chunked-encryption@v1+";
/// The AEAD nonce length (every AEAD here).
const NONCE: usize = 12;
/// Small chunks are budgeted 64 at a time (1 MiB of plaintext), so a thread's
/// share of a batch is 4 MiB, as for the `stream` format's segments.
const GROUP: usize = 64;

/// The hash HKDF-Expand uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum KdfHash {
    /// SHA-256 (the spec's recommendation, and the C2SP vectors').
    Sha256,
    /// SHA-512 (Cobblestone's).
    Sha512,
}

impl KdfHash {
    /// Its name: `sha256`, `sha512`.
    pub fn name(self) -> &'static str {
        match self {
            KdfHash::Sha256 => "sha256",
            KdfHash::Sha512 => "sha512",
        }
    }

    fn hkdf(self) -> hkdf::Algorithm {
        match self {
            KdfHash::Sha256 => hkdf::HKDF_SHA256,
            KdfHash::Sha512 => hkdf::HKDF_SHA512,
        }
    }
}

impl std::str::FromStr for KdfHash {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, UnknownName> {
        match s.to_ascii_lowercase().replace('-', "").as_str() {
            "sha256" => Ok(KdfHash::Sha256),
            "sha512" => Ok(KdfHash::Sha512),
            _ => Err(UnknownName::new("KDF hash", s, "sha256, sha512")),
        }
    }
}

/// The AEAD that seals the chunks (16-byte tags, 12-byte nonces).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Aead {
    /// `AEAD_AES_128_GCM`, 16-byte keys.
    Aes128Gcm,
    /// `AEAD_AES_256_GCM`, 32-byte keys.
    Aes256Gcm,
    /// `AEAD_CHACHA20_POLY1305`, 32-byte keys.
    ChaCha20Poly1305,
}

impl Aead {
    /// Its name in the IANA AEAD registry, which goes into the key
    /// derivation: `AEAD_AES_128_GCM`, `AEAD_AES_256_GCM`,
    /// `AEAD_CHACHA20_POLY1305`.
    pub fn name(self) -> &'static str {
        match self {
            Aead::Aes128Gcm => "AEAD_AES_128_GCM",
            Aead::Aes256Gcm => "AEAD_AES_256_GCM",
            Aead::ChaCha20Poly1305 => "AEAD_CHACHA20_POLY1305",
        }
    }

    /// Its key length in bytes (the input key's too).
    pub fn key_len(self) -> usize {
        match self {
            Aead::Aes128Gcm => 16,
            Aead::Aes256Gcm | Aead::ChaCha20Poly1305 => 32,
        }
    }

    fn key(self, key: &[u8]) -> AeadKey {
        match self {
            Aead::Aes128Gcm | Aead::Aes256Gcm => AeadKey::new(key).expect("AES-GCM keys are 16 or 32 bytes"),
            Aead::ChaCha20Poly1305 => {
                let mut k = [0u8; 32];
                k.copy_from_slice(key);
                let aead = AeadKey::chacha20_poly1305(&k);
                wipe(&mut k);
                aead
            }
        }
    }
}

impl std::str::FromStr for Aead {
    type Err = UnknownName;
    /// The IANA name (`AEAD_AES_128_GCM`) or a short one (`aes-128-gcm`,
    /// `chacha20-poly1305`), in any case.
    fn from_str(s: &str) -> Result<Self, UnknownName> {
        let norm = s.to_ascii_lowercase().replace(['-', '_'], "");
        match norm.strip_prefix("aead").unwrap_or(&norm) {
            "aes128gcm" => Ok(Aead::Aes128Gcm),
            "aes256gcm" => Ok(Aead::Aes256Gcm),
            "chacha20poly1305" => Ok(Aead::ChaCha20Poly1305),
            _ => Err(UnknownName::new(
                "AEAD",
                s,
                "AEAD_AES_128_GCM, AEAD_AES_256_GCM, AEAD_CHACHA20_POLY1305",
            )),
        }
    }
}

/// A C2SP chunked-encryption scheme: a KDF hash and an AEAD.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Scheme {
    /// The hash of HKDF-Expand.
    pub kdf_hash: KdfHash,
    /// The AEAD of the chunks.
    pub aead: Aead,
}

/// One message's derived keys: wiped when dropped (the AEAD key by AWS-LC).
struct Keys {
    aead: AeadKey,
    base_nonce: [u8; NONCE],
    commitment: [u8; COMMITMENT],
}

impl Drop for Keys {
    fn drop(&mut self) {
        wipe(&mut self.base_nonce);
        wipe(&mut self.commitment);
    }
}

impl Keys {
    fn chunks(&self) -> Chunks<'_> {
        Chunks {
            key: &self.aead,
            size: CHUNK,
            framing: Framing::Xor(self.base_nonce),
            max_chunks: MAX_CHUNKS,
        }
    }
}

/// The budget for `par`: groups of [`GROUP`] chunks.
fn budget(par: &Parallelism) -> Result<Budget, Error> {
    Ok(Budget::grouped(SEALED_CHUNK, GROUP, par.threads().get())?)
}

/// Sealed bytes of a message of `plain` bytes: the header, the plaintext
/// and a tag per chunk (`plain / 16 KiB + 1` chunks); `None` past the
/// 2^38-chunk limit.
pub fn sealed_len(plain: u64) -> Option<u64> {
    let chunks = plain / CHUNK as u64 + 1;
    if chunks > MAX_CHUNKS {
        return None;
    }
    Some(HEADER as u64 + plain + chunks * TAG as u64)
}

/// The plaintext length of a message of `sealed` bytes, if that length is
/// one a message can have (it is authenticated only by opening the final
/// chunk).
///
/// # Errors
/// [`Error::TooShort`], [`Error::Truncated`] (it would end with a full
/// chunk), [`Error::ChunkAuthentication`] (a final chunk shorter than its
/// tag), [`Error::TooLarge`].
pub fn plain_len(sealed: u64) -> Result<u64, Error> {
    let body = sealed
        .checked_sub(HEADER as u64)
        .ok_or(Error::TooShort { len: sealed })?;
    Ok(layout(body)?.plain)
}

/// Where a message's chunks are, from its body's length.
#[derive(Clone, Copy, Debug)]
struct Layout {
    /// Sealed bytes after the header.
    body: u64,
    /// Plaintext bytes.
    plain: u64,
}

/// The layout of `body` sealed bytes, refused if no message has it.
fn layout(body: u64) -> Result<Layout, Error> {
    let enc = SEALED_CHUNK as u64;
    if body == 0 {
        return Err(Error::Truncated { chunk: None });
    }
    let chunks = body.div_ceil(enc);
    if body % enc == 0 {
        return Err(Error::Truncated {
            chunk: Some(chunks - 1),
        });
    }
    if body % enc < TAG as u64 {
        return Err(Error::ChunkAuthentication { chunk: chunks - 1 });
    }
    if chunks > MAX_CHUNKS {
        return Err(Error::TooLarge);
    }
    Ok(Layout {
        body,
        plain: body - chunks * TAG as u64,
    })
}

impl Scheme {
    /// Cobblestone-128: HKDF-Expand-SHA-512 and AES-128-GCM, 16-byte keys
    /// (`cryptography.cobblestone.Cobblestone128…`).
    pub const COBBLESTONE_128: Scheme = Scheme::new(KdfHash::Sha512, Aead::Aes128Gcm);

    /// Cobblestone-256: HKDF-Expand-SHA-512 and AES-256-GCM, 32-byte keys
    /// (`cryptography.cobblestone.Cobblestone256…`).
    pub const COBBLESTONE_256: Scheme = Scheme::new(KdfHash::Sha512, Aead::Aes256Gcm);

    /// The scheme with `kdf_hash` and `aead`.
    pub const fn new(kdf_hash: KdfHash, aead: Aead) -> Scheme {
        Scheme { kdf_hash, aead }
    }

    /// The input key's length: the AEAD's.
    pub fn key_len(self) -> usize {
        self.aead.key_len()
    }

    /// A new random input key of [`Scheme::key_len`] bytes, from the
    /// operating system's generator.
    ///
    /// # Panics
    /// If the operating system has no random numbers to give.
    pub fn generate_key(self) -> SecretBytes {
        let mut key = SecretBytes::zeroed(self.key_len());
        getrandom::fill(key.expose_mut()).expect("the operating system's random number generator");
        key
    }

    fn check_key(self, key: &[u8]) -> Result<(), Error> {
        if key.len() == self.key_len() {
            Ok(())
        } else {
            Err(Error::KeyLength {
                expected: self.key_len(),
                got: key.len(),
                aead: self.aead.name(),
            })
        }
    }

    /// HKDF-Expand(prk = key, info = prefix ‖ aead ‖ 0 ‖ salt ‖ context).
    fn derive(self, key: &[u8], salt: &[u8; SALT], context: &[u8]) -> Result<Keys, Error> {
        self.check_key(key)?;
        let key_len = self.key_len();
        let mut okm = [0u8; 32 + NONCE + COMMITMENT];
        let okm = &mut okm[..key_len + NONCE + COMMITMENT];
        let prk = hkdf::Prk::new_less_safe(self.kdf_hash.hkdf(), key);
        let info: [&[u8]; 5] = [INFO_PREFIX, self.aead.name().as_bytes(), &[0], salt, context];
        prk.expand(&info, OkmLen(okm.len()))
            .and_then(|out| out.fill(okm))
            .expect("HKDF-Expand of at most 76 bytes");
        let mut base_nonce = [0u8; NONCE];
        base_nonce.copy_from_slice(&okm[key_len..key_len + NONCE]);
        let mut commitment = [0u8; COMMITMENT];
        commitment.copy_from_slice(&okm[key_len + NONCE..]);
        let aead = self.aead.key(&okm[..key_len]);
        wipe(okm);
        Ok(Keys {
            aead,
            base_nonce,
            commitment,
        })
    }

    /// The keys of the message whose header is `header`, its commitment
    /// checked (in constant time) before anything else happens.
    fn open_header(self, key: &[u8], context: &[u8], header: &[u8; HEADER]) -> Result<Keys, Error> {
        let (salt, commitment) = header.split_at(SALT);
        let salt: &[u8; SALT] = salt.try_into().expect("24 bytes");
        let keys = self.derive(key, salt, context)?;
        if aws_lc_rs::constant_time::verify_slices_are_equal(&keys.commitment, commitment).is_err() {
            return Err(Error::Commitment);
        }
        Ok(keys)
    }

    /// The sealer of one new message under `key` and `context`, with a
    /// fresh random salt (from the operating system).
    ///
    /// # Errors
    /// [`Error::KeyLength`] unless `key` is [`Scheme::key_len`] bytes.
    pub fn sealer(self, key: &[u8], context: &[u8]) -> Result<Sealer, Error> {
        let mut salt = [0u8; SALT];
        getrandom::fill(&mut salt).expect("the operating system's random number generator");
        self.sealer_with_salt(key, &salt, context)
    }

    /// The sealer of one message with a salt of the caller's: for tests and
    /// for splitting one message across machines. A salt must never repeat
    /// under one key (two messages under the same key, salt and context
    /// reuse every nonce); [`Scheme::sealer`] draws one.
    ///
    /// # Errors
    /// [`Error::KeyLength`] unless `key` is [`Scheme::key_len`] bytes.
    pub fn sealer_with_salt(self, key: &[u8], salt: &[u8; SALT], context: &[u8]) -> Result<Sealer, Error> {
        let keys = self.derive(key, salt, context)?;
        let mut header = [0u8; HEADER];
        header[..SALT].copy_from_slice(salt);
        header[SALT..].copy_from_slice(&keys.commitment);
        Ok(Sealer { keys, header })
    }
}

/// HKDF output of a given length.
struct OkmLen(usize);

impl hkdf::KeyType for OkmLen {
    fn len(&self) -> usize {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_follow_the_spec() {
        assert_eq!(sealed_len(0), Some(72));
        assert_eq!(sealed_len(16383), Some(56 + 16383 + 16));
        assert_eq!(sealed_len(16384), Some(56 + 16384 + 32));
        // The limit: 2^38 chunks, the last short.
        let max = (MAX_CHUNKS - 1) * CHUNK as u64 + (CHUNK as u64 - 1);
        assert_eq!(sealed_len(max), Some(56 + max + MAX_CHUNKS * 16));
        assert_eq!(sealed_len(max + 1), None);
        assert_eq!(plain_len(72).ok(), Some(0));
        assert!(matches!(plain_len(55), Err(Error::TooShort { len: 55 })));
        assert!(matches!(plain_len(56), Err(Error::Truncated { chunk: None })));
        assert!(matches!(
            plain_len(56 + 16400),
            Err(Error::Truncated { chunk: Some(0) })
        ));
        assert!(matches!(
            plain_len(56 + 16400 + 15),
            Err(Error::ChunkAuthentication { chunk: 1 })
        ));
        assert_eq!(plain_len(56 + 16400 + 16).ok(), Some(16384));
        let too_many = 56 + MAX_CHUNKS * SEALED_CHUNK as u64 + 16;
        assert!(matches!(plain_len(too_many), Err(Error::TooLarge)));
        assert_eq!(plain_len(sealed_len(max).unwrap()).ok(), Some(max));
    }

    #[test]
    fn names_parse() {
        assert_eq!("AEAD_AES_128_GCM".parse::<Aead>(), Ok(Aead::Aes128Gcm));
        assert_eq!("aes-256-gcm".parse::<Aead>(), Ok(Aead::Aes256Gcm));
        assert_eq!("chacha20-poly1305".parse::<Aead>(), Ok(Aead::ChaCha20Poly1305));
        assert!("aes-192-gcm".parse::<Aead>().is_err());
        assert_eq!("SHA-512".parse::<KdfHash>(), Ok(KdfHash::Sha512));
        for a in [Aead::Aes128Gcm, Aead::Aes256Gcm, Aead::ChaCha20Poly1305] {
            assert_eq!(a.name().parse::<Aead>(), Ok(a));
        }
    }
}
