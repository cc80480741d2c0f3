//! RSA keys: import and export (PKCS#8, PKCS#1, SPKI; PEM and DER).

use super::crt::{Crt, CrtMode};
use super::{Error, keygen};
use crate::ffi::der::{ParseError, key_type_name};
use crate::ffi::rsa::RsaKey;
use crate::par::Parallelism;
use crate::pem::{self, PemError};
use crate::pkcs8::{self, UnlockError};
use crate::secret::{SecretBytes, SecretString};

/// The smallest modulus parcrypt accepts on import (the papers measure
/// 1024-bit keys; anything smaller is broken).
const MIN_IMPORT_BITS: usize = 1024;
/// The largest modulus accepted on import.
const MAX_IMPORT_BITS: usize = 16384;

const PKCS8_LABEL: &str = "PRIVATE KEY";
const PKCS1_PRIVATE_LABEL: &str = "RSA PRIVATE KEY";
const SPKI_LABEL: &str = "PUBLIC KEY";
const PKCS1_PUBLIC_LABEL: &str = "RSA PUBLIC KEY";

/// An RSA private key, ready for the parallel CRT operation.
///
/// `Send + Sync`: one key serves any number of threads at once. Its secret
/// values live in AWS-LC `BIGNUM`s, wiped when the key is dropped. `Debug`
/// shows only the size and CRT mode.
pub struct PrivateKey {
    key: RsaKey,
    crt: Crt,
    public: PublicKey,
}

impl std::fmt::Debug for PrivateKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PrivateKey")
            .field("bits", &self.bits())
            .field("crt_mode", &self.crt_mode())
            .finish_non_exhaustive()
    }
}

/// An RSA public key.
#[derive(Debug)]
pub struct PublicKey {
    key: RsaKey,
}

fn pem_error(e: PemError) -> Error {
    match e {
        PemError::Encrypted => Error::EncryptedKey,
        PemError::Label(label) if label.contains("EC ") || label.contains("DSA") => {
            Error::WrongKeyType(format!("PEM block is {label:?}"))
        }
        other => Error::MalformedKey(other.to_string()),
    }
}

fn unlock_error(e: UnlockError) -> Error {
    match e {
        UnlockError::Pem(e) => pem_error(e),
        UnlockError::Pkcs8(e) => e.into(),
    }
}

fn parse_error(e: ParseError, what: &str) -> Error {
    match e {
        ParseError::Malformed => Error::MalformedKey(format!("not a DER {what}")),
        ParseError::WrongType(id) => Error::WrongKeyType(format!("the {what} holds {}", key_type_name(id))),
        ParseError::NotP256 => Error::WrongKeyType(format!("the {what} holds an EC key")),
    }
}

fn check_size(bits: usize) -> Result<(), Error> {
    if (MIN_IMPORT_BITS..=MAX_IMPORT_BITS).contains(&bits) {
        Ok(())
    } else {
        Err(Error::UnsupportedKey(format!(
            "{bits}-bit modulus (parcrypt handles {MIN_IMPORT_BITS}..={MAX_IMPORT_BITS})"
        )))
    }
}

impl PrivateKey {
    /// Wraps a parsed key after checking it (sizes, consistency, CRT values).
    pub(crate) fn from_rsa(key: RsaKey) -> Result<PrivateKey, Error> {
        check_size(key.bits())?;
        let components = key.components();
        if components.d.is_none() {
            return Err(Error::WrongKeyType(
                "a public key where a private key is needed".into(),
            ));
        }
        if !key.check() {
            return Err(Error::MalformedKey(
                "inconsistent RSA private key (RSA_check_key failed)".into(),
            ));
        }
        let crt = Crt::new(&components)?;
        let public = PublicKey { key: key.public()? };
        Ok(PrivateKey { key, crt, public })
    }

    /// Generates a key of `bits` bits (e = 65537): see [`keygen`](super#performance).
    ///
    /// # Errors
    /// [`Error::KeySize`] unless `bits` is a multiple of 128 in
    /// [`MIN_BITS`](super::MIN_BITS)..=[`MAX_BITS`](super::MAX_BITS).
    pub fn generate(bits: usize, par: &Parallelism) -> Result<PrivateKey, Error> {
        keygen::generate(bits, par).map(|(key, _)| key)
    }

