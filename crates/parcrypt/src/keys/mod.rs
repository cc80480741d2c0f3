//! One shape for every signature key family (RSA, ECDSA P-256, ML-DSA,
//! SLH-DSA): a private key ([`SigningKey`]) and its public
//! half ([`VerifyingKey`]), read and written as PKCS#8 / SPKI in DER or PEM
//! (password-protected PKCS#8 through [`crate::pkcs8`]), signing and
//! verifying with the family's options, and batches over the crate's
//! scheduler.
//!
//! Below the families (`rsa`, `ecdsa`, `mldsa`) and above [`crate::pkcs8`]
//! in the layering: the families import this module, never the reverse.
//!
//! A family implements only its algorithm: parsing and writing its DER,
//! hashing a message the way its signatures hash it ([`MessageHasher`]:
//! SHA-2 for RSA and ECDSA, ML-DSA's μ = SHAKE256(tr ‖ M′)), and signing or
//! verifying that *prehash*. Everything around it — which PEM labels are
//! read, how an encrypted key is opened, what a public-key reader does with
//! a private key, the batches — is written here once, and the CLI's
//! `keygen`, `pubkey`, `sign`, `verify`, `sign-batch` and `verify-batch`
//! are written once over these traits.
//!
//! Families with a second, "traditional" private encoding (PKCS#1 for RSA,
//! SEC1 for EC) name it in [`Family::traditional`]; their readers accept it
//! beside PKCS#8.
//!
//! Every reader that may read a private key takes a [`Parallelism`], as
//! key generation and signing do: reading an SLH-DSA private key rebuilds
//! its top XMSS tree to check `PK.root` (the cost of a key generation), on
//! the caller's threads. Families whose reading has no parallel work (RSA,
//! ECDSA, ML-DSA) ignore it. Public-key readers of SPKI take none: a
//! public key is parsed, never rebuilt.
//!
//! # Examples
//! ```
//! use parcrypt::ecdsa;
//! use parcrypt::keys::{SigningKey, VerifyingKey};
//! use parcrypt::par::Parallelism;
//!
//! fn round_trip<K: SigningKey>(params: &K::Params) -> Result<bool, K::Error> {
//!     let par = Parallelism::default();
//!     let key = K::generate(params, &par)?;
//!     let pem = key.to_pkcs8_pem()?;
//!     let again = K::from_bytes(pem.expose_bytes(), &par)?;
//!     let options = K::Options::default();
//!     let sig = again.sign_message(b"hello", &options, &par)?;
//!     let public = K::Public::from_bytes(key.public_key().to_spki_pem()?.as_bytes(), &par)?;
//!     Ok(public.verify_message(b"hello", &sig, &options, &par).is_ok())
//! }
//! assert!(round_trip::<ecdsa::PrivateKey>(&())?);
//! # Ok::<(), ecdsa::Error>(())
//! ```

use crate::par::{Grain, Parallelism};
use crate::pem::{self, PemError};
use crate::pkcs8::{self, UnlockError};
use crate::secret::{SecretBytes, SecretString};

const PKCS8_LABEL: &str = "PRIVATE KEY";
const SPKI_LABEL: &str = "PUBLIC KEY";

/// What kind of problem a family's error is, for callers that treat every
/// family alike (the CLI's hints).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Not a key of the expected encoding.
    MalformedKey,
    /// A password-protected key read without a password.
    EncryptedKey,
    /// A password-protected key whose password is wrong (or whose
    /// encryption is corrupt).
    BadPassword,
    /// A password-protected key whose key derivation asks for more than
    /// the reader's [`pkcs8::KdfLimits`] (refused before any work).
    TooCostly,
    /// Another password-protection problem (unsupported, malformed).
    KeyEncryption,
    /// A valid key of another algorithm, curve or parameter set, or a
    /// public key where a private one is needed.
    WrongKeyType,
    /// A signature that does not parse (wrong length, not DER).
    MalformedSignature,
    /// A signature that does not verify.
    BadSignature,
    /// Wrong options (a context too long, a parameter set not offered).
    InvalidInput,
    /// Anything else (the backend failing).
    Other,
}

