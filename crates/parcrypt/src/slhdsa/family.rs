//! SLH-DSA as a [`keys`](crate::keys) family: [`PrivateKey`] is a
//! [`SigningKey`], [`PublicKey`] a [`VerifyingKey`], so the shared readers
//! (password-protected PKCS#8 too), writers, batches and the CLI's key
//! commands serve it as they serve RSA, ECDSA and ML-DSA.
//!
//! The family's "prehash" is what SLH-DSA signs before its context is
//! added: for HashSLH-DSA ([`SignatureOptions::prehash`]) the digest, made
//! as the message streams past; for pure SLH-DSA the message itself, which
//! FIPS 205 hashes twice (`PRF_msg`, `H_msg`) and so needs whole. A pure
//! hasher therefore holds the message, and
//! [`VerifyingKey::message_limit`] says how much a caller should let it
//! hold ([`MAX_PURE_MESSAGE`]).
//!
//! Reading a private key rebuilds its top XMSS tree (to check `PK.root`):
//! the trait's readers do it on the [`Parallelism`] they are given, as the
//! inherent [`PrivateKey::from_pkcs8_der`] does.

use sha3::digest::{DynDigest, ExtendableOutput, Update};

use super::{Error, Message, ParameterSet, PreHash, PrivateKey, PublicKey};
use crate::keys::{ErrorKind, Family, KeyError, MessageHasher, SigningKey, VerifyingKey};
use crate::par::Parallelism;
use crate::secret::{SecretBytes, SecretString};

/// The longest message a pure-mode hasher is meant to hold (64 MiB): the
/// CLI refuses longer ones with a hint to sign them with a prehash, which
/// streams.
pub const MAX_PURE_MESSAGE: u64 = 64 << 20;

/// How an SLH-DSA signature is made and checked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SignatureOptions {
    /// The context string, 0 to 255 bytes.
    pub context: Vec<u8>,
    /// HashSLH-DSA with this prehash; `None`: pure SLH-DSA.
    pub prehash: Option<PreHash>,
    /// Sign with `opt_rand = PK.seed` ([`PrivateKey::sign_deterministic`])
    /// instead of fresh randomness; ignored by verification.
    pub deterministic: bool,
}

impl SignatureOptions {
    /// What is signed, given the hasher's output.
    fn message<'a>(&self, prehash: &'a [u8]) -> Result<Message<'a>, Error> {
        match self.prehash {
            None => Message::pure(prehash, &self.context),
            Some(hash) => Message::from_digest(hash, prehash, &self.context),
        }
    }
}

/// The family's [`MessageHasher`]: the message kept whole (pure) or hashed
/// with the HashSLH-DSA prehash as it comes.
pub struct Hasher(State);

enum State {
    Pure(Vec<u8>),
    Fixed(Box<dyn DynDigest + Send>),
    Shake128(sha3::Shake128),
    Shake256(sha3::Shake256),
}

impl std::fmt::Debug for Hasher {
    // The message may be anything; only the mode is printed.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mode = match &self.0 {
            State::Pure(_) => "pure",
            State::Fixed(_) => "prehash",
            State::Shake128(_) => "shake128",
            State::Shake256(_) => "shake256",
        };
        f.debug_tuple("Hasher").field(&mode).finish()
    }
}

impl Hasher {
    fn new(prehash: Option<PreHash>) -> Hasher {
        fn fixed<D: DynDigest + Default + Send + 'static>() -> State {
            State::Fixed(Box::new(D::default()))
        }
        Hasher(match prehash {
            None => State::Pure(Vec::new()),
            Some(PreHash::Sha224) => fixed::<sha2::Sha224>(),
            Some(PreHash::Sha256) => fixed::<sha2::Sha256>(),
            Some(PreHash::Sha384) => fixed::<sha2::Sha384>(),
            Some(PreHash::Sha512) => fixed::<sha2::Sha512>(),
            Some(PreHash::Sha512_224) => fixed::<sha2::Sha512_224>(),
            Some(PreHash::Sha512_256) => fixed::<sha2::Sha512_256>(),
            Some(PreHash::Sha3_224) => fixed::<sha3::Sha3_224>(),
            Some(PreHash::Sha3_256) => fixed::<sha3::Sha3_256>(),
            Some(PreHash::Sha3_384) => fixed::<sha3::Sha3_384>(),
            Some(PreHash::Sha3_512) => fixed::<sha3::Sha3_512>(),
            Some(PreHash::Shake128) => State::Shake128(sha3::Shake128::default()),
            Some(PreHash::Shake256) => State::Shake256(sha3::Shake256::default()),
        })
    }
}

