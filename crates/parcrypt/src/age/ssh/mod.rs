//! SSH keys as age recipients and identities, as age's `agessh` does them:
//!
//! - `ssh-ed25519`: the Ed25519 public key mapped to Curve25519
//!   (curve25519-dalek's Edwards-to-Montgomery map) and used as an X25519
//!   recipient, with a tweak bound to the SSH key: `-> ssh-ed25519 <tag>
//!   <share>`; the identity's scalar is SHA-512(seed)[..32], as Ed25519's.
//! - `ssh-rsa`: RSA-OAEP-SHA-256 of the file key with the label
//!   `age-encryption.org/v1/ssh-rsa`: `-> ssh-rsa <tag>`; 2048 bits at least.
//!
//! The tag is the first 4 bytes of SHA-256 of the SSH public key blob.
//! Public keys come as authorized_keys lines; identities as OpenSSH private
//! keys (`-----BEGIN OPENSSH PRIVATE KEY-----`), or PEM PKCS#1/PKCS#8 RSA
//! keys. A passphrase-protected OpenSSH key (bcrypt_pbkdf and AES-CTR, as
//! ssh-keygen writes it) is an [`EncryptedSshIdentity`]: its public key is
//! in the clear, so the passphrase is asked for (through a callback) only
//! when a stanza of the file names that key, as age does.

use std::fmt;
use std::sync::Arc;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use curve25519_dalek::edwards::CompressedEdwardsY;
use zeroize::Zeroizing;

use super::Error;
use super::format::{Stanza, b64_decode, b64_encode};
use super::primitives::{
    FILE_KEY, FileKey, Random, WRAPPED, hkdf32, random_scalar, unwrap, wrap, x25519, x25519_base,
};
use crate::digest::{Algorithm, digest};
use crate::keys::SigningKey as _;
use crate::par::Parallelism;
use crate::rsa;
use crate::secret::SecretKey;

mod openssh;

pub(super) use openssh::parse_private;
pub use openssh::{EncryptedSshIdentity, PassphraseSource};
use openssh::{OpenSsh, PrivateError, parse_openssh};

const ED25519: &str = "ssh-ed25519";
const RSA: &str = "ssh-rsa";
const ED25519_LABEL: &[u8] = b"age-encryption.org/v1/ssh-ed25519";
const RSA_LABEL: &[u8] = b"age-encryption.org/v1/ssh-rsa";
/// The smallest RSA key age encrypts to.
const MIN_RSA_BITS: usize = 2048;

/// SSH wire-format reading (RFC 4251): `uint32`, `string`, `mpint`.
struct Wire<'a>(&'a [u8]);

impl<'a> Wire<'a> {
    fn u32(&mut self) -> Option<u32> {
        let (head, rest) = self.0.split_first_chunk::<4>()?;
        self.0 = rest;
        Some(u32::from_be_bytes(*head))
    }

    fn string(&mut self) -> Option<&'a [u8]> {
        let len = self.u32()? as usize;
        if len > self.0.len() {
            return None;
        }
        let (s, rest) = self.0.split_at(len);
        self.0 = rest;
        Some(s)
    }

    /// An unsigned `mpint` (its leading zero byte dropped).
    fn mpint(&mut self) -> Option<&'a [u8]> {
        let s = self.string()?;
        if s.first().is_some_and(|&b| b & 0x80 != 0) {
            return None; // negative
        }
        Some(s.strip_prefix(&[0]).unwrap_or(s))
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

fn put_string(out: &mut Vec<u8>, s: &[u8]) {
    out.extend_from_slice(&(s.len() as u32).to_be_bytes());
    out.extend_from_slice(s);
}

fn put_mpint(out: &mut Vec<u8>, n: &[u8]) {
    let n = &n[n.iter().take_while(|&&b| b == 0).count()..];
    if n.first().is_some_and(|&b| b & 0x80 != 0) {
        out.extend_from_slice(&(n.len() as u32 + 1).to_be_bytes());
        out.push(0);
        out.extend_from_slice(n);
    } else {
        put_string(out, n);
    }
}

