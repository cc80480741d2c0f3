//! ML-DSA (FIPS 204): ML-DSA-44, ML-DSA-65 and ML-DSA-87 signatures through
//! AWS-LC, as pyca/cryptography 50's `mldsa` and OpenSSL 3.5 offer them:
//! keys from a random or given 32-byte seed ξ, hedged signing with a
//! context string (0–255 bytes), external μ (`sign_mu`/`verify_mu`, μ from
//! [`MuHasher`] over a streamed message), PKCS#8/SPKI in DER or PEM.
//!
//! Keys are a [`crate::keys`] family: [`PrivateKey`] is a
//! [`SigningKey`], [`PublicKey`] a [`VerifyingKey`], so the readers
//! (password-protected PKCS#8 too), the writers and the batches
//! (`sign_batch`, `verify_batch` on every core) are the ones RSA and ECDSA
//! use. The family's prehash is μ = SHAKE256(tr ‖ 0 ‖ |ctx| ‖ ctx ‖ M, 64)
//! (FIPS 204 §5.2 with tr = SHAKE256(pk, 64)), so a message of any size is
//! read once and signing it is external-μ signing: the signatures are those
//! of pure ML-DSA with the context, as every verifier checks them.
//!
//! Private keys are read in all three PKCS#8 forms OpenSSL 3.5 writes
//! (seed, expanded, both); they are written in the seed form, byte for byte
//! what pyca's `private_bytes(PEM, PKCS8, NoEncryption())` and `openssl
//! genpkey` write. A key read from the expanded form alone has no seed and
//! is written back in the expanded form.
//!
//! Signing is hedged (fresh randomness each time, as FIPS 204 recommends);
//! [`PrivateKey::sign_deterministic`] is FIPS 204's deterministic variant,
//! and [`PrivateKey::sign_internal`], [`PrivateKey::sign_mu_internal`] and
//! [`PublicKey::verify_internal`] are its internal functions with given
//! randomness, for known-answer tests (NIST ACVP, pyca's KATs, Wycheproof:
//! `tests/it/mldsa_kat.rs`, `tests/it/mldsa_wycheproof.rs`).
//!
//! One signature is fast and serial (a few hundred µs): parallelism here is
//! many signatures at once ([`SigningKey::sign_batch`],
//! [`VerifyingKey::verify_batch`]).
//!
//! # Examples
//! ```
//! use parcrypt::keys::{BatchItem, SigningKey, VerifyingKey};
//! use parcrypt::mldsa::{ParameterSet, PrivateKey, PublicKey, SignatureOptions};
//! use parcrypt::par::Parallelism;
//!
//! let key = PrivateKey::from_seed(ParameterSet::MlDsa65, &[7; 32])?;
//! let sig = key.sign(b"hello", b"my context")?;
//! key.public_key().verify(b"hello", &sig, b"my context")?;
//!
//! let options = SignatureOptions { context: b"my context".to_vec() };
//! let par = Parallelism::default();
//! let sigs = key.sign_batch(&[b"a", b"b"], &options, &par);
//! let items: Vec<_> = [&b"a"[..], b"b"]
//!     .iter()
//!     .zip(&sigs)
//!     .map(|(m, s)| BatchItem { key: key.public_key(), message: m, signature: s.as_ref().unwrap() })
//!     .collect();
//! assert!(PublicKey::verify_batch(&items, &options, &par).iter().all(Result::is_ok));
//! # Ok::<(), parcrypt::mldsa::Error>(())
//! ```

use crate::keys::KeyFileError;
use std::str::FromStr;

use crate::ffi::mldsa::{MU_LEN, MlDsaKey, RND_LEN, Set, Shake256};
use crate::keys::{self, ErrorKind, Family, KeyError, MessageHasher, SigningKey, VerifyingKey};
use crate::name::UnknownName;
use crate::par::Parallelism;
use crate::secret::{SecretBytes, SecretKey};

