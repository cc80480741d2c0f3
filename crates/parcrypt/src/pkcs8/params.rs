//! The PBES2 parameters ([`Cipher`], [`Prf`], [`Kdf`], [`Options`]), their
//! names and limits, and the strict parse of an `EncryptedPrivateKeyInfo`'s
//! DER into them.

use std::fmt;
use std::str::FromStr;

use aws_lc_rs::cipher::{AES_128, AES_192, AES_256};

use super::der::{self, OCTET_STRING, OID, Reader};
use super::{
    DEFAULT_ITERATIONS, Error, MAX_ENCRYPTED, MAX_ITERATIONS, MAX_SCRYPT_MEMORY, MAX_SCRYPT_WORK, malformed,
};
use crate::UnknownName;
use crate::ffi;

/// The cipher that encrypts the key.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Cipher {
    /// AES-128-CBC.
    Aes128Cbc,
    /// AES-192-CBC.
    Aes192Cbc,
    /// AES-256-CBC, the default.
    #[default]
    Aes256Cbc,
}

impl Cipher {
    /// Every cipher.
    pub const ALL: [Cipher; 3] = [Cipher::Aes128Cbc, Cipher::Aes192Cbc, Cipher::Aes256Cbc];

    /// OpenSSL's name: `aes-128-cbc`, `aes-192-cbc`, `aes-256-cbc`.
    pub const fn name(self) -> &'static str {
        match self {
            Cipher::Aes128Cbc => "aes-128-cbc",
            Cipher::Aes192Cbc => "aes-192-cbc",
            Cipher::Aes256Cbc => "aes-256-cbc",
        }
    }

    /// The key length in bytes.
    pub const fn key_len(self) -> usize {
        match self {
            Cipher::Aes128Cbc => 16,
            Cipher::Aes192Cbc => 24,
            Cipher::Aes256Cbc => 32,
        }
    }

    /// The OID's contents (2.16.840.1.101.3.4.1.2 / .22 / .42).
    pub(super) const fn oid(self) -> &'static [u8] {
        match self {
            Cipher::Aes128Cbc => &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x01, 0x02],
            Cipher::Aes192Cbc => &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x01, 0x16],
            Cipher::Aes256Cbc => &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x01, 0x2a],
        }
    }

    pub(super) fn algorithm(self) -> &'static aws_lc_rs::cipher::Algorithm {
        match self {
            Cipher::Aes128Cbc => &AES_128,
            Cipher::Aes192Cbc => &AES_192,
            Cipher::Aes256Cbc => &AES_256,
        }
    }
}

impl fmt::Display for Cipher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Cipher {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Cipher::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| UnknownName::new("key cipher", s, "aes-128-cbc, aes-192-cbc or aes-256-cbc"))
    }
}

/// PBKDF2's pseudo-random function.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Prf {
    /// HMAC-SHA1: RFC 8018's default, what a file naming none means.
    HmacSha1,
    /// HMAC-SHA224.
    HmacSha224,
    /// HMAC-SHA256, OpenSSL 3's choice and the default.
    #[default]
    HmacSha256,
    /// HMAC-SHA384.
    HmacSha384,
    /// HMAC-SHA512.
    HmacSha512,
}

impl Prf {
    /// Every PRF.
    pub const ALL: [Prf; 5] = [
        Prf::HmacSha1,
        Prf::HmacSha224,
        Prf::HmacSha256,
        Prf::HmacSha384,
        Prf::HmacSha512,
    ];

    /// The name OpenSSL's `-v2prf` takes: `hmacWithSHA1` … `hmacWithSHA512`.
    pub const fn name(self) -> &'static str {
        match self {
            Prf::HmacSha1 => "hmacWithSHA1",
            Prf::HmacSha224 => "hmacWithSHA224",
            Prf::HmacSha256 => "hmacWithSHA256",
            Prf::HmacSha384 => "hmacWithSHA384",
            Prf::HmacSha512 => "hmacWithSHA512",
        }
    }

    /// The OID's contents (1.2.840.113549.2.7 … .11).
    pub(super) fn oid(self) -> [u8; 8] {
        let last = match self {
            Prf::HmacSha1 => 7,
            Prf::HmacSha224 => 8,
            Prf::HmacSha256 => 9,
            Prf::HmacSha384 => 10,
            Prf::HmacSha512 => 11,
        };
        [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x02, last]
    }

    pub(super) fn md(self) -> ffi::Md {
        match self {
            Prf::HmacSha1 => ffi::Md::Sha1,
            Prf::HmacSha224 => ffi::Md::Sha224,
            Prf::HmacSha256 => ffi::Md::Sha256,
            Prf::HmacSha384 => ffi::Md::Sha384,
            Prf::HmacSha512 => ffi::Md::Sha512,
        }
    }
}

impl fmt::Display for Prf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Prf {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Prf::ALL.into_iter().find(|p| p.name() == s).ok_or_else(|| {
            UnknownName::new(
                "PBKDF2 PRF",
                s,
                "hmacWithSHA1, hmacWithSHA224, hmacWithSHA256, hmacWithSHA384 or hmacWithSHA512",
            )
        })
    }
}

