//! ECDSA on P-256 with SHA-256: keys, signing, and verification by the JCE
//! paper's split method, the joint method modern libraries use, and batches
//! across threads.
//!
//! Keys read and write PKCS#8, SEC1 and SPKI in PEM or DER; signatures are
//! DER (`Ecdsa-Sig-Value`, what `openssl dgst -sign` writes) or fixed-width
//! r‖s (IEEE P1363). Everything interoperates with `openssl pkey` and
//! `openssl dgst -sha256 -sign/-verify`.
//!
//! Signing is AWS-LC's `ECDSA_do_sign`: constant-time, with a *hedged* nonce
//! (random bytes mixed with the private key and the digest, so a weak RNG
//! alone does not leak the key; not the deterministic RFC 6979).
//!
//! Verification only touches public data and may be variable-time; the
//! functions say so in their names. [`VerifyStrategy`] picks the method:
//!
//! - `Joint`: u1·G + u2·Q in one multi-scalar multiplication (AWS-LC's
//!   `ECDSA_do_verify`, with a precomputed table for G). The fastest single
//!   verification.
//! - `Split`: the JCE paper's — u1·G and u2·Q as two multiplications, then
//!   one point addition; on two threads when the [`Parallelism`] is
//!   parallel, one after the other under [`Parallelism::sequential`] (the
//!   paper's sequential baseline: how many threads is the schedule's
//!   business, not the algorithm's).
//! - `Auto`: the fastest measured for one signature, which is `Joint`.
//!
//! Against a library that computes the two products separately the split
//! wins (the paper's ~1.7×); against a joint multiplication it loses, because
//! u2·Q alone costs nearly as much as the joint product. Where threads do pay
//! is many signatures at once: [`verify_batch_vartime`].
//!
//! # Examples
//! ```
//! use parcrypt::ecdsa::{self, BatchItem, PrivateKey, VerifyStrategy};
//! use parcrypt::keys::SigningKey;
//! use parcrypt::par::Parallelism;
//!
//! let key = PrivateKey::generate()?;
//! let sig = key.sign(b"hello")?;
//! let public = key.public_key();
//! public.verify_vartime(b"hello", &sig)?;
//! public.verify_with_vartime(b"hello", &sig, VerifyStrategy::Split, &Parallelism::default())?;
//!
//! let items = [BatchItem { key: public, message: b"hello", signature: &sig }];
//! assert_eq!(ecdsa::verify_batch_vartime(&items, &Parallelism::default()), vec![true]);
//! # Ok::<(), parcrypt::ecdsa::Error>(())
//! ```

use crate::digest::{self, Algorithm};
use crate::ffi::bn::{Bn, Ctx};
use crate::ffi::ec::{self, EcKey, Sig};
use crate::keys::{self, ErrorKind, Family, KeyError, SigningKey, Traditional, VerifyingKey};
use crate::name::UnknownName;
use crate::par::Parallelism;
use crate::secret::{SecretBytes, SecretString};

/// What can go wrong with ECDSA keys and signatures.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A key's encoding, password protection or type (the problems every
    /// family shares).
    #[error(transparent)]
    Key(#[from] crate::keys::KeyFileError),
    /// Not a DER (or, for the fixed form, 64-byte) signature.
    #[error("malformed signature")]
    MalformedSignature,
    /// The signature does not verify.
    #[error("signature verification failed")]
    BadSignature,
    /// The backend failed unexpectedly (out of memory).
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

/// How one signature is verified: which algorithm computes u1·G + u2·Q.
/// How many threads it may use is the [`Parallelism`] passed beside it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum VerifyStrategy {
    /// One joint multiplication u1·G + u2·Q (AWS-LC's own verification), on
    /// the calling thread whatever the `Parallelism`.
    Joint,
    /// u1·G and u2·Q as two multiplications, then an addition: on two
    /// threads when the `Parallelism` [is parallel](Parallelism::is_parallel),
    /// one after the other on the calling thread otherwise (with
    /// [`Parallelism::sequential`], the JCE paper's sequential baseline).
    Split,
    /// The method measured fastest for one signature, whatever the
    /// `Parallelism`. Today that is [`Joint`](VerifyStrategy::Joint): with
    /// AWS-LC's precomputed table for G, u2·Q alone costs nearly as much as
    /// the joint product (49 µs against 56 µs here), so splitting across two
    /// threads (64 µs with the hand-over) loses. `Auto` is kept apart from
    /// `Joint` so that a backend where the split wins can change the choice
    /// without changing callers.
    #[default]
    Auto,
}