/// The key problems every family's error carries (as its `Key` variant):
/// reading a key's encoding, its password protection, its type.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum KeyFileError {
    /// Not a PEM or DER key of the expected kind (or raw bytes of the wrong
    /// length).
    #[error("malformed key: {0}")]
    Malformed(String),
    /// A password-protected key, read without a password (give one to the
    /// family's `PrivateKey::from_bytes_with_password`).
    #[error("the key is encrypted: a password is needed to read it")]
    Encrypted,
    /// A password-protected key that could not be read (a wrong password,
    /// an unsupported or malformed encryption) or written.
    #[error(transparent)]
    Encryption(pkcs8::Error),
    /// A valid key of another algorithm, curve or parameter set.
    #[error("not {a_key}: {why}")]
    WrongType {
        /// The key wanted: "an RSA key", "a P-256 key".
        a_key: &'static str,
        /// What was found instead.
        why: String,
    },
}

impl From<pkcs8::Error> for KeyFileError {
    fn from(e: pkcs8::Error) -> Self {
        match e {
            pkcs8::Error::PasswordNeeded => KeyFileError::Encrypted,
            other => KeyFileError::Encryption(other),
        }
    }
}

impl KeyFileError {
    /// Which kind of problem this is.
    pub fn kind(&self) -> ErrorKind {
        match self {
            KeyFileError::Malformed(_) => ErrorKind::MalformedKey,
            KeyFileError::Encrypted => ErrorKind::EncryptedKey,
            KeyFileError::Encryption(pkcs8::Error::BadDecrypt) => ErrorKind::BadPassword,
            KeyFileError::Encryption(pkcs8::Error::TooCostly(_)) => ErrorKind::TooCostly,
            KeyFileError::Encryption(_) => ErrorKind::KeyEncryption,
            KeyFileError::WrongType { .. } => ErrorKind::WrongKeyType,
        }
    }
}

/// The errors of a key family: what the shared readers and writers here
/// need to make one, and to tell which kind one is.
pub trait KeyError:
    std::error::Error + From<pkcs8::Error> + From<KeyFileError> + Send + Sync + 'static
{
    /// The key the family's [`KeyFileError::WrongType`] wants: "an RSA key".
    const A_KEY: &'static str;
    /// Not a key of the expected encoding; `why` says what was wrong.
    fn malformed(why: String) -> Self {
        KeyFileError::Malformed(why).into()
    }
    /// A key of another kind; `why` says which.
    fn wrong_type(why: String) -> Self {
        KeyFileError::WrongType {
            a_key: Self::A_KEY,
            why,
        }
        .into()
    }
    /// Which kind of problem this is.
    fn kind(&self) -> ErrorKind;
}

/// A family's names: for messages, and the PEM labels its readers accept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Family {
    /// The family's name in messages: `"RSA"`, `"P-256"`, `"ML-DSA"`.
    pub name: &'static str,
    /// The family's other private and public encoding, if it has one.
    pub traditional: Option<Traditional>,
}

/// A family's own key encoding beside PKCS#8 / SPKI (PKCS#1, SEC1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Traditional {
    /// The encoding's name (`"PKCS#1"`, `"SEC1"`).
    pub name: &'static str,
    /// The PEM label of its private keys (`RSA PRIVATE KEY`).
    pub private_label: &'static str,
    /// The PEM label of its public keys, if it has its own (`RSA PUBLIC KEY`).
    pub public_label: Option<&'static str>,
}

/// A message hashed as a family's signatures hash it, one piece at a time,
/// so that a message of any size is read once and never held whole.
pub trait MessageHasher: Send {
    /// Adds data.
    fn update(&mut self, data: &[u8]);
    /// The prehash of everything added, for [`SigningKey::sign_prehashed`]
    /// and [`VerifyingKey::verify_prehashed`].
    fn finish(self) -> Vec<u8>;
}