    /// Reads a private key in any of: PEM `PRIVATE KEY` (PKCS#8), PEM
    /// `RSA PRIVATE KEY` (PKCS#1), or either as DER.
    ///
    /// # Errors
    /// [`Error::MalformedKey`], [`Error::EncryptedKey`] (a password-protected
    /// key: see [`Self::from_bytes_with_password`]), [`Error::WrongKeyType`]
    /// (an EC key, or a public key), [`Error::UnsupportedKey`].
    pub fn from_bytes(bytes: &[u8]) -> Result<PrivateKey, Error> {
        Self::read(bytes, None, &pkcs8::KdfLimits::DEFAULT)
    }

    /// As [`Self::from_bytes`], and also a password-protected key:
    /// `ENCRYPTED PRIVATE KEY` (PKCS#8 PBES2, PEM or DER; see
    /// [`crate::pkcs8`]) or OpenSSL's legacy `Proc-Type: 4,ENCRYPTED` PEM
    /// (`openssl rsa -aes256`). The password is ignored for a key that is
    /// not encrypted, as OpenSSL's `-passin` is.
    ///
    /// # Errors
    /// As [`Self::from_bytes`], and [`Error::KeyEncryption`] with
    /// [`pkcs8::Error::BadDecrypt`] for a wrong password.
    pub fn from_bytes_with_password(bytes: &[u8], password: &[u8]) -> Result<PrivateKey, Error> {
        Self::read(bytes, Some(password), &pkcs8::KdfLimits::DEFAULT)
    }

    /// As [`Self::from_bytes_with_password`], with the key derivation's
    /// cost bounded by `limits` instead of [`pkcs8::KdfLimits::DEFAULT`]
    /// (e.g. [`pkcs8::KdfLimits::COSTLY`] for a file that needs more).
    ///
    /// # Errors
    /// As [`Self::from_bytes_with_password`]; [`Error::KeyEncryption`] with
    /// [`pkcs8::Error::TooCostly`] is decided by `limits`.
    pub fn from_bytes_with_password_and_limits(
        bytes: &[u8],
        password: &[u8],
        limits: &pkcs8::KdfLimits,
    ) -> Result<PrivateKey, Error> {
        Self::read(bytes, Some(password), limits)
    }

    fn read(bytes: &[u8], password: Option<&[u8]>, limits: &pkcs8::KdfLimits) -> Result<PrivateKey, Error> {
        if pem::is_pem(bytes) {
            let (label, der) = pkcs8::unlock_pem(
                bytes,
                &[PKCS8_LABEL, PKCS1_PRIVATE_LABEL, SPKI_LABEL, PKCS1_PUBLIC_LABEL],
                password,
                limits,
            )
            .map_err(unlock_error)?;
            match label {
                PKCS8_LABEL => Self::from_pkcs8_der(der.expose()),
                PKCS1_PRIVATE_LABEL => Self::from_pkcs1_der(der.expose()),
                _ => Err(Error::WrongKeyType(
                    "a public key where a private key is needed".into(),
                )),
            }
        } else if let Some(der) = pkcs8::unlock_der(bytes, password, limits)? {
            Self::from_pkcs8_der(der.expose())
        } else {
            Self::from_pkcs8_der(bytes).or_else(|e8| Self::from_pkcs1_der(bytes).map_err(|_| e8))
        }
    }

    /// A key from its components, big-endian unsigned: modulus, public and
    /// private exponents, the primes and `q⁻¹ mod p` (what an OpenSSH
    /// private key file holds); the CRT exponents are computed, and the key
    /// checked as any other.
    ///
    /// # Errors
    /// [`Error::MalformedKey`] for inconsistent components;
    /// [`Error::UnsupportedKey`] for a size parcrypt does not handle.
    pub fn from_components(
        n: &[u8],
        e: &[u8],
        d: &[u8],
        p: &[u8],
        q: &[u8],
        qinv: &[u8],
    ) -> Result<PrivateKey, Error> {
        use crate::ffi::bn::{self, Bn, Ctx};
        let (p, q, d) = (Bn::from_be_bytes(p), Bn::from_be_bytes(q), Bn::from_be_bytes(d));
        let one = Bn::from_u64(1);
        if p.bits() < 2 || q.bits() < 2 {
            return Err(Error::MalformedKey("an RSA prime below 2".into()));
        }
        let mut ctx = Ctx::new();
        let pm1 = bn::sub_consttime(&p, &one)?;
        let qm1 = bn::sub_consttime(&q, &one)?;
        let dp = bn::rem_consttime(&d, &pm1, pm1.bits(), &mut ctx)?;
        let dq = bn::rem_consttime(&d, &qm1, qm1.bits(), &mut ctx)?;
        let key = RsaKey::from_private_components(&crate::ffi::rsa::Components {
            n: Bn::from_be_bytes(n),
            e: Bn::from_be_bytes(e),
            d: Some(d),
            p: Some(p),
            q: Some(q),
            dp: Some(dp),
            dq: Some(dq),
            qinv: Some(Bn::from_be_bytes(qinv)),
        })
        .map_err(|_| Error::MalformedKey("inconsistent RSA key components".into()))?;
        Self::from_rsa(key)
    }