impl std::str::FromStr for VerifyStrategy {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "joint" => Ok(VerifyStrategy::Joint),
            "split" => Ok(VerifyStrategy::Split),
            "auto" => Ok(VerifyStrategy::Auto),
            _ => Err(UnknownName::new("verify strategy", s, "joint, split or auto")),
        }
    }
}

/// P-256's names: SEC1 (`EC PRIVATE KEY`) beside PKCS#8; its public keys
/// are SPKI only.
const FAMILY: Family = Family {
    name: "P-256",
    traditional: Some(Traditional {
        name: "SEC1",
        private_label: "EC PRIVATE KEY",
        public_label: None,
    }),
};

impl KeyError for Error {
    const A_KEY: &'static str = "a P-256 key";

    fn kind(&self) -> ErrorKind {
        match self {
            Error::Key(e) => e.kind(),
            Error::MalformedSignature => ErrorKind::MalformedSignature,
            Error::BadSignature => ErrorKind::BadSignature,
            Error::Backend => ErrorKind::Other,
        }
    }
}

/// How a signature is written and read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SignatureFormat {
    /// DER `Ecdsa-Sig-Value`, what `openssl dgst -sign` writes.
    #[default]
    Der,
    /// Fixed-width r‖s, 64 bytes (IEEE P1363, JOSE).
    Fixed,
}

impl SignatureFormat {
    /// The name in messages: `DER`, `64-byte fixed-width`.
    pub fn name(self) -> &'static str {
        match self {
            SignatureFormat::Der => "DER",
            SignatureFormat::Fixed => "64-byte fixed-width",
        }
    }
}

/// How [`crate::keys`] signs and verifies with P-256: the
/// signature's bytes, and the verification method.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SignatureOptions {
    /// How the signature is written and read.
    pub format: SignatureFormat,
    /// How one signature is verified.
    pub strategy: VerifyStrategy,
}

/// An ECDSA P-256 signature: the integers r and s.
#[derive(Clone, PartialEq, Eq)]
pub struct Signature {
    r: Vec<u8>,
    s: Vec<u8>,
}

impl std::fmt::Debug for Signature {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Signature({})", hex_string(&self.to_der().unwrap_or_default()))
    }
}

fn hex_string(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

impl Signature {
    fn from_sig(sig: &Sig) -> Signature {
        Signature {
            r: sig.r.to_be_padded(sig.r.bits().div_ceil(8)).unwrap_or_default(),
            s: sig.s.to_be_padded(sig.s.bits().div_ceil(8)).unwrap_or_default(),
        }
    }

    fn to_sig(&self) -> Sig {
        Sig {
            r: Bn::from_be_bytes(&self.r),
            s: Bn::from_be_bytes(&self.s),
        }
    }

    /// Parses a strict DER `Ecdsa-Sig-Value` (what `openssl dgst -sign` writes).
    ///
    /// # Errors
    /// [`Error::MalformedSignature`] for anything but strict DER of two
    /// non-negative integers, including BER variants and trailing bytes.
    pub fn from_der(der: &[u8]) -> Result<Signature, Error> {
        Sig::from_der(der)
            .map(|s| Signature::from_sig(&s))
            .ok_or(Error::MalformedSignature)
    }

    /// The DER encoding.
    pub fn to_der(&self) -> Result<Vec<u8>, Error> {
        Ok(self.to_sig().to_der()?)
    }

    /// Parses the fixed-width form r‖s, 32 bytes each (IEEE P1363, JOSE).
    ///
    /// # Errors
    /// [`Error::MalformedSignature`] unless `bytes` is 64 bytes long.
    pub fn from_fixed(bytes: &[u8]) -> Result<Signature, Error> {
        if bytes.len() != 64 {
            return Err(Error::MalformedSignature);
        }
        let trim = |b: &[u8]| b[b.iter().position(|&x| x != 0).unwrap_or(b.len())..].to_vec();
        Ok(Signature {
            r: trim(&bytes[..32]),
            s: trim(&bytes[32..]),
        })
    }

    /// Parses `bytes` in `format`.
    ///
    /// # Errors
    /// [`Error::MalformedSignature`].
    pub fn from_bytes(bytes: &[u8], format: SignatureFormat) -> Result<Signature, Error> {
        match format {
            SignatureFormat::Der => Signature::from_der(bytes),
            SignatureFormat::Fixed => Signature::from_fixed(bytes),
        }
    }

    /// The signature in `format`.
    ///
    /// # Errors
    /// [`Error::Backend`] (out of memory, or r or s too long for the fixed
    /// form: never for a signature parcrypt made).
    pub fn to_bytes(&self, format: SignatureFormat) -> Result<Vec<u8>, Error> {
        match format {
            SignatureFormat::Der => self.to_der(),
            SignatureFormat::Fixed => self.to_fixed().map(|f| f.to_vec()).ok_or(Error::Backend),
        }
    }

    /// The fixed-width form r‖s, or `None` if r or s does not fit 32 bytes
    /// (never for a signature parcrypt made).
    pub fn to_fixed(&self) -> Option<[u8; 64]> {
        let mut out = [0u8; 64];
        if self.r.len() > 32 || self.s.len() > 32 {
            return None;
        }
        out[32 - self.r.len()..32].copy_from_slice(&self.r);
        out[64 - self.s.len()..].copy_from_slice(&self.s);
        Some(out)
    }
}

/// A P-256 private key. `Send + Sync`; the scalar is wiped on drop and never
/// shown by `Debug`.
pub struct PrivateKey {
    key: EcKey,
    public: PublicKey,
}

impl std::fmt::Debug for PrivateKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PrivateKey")
            .field("curve", &"P-256")
            .finish_non_exhaustive()
    }
}