/// The longest context string (FIPS 204: its length is one byte).
pub const MAX_CONTEXT: usize = 255;
/// The seed ξ's length.
pub const SEED_LEN: usize = 32;
/// μ's length.
pub const MU_BYTES: usize = MU_LEN;
/// The signing randomness `rnd`'s length (FIPS 204: 256 bits).
pub const RND_BYTES: usize = RND_LEN;

/// What can go wrong with ML-DSA keys and signatures.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A key's encoding, password protection or type (the problems every
    /// family shares).
    #[error(transparent)]
    Key(#[from] crate::keys::KeyFileError),
    /// A seed that is not 32 bytes.
    #[error("an ML-DSA seed is {SEED_LEN} bytes, not {0}")]
    SeedLength(usize),
    /// A context string over 255 bytes.
    #[error("an ML-DSA context is at most {MAX_CONTEXT} bytes, not {0}")]
    ContextTooLong(usize),
    /// A μ that is not 64 bytes.
    #[error("μ is {MU_BYTES} bytes, not {0}")]
    MuLength(usize),
    /// A signature of the wrong length for the parameter set.
    #[error("an {set} signature is {want} bytes, not {got}")]
    MalformedSignature {
        /// The key's parameter set.
        set: ParameterSet,
        /// The length given.
        got: usize,
        /// The set's signature length.
        want: usize,
    },
    /// The signature does not verify.
    #[error("signature verification failed")]
    BadSignature,
    /// The key has no seed (it was read from the expanded form).
    #[error("the key was read without its seed, which cannot be recovered")]
    NoSeed,
    /// The backend failed unexpectedly.
    #[error("internal error in the crypto backend")]
    Backend,
}

impl From<crate::pkcs8::Error> for Error {
    fn from(e: crate::pkcs8::Error) -> Self {
        Error::Key(e.into())
    }
}

impl From<crate::ffi::BackendError> for Error {
    fn from(_: crate::ffi::BackendError) -> Self {
        Error::Backend
    }
}

impl KeyError for Error {
    const A_KEY: &'static str = "an ML-DSA key";

    fn kind(&self) -> ErrorKind {
        match self {
            Error::Key(e) => e.kind(),
            Error::SeedLength(_) | Error::ContextTooLong(_) | Error::MuLength(_) | Error::NoSeed => {
                ErrorKind::InvalidInput
            }
            Error::MalformedSignature { .. } => ErrorKind::MalformedSignature,
            Error::BadSignature => ErrorKind::BadSignature,
            Error::Backend => ErrorKind::Other,
        }
    }
}

/// An ML-DSA parameter set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ParameterSet {
    /// ML-DSA-44 (NIST category 2).
    MlDsa44,
    /// ML-DSA-65 (category 3).
    MlDsa65,
    /// ML-DSA-87 (category 5).
    MlDsa87,
}

impl ParameterSet {
    /// Every set, smallest first.
    pub const ALL: [ParameterSet; 3] = [
        ParameterSet::MlDsa44,
        ParameterSet::MlDsa65,
        ParameterSet::MlDsa87,
    ];

