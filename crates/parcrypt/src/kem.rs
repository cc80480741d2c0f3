//! The key-encapsulation family: what every KEM's keys answer, so that a
//! surface (the CLI's `keygen`/`pubkey`/`encap`/`decap`, a binding's
//! loaders) is written once over it and a new KEM adds only its algorithm.
//!
//! [`crate::mlkem`] implements it (ML-KEM-512/768/1024). The signature key
//! family is a separate shape: a KEM has no sign/verify, and a signature
//! key no encapsulation.
//!
//! Shared secrets are [`SecretKey<32>`]: every KEM parcrypt has (ML-KEM)
//! or is likely to add (X-Wing, the HPKE DHKEMs over X25519 and P-256)
//! agrees on 32 bytes; a KEM with another length would make it an
//! associated type.
//!
//! # Examples
//! Written once over the family, used with ML-KEM:
//! ```
//! use parcrypt::kem::{KemPrivateKey, KemPublicKey};
//! use parcrypt::mlkem;
//!
//! fn round_trip<K: KemPrivateKey>(params: &str) -> Result<bool, K::Error> {
//!     let params = params.parse().expect("a parameter set");
//!     let key = K::generate(params)?;
//!     let public = K::Public::from_bytes(key.public_key().to_spki_pem()?.as_bytes())?;
//!     let (secret, ciphertext) = public.encapsulate()?;
//!     Ok(key.decapsulate(&ciphertext)? == secret)
//! }
//! assert!(round_trip::<mlkem::PrivateKey>("ML-KEM-768")?);
//! # Ok::<(), mlkem::Error>(())
//! ```

use std::fmt::Display;
use std::str::FromStr;

use crate::name::UnknownName;
use crate::pkcs8;
use crate::secret::{SecretBytes, SecretKey, SecretString};

/// A KEM's shared secret.
pub type SharedSecret = SecretKey<32>;

/// A KEM's decapsulation (private) key: made, read and written, and
/// decapsulating.
pub trait KemPrivateKey: Sized + Send + Sync {
    /// The family's parameter sets, named as OpenSSL spells them
    /// (`ML-KEM-768`).
    type Params: Copy + Display + FromStr<Err = UnknownName>;
    /// The matching encapsulation (public) key.
    type Public: KemPublicKey<Params = Self::Params, Error = Self::Error>;
    /// The family's one error type.
    type Error: std::error::Error + Send + Sync + 'static;

    /// A new random key pair.
    ///
    /// # Errors
    /// The backend's failure only.
    fn generate(params: Self::Params) -> Result<Self, Self::Error>;

    /// A private key from PEM or DER PKCS#8 (also password-protected
    /// PKCS#8, with `password`; a password given for a plain key is
    /// ignored, as OpenSSL ignores `-passin`), its key derivation costing
    /// at most `limits`.
    ///
    /// # Errors
    /// A malformed or invalid key, a key of another family, a
    /// password-protected key without a (right) password or asking for
    /// more than `limits`.
    fn from_bytes_with_password(
        bytes: &[u8],
        password: Option<&[u8]>,
        limits: &crate::pkcs8::KdfLimits,
    ) -> Result<Self, Self::Error>;

    /// The parameter set.
    fn params(&self) -> Self::Params;

    /// The encapsulation key.
    fn public_key(&self) -> &Self::Public;

    /// PKCS#8 DER, in the form the family's peers write.
    ///
    /// # Errors
    /// The backend's failure only.
    fn to_pkcs8_der(&self) -> Result<SecretBytes, Self::Error>;

    /// PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`).
    ///
    /// # Errors
    /// The backend's failure only.
    fn to_pkcs8_pem(&self) -> Result<SecretString, Self::Error>;

    /// Password-protected PKCS#8 DER (`EncryptedPrivateKeyInfo`),
    /// encrypted as `options` say.
    ///
    /// # Errors
    /// Options beyond the readers' limits.
    fn to_pkcs8_encrypted_der(
        &self,
        password: &[u8],
        options: &pkcs8::Options,
    ) -> Result<Vec<u8>, Self::Error>;

    /// Password-protected PKCS#8 PEM (`-----BEGIN ENCRYPTED PRIVATE
    /// KEY-----`), encrypted as `options` say.
    ///
    /// # Errors
    /// Options beyond the readers' limits.
    fn to_pkcs8_encrypted_pem(
        &self,
        password: &[u8],
        options: &pkcs8::Options,
    ) -> Result<String, Self::Error>;

    /// The shared secret of `ciphertext`. A ciphertext of the right length
    /// that was not made for this key gives a pseudorandom secret, not an
    /// error (implicit rejection, where the KEM has it).
    ///
    /// # Errors
    /// A ciphertext of the wrong length.
    fn decapsulate(&self, ciphertext: &[u8]) -> Result<SharedSecret, Self::Error>;
}

/// A KEM's encapsulation (public) key.
pub trait KemPublicKey: Sized + Send + Sync {
    /// As [`KemPrivateKey::Params`].
    type Params: Copy + Display + FromStr<Err = UnknownName>;
    /// As [`KemPrivateKey::Error`].
    type Error: std::error::Error + Send + Sync + 'static;

    /// A public key from PEM or DER SPKI, or the public half of a
    /// (not password-protected) private key.
    ///
    /// # Errors
    /// A malformed or invalid key, a key of another family.
    fn from_bytes(bytes: &[u8]) -> Result<Self, Self::Error>;

    /// The parameter set.
    fn params(&self) -> Self::Params;

    /// SPKI DER.
    ///
    /// # Errors
    /// The backend's failure only.
    fn to_spki_der(&self) -> Result<Vec<u8>, Self::Error>;

    /// SPKI PEM (`-----BEGIN PUBLIC KEY-----`).
    ///
    /// # Errors
    /// The backend's failure only.
    fn to_spki_pem(&self) -> Result<String, Self::Error>;

    /// `(shared secret, ciphertext)` for this key, with fresh randomness.
    ///
    /// # Errors
    /// The backend's failure only.
    fn encapsulate(&self) -> Result<(SharedSecret, Vec<u8>), Self::Error>;
}