impl MessageHasher for crate::digest::Hasher {
    fn update(&mut self, data: &[u8]) {
        crate::digest::Hasher::update(self, data);
    }

    fn finish(self) -> Vec<u8> {
        crate::digest::Hasher::finish(self).as_bytes().to_vec()
    }
}

/// Signatures of a batch are independent and each costs tens of µs or
/// more: every item is worth handing to another thread, and tasks of 8 keep
/// the scheduling overhead under 1%.
pub const BATCH_GRAIN: Grain = Grain {
    unit: 1,
    min_part: 1,
    task: 8,
};

/// A private signature key of one family. `Send + Sync`: one key serves
/// any number of threads at once.
pub trait SigningKey: Sized + Send + Sync {
    /// The public half.
    type Public: VerifyingKey<Private = Self, Error = Self::Error, Options = Self::Options>;
    /// The family's error.
    type Error: KeyError;
    /// What key generation takes (RSA: the modulus size; ML-DSA: the
    /// parameter set; P-256: nothing).
    type Params;
    /// How a signature is made and checked (RSA: scheme and hash; ECDSA:
    /// the signature's encoding; ML-DSA: the context string).
    type Options: Default + Sync;
    /// The family's names and PEM labels.
    const FAMILY: Family;

    /// A new random key.
    ///
    /// # Errors
    /// Parameters the family does not offer; a backend failure.
    fn generate(params: &Self::Params, par: &Parallelism) -> Result<Self, Self::Error>;

    /// A DER PKCS#8 `PrivateKeyInfo`, checked on the threads of `par`
    /// where the family's check is parallel work (SLH-DSA rebuilds its
    /// root; the others ignore `par`).
    ///
    /// # Errors
    /// A malformed key, or one of another family.
    fn from_pkcs8_der(der: &[u8], par: &Parallelism) -> Result<Self, Self::Error>;

    /// A DER key in the family's [traditional](Family::traditional)
    /// encoding; families without one refuse every input. `par` as for
    /// [`Self::from_pkcs8_der`].
    ///
    /// # Errors
    /// A malformed key, or one of another family.
    fn from_traditional_der(der: &[u8], par: &Parallelism) -> Result<Self, Self::Error> {
        let _ = (der, par);
        Err(Self::Error::malformed(format!(
            "{} keys have no encoding but PKCS#8",
            Self::FAMILY.name
        )))
    }

    /// PKCS#8 DER.
    ///
    /// # Errors
    /// A backend failure.
    fn to_pkcs8_der(&self) -> Result<SecretBytes, Self::Error>;

    /// The family's [traditional](Family::traditional) DER (PKCS#1, SEC1).
    ///
    /// # Errors
    /// A family without one; a backend failure.
    fn to_traditional_der(&self) -> Result<SecretBytes, Self::Error> {
        Err(Self::Error::malformed(format!(
            "{} keys have no encoding but PKCS#8",
            Self::FAMILY.name
        )))
    }

    /// The public half.
    fn public_key(&self) -> &Self::Public;

    /// The public half, taking the key.
    fn into_public_key(self) -> Self::Public;

    /// Signs a message's prehash (what [`VerifyingKey::hasher`] made).
    ///
    /// # Errors
    /// A prehash of the wrong length, options the family refuses, a
    /// backend failure.
    fn sign_prehashed(
        &self,
        prehash: &[u8],
        options: &Self::Options,
        par: &Parallelism,
    ) -> Result<Vec<u8>, Self::Error>;