    /// The name as FIPS 204, OpenSSL 3.5 and the JDK spell it: `ML-DSA-65`.
    pub fn name(self) -> &'static str {
        match self {
            ParameterSet::MlDsa44 => "ML-DSA-44",
            ParameterSet::MlDsa65 => "ML-DSA-65",
            ParameterSet::MlDsa87 => "ML-DSA-87",
        }
    }

    /// The public key's length in bytes.
    pub fn public_key_len(self) -> usize {
        match self {
            ParameterSet::MlDsa44 => 1312,
            ParameterSet::MlDsa65 => 1952,
            ParameterSet::MlDsa87 => 2592,
        }
    }

    /// The expanded private key's length in bytes.
    pub fn expanded_key_len(self) -> usize {
        match self {
            ParameterSet::MlDsa44 => 2560,
            ParameterSet::MlDsa65 => 4032,
            ParameterSet::MlDsa87 => 4896,
        }
    }

    /// A signature's length in bytes.
    pub fn signature_len(self) -> usize {
        match self {
            ParameterSet::MlDsa44 => 2420,
            ParameterSet::MlDsa65 => 3309,
            ParameterSet::MlDsa87 => 4627,
        }
    }

    fn set(self) -> Set {
        match self {
            ParameterSet::MlDsa44 => Set::MlDsa44,
            ParameterSet::MlDsa65 => Set::MlDsa65,
            ParameterSet::MlDsa87 => Set::MlDsa87,
        }
    }

    fn of(set: Set) -> ParameterSet {
        match set {
            Set::MlDsa44 => ParameterSet::MlDsa44,
            Set::MlDsa65 => ParameterSet::MlDsa65,
            Set::MlDsa87 => ParameterSet::MlDsa87,
        }
    }

    /// The last arc of the set's OID (2.16.840.1.101.3.4.3.17–19).
    fn oid_arc(self) -> u8 {
        match self {
            ParameterSet::MlDsa44 => 17,
            ParameterSet::MlDsa65 => 18,
            ParameterSet::MlDsa87 => 19,
        }
    }
}

impl std::fmt::Display for ParameterSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ParameterSet {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ParameterSet::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| UnknownName::new("ML-DSA parameter set", s, "ML-DSA-44, ML-DSA-65 or ML-DSA-87"))
    }
}

/// How [`crate::keys`] signs and verifies with ML-DSA: the context
/// string (empty by default, as pyca's `context=None`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SignatureOptions {
    /// The context string, 0–255 bytes.
    pub context: Vec<u8>,
}

fn check_context(context: &[u8]) -> Result<(), Error> {
    if context.len() > MAX_CONTEXT {
        return Err(Error::ContextTooLong(context.len()));
    }
    Ok(())
}

fn parse_error(e: crate::ffi::der::ParseError, what: &str) -> Error {
    keys::parse_error::<Error>(e, what)
}

/// An ML-DSA private key. `Send + Sync`; its secrets live in AWS-LC's key
/// object, cleansed when dropped; `Debug` shows only the parameter set.
pub struct PrivateKey {
    key: MlDsaKey,
    public: PublicKey,
}

impl std::fmt::Debug for PrivateKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PrivateKey")
            .field("set", &self.parameter_set())
            .finish_non_exhaustive()
    }
}

/// tr = H(pk)'s length (FIPS 204: 512 bits).
const TR_LEN: usize = 64;
/// Where tr lies in the expanded private key (`skEncode`: ρ ‖ K ‖ tr ‖ …).
const SK_TR: std::ops::Range<usize> = 64..64 + TR_LEN;

/// An ML-DSA public key, parsed once (with its hash tr for μ). A clone
/// shares the parsed key (no parsing, no hashing).
#[derive(Clone)]
pub struct PublicKey {
    key: MlDsaKey,
    raw: Vec<u8>,
    tr: [u8; TR_LEN],
}

impl std::fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PublicKey")
            .field("set", &self.parameter_set())
            .finish_non_exhaustive()
    }
}

impl PartialEq for PublicKey {
    fn eq(&self, other: &Self) -> bool {
        self.key.set() == other.key.set() && self.raw == other.raw
    }
}

impl Eq for PublicKey {}

impl PublicKey {
    fn new(key: MlDsaKey) -> Result<PublicKey, Error> {
        let raw = key.public_raw()?;
        let mut tr = [0u8; TR_LEN];
        let mut shake = Shake256::new()?;
        shake.update(&raw);
        shake.finish(&mut tr)?;
        Ok(PublicKey { key, raw, tr })
    }

