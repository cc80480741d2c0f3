//! Signature and encryption schemes over the parallel private operation.

use zeroize::Zeroizing;

use crate::secret::SecretBytes;

use super::{Error, PrivateKey, PublicKey};
use crate::digest::Algorithm;
use crate::ffi::rsa as ffi_rsa;
use crate::name::UnknownName;
use crate::par::Parallelism;

/// A signature scheme.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Scheme {
    /// RSASSA-PSS with MGF1 of the same hash and a random salt as long as the
    /// digest (`openssl … -sigopt rsa_pss_saltlen:digest`); verification
    /// accepts any salt length. The default.
    #[default]
    Pss,
    /// RSASSA-PKCS1-v1_5 (deterministic; for interoperability).
    Pkcs1v15,
}

impl Scheme {
    /// The short name used on the command line: `pss`, `pkcs1`.
    pub fn name(self) -> &'static str {
        match self {
            Scheme::Pss => "pss",
            Scheme::Pkcs1v15 => "pkcs1",
        }
    }
}

impl std::fmt::Display for Scheme {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Scheme {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "pss" => Ok(Scheme::Pss),
            "pkcs1" | "pkcs1v15" | "pkcs1-v1_5" => Ok(Scheme::Pkcs1v15),
            _ => Err(UnknownName::new("signature scheme", s, "pss or pkcs1")),
        }
    }
}

fn check_digest(hash: Algorithm, digest: &[u8]) -> Result<(), Error> {
    if digest.len() == hash.len() {
        Ok(())
    } else {
        Err(Error::DigestLength {
            hash,
            got: digest.len(),
            want: hash.len(),
        })
    }
}

/// The largest message one RSAES-OAEP block of a `k`-byte key holds with `hash`.
pub(crate) fn oaep_capacity(k: usize, hash: Algorithm) -> usize {
    k.saturating_sub(2 * hash.len() + 2)
}

impl PrivateKey {
    /// Signs `msg` (hashed with `hash`); the private operation's halves run
    /// under `par`.
    ///
    /// # Errors
    /// [`Error::Fault`] if the result fails its check; [`Error::Backend`].
    pub fn sign(
        &self,
        scheme: Scheme,
        hash: Algorithm,
        msg: &[u8],
        par: &Parallelism,
    ) -> Result<Vec<u8>, Error> {
        self.sign_digest(scheme, hash, &crate::digest::digest(hash, msg), par)
    }

    /// Signs a digest computed by the caller (for messages hashed as they stream).
    ///
    /// # Errors
    /// [`Error::DigestLength`] if `digest` is not `hash.len()` bytes; as [`PrivateKey::sign`].
    pub fn sign_digest(
        &self,
        scheme: Scheme,
        hash: Algorithm,
        digest: &[u8],
        par: &Parallelism,
    ) -> Result<Vec<u8>, Error> {
        check_digest(hash, digest)?;
        let mut em = Zeroizing::new(vec![0; self.size()]);
        match scheme {
            Scheme::Pss => self.rsa().pss_encode(&mut em, digest, hash)?,
            Scheme::Pkcs1v15 => ffi_rsa::pkcs1_sig_encode(&mut em, digest, hash)?,
        }
        self.private_raw(&em, par)
    }

    /// Decrypts one RSAES-OAEP block (SHA-256, MGF1-SHA-256, empty label).
    ///
    /// # Errors
    /// [`Error::Decryption`] for any bad ciphertext: wrong length, not below
    /// the modulus, bad padding — deliberately not told apart.
    pub fn decrypt(&self, ciphertext: &[u8], par: &Parallelism) -> Result<SecretBytes, Error> {
        self.decrypt_oaep(ciphertext, Algorithm::Sha256, Algorithm::Sha256, &[], par)
    }