    /// Reads a private key: PEM `PRIVATE KEY` (PKCS#8), the family's
    /// traditional PEM, or either as DER; checked on the threads of `par`
    /// where that is parallel work (see [`Self::from_pkcs8_der`]).
    ///
    /// # Errors
    /// A malformed key; an encrypted one (see
    /// [`Self::from_bytes_with_password`]); a key of another family or a
    /// public key ([`ErrorKind::WrongKeyType`]).
    ///
    /// # Performance
    /// Reading an SLH-DSA key costs what generating it costs (its top
    /// tree), spread over `par`; the other families' keys are only parsed,
    /// whatever `par` says.
    fn from_bytes(bytes: &[u8], par: &Parallelism) -> Result<Self, Self::Error> {
        read_private(bytes, None, &pkcs8::KdfLimits::DEFAULT, par)
    }

    /// As [`Self::from_bytes`], and also a password-protected key:
    /// `ENCRYPTED PRIVATE KEY` (PKCS#8 PBES2, PEM or DER; see
    /// [`crate::pkcs8`]) or OpenSSL's legacy `Proc-Type: 4,ENCRYPTED` PEM.
    /// The password is ignored for a key that is not encrypted, as
    /// OpenSSL's `-passin` is.
    ///
    /// # Errors
    /// As [`Self::from_bytes`], and [`ErrorKind::BadPassword`] for a wrong
    /// password.
    fn from_bytes_with_password(
        bytes: &[u8],
        password: &[u8],
        par: &Parallelism,
    ) -> Result<Self, Self::Error> {
        read_private(bytes, Some(password), &pkcs8::KdfLimits::DEFAULT, par)
    }

    /// As [`Self::from_bytes_with_password`], with the key derivation's
    /// cost bounded by `limits` instead of [`pkcs8::KdfLimits::DEFAULT`]
    /// (e.g. [`pkcs8::KdfLimits::COSTLY`] for a file that needs more).
    ///
    /// # Errors
    /// As [`Self::from_bytes_with_password`]; a key whose derivation asks
    /// for more than `limits` ([`pkcs8::Error::TooCostly`]) is refused
    /// before any work.
    fn from_bytes_with_password_and_limits(
        bytes: &[u8],
        password: &[u8],
        limits: &pkcs8::KdfLimits,
        par: &Parallelism,
    ) -> Result<Self, Self::Error> {
        read_private(bytes, Some(password), limits, par)
    }

    /// PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`), what `openssl genpkey` writes.
    ///
    /// # Errors
    /// As [`Self::to_pkcs8_der`].
    fn to_pkcs8_pem(&self) -> Result<SecretString, Self::Error> {
        Ok(pem::encode(PKCS8_LABEL, self.to_pkcs8_der()?.expose()))
    }

    /// The traditional PEM (`-----BEGIN RSA PRIVATE KEY-----`, `EC PRIVATE KEY`).
    ///
    /// # Errors
    /// As [`Self::to_traditional_der`].
    fn to_traditional_pem(&self) -> Result<SecretString, Self::Error> {
        let der = self.to_traditional_der()?;
        let label = Self::FAMILY.traditional.map_or(PKCS8_LABEL, |t| t.private_label);
        Ok(pem::encode(label, der.expose()))
    }