/// A P-256 public key, parsed once (verification does not re-parse it).
#[derive(Debug)]
pub struct PublicKey {
    key: EcKey,
}

impl PrivateKey {
    fn from_ec(key: EcKey) -> Result<PrivateKey, Error> {
        if !key.has_private() {
            return Err(<Error as crate::keys::KeyError>::wrong_type(
                "a public key where a private key is needed".into(),
            ));
        }
        let public = PublicKey { key: key.public()? };
        Ok(PrivateKey { key, public })
    }

    /// A new random key.
    ///
    /// Unlike [`rsa::PrivateKey::generate`](crate::rsa::PrivateKey::generate)
    /// it takes no [`Parallelism`]: a P-256 key is one random scalar and one
    /// multiplication of the base point (tens of µs), with nothing to split
    /// across threads.
    pub fn generate() -> Result<PrivateKey, Error> {
        Self::from_ec(EcKey::generate()?)
    }

    /// A DER SEC1 `ECPrivateKey`.
    pub fn from_sec1_der(der: &[u8]) -> Result<PrivateKey, Error> {
        Self::from_ec(
            EcKey::from_sec1_der(der).map_err(|e| keys::parse_error::<Error>(e, "SEC1 private key"))?,
        )
    }

    /// SEC1 DER.
    pub fn to_sec1_der(&self) -> Result<SecretBytes, Error> {
        Ok(self.key.sec1_der()?)
    }

    /// SEC1 PEM (`-----BEGIN EC PRIVATE KEY-----`).
    pub fn to_sec1_pem(&self) -> Result<SecretString, Error> {
        self.to_traditional_pem()
    }

    /// Signs SHA-256(`msg`).
    pub fn sign(&self, msg: &[u8]) -> Result<Signature, Error> {
        self.sign_digest(&digest::digest(Algorithm::Sha256, msg))
    }

    /// Signs a digest computed by the caller (SHA-256 for interoperability
    /// with `openssl dgst -sha256`; longer digests are truncated to 256 bits
    /// as ECDSA specifies).
    pub fn sign_digest(&self, digest: &[u8]) -> Result<Signature, Error> {
        Ok(Signature::from_sig(&self.key.sign_digest(digest)?))
    }
}

impl PublicKey {
    /// A SEC1 point: `04‖x‖y` (65 bytes) or compressed (33 bytes). Points
    /// not on the curve are refused.
    pub fn from_sec1_point(bytes: &[u8]) -> Result<PublicKey, Error> {
        Ok(PublicKey {
            key: EcKey::from_point(bytes).map_err(|e| keys::parse_error::<Error>(e, "point"))?,
        })
    }

    /// The uncompressed point `04‖x‖y`.
    pub fn to_sec1_point(&self) -> Result<Vec<u8>, Error> {
        Ok(self.key.public_point()?)
    }

    /// Verifies a signature over SHA-256(`msg`) with [`VerifyStrategy::Auto`].
    ///
    /// # Errors
    /// [`Error::BadSignature`].
    pub fn verify_vartime(&self, msg: &[u8], sig: &Signature) -> Result<(), Error> {
        self.verify_digest_vartime(
            &digest::digest(Algorithm::Sha256, msg),
            sig,
            VerifyStrategy::Auto,
            &Parallelism::sequential(),
        )
    }

