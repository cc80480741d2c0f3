//! `openssl enc`'s password-based keys: the key and IV it derives from a
//! password and an 8-byte salt, and the `Salted__` header it writes the salt
//! in. The derivations are AWS-LC's (`PKCS5_PBKDF2_HMAC`, `EVP_BytesToKey`);
//! they are serial by nature (each PBKDF2 iteration needs the previous one),
//! and run once per message, before the parallel cipher work.

use std::fmt;
use std::str::FromStr;

use super::{BLOCK, Error};
use crate::UnknownName;
use crate::ffi;
use crate::secret::SecretBytes;

/// The 8 bytes `openssl enc` writes before the salt: a salted file starts
/// with `Salted__`, then the [`SALT_LEN`]-byte salt, then the ciphertext.
pub const SALT_MAGIC: [u8; 8] = *b"Salted__";

/// The salt's length in the `Salted__` header (OpenSSL's `PKCS5_SALT_LEN`).
pub const SALT_LEN: usize = 8;

/// `openssl enc -pbkdf2`'s iteration count when `-iter` is not given.
pub const PBKDF2_DEFAULT_ITERATIONS: u32 = 10_000;

/// The largest iteration count accepted: `openssl enc -iter` takes a C
/// `int`, so 2^31 − 1.
pub const MAX_ITERATIONS: u32 = i32::MAX as u32;

/// The digest of a password derivation (`openssl enc -md`; its default is
/// [`KdfDigest::Sha256`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum KdfDigest {
    /// MD5: OpenSSL's default before 1.1.0, for reading old files.
    Md5,
    /// SHA-1.
    Sha1,
    /// SHA-224.
    Sha224,
    /// SHA-256, `openssl enc`'s default since 1.1.0.
    #[default]
    Sha256,
    /// SHA-384.
    Sha384,
    /// SHA-512.
    Sha512,
}

impl KdfDigest {
    /// Every digest, in the order of [`KdfDigest::name`]'s documentation.
    pub const ALL: [KdfDigest; 6] = [
        KdfDigest::Md5,
        KdfDigest::Sha1,
        KdfDigest::Sha224,
        KdfDigest::Sha256,
        KdfDigest::Sha384,
        KdfDigest::Sha512,
    ];

    /// The name OpenSSL gives it: `md5`, `sha1`, `sha224`, `sha256`,
    /// `sha384`, `sha512`.
    pub const fn name(self) -> &'static str {
        match self {
            KdfDigest::Md5 => "md5",
            KdfDigest::Sha1 => "sha1",
            KdfDigest::Sha224 => "sha224",
            KdfDigest::Sha256 => "sha256",
            KdfDigest::Sha384 => "sha384",
            KdfDigest::Sha512 => "sha512",
        }
    }

    fn ffi(self) -> ffi::Md {
        match self {
            KdfDigest::Md5 => ffi::Md::Md5,
            KdfDigest::Sha1 => ffi::Md::Sha1,
            KdfDigest::Sha224 => ffi::Md::Sha224,
            KdfDigest::Sha256 => ffi::Md::Sha256,
            KdfDigest::Sha384 => ffi::Md::Sha384,
            KdfDigest::Sha512 => ffi::Md::Sha512,
        }
    }
}

impl fmt::Display for KdfDigest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for KdfDigest {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        KdfDigest::ALL
            .into_iter()
            .find(|d| d.name() == s)
            .ok_or_else(|| UnknownName::new("KDF digest", s, "md5, sha1, sha224, sha256, sha384 or sha512"))
    }
}

/// How `openssl enc` turns a password and salt into a key and IV.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PasswordKdf {
    /// PBKDF2-HMAC (`-pbkdf2`, `-iter N`): key ‖ IV are the first bytes of
    /// its output. 1 to [`MAX_ITERATIONS`] iterations.
    Pbkdf2 {
        /// The iteration count ([`PBKDF2_DEFAULT_ITERATIONS`] is openssl's default).
        iterations: u32,
    },
    /// OpenSSL's legacy `EVP_BytesToKey` with one round (what `openssl enc`
    /// does without `-pbkdf2`, with a deprecation warning): one hash per
    /// 16 to 64 bytes of key and IV, so a password is cheap to guess. For
    /// reading old files.
    BytesToKey,
}

/// A key and IV derived from a password as `openssl enc` derives them.
/// Wiped on drop; `Debug` shows only the lengths.
///
/// # Examples
/// ```
/// use parcrypt::aes::{KdfDigest, PasswordKdf, PasswordKey};
///
/// // openssl enc -aes-256-cbc -pbkdf2 -iter 1 -md sha256 -pass pass:password -S 0102030405060708 -P
/// let salt = [1, 2, 3, 4, 5, 6, 7, 8];
/// let kdf = PasswordKdf::Pbkdf2 { iterations: 1 };
/// let derived = PasswordKey::derive(b"password", Some(&salt), kdf, KdfDigest::Sha256, 32, 16)?;
/// assert_eq!((derived.key().len(), derived.iv().len()), (32, 16));
/// # Ok::<(), parcrypt::aes::Error>(())
/// ```
pub struct PasswordKey {
    /// key ‖ IV.
    bytes: SecretBytes,
    key_len: usize,
}