    /// A public key from its raw encoding (pyca's `from_public_bytes`).
    ///
    /// # Errors
    /// [`crate::keys::KeyFileError::Malformed`] for bytes of the wrong length.
    pub fn from_raw(set: ParameterSet, bytes: &[u8]) -> Result<PublicKey, Error> {
        if bytes.len() != set.public_key_len() {
            return Err(Error::Key(KeyFileError::Malformed(format!(
                "an {set} public key is {} bytes, not {}",
                set.public_key_len(),
                bytes.len()
            ))));
        }
        let key = MlDsaKey::from_public(set.set(), bytes)
            .ok_or_else(|| Error::Key(KeyFileError::Malformed(format!("not an {set} public key"))))?;
        Self::new(key)
    }

    /// The raw encoding (pyca's `public_bytes_raw`).
    pub fn to_raw(&self) -> &[u8] {
        &self.raw
    }

    /// The parameter set.
    pub fn parameter_set(&self) -> ParameterSet {
        ParameterSet::of(self.key.set())
    }

    fn check_signature(&self, signature: &[u8]) -> Result<(), Error> {
        let set = self.parameter_set();
        if signature.len() != set.signature_len() {
            return Err(Error::MalformedSignature {
                set,
                got: signature.len(),
                want: set.signature_len(),
            });
        }
        Ok(())
    }

    /// ML-DSA.Verify of `signature` over `message` with `context`.
    ///
    /// # Errors
    /// [`Error::ContextTooLong`], [`Error::MalformedSignature`] (wrong
    /// length), [`Error::BadSignature`].
    pub fn verify(&self, message: &[u8], signature: &[u8], context: &[u8]) -> Result<(), Error> {
        check_context(context)?;
        self.check_signature(signature)?;
        self.key
            .verify(message, context, signature)?
            .then_some(())
            .ok_or(Error::BadSignature)
    }

    /// Verifies `signature` over an external μ (from [`Self::mu_hasher`]).
    ///
    /// # Errors
    /// [`Error::MuLength`], [`Error::MalformedSignature`], [`Error::BadSignature`].
    pub fn verify_mu(&self, mu: &[u8], signature: &[u8]) -> Result<(), Error> {
        let mu: &[u8; MU_LEN] = mu.try_into().map_err(|_| Error::MuLength(mu.len()))?;
        self.check_signature(signature)?;
        self.key
            .verify_mu(mu, signature)?
            .then_some(())
            .ok_or(Error::BadSignature)
    }

    /// ML-DSA.Verify_internal (FIPS 204 Algorithm 8): verifies `signature`
    /// over `message` as given (M′, with no domain separator or context).
    /// For test vectors (NIST ACVP's internal interface) and protocols that
    /// build M′ themselves; use [`PublicKey::verify`] otherwise.
    ///
    /// # Errors
    /// As [`PublicKey::verify_mu`].
    pub fn verify_internal(&self, message: &[u8], signature: &[u8]) -> Result<(), Error> {
        let mut h = MuHasher::internal(&self.tr)?;
        h.update(message);
        self.verify_mu(&h.finish()?, signature)
    }

    /// A hasher computing μ for a message signed with this key under `context`.
    ///
    /// # Errors
    /// [`Error::ContextTooLong`].
    pub fn mu_hasher(&self, context: &[u8]) -> Result<MuHasher, Error> {
        MuHasher::new(&self.tr, context)
    }
}

/// μ = SHAKE256(tr ‖ 0 ‖ |ctx| ‖ ctx ‖ M, 64) over a message given in
/// pieces (pyca's `MLDSAMuHasher`): FIPS 204's external μ, for messages
/// too large to hold or hashed where they are.
pub struct MuHasher {
    shake: Shake256,
}

impl std::fmt::Debug for MuHasher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("MuHasher")
    }
}

impl MuHasher {
    fn new(tr: &[u8; TR_LEN], context: &[u8]) -> Result<MuHasher, Error> {
        check_context(context)?;
        let mut h = MuHasher::internal(tr)?;
        // M′ = 0 ‖ |ctx| ‖ ctx ‖ M (pure ML-DSA, FIPS 204 Algorithm 2);
        // |ctx| ≤ 255 was checked.
        h.update(&[0, context.len() as u8]);
        h.update(context);
        Ok(h)
    }

