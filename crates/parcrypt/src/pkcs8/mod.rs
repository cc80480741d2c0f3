//! Password-protected private keys: PKCS#8 `EncryptedPrivateKeyInfo`
//! (RFC 5958) with PBES2 (RFC 8018), in DER and PEM (`-----BEGIN
//! ENCRYPTED PRIVATE KEY-----`), and OpenSSL's legacy encrypted PEM
//! (`Proc-Type: 4,ENCRYPTED`, `DEK-Info: AES-256-CBC,…`) for reading.
//!
//! What is read: PBES2 with PBKDF2 (PRF HMAC-SHA1, the default when none
//! is named, or HMAC-SHA224/256/384/512) or scrypt (RFC 7914, as `openssl
//! pkcs8 -topk8 -scrypt` writes), and AES-128/192/256-CBC. What is written
//! by default is what OpenSSL 3.0 writes (`openssl genpkey -aes256`,
//! `openssl pkcs8 -topk8 -v2 aes-256-cbc`): PBKDF2-HMAC-SHA256 with 2048
//! iterations and an 8-byte random salt, AES-256-CBC with a random IV.
//!
//! The primitives are the backend's (AWS-LC's PBKDF2, scrypt, AES-CBC);
//! this module parses and writes the DER around them, strictly (definite
//! minimal lengths, no trailing data, known OIDs only) and with limits on
//! the work a file may ask for: at most [`MAX_ITERATIONS`] PBKDF2
//! iterations and [`MAX_SCRYPT_MEMORY`] bytes of scrypt memory, so that a
//! hostile key file cannot make a reader spin for hours or exhaust memory.
//! AWS-LC's own `PKCS8_decrypt` reads neither scrypt nor the SHA-2 PRFs
//! for every cipher, and writes HMAC-SHA1, which is why the DER is here.
//!
//! The decrypted `PrivateKeyInfo` is returned as [`SecretBytes`] (wiped on
//! drop); passwords are borrowed and never copied.
//!
//! # Examples
//! ```
//! use parcrypt::pkcs8::{self, Options};
//! use parcrypt::ecdsa::PrivateKey;
//!
//! let key = PrivateKey::generate()?;
//! let pem = key.to_pkcs8_encrypted_pem(b"hunter2", &Options::default())?;
//! assert!(pem.starts_with("-----BEGIN ENCRYPTED PRIVATE KEY-----"));
//! assert!(pkcs8::is_encrypted(pem.as_bytes()));
//! let back = PrivateKey::from_bytes_with_password(pem.as_bytes(), b"hunter2")?;
//! assert_eq!(back.public_key().to_spki_der()?, key.public_key().to_spki_der()?);
//! assert!(PrivateKey::from_bytes_with_password(pem.as_bytes(), b"wrong").is_err());
//! # Ok::<(), parcrypt::ecdsa::Error>(())
//! ```

mod der;

use std::fmt;
use std::str::FromStr;

use aws_lc_rs::cipher::{
    AES_128, AES_192, AES_256, DecryptionContext, EncryptionContext, PaddedBlockDecryptingKey,
    PaddedBlockEncryptingKey, UnboundCipherKey,
};

use self::der::{OCTET_STRING, OID, Reader};
use crate::UnknownName;
use crate::ffi;
use crate::pem::{self, PemError};
use crate::secret::{SecretBytes, wipe};

/// What goes wrong reading or writing an encrypted key.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The key is encrypted and no password was given.
    #[error("the key is encrypted: a password is needed to read it")]
    PasswordNeeded,
    /// The padding or the structure of the decrypted key is wrong: a wrong
    /// password, or an encrypted key that was modified (which of the two
    /// cannot be told).
    #[error("bad decrypt: wrong password, or the encrypted key is corrupt")]
    BadDecrypt,
    /// Not an `EncryptedPrivateKeyInfo`, or one with a malformed field.
    #[error("malformed encrypted key: {0}")]
    Malformed(String),
    /// A well-formed scheme parcrypt does not read (PBES1, 3DES, …).
    #[error("unsupported key encryption: {0}")]
    Unsupported(String),
    /// The file asks for more key-derivation work than the reader allows.
    #[error("the encrypted key asks for {0}, above parcrypt's limit")]
    TooCostly(String),
    /// Options that cannot be written (zero iterations, bad scrypt values).
    #[error("invalid key encryption options: {0}")]
    Options(String),
    /// The backend failed unexpectedly.
    #[error("internal error in the crypto backend")]
    Backend,
}