    /// PKCS#8 `EncryptedPrivateKeyInfo` DER: the key encrypted under
    /// `password` as `options` say ([`pkcs8::Options::default`] is what
    /// `openssl genpkey -aes256` writes).
    ///
    /// # Errors
    /// [`ErrorKind::KeyEncryption`] for options beyond the readers' limits.
    fn to_pkcs8_encrypted_der(
        &self,
        password: &[u8],
        options: &pkcs8::Options,
    ) -> Result<Vec<u8>, Self::Error> {
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
    fn to_pkcs8_encrypted_pem(
        &self,
        password: &[u8],
        options: &pkcs8::Options,
    ) -> Result<String, Self::Error> {
        Ok(pkcs8::encrypt_pem(
            self.to_pkcs8_der()?.expose(),
            password,
            options,
        )?)
    }

    /// Signs `message` (hashed as the family hashes it).
    ///
    /// # Errors
    /// As [`Self::sign_prehashed`].
    fn sign_message(
        &self,
        message: &[u8],
        options: &Self::Options,
        par: &Parallelism,
    ) -> Result<Vec<u8>, Self::Error> {
        let mut hasher = self.public_key().hasher(options)?;
        hasher.update(message);
        self.sign_prehashed(&hasher.finish(), options, par)
    }

    /// Signs every message across the threads of `par`: one result per
    /// message, in order, each signature the one [`Self::sign_message`]
    /// makes (each on one thread).
    ///
    /// # Performance
    /// One message runs on the calling thread; from two on, messages are
    /// spread over the threads ([`BATCH_GRAIN`]).
    fn sign_batch(
        &self,
        messages: &[&[u8]],
        options: &Self::Options,
        par: &Parallelism,
    ) -> Vec<Result<Vec<u8>, Self::Error>> {
        par.map_items(messages, &BATCH_GRAIN, |m| {
            self.sign_message(m, options, &Parallelism::sequential())
        })
    }

    /// [`Self::sign_batch`] over prehashes (messages hashed as they were read).
    fn sign_prehashed_batch(
        &self,
        prehashes: &[&[u8]],
        options: &Self::Options,
        par: &Parallelism,
    ) -> Vec<Result<Vec<u8>, Self::Error>> {
        par.map_items(prehashes, &BATCH_GRAIN, |p| {
            self.sign_prehashed(p, options, &Parallelism::sequential())
        })
    }
}

/// One signature of a batch: who signed, what, and the signature's bytes.
#[derive(Debug)]
pub struct BatchItem<'a, P> {
    /// The public key.
    pub key: &'a P,
    /// The message, or its prehash for [`VerifyingKey::verify_prehashed_batch`].
    pub message: &'a [u8],
    /// The signature.
    pub signature: &'a [u8],
}

impl<P> Clone for BatchItem<'_, P> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<P> Copy for BatchItem<'_, P> {}

/// A public signature key of one family, parsed once.
pub trait VerifyingKey: Sized + Send + Sync {
    /// The private half's type.
    type Private: SigningKey<Public = Self, Error = Self::Error, Options = Self::Options>;
    /// The family's error.
    type Error: KeyError;
    /// As [`SigningKey::Options`].
    type Options: Default + Sync;
    /// The family's message hasher.
    type Hasher: MessageHasher;

    /// A DER X.509 `SubjectPublicKeyInfo`.
    ///
    /// # Errors
    /// A malformed key, or one of another family.
    fn from_spki_der(der: &[u8]) -> Result<Self, Self::Error>;

    /// A DER public key in the family's own encoding (PKCS#1); families
    /// without one refuse every input.
    ///
    /// # Errors
    /// A malformed key, or one of another family.
    fn from_traditional_der(der: &[u8]) -> Result<Self, Self::Error> {
        let _ = der;
        Err(Self::Error::malformed("no public key encoding but SPKI".into()))
    }

    /// SPKI DER.
    ///
    /// # Errors
    /// A backend failure.
    fn to_spki_der(&self) -> Result<Vec<u8>, Self::Error>;

    /// A hasher for a message to be signed or verified with `options`.
    ///
    /// # Errors
    /// Options the family refuses (an ML-DSA context over 255 bytes).
    fn hasher(&self, options: &Self::Options) -> Result<Self::Hasher, Self::Error>;

    /// The longest message [`Self::hasher`]'s hasher should be given, for
    /// a family whose prehash is the message itself (pure SLH-DSA hashes
    /// the whole message twice, so its hasher keeps it); `None`, the
    /// default: any length, hashed as it streams. A caller reading a
    /// message refuses one longer than this before holding it.
    fn message_limit(&self, options: &Self::Options) -> Option<u64> {
        let _ = options;
        None
    }