    /// μ = SHAKE256(tr ‖ M′, 64) for an M′ the caller gives whole
    /// (Sign_internal and Verify_internal).
    fn internal(tr: &[u8; TR_LEN]) -> Result<MuHasher, Error> {
        let mut shake = Shake256::new()?;
        shake.update(tr);
        Ok(MuHasher { shake })
    }

    /// A copy of the hasher as it is now (pyca's `MLDSAMuHasher.copy`):
    /// both go on independently.
    ///
    /// # Errors
    /// [`Error::Backend`].
    pub fn try_clone(&self) -> Result<MuHasher, Error> {
        Ok(MuHasher {
            shake: self.shake.try_clone()?,
        })
    }

    /// Adds message bytes.
    pub fn update(&mut self, data: &[u8]) {
        self.shake.update(data);
    }

    /// μ.
    ///
    /// # Errors
    /// [`Error::Backend`].
    pub fn finish(self) -> Result<[u8; MU_BYTES], Error> {
        let mut mu = [0u8; MU_BYTES];
        self.shake.finish(&mut mu)?;
        Ok(mu)
    }
}

impl MessageHasher for MuHasher {
    fn update(&mut self, data: &[u8]) {
        MuHasher::update(self, data);
    }

    fn finish(self) -> Vec<u8> {
        // A SHAKE context that absorbed cannot fail to squeeze; an empty μ
        // (never seen) fails the length check of the signing or verifying.
        MuHasher::finish(self).map(|mu| mu.to_vec()).unwrap_or_default()
    }
}

impl PrivateKey {
    fn from_key(key: MlDsaKey) -> Result<PrivateKey, Error> {
        let Some(expanded) = key.expanded() else {
            return Err(<Error as crate::keys::KeyError>::wrong_type(
                "a public key where a private key is needed".into(),
            ));
        };
        // tr = H(pk) is in the expanded key, and AWS-LC either computed it
        // (from a seed) or checked it against H(pk) when it took the key
        // (mldsa-native's pk_from_sk): it is not hashed again here.
        let tr = expanded
            .expose()
            .get(SK_TR)
            .and_then(|t| t.try_into().ok())
            .ok_or(Error::Backend)?;
        let raw = key.public_raw()?;
        let public = MlDsaKey::from_public(key.set(), &raw).ok_or(Error::Backend)?;
        Ok(PrivateKey {
            key,
            public: PublicKey { key: public, raw, tr },
        })
    }

    /// A new key from a random seed ξ (the OS RNG through AWS-LC).
    ///
    /// # Errors
    /// [`Error::Backend`].
    pub fn generate(set: ParameterSet) -> Result<PrivateKey, Error> {
        let seed = SecretKey::<SEED_LEN>::generate(|s| aws_lc_rs::rand::fill(s).map_err(|_| Error::Backend))?;
        Self::from_seed(set, seed.expose())
    }

    /// ML-DSA.KeyGen_internal(ξ): the key pair of a 32-byte seed (pyca's
    /// `from_seed_bytes`, OpenSSL's seed-form PKCS#8).
    ///
    /// # Errors
    /// [`Error::SeedLength`] unless `seed` is 32 bytes.
    pub fn from_seed(set: ParameterSet, seed: &[u8]) -> Result<PrivateKey, Error> {
        let seed: &[u8; SEED_LEN] = seed.try_into().map_err(|_| Error::SeedLength(seed.len()))?;
        Self::from_key(MlDsaKey::from_seed(set.set(), seed)?)
    }

    /// A key from its expanded private key (FIPS 204 `skEncode`). Such a
    /// key has no seed: it is written back in PKCS#8's expanded form.
    ///
    /// # Errors
    /// [`crate::keys::KeyFileError::Malformed`] for bytes of the wrong length or refused.
    pub fn from_expanded(set: ParameterSet, expanded: &[u8]) -> Result<PrivateKey, Error> {
        if expanded.len() != set.expanded_key_len() {
            return Err(Error::Key(KeyFileError::Malformed(format!(
                "an {set} expanded private key is {} bytes, not {}",
                set.expanded_key_len(),
                expanded.len()
            ))));
        }
        let key = MlDsaKey::from_expanded(set.set(), expanded).ok_or_else(|| {
            Error::Key(KeyFileError::Malformed(format!(
                "not an {set} expanded private key"
            )))
        })?;
        Self::from_key(key)
    }