/// The most PBKDF2 iterations a key file may ask for: 10 million, about
/// five seconds of HMAC-SHA256 on one core (OpenSSL writes 2048, pyca
/// and the JDK fewer than a million).
pub const MAX_ITERATIONS: u64 = 10_000_000;

/// The most memory a key file's scrypt parameters may ask for (128·N·r
/// bytes): 1 GiB. OpenSSL writes N = 2^14, r = 8 (16 MiB).
pub const MAX_SCRYPT_MEMORY: u64 = 1 << 30;

/// The most scrypt work (N·r·p) a key file may ask for: 2^27, 1024 times
/// OpenSSL's N = 2^14, r = 8, p = 1.
pub const MAX_SCRYPT_WORK: u64 = 1 << 27;

/// OpenSSL 3's PBKDF2 iteration count for encrypted keys (`PKCS5_DEFAULT_ITER`).
pub const DEFAULT_ITERATIONS: u32 = 2048;

/// The salt length written (OpenSSL's `PKCS5_SALT_LEN`).
pub const SALT_LEN: usize = 8;

/// The most bytes of encrypted key read (an RSA-16384 key is about 10 KiB).
const MAX_ENCRYPTED: usize = 1 << 20;

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
    const fn oid(self) -> &'static [u8] {
        match self {
            Cipher::Aes128Cbc => &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x01, 0x02],
            Cipher::Aes192Cbc => &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x01, 0x16],
            Cipher::Aes256Cbc => &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x01, 0x2a],
        }
    }

    fn algorithm(self) -> &'static aws_lc_rs::cipher::Algorithm {
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
    fn oid(self) -> [u8; 8] {
        let last = match self {
            Prf::HmacSha1 => 7,
            Prf::HmacSha224 => 8,
            Prf::HmacSha256 => 9,
            Prf::HmacSha384 => 10,
            Prf::HmacSha512 => 11,
        };
        [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x02, last]
    }

    fn md(self) -> ffi::Md {
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
    fn check(self) -> Result<(), String> {
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
const PBES2: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x05, 0x0d];
/// 1.2.840.113549.1.5.12
const PBKDF2: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x05, 0x0c];
/// 1.3.6.1.4.1.11591.4.11
const SCRYPT: &[u8] = &[0x2b, 0x06, 0x01, 0x04, 0x01, 0xda, 0x47, 0x04, 0x0b];
/// The PBES1 schemes start 1.2.840.113549.1.5 (pbeWithMD5AndDES-CBC …);
/// PKCS#12's 1.2.840.113549.1.12.1.
const PBES1_PREFIX: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x05];
const PKCS12_PBE_PREFIX: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x0c, 0x01];

/// An `EncryptedPrivateKeyInfo`, parsed.
struct Parsed<'a> {
    options: Options,
    salt: &'a [u8],
    iv: [u8; 16],
    ciphertext: &'a [u8],
}

fn malformed(why: &str) -> Error {
    Error::Malformed(why.to_owned())
}

fn parse(der: &[u8]) -> Result<Parsed<'_>, Error> {
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

/// The key-encryption key: `out` (the cipher's key length) from the password.
fn derive(kdf: Kdf, password: &[u8], salt: &[u8], out: &mut [u8]) -> Result<(), Error> {
    let ok = match kdf {
        Kdf::Pbkdf2 { prf, iterations } => ffi::pbkdf2_hmac(prf.md(), password, salt, iterations, out),
        Kdf::Scrypt { log2_n, r, p } => ffi::scrypt(password, salt, log2_n, r, p, out),
    };
    ok.then_some(()).ok_or(Error::Backend)
}

/// Whether `bytes` (PEM or DER) are an encrypted private key: an
/// `ENCRYPTED PRIVATE KEY` or legacy `Proc-Type: 4,ENCRYPTED` PEM block, or
/// DER that is shaped as an `EncryptedPrivateKeyInfo` (a SEQUENCE whose
/// first element is an AlgorithmIdentifier, where a `PrivateKeyInfo` has
/// its version INTEGER).
pub fn is_encrypted(bytes: &[u8]) -> bool {
    if pem::is_pem(bytes) {
        return matches!(pem::decode(bytes, &[]), Err(PemError::Encrypted));
    }
    let mut outer = Reader::new(bytes);
    let Ok(mut info) = outer.sequence() else {
        return false;
    };
    let Ok(alg) = info.sequence() else {
        return false;
    };
    alg.peek() == Some(OID) && info.peek() == Some(OCTET_STRING)
}