    /// Verifies `signature` over a message's prehash. Verification touches
    /// only public data and may take variable time.
    ///
    /// # Errors
    /// [`ErrorKind::BadSignature`] for a signature that does not parse or
    /// does not verify.
    fn verify_prehashed(
        &self,
        prehash: &[u8],
        signature: &[u8],
        options: &Self::Options,
        par: &Parallelism,
    ) -> Result<(), Self::Error>;

    /// Reads a public key: PEM `PUBLIC KEY` (SPKI), the family's own public
    /// PEM, either as DER, or a private key of any accepted form (its public
    /// half is taken, once the private key is read and checked as
    /// [`SigningKey::from_bytes`] does it on `par`; a public key ignores
    /// `par`).
    ///
    /// # Errors
    /// As [`SigningKey::from_bytes`]; an encrypted private key is
    /// [`ErrorKind::EncryptedKey`] (its public half is inside the encryption).
    fn from_bytes(bytes: &[u8], par: &Parallelism) -> Result<Self, Self::Error> {
        read_public(bytes, par)
    }

    /// SPKI PEM (`-----BEGIN PUBLIC KEY-----`), what `openssl pkey -pubout` writes.
    ///
    /// # Errors
    /// As [`Self::to_spki_der`].
    fn to_spki_pem(&self) -> Result<String, Self::Error> {
        Ok(pem::encode(SPKI_LABEL, &self.to_spki_der()?).expose().to_owned())
    }

    /// Verifies `signature` over `message` (hashed as the family hashes it).
    ///
    /// # Errors
    /// As [`Self::verify_prehashed`].
    fn verify_message(
        &self,
        message: &[u8],
        signature: &[u8],
        options: &Self::Options,
        par: &Parallelism,
    ) -> Result<(), Self::Error> {
        let mut hasher = self.hasher(options)?;
        hasher.update(message);
        self.verify_prehashed(&hasher.finish(), signature, options, par)
    }