/// The stanza tag of a public key blob: base64 of SHA-256(blob)[..4].
fn tag(blob: &[u8]) -> String {
    b64_encode(&digest(Algorithm::Sha256, blob).as_bytes()[..4])
}

#[derive(Clone)]
enum PublicKey {
    Ed25519 { montgomery: [u8; 32] },
    Rsa(Arc<rsa::PublicKey>),
}

/// An SSH public key age encrypts to (`ssh-ed25519 AAAA…` or `ssh-rsa AAAA…`).
#[derive(Clone)]
pub struct SshRecipient {
    /// The public key blob (what the tag hashes).
    blob: Vec<u8>,
    key: PublicKey,
}

impl PartialEq for SshRecipient {
    fn eq(&self, other: &Self) -> bool {
        self.blob == other.blob
    }
}

impl Eq for SshRecipient {}

fn ed25519_to_montgomery(public: &[u8]) -> Option<[u8; 32]> {
    let point = CompressedEdwardsY(<[u8; 32]>::try_from(public).ok()?).decompress()?;
    Some(point.to_montgomery().to_bytes())
}

/// The key type named in an authorized_keys line and its decoded blob.
fn split_line(line: &str) -> Option<(&str, Vec<u8>)> {
    let mut fields = line.split_ascii_whitespace();
    let kind = fields.next()?;
    let blob = STANDARD.decode(fields.next()?).ok()?;
    Some((kind, blob))
}

impl SshRecipient {
    /// Parses an authorized_keys line (`ssh-ed25519 AAAA… comment` or
    /// `ssh-rsa AAAA… comment`).
    ///
    /// # Errors
    /// [`Error::Key`]: malformed, another key type, an RSA key under 2048 bits.
    pub fn parse(line: &str) -> Result<Self, Error> {
        let shown: String = line.chars().take(40).collect();
        let bad = |why: &str| Error::Key(format!("malformed SSH recipient {shown:?}…: {why}"));
        let (kind, blob) = split_line(line).ok_or_else(|| bad("not an authorized_keys line"))?;
        Self::from_blob(kind, blob).map_err(|e| bad(&e))
    }

    fn from_blob(kind: &str, blob: Vec<u8>) -> Result<Self, String> {
        let mut w = Wire(&blob);
        let inner = w.string().ok_or("truncated key")?;
        if inner != kind.as_bytes() {
            return Err(format!("the key inside is not {kind}"));
        }
        let key = match kind {
            ED25519 => {
                let public = w.string().ok_or("truncated key")?;
                let montgomery = ed25519_to_montgomery(public).ok_or("invalid Ed25519 public key")?;
                PublicKey::Ed25519 { montgomery }
            }
            RSA => {
                let e = w.mpint().ok_or("truncated key")?;
                let n = w.mpint().ok_or("truncated key")?;
                let key = rsa::PublicKey::from_components(n, e).map_err(|e| e.to_string())?;
                if key.bits() < MIN_RSA_BITS {
                    return Err(format!(
                        "RSA key of {} bits (age needs {MIN_RSA_BITS} or more)",
                        key.bits()
                    ));
                }
                PublicKey::Rsa(Arc::new(key))
            }
            other => return Err(format!("unsupported SSH key type {other:?}")),
        };
        if !w.is_empty() {
            return Err("trailing bytes in the key".into());
        }
        Ok(SshRecipient { blob, key })
    }

