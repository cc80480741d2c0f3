//! SLH-DSA keys in the files people already have: PKCS#8 `PrivateKeyInfo`
//! and X.509 `SubjectPublicKeyInfo`, DER and PEM, exactly as OpenSSL 3.5
//! writes them (RFC 9909), and password-protected PKCS#8 through
//! [`crate::pkcs8`].
//!
//! The layouts are fixed: the AlgorithmIdentifier is the set's OID
//! (2.16.840.1.101.3.4.3.20–31) with no parameters, the PKCS#8
//! `privateKey` OCTET STRING holds the raw 4n-byte key itself (no inner
//! OCTET STRING, unlike Ed25519), and the SPKI BIT STRING the raw 2n-byte
//! public key. AWS-LC has no SLH-DSA key parser, so the DER is read and
//! written with [`crate::pkcs8::der`]'s strict reader and writer (the one
//! DER code of the crate outside the backend).

use super::{Error, ParameterSet, PrivateKey, PublicKey};
use crate::keys::{KeyFileError, dotted};
use crate::par::Parallelism;
use crate::pem::{self, PemError};
use crate::pkcs8::der::{self, BIT_STRING, OCTET_STRING, OID, Reader};
use crate::pkcs8::{self, UnlockError};
use crate::secret::{SecretBytes, SecretString};

const PKCS8_LABEL: &str = "PRIVATE KEY";
const SPKI_LABEL: &str = "PUBLIC KEY";

/// The contents of the OIDs under 2.16.840.1.101.3.4.3 (NIST's signature
/// algorithms): this prefix and one arc.
const SIG_ARC_PREFIX: [u8; 8] = [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03];

impl ParameterSet {
    /// The DER contents of the set's OID, 2.16.840.1.101.3.4.3.20–31.
    fn oid(self) -> [u8; 9] {
        let mut oid = [0; 9];
        oid[..8].copy_from_slice(&SIG_ARC_PREFIX);
        oid[8] = self.oid_arc();
        oid
    }

    /// The set whose OID has these contents, if any.
    fn from_oid(oid: &[u8]) -> Option<ParameterSet> {
        ParameterSet::ALL.into_iter().find(|set| set.oid() == oid)
    }
}

/// The DER `AlgorithmIdentifier` of `set`: its OID, parameters absent.
fn algorithm(set: ParameterSet) -> Vec<u8> {
    der::sequence(&[&der::tlv(OID, &set.oid())])
}

fn malformed(what: &str, why: &str) -> Error {
    Error::Key(KeyFileError::Malformed(format!(
        "not a DER SLH-DSA {what} ({why})"
    )))
}

/// Reads an `AlgorithmIdentifier` that must name an SLH-DSA set with no
/// parameters. A well-formed identifier of another algorithm is
/// [`crate::keys::KeyFileError::WrongType`], saying which when it is a common one.
fn read_algorithm(outer: &mut Reader<'_>, what: &str) -> Result<ParameterSet, Error> {
    let mut alg = outer.sequence().map_err(|e| malformed(what, e))?;
    let oid = alg.read(OID).map_err(|e| malformed(what, e))?;
    let set = ParameterSet::from_oid(oid).ok_or_else(|| {
        <Error as crate::keys::KeyError>::wrong_type(format!("the {what} holds {}", key_name(oid)))
    })?;
    if !alg.is_empty() {
        return Err(malformed(
            what,
            "the algorithm has parameters; RFC 9909 says they are absent",
        ));
    }
    Ok(set)
}

/// A key of the algorithm `oid` names, for messages: "an RSA key",
/// "an ML-DSA-65 key", or its dotted number.
fn key_name(oid: &[u8]) -> String {
    let named = match oid {
        [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01] => "an RSA key",
        [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0a] => "an RSA-PSS key",
        [0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01] => "an EC key",
        [0x2b, 0x65, 0x6e] => "an X25519 key",
        [0x2b, 0x65, 0x6f] => "an X448 key",
        [0x2b, 0x65, 0x70] => "an Ed25519 key",
        [0x2b, 0x65, 0x71] => "an Ed448 key",
        [p @ .., arc] if *p == SIG_ARC_PREFIX => match arc {
            17 => "an ML-DSA-44 key",
            18 => "an ML-DSA-65 key",
            19 => "an ML-DSA-87 key",
            35..=46 => {
                "a HashSLH-DSA signature algorithm, not a key algorithm (SLH-DSA keys use 2.16.840.1.101.3.4.3.20-31)"
            }
            _ => "",
        },
        [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x04, arc @ 1..=3] => {
            return format!("an ML-KEM-{} key", [512, 768, 1024][usize::from(*arc) - 1]);
        }
        _ => "",
    };
    if named.is_empty() {
        format!("a key of algorithm {}", dotted(oid))
    } else {
        named.to_owned()
    }
}

