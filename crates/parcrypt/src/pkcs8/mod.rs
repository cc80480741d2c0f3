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
//! the work a file may ask for, checked before any of it runs
//! ([`KdfLimits`]): by default at most [`MAX_ITERATIONS`] PBKDF2
//! iterations, [`MAX_SCRYPT_MEMORY`] bytes of scrypt memory (OpenSSL 3's
//! own cap, counted as OpenSSL counts it) and [`MAX_SCRYPT_WORK`] scrypt
//! work, so that a hostile key file costs a reader with a wrong password
//! at most about a second of one core and 32 MiB.
//! AWS-LC's own `PKCS8_decrypt` reads neither scrypt nor the SHA-2 PRFs
//! for every cipher, and writes HMAC-SHA1, which is why the DER is here.
//!
//! The decrypted `PrivateKeyInfo` is returned as [`SecretBytes`] (wiped on
//! drop); passwords are borrowed and never copied.
//!
//! # Examples
//! ```
//! use parcrypt::ecdsa::PrivateKey;
//! use parcrypt::keys::{SigningKey, VerifyingKey};
//! use parcrypt::par::Parallelism;
//! use parcrypt::pkcs8::{self, Options};
//!
//! let par = Parallelism::default();
//! let key = PrivateKey::generate()?;
//! let pem = key.to_pkcs8_encrypted_pem(b"hunter2", &Options::default())?;
//! assert!(pem.starts_with("-----BEGIN ENCRYPTED PRIVATE KEY-----"));
//! assert!(pkcs8::is_encrypted(pem.as_bytes()));
//! let back = PrivateKey::from_bytes_with_password(pem.as_bytes(), b"hunter2", &par)?;
//! assert_eq!(back.public_key().to_spki_der()?, key.public_key().to_spki_der()?);
//! assert!(PrivateKey::from_bytes_with_password(pem.as_bytes(), b"wrong", &par).is_err());
//! # Ok::<(), parcrypt::ecdsa::Error>(())
//! ```

pub(crate) mod der;
mod params;
mod unlock;

use aws_lc_rs::cipher::{
    DecryptionContext, EncryptionContext, PaddedBlockDecryptingKey, PaddedBlockEncryptingKey,
    UnboundCipherKey,
};

use self::der::{OCTET_STRING, OID, Reader};
use crate::ffi;
use crate::pem::{self, PemError};
use crate::secret::{SecretBytes, wipe};

pub use params::{Cipher, Kdf, KdfLimits, Options, Prf};
use params::{PBES2, PBKDF2, SCRYPT, parse};
pub(crate) use unlock::{UnlockError, unlock_der, unlock_pem};

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
    /// The file asks for more key-derivation work than the reader's
    /// [`KdfLimits`] allow (nothing was computed).
    #[error("the encrypted key asks for {0}")]
    TooCostly(String),
    /// Options that cannot be written (zero iterations, bad scrypt values).
    #[error("invalid key encryption options: {0}")]
    Options(String),
    /// The backend failed unexpectedly.
    #[error("internal error in the crypto backend")]
    Backend,
}

/// The most PBKDF2 iterations a key file may ask for by default
/// ([`KdfLimits::DEFAULT`]): 2 000 000, about a second on one core with
/// the slowest PRF for a 256-bit key (HMAC-SHA1, two output blocks, or
/// HMAC-SHA512; 0.4 s with HMAC-SHA256 and SHA-NI). OpenSSL writes 2048;
/// OWASP's 2023 advice (600 000 for HMAC-SHA256, 1 300 000 for HMAC-SHA1)
/// fits.
pub const MAX_ITERATIONS: u64 = 2_000_000;

/// The most scrypt memory a key file may ask for by default, as
/// [`Kdf::scrypt_memory`] counts it: 32 MiB, OpenSSL 3's
/// `SCRYPT_MAX_MEM`. OpenSSL writes N = 2^14, r = 8 (16 MiB); it, and
/// parcrypt, refuse N = 2^15, r = 8 (32 MiB and 3 KiB).
pub const MAX_SCRYPT_MEMORY: u64 = 32 << 20;

/// The most scrypt work (N·r·p) a key file may ask for by default: 2^21,
/// 16 times OpenSSL's N = 2^14, r = 8, p = 1 (about 0.6 s on one core).
/// OpenSSL bounds only the memory, where p costs little: N = 2^14, r = 8,
/// p = 16 000 fits its 32 MiB and runs for minutes.
pub const MAX_SCRYPT_WORK: u64 = 1 << 21;

/// OpenSSL 3's PBKDF2 iteration count for encrypted keys (`PKCS5_DEFAULT_ITER`).
pub const DEFAULT_ITERATIONS: u32 = 2048;

/// The salt length written (OpenSSL's `PKCS5_SALT_LEN`).
pub const SALT_LEN: usize = 8;

/// The most bytes of encrypted key read (an RSA-16384 key is about 10 KiB).
const MAX_ENCRYPTED: usize = 1 << 20;

fn malformed(why: &str) -> Error {
    Error::Malformed(why.to_owned())
}