    fn kind(&self) -> &'static str {
        match self.key {
            PublicKey::Ed25519 { .. } => ED25519,
            PublicKey::Rsa(_) => RSA,
        }
    }

    pub(super) fn wrap(&self, file_key: &FileKey, random: Random<'_>) -> Result<Stanza, Error> {
        match &self.key {
            PublicKey::Ed25519 { montgomery } => {
                let ephemeral = random_scalar(random);
                let share = x25519_base(ephemeral.expose());
                let shared = x25519(ephemeral.expose(), montgomery)
                    .ok_or_else(|| Error::Key("the ssh-ed25519 recipient is a low-order point".into()))?;
                let shared = tweak(&self.blob, &shared)?;
                let key = hkdf32(
                    &[&share[..], &montgomery[..]].concat(),
                    shared.expose(),
                    ED25519_LABEL,
                );
                Ok(Stanza {
                    kind: ED25519.into(),
                    args: vec![tag(&self.blob), b64_encode(&share)],
                    body: wrap(&key, file_key),
                })
            }
            PublicKey::Rsa(key) => Ok(Stanza {
                kind: RSA.into(),
                args: vec![tag(&self.blob)],
                // OAEP's seed comes from AWS-LC's generator, not `random`.
                body: key.encrypt_oaep(file_key.expose(), Algorithm::Sha256, Algorithm::Sha256, RSA_LABEL)?,
            }),
        }
    }
}

/// The ssh-ed25519 tweak: X25519(HKDF(salt = key blob, ikm = "", label), shared).
fn tweak(blob: &[u8], shared: &SecretKey<32>) -> Result<SecretKey<32>, Error> {
    let tweak = hkdf32(blob, &[], ED25519_LABEL);
    x25519(tweak.expose(), shared.expose())
        .ok_or_else(|| Error::MalformedHeader("invalid ssh-ed25519 shared secret".into()))
}

impl fmt::Display for SshRecipient {
    /// The authorized_keys form, without a comment.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.kind(), STANDARD.encode(&self.blob))
    }
}

impl fmt::Debug for SshRecipient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SshRecipient({} {})", self.kind(), tag(&self.blob))
    }
}

#[derive(Clone)]
enum PrivateKey {
    Ed25519 {
        scalar: SecretKey<32>,
        montgomery: [u8; 32],
    },
    Rsa(Arc<rsa::PrivateKey>),
}

/// An SSH private key age decrypts with: an unencrypted OpenSSH key
/// (Ed25519 or RSA) or a PEM RSA key. Wiped on drop, redacted in `Debug`.
#[derive(Clone)]
pub struct SshIdentity {
    public: SshRecipient,
    key: PrivateKey,
}

impl fmt::Debug for SshIdentity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SshIdentity({:?}, secret redacted)", self.public)
    }
}

const OPENSSH_BEGIN: &str = "-----BEGIN OPENSSH PRIVATE KEY-----";
const OPENSSH_END: &str = "-----END OPENSSH PRIVATE KEY-----";

impl SshIdentity {
    /// Parses a private key file: OpenSSH's format (Ed25519 or RSA, not
    /// passphrase-protected) or a PEM RSA key (PKCS#1 or PKCS#8). Error
    /// messages never quote the key.
    ///
    /// # Errors
    /// [`Error::Key`].
    pub fn parse(pem: &[u8]) -> Result<Self, Error> {
        let bad = |why: &str| Error::Key(format!("SSH private key: {why}"));
        let text = std::str::from_utf8(pem).map_err(|_| bad("not a PEM text file"))?;
        let Some(start) = text.find(OPENSSH_BEGIN) else {
            // PKCS#1 / PKCS#8 RSA, as age reads through x/crypto/ssh (an
            // RSA key is only parsed: no threads to give).
            let key = rsa::PrivateKey::from_bytes(pem, &Parallelism::sequential())
                .map_err(|e| bad(&e.to_string()))?;
            return Self::from_rsa(key).map_err(|e| bad(&e));
        };
        let body = &text[start + OPENSSH_BEGIN.len()..];
        let end = body.find(OPENSSH_END).ok_or_else(|| bad("no end line"))?;
        let b64: Zeroizing<String> =
            Zeroizing::new(body[..end].chars().filter(|c| !c.is_ascii_whitespace()).collect());
        let der = Zeroizing::new(STANDARD.decode(b64.as_bytes()).map_err(|_| bad("not base64"))?);
        Self::from_openssh(&der).map_err(|e| bad(&e))
    }