    /// A DER PKCS#8 `PrivateKeyInfo`.
    pub fn from_pkcs8_der(der: &[u8]) -> Result<PrivateKey, Error> {
        Self::from_rsa(RsaKey::from_pkcs8_der(der).map_err(|e| parse_error(e, "PKCS#8 private key"))?)
    }

    /// A DER PKCS#1 `RSAPrivateKey`.
    pub fn from_pkcs1_der(der: &[u8]) -> Result<PrivateKey, Error> {
        Self::from_rsa(RsaKey::from_pkcs1_private_der(der).map_err(|e| parse_error(e, "PKCS#1 private key"))?)
    }

    /// PKCS#8 DER.
    pub fn to_pkcs8_der(&self) -> Result<SecretBytes, Error> {
        Ok(self.key.pkcs8_der()?)
    }

    /// PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`), what `openssl genpkey` writes.
    pub fn to_pkcs8_pem(&self) -> Result<SecretString, Error> {
        Ok(pem::encode(PKCS8_LABEL, self.to_pkcs8_der()?.expose()))
    }

    /// PKCS#8 `EncryptedPrivateKeyInfo` DER: the key encrypted under
    /// `password` as `options` say ([`pkcs8::Options::default`] is what
    /// `openssl genpkey -aes256` writes).
    ///
    /// # Errors
    /// [`Error::KeyEncryption`] for options beyond the readers' limits.
    pub fn to_pkcs8_encrypted_der(
        &self,
        password: &[u8],
        options: &pkcs8::Options,
    ) -> Result<Vec<u8>, Error> {
        Ok(pkcs8::encrypt_der(
            self.to_pkcs8_der()?.expose(),
            password,
            options,
        )?)
    }

    /// PEM `-----BEGIN ENCRYPTED PRIVATE KEY-----`: see [`Self::to_pkcs8_encrypted_der`].
    ///
    /// # Errors
    /// As [`Self::to_pkcs8_encrypted_der`].
    pub fn to_pkcs8_encrypted_pem(&self, password: &[u8], options: &pkcs8::Options) -> Result<String, Error> {
        Ok(pkcs8::encrypt_pem(
            self.to_pkcs8_der()?.expose(),
            password,
            options,
        )?)
    }

    /// PKCS#1 DER.
    pub fn to_pkcs1_der(&self) -> Result<SecretBytes, Error> {
        Ok(self.key.pkcs1_private_der()?)
    }

    /// PKCS#1 PEM (`-----BEGIN RSA PRIVATE KEY-----`, OpenSSL's "traditional" form).
    pub fn to_pkcs1_pem(&self) -> Result<SecretString, Error> {
        Ok(pem::encode(PKCS1_PRIVATE_LABEL, self.to_pkcs1_der()?.expose()))
    }

    /// The public half.
    pub fn public_key(&self) -> &PublicKey {
        &self.public
    }

    /// The modulus length in bits.
    pub fn bits(&self) -> usize {
        self.key.bits()
    }

    /// The modulus length in bytes: the length of signatures and ciphertext blocks.
    pub fn size(&self) -> usize {
        self.key.size()
    }

    pub(crate) fn rsa(&self) -> &RsaKey {
        &self.key
    }

    /// The key with another way of computing its CRT halves (see
    /// [`CrtMode`]; the default, `Auto`, is the fastest measured).
    #[must_use]
    pub fn with_crt_mode(mut self, mode: CrtMode) -> PrivateKey {
        self.crt.set_mode(mode);
        self
    }

    /// How this key computes its CRT halves.
    pub fn crt_mode(&self) -> CrtMode {
        self.crt.mode()
    }

    /// Whether, under [`CrtMode::Auto`], this key's two halves run together
    /// in the backend's SIMD kernel on one core (AVX-512 IFMA CPUs,
    /// 2048/3072/4096-bit keys) rather than on two threads.
    pub fn uses_dual_simd(&self) -> bool {
        self.crt.dual_simd()
    }

    /// The raw private operation `x^d mod n` on a `size()`-byte big-endian
    /// `x < n`: blinded, CRT halves under `par`, checked with the public
    /// exponent. Only the schemes (and tests) call this.
    pub(crate) fn private_raw(&self, x: &[u8], par: &Parallelism) -> Result<Vec<u8>, Error> {
        self.crt.private(x, par)
    }
}

