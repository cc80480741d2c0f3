//! A key of any family, read from PEM or DER without saying which: what
//! pyca's `load_pem_private_key` does, for the bindings (Python's
//! `parcrypt.serialization` loaders, Java's key factories) and the CLI.
//!
//! The data is read once: PEM is decoded, an encrypted key decrypted (one
//! key derivation), then the PKCS#8 or SPKI algorithm OID
//! ([`crate::keys::Algorithm`]) picks the one family that parses it. The
//! traditional forms name their family themselves (`RSA PRIVATE KEY`,
//! `EC PRIVATE KEY`; as DER, PKCS#1 then SEC1 are tried).
//!
//! Above the families in the layering (it imports them all), beside
//! `hazmat`.
//!
//! # Examples
//! ```
//! use parcrypt::anykey::{self, PrivateKey};
//! use parcrypt::keys::SigningKey;
//! use parcrypt::mldsa;
//! use parcrypt::par::Parallelism;
//! use parcrypt::pkcs8::{KdfLimits, Options};
//!
//! let key = mldsa::PrivateKey::from_seed(mldsa::ParameterSet::MlDsa65, &[7; 32])?;
//! let pem = key.to_pkcs8_encrypted_pem(b"hunter2", &Options::default())?;
//! let any = anykey::read_private(pem.as_bytes(), Some(b"hunter2"), &KdfLimits::DEFAULT, &Parallelism::default())
//!     .expect("an ML-DSA key");
//! assert!(matches!(any, PrivateKey::MlDsa(k) if k.public_key() == key.public_key()));
//! # Ok::<(), mldsa::Error>(())
//! ```

use crate::keys::{Algorithm, ErrorKind, KeyError, KeyFileError, SigningKey, VerifyingKey};
use crate::par::Parallelism;
use crate::pem::{self, PemError};
use crate::pkcs8::{self, KdfLimits, UnlockError};
use crate::{ecdsa, mldsa, mlkem, rsa, slhdsa};

const PKCS8_LABEL: &str = "PRIVATE KEY";
const RSA_LABEL: &str = "RSA PRIVATE KEY";
const EC_LABEL: &str = "EC PRIVATE KEY";
const SPKI_LABEL: &str = "PUBLIC KEY";
const RSA_PUBLIC_LABEL: &str = "RSA PUBLIC KEY";

/// A private key of any family parcrypt has.
#[derive(Debug)]
#[non_exhaustive]
pub enum PrivateKey {
    /// RSA.
    Rsa(rsa::PrivateKey),
    /// ECDSA P-256.
    Ec(ecdsa::PrivateKey),
    /// SLH-DSA.
    SlhDsa(slhdsa::PrivateKey),
    /// ML-DSA.
    MlDsa(mldsa::PrivateKey),
    /// ML-KEM.
    MlKem(mlkem::PrivateKey),
}

/// A public key of any family parcrypt has.
#[derive(Debug)]
#[non_exhaustive]
pub enum PublicKey {
    /// RSA.
    Rsa(rsa::PublicKey),
    /// ECDSA P-256.
    Ec(ecdsa::PublicKey),
    /// SLH-DSA.
    SlhDsa(slhdsa::PublicKey),
    /// ML-DSA.
    MlDsa(mldsa::PublicKey),
    /// ML-KEM.
    MlKem(mlkem::PublicKey),
}

/// Why a key could not be read: before a family was chosen (the PEM, the
/// password, an unknown algorithm), or the chosen family's own error.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Not a PEM or DER key parcrypt reads, an encrypted key without its
    /// password or with a wrong one, or a public key where a private one is
    /// needed (and the reverse): the families' own key-file errors.
    #[error(transparent)]
    Key(KeyFileError),
    /// A well-formed key of an algorithm parcrypt has not.
    #[error("unsupported key algorithm (OID {0})")]
    UnsupportedAlgorithm(String),
    /// The RSA family refused the key.
    #[error(transparent)]
    Rsa(rsa::Error),
    /// The ECDSA family refused the key.
    #[error(transparent)]
    Ec(ecdsa::Error),
    /// The SLH-DSA family refused the key.
    #[error(transparent)]
    SlhDsa(slhdsa::Error),
    /// The ML-DSA family refused the key.
    #[error(transparent)]
    MlDsa(mldsa::Error),
    /// The ML-KEM family refused the key.
    #[error(transparent)]
    MlKem(mlkem::Error),
}