/// The options an `EncryptedPrivateKeyInfo` (DER) was written with.
///
/// # Errors
/// As [`decrypt_der`], less [`Error::BadDecrypt`].
pub fn options_of(encrypted: &[u8]) -> Result<Options, Error> {
    parse(encrypted).map(|p| p.options)
}

/// Decrypts a DER `EncryptedPrivateKeyInfo` with `password`: the DER
/// `PrivateKeyInfo` inside.
///
/// # Errors
/// [`Error::BadDecrypt`] for a wrong password (or a modified file);
/// [`Error::Malformed`], [`Error::Unsupported`], [`Error::TooCostly`] for
/// what cannot be read (before any key derivation runs).
pub fn decrypt_der(encrypted: &[u8], password: &[u8]) -> Result<SecretBytes, Error> {
    let parsed = parse(encrypted)?;
    let cipher = parsed.options.cipher;
    let mut kek = SecretBytes::zeroed(cipher.key_len());
    derive(parsed.options.kdf, password, parsed.salt, kek.expose_mut())?;
    let mut data = SecretBytes::from(parsed.ciphertext);
    let len = cbc_decrypt(cipher, kek.expose(), &parsed.iv, data.expose_mut())?;
    let plain = &data.expose()[..len];
    // One wrong password in 256 passes the padding check: a
    // `PrivateKeyInfo` is one DER SEQUENCE filling the plaintext exactly.
    let mut r = Reader::new(plain);
    if r.sequence().is_err() || r.finish().is_err() {
        return Err(Error::BadDecrypt);
    }
    Ok(SecretBytes::from(plain))
}

/// AES-CBC decryption with PKCS#7 padding in place; the plaintext's length.
fn cbc_decrypt(cipher: Cipher, key: &[u8], iv: &[u8; 16], data: &mut [u8]) -> Result<usize, Error> {
    let key = UnboundCipherKey::new(cipher.algorithm(), key).map_err(|_| Error::Backend)?;
    let key = PaddedBlockDecryptingKey::cbc_pkcs7(key).map_err(|_| Error::Backend)?;
    let plain = key
        .decrypt(data, DecryptionContext::Iv128((*iv).into()))
        .map_err(|_| Error::BadDecrypt)?;
    Ok(plain.len())
}

/// Encrypts a DER `PrivateKeyInfo` under `password`: a DER
/// `EncryptedPrivateKeyInfo` with a random salt and IV.
///
/// # Errors
/// [`Error::Options`] for options above the limits a reader here accepts
/// (zero or more than [`MAX_ITERATIONS`] iterations, scrypt beyond
/// [`MAX_SCRYPT_MEMORY`]); [`Error::Backend`].
pub fn encrypt_der(private_key_info: &[u8], password: &[u8], options: &Options) -> Result<Vec<u8>, Error> {
    options.kdf.check().map_err(Error::Options)?;
    let mut salt = [0u8; SALT_LEN];
    let mut iv = [0u8; 16];
    getrandom::fill(&mut salt).map_err(|_| Error::Backend)?;
    getrandom::fill(&mut iv).map_err(|_| Error::Backend)?;
    encrypt_der_with(private_key_info, password, options, &salt, &iv)
}

