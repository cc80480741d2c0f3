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

pub use params::{Cipher, Kdf, Options, Prf};
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

fn malformed(why: &str) -> Error {
    Error::Malformed(why.to_owned())
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
}
