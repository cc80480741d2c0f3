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
        /// The iteration count, 1 to [`MAX_ITERATIONS`] (to read more, see [`KdfLimits`]).
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

    /// Refuses what RFC 8018/7914 or the backend cannot compute: zero
    /// iterations; scrypt N below 2, r or p zero, p·r of 2^30 or more, N of
    /// 2^(16·r) or more. Named in a [`Error::Malformed`].
    pub(super) fn check_valid(self) -> Result<(), Error> {
        match self {
            Kdf::Pbkdf2 { iterations, .. } => {
                if iterations == 0 {
                    return Err(malformed("zero PBKDF2 iterations"));
                }
            }
            Kdf::Scrypt { log2_n, r, p } => {
                if log2_n == 0 || r == 0 || p == 0 {
                    return Err(Error::Malformed(format!(
                        "scrypt N = 2^{log2_n}, r = {r}, p = {p}: N must be above 1, r and p above 0"
                    )));
                }
                // RFC 7914: p ≤ (2^32 − 1)·32 / (128·r), i.e. p·r < 2^30
                // (AWS-LC's SCRYPT_PR_MAX); N < 2^(128·r/8).
                if u64::from(p) * u64::from(r) >= 1 << 30 {
                    return Err(Error::Malformed(format!(
                        "scrypt p·r = {} (p = {p}, r = {r}) is not below 2^30 (RFC 7914)",
                        u64::from(p) * u64::from(r)
                    )));
                }
                if u64::from(r) * 16 <= u64::from(log2_n) {
                    return Err(Error::Malformed(format!(
                        "scrypt N = 2^{log2_n} is not below 2^(16·r) = 2^{} (RFC 7914)",
                        u64::from(r) * 16
                    )));
                }
            }
        }
        Ok(())
    }

    /// The bytes of memory scrypt needs, counted as OpenSSL 3 counts them
    /// against its 32 MiB default (`EVP_PBE_scrypt_ex`): the V array and
    /// two blocks of scratch, 128·r·(N + 2), and the p lanes, 128·r·p.
    /// `None` for PBKDF2.
    pub fn scrypt_memory(self) -> Option<u128> {
        match self {
            Kdf::Pbkdf2 { .. } => None,
            Kdf::Scrypt { log2_n, r, p } => {
                let n = 1u128.checked_shl(u32::from(log2_n)).unwrap_or(u128::MAX);
                Some(
                    (128 * u128::from(r))
                        .saturating_mul(n.saturating_add(2))
                        .saturating_add(128 * u128::from(r) * u128::from(p)),
                )
            }
        }
    }

    /// Refuses work above `limits` (after [`Self::check_valid`]), naming the
    /// parameter and the limit in a [`Error::TooCostly`].
    pub(super) fn check_cost(self, limits: &KdfLimits) -> Result<(), Error> {
        match self {
            Kdf::Pbkdf2 { iterations, .. } => {
                if u64::from(iterations) > limits.max_iterations {
                    return Err(Error::TooCostly(format!(
                        "{iterations} PBKDF2 iterations (the limit is {})",
                        limits.max_iterations
                    )));
                }
            }
            Kdf::Scrypt { log2_n, r, p } => {
                let memory = self.scrypt_memory().unwrap_or(u128::MAX);
                if memory > u128::from(limits.max_scrypt_memory) {
                    return Err(Error::TooCostly(format!(
                        "{memory} bytes of scrypt memory (N = 2^{log2_n}, r = {r}, p = {p}: \
                         128·r·(N + 2 + p); the limit is {} bytes)",
                        limits.max_scrypt_memory
                    )));
                }
                let n = 1u128.checked_shl(u32::from(log2_n)).unwrap_or(u128::MAX);
                let work = n.saturating_mul(u128::from(r)).saturating_mul(u128::from(p));
                if work > u128::from(limits.max_scrypt_work) {
                    return Err(Error::TooCostly(format!(
                        "scrypt work N·r·p = {work} (N = 2^{log2_n}, r = {r}, p = {p}; the limit is {})",
                        limits.max_scrypt_work
                    )));
                }
            }
        }
        Ok(())
    }
}

/// How much key-derivation work reading an encrypted key may ask for,
/// checked before any of it runs: a wrong password pays all of it, and
/// anyone can write a key file that asks for minutes of CPU and gigabytes
/// of memory.
///
/// [`KdfLimits::DEFAULT`] is no looser than OpenSSL 3's own defaults
/// (scrypt's 32 MiB, counted as OpenSSL counts it) and bounds the time to
/// about a second on one core; [`KdfLimits::COSTLY`] is the one wider
/// setting, for a file that needs it (the CLI's `--allow-costly-kdf`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KdfLimits {
    /// The most PBKDF2 iterations.
    pub max_iterations: u64,
    /// The most scrypt memory in bytes, as [`Kdf::scrypt_memory`] counts it.
    pub max_scrypt_memory: u64,
    /// The most scrypt work N·r·p (its time).
    pub max_scrypt_work: u64,
}

impl KdfLimits {
    /// [`MAX_ITERATIONS`], [`MAX_SCRYPT_MEMORY`], [`MAX_SCRYPT_WORK`]:
    /// what every reader here allows unless told otherwise, and what every
    /// key written here keeps to.
    pub const DEFAULT: KdfLimits = KdfLimits {
        max_iterations: MAX_ITERATIONS,
        max_scrypt_memory: MAX_SCRYPT_MEMORY,
        max_scrypt_work: MAX_SCRYPT_WORK,
    };

    /// The wider limits a caller may choose for a file that needs them:
    /// 10 000 000 PBKDF2 iterations (about 5 s of HMAC-SHA256, 10 s of
    /// HMAC-SHA512), 1 GiB of scrypt memory and N·r·p up to 2^27 (about
    /// 40 s on one core).
    pub const COSTLY: KdfLimits = KdfLimits {
        max_iterations: 10_000_000,
        max_scrypt_memory: 1 << 30,
        max_scrypt_work: 1 << 27,
    };
}

impl Default for KdfLimits {
    /// [`KdfLimits::DEFAULT`].
    fn default() -> Self {
        KdfLimits::DEFAULT
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
        // More than 2^32 − 1 is above every limit (and AWS-LC's `unsigned`).
        let iterations = u32::try_from(iterations)
            .map_err(|_| Error::TooCostly(format!("{iterations} PBKDF2 iterations")))?;
        let kdf = Kdf::Pbkdf2 { prf, iterations };
        kdf.check_valid()?;
        kdf
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
            return Err(Error::Malformed(format!(
                "scrypt r = {r}, p = {p}: p·r is not below 2^30 (RFC 7914)"
            )));
        };
        let kdf = Kdf::Scrypt {
            log2_n: n.trailing_zeros() as u8,
            r,
            p,
        };
        kdf.check_valid()?;
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