impl MessageHasher for Hasher {
    fn update(&mut self, data: &[u8]) {
        match &mut self.0 {
            State::Pure(message) => message.extend_from_slice(data),
            State::Fixed(d) => d.update(data),
            State::Shake128(x) => x.update(data),
            State::Shake256(x) => x.update(data),
        }
    }

    /// The message (pure) or its digest (HashSLH-DSA: SHAKE128 32 bytes,
    /// SHAKE256 64, as [`PreHash::digest_len`] says).
    fn finish(self) -> Vec<u8> {
        fn xof(x: impl ExtendableOutput, len: usize) -> Vec<u8> {
            let mut out = vec![0u8; len];
            x.finalize_xof_into(&mut out);
            out
        }
        match self.0 {
            State::Pure(message) => message,
            State::Fixed(d) => d.finalize().into_vec(),
            State::Shake128(x) => xof(x, PreHash::Shake128.digest_len()),
            State::Shake256(x) => xof(x, PreHash::Shake256.digest_len()),
        }
    }
}

impl KeyError for Error {
    const A_KEY: &'static str = "an SLH-DSA key of the expected kind";

    fn kind(&self) -> ErrorKind {
        match self {
            Error::Key(e) => e.kind(),
            Error::PublicKeyLength { .. } | Error::PrivateKeyLength { .. } => ErrorKind::MalformedKey,
            // A damaged key, or one whose PK.root is another set's.
            Error::KeyMismatch => ErrorKind::MalformedKey,
            Error::SeedLength { .. } | Error::ContextTooLong(_) | Error::DigestLength { .. } => {
                ErrorKind::InvalidInput
            }
            Error::SignatureLength { .. } => ErrorKind::MalformedSignature,
            Error::BadSignature => ErrorKind::BadSignature,
            Error::Random => ErrorKind::Other,
        }
    }
}

const FAMILY: Family = Family {
    name: "SLH-DSA",
    traditional: None,
};

impl SigningKey for PrivateKey {
    type Public = PublicKey;
    type Error = Error;
    type Params = ParameterSet;
    type Options = SignatureOptions;
    const FAMILY: Family = FAMILY;

    /// A new random key of `set`, its top tree built on `par`.
    fn generate(set: &ParameterSet, par: &Parallelism) -> Result<PrivateKey, Error> {
        PrivateKey::generate(*set, par)
    }

    /// OpenSSL 3.5's PKCS#8 (see [`PrivateKey::from_pkcs8_der`]), its
    /// root rebuilt and checked on `par`.
    fn from_pkcs8_der(der: &[u8], par: &Parallelism) -> Result<PrivateKey, Error> {
        PrivateKey::from_pkcs8_der(der, par)
    }

    fn to_pkcs8_der(&self) -> Result<SecretBytes, Error> {
        Ok(PrivateKey::to_pkcs8_der(self))
    }

    fn to_pkcs8_pem(&self) -> Result<SecretString, Error> {
        Ok(PrivateKey::to_pkcs8_pem(self))
    }

    fn public_key(&self) -> &PublicKey {
        &self.public
    }

    fn into_public_key(self) -> PublicKey {
        self.public
    }

    /// Signs what [`Hasher`] made: the message (pure) or its digest,
    /// hedged unless `options.deterministic`, the trees built on `par`.
    fn sign_prehashed(
        &self,
        prehash: &[u8],
        options: &SignatureOptions,
        par: &Parallelism,
    ) -> Result<Vec<u8>, Error> {
        let message = options.message(prehash)?;
        if options.deterministic {
            Ok(self.sign_deterministic(&message, par))
        } else {
            self.sign(&message, par)
        }
    }
}