    /// The parameter set.
    pub fn parameter_set(&self) -> ParameterSet {
        ParameterSet::of(self.key.set())
    }

    /// The 32-byte seed ξ (pyca's `private_bytes_raw`).
    ///
    /// # Errors
    /// [`Error::NoSeed`] for a key read from the expanded form alone.
    pub fn to_seed(&self) -> Result<SecretBytes, Error> {
        self.key.seed().ok_or(Error::NoSeed)
    }

    /// The expanded private key (FIPS 204 `skEncode`).
    ///
    /// # Errors
    /// [`Error::Backend`].
    pub fn to_expanded(&self) -> Result<SecretBytes, Error> {
        self.key.expanded().ok_or(Error::Backend)
    }

    /// ML-DSA.Sign (hedged) of `message` with `context` (pyca's
    /// `sign(data, context)`; an empty context is pyca's `None`).
    ///
    /// # Errors
    /// [`Error::ContextTooLong`]; [`Error::Backend`].
    pub fn sign(&self, message: &[u8], context: &[u8]) -> Result<Vec<u8>, Error> {
        check_context(context)?;
        let mut sig = vec![0u8; self.parameter_set().signature_len()];
        self.key.sign(message, context, &mut sig)?;
        Ok(sig)
    }

    /// Signs an external μ (hedged; pyca's `sign_mu`).
    ///
    /// # Errors
    /// [`Error::MuLength`] unless `mu` is 64 bytes; [`Error::Backend`].
    pub fn sign_mu(&self, mu: &[u8]) -> Result<Vec<u8>, Error> {
        let mu: &[u8; MU_LEN] = mu.try_into().map_err(|_| Error::MuLength(mu.len()))?;
        let mut sig = vec![0u8; self.parameter_set().signature_len()];
        self.key.sign_mu(mu, &mut sig)?;
        Ok(sig)
    }

    /// ML-DSA.Sign in FIPS 204's deterministic variant (`rnd` all zero,
    /// §3.4): the same message and context always give the same signature,
    /// the one NIST's and pyca's deterministic known answers list. For
    /// reproducible output and tests; prefer the hedged [`PrivateKey::sign`]
    /// (FIPS 204 recommends it against fault and side-channel attacks).
    ///
    /// # Errors
    /// [`Error::ContextTooLong`]; [`Error::Backend`].
    pub fn sign_deterministic(&self, message: &[u8], context: &[u8]) -> Result<Vec<u8>, Error> {
        let mut h = self.public.mu_hasher(context)?;
        h.update(message);
        self.sign_mu_internal(&h.finish()?, &[0; RND_BYTES])
    }

    /// ML-DSA.Sign_internal (FIPS 204 Algorithm 7): signs `message` as
    /// given (M′, with no domain separator or context) with the given
    /// randomness `rnd`. For test vectors (NIST ACVP's internal interface)
    /// and protocols that build M′ themselves; use [`PrivateKey::sign`]
    /// otherwise.
    ///
    /// # Errors
    /// [`Error::Backend`].
    pub fn sign_internal(&self, message: &[u8], rnd: &[u8; RND_BYTES]) -> Result<Vec<u8>, Error> {
        let mut h = MuHasher::internal(&self.public.tr)?;
        h.update(message);
        self.sign_mu_internal(&h.finish()?, rnd)
    }