/// [`encrypt_der`] with the salt and IV given (tests compare with fixed vectors).
fn encrypt_der_with(
    private_key_info: &[u8],
    password: &[u8],
    options: &Options,
    salt: &[u8],
    iv: &[u8; 16],
) -> Result<Vec<u8>, Error> {
    let cipher = options.cipher;
    let mut kek = SecretBytes::zeroed(cipher.key_len());
    derive(options.kdf, password, salt, kek.expose_mut())?;
    let key = UnboundCipherKey::new(cipher.algorithm(), kek.expose()).map_err(|_| Error::Backend)?;
    let key = PaddedBlockEncryptingKey::cbc_pkcs7(key).map_err(|_| Error::Backend)?;
    // Room for the padding up front: no reallocation leaves a plaintext copy behind.
    let mut data = Vec::with_capacity(private_key_info.len() + 16);
    data.extend_from_slice(private_key_info);
    if key
        .less_safe_encrypt(&mut data, EncryptionContext::Iv128((*iv).into()))
        .is_err()
    {
        wipe(&mut data);
        return Err(Error::Backend);
    }
    let kdf = match options.kdf {
        Kdf::Pbkdf2 { prf, iterations } => {
            let salt = der::tlv(OCTET_STRING, salt);
            let iterations = der::uint(u64::from(iterations));
            // DER leaves out a DEFAULT value: HMAC-SHA1 is not written.
            let prf = if prf == Prf::HmacSha1 {
                Vec::new()
            } else {
                der::sequence(&[&der::tlv(OID, &prf.oid()), &der::tlv(der::NULL, &[])])
            };
            der::sequence(&[
                &der::tlv(OID, PBKDF2),
                &der::sequence(&[&salt, &iterations, &prf]),
            ])
        }
        Kdf::Scrypt { log2_n, r, p } => der::sequence(&[
            &der::tlv(OID, SCRYPT),
            &der::sequence(&[
                &der::tlv(OCTET_STRING, salt),
                &der::uint(1u64 << log2_n),
                &der::uint(u64::from(r)),
                &der::uint(u64::from(p)),
            ]),
        ]),
    };
    let enc = der::sequence(&[&der::tlv(OID, cipher.oid()), &der::tlv(OCTET_STRING, iv)]);
    let alg = der::sequence(&[&der::tlv(OID, PBES2), &der::sequence(&[&kdf, &enc])]);
    Ok(der::sequence(&[&alg, &der::tlv(OCTET_STRING, &data)]))
}

/// [`encrypt_der`] as PEM (`-----BEGIN ENCRYPTED PRIVATE KEY-----`).
///
/// # Errors
/// As [`encrypt_der`].
pub fn encrypt_pem(private_key_info: &[u8], password: &[u8], options: &Options) -> Result<String, Error> {
    let der = encrypt_der(private_key_info, password, options)?;
    Ok(pem::encode(pem::ENCRYPTED_LABEL, &der).expose().to_owned())
}

/// Why [`unlock_pem`] failed.
pub(crate) enum UnlockError {
    Pem(PemError),
    Pkcs8(Error),
}

/// The label PKCS#8 keys carry, which [`unlock_pem`] returns for a
/// decrypted `ENCRYPTED PRIVATE KEY`.
pub(crate) const PKCS8_LABEL: &str = "PRIVATE KEY";

