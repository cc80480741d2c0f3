//! ML-KEM (FIPS 203): ML-KEM-512, ML-KEM-768 and ML-KEM-1024 key
//! encapsulation, through AWS-LC.
//!
//! Keys are made at random or from their 64-byte seed `d ‖ z` (what pyca's
//! `from_seed_bytes` and `private_bytes_raw` use), and read and written as
//! PKCS#8 (plain or password-protected, PEM or DER) and SPKI (PEM or DER),
//! public keys also raw (`ek`, pyca's `public_bytes_raw`). Private keys are
//! written in PKCS#8's seed form, byte for byte what pyca 50 and OpenSSL
//! 3.5 write; all three forms of RFC 9935 are read (seed, expanded, and
//! both — the last checked against its seed). [`PrivateKey`] and
//! [`PublicKey`] implement the [`kem`](crate::kem) family's traits.
//!
//! Decapsulation rejects implicitly, as FIPS 203 says: a ciphertext of the
//! right length that was not made for the key yields a pseudorandom
//! secret, not an error; a ciphertext of the wrong length is an error
//! ([`Error::CiphertextLength`]). Public keys are checked when read (FIPS
//! 203 §7.2's modulus check), expanded private keys too (§7.3's hash
//! check and a pair-wise round trip).
//!
//! One encapsulation or decapsulation is tens of microseconds and serial:
//! there is nothing to split across cores, so no function here takes a
//! [`Parallelism`](crate::par::Parallelism).
//!
//! # Examples
//! ```
//! use parcrypt::mlkem::{Params, PrivateKey, PublicKey};
//!
//! let key = PrivateKey::generate(Params::MlKem768)?;
//! let pem = key.public_key().to_spki_pem()?;
//! // The sender, with the public key only:
//! let (secret, ciphertext) = PublicKey::from_bytes(pem.as_bytes())?.encapsulate()?;
//! // The receiver:
//! assert_eq!(key.decapsulate(&ciphertext)?, secret);
//! // Same seed, same key (pyca's `MLKEM768PrivateKey.from_seed_bytes`):
//! let seed = key.seed().expect("a generated key has a seed");
//! let again = PrivateKey::from_seed(Params::MlKem768, seed.expose())?;
//! assert_eq!(again.to_pkcs8_pem()?, key.to_pkcs8_pem()?);
//! # Ok::<(), parcrypt::mlkem::Error>(())
//! ```

use std::fmt;
use std::str::FromStr;

use crate::ffi::der::{ParseError, key_type_name};
use crate::ffi::kem::{self, DecapsulationKey, EncapsulationKey, Kem, Refused};
use crate::kem::{KemPrivateKey, KemPublicKey, SharedSecret};
use crate::name::UnknownName;
use crate::pem::{self, PemError};
use crate::pkcs8::{self, UnlockError};
use crate::secret::{SecretBytes, SecretKey, SecretString};

/// The seed `d ‖ z` a key pair is made from.
pub const SEED_LEN: usize = kem::SEED_LEN;
/// The shared secret.
pub const SHARED_SECRET_LEN: usize = kem::SHARED_SECRET_LEN;

const PKCS8_LABEL: &str = "PRIVATE KEY";
const SPKI_LABEL: &str = "PUBLIC KEY";

/// An ML-KEM parameter set, named as FIPS 203 and OpenSSL 3.5 spell it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Params {
    /// ML-KEM-512 (NIST security category 1).
    MlKem512,
    /// ML-KEM-768 (category 3), the recommended default.
    MlKem768,
    /// ML-KEM-1024 (category 5).
    MlKem1024,
}

impl Params {
    /// Every parameter set, smallest first.
    pub const ALL: [Params; 3] = [Params::MlKem512, Params::MlKem768, Params::MlKem1024];

    /// `ML-KEM-512`, `ML-KEM-768`, `ML-KEM-1024`.
    pub fn name(self) -> &'static str {
        match self {
            Params::MlKem512 => "ML-KEM-512",
            Params::MlKem768 => "ML-KEM-768",
            Params::MlKem1024 => "ML-KEM-1024",
        }
    }

    /// The raw encapsulation key's length (800, 1184, 1568 bytes).
    pub fn public_key_len(self) -> usize {
        self.kem().public_len
    }

    /// The ciphertext's length (768, 1088, 1568 bytes).
    pub fn ciphertext_len(self) -> usize {
        self.kem().ciphertext_len
    }

    /// The expanded decapsulation key's length (1632, 2400, 3168 bytes).
    pub fn expanded_key_len(self) -> usize {
        self.kem().expanded_len
    }

    fn kem(self) -> Kem {
        match self {
            Params::MlKem512 => kem::ML_KEM_512,
            Params::MlKem768 => kem::ML_KEM_768,
            Params::MlKem1024 => kem::ML_KEM_1024,
        }
    }

    fn of(kem: Kem) -> Params {
        Params::ALL
            .into_iter()
            .find(|p| p.kem() == kem)
            .expect("ffi::kem makes only the three parameter sets")
    }
}

