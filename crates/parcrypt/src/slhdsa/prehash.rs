//! HashSLH-DSA's prehash functions (FIPS 205 §10.2.2) and what is signed.

use std::fmt;
use std::str::FromStr;

use sha3::digest::{ExtendableOutput, Update};

use super::Error;
use crate::name::UnknownName;

/// The hash applied to the message before HashSLH-DSA signs it, named by
/// its object identifier in the signed data. FIPS 205 §10.2.2 names SHA-256,
/// SHA-512, SHAKE128 and SHAKE256; the other approved hashes NIST's ACVP
/// vectors use are here too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PreHash {
    /// SHA-224 (OID 2.16.840.1.101.3.4.2.4).
    Sha224,
    /// SHA-256 (2.16.840.1.101.3.4.2.1).
    Sha256,
    /// SHA-384 (2.16.840.1.101.3.4.2.2).
    Sha384,
    /// SHA-512 (2.16.840.1.101.3.4.2.3).
    Sha512,
    /// SHA-512/224 (2.16.840.1.101.3.4.2.5).
    Sha512_224,
    /// SHA-512/256 (2.16.840.1.101.3.4.2.6).
    Sha512_256,
    /// SHA3-224 (2.16.840.1.101.3.4.2.7).
    Sha3_224,
    /// SHA3-256 (2.16.840.1.101.3.4.2.8).
    Sha3_256,
    /// SHA3-384 (2.16.840.1.101.3.4.2.9).
    Sha3_384,
    /// SHA3-512 (2.16.840.1.101.3.4.2.10).
    Sha3_512,
    /// SHAKE128 with 256 bits of output (2.16.840.1.101.3.4.2.11).
    Shake128,
    /// SHAKE256 with 512 bits of output (2.16.840.1.101.3.4.2.12).
    Shake256,
}

impl PreHash {
    /// Every prehash, in OID order of their names above.
    pub const ALL: [PreHash; 12] = [
        PreHash::Sha224,
        PreHash::Sha256,
        PreHash::Sha384,
        PreHash::Sha512,
        PreHash::Sha512_224,
        PreHash::Sha512_256,
        PreHash::Sha3_224,
        PreHash::Sha3_256,
        PreHash::Sha3_384,
        PreHash::Sha3_512,
        PreHash::Shake128,
        PreHash::Shake256,
    ];

    /// The name [`FromStr`] reads back: `sha256`, `sha512-224`, `sha3-256`,
    /// `shake128`, …
    pub fn name(self) -> &'static str {
        match self {
            PreHash::Sha224 => "sha224",
            PreHash::Sha256 => "sha256",
            PreHash::Sha384 => "sha384",
            PreHash::Sha512 => "sha512",
            PreHash::Sha512_224 => "sha512-224",
            PreHash::Sha512_256 => "sha512-256",
            PreHash::Sha3_224 => "sha3-224",
            PreHash::Sha3_256 => "sha3-256",
            PreHash::Sha3_384 => "sha3-384",
            PreHash::Sha3_512 => "sha3-512",
            PreHash::Shake128 => "shake128",
            PreHash::Shake256 => "shake256",
        }
    }

    /// The last arc of the hash's OID, 2.16.840.1.101.3.4.2.*arc*.
    fn arc(self) -> u8 {
        match self {
            PreHash::Sha256 => 1,
            PreHash::Sha384 => 2,
            PreHash::Sha512 => 3,
            PreHash::Sha224 => 4,
            PreHash::Sha512_224 => 5,
            PreHash::Sha512_256 => 6,
            PreHash::Sha3_224 => 7,
            PreHash::Sha3_256 => 8,
            PreHash::Sha3_384 => 9,
            PreHash::Sha3_512 => 10,
            PreHash::Shake128 => 11,
            PreHash::Shake256 => 12,
        }
    }

    /// The DER encoding of the hash's OID, as HashSLH-DSA signs it.
    pub fn oid_der(self) -> [u8; 11] {
        [
            0x06,
            0x09,
            0x60,
            0x86,
            0x48,
            0x01,
            0x65,
            0x03,
            0x04,
            0x02,
            self.arc(),
        ]
    }

    /// Bytes of the digest (SHAKE128: 32, SHAKE256: 64).
    pub fn digest_len(self) -> usize {
        match self {
            PreHash::Sha224 | PreHash::Sha512_224 | PreHash::Sha3_224 => 28,
            PreHash::Sha256 | PreHash::Sha512_256 | PreHash::Sha3_256 | PreHash::Shake128 => 32,
            PreHash::Sha384 | PreHash::Sha3_384 => 48,
            PreHash::Sha512 | PreHash::Sha3_512 | PreHash::Shake256 => 64,
        }
    }

    /// The digest of `msg`.
    pub fn digest(self, msg: &[u8]) -> Vec<u8> {
        fn fixed<D: sha2::Digest>(msg: &[u8]) -> Vec<u8> {
            D::digest(msg).to_vec()
        }
        fn xof<X: Default + Update + ExtendableOutput>(msg: &[u8], len: usize) -> Vec<u8> {
            let mut x = X::default();
            x.update(msg);
            let mut out = vec![0u8; len];
            x.finalize_xof_into(&mut out);
            out
        }
        match self {
            PreHash::Sha224 => fixed::<sha2::Sha224>(msg),
            PreHash::Sha256 => fixed::<sha2::Sha256>(msg),
            PreHash::Sha384 => fixed::<sha2::Sha384>(msg),
            PreHash::Sha512 => fixed::<sha2::Sha512>(msg),
            PreHash::Sha512_224 => fixed::<sha2::Sha512_224>(msg),
            PreHash::Sha512_256 => fixed::<sha2::Sha512_256>(msg),
            PreHash::Sha3_224 => fixed::<sha3::Sha3_224>(msg),
            PreHash::Sha3_256 => fixed::<sha3::Sha3_256>(msg),
            PreHash::Sha3_384 => fixed::<sha3::Sha3_384>(msg),
            PreHash::Sha3_512 => fixed::<sha3::Sha3_512>(msg),
            PreHash::Shake128 => xof::<sha3::Shake128>(msg, 32),
            PreHash::Shake256 => xof::<sha3::Shake256>(msg, 64),
        }
    }
}