/// The key-encryption key: `out` (the cipher's key length) from the
/// password. `kdf` has passed [`Kdf::check_valid`] and a cost check, so the
/// backend refuses nothing but an allocation it cannot make.
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

/// Checks, without a password and before any work, that the encrypted key
/// in `bytes` (an `ENCRYPTED PRIVATE KEY` PEM block or DER) asks for no
/// more key derivation than `limits` allow, so that a caller can refuse it
/// before asking anyone for a password. Anything else (a key that is not
/// encrypted, OpenSSL's legacy PEM, whose derivation costs one hash,
/// bytes that do not parse) passes: reading the key says what is wrong.
///
/// # Errors
/// [`Error::TooCostly`] with the parameter and the limit.
pub fn check_cost(bytes: &[u8], limits: &KdfLimits) -> Result<(), Error> {
    let block;
    let der = if pem::is_pem(bytes) {
        match pem::decode_private(bytes, &[pem::ENCRYPTED_LABEL]) {
            Ok(b) if b.label == pem::ENCRYPTED_LABEL => {
                block = b;
                block.der.expose()
            }
            _ => return Ok(()),
        }
    } else {
        bytes
    };
    match parse(der) {
        Ok(parsed) => parsed.options.kdf.check_cost(limits),
        Err(_) => Ok(()),
    }
}

/// The options an `EncryptedPrivateKeyInfo` (DER) was written with,
/// whatever their cost.
///
/// # Errors
/// As [`decrypt_der`], less [`Error::BadDecrypt`] and [`Error::TooCostly`].
pub fn options_of(encrypted: &[u8]) -> Result<Options, Error> {
    parse(encrypted).map(|p| p.options)
}

/// Decrypts a DER `EncryptedPrivateKeyInfo` with `password`: the DER
/// `PrivateKeyInfo` inside. The key derivation may cost at most
/// [`KdfLimits::DEFAULT`]; [`decrypt_der_with_limits`] chooses.
///
/// # Errors
/// [`Error::BadDecrypt`] for a wrong password (or a modified file);
/// [`Error::Malformed`], [`Error::Unsupported`], [`Error::TooCostly`] for
/// what cannot be read (before any key derivation runs).
pub fn decrypt_der(encrypted: &[u8], password: &[u8]) -> Result<SecretBytes, Error> {
    decrypt_der_with_limits(encrypted, password, &KdfLimits::DEFAULT)
}