/// A PEM problem, for a reader that wanted a block labelled `wanted`.
fn pem_error(e: PemError, wanted: &str) -> Error {
    match e {
        PemError::Encrypted => Error::Key(KeyFileError::Encrypted),
        PemError::Label(label) if label.contains("PRIVATE KEY") || label.contains("PUBLIC KEY") => {
            <Error as crate::keys::KeyError>::wrong_type(format!(
                "the PEM block is {label:?}, not an SLH-DSA {wanted:?}"
            ))
        }
        other => Error::Key(KeyFileError::Malformed(other.to_string())),
    }
}

impl From<pkcs8::Error> for Error {
    fn from(e: pkcs8::Error) -> Self {
        Error::Key(e.into())
    }
}

impl PublicKey {
    /// Reads a DER X.509 `SubjectPublicKeyInfo` (`openssl pkey -pubout
    /// -outform DER`); the parameter set is the one its OID names.
    ///
    /// # Errors
    /// [`crate::keys::KeyFileError::Malformed`] for DER that is not an SPKI (truncated,
    /// trailing bytes, parameters present); [`crate::keys::KeyFileError::WrongType`] for
    /// another algorithm's key; [`Error::PublicKeyLength`] for a key of the
    /// wrong length for its set.
    pub fn from_spki_der(der: &[u8]) -> Result<PublicKey, Error> {
        const WHAT: &str = "SubjectPublicKeyInfo";
        let m = |e| malformed(WHAT, e);
        let mut outer = Reader::new(der);
        let mut info = outer.sequence().map_err(m)?;
        outer.finish().map_err(m)?;
        let set = read_algorithm(&mut info, WHAT)?;
        let bits = info.read(BIT_STRING).map_err(m)?;
        info.finish().map_err(m)?;
        match bits.split_first() {
            Some((0, key)) => PublicKey::from_bytes(set, key),
            _ => Err(m("the key's BIT STRING is empty or not whole bytes")),
        }
    }

    /// Reads a PEM `PUBLIC KEY` (SPKI), what `openssl pkey -pubout` writes.
    ///
    /// # Errors
    /// As [`PublicKey::from_spki_der`]; [`crate::keys::KeyFileError::WrongType`] for a PEM
    /// block of another kind (a private key, a certificate).
    pub fn from_spki_pem(pem: &[u8]) -> Result<PublicKey, Error> {
        let (_, der) = pem::decode(pem, &[SPKI_LABEL]).map_err(|e| pem_error(e, SPKI_LABEL))?;
        PublicKey::from_spki_der(der.expose())
    }

    /// The DER `SubjectPublicKeyInfo`, byte for byte what OpenSSL 3.5 writes.
    pub fn to_spki_der(&self) -> Vec<u8> {
        let mut bits = Vec::with_capacity(1 + self.as_bytes().len());
        bits.push(0); // no unused bits
        bits.extend_from_slice(self.as_bytes());
        der::sequence(&[&algorithm(self.set), &der::tlv(BIT_STRING, &bits)])
    }

    /// PEM `-----BEGIN PUBLIC KEY-----`, what `openssl pkey -pubout` writes.
    pub fn to_spki_pem(&self) -> String {
        pem::encode(SPKI_LABEL, &self.to_spki_der()).expose().to_owned()
    }
}