impl fmt::Display for Params {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Params {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Params::ALL.into_iter().find(|p| p.name() == s).ok_or_else(|| {
            UnknownName::new("ML-KEM parameter set", s, "ML-KEM-512, ML-KEM-768 or ML-KEM-1024")
        })
    }
}

/// What can go wrong with ML-KEM keys and ciphertexts.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Not a PEM or DER key of the expected kind.
    #[error("malformed ML-KEM key: {0}")]
    MalformedKey(String),
    /// A well-formed key that fails FIPS 203's checks (an encapsulation
    /// key with a coefficient ≥ q; an expanded key whose hash of `ek` or
    /// round trip is wrong; a "both" key whose halves disagree).
    #[error("invalid ML-KEM key: it fails FIPS 203's key checks")]
    InvalidKey,
    /// A password-protected key read without a password.
    #[error("the key is encrypted: a password is needed to read it")]
    EncryptedKey,
    /// A password-protected key that could not be read (a wrong password,
    /// an unsupported or malformed encryption) or written.
    #[error(transparent)]
    KeyEncryption(pkcs8::Error),
    /// A valid key of another algorithm, or a public key where a private
    /// key is needed.
    #[error("not an ML-KEM private key: {0}")]
    WrongKeyType(String),
    /// An ML-KEM key of another parameter set than the one asked for.
    #[error("the key is {found}, not {expected}")]
    WrongParams {
        /// The parameter set asked for.
        expected: Params,
        /// The key's.
        found: Params,
    },
    /// A seed that is not [`SEED_LEN`] bytes.
    #[error("an ML-KEM seed is 64 bytes (d ‖ z), not {0}")]
    SeedLength(usize),
    /// A ciphertext whose length is not the parameter set's.
    #[error("an {params} ciphertext is {expected} bytes, not {found}")]
    CiphertextLength {
        /// The key's parameter set.
        params: Params,
        /// Its ciphertext length.
        expected: usize,
        /// The length given.
        found: usize,
    },
    /// The backend failed unexpectedly (out of memory).
    #[error("internal error in the crypto backend")]
    Backend,
}

impl From<pkcs8::Error> for Error {
    fn from(e: pkcs8::Error) -> Self {
        match e {
            pkcs8::Error::PasswordNeeded => Error::EncryptedKey,
            other => Error::KeyEncryption(other),
        }
    }
}

impl From<crate::ffi::BackendError> for Error {
    fn from(_: crate::ffi::BackendError) -> Self {
        Error::Backend
    }
}

fn refused(e: Refused, what: &str) -> Error {
    match e {
        Refused::Invalid => Error::InvalidKey,
        Refused::Parse(ParseError::WrongType(id)) => {
            Error::WrongKeyType(format!("the {what} holds {}", key_type_name(id)))
        }
        Refused::Parse(_) => Error::MalformedKey(format!("not a DER {what}")),
    }
}

fn pem_error(e: PemError) -> Error {
    match e {
        PemError::Encrypted => Error::EncryptedKey,
        PemError::Label(label) if label.contains("PRIVATE KEY") || label.contains("PUBLIC KEY") => {
            Error::WrongKeyType(format!("PEM block is {label:?}"))
        }
        other => Error::MalformedKey(other.to_string()),
    }
}

fn public_where_private() -> Error {
    Error::WrongKeyType("a public key where a private key is needed".into())
}

/// An ML-KEM decapsulation key. `Send + Sync`; wiped on drop (AWS-LC
/// cleanses it), never shown by `Debug`.
pub struct PrivateKey {
    key: DecapsulationKey,
    public: PublicKey,
}

impl fmt::Debug for PrivateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PrivateKey")
            .field("params", &format_args!("{}", self.params()))
            .finish_non_exhaustive()
    }
}

/// An ML-KEM encapsulation key, checked when it was read. A clone shares
/// the checked key (nothing is parsed or checked again).
#[derive(Clone)]
pub struct PublicKey {
    key: EncapsulationKey,
}