impl fmt::Display for PreHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for PreHash {
    type Err = UnknownName;

    /// Reads [`PreHash::name`], in any case, and the spellings of NIST's
    /// vectors and OpenSSL (`SHA2-256`, `SHA-256`, `SHA2-512/224`,
    /// `SHAKE-128`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lower = s.to_ascii_lowercase();
        let plain = lower
            .replacen("sha2-", "sha", 1)
            .replacen("sha-", "sha", 1)
            .replacen("shake-", "shake", 1)
            .replace('/', "-");
        PreHash::ALL.into_iter().find(|h| h.name() == plain).ok_or_else(|| {
            UnknownName::new(
                "prehash",
                s,
                "sha224, sha256, sha384, sha512, sha512-224, sha512-256, sha3-224, sha3-256, sha3-384, sha3-512, shake128 or shake256",
            )
        })
    }
}

/// What SLH-DSA signs: a message with its context string, either as it is
/// (pure SLH-DSA, `M' = 0 ‖ |ctx| ‖ ctx ‖ M`) or through a prehash
/// (HashSLH-DSA, `M' = 1 ‖ |ctx| ‖ ctx ‖ OID ‖ PH(M)`), FIPS 205 §10.2.
///
/// # Examples
/// ```
/// use parcrypt::slhdsa::{Message, PreHash};
/// let pure = Message::pure(b"firmware image", b"release-2026")?;
/// let hashed = Message::prehashed(PreHash::Sha256, b"firmware image", b"")?;
/// assert!(Message::pure(b"x", &[0u8; 256]).is_err());
/// # let _ = (pure, hashed);
/// # Ok::<(), parcrypt::slhdsa::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message<'a> {
    header: Vec<u8>,
    body: &'a [u8],
}

fn header(domain: u8, context: &[u8]) -> Result<Vec<u8>, Error> {
    let len = u8::try_from(context.len()).map_err(|_| Error::ContextTooLong(context.len()))?;
    let mut h = Vec::with_capacity(2 + context.len() + 11 + 64);
    h.extend([domain, len]);
    h.extend_from_slice(context);
    Ok(h)
}

impl<'a> Message<'a> {
    /// Pure SLH-DSA of `msg` under `context` (empty for none). The message
    /// is not copied.
    ///
    /// # Errors
    /// [`Error::ContextTooLong`] if `context` is over 255 bytes.
    pub fn pure(msg: &'a [u8], context: &[u8]) -> Result<Message<'a>, Error> {
        Ok(Message {
            header: header(0, context)?,
            body: msg,
        })
    }

    /// HashSLH-DSA of `msg` under `context`: `msg` is hashed with `hash` now.
    ///
    /// # Errors
    /// [`Error::ContextTooLong`] if `context` is over 255 bytes.
    pub fn prehashed(hash: PreHash, msg: &[u8], context: &[u8]) -> Result<Message<'static>, Error> {
        Message::from_digest(hash, &hash.digest(msg), context)
    }

    /// HashSLH-DSA of a message whose `hash` digest was computed elsewhere
    /// (a file hashed as it streamed past).
    ///
    /// # Errors
    /// [`Error::ContextTooLong`] if `context` is over 255 bytes,
    /// [`Error::DigestLength`] if `digest` is not `hash`'s length.
    pub fn from_digest(hash: PreHash, digest: &[u8], context: &[u8]) -> Result<Message<'static>, Error> {
        if digest.len() != hash.digest_len() {
            return Err(Error::DigestLength {
                hash,
                expected: hash.digest_len(),
                got: digest.len(),
            });
        }
        let mut header = header(1, context)?;
        header.extend_from_slice(&hash.oid_der());
        header.extend_from_slice(digest);
        Ok(Message { header, body: &[] })
    }

    /// M' in two pieces: the domain, context (and OID and digest), then the message.
    pub(super) fn parts(&self) -> [&[u8]; 2] {
        [&self.header, self.body]
    }
}