/// How the key-encryption key is derived from the password.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kdf {
    /// PBKDF2 (RFC 8018).
    Pbkdf2 {
        /// The PRF.
        prf: Prf,
        /// The iteration count, 1 to [`MAX_ITERATIONS`].
        iterations: u32,
    },
    /// scrypt (RFC 7914).
    Scrypt {
        /// log2 of the cost N.
        log2_n: u8,
        /// The block size r.
        r: u32,
        /// The parallelization p.
        p: u32,
    },
}

impl Kdf {
    /// OpenSSL 3's scrypt parameters (`openssl pkcs8 -topk8 -scrypt`): N = 2^14, r = 8, p = 1.
    pub const SCRYPT_DEFAULT: Kdf = Kdf::Scrypt {
        log2_n: 14,
        r: 8,
        p: 1,
    };

    /// Refuses work above the limits (and zero or impossible values).
    pub(super) fn check(self) -> Result<(), String> {
        match self {
            Kdf::Pbkdf2 { iterations, .. } => {
                if iterations == 0 {
                    return Err("zero PBKDF2 iterations".into());
                }
                if u64::from(iterations) > MAX_ITERATIONS {
                    return Err(format!(
                        "{iterations} PBKDF2 iterations (the limit is {MAX_ITERATIONS})"
                    ));
                }
            }
            Kdf::Scrypt { log2_n, r, p } => {
                if log2_n == 0 || r == 0 || p == 0 {
                    return Err("scrypt N, r and p must be above 1, 0 and 0".into());
                }
                let n = 1u128.checked_shl(u32::from(log2_n)).unwrap_or(u128::MAX);
                let memory = n.saturating_mul(128 * u128::from(r));
                if memory > u128::from(MAX_SCRYPT_MEMORY) {
                    return Err(format!(
                        "{memory} bytes of scrypt memory (N = 2^{log2_n}, r = {r}; the limit is {MAX_SCRYPT_MEMORY})"
                    ));
                }
                let work = n.saturating_mul(u128::from(r)).saturating_mul(u128::from(p));
                if work > u128::from(MAX_SCRYPT_WORK) {
                    return Err(format!(
                        "scrypt work N·r·p = {work} (N = 2^{log2_n}, r = {r}, p = {p}; the limit is {MAX_SCRYPT_WORK})"
                    ));
                }
            }
        }
        Ok(())
    }
}

impl Default for Kdf {
    /// PBKDF2-HMAC-SHA256, [`DEFAULT_ITERATIONS`]: what OpenSSL 3 writes.
    fn default() -> Self {
        Kdf::Pbkdf2 {
            prf: Prf::HmacSha256,
            iterations: DEFAULT_ITERATIONS,
        }
    }
}

/// How a key is encrypted: the cipher and the key derivation. The default
/// is OpenSSL 3's: AES-256-CBC, PBKDF2-HMAC-SHA256, 2048 iterations.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Options {
    /// The cipher.
    pub cipher: Cipher,
    /// The key derivation.
    pub kdf: Kdf,
}

impl Options {
    /// `cipher` with the default key derivation.
    pub fn with_cipher(cipher: Cipher) -> Self {
        Options {
            cipher,
            kdf: Kdf::default(),
        }
    }
}

// OIDs' contents.
/// 1.2.840.113549.1.5.13
pub(super) const PBES2: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x05, 0x0d];
/// 1.2.840.113549.1.5.12
pub(super) const PBKDF2: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x05, 0x0c];
/// 1.3.6.1.4.1.11591.4.11
pub(super) const SCRYPT: &[u8] = &[0x2b, 0x06, 0x01, 0x04, 0x01, 0xda, 0x47, 0x04, 0x0b];
/// The PBES1 schemes start 1.2.840.113549.1.5 (pbeWithMD5AndDES-CBC …);
/// PKCS#12's 1.2.840.113549.1.12.1.
const PBES1_PREFIX: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x05];
const PKCS12_PBE_PREFIX: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x0c, 0x01];

/// An `EncryptedPrivateKeyInfo`, parsed.
pub(super) struct Parsed<'a> {
    pub(super) options: Options,
    pub(super) salt: &'a [u8],
    pub(super) iv: [u8; 16],
    pub(super) ciphertext: &'a [u8],
}