impl Error {
    /// What kind of problem this is, as the families say it.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::Key(e) => e.kind(),
            Error::UnsupportedAlgorithm(_) => ErrorKind::WrongKeyType,
            Error::Rsa(e) => e.kind(),
            Error::Ec(e) => e.kind(),
            Error::SlhDsa(e) => e.kind(),
            Error::MlDsa(e) => e.kind(),
            Error::MlKem(e) => match e {
                mlkem::Error::MalformedKey(_) | mlkem::Error::InvalidKey => ErrorKind::MalformedKey,
                mlkem::Error::WrongKeyType(_) => ErrorKind::WrongKeyType,
                _ => ErrorKind::Other,
            },
        }
    }
}

impl From<pkcs8::Error> for Error {
    fn from(e: pkcs8::Error) -> Self {
        Error::Key(e.into())
    }
}

fn malformed(why: &str) -> Error {
    Error::Key(KeyFileError::Malformed(why.into()))
}

/// A public key where a private one is needed (`private` true), or the reverse.
fn wrong_kind(private: bool) -> Error {
    let (a_key, found) = if private {
        ("a private key", "a public key")
    } else {
        ("a public key", "a private key")
    };
    Error::Key(KeyFileError::WrongType {
        a_key,
        why: format!("{found} was given"),
    })
}

fn pem_error(e: PemError) -> Error {
    match e {
        PemError::Encrypted => Error::Key(KeyFileError::Encrypted),
        PemError::Label(label) if label.contains("PUBLIC KEY") => wrong_kind(true),
        PemError::Label(label) if label.contains("PRIVATE KEY") => wrong_kind(false),
        other => Error::Key(KeyFileError::Malformed(other.to_string())),
    }
}

/// Reads a private key of any family: PEM `PRIVATE KEY`, `ENCRYPTED
/// PRIVATE KEY`, `RSA PRIVATE KEY`, `EC PRIVATE KEY` (also OpenSSL's legacy
/// `Proc-Type: 4,ENCRYPTED`), or DER PKCS#8 (encrypted or not), PKCS#1 or
/// SEC1. An encrypted key is decrypted once with `password` (ignored for a
/// key that is not encrypted, as OpenSSL's `-passin` is), its key
/// derivation bounded by `limits`. `par` serves families whose key check
/// is parallel work (SLH-DSA rebuilds its root).
///
/// # Errors
/// [`Error::Key`] ([`KeyFileError::Encrypted`]) without a password for an
/// encrypted key, [`KeyFileError::Encryption`] for a wrong one
/// ([`ErrorKind::BadPassword`]), [`KeyFileError::Malformed`];
/// [`Error::UnsupportedAlgorithm`]; the family's
/// error for a key it refuses.
pub fn read_private(
    bytes: &[u8],
    password: Option<&[u8]>,
    limits: &KdfLimits,
    par: &Parallelism,
) -> Result<PrivateKey, Error> {
    if pem::is_pem(bytes) {
        let (label, der) = pkcs8::unlock_pem(bytes, &[PKCS8_LABEL, RSA_LABEL, EC_LABEL], password, limits)
            .map_err(|e| match e {
                UnlockError::Pem(e) => pem_error(e),
                UnlockError::Pkcs8(e) => e.into(),
            })?;
        return match label {
            RSA_LABEL => rsa::PrivateKey::from_traditional_der(der.expose(), par)
                .map(PrivateKey::Rsa)
                .map_err(Error::Rsa),
            EC_LABEL => ecdsa::PrivateKey::from_traditional_der(der.expose(), par)
                .map(PrivateKey::Ec)
                .map_err(Error::Ec),
            _ => private_of_pkcs8(der.expose(), par),
        };
    }
    if let Some(der) = pkcs8::unlock_der(bytes, password, limits)? {
        return private_of_pkcs8(der.expose(), par);
    }
    if Algorithm::of_pkcs8(bytes).is_some() {
        return private_of_pkcs8(bytes, par);
    }
    if Algorithm::of_spki(bytes).is_some() {
        return Err(wrong_kind(true));
    }
    rsa::PrivateKey::from_traditional_der(bytes, par)
        .map(PrivateKey::Rsa)
        .or_else(|_| ecdsa::PrivateKey::from_traditional_der(bytes, par).map(PrivateKey::Ec))
        .map_err(|_| malformed("not a PKCS#8, PKCS#1 or SEC1 private key"))
}