/// [`decrypt_der`] with the key derivation's cost bounded by `limits`
/// instead of the default.
///
/// # Errors
/// As [`decrypt_der`]; [`Error::TooCostly`] is decided by `limits`.
pub fn decrypt_der_with_limits(
    encrypted: &[u8],
    password: &[u8],
    limits: &KdfLimits,
) -> Result<SecretBytes, Error> {
    let parsed = parse(encrypted)?;
    parsed.options.kdf.check_cost(limits)?;
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
/// [`Error::Options`] for options that cannot be computed or that a
/// reader here refuses by default (zero or more than [`MAX_ITERATIONS`]
/// iterations, scrypt beyond [`KdfLimits::DEFAULT`]): every key written
/// here can be read back without raising a limit; [`Error::Backend`].
pub fn encrypt_der(private_key_info: &[u8], password: &[u8], options: &Options) -> Result<Vec<u8>, Error> {
    let refused = |e: Error| match e {
        Error::Malformed(why) | Error::TooCostly(why) => Error::Options(why),
        other => other,
    };
    options.kdf.check_valid().map_err(refused)?;
    options.kdf.check_cost(&KdfLimits::DEFAULT).map_err(refused)?;
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
        for (n, r, p) in [(1 << 30, 8, 1), (1 << 20, 1 << 20, 1), (1 << 14, 8, 1 << 20)] {
            assert!(
                matches!(
                    decrypt_der(&build(scrypt(n, r, p)), b"pw"),
                    Err(Error::TooCostly(_))
                ),
                "{n} {r} {p}"
            );
        }
        // What RFC 7914 (and so AWS-LC) refuses is malformed, named.
        for (n, r, p, named) in [
            (1000, 8, 1, "power of two"),
            (1 << 16, 1, 1, "2^(16·r)"),
            (1 << 14, 1 << 40, 1, "r = 1099511627776"),
            (2, 1 << 15, 1 << 15, "p·r"),
        ] {
            match decrypt_der(&build(scrypt(n, r, p)), b"pw") {
                Err(Error::Malformed(why)) => assert!(why.contains(named), "{n} {r} {p}: {why}"),
                other => panic!("{n} {r} {p}: {other:?}"),
            }
        }
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

    /// A PBES2 `EncryptedPrivateKeyInfo` with `kdf` and 32 bytes of zero
    /// ciphertext: whatever the password, a derivation that runs ends in
    /// `BadDecrypt`.
    fn with_kdf(kdf: Kdf) -> Vec<u8> {
        let params = match kdf {
            Kdf::Pbkdf2 { iterations, .. } => der::sequence(&[
                &der::tlv(OID, PBKDF2),
                &der::sequence(&[
                    &der::tlv(OCTET_STRING, &[1; 8]),
                    &der::uint(u64::from(iterations)),
                ]),
            ]),
            Kdf::Scrypt { log2_n, r, p } => der::sequence(&[
                &der::tlv(OID, SCRYPT),
                &der::sequence(&[
                    &der::tlv(OCTET_STRING, &[1; 8]),
                    &der::uint(1 << log2_n),
                    &der::uint(u64::from(r)),
                    &der::uint(u64::from(p)),
                ]),
            ]),
        };
        let enc = der::sequence(&[
            &der::tlv(OID, Cipher::Aes256Cbc.oid()),
            &der::tlv(OCTET_STRING, &[0; 16]),
        ]);
        let alg = der::sequence(&[&der::tlv(OID, PBES2), &der::sequence(&[&params, &enc])]);
        der::sequence(&[&alg, &der::tlv(OCTET_STRING, &[0; 32])])
    }

    fn scrypt(log2_n: u8, r: u32, p: u32) -> Kdf {
        Kdf::Scrypt { log2_n, r, p }
    }

    #[test]
    fn default_limits_are_openssl3s_scrypt_memory_and_about_a_second() {
        // The issue's hostile key: N = 2^20, r = 8, p = 16 (1 GiB, a minute
        // of CPU) is refused before any work, by default and even with the
        // costly limits (OpenSSL's count puts it 16 KiB over 1 GiB).
        for limits in [KdfLimits::DEFAULT, KdfLimits::COSTLY] {
            match decrypt_der_with_limits(&with_kdf(scrypt(20, 8, 16)), b"wrong", &limits) {
                Err(Error::TooCostly(why)) => {
                    assert!(why.contains("memory") && why.contains("p = 16"), "{why}")
                }
                other => panic!("{other:?}"),
            }
        }
        // OpenSSL 3 refuses N = 2^18, r = 8 (256 MiB) and N = 2^15, r = 8
        // (32 MiB + 3 KiB by its count), and so does the default here.
        for kdf in [
            scrypt(18, 8, 1),
            scrypt(15, 8, 1),
            scrypt(14, 16, 1),
            scrypt(17, 2, 1),
        ] {
            assert!(
                matches!(decrypt_der(&with_kdf(kdf), b"pw"), Err(Error::TooCostly(_))),
                "{kdf:?}"
            );
        }
        assert_eq!(scrypt(15, 8, 1).scrypt_memory(), Some((32 << 20) + 3 * 1024));
        // Work above 2^21 (16 times OpenSSL's default) is refused even
        // within 32 MiB: p costs time, not memory.
        assert!(matches!(
            decrypt_der(&with_kdf(scrypt(14, 8, 17)), b"pw"),
            Err(Error::TooCostly(why)) if why.contains("N·r·p")
        ));
        assert!(matches!(
            decrypt_der(&with_kdf(Kdf::Pbkdf2 { prf: Prf::HmacSha1, iterations: 2_000_001 }), b"pw"),
            Err(Error::TooCostly(why)) if why.contains("2000001 PBKDF2 iterations")
        ));
        // The boundary set that is allowed runs, and the backend refuses
        // none of it (an AWS-LC refusal would be `Backend`): OpenSSL's
        // default; the most r, N and p within 32 MiB and 2^21; many lanes
        // with a small N (p·r·128 = 2 MiB, once over AWS-LC's cap here).
        for kdf in [
            Kdf::SCRYPT_DEFAULT,
            scrypt(14, 15, 1),
            scrypt(16, 2, 1),
            scrypt(15, 1, 1),
            scrypt(14, 8, 16),
            scrypt(4, 8, 2048),
            scrypt(1, 1, 1),
            Kdf::Pbkdf2 {
                prf: Prf::HmacSha256,
                iterations: 2_000_000,
            },
        ] {
            assert_eq!(
                decrypt_der(&with_kdf(kdf), b"pw").unwrap_err(),
                Error::BadDecrypt,
                "{kdf:?}"
            );
        }
        // The one wider setting reads what needs more (here 64 MiB).
        assert!(matches!(
            decrypt_der(&with_kdf(scrypt(16, 8, 1)), b"pw"),
            Err(Error::TooCostly(_))
        ));
        assert_eq!(
            decrypt_der_with_limits(&with_kdf(scrypt(16, 8, 1)), b"pw", &KdfLimits::COSTLY).unwrap_err(),
            Error::BadDecrypt
        );
        // What is refused can still be described.
        assert_eq!(
            options_of(&with_kdf(scrypt(20, 8, 16))).unwrap().kdf,
            scrypt(20, 8, 16)
        );
        // Writing keeps to what a default reader reads.
        for kdf in [scrypt(15, 8, 1), scrypt(16, 1, 1), scrypt(20, 8, 16)] {
            let options = Options {
                cipher: Cipher::Aes256Cbc,
                kdf,
            };
            assert!(
                matches!(encrypt_der(&info(1), b"pw", &options), Err(Error::Options(_))),
                "{kdf:?}"
            );
        }
    }
}