impl VerifyingKey for PublicKey {
    type Private = PrivateKey;
    type Error = Error;
    type Options = SignatureOptions;
    type Hasher = Hasher;

    fn from_spki_der(der: &[u8]) -> Result<PublicKey, Error> {
        PublicKey::from_spki_der(der)
    }

    fn to_spki_der(&self) -> Result<Vec<u8>, Error> {
        Ok(PublicKey::to_spki_der(self))
    }

    /// The hasher of `options.prehash` (the message kept whole for pure
    /// SLH-DSA).
    ///
    /// # Errors
    /// [`Error::ContextTooLong`] for a context over 255 bytes.
    fn hasher(&self, options: &SignatureOptions) -> Result<Hasher, Error> {
        Message::pure(&[], &options.context)?;
        Ok(Hasher::new(options.prehash))
    }

    /// [`MAX_PURE_MESSAGE`] for pure SLH-DSA; none with a prehash.
    fn message_limit(&self, options: &SignatureOptions) -> Option<u64> {
        options.prehash.is_none().then_some(MAX_PURE_MESSAGE)
    }

    fn verify_prehashed(
        &self,
        prehash: &[u8],
        signature: &[u8],
        options: &SignatureOptions,
        _: &Parallelism,
    ) -> Result<(), Error> {
        self.verify(&options.message(prehash)?, signature)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn key() -> PrivateKey {
        PrivateKey::from_seeds(
            ParameterSet::Shake128f,
            &[1; 16],
            &[2; 16],
            &[3; 16],
            &Parallelism::sequential(),
        )
        .unwrap()
    }

    #[test]
    fn the_family_signs_what_the_scheme_signs() {
        let key = key();
        let par = Parallelism::default();
        for prehash in [
            None,
            Some(PreHash::Sha256),
            Some(PreHash::Sha3_384),
            Some(PreHash::Shake128),
            Some(PreHash::Shake256),
        ] {
            let options = SignatureOptions {
                context: b"ctx".to_vec(),
                prehash,
                deterministic: true,
            };
            let mut h = key.public_key().hasher(&options).unwrap();
            h.update(b"mes");
            h.update(b"sage");
            let sig = SigningKey::sign_prehashed(&key, &h.finish(), &options, &par).unwrap();
            let message = match prehash {
                None => Message::pure(b"message", b"ctx").unwrap(),
                Some(hash) => Message::prehashed(hash, b"message", b"ctx").unwrap(),
            };
            assert_eq!(sig, key.sign_deterministic(&message, &par));
            key.public_key().verify(&message, &sig).unwrap();
            VerifyingKey::verify_message(key.public_key(), b"message", &sig, &options, &par).unwrap();
            let other = SignatureOptions {
                context: Vec::new(),
                ..options.clone()
            };
            assert_eq!(
                VerifyingKey::verify_message(key.public_key(), b"message", &sig, &other, &par),
                Err(Error::BadSignature)
            );
            assert_eq!(
                key.public_key().message_limit(&options).is_some(),
                prehash.is_none()
            );
        }
    }

    #[test]
    fn the_shared_readers_read_openssl_files() {
        let key = key();
        let pem = SigningKey::to_pkcs8_pem(&key).unwrap();
        let again =
            <PrivateKey as SigningKey>::from_bytes(pem.expose_bytes(), &Parallelism::sequential()).unwrap();
        assert_eq!(again.public_key(), key.public_key());
        let public =
            <PublicKey as VerifyingKey>::from_bytes(pem.expose_bytes(), &Parallelism::sequential()).unwrap();
        assert_eq!(&public, key.public_key());
        let spki = key.public_key().to_spki_pem();
        let err = <PrivateKey as SigningKey>::from_bytes(spki.as_bytes(), &Parallelism::sequential())
            .err()
            .unwrap();
        assert_eq!(err.kind(), ErrorKind::WrongKeyType);
        let long = SignatureOptions {
            context: vec![0; 256],
            ..SignatureOptions::default()
        };
        assert_eq!(
            key.public_key().hasher(&long).err(),
            Some(Error::ContextTooLong(256))
        );
    }
}