    /// Decrypts one RSAES-OAEP block with the given hash, MGF1 hash and label
    /// (for interoperability and test vectors; [`PrivateKey::decrypt`] is the default).
    ///
    /// # Errors
    /// As [`PrivateKey::decrypt`].
    pub fn decrypt_oaep(
        &self,
        ciphertext: &[u8],
        hash: Algorithm,
        mgf1: Algorithm,
        label: &[u8],
        par: &Parallelism,
    ) -> Result<SecretBytes, Error> {
        if ciphertext.len() != self.size() {
            return Err(Error::Decryption);
        }
        let em = Zeroizing::new(self.private_raw(ciphertext, par).map_err(|e| match e {
            Error::Fault | Error::Backend => e,
            _ => Error::Decryption,
        })?);
        let mut out = Zeroizing::new(vec![0; self.size()]);
        let len = ffi_rsa::oaep_decode(&mut out, &em, label, hash, mgf1).ok_or(Error::Decryption)?;
        Ok(SecretBytes::from(&out[..len]))
    }
}

impl PublicKey {
    /// Verifies a signature over `msg`.
    ///
    /// # Errors
    /// [`Error::BadSignature`].
    pub fn verify(&self, scheme: Scheme, hash: Algorithm, msg: &[u8], signature: &[u8]) -> Result<(), Error> {
        self.verify_digest(scheme, hash, &crate::digest::digest(hash, msg), signature)
    }

    /// Verifies a signature over a digest computed by the caller.
    ///
    /// # Errors
    /// [`Error::DigestLength`], [`Error::BadSignature`].
    pub fn verify_digest(
        &self,
        scheme: Scheme,
        hash: Algorithm,
        digest: &[u8],
        signature: &[u8],
    ) -> Result<(), Error> {
        check_digest(hash, digest)?;
        let ok = match scheme {
            Scheme::Pss => self.rsa().verify_pss(digest, hash, None, signature),
            Scheme::Pkcs1v15 => self.rsa().verify_pkcs1(digest, hash, signature),
        };
        ok.then_some(()).ok_or(Error::BadSignature)
    }

    /// Verifies an RSASSA-PSS signature whose salt must be exactly `salt_len` bytes.
    ///
    /// # Errors
    /// [`Error::DigestLength`], [`Error::BadSignature`].
    pub fn verify_pss_salt(
        &self,
        hash: Algorithm,
        digest: &[u8],
        salt_len: usize,
        signature: &[u8],
    ) -> Result<(), Error> {
        check_digest(hash, digest)?;
        let ok = self.rsa().verify_pss(digest, hash, Some(salt_len), signature);
        ok.then_some(()).ok_or(Error::BadSignature)
    }

    /// The most bytes [`PublicKey::encrypt`] takes: `size() − 66`.
    pub fn max_message(&self) -> usize {
        oaep_capacity(self.size(), Algorithm::Sha256)
    }

    /// Encrypts one RSAES-OAEP block (SHA-256, MGF1-SHA-256, empty label,
    /// random seed). For longer messages use the `stream` format (real data);
    /// `hazmat::rsa_bulk_encrypt` is the paper's chunked method, for study.
    ///
    /// # Errors
    /// [`Error::MessageTooLong`] above [`PublicKey::max_message`] bytes.
    pub fn encrypt(&self, msg: &[u8]) -> Result<Vec<u8>, Error> {
        self.encrypt_oaep(msg, Algorithm::Sha256, Algorithm::Sha256, &[])
    }

    /// Encrypts one RSAES-OAEP block with the given hash, MGF1 hash and
    /// label (random seed), for peers that ask for them: the JCA's default
    /// `RSA/ECB/OAEPPadding` is SHA-1 with MGF1-SHA-1, which OAEP's security
    /// proof does not need collision resistance for. [`PublicKey::encrypt`]
    /// is the default.
    ///
    /// # Errors
    /// [`Error::MessageTooLong`] above `size() − 2·hash.len() − 2` bytes
    /// (none fit when the key is too small for `hash`).
    pub fn encrypt_oaep(
        &self,
        msg: &[u8],
        hash: Algorithm,
        mgf1: Algorithm,
        label: &[u8],
    ) -> Result<Vec<u8>, Error> {
        let max = oaep_capacity(self.size(), hash);
        if msg.len() > max || max == 0 {
            return Err(Error::MessageTooLong { len: msg.len(), max });
        }
        let mut em = Zeroizing::new(vec![0; self.size()]);
        ffi_rsa::oaep_encode(&mut em, msg, label, hash, mgf1)?;
        Ok(self.rsa().public_raw(&em)?)
    }
}