impl PrivateKey {
    /// Reads a DER PKCS#8 `PrivateKeyInfo` (`openssl genpkey -outform
    /// DER`): version 0, or 1 with a public key that must match (RFC 5958);
    /// the parameter set is the one its OID names. The key's `PK.root` is
    /// checked against its seeds as [`PrivateKey::from_bytes`] does (the
    /// cost of a key generation, on `par`).
    ///
    /// # Errors
    /// [`crate::keys::KeyFileError::Malformed`] for DER that is not a `PrivateKeyInfo`
    /// (truncated, trailing bytes, parameters present);
    /// [`KeyFileError::Encrypted`] for an `EncryptedPrivateKeyInfo` (see
    /// [`PrivateKey::from_pkcs8_with_password`]);
    /// [`crate::keys::KeyFileError::WrongType`] for another algorithm's key;
    /// [`Error::PrivateKeyLength`] for a key of the wrong length for its
    /// set; [`Error::KeyMismatch`] for a damaged key.
    pub fn from_pkcs8_der(der: &[u8], par: &Parallelism) -> Result<PrivateKey, Error> {
        const WHAT: &str = "PKCS#8 private key";
        if pkcs8::is_encrypted(der) {
            return Err(Error::Key(KeyFileError::Encrypted));
        }
        let m = |e| malformed(WHAT, e);
        let mut outer = Reader::new(der);
        let mut info = outer.sequence().map_err(m)?;
        outer.finish().map_err(m)?;
        let version = info.uint().map_err(m)?;
        if version > 1 {
            return Err(m("its version is not 0 or 1"));
        }
        let set = read_algorithm(&mut info, WHAT)?;
        let raw = info.read(OCTET_STRING).map_err(m)?;
        // attributes [0] IMPLICIT SET OF Attribute OPTIONAL: nothing here
        // is read from them (OpenSSL ignores them too).
        if info.peek() == Some(0xa0) {
            info.read(0xa0).map_err(m)?;
        }
        // publicKey [1] IMPLICIT BIT STRING OPTIONAL (version 1, RFC 5958).
        let public = if version == 1 && info.peek() == Some(0x81) {
            Some(info.read(0x81).map_err(m)?)
        } else {
            None
        };
        info.finish().map_err(m)?;
        let key = PrivateKey::from_bytes(set, raw, par)?;
        match public {
            Some([0, public @ ..]) if public == key.public.as_bytes() => Ok(key),
            Some(_) => Err(Error::KeyMismatch),
            None => Ok(key),
        }
    }

    /// Reads a PEM `PRIVATE KEY` (PKCS#8), what `openssl genpkey` writes.
    ///
    /// # Examples
    /// ```
    /// use parcrypt::par::Parallelism;
    /// use parcrypt::slhdsa::{Error, ParameterSet, PrivateKey, PublicKey};
    ///
    /// let par = Parallelism::default();
    /// let key = PrivateKey::generate(ParameterSet::Sha2_128f, &par)?;
    /// let pem = key.to_pkcs8_pem(); // `openssl pkey -in key.pem -text` reads it
    /// assert!(pem.expose().starts_with("-----BEGIN PRIVATE KEY-----"));
    /// let again = PrivateKey::from_pkcs8_pem(pem.expose_bytes(), &par)?;
    /// assert_eq!(again.public_key(), key.public_key());
    ///
    /// let spki = key.public_key().to_spki_pem();
    /// assert_eq!(&PublicKey::from_spki_pem(spki.as_bytes())?, key.public_key());
    /// assert!(matches!(PrivateKey::from_pkcs8_pem(spki.as_bytes(), &par), Err(Error::Key(parcrypt::keys::KeyFileError::WrongType { .. }))));
    /// # Ok::<(), Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`PrivateKey::from_pkcs8_der`]; [`KeyFileError::Encrypted`] for an
    /// encrypted key (see [`PrivateKey::from_pkcs8_with_password`]);
    /// [`crate::keys::KeyFileError::WrongType`] for a PEM block of another kind.
    pub fn from_pkcs8_pem(pem: &[u8], par: &Parallelism) -> Result<PrivateKey, Error> {
        let (_, der) = pem::decode(pem, &[PKCS8_LABEL]).map_err(|e| pem_error(e, PKCS8_LABEL))?;
        PrivateKey::from_pkcs8_der(der.expose(), par)
    }

    /// Reads a PKCS#8 private key in PEM or DER, decrypting it with
    /// `password` when it is encrypted (`ENCRYPTED PRIVATE KEY`, PBES2; see
    /// [`crate::pkcs8`]; OpenSSL's legacy `Proc-Type: 4,ENCRYPTED` PEM too).
    /// A password given for a key that is not encrypted is ignored, as
    /// OpenSSL's `-passin` is.
    ///
    /// # Errors
    /// As [`PrivateKey::from_pkcs8_pem`]; [`crate::keys::KeyFileError::Encryption`] with
    /// [`pkcs8::Error::BadDecrypt`] for a wrong password.
    pub fn from_pkcs8_with_password(
        bytes: &[u8],
        password: &[u8],
        par: &Parallelism,
    ) -> Result<PrivateKey, Error> {
        Self::from_pkcs8_with_password_and_limits(bytes, password, &pkcs8::KdfLimits::DEFAULT, par)
    }