impl PublicKey {
    /// Reads a public key: PEM `PUBLIC KEY` (SPKI) or `RSA PUBLIC KEY`
    /// (PKCS#1), either as DER, or a private key of any accepted form (its
    /// public half is taken).
    ///
    /// # Errors
    /// As [`PrivateKey::from_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Result<PublicKey, Error> {
        if pkcs8::is_encrypted(bytes) {
            // Its public half is inside the encryption.
            return Err(Error::EncryptedKey);
        }
        if pem::is_pem(bytes) {
            let (label, der) = pem::decode(
                bytes,
                &[SPKI_LABEL, PKCS1_PUBLIC_LABEL, PKCS8_LABEL, PKCS1_PRIVATE_LABEL],
            )
            .map_err(pem_error)?;
            match label {
                SPKI_LABEL => Self::from_spki_der(der.expose()),
                PKCS1_PUBLIC_LABEL => Self::from_pkcs1_der(der.expose()),
                _ => PrivateKey::from_bytes(bytes).map(|k| k.public),
            }
        } else {
            Self::from_spki_der(bytes)
                .or_else(|e| Self::from_pkcs1_der(bytes).map_err(|_| e))
                .or_else(|e| PrivateKey::from_bytes(bytes).map(|k| k.public).map_err(|_| e))
        }
    }

    fn from_rsa(key: RsaKey) -> Result<PublicKey, Error> {
        check_size(key.bits())?;
        Ok(PublicKey { key })
    }

    /// A DER X.509 `SubjectPublicKeyInfo`.
    pub fn from_spki_der(der: &[u8]) -> Result<PublicKey, Error> {
        Self::from_rsa(RsaKey::from_spki_der(der).map_err(|e| parse_error(e, "SubjectPublicKeyInfo"))?)
    }

    /// A key from its modulus and public exponent, big-endian unsigned
    /// (what an SSH public key holds).
    ///
    /// # Errors
    /// [`Error::MalformedKey`] for values AWS-LC refuses;
    /// [`Error::UnsupportedKey`] for a size parcrypt does not handle.
    pub fn from_components(n: &[u8], e: &[u8]) -> Result<PublicKey, Error> {
        use crate::ffi::bn::Bn;
        let key = RsaKey::from_public_components(&Bn::from_be_bytes(n), &Bn::from_be_bytes(e))
            .map_err(|_| Error::MalformedKey("invalid RSA public key components".into()))?;
        Self::from_rsa(key)
    }

    /// A DER PKCS#1 `RSAPublicKey`.
    pub fn from_pkcs1_der(der: &[u8]) -> Result<PublicKey, Error> {
        Self::from_rsa(RsaKey::from_pkcs1_public_der(der).map_err(|e| parse_error(e, "PKCS#1 public key"))?)
    }

    /// SPKI DER.
    pub fn to_spki_der(&self) -> Result<Vec<u8>, Error> {
        Ok(self.key.spki_der()?)
    }

    /// SPKI PEM (`-----BEGIN PUBLIC KEY-----`), what `openssl pkey -pubout` writes.
    pub fn to_spki_pem(&self) -> Result<String, Error> {
        Ok(pem::encode(SPKI_LABEL, &self.to_spki_der()?).expose().to_owned())
    }

    /// PKCS#1 DER.
    pub fn to_pkcs1_der(&self) -> Result<Vec<u8>, Error> {
        Ok(self.key.pkcs1_public_der()?)
    }

    /// PKCS#1 PEM (`-----BEGIN RSA PUBLIC KEY-----`).
    pub fn to_pkcs1_pem(&self) -> Result<String, Error> {
        Ok(pem::encode(PKCS1_PUBLIC_LABEL, &self.to_pkcs1_der()?)
            .expose()
            .to_owned())
    }

    /// The modulus length in bits.
    pub fn bits(&self) -> usize {
        self.key.bits()
    }

    /// The modulus length in bytes.
    pub fn size(&self) -> usize {
        self.key.size()
    }

    pub(crate) fn rsa(&self) -> &RsaKey {
        &self.key
    }
}

impl PartialEq for PublicKey {
    fn eq(&self, other: &Self) -> bool {
        matches!((self.to_spki_der(), other.to_spki_der()), (Ok(a), Ok(b)) if a == b)
    }
}

impl Eq for PublicKey {}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn keys_are_send_and_sync() {
        assert_send_sync::<PrivateKey>();
        assert_send_sync::<PublicKey>();
    }
}