    /// Verifies many signatures across the threads of `par`: one result per
    /// item, in order (a failure never hides which, nor why), each what
    /// [`Self::verify_message`] says (on one thread). Memory is the
    /// results': a caller with more signatures than it wants to hold
    /// verifies them in slices (the CLI's `verify-batch` reads its list
    /// 4096 entries at a time).
    ///
    /// # Performance
    /// One item runs on the calling thread; from two on, items are spread
    /// over the threads ([`BATCH_GRAIN`]).
    fn verify_batch(
        items: &[BatchItem<'_, Self>],
        options: &Self::Options,
        par: &Parallelism,
    ) -> Vec<Result<(), Self::Error>> {
        par.map_items(items, &BATCH_GRAIN, |item| {
            item.key
                .verify_message(item.message, item.signature, options, &Parallelism::sequential())
        })
    }

    /// [`Self::verify_batch`] for items whose `message` is the prehash
    /// (messages hashed as they were read).
    fn verify_prehashed_batch(
        items: &[BatchItem<'_, Self>],
        options: &Self::Options,
        par: &Parallelism,
    ) -> Vec<Result<(), Self::Error>> {
        par.map_items(items, &BATCH_GRAIN, |item| {
            item.key
                .verify_prehashed(item.message, item.signature, options, &Parallelism::sequential())
        })
    }
}

/// A PEM problem as the family's error.
fn pem_error<E: KeyError>(e: PemError) -> E {
    match e {
        PemError::Encrypted => E::from(pkcs8::Error::PasswordNeeded),
        PemError::Label(label)
            if ["PRIVATE KEY", "PUBLIC KEY", "EC ", "DSA"]
                .iter()
                .any(|kind| label.contains(kind)) =>
        {
            E::wrong_type(format!("PEM block is {label:?}"))
        }
        other => E::malformed(other.to_string()),
    }
}

fn unlock_error<E: KeyError>(e: UnlockError) -> E {
    match e {
        UnlockError::Pem(e) => pem_error(e),
        UnlockError::Pkcs8(e) => e.into(),
    }
}

fn public_where_private<E: KeyError>() -> E {
    E::wrong_type("a public key where a private key is needed".into())
}

/// The one private-key reader: PEM (PKCS#8, traditional, encrypted), then
/// encrypted DER, then PKCS#8 DER, then traditional DER.
fn read_private<K: SigningKey>(
    bytes: &[u8],
    password: Option<&[u8]>,
    limits: &pkcs8::KdfLimits,
    par: &Parallelism,
) -> Result<K, K::Error> {
    let traditional = K::FAMILY.traditional;
    if pem::is_pem(bytes) {
        let mut labels = vec![PKCS8_LABEL];
        labels.extend(traditional.map(|t| t.private_label));
        labels.push(SPKI_LABEL);
        labels.extend(traditional.and_then(|t| t.public_label));
        let (label, der) =
            pkcs8::unlock_pem(bytes, &labels, password, limits).map_err(unlock_error::<K::Error>)?;
        if label == PKCS8_LABEL {
            K::from_pkcs8_der(der.expose(), par)
        } else if traditional.is_some_and(|t| t.private_label == label) {
            K::from_traditional_der(der.expose(), par)
        } else {
            Err(public_where_private())
        }
    } else if let Some(der) = pkcs8::unlock_der(bytes, password, limits)? {
        K::from_pkcs8_der(der.expose(), par)
    } else {
        K::from_pkcs8_der(bytes, par).or_else(|e| match traditional {
            Some(_) => K::from_traditional_der(bytes, par).map_err(|_| e),
            None => Err(e),
        })
    }
}

/// The one public-key reader: SPKI, the family's own public form, or a
/// private key's public half.
fn read_public<P: VerifyingKey>(bytes: &[u8], par: &Parallelism) -> Result<P, P::Error> {
    if pkcs8::is_encrypted(bytes) {
        // Its public half is inside the encryption.
        return Err(P::Error::from(pkcs8::Error::PasswordNeeded));
    }
    let traditional = <P::Private as SigningKey>::FAMILY.traditional;
    let from_private = |bytes: &[u8]| -> Result<P, P::Error> {
        Ok(<P::Private as SigningKey>::from_bytes(bytes, par)?.into_public_key())
    };
    if pem::is_pem(bytes) {
        let mut labels = vec![SPKI_LABEL];
        labels.extend(traditional.and_then(|t| t.public_label));
        labels.push(PKCS8_LABEL);
        labels.extend(traditional.map(|t| t.private_label));
        let (label, der) = pem::decode(bytes, &labels).map_err(pem_error::<P::Error>)?;
        if label == SPKI_LABEL {
            P::from_spki_der(der.expose())
        } else if traditional.and_then(|t| t.public_label) == Some(label) {
            P::from_traditional_der(der.expose())
        } else {
            from_private(bytes)
        }
    } else {
        P::from_spki_der(bytes)
            .or_else(|e| match traditional.and_then(|t| t.public_label) {
                Some(_) => P::from_traditional_der(bytes).map_err(|_| e),
                None => Err(e),
            })
            .or_else(|e| from_private(bytes).map_err(|_| e))
    }
}

/// Why the backend refused a key, as the family's error; `what` names the
/// encoding read (`PKCS#8 private key`, `SubjectPublicKeyInfo`).
pub(crate) fn parse_error<E: KeyError>(e: crate::ffi::der::ParseError, what: &str) -> E {
    use crate::ffi::der::{ParseError, key_type_name};
    match e {
        ParseError::Malformed => E::malformed(format!("not a DER {what}")),
        ParseError::NotP256 => E::wrong_type(format!("the {what} is on another curve than P-256")),
        ParseError::WrongType(id) => E::wrong_type(format!("the {what} holds {}", key_type_name(id))),
    }
}

/// The key algorithm a PKCS#8 or SPKI structure names (its
/// `AlgorithmIdentifier`'s OID), read without parsing the key: how a
/// reader of "any key" picks the one family that parses it (see
/// [`crate::anykey`]), so an encrypted key is decrypted once and no family
/// is tried on another's key.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Algorithm {
    /// `rsaEncryption` (or RSASSA-PSS).
    Rsa,
    /// `id-ecPublicKey` (the curve is the family's to check).
    Ec,
    /// ML-DSA-44/65/87 (FIPS 204).
    MlDsa,
    /// SLH-DSA, any of its sets (FIPS 205).
    SlhDsa,
    /// ML-KEM-512/768/1024 (FIPS 203).
    MlKem,
    /// Another algorithm, by its dotted OID.
    Other(String),
}

/// The arcs under 2.16.840.1.101.3.4 (NIST's algorithms): `3.x` signatures, `4.x` KEMs.
const NIST_ALGORITHMS: &[u8] = &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04];
const RSA_ENCRYPTION: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01];
const RSASSA_PSS: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0a];
const EC_PUBLIC_KEY: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01];