pub(super) fn parse(der: &[u8]) -> Result<Parsed<'_>, Error> {
    let m = |e: der::DerError| malformed(e);
    let mut outer = Reader::new(der);
    let mut info = outer.sequence().map_err(m)?;
    outer.finish().map_err(m)?;
    let mut alg = info.sequence().map_err(m)?;
    let ciphertext = info.read(OCTET_STRING).map_err(m)?;
    info.finish().map_err(m)?;
    let scheme = alg.read(OID).map_err(m)?;
    if scheme != PBES2 {
        if scheme.starts_with(PBES1_PREFIX) || scheme.starts_with(PKCS12_PBE_PREFIX) {
            return Err(Error::Unsupported(
                "a PBES1 or PKCS#12 scheme (DES, 3DES, RC2, RC4); re-encrypt it with \
                 `openssl pkcs8 -topk8 -v2 aes-256-cbc`"
                    .into(),
            ));
        }
        return Err(Error::Unsupported("an encryption scheme other than PBES2".into()));
    }
    let mut params = alg.sequence().map_err(m)?;
    alg.finish().map_err(m)?;
    let mut kdf_alg = params.sequence().map_err(m)?;
    let mut enc_alg = params.sequence().map_err(m)?;
    params.finish().map_err(m)?;

    // The cipher first: PBKDF2's optional key length is checked against it.
    let cipher_oid = enc_alg.read(OID).map_err(m)?;
    let cipher = Cipher::ALL
        .into_iter()
        .find(|c| c.oid() == cipher_oid)
        .ok_or_else(|| {
            Error::Unsupported(
                "a cipher other than AES-128/192/256-CBC; re-encrypt it with \
                 `openssl pkcs8 -topk8 -v2 aes-256-cbc`"
                    .into(),
            )
        })?;
    let iv: [u8; 16] = enc_alg
        .read(OCTET_STRING)
        .map_err(m)?
        .try_into()
        .map_err(|_| malformed("the AES-CBC IV is not 16 bytes"))?;
    enc_alg.finish().map_err(m)?;

    let kdf_oid = kdf_alg.read(OID).map_err(m)?;
    let mut kp = kdf_alg.sequence().map_err(m)?;
    kdf_alg.finish().map_err(m)?;
    let salt = kp
        .read(OCTET_STRING)
        .map_err(|_| Error::Unsupported("a KDF salt that is not an OCTET STRING".into()))?;
    if salt.is_empty() || salt.len() > 1024 {
        return Err(malformed("a KDF salt of 0 or more than 1024 bytes"));
    }
    let check_key_len = |kp: &mut Reader<'_>| -> Result<(), Error> {
        if kp.peek() == Some(der::INTEGER) {
            let len = kp.uint().map_err(m)?;
            if len != cipher.key_len() as u64 {
                return Err(malformed("the KDF's key length does not match the cipher"));
            }
        }
        Ok(())
    };
    let kdf = if kdf_oid == PBKDF2 {
        let iterations = kp.uint().map_err(m)?;
        check_key_len(&mut kp)?;
        let prf = if kp.is_empty() {
            Prf::HmacSha1
        } else {
            let mut prf_alg = kp.sequence().map_err(m)?;
            let oid = prf_alg.read(OID).map_err(m)?;
            if prf_alg.peek() == Some(der::NULL) && !prf_alg.read(der::NULL).map_err(m)?.is_empty() {
                return Err(malformed("a PRF parameter that is not NULL"));
            }
            prf_alg.finish().map_err(m)?;
            Prf::ALL.into_iter().find(|p| p.oid() == oid).ok_or_else(|| {
                Error::Unsupported("a PBKDF2 PRF other than HMAC-SHA1/224/256/384/512".into())
            })?
        };
        kp.finish().map_err(m)?;
        if iterations == 0 {
            return Err(malformed("zero PBKDF2 iterations"));
        }
        if iterations > MAX_ITERATIONS {
            return Err(Error::TooCostly(format!(
                "{iterations} PBKDF2 iterations (at most {MAX_ITERATIONS})"
            )));
        }
        Kdf::Pbkdf2 {
            prf,
            iterations: iterations as u32,
        }
    } else if kdf_oid == SCRYPT {
        let n = kp.uint().map_err(m)?;
        let r = kp.uint().map_err(m)?;
        let p = kp.uint().map_err(m)?;
        check_key_len(&mut kp)?;
        kp.finish().map_err(m)?;
        if n < 2 || !n.is_power_of_two() {
            return Err(malformed("scrypt N is not a power of two above 1"));
        }
        let (Ok(r), Ok(p)) = (u32::try_from(r), u32::try_from(p)) else {
            return Err(Error::TooCostly(format!("scrypt r = {r}, p = {p}")));
        };
        let kdf = Kdf::Scrypt {
            log2_n: n.trailing_zeros() as u8,
            r,
            p,
        };
        kdf.check().map_err(Error::TooCostly)?;
        kdf
    } else {
        return Err(Error::Unsupported("a KDF other than PBKDF2 and scrypt".into()));
    };
    if ciphertext.is_empty() || ciphertext.len() % 16 != 0 {
        return Err(malformed("the encrypted key is not whole AES blocks"));
    }
    if ciphertext.len() > MAX_ENCRYPTED {
        return Err(malformed("the encrypted key is over 1 MiB"));
    }
    Ok(Parsed {
        options: Options { cipher, kdf },
        salt,
        iv,
        ciphertext,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for c in Cipher::ALL {
            assert_eq!(c.name().parse::<Cipher>(), Ok(c));
        }
        for p in Prf::ALL {
            assert_eq!(p.to_string().parse::<Prf>(), Ok(p));
        }
        assert!("aes-256-gcm".parse::<Cipher>().is_err());
    }
}