    /// As [`PrivateKey::from_pkcs8_with_password`], with the key
    /// derivation's cost bounded by `limits` instead of
    /// [`pkcs8::KdfLimits::DEFAULT`].
    ///
    /// # Errors
    /// As [`PrivateKey::from_pkcs8_with_password`]; [`crate::keys::KeyFileError::Encryption`]
    /// with [`pkcs8::Error::TooCostly`] is decided by `limits`.
    pub fn from_pkcs8_with_password_and_limits(
        bytes: &[u8],
        password: &[u8],
        limits: &pkcs8::KdfLimits,
        par: &Parallelism,
    ) -> Result<PrivateKey, Error> {
        if pem::is_pem(bytes) {
            let (_, der) =
                pkcs8::unlock_pem(bytes, &[PKCS8_LABEL], Some(password), limits).map_err(|e| match e {
                    UnlockError::Pem(e) => pem_error(e, PKCS8_LABEL),
                    UnlockError::Pkcs8(e) => e.into(),
                })?;
            PrivateKey::from_pkcs8_der(der.expose(), par)
        } else if let Some(der) = pkcs8::unlock_der(bytes, Some(password), limits)? {
            PrivateKey::from_pkcs8_der(der.expose(), par)
        } else {
            PrivateKey::from_pkcs8_der(bytes, par)
        }
    }

    /// The DER PKCS#8 `PrivateKeyInfo`, byte for byte what OpenSSL 3.5
    /// writes (version 0, no attributes, no public key field).
    pub fn to_pkcs8_der(&self) -> SecretBytes {
        let raw = self.to_bytes();
        let version = der::uint(0);
        let alg = algorithm(self.public.set);
        let key_header = der::header(OCTET_STRING, raw.len());
        let contents_len = version.len() + alg.len() + key_header.len() + raw.len();
        let seq_header = der::header(der::SEQUENCE, contents_len);
        // The key goes straight into one wiped buffer sized up front.
        let mut out = SecretBytes::zeroed(seq_header.len() + contents_len);
        let mut at = 0;
        for part in [&seq_header[..], &version, &alg, &key_header, raw.expose()] {
            out.expose_mut()[at..at + part.len()].copy_from_slice(part);
            at += part.len();
        }
        out
    }

    /// PEM `-----BEGIN PRIVATE KEY-----`, what `openssl genpkey` writes.
    pub fn to_pkcs8_pem(&self) -> SecretString {
        pem::encode(PKCS8_LABEL, self.to_pkcs8_der().expose())
    }

    /// PKCS#8 `EncryptedPrivateKeyInfo` DER: the key encrypted under
    /// `password` as `options` say ([`pkcs8::Options::default`] is what
    /// `openssl genpkey -aes256` writes).
    ///
    /// # Errors
    /// [`crate::keys::KeyFileError::Encryption`] for options beyond the readers' limits.
    pub fn to_pkcs8_encrypted_der(
        &self,
        password: &[u8],
        options: &pkcs8::Options,
    ) -> Result<Vec<u8>, Error> {
        Ok(pkcs8::encrypt_der(
            self.to_pkcs8_der().expose(),
            password,
            options,
        )?)
    }

    /// PEM `-----BEGIN ENCRYPTED PRIVATE KEY-----`: see
    /// [`PrivateKey::to_pkcs8_encrypted_der`].
    ///
    /// # Errors
    /// As [`PrivateKey::to_pkcs8_encrypted_der`].
    pub fn to_pkcs8_encrypted_pem(&self, password: &[u8], options: &pkcs8::Options) -> Result<String, Error> {
        Ok(pkcs8::encrypt_pem(
            self.to_pkcs8_der().expose(),
            password,
            options,
        )?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oids_and_names() {
        assert_eq!(
            ParameterSet::Sha2_128s.oid(),
            [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 20]
        );
        for set in ParameterSet::ALL {
            assert_eq!(ParameterSet::from_oid(&set.oid()), Some(set));
        }
        assert_eq!(dotted(&ParameterSet::Shake256f.oid()), "2.16.840.1.101.3.4.3.31");
        assert_eq!(
            dotted(&[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01]),
            "1.2.840.113549.1.1.1"
        );
        assert_eq!(dotted(&[0x2a, 0x86]), "?");
        assert_eq!(dotted(&[]), "?");
        assert_eq!(dotted(&[0xff; 20]), "?");
        assert_eq!(key_name(&[0x2b, 0x65, 0x70]), "an Ed25519 key");
        let mut mldsa = SIG_ARC_PREFIX.to_vec();
        mldsa.push(18);
        assert_eq!(key_name(&mldsa), "an ML-DSA-65 key");
        assert_eq!(key_name(&[0x2b, 0x06, 0x01]), "a key of algorithm 1.3.6.1");
        assert_eq!(
            key_name(&[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x04, 2]),
            "an ML-KEM-768 key"
        );
    }
}