impl fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PublicKey")
            .field("params", &format_args!("{}", self.params()))
            .finish_non_exhaustive()
    }
}

impl PrivateKey {
    fn of(key: DecapsulationKey) -> Result<PrivateKey, Error> {
        let public = PublicKey {
            key: key.public_key()?,
        };
        Ok(PrivateKey { key, public })
    }

    /// A new random key pair (its seed from AWS-LC's generator).
    ///
    /// # Errors
    /// [`Error::Backend`] only.
    pub fn generate(params: Params) -> Result<PrivateKey, Error> {
        Self::of(DecapsulationKey::generate(params.kem())?)
    }

    /// The key pair of the 64-byte seed `d ‖ z` (FIPS 203's
    /// ML-KEM.KeyGen_internal; pyca's `from_seed_bytes`).
    ///
    /// # Errors
    /// [`Error::SeedLength`].
    pub fn from_seed(params: Params, seed: &[u8]) -> Result<PrivateKey, Error> {
        let seed: &[u8; SEED_LEN] = seed.try_into().map_err(|_| Error::SeedLength(seed.len()))?;
        Self::of(DecapsulationKey::from_seed(params.kem(), seed)?)
    }

    /// Reads a private key: PEM `PRIVATE KEY` or DER PKCS#8, in any of the
    /// seed, expanded and both forms.
    ///
    /// # Errors
    /// [`Error::MalformedKey`], [`Error::InvalidKey`], [`Error::EncryptedKey`]
    /// (see [`Self::from_bytes_with_password`]), [`Error::WrongKeyType`]
    /// (another algorithm, a public key).
    pub fn from_bytes(bytes: &[u8]) -> Result<PrivateKey, Error> {
        Self::read(bytes, None, &pkcs8::KdfLimits::DEFAULT)
    }

    /// As [`Self::from_bytes`], and also a password-protected key
    /// (`ENCRYPTED PRIVATE KEY`, PEM or DER: see [`crate::pkcs8`]). The
    /// password is ignored for a key that is not encrypted.
    ///
    /// # Errors
    /// As [`Self::from_bytes`], and [`Error::KeyEncryption`] with
    /// [`pkcs8::Error::BadDecrypt`] for a wrong password.
    pub fn from_bytes_with_password(bytes: &[u8], password: &[u8]) -> Result<PrivateKey, Error> {
        Self::read(bytes, Some(password), &pkcs8::KdfLimits::DEFAULT)
    }