impl PasswordKey {
    /// Derives a `key_len`-byte key (16, 24 or 32) and an `iv_len`-byte IV
    /// (16, or 0 for ECB) from `password` and `salt` (`None`: `-nosalt`),
    /// byte-identical to `openssl enc`. Serial: with PBKDF2 this takes time
    /// in proportion to the iterations (600 000 HMAC-SHA-256 iterations
    /// take a few tenths of a second).
    ///
    /// `openssl` passes the password as a C string: callers mimicking it
    /// cut it at a NUL byte first.
    ///
    /// # Errors
    /// [`Error::KeyLength`], [`Error::IvLength`], [`Error::Iterations`]
    /// (0 or more than [`MAX_ITERATIONS`]).
    pub fn derive(
        password: &[u8],
        salt: Option<&[u8; SALT_LEN]>,
        kdf: PasswordKdf,
        digest: KdfDigest,
        key_len: usize,
        iv_len: usize,
    ) -> Result<Self, Error> {
        if !matches!(key_len, 16 | 24 | 32) {
            return Err(Error::KeyLength(key_len));
        }
        if iv_len != 0 && iv_len != BLOCK {
            return Err(Error::IvLength(iv_len));
        }
        let mut bytes = SecretBytes::zeroed(key_len + iv_len);
        let ok = match kdf {
            PasswordKdf::Pbkdf2 { iterations } => {
                if !(1..=MAX_ITERATIONS).contains(&iterations) {
                    return Err(Error::Iterations(iterations));
                }
                let salt: &[u8] = salt.map_or(&[], |s| &s[..]);
                ffi::pbkdf2_hmac(digest.ffi(), password, salt, iterations, bytes.expose_mut())
            }
            PasswordKdf::BytesToKey => {
                let (key, iv) = bytes.expose_mut().split_at_mut(key_len);
                ffi::bytes_to_key(digest.ffi(), password, salt, key, iv)
            }
        };
        if !ok {
            // Every parameter AWS-LC checks was checked above.
            return Err(Error::Iterations(0));
        }
        Ok(PasswordKey { bytes, key_len })
    }

    /// The key (16, 24 or 32 bytes).
    pub fn key(&self) -> &[u8] {
        &self.bytes.expose()[..self.key_len]
    }

    /// The IV (16 bytes, or none for ECB).
    pub fn iv(&self) -> &[u8] {
        &self.bytes.expose()[self.key_len..]
    }
}

impl fmt::Debug for PasswordKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PasswordKey")
            .field("key_len", &self.key_len)
            .field("iv_len", &(self.bytes.len() - self.key_len))
            .finish_non_exhaustive()
    }
}

/// The salt of a `Salted__` header (the first 16 bytes of a salted `openssl
/// enc` file), or `None` if `header` does not start with [`SALT_MAGIC`].
pub fn salt_from_header(header: &[u8; 16]) -> Option<[u8; SALT_LEN]> {
    let (magic, salt) = header.split_at(SALT_MAGIC.len());
    (magic == SALT_MAGIC).then(|| {
        let mut s = [0u8; SALT_LEN];
        s.copy_from_slice(salt);
        s
    })
}

/// The 16-byte `Salted__` header carrying `salt`.
pub fn salt_header(salt: &[u8; SALT_LEN]) -> [u8; 16] {
    let mut h = [0u8; 16];
    h[..8].copy_from_slice(&SALT_MAGIC);
    h[8..].copy_from_slice(salt);
    h
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn parameters_are_checked() {
        let pbkdf2 = |iterations| PasswordKdf::Pbkdf2 { iterations };
        let d = KdfDigest::Sha256;
        assert!(matches!(
            PasswordKey::derive(b"pw", None, pbkdf2(0), d, 32, 16),
            Err(Error::Iterations(0))
        ));
        assert!(matches!(
            PasswordKey::derive(b"pw", None, pbkdf2(MAX_ITERATIONS + 1), d, 32, 16),
            Err(Error::Iterations(_))
        ));
        assert!(matches!(
            PasswordKey::derive(b"pw", None, pbkdf2(1), d, 20, 16),
            Err(Error::KeyLength(20))
        ));
        assert!(matches!(
            PasswordKey::derive(b"pw", None, PasswordKdf::BytesToKey, d, 16, 12),
            Err(Error::IvLength(12))
        ));
        let key = PasswordKey::derive(b"pw", None, pbkdf2(1), d, 16, 0).unwrap();
        assert_eq!(format!("{key:?}"), "PasswordKey { key_len: 16, iv_len: 0, .. }");
    }

    #[test]
    fn header_round_trip() {
        let salt = [9, 8, 7, 6, 5, 4, 3, 2];
        let h = salt_header(&salt);
        assert_eq!(&h[..8], b"Salted__");
        assert_eq!(salt_from_header(&h), Some(salt));
        let mut bad = h;
        bad[0] = b's';
        assert_eq!(salt_from_header(&bad), None);
    }

    #[test]
    fn digest_names_round_trip() {
        for d in KdfDigest::ALL {
            assert_eq!(d.name().parse::<KdfDigest>(), Ok(d));
        }
        assert_eq!(KdfDigest::default(), KdfDigest::Sha256);
    }
}
