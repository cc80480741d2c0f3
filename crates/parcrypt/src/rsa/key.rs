//! RSA keys: import and export (PKCS#8, PKCS#1, SPKI; PEM and DER).

use super::crt::{Crt, CrtMode};
use super::{Error, keygen};
use crate::ffi::rsa::RsaKey;
use crate::keys::KeyFileError;
use crate::keys::{self, Family, SigningKey, Traditional, VerifyingKey};
use crate::par::Parallelism;
use crate::pem;
use crate::secret::{SecretBytes, SecretString};

/// The smallest modulus parcrypt accepts on import (the papers measure
/// 1024-bit keys; anything smaller is broken).
const MIN_IMPORT_BITS: usize = 1024;
/// The largest modulus accepted on import.
const MAX_IMPORT_BITS: usize = 16384;

/// RSA's names: PKCS#1 (`RSA PRIVATE KEY`, `RSA PUBLIC KEY`) beside
/// PKCS#8 and SPKI.
const FAMILY: Family = Family {
    name: "RSA",
    traditional: Some(Traditional {
        name: "PKCS#1",
        private_label: "RSA PRIVATE KEY",
        public_label: Some("RSA PUBLIC KEY"),
    }),
};

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
            return Err(<Error as crate::keys::KeyError>::wrong_type(
                "a public key where a private key is needed".into(),
            ));
        }
        if !key.check() {
            return Err(Error::Key(KeyFileError::Malformed(
                "inconsistent RSA private key (RSA_check_key failed)".into(),
            )));
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

    /// A key from its components, big-endian unsigned: modulus, public and
    /// private exponents, the primes and `q⁻¹ mod p` (what an OpenSSH
    /// private key file holds); the CRT exponents are computed, and the key
    /// checked as any other.
    ///
    /// # Errors
    /// [`crate::keys::KeyFileError::Malformed`] for inconsistent components;
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
            return Err(Error::Key(KeyFileError::Malformed("an RSA prime below 2".into())));
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
        .map_err(|_| Error::Key(KeyFileError::Malformed("inconsistent RSA key components".into())))?;
        Self::from_rsa(key)
    }

    /// A DER PKCS#1 `RSAPrivateKey`.
    pub fn from_pkcs1_der(der: &[u8]) -> Result<PrivateKey, Error> {
        Self::from_rsa(
            RsaKey::from_pkcs1_private_der(der)
                .map_err(|e| keys::parse_error::<Error>(e, "PKCS#1 private key"))?,
        )
    }

    /// PKCS#1 DER.
    pub fn to_pkcs1_der(&self) -> Result<SecretBytes, Error> {
        Ok(self.key.pkcs1_private_der()?)
    }

    /// PKCS#1 PEM (`-----BEGIN RSA PRIVATE KEY-----`, OpenSSL's "traditional" form).
    pub fn to_pkcs1_pem(&self) -> Result<SecretString, Error> {
        self.to_traditional_pem()
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
    fn from_rsa(key: RsaKey) -> Result<PublicKey, Error> {
        check_size(key.bits())?;
        Ok(PublicKey { key })
    }

    /// A key from its modulus and public exponent, big-endian unsigned
    /// (what an SSH public key holds).
    ///
    /// # Errors
    /// [`crate::keys::KeyFileError::Malformed`] for values AWS-LC refuses;
    /// [`Error::UnsupportedKey`] for a size parcrypt does not handle.
    pub fn from_components(n: &[u8], e: &[u8]) -> Result<PublicKey, Error> {
        use crate::ffi::bn::Bn;
        let key =
            RsaKey::from_public_components(&Bn::from_be_bytes(n), &Bn::from_be_bytes(e)).map_err(|_| {
                Error::Key(KeyFileError::Malformed(
                    "invalid RSA public key components".into(),
                ))
            })?;
        Self::from_rsa(key)
    }

    /// A DER PKCS#1 `RSAPublicKey`.
    pub fn from_pkcs1_der(der: &[u8]) -> Result<PublicKey, Error> {
        Self::from_rsa(
            RsaKey::from_pkcs1_public_der(der)
                .map_err(|e| keys::parse_error::<Error>(e, "PKCS#1 public key"))?,
        )
    }

    /// PKCS#1 DER.
    pub fn to_pkcs1_der(&self) -> Result<Vec<u8>, Error> {
        Ok(self.key.pkcs1_public_der()?)
    }

    /// PKCS#1 PEM (`-----BEGIN RSA PUBLIC KEY-----`).
    pub fn to_pkcs1_pem(&self) -> Result<String, Error> {
        Ok(pem::encode("RSA PUBLIC KEY", &self.to_pkcs1_der()?)
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

impl SigningKey for PrivateKey {
    type Public = PublicKey;
    type Error = Error;
    type Params = usize;
    type Options = SignatureOptions;
    const FAMILY: Family = FAMILY;

    /// A key of `bits` bits: see [`PrivateKey::generate`].
    fn generate(bits: &usize, par: &Parallelism) -> Result<PrivateKey, Error> {
        PrivateKey::generate(*bits, par)
    }

    /// Parsed and checked by the backend; `par` is not needed.
    fn from_pkcs8_der(der: &[u8], _: &Parallelism) -> Result<PrivateKey, Error> {
        Self::from_rsa(
            RsaKey::from_pkcs8_der(der).map_err(|e| keys::parse_error::<Error>(e, "PKCS#8 private key"))?,
        )
    }

    fn from_traditional_der(der: &[u8], _: &Parallelism) -> Result<PrivateKey, Error> {
        Self::from_pkcs1_der(der)
    }

    fn to_pkcs8_der(&self) -> Result<SecretBytes, Error> {
        Ok(self.key.pkcs8_der()?)
    }

    fn to_traditional_der(&self) -> Result<SecretBytes, Error> {
        self.to_pkcs1_der()
    }

    fn public_key(&self) -> &PublicKey {
        &self.public
    }

    fn into_public_key(self) -> PublicKey {
        self.public
    }

    /// Signs a digest with `options.scheme` and `options.hash` (see
    /// [`PrivateKey::sign_digest`]); the CRT halves on two threads of `par`.
    fn sign_prehashed(
        &self,
        prehash: &[u8],
        options: &SignatureOptions,
        par: &Parallelism,
    ) -> Result<Vec<u8>, Error> {
        self.sign_digest(options.scheme, options.hash, prehash, par)
    }
}

impl VerifyingKey for PublicKey {
    type Private = PrivateKey;
    type Error = Error;
    type Options = SignatureOptions;
    type Hasher = crate::digest::Hasher;

    fn from_spki_der(der: &[u8]) -> Result<PublicKey, Error> {
        Self::from_rsa(
            RsaKey::from_spki_der(der).map_err(|e| keys::parse_error::<Error>(e, "SubjectPublicKeyInfo"))?,
        )
    }

    fn from_traditional_der(der: &[u8]) -> Result<PublicKey, Error> {
        Self::from_pkcs1_der(der)
    }

    fn to_spki_der(&self) -> Result<Vec<u8>, Error> {
        Ok(self.key.spki_der()?)
    }

    fn hasher(&self, options: &SignatureOptions) -> Result<crate::digest::Hasher, Error> {
        Ok(options.hash.hasher())
    }

    fn verify_prehashed(
        &self,
        prehash: &[u8],
        signature: &[u8],
        options: &SignatureOptions,
        _: &Parallelism,
    ) -> Result<(), Error> {
        self.verify_digest(options.scheme, options.hash, prehash, signature)
    }
}

/// How [`keys`](crate::keys) signs and verifies with RSA; the default is
/// PSS over SHA-256.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SignatureOptions {
    /// The padding scheme.
    pub scheme: super::Scheme,
    /// The message's hash.
    pub hash: crate::digest::Algorithm,
}

impl Default for SignatureOptions {
    fn default() -> Self {
        SignatureOptions {
            scheme: super::Scheme::Pss,
            hash: crate::digest::Algorithm::Sha256,
        }
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