/// The family a PKCS#8 `PrivateKeyInfo` names parses it.
fn private_of_pkcs8(der: &[u8], par: &Parallelism) -> Result<PrivateKey, Error> {
    match Algorithm::of_pkcs8(der) {
        None => Err(malformed("not a DER PKCS#8 private key")),
        Some(Algorithm::Rsa) => rsa::PrivateKey::from_pkcs8_der(der, par)
            .map(PrivateKey::Rsa)
            .map_err(Error::Rsa),
        Some(Algorithm::Ec) => ecdsa::PrivateKey::from_pkcs8_der(der, par)
            .map(PrivateKey::Ec)
            .map_err(Error::Ec),
        Some(Algorithm::SlhDsa) => slhdsa::PrivateKey::from_pkcs8_der(der, par)
            .map(PrivateKey::SlhDsa)
            .map_err(Error::SlhDsa),
        Some(Algorithm::MlDsa) => mldsa::PrivateKey::from_pkcs8_der(der, par)
            .map(PrivateKey::MlDsa)
            .map_err(Error::MlDsa),
        Some(Algorithm::MlKem) => mlkem::PrivateKey::from_pkcs8_der(der)
            .map(PrivateKey::MlKem)
            .map_err(Error::MlKem),
        Some(Algorithm::Other(oid)) => Err(Error::UnsupportedAlgorithm(oid)),
    }
}

/// Reads a public key of any family: PEM `PUBLIC KEY` (SPKI) or `RSA
/// PUBLIC KEY`, or DER SPKI or PKCS#1. A private key is refused (as pyca's
/// `load_pem_public_key` refuses it): its public half is
/// [`read_private`]'s.
///
/// # Errors
/// [`KeyFileError::WrongType`] for a private key, [`KeyFileError::Malformed`];
/// [`Error::UnsupportedAlgorithm`]; the family's error for a key it refuses.
pub fn read_public(bytes: &[u8]) -> Result<PublicKey, Error> {
    if pkcs8::is_encrypted(bytes) {
        return Err(wrong_kind(false));
    }
    if pem::is_pem(bytes) {
        let (label, der) = pem::decode(bytes, &[SPKI_LABEL, RSA_PUBLIC_LABEL]).map_err(pem_error)?;
        return match label {
            RSA_PUBLIC_LABEL => rsa::PublicKey::from_traditional_der(der.expose())
                .map(PublicKey::Rsa)
                .map_err(Error::Rsa),
            _ => public_of_spki(der.expose()),
        };
    }
    if Algorithm::of_spki(bytes).is_some() {
        return public_of_spki(bytes);
    }
    if Algorithm::of_pkcs8(bytes).is_some() {
        return Err(wrong_kind(false));
    }
    rsa::PublicKey::from_traditional_der(bytes)
        .map(PublicKey::Rsa)
        .map_err(|_| malformed("not a SubjectPublicKeyInfo or PKCS#1 public key"))
}