    /// Verifies a signature over SHA-256(`msg`) with the given strategy;
    /// `Split` uses up to two threads of `par`.
    ///
    /// # Errors
    /// [`Error::BadSignature`].
    pub fn verify_with_vartime(
        &self,
        msg: &[u8],
        sig: &Signature,
        strategy: VerifyStrategy,
        par: &Parallelism,
    ) -> Result<(), Error> {
        self.verify_digest_vartime(&digest::digest(Algorithm::Sha256, msg), sig, strategy, par)
    }

    /// Verifies a signature over a digest computed by the caller.
    ///
    /// # Errors
    /// [`Error::BadSignature`] (also for r or s outside 1..n−1); [`Error::Backend`].
    pub fn verify_digest_vartime(
        &self,
        digest: &[u8],
        sig: &Signature,
        strategy: VerifyStrategy,
        par: &Parallelism,
    ) -> Result<(), Error> {
        let sig = sig.to_sig();
        let ok = match strategy {
            VerifyStrategy::Joint | VerifyStrategy::Auto => self.key.verify_joint_vartime(digest, &sig),
            VerifyStrategy::Split => self.verify_split_vartime(digest, &sig, par)?,
        };
        ok.then_some(()).ok_or(Error::BadSignature)
    }

    /// u1·G and u2·Q as two multiplications (on two threads when `par`
    /// allows), then R = their sum, then x(R) mod n = r.
    fn verify_split_vartime(&self, digest: &[u8], sig: &Sig, par: &Parallelism) -> Result<bool, Error> {
        let n = ec::order();
        let mut ctx = Ctx::new();
        let Some((u1, u2)) = ec::verify_scalars_vartime(digest, sig, n, &mut ctx)? else {
            return Ok(false);
        };
        // The expensive product on the calling thread, which starts on u2·Q
        // at once while the helper wakes up (tens of µs on a VM) for the
        // cheap u1·G; each thread its own scratch context.
        let (q, g) = par.join(
            || self.key.mul_public_point(&u2, &mut Ctx::new()),
            || ec::mul_generator(&u1, &mut Ctx::new()),
        );
        Ok(ec::sum_x_matches(&g?, &q?, &sig.r, n, &mut ctx)?)
    }
}

/// One signature of a batch: the key, the signed message and the signature.
#[derive(Clone, Copy, Debug)]
pub struct BatchItem<'a> {
    /// The public key.
    pub key: &'a PublicKey,
    /// The message (hashed with SHA-256 as part of the verification).
    pub message: &'a [u8],
    /// The signature.
    pub signature: &'a Signature,
}

/// One pre-hashed signature of a batch (for messages hashed as they were read).
#[derive(Clone, Copy, Debug)]
pub struct DigestItem<'a> {
    /// The public key.
    pub key: &'a PublicKey,
    /// The message's SHA-256 digest.
    pub digest: &'a [u8],
    /// The signature.
    pub signature: &'a Signature,
}