    /// Signs an external μ with the given randomness `rnd` (FIPS 204
    /// Algorithm 7 from μ on; all-zero `rnd` is the deterministic variant).
    /// For test vectors; use [`PrivateKey::sign_mu`] otherwise.
    ///
    /// # Errors
    /// [`Error::MuLength`] unless `mu` is 64 bytes; [`Error::Backend`].
    pub fn sign_mu_internal(&self, mu: &[u8], rnd: &[u8; RND_BYTES]) -> Result<Vec<u8>, Error> {
        let mu: &[u8; MU_LEN] = mu.try_into().map_err(|_| Error::MuLength(mu.len()))?;
        let mut sig = vec![0u8; self.parameter_set().signature_len()];
        self.key.sign_mu_with(mu, rnd, &mut sig)?;
        Ok(sig)
    }

    /// PKCS#8 in RFC 9881's expanded form (`OCTET STRING expandedKey`),
    /// for a key without its seed.
    fn expanded_pkcs8(&self) -> Result<SecretBytes, Error> {
        let expanded = self.to_expanded()?;
        let set = self.parameter_set();
        let mut inner = der_header(0x04, expanded.len());
        inner.extend_from_slice(expanded.expose());
        let inner = SecretBytes::new(inner);
        let mut body = vec![0x02, 0x01, 0x00, 0x30, 0x0b, 0x06, 0x09];
        body.extend_from_slice(&[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, set.oid_arc()]);
        body.extend(der_header(0x04, inner.len()));
        body.extend_from_slice(inner.expose());
        let body = SecretBytes::new(body);
        let mut out = der_header(0x30, body.len());
        out.extend_from_slice(body.expose());
        Ok(SecretBytes::new(out))
    }
}

/// A DER tag and definite length.
fn der_header(tag: u8, len: usize) -> Vec<u8> {
    let mut out = vec![tag];
    if len < 0x80 {
        out.push(len as u8);
    } else {
        let bytes: Vec<u8> = len.to_be_bytes().into_iter().skip_while(|&b| b == 0).collect();
        out.push(0x80 | bytes.len() as u8);
        out.extend(bytes);
    }
    out
}

const FAMILY: Family = Family {
    name: "ML-DSA",
    traditional: None,
};

impl SigningKey for PrivateKey {
    type Public = PublicKey;
    type Error = Error;
    type Params = ParameterSet;
    type Options = SignatureOptions;
    const FAMILY: Family = FAMILY;

    /// A new random key of `set`: see [`PrivateKey::generate`].
    fn generate(set: &ParameterSet, _: &Parallelism) -> Result<PrivateKey, Error> {
        PrivateKey::generate(*set)
    }

    /// Any of the three forms: seed, expanded, or both (checked to agree);
    /// expanding a seed is sequential work, so `par` is not needed.
    fn from_pkcs8_der(der: &[u8], _: &Parallelism) -> Result<PrivateKey, Error> {
        Self::from_key(MlDsaKey::from_pkcs8_der(der).map_err(|e| parse_error(e, "PKCS#8 private key"))?)
    }

    /// The seed form (the expanded form for a key read without its seed).
    fn to_pkcs8_der(&self) -> Result<SecretBytes, Error> {
        if self.key.seed().is_some() {
            Ok(self.key.pkcs8_der()?)
        } else {
            self.expanded_pkcs8()
        }
    }

    fn public_key(&self) -> &PublicKey {
        &self.public
    }

    fn into_public_key(self) -> PublicKey {
        self.public
    }

    /// Signs μ (the prehash [`PublicKey::mu_hasher`] made).
    fn sign_prehashed(
        &self,
        prehash: &[u8],
        _: &SignatureOptions,
        _: &Parallelism,
    ) -> Result<Vec<u8>, Error> {
        self.sign_mu(prehash)
    }
}

impl VerifyingKey for PublicKey {
    type Private = PrivateKey;
    type Error = Error;
    type Options = SignatureOptions;
    type Hasher = MuHasher;

    fn from_spki_der(der: &[u8]) -> Result<PublicKey, Error> {
        Self::new(MlDsaKey::from_spki_der(der).map_err(|e| parse_error(e, "SubjectPublicKeyInfo"))?)
    }