impl Algorithm {
    /// The algorithm of a DER PKCS#8 `PrivateKeyInfo` (or v2
    /// `OneAsymmetricKey`); `None` if `der` is not one.
    pub fn of_pkcs8(der: &[u8]) -> Option<Algorithm> {
        let mut outer = pkcs8::der::Reader::new(der);
        let mut info = outer.sequence().ok()?;
        outer.finish().ok()?;
        info.uint().ok()?;
        Self::of_identifier(&mut info)
    }

    /// The algorithm of a DER X.509 `SubjectPublicKeyInfo`; `None` if
    /// `der` is not one.
    pub fn of_spki(der: &[u8]) -> Option<Algorithm> {
        let mut outer = pkcs8::der::Reader::new(der);
        let mut info = outer.sequence().ok()?;
        outer.finish().ok()?;
        let algorithm = Self::of_identifier(&mut info)?;
        info.read(pkcs8::der::BIT_STRING).ok()?;
        Some(algorithm)
    }

    /// The `AlgorithmIdentifier` next in `reader`, followed by the key.
    fn of_identifier(reader: &mut pkcs8::der::Reader<'_>) -> Option<Algorithm> {
        let oid = reader.sequence().ok()?.read(pkcs8::der::OID).ok()?;
        if reader.is_empty() {
            return None;
        }
        Some(match oid {
            RSA_ENCRYPTION | RSASSA_PSS => Algorithm::Rsa,
            EC_PUBLIC_KEY => Algorithm::Ec,
            _ => match oid.strip_prefix(NIST_ALGORITHMS) {
                Some([3, 17..=19]) => Algorithm::MlDsa,
                Some([3, 20..=43]) => Algorithm::SlhDsa,
                Some([4, 1..=3]) => Algorithm::MlKem,
                _ => Algorithm::Other(dotted(oid)),
            },
        })
    }
}

/// An OID's contents in dotted-decimal form (`1.2.840.113549.1.1.1`);
/// `?` for contents that are not an OID.
pub(crate) fn dotted(oid: &[u8]) -> String {
    let mut arcs: Vec<u64> = Vec::new();
    let mut value: u64 = 0;
    for (i, &b) in oid.iter().enumerate() {
        if value > u64::MAX >> 7 {
            return "?".into();
        }
        value = (value << 7) | u64::from(b & 0x7f);
        if b & 0x80 != 0 {
            if i + 1 == oid.len() {
                return "?".into();
            }
            continue;
        }
        if arcs.is_empty() {
            let first = (value / 40).min(2);
            arcs.extend([first, value - 40 * first]);
        } else {
            arcs.push(value);
        }
        value = 0;
    }
    if arcs.is_empty() {
        return "?".into();
    }
    arcs.iter().map(u64::to_string).collect::<Vec<_>>().join(".")
}