/// Verifies many signatures across the threads of `par`, each with the joint
/// method; one result per item, in order (a failure never hides which).
///
/// # Performance
/// One item runs on the calling thread; from two items on, items are spread
/// over the threads (each verification is ~56 µs, far above the cost of
/// handing it to another thread).
pub fn verify_batch_vartime(items: &[BatchItem<'_>], par: &Parallelism) -> Vec<bool> {
    batch(items, par, |item| {
        let digest = digest::digest(Algorithm::Sha256, item.message);
        verify_one(item.key, &digest, item.signature)
    })
}

/// [`verify_batch_vartime`] for digests computed by the caller.
pub fn verify_batch_digests_vartime(items: &[DigestItem<'_>], par: &Parallelism) -> Vec<bool> {
    batch(items, par, |item| {
        verify_one(item.key, item.digest, item.signature)
    })
}

fn verify_one(key: &PublicKey, digest: &[u8], sig: &Signature) -> bool {
    key.verify_digest_vartime(digest, sig, VerifyStrategy::Joint, &Parallelism::sequential())
        .is_ok()
}

fn batch<T: Sync>(items: &[T], par: &Parallelism, verify: impl Fn(&T) -> bool + Sync) -> Vec<bool> {
    par.map_items(items, &keys::BATCH_GRAIN, verify)
}

impl SigningKey for PrivateKey {
    type Public = PublicKey;
    type Error = Error;
    type Params = ();
    type Options = SignatureOptions;
    const FAMILY: Family = FAMILY;

    /// A new random key: see the inherent [`PrivateKey::generate`] (no
    /// parameters, no threads).
    fn generate(_: &(), _: &Parallelism) -> Result<PrivateKey, Error> {
        PrivateKey::generate()
    }

    /// Parsed and checked by the backend; `par` is not needed.
    fn from_pkcs8_der(der: &[u8], _: &Parallelism) -> Result<PrivateKey, Error> {
        Self::from_ec(
            EcKey::from_pkcs8_der(der).map_err(|e| keys::parse_error::<Error>(e, "PKCS#8 private key"))?,
        )
    }

    fn from_traditional_der(der: &[u8], _: &Parallelism) -> Result<PrivateKey, Error> {
        Self::from_sec1_der(der)
    }

    fn to_pkcs8_der(&self) -> Result<SecretBytes, Error> {
        Ok(self.key.pkcs8_der()?)
    }

    fn to_traditional_der(&self) -> Result<SecretBytes, Error> {
        self.to_sec1_der()
    }

    fn public_key(&self) -> &PublicKey {
        &self.public
    }

    fn into_public_key(self) -> PublicKey {
        self.public
    }

    /// Signs a SHA-256 digest (see [`PrivateKey::sign_digest`]); the
    /// signature in `options.format`.
    fn sign_prehashed(
        &self,
        prehash: &[u8],
        options: &SignatureOptions,
        _: &Parallelism,
    ) -> Result<Vec<u8>, Error> {
        self.sign_digest(prehash)?.to_bytes(options.format)
    }
}

impl VerifyingKey for PublicKey {
    type Private = PrivateKey;
    type Error = Error;
    type Options = SignatureOptions;
    type Hasher = digest::Hasher;

    fn from_spki_der(der: &[u8]) -> Result<PublicKey, Error> {
        Ok(PublicKey {
            key: EcKey::from_spki_der(der)
                .map_err(|e| keys::parse_error::<Error>(e, "SubjectPublicKeyInfo"))?,
        })
    }

    fn to_spki_der(&self) -> Result<Vec<u8>, Error> {
        Ok(self.key.spki_der()?)
    }

    /// SHA-256, what `openssl dgst -sha256` signs.
    fn hasher(&self, _: &SignatureOptions) -> Result<digest::Hasher, Error> {
        Ok(Algorithm::Sha256.hasher())
    }

    /// Verifies with `options.strategy` (`Split` uses up to two threads of
    /// `par`) a signature in `options.format`.
    fn verify_prehashed(
        &self,
        prehash: &[u8],
        signature: &[u8],
        options: &SignatureOptions,
        par: &Parallelism,
    ) -> Result<(), Error> {
        let signature = Signature::from_bytes(signature, options.format)?;
        self.verify_digest_vartime(prehash, &signature, options.strategy, par)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::par::Strategy;

    #[test]
    fn keys_and_signatures_are_send_and_sync() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<PrivateKey>();
        assert_send_sync::<PublicKey>();
        assert_send_sync::<Signature>();
    }

    #[test]
    fn every_strategy_agrees_on_valid_and_invalid_signatures() {
        let key = PrivateKey::generate().unwrap();
        let public = key.public_key();
        for i in 0..20u8 {
            let msg = [i; 5];
            let sig = key.sign(&msg).unwrap();
            let mut bad = sig.to_fixed().unwrap();
            bad[40] ^= 1;
            let bad = Signature::from_fixed(&bad).unwrap();
            for strategy in [VerifyStrategy::Joint, VerifyStrategy::Split, VerifyStrategy::Auto] {
                for par in [
                    Parallelism::sequential(),
                    Parallelism::new(2, Strategy::Static),
                    Parallelism::new(3, Strategy::WorkStealing),
                ] {
                    assert!(
                        public.verify_with_vartime(&msg, &sig, strategy, &par).is_ok(),
                        "{strategy:?} {par:?}"
                    );
                    assert_eq!(
                        public.verify_with_vartime(&msg, &bad, strategy, &par),
                        Err(Error::BadSignature)
                    );
                    assert_eq!(
                        public.verify_with_vartime(b"other", &sig, strategy, &par),
                        Err(Error::BadSignature)
                    );
                }
            }
        }
    }
}