/// The family an SPKI names parses it.
fn public_of_spki(der: &[u8]) -> Result<PublicKey, Error> {
    match Algorithm::of_spki(der) {
        None => Err(malformed("not a DER SubjectPublicKeyInfo")),
        Some(Algorithm::Rsa) => rsa::PublicKey::from_spki_der(der)
            .map(PublicKey::Rsa)
            .map_err(Error::Rsa),
        Some(Algorithm::Ec) => ecdsa::PublicKey::from_spki_der(der)
            .map(PublicKey::Ec)
            .map_err(Error::Ec),
        Some(Algorithm::SlhDsa) => slhdsa::PublicKey::from_spki_der(der)
            .map(PublicKey::SlhDsa)
            .map_err(Error::SlhDsa),
        Some(Algorithm::MlDsa) => mldsa::PublicKey::from_spki_der(der)
            .map(PublicKey::MlDsa)
            .map_err(Error::MlDsa),
        Some(Algorithm::MlKem) => mlkem::PublicKey::from_spki_der(der)
            .map(PublicKey::MlKem)
            .map_err(Error::MlKem),
        Some(Algorithm::Other(oid)) => Err(Error::UnsupportedAlgorithm(oid)),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::kem::KemPrivateKey;

    fn par() -> Parallelism {
        Parallelism::default()
    }

    #[test]
    fn every_family_is_told_by_its_oid_and_others_are_named() {
        let ec = ecdsa::PrivateKey::generate().unwrap();
        let pkcs8 = ec.to_pkcs8_der().unwrap();
        let spki = ec.public_key().to_spki_der().unwrap();
        assert_eq!(Algorithm::of_pkcs8(pkcs8.expose()), Some(Algorithm::Ec));
        assert_eq!(Algorithm::of_spki(&spki), Some(Algorithm::Ec));
        // A PKCS#8 is no SPKI, nor the reverse, nor is garbage either.
        assert_eq!(Algorithm::of_spki(pkcs8.expose()), None);
        assert_eq!(Algorithm::of_pkcs8(&spki), None);
        assert_eq!(Algorithm::of_pkcs8(b"\x30\x03\x02\x01\x00"), None);
        let ml = mldsa::PrivateKey::from_seed(mldsa::ParameterSet::MlDsa65, &[1; 32]).unwrap();
        assert_eq!(
            Algorithm::of_pkcs8(ml.to_pkcs8_der().unwrap().expose()),
            Some(Algorithm::MlDsa)
        );
        let kem = mlkem::PrivateKey::from_seed(mlkem::Params::MlKem768, &[2; 64]).unwrap();
        assert_eq!(
            Algorithm::of_spki(&kem.public_key().to_spki_der().unwrap()),
            Some(Algorithm::MlKem)
        );
        // Ed25519 (1.3.101.112): a PKCS#8 of another algorithm, named.
        let mut ed25519 = vec![
            0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
        ];
        ed25519.extend([7u8; 32]);
        assert_eq!(
            Algorithm::of_pkcs8(&ed25519),
            Some(Algorithm::Other("1.3.101.112".into()))
        );
        let e = read_private(&ed25519, None, &KdfLimits::DEFAULT, &par()).unwrap_err();
        assert_eq!(e.to_string(), "unsupported key algorithm (OID 1.3.101.112)");
    }

    #[test]
    fn each_form_comes_back_as_its_family_and_public_for_private_is_refused() {
        let ec = ecdsa::PrivateKey::generate().unwrap();
        let ml = mldsa::PrivateKey::from_seed(mldsa::ParameterSet::MlDsa44, &[3; 32]).unwrap();
        let kem = mlkem::PrivateKey::from_seed(mlkem::Params::MlKem512, &[4; 64]).unwrap();
        let sec1 = ec.to_traditional_der().unwrap();
        let read = |b: &[u8]| read_private(b, None, &KdfLimits::DEFAULT, &par()).unwrap();
        assert!(matches!(read(sec1.expose()), PrivateKey::Ec(_)));
        assert!(matches!(
            read(ec.to_traditional_pem().unwrap().expose_bytes()),
            PrivateKey::Ec(_)
        ));
        assert!(matches!(
            read(ml.to_pkcs8_pem().unwrap().expose_bytes()),
            PrivateKey::MlDsa(_)
        ));
        assert!(matches!(
            read(KemPrivateKey::to_pkcs8_der(&kem).unwrap().expose()),
            PrivateKey::MlKem(_)
        ));
        let spki = ml.public_key().to_spki_pem().unwrap();
        assert!(matches!(
            read_public(spki.as_bytes()).unwrap(),
            PublicKey::MlDsa(_)
        ));
        assert!(matches!(
            read_private(spki.as_bytes(), None, &KdfLimits::DEFAULT, &par()),
            Err(Error::Key(KeyFileError::WrongType { .. }))
        ));
        assert!(matches!(
            read_public(ml.to_pkcs8_pem().unwrap().expose_bytes()),
            Err(Error::Key(KeyFileError::WrongType { .. }))
        ));
    }

    #[test]
    fn an_encrypted_key_needs_its_password_and_a_wrong_one_is_one_clear_error() {
        let ec = ecdsa::PrivateKey::generate().unwrap();
        let der = ec
            .to_pkcs8_encrypted_der(b"right", &pkcs8::Options::default())
            .unwrap();
        let read = |p: Option<&[u8]>| read_private(&der, p, &KdfLimits::DEFAULT, &par());
        assert!(matches!(read(Some(b"right")).unwrap(), PrivateKey::Ec(_)));
        assert_eq!(read(None).unwrap_err().kind(), ErrorKind::EncryptedKey);
        let wrong = read(Some(b"wrong")).unwrap_err();
        assert_eq!(wrong.kind(), ErrorKind::BadPassword, "{wrong}");
    }
}