    fn from_openssh(data: &[u8]) -> Result<Self, String> {
        match parse_openssh(data)? {
            OpenSsh::Plain(id) => Ok(id),
            OpenSsh::Encrypted(_) => Err(
                "the key is passphrase-protected: read it with parse_identities, which asks for the passphrase only when needed"
                    .into(),
            ),
        }
    }

    /// The identity of a decrypted private section (`check, check, kind,
    /// key…`), checked against the file's public key.
    fn from_private_section(public_blob: Vec<u8>, private: &[u8]) -> Result<Self, PrivateError> {
        let mut p = Wire(private);
        let (c1, c2) = (p.u32().ok_or("truncated")?, p.u32().ok_or("truncated")?);
        if c1 != c2 {
            return Err(PrivateError::Check);
        }
        let kind = std::str::from_utf8(p.string().ok_or("truncated")?).map_err(|_| "bad key type")?;
        let public = SshRecipient::from_blob(kind, public_blob)?;
        let key = match kind {
            ED25519 => {
                let pk = p.string().ok_or("truncated")?;
                let sk = p.string().ok_or("truncated")?;
                if sk.len() != 64 || &sk[32..] != pk {
                    return Err("malformed Ed25519 private key".into());
                }
                let hash = Zeroizing::new(digest(Algorithm::Sha512, &sk[..32]).as_bytes().to_vec());
                let scalar = SecretKey::from_slice(&hash[..32]).ok_or("SHA-512")?;
                let montgomery = x25519_base(scalar.expose());
                match &public.key {
                    PublicKey::Ed25519 { montgomery: m } if *m == montgomery => {}
                    _ => return Err("the private key does not match its public key".into()),
                }
                PrivateKey::Ed25519 { scalar, montgomery }
            }
            RSA => {
                let n = p.mpint().ok_or("truncated")?;
                let e = p.mpint().ok_or("truncated")?;
                let d = p.mpint().ok_or("truncated")?;
                let iqmp = p.mpint().ok_or("truncated")?;
                let pp = p.mpint().ok_or("truncated")?;
                let q = p.mpint().ok_or("truncated")?;
                let key = rsa::PrivateKey::from_components(n, e, d, pp, q, iqmp)
                    .map_err(|e| PrivateError::Other(e.to_string()))?;
                match &public.key {
                    PublicKey::Rsa(k) if k.to_pkcs1_der().ok() == key.public_key().to_pkcs1_der().ok() => {}
                    _ => return Err("the private key does not match its public key".into()),
                }
                PrivateKey::Rsa(Arc::new(key))
            }
            other => return Err(PrivateError::Other(format!("unsupported SSH key type {other:?}"))),
        };
        Ok(SshIdentity { public, key })
    }

    fn from_rsa(key: rsa::PrivateKey) -> Result<Self, String> {
        let der = key.public_key().to_pkcs1_der().map_err(|e| e.to_string())?;
        // RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent INTEGER }
        let (n, e) = der_integers(&der).ok_or("malformed RSA public key")?;
        let mut blob = Vec::new();
        put_string(&mut blob, RSA.as_bytes());
        put_mpint(&mut blob, e);
        put_mpint(&mut blob, n);
        let public = SshRecipient::from_blob(RSA, blob)?;
        Ok(SshIdentity {
            public,
            key: PrivateKey::Rsa(Arc::new(key)),
        })
    }

    /// The public key.
    pub fn to_recipient(&self) -> SshRecipient {
        self.public.clone()
    }