/// Decodes the first PEM block of `text` with one of `labels`, decrypting
/// it with `password` when it is encrypted (PKCS#8 `ENCRYPTED PRIVATE KEY`
/// or legacy `Proc-Type: 4,ENCRYPTED`). A password given for a key that is
/// not encrypted is ignored, as OpenSSL ignores `-passin`. Returns the
/// label (one of `labels`, or `PRIVATE KEY` for a decrypted `ENCRYPTED
/// PRIVATE KEY`) and the DER.
pub(crate) fn unlock_pem(
    text: &[u8],
    labels: &[&'static str],
    password: Option<&[u8]>,
) -> Result<(&'static str, SecretBytes), UnlockError> {
    let block = pem::decode_private(text, labels).map_err(UnlockError::Pem)?;
    if block.label == pem::ENCRYPTED_LABEL {
        let password = password.ok_or(UnlockError::Pkcs8(Error::PasswordNeeded))?;
        let der = decrypt_der(block.der.expose(), password).map_err(UnlockError::Pkcs8)?;
        return Ok((PKCS8_LABEL, der));
    }
    let Some(dek_info) = block.dek_info else {
        return Ok((block.label, block.der));
    };
    let password = password.ok_or(UnlockError::Pkcs8(Error::PasswordNeeded))?;
    let der = decrypt_legacy(&dek_info, block.der.expose(), password).map_err(UnlockError::Pkcs8)?;
    Ok((block.label, der))
}

/// `Some` decrypted `PrivateKeyInfo` if `der` is an encrypted key, `None`
/// if it is not (the caller parses it as it is).
pub(crate) fn unlock_der(der: &[u8], password: Option<&[u8]>) -> Result<Option<SecretBytes>, Error> {
    if !is_encrypted(der) {
        return Ok(None);
    }
    let password = password.ok_or(Error::PasswordNeeded)?;
    decrypt_der(der, password).map(Some)
}

/// OpenSSL's legacy PEM encryption (`openssl rsa -aes256`): the key is
/// `EVP_BytesToKey(MD5, password, salt = the IV's first 8 bytes, 1 round)`,
/// the body AES-CBC with PKCS#7 padding.
fn decrypt_legacy(dek_info: &str, body: &[u8], password: &[u8]) -> Result<SecretBytes, Error> {
    let (name, iv_hex) = dek_info
        .split_once(',')
        .ok_or_else(|| malformed("DEK-Info is not CIPHER,IV"))?;
    let cipher = match name.trim().to_ascii_uppercase().as_str() {
        "AES-128-CBC" => Cipher::Aes128Cbc,
        "AES-192-CBC" => Cipher::Aes192Cbc,
        "AES-256-CBC" => Cipher::Aes256Cbc,
        other => {
            return Err(Error::Unsupported(format!(
                "legacy PEM encryption with {other}; convert the key with \
                 `openssl pkcs8 -topk8 -v2 aes-256-cbc -in OLD.pem -out NEW.pem`"
            )));
        }
    };
    let iv_hex = iv_hex.trim().as_bytes();
    if iv_hex.len() != 32 {
        return Err(malformed("the DEK-Info IV is not 16 bytes of hex"));
    }
    let mut iv = [0u8; 16];
    for (slot, pair) in iv.iter_mut().zip(iv_hex.chunks(2)) {
        let hex = std::str::from_utf8(pair).map_err(|_| malformed("the DEK-Info IV is not hex"))?;
        *slot = u8::from_str_radix(hex, 16).map_err(|_| malformed("the DEK-Info IV is not hex"))?;
    }
    if body.is_empty() || body.len() % 16 != 0 || body.len() > MAX_ENCRYPTED {
        return Err(malformed("the encrypted key is not whole AES blocks"));
    }
    let mut salt = [0u8; 8];
    salt.copy_from_slice(&iv[..8]);
    let mut kek = SecretBytes::zeroed(cipher.key_len());
    if !ffi::bytes_to_key(ffi::Md::Md5, password, Some(&salt), kek.expose_mut(), &mut []) {
        return Err(Error::Backend);
    }
    let mut data = SecretBytes::from(body);
    let len = cbc_decrypt(cipher, kek.expose(), &iv, data.expose_mut())?;
    let plain = &data.expose()[..len];
    let mut r = Reader::new(plain);
    if r.sequence().is_err() || r.finish().is_err() {
        return Err(Error::BadDecrypt);
    }
    Ok(SecretBytes::from(plain))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in `PrivateKeyInfo`: one DER SEQUENCE.
    fn info(len: usize) -> Vec<u8> {
        der::sequence(&[&der::tlv(OCTET_STRING, &vec![0x5a; len])])
    }

    #[test]
    fn round_trip_every_cipher_and_kdf() {
        let kdfs = Prf::ALL
            .into_iter()
            .map(|prf| Kdf::Pbkdf2 { prf, iterations: 3 })
            .chain([Kdf::Scrypt {
                log2_n: 4,
                r: 8,
                p: 1,
            }]);
        for kdf in kdfs {
            for cipher in Cipher::ALL {
                for len in [0, 11, 12, 13, 200] {
                    let options = Options { cipher, kdf };
                    let plain = info(len);
                    let enc = encrypt_der(&plain, b"pw", &options).unwrap();
                    assert!(is_encrypted(&enc));
                    assert!(!is_encrypted(&plain));
                    assert_eq!(options_of(&enc).unwrap(), options);
                    assert_eq!(decrypt_der(&enc, b"pw").unwrap().expose(), plain.as_slice());
                    assert_eq!(decrypt_der(&enc, b"pX").unwrap_err(), Error::BadDecrypt);
                }
            }
        }
    }

    #[test]
    fn default_is_openssl3s_and_written_as_openssl_writes_it() {
        let d = Options::default();
        assert_eq!(d.cipher, Cipher::Aes256Cbc);
        assert_eq!(
            d.kdf,
            Kdf::Pbkdf2 {
                prf: Prf::HmacSha256,
                iterations: 2048
            }
        );
        // The layout `openssl asn1parse` shows for `openssl genpkey -aes256`:
        // PBES2 { PBKDF2 { salt(8), 2048, { hmacWithSHA256, NULL } }, { aes-256-cbc, iv(16) } }.
        let enc = encrypt_der_with(&info(5), b"pw", &d, &[1; 8], &[2; 16]).unwrap();
        let head = concat!(
            "3057",
            "06092a864886f70d01050d",
            "304a",
            "3029",
            "06092a864886f70d01050c",
            "301c",
            "04080101010101010101",
            "02020800",
            "300c06082a864886f70d02090500",
            "301d",
            "060960864801650304012a",
            "041002020202020202020202020202020202",
        );
        let got: String = enc.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(&got[4..4 + head.len()], head, "{got}");
    }

    #[test]
    fn hostile_inputs_are_clear_errors() {
        let good = encrypt_der(&info(40), b"pw", &Options::default()).unwrap();
        // Every truncation, and trailing data.
        for cut in 0..good.len() {
            assert!(decrypt_der(&good[..cut], b"pw").is_err());
        }
        let mut long = good.clone();
        long.push(0);
        assert!(matches!(decrypt_der(&long, b"pw"), Err(Error::Malformed(_))));
        // Every single-byte change: an error or (in the ciphertext's
        // last blocks) a bad decrypt, never a panic.
        for i in 0..good.len() {
            let mut bad = good.clone();
            bad[i] ^= 0x01;
            let _ = decrypt_der(&bad, b"pw");
        }
        // Absurd work.
        let build = |kdf: Vec<u8>| {
            let enc = der::sequence(&[
                &der::tlv(OID, Cipher::Aes256Cbc.oid()),
                &der::tlv(OCTET_STRING, &[0; 16]),
            ]);
            let alg = der::sequence(&[&der::tlv(OID, PBES2), &der::sequence(&[&kdf, &enc])]);
            der::sequence(&[&alg, &der::tlv(OCTET_STRING, &[0; 32])])
        };
        let pbkdf2 = |iter: u64| {
            der::sequence(&[
                &der::tlv(OID, PBKDF2),
                &der::sequence(&[&der::tlv(OCTET_STRING, &[1; 8]), &der::uint(iter)]),
            ])
        };
        assert!(matches!(
            decrypt_der(&build(pbkdf2(MAX_ITERATIONS + 1)), b"pw"),
            Err(Error::TooCostly(_))
        ));
        assert!(matches!(
            decrypt_der(&build(pbkdf2(0)), b"pw"),
            Err(Error::Malformed(_))
        ));
        // PBKDF2 with SHA-1 by default: no PRF field at all.
        assert_eq!(
            decrypt_der(&build(pbkdf2(1)), b"pw").unwrap_err(),
            Error::BadDecrypt
        );
        let scrypt = |n: u64, r: u64, p: u64| {
            der::sequence(&[
                &der::tlv(OID, SCRYPT),
                &der::sequence(&[
                    &der::tlv(OCTET_STRING, &[1; 8]),
                    &der::uint(n),
                    &der::uint(r),
                    &der::uint(p),
                ]),
            ])
        };
        for (n, r, p) in [
            (1 << 30, 8, 1),
            (1 << 20, 1 << 20, 1),
            (1 << 14, 8, 1 << 20),
            (1 << 14, 1 << 40, 1),
        ] {
            assert!(
                matches!(
                    decrypt_der(&build(scrypt(n, r, p)), b"pw"),
                    Err(Error::TooCostly(_))
                ),
                "{n} {r} {p}"
            );
        }
        assert!(matches!(
            decrypt_der(&build(scrypt(1000, 8, 1)), b"pw"),
            Err(Error::Malformed(_))
        ));
        // Writing refuses what reading would.
        let too_many = Options {
            cipher: Cipher::Aes128Cbc,
            kdf: Kdf::Pbkdf2 {
                prf: Prf::HmacSha256,
                iterations: u32::MAX,
            },
        };
        assert!(matches!(
            encrypt_der(&info(1), b"pw", &too_many),
            Err(Error::Options(_))
        ));
    }

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
