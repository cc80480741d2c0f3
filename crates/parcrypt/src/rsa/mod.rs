//! RSA on several cores: key generation that races prime candidates across
//! threads, a private operation whose two CRT halves run on two threads,
//! RSASSA-PSS / PKCS#1 v1.5 signatures and RSAES-OAEP encryption. The
//! research paper's chunked bulk encryption is study-only and lives in
//! [`crate::hazmat`] ([`rsa_bulk_encrypt`](crate::hazmat::rsa_bulk_encrypt)).
//!
//! Keys read and write PKCS#8, PKCS#1 and SPKI in PEM or DER, interoperable
//! with `openssl pkey` / `openssl rsa`.
//!
//! The big-number work comes from AWS-LC: each CRT half is
//! `BN_mod_exp_mont_consttime`, the recombination and blinding use its
//! constant-time Montgomery functions, padding is AWS-LC's. parcrypt runs the
//! halves on two threads, blinds the input, and checks every result with the
//! public exponent before releasing it (a fault check, as hardened libraries
//! do). Why this shape and what it costs: `src/rsa/README.md`.
//!
//! # Examples
//! ```
//! use parcrypt::digest::Algorithm;
//! use parcrypt::keys::SigningKey;
//! use parcrypt::par::Parallelism;
//! use parcrypt::rsa::{PrivateKey, Scheme};
//!
//! let par = Parallelism::default();
//! let key = PrivateKey::generate(2048, &par)?;
//! let sig = key.sign(Scheme::Pss, Algorithm::Sha256, b"hello", &par)?;
//! key.public_key().verify(Scheme::Pss, Algorithm::Sha256, b"hello", &sig)?;
//!
//! let ct = key.public_key().encrypt(b"secret")?;
//! assert_eq!(key.decrypt(&ct, &par)?.expose(), b"secret");
//! # Ok::<(), parcrypt::rsa::Error>(())
//! ```
//!
//! # Performance
//! A 2048-bit private operation is two 1024-bit exponentiations. On CPUs with
//! AVX-512 IFMA, AWS-LC computes both at once in SIMD lanes on one core, which
//! beats two threads; [`CrtMode::Auto`] uses that kernel there and the two
//! threads elsewhere (see [`CrtMode`]). Key generation with
//! [`Strategy::WorkStealing`](crate::par::Strategy::WorkStealing) races all
//! threads for both primes (about half the sequential time on two cores);
//! [`Strategy::Static`](crate::par::Strategy::Static) is the JCE paper's
//! p ∥ q (about three quarters).
//! Measured numbers: the README's algorithm table.

mod crt;
mod key;
mod keygen;
mod scheme;
mod trial;

pub use crt::CrtMode;
pub use key::{PrivateKey, PublicKey, SignatureOptions};
pub use keygen::{KeygenStats, MAX_BITS, MIN_BITS};
pub use scheme::Scheme;
/// The OAEP capacity rule, for hazmat's bulk blocks.
pub(crate) use scheme::oaep_capacity;

/// What can go wrong with RSA keys and operations.
///
/// Decryption failures are one opaque [`Error::Decryption`]: which padding
/// check failed is never told (no padding oracle).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A key's encoding, password protection or type (the problems every
    /// family shares).
    #[error(transparent)]
    Key(#[from] crate::keys::KeyFileError),
    /// A valid RSA key parcrypt does not handle (size, missing CRT values).
    #[error("unsupported RSA key: {0}")]
    UnsupportedKey(String),
    /// A key size outside what key generation offers.
    #[error("cannot generate a {0}-bit key: sizes are {MIN_BITS}..={MAX_BITS} bits in steps of 128")]
    KeySize(usize),
    /// A message longer than one OAEP block holds.
    #[error("message of {len} bytes is too long for one block of this key (at most {max})")]
    MessageTooLong {
        /// The message length.
        len: usize,
        /// The most one block holds.
        max: usize,
    },
    /// The ciphertext did not decrypt: wrong key, modified or truncated data.
    #[error("decryption failed")]
    Decryption,
    /// The signature does not verify.
    #[error("signature verification failed")]
    BadSignature,
    /// A digest of the wrong length for its hash.
    #[error("digest of {got} bytes, but {hash:?} digests are {want}")]
    DigestLength {
        /// The hash named.
        hash: crate::digest::Algorithm,
        /// The length given.
        got: usize,
        /// The hash's length.
        want: usize,
    },
    /// The private operation's result failed its check with the public key
    /// (a hardware or memory fault); nothing was released.
    #[error("fault detected in the RSA private operation; result withheld")]
    Fault,
    /// The backend failed unexpectedly (out of memory).
    #[error("internal error in the crypto backend")]
    Backend,
}

impl From<crate::pkcs8::Error> for Error {
    fn from(e: crate::pkcs8::Error) -> Self {
        Error::Key(e.into())
    }
}

impl crate::keys::KeyError for Error {
    const A_KEY: &'static str = "an RSA key";

    fn kind(&self) -> crate::keys::ErrorKind {
        use crate::keys::ErrorKind;
        match self {
            Error::Key(e) => e.kind(),
            Error::UnsupportedKey(_) => ErrorKind::WrongKeyType,
            Error::BadSignature => ErrorKind::BadSignature,
            Error::KeySize(_) | Error::MessageTooLong { .. } | Error::DigestLength { .. } => {
                ErrorKind::InvalidInput
            }
            Error::Decryption | Error::Fault | Error::Backend => ErrorKind::Other,
        }
    }
}

impl From<crate::ffi::BackendError> for Error {
    fn from(_: crate::ffi::BackendError) -> Self {
        Error::Backend
    }
}