    /// As [`Self::from_bytes_with_password`], with the key derivation's
    /// cost bounded by `limits` instead of [`pkcs8::KdfLimits::DEFAULT`].
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
            let (label, der) = pkcs8::unlock_pem(bytes, &[PKCS8_LABEL, SPKI_LABEL], password, limits)
                .map_err(|e| match e {
                    UnlockError::Pem(e) => pem_error(e),
                    UnlockError::Pkcs8(e) => e.into(),
                })?;
            match label {
                PKCS8_LABEL => Self::from_pkcs8_der(der.expose()),
                _ => Err(public_where_private()),
            }
        } else if let Some(der) = pkcs8::unlock_der(bytes, password, limits)? {
            Self::from_pkcs8_der(der.expose())
        } else {
            Self::from_pkcs8_der(bytes).map_err(|e| match e {
                Error::MalformedKey(_) if EncapsulationKey::from_spki_der(bytes).is_ok() => {
                    public_where_private()
                }
                other => other,
            })
        }
    }

    /// A DER PKCS#8 `PrivateKeyInfo` (or v2 `OneAsymmetricKey`).
    ///
    /// # Errors
    /// As [`Self::from_bytes`].
    pub fn from_pkcs8_der(der: &[u8]) -> Result<PrivateKey, Error> {
        Self::of(DecapsulationKey::from_pkcs8_der(der).map_err(|e| refused(e, "PKCS#8 private key"))?)
    }

    /// `self` if it is of parameter set `expected` (pyca's per-set key
    /// classes load only their own).
    ///
    /// # Errors
    /// [`Error::WrongParams`].
    pub fn require_params(self, expected: Params) -> Result<PrivateKey, Error> {
        let found = self.params();
        (found == expected)
            .then_some(self)
            .ok_or(Error::WrongParams { expected, found })
    }

    /// The parameter set.
    pub fn params(&self) -> Params {
        Params::of(self.key.kem())
    }

    /// The encapsulation key.
    pub fn public_key(&self) -> &PublicKey {
        &self.public
    }

    /// The 64-byte seed `d ‖ z` (pyca's `private_bytes_raw`); `None` for a
    /// key read in the expanded form, which has none.
    pub fn seed(&self) -> Option<SecretKey<SEED_LEN>> {
        self.key.seed()
    }

    /// The expanded decapsulation key `dk` (FIPS 203's encoding, as the
    /// NIST known-answer files print it).
    ///
    /// # Errors
    /// [`Error::Backend`] only.
    pub fn to_expanded_bytes(&self) -> Result<SecretBytes, Error> {
        Ok(self.key.expanded()?)
    }

    /// PKCS#8 DER in the seed form (`[0] IMPLICIT OCTET STRING`, 86 bytes),
    /// what pyca 50 and OpenSSL 3.5 write; a key read in the expanded
    /// form, having no seed, is written in the expanded form.
    ///
    /// # Errors
    /// [`Error::Backend`] only.
    pub fn to_pkcs8_der(&self) -> Result<SecretBytes, Error> {
        Ok(self.key.pkcs8_der()?)
    }

    /// PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`), byte-identical to pyca's
    /// `private_bytes(PEM, PKCS8, NoEncryption())`.
    ///
    /// # Errors
    /// [`Error::Backend`] only.
    pub fn to_pkcs8_pem(&self) -> Result<SecretString, Error> {
        Ok(pem::encode(PKCS8_LABEL, self.to_pkcs8_der()?.expose()))
    }

    /// PKCS#8 `EncryptedPrivateKeyInfo` DER: the key encrypted under
    /// `password` as `options` say.
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

    /// PEM `-----BEGIN ENCRYPTED PRIVATE KEY-----`: see
    /// [`Self::to_pkcs8_encrypted_der`].
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

    /// ML-KEM.Decaps: the shared secret of `ciphertext`. A ciphertext of
    /// the right length that was not made for this key gives a
    /// pseudorandom secret (implicit rejection), not an error: the caller
    /// learns of a mismatch only when the secret fails to authenticate
    /// what it protects.
    ///
    /// # Errors
    /// [`Error::CiphertextLength`].
    pub fn decapsulate(&self, ciphertext: &[u8]) -> Result<SharedSecret, Error> {
        let params = self.params();
        if ciphertext.len() != params.ciphertext_len() {
            return Err(Error::CiphertextLength {
                params,
                expected: params.ciphertext_len(),
                found: ciphertext.len(),
            });
        }
        Ok(self.key.decapsulate(ciphertext)?)
    }
}

impl PublicKey {
    /// Reads a public key: PEM `PUBLIC KEY` (SPKI) or DER, or the public
    /// half of a private key (not a password-protected one).
    ///
    /// # Errors
    /// [`Error::MalformedKey`], [`Error::InvalidKey`] (FIPS 203's modulus
    /// check), [`Error::WrongKeyType`], [`Error::EncryptedKey`].
    pub fn from_bytes(bytes: &[u8]) -> Result<PublicKey, Error> {
        if pkcs8::is_encrypted(bytes) {
            // Its public half is inside the encryption.
            return Err(Error::EncryptedKey);
        }
        if pem::is_pem(bytes) {
            let (label, der) = pem::decode(bytes, &[SPKI_LABEL, PKCS8_LABEL]).map_err(pem_error)?;
            match label {
                SPKI_LABEL => Self::from_spki_der(der.expose()),
                _ => PrivateKey::from_pkcs8_der(der.expose()).map(|k| k.public),
            }
        } else {
            Self::from_spki_der(bytes)
                .or_else(|e| PrivateKey::from_pkcs8_der(bytes).map(|k| k.public).map_err(|_| e))
        }
    }

    /// A DER X.509 `SubjectPublicKeyInfo` (RFC 9935 §4).
    ///
    /// # Errors
    /// As [`Self::from_bytes`].
    pub fn from_spki_der(der: &[u8]) -> Result<PublicKey, Error> {
        let key = EncapsulationKey::from_spki_der(der).map_err(|e| match e {
            Refused::Parse(ParseError::WrongType(id)) => {
                Error::WrongKeyType(format!("the SubjectPublicKeyInfo holds {}", key_type_name(id)))
            }
            other => refused(other, "SubjectPublicKeyInfo"),
        })?;
        Ok(PublicKey { key })
    }