    /// The file key if `stanza` is for this key; `Ok(None)` for another
    /// stanza or key; an error for a malformed stanza of its type.
    pub(super) fn unwrap(&self, stanza: &Stanza) -> Result<Option<FileKey>, Error> {
        let kind = self.public.kind();
        if stanza.kind != kind {
            return Ok(None);
        }
        let bad = |why: &str| Error::MalformedHeader(format!("invalid {kind} stanza: {why}"));
        match &self.key {
            PrivateKey::Ed25519 { scalar, montgomery } => {
                let [t, share] = &stanza.args[..] else {
                    return Err(bad("it must have exactly two arguments"));
                };
                let share = b64_decode(share)
                    .and_then(|s| <[u8; 32]>::try_from(s).ok())
                    .ok_or_else(|| bad("the share is not canonical base64 of 32 bytes"))?;
                if *t != tag(&self.public.blob) {
                    return Ok(None);
                }
                if stanza.body.len() != WRAPPED {
                    return Err(bad("the body is not a wrapped 16-byte file key"));
                }
                let shared =
                    x25519(scalar.expose(), &share).ok_or_else(|| bad("the share is a low-order point"))?;
                let shared = tweak(&self.public.blob, &shared)?;
                let key = hkdf32(
                    &[&share[..], &montgomery[..]].concat(),
                    shared.expose(),
                    ED25519_LABEL,
                );
                Ok(unwrap(&key, &stanza.body))
            }
            PrivateKey::Rsa(key) => {
                let [t] = &stanza.args[..] else {
                    return Err(bad("it must have exactly one argument"));
                };
                if *t != tag(&self.public.blob) {
                    return Ok(None);
                }
                // The tag is only a hint: a failure is another key's stanza.
                let Ok(plain) = key.decrypt_oaep(
                    &stanza.body,
                    Algorithm::Sha256,
                    Algorithm::Sha256,
                    RSA_LABEL,
                    &Parallelism::sequential(),
                ) else {
                    return Ok(None);
                };
                if plain.len() != FILE_KEY {
                    return Err(bad("the wrapped file key is not 16 bytes"));
                }
                Ok(SecretKey::from_slice(plain.expose()))
            }
        }
    }
}

/// The two INTEGERs of a DER `SEQUENCE { INTEGER, INTEGER }`, unsigned.
fn der_integers(der: &[u8]) -> Option<(&[u8], &[u8])> {
    fn header(d: &[u8], tag: u8) -> Option<(&[u8], &[u8])> {
        let (&t, rest) = d.split_first()?;
        if t != tag {
            return None;
        }
        let (&l, rest) = rest.split_first()?;
        let (len, rest) = if l < 0x80 {
            (usize::from(l), rest)
        } else {
            let k = usize::from(l & 0x7f);
            if k == 0 || k > 4 || rest.len() < k {
                return None;
            }
            (
                rest[..k].iter().fold(0usize, |a, &b| a << 8 | usize::from(b)),
                &rest[k..],
            )
        };
        (len <= rest.len()).then(|| rest.split_at(len))
    }
    let (seq, _) = header(der, 0x30)?;
    let (n, rest) = header(seq, 0x02)?;
    let (e, _) = header(rest, 0x02)?;
    fn strip(x: &[u8]) -> &[u8] {
        x.strip_prefix(&[0]).unwrap_or(x)
    }
    Some((strip(n), strip(e)))
}

/// The type of a valid SSH public key line age does not encrypt to (ECDSA,
/// security keys, RSA under 2048 bits), for recipients files to skip it
/// as age does.
pub(super) fn unsupported_key_type(line: &str) -> Option<String> {
    let (kind, blob) = split_line(line)?;
    let inner = Wire(&blob).string()?;
    if inner != kind.as_bytes() {
        return None;
    }
    match kind {
        ED25519 => None,
        RSA => {
            let mut w = Wire(&blob);
            w.string()?;
            let (e, n) = (w.mpint()?, w.mpint()?);
            let bits = rsa::PublicKey::from_components(n, e).ok()?.bits();
            (bits < MIN_RSA_BITS).then(|| kind.to_owned())
        }
        other => Some(other.to_owned()),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn wire_mpints_round_trip() {
        for n in [&[0x01u8, 0x02][..], &[0x80, 0x00], &[0x00, 0x00, 0x7f]] {
            let mut out = Vec::new();
            put_mpint(&mut out, n);
            let got = Wire(&out).mpint().unwrap();
            let want = &n[n.iter().take_while(|&&b| b == 0).count()..];
            assert_eq!(got, want);
        }
    }
}