    fn to_spki_der(&self) -> Result<Vec<u8>, Error> {
        Ok(self.key.spki_der()?)
    }

    /// μ's hasher under `options.context`.
    fn hasher(&self, options: &SignatureOptions) -> Result<MuHasher, Error> {
        self.mu_hasher(&options.context)
    }

    fn verify_prehashed(
        &self,
        prehash: &[u8],
        signature: &[u8],
        _: &SignatureOptions,
        _: &Parallelism,
    ) -> Result<(), Error> {
        self.verify_mu(prehash, signature)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn keys_are_send_and_sync() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<PrivateKey>();
        assert_send_sync::<PublicKey>();
    }

    #[test]
    fn pure_and_external_mu_signatures_are_the_same_scheme() {
        for set in ParameterSet::ALL {
            let key = PrivateKey::from_seed(set, &[3; 32]).unwrap();
            let public = key.public_key();
            let sig = key.sign(b"message", b"ctx").unwrap();
            let mut h = public.mu_hasher(b"ctx").unwrap();
            h.update(b"mes");
            h.update(b"sage");
            let mu = h.finish().unwrap();
            public.verify_mu(&mu, &sig).unwrap();
            let sig_mu = key.sign_mu(&mu).unwrap();
            public.verify(b"message", &sig_mu, b"ctx").unwrap();
            assert_eq!(
                public.verify(b"message", &sig_mu, b"other"),
                Err(Error::BadSignature)
            );
            assert_eq!(public.verify(b"message", &sig_mu, b""), Err(Error::BadSignature));
        }
    }

    #[test]
    fn a_private_keys_tr_is_the_hash_of_its_public_key() {
        for set in ParameterSet::ALL {
            let key = PrivateKey::from_seed(set, &[6; 32]).unwrap();
            let expanded = PrivateKey::from_expanded(set, key.to_expanded().unwrap().expose()).unwrap();
            let read = PublicKey::from_raw(set, key.public_key().to_raw()).unwrap();
            assert_eq!(key.public_key().tr, read.tr, "{set}");
            assert_eq!(expanded.public_key().tr, read.tr, "{set}");
        }
        // An expanded key whose tr is not H(pk) is refused (AWS-LC checks it).
        let key = PrivateKey::from_seed(ParameterSet::MlDsa44, &[6; 32]).unwrap();
        let mut bad = key.to_expanded().unwrap().expose().to_vec();
        bad[SK_TR.start] ^= 1;
        assert!(PrivateKey::from_expanded(ParameterSet::MlDsa44, &bad).is_err());
    }

    #[test]
    fn a_cloned_public_key_outlives_its_private_key() {
        for set in ParameterSet::ALL {
            let key = PrivateKey::from_seed(set, &[5; 32]).unwrap();
            let public = key.public_key().clone();
            let sig = key.sign(b"m", b"ctx").unwrap();
            assert_eq!(&public, key.public_key());
            drop(key);
            public.verify(b"m", &sig, b"ctx").unwrap();
            assert_eq!(public.verify(b"n", &sig, b"ctx"), Err(Error::BadSignature));
        }
    }

    #[test]
    fn the_expanded_form_round_trips_without_a_seed() {
        let key = PrivateKey::from_seed(ParameterSet::MlDsa44, &[9; 32]).unwrap();
        let expanded =
            PrivateKey::from_expanded(ParameterSet::MlDsa44, key.to_expanded().unwrap().expose()).unwrap();
        assert_eq!(expanded.public_key(), key.public_key());
        assert_eq!(expanded.to_seed(), Err(Error::NoSeed));
        let der = expanded.to_pkcs8_der().unwrap();
        let again = PrivateKey::from_pkcs8_der(der.expose(), &Parallelism::sequential()).unwrap();
        assert_eq!(again.public_key(), key.public_key());
        let sig = again.sign(b"m", b"").unwrap();
        key.public_key().verify(b"m", &sig, b"").unwrap();
    }
}