    /// The raw encapsulation key `ek` of parameter set `params` (pyca's
    /// `from_public_bytes`).
    ///
    /// # Errors
    /// [`Error::MalformedKey`] for a length other than
    /// [`Params::public_key_len`], [`Error::InvalidKey`].
    pub fn from_raw(params: Params, raw: &[u8]) -> Result<PublicKey, Error> {
        if raw.len() != params.public_key_len() {
            return Err(Error::MalformedKey(format!(
                "an {params} public key is {} bytes, not {}",
                params.public_key_len(),
                raw.len()
            )));
        }
        let key = EncapsulationKey::from_raw(params.kem(), raw).map_err(|e| refused(e, "public key"))?;
        Ok(PublicKey { key })
    }

    /// `self` if it is of parameter set `expected`.
    ///
    /// # Errors
    /// [`Error::WrongParams`].
    pub fn require_params(self, expected: Params) -> Result<PublicKey, Error> {
        let found = self.params();
        (found == expected)
            .then_some(self)
            .ok_or(Error::WrongParams { expected, found })
    }

    /// The parameter set.
    pub fn params(&self) -> Params {
        Params::of(self.key.kem())
    }

    /// The raw encapsulation key `ek` (pyca's `public_bytes_raw`).
    ///
    /// # Errors
    /// [`Error::Backend`] only.
    pub fn to_raw(&self) -> Result<Vec<u8>, Error> {
        Ok(self.key.raw()?)
    }

    /// SPKI DER.
    ///
    /// # Errors
    /// [`Error::Backend`] only.
    pub fn to_spki_der(&self) -> Result<Vec<u8>, Error> {
        Ok(self.key.spki_der()?)
    }

    /// SPKI PEM (`-----BEGIN PUBLIC KEY-----`), what `openssl pkey -pubout`
    /// and pyca write.
    ///
    /// # Errors
    /// [`Error::Backend`] only.
    pub fn to_spki_pem(&self) -> Result<String, Error> {
        Ok(pem::encode(SPKI_LABEL, &self.to_spki_der()?).expose().to_owned())
    }

    /// ML-KEM.Encaps: `(shared secret, ciphertext)`, in pyca's order.
    ///
    /// # Errors
    /// [`Error::Backend`] only.
    pub fn encapsulate(&self) -> Result<(SharedSecret, Vec<u8>), Error> {
        Ok(self.key.encapsulate()?)
    }
}

impl KemPrivateKey for PrivateKey {
    type Params = Params;
    type Public = PublicKey;
    type Error = Error;

    fn generate(params: Params) -> Result<Self, Error> {
        PrivateKey::generate(params)
    }

    fn from_bytes_with_password(
        bytes: &[u8],
        password: Option<&[u8]>,
        limits: &pkcs8::KdfLimits,
    ) -> Result<Self, Error> {
        PrivateKey::read(bytes, password, limits)
    }

    fn params(&self) -> Params {
        PrivateKey::params(self)
    }

    fn public_key(&self) -> &PublicKey {
        PrivateKey::public_key(self)
    }

    fn to_pkcs8_der(&self) -> Result<SecretBytes, Error> {
        PrivateKey::to_pkcs8_der(self)
    }

    fn to_pkcs8_pem(&self) -> Result<SecretString, Error> {
        PrivateKey::to_pkcs8_pem(self)
    }

    fn to_pkcs8_encrypted_der(&self, password: &[u8], options: &pkcs8::Options) -> Result<Vec<u8>, Error> {
        PrivateKey::to_pkcs8_encrypted_der(self, password, options)
    }

    fn to_pkcs8_encrypted_pem(&self, password: &[u8], options: &pkcs8::Options) -> Result<String, Error> {
        PrivateKey::to_pkcs8_encrypted_pem(self, password, options)
    }

    fn decapsulate(&self, ciphertext: &[u8]) -> Result<SharedSecret, Error> {
        PrivateKey::decapsulate(self, ciphertext)
    }
}

impl KemPublicKey for PublicKey {
    type Params = Params;
    type Error = Error;

    fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        PublicKey::from_bytes(bytes)
    }

    fn params(&self) -> Params {
        PublicKey::params(self)
    }

    fn to_spki_der(&self) -> Result<Vec<u8>, Error> {
        PublicKey::to_spki_der(self)
    }

    fn to_spki_pem(&self) -> Result<String, Error> {
        PublicKey::to_spki_pem(self)
    }

    fn encapsulate(&self) -> Result<(SharedSecret, Vec<u8>), Error> {
        PublicKey::encapsulate(self)
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod vectors;
