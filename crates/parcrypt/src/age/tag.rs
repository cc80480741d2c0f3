//! Tagged recipients, as age 1.3's `tag` package writes them: `age1tag1…`
//! (a compressed P-256 point; stanza `p256tag`) and `age1tagpq1…` (an
//! ML-KEM-768 encapsulation key and an uncompressed P-256 point; stanza
//! `mlkem768p256tag`, post-quantum). Encryption only, as in age: their
//! identities live in hardware and are used through plugins.
//!
//! HPKE base mode (RFC 9180) with DHKEM(P-256, HKDF-SHA256) or the
//! MLKEM768-P256 KEM of draft-ietf-hpke-pq (filippo.io/hpke v0.4: SHA3-256
//! of `ss_PQ ‖ ss_T ‖ ct_T ‖ pk_T ‖ "MLKEM768-P256"`), HKDF-SHA-256 and
//! ChaCha20-Poly1305, info `age-encryption.org/p256tag` or
//! `age-encryption.org/mlkem768p256tag`. The stanza's first argument is a
//! 4-byte tag, HMAC-SHA-256 keyed with the info over `enc ‖
//! SHA-256(recipient P-256 point)[..4]` (the compressed point for
//! `p256tag`, the uncompressed one for the hybrid), so the plugin holding
//! the key finds its stanza without trying each. P-256, ML-KEM-768, SHA-2
//! and SHA-3 are AWS-LC's.

use std::fmt;

use aws_lc_rs::aead::{Aad, Nonce};
use aws_lc_rs::agreement::{self, ECDH_P256, UnparsedPublicKey};
use aws_lc_rs::{digest, hkdf, hmac};

use super::format::{Stanza, b64_encode};
use super::pq::{Len, key_schedule, labeled_extract};
use super::primitives::{FILE_KEY, FileKey, Random, WRAPPED};
use super::{Error, bech};
use crate::ffi::ec::EcKey;
use crate::ffi::kem::{MLKEM768_PUBLIC, mlkem768_encapsulate};
use crate::secret::SecretKey;

const COMPRESSED: usize = 33;
const UNCOMPRESSED: usize = 65;

/// A tagged recipient (`age1tag1…` or `age1tagpq1…`).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct TagRecipient {
    /// The P-256 point, compressed (as `age1tag1…` carries it) and not.
    compressed: [u8; COMPRESSED],
    uncompressed: [u8; UNCOMPRESSED],
    /// The ML-KEM-768 key of `age1tagpq1…`.
    mlkem: Option<Box<[u8; MLKEM768_PUBLIC]>>,
}

/// A P-256 point, checked to be on the curve: (compressed, uncompressed).
fn p256_point(bytes: &[u8]) -> Option<([u8; COMPRESSED], [u8; UNCOMPRESSED])> {
    let key = EcKey::from_point(bytes).ok()?;
    let uncompressed: [u8; UNCOMPRESSED] = key.public_point().ok()?.try_into().ok()?;
    let mut compressed = [0u8; COMPRESSED];
    compressed[0] = 2 | (uncompressed[UNCOMPRESSED - 1] & 1);
    compressed[1..].copy_from_slice(&uncompressed[1..33]);
    Some((compressed, uncompressed))
}

impl TagRecipient {
    /// Parses `age1tag1…` or `age1tagpq1…`, checking the P-256 point is on
    /// the curve and the ML-KEM key as FIPS 203 asks.
    ///
    /// # Errors
    /// [`Error::Key`].
    pub fn parse(s: &str) -> Result<Self, Error> {
        let mut shown: String = s.chars().take(20).collect();
        if shown.len() < s.len() {
            shown.push('…');
        }
        let bad = |why: &str| Error::Key(format!("malformed recipient {shown:?}: {why}"));
        let (hrp, decoded) = bech::decode(s).map_err(|e| bad(&e))?;
        let data = decoded.expose();
        match hrp.as_str() {
            "age1tag" => {
                if data.len() != COMPRESSED {
                    return Err(bad(&format!(
                        "invalid tag recipient public key size {}",
                        data.len()
                    )));
                }
                let (compressed, uncompressed) =
                    p256_point(data).ok_or_else(|| bad("invalid tag recipient public key"))?;
                Ok(TagRecipient {
                    compressed,
                    uncompressed,
                    mlkem: None,
                })
            }
            "age1tagpq" => {
                if data.len() != MLKEM768_PUBLIC + UNCOMPRESSED || data[MLKEM768_PUBLIC] != 4 {
                    return Err(bad("invalid tagpq recipient public key size"));
                }
                let (compressed, uncompressed) = p256_point(&data[MLKEM768_PUBLIC..])
                    .ok_or_else(|| bad("invalid tagpq recipient public key"))?;
                let mut mlkem = Box::new([0u8; MLKEM768_PUBLIC]);
                mlkem.copy_from_slice(&data[..MLKEM768_PUBLIC]);
                mlkem768_encapsulate(&mlkem, &[0; 32])
                    .map_err(|_| bad("invalid ML-KEM-768 encapsulation key"))?;
                Ok(TagRecipient {
                    compressed,
                    uncompressed,
                    mlkem: Some(mlkem),
                })
            }
            other => Err(bad(&format!("invalid type {other:?}"))),
        }
    }

    /// Whether it is the post-quantum hybrid (`age1tagpq1…`).
    pub fn is_hybrid(&self) -> bool {
        self.mlkem.is_some()
    }

    fn info(&self) -> &'static [u8] {
        if self.is_hybrid() {
            b"age-encryption.org/mlkem768p256tag"
        } else {
            b"age-encryption.org/p256tag"
        }
    }

    /// HPKE SealBase of the file key, and the stanza with its tag.
    pub(super) fn wrap(&self, file_key: &FileKey, random: Random<'_>) -> Result<Stanza, Error> {
        let encapsulated = self
            .mlkem
            .as_ref()
            .map(|mlkem| {
                let m = super::primitives::random_scalar(random);
                mlkem768_encapsulate(mlkem, m.expose())
                    .map_err(|_| Error::Key("invalid ML-KEM-768 encapsulation key".into()))
            })
            .transpose()?;
        // An ephemeral P-256 scalar: 32 random bytes, drawn again in the
        // rare case they are not below the group order (as Go's NewPrivateKey).
        let ephemeral = loop {
            let scalar = super::primitives::random_scalar(random);
            if let Ok(key) = agreement::PrivateKey::from_private_key(&ECDH_P256, scalar.expose()) {
                break key;
            }
        };
        let ct_t = ephemeral
            .compute_public_key()
            .map_err(|_| Error::Key("P-256 key generation failed".into()))?;
        let ct_t = ct_t.as_ref();
        let ss_t = agreement::agree(
            &ephemeral,
            UnparsedPublicKey::new(&ECDH_P256, &self.uncompressed[..]),
            (),
            |ss| SecretKey::<32>::from_slice(ss).ok_or(()),
        )
        .map_err(|()| Error::Key("the tag recipient's P-256 point is invalid".into()))?;
        let (suite, enc, shared) = match &encapsulated {
            None => {
                // DHKEM(P-256, HKDF-SHA256): ExtractAndExpand(dh, enc ‖ pkR).
                const KEM: &[u8] = b"KEM\x00\x10";
                let prk = labeled_extract(KEM, b"eae_prk", ss_t.expose());
                let shared = SecretKey::generate(|out: &mut [u8; 32]| {
                    hkdf::Prk::new_less_safe(hkdf::HKDF_SHA256, &prk)
                        .expand(
                            &[
                                &32u16.to_be_bytes(),
                                b"HPKE-v1",
                                KEM,
                                b"shared_secret",
                                ct_t,
                                &self.uncompressed,
                            ],
                            Len(32),
                        )
                        .and_then(|okm| okm.fill(out))
                })
                .map_err(|_| Error::Key("HKDF failed".into()))?;
                (&b"HPKE\x00\x10\x00\x01\x00\x03"[..], ct_t.to_vec(), shared)
            }
            Some((ct_pq, ss_pq)) => {
                let mut ctx = digest::Context::new(&digest::SHA3_256);
                for part in [
                    &ss_pq.expose()[..],
                    &ss_t.expose()[..],
                    ct_t,
                    &self.uncompressed[..],
                    &b"MLKEM768-P256"[..],
                ] {
                    ctx.update(part);
                }
                let shared = SecretKey::from_slice(ctx.finish().as_ref()).expect("SHA3-256 is 32 bytes");
                (
                    &b"HPKE\x00\x50\x00\x01\x00\x03"[..],
                    [&ct_pq[..], ct_t].concat(),
                    shared,
                )
            }
        };
        let (aead, nonce) = key_schedule(suite, self.info(), &shared);
        let mut body = vec![0u8; WRAPPED];
        body[..FILE_KEY].copy_from_slice(file_key.expose());
        let seal_tag = aead
            .seal_in_place_separate_tag(
                Nonce::assume_unique_for_key(nonce),
                Aad::empty(),
                &mut body[..FILE_KEY],
            )
            .expect("ChaCha20-Poly1305 seal of 16 bytes");
        body[FILE_KEY..].copy_from_slice(seal_tag.as_ref());
        // The tag: HKDF-Extract(salt = info, enc ‖ SHA-256(point)[..4])[..4].
        let point: &[u8] = if self.is_hybrid() {
            &self.uncompressed
        } else {
            &self.compressed
        };
        let hashed = digest::digest(&digest::SHA256, point);
        let mut mac = hmac::Context::with_key(&hmac::Key::new(hmac::HMAC_SHA256, self.info()));
        mac.update(&enc);
        mac.update(&hashed.as_ref()[..4]);
        let tag = mac.sign();
        let kind = if self.is_hybrid() {
            "mlkem768p256tag"
        } else {
            "p256tag"
        };
        Ok(Stanza {
            kind: kind.into(),
            args: vec![b64_encode(&tag.as_ref()[..4]), b64_encode(&enc)],
            body,
        })
    }
}

impl fmt::Display for TagRecipient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.mlkem {
            None => f.write_str(bech::encode("age1tag", &self.compressed, false).expose()),
            Some(mlkem) => f.write_str(
                bech::encode("age1tagpq", &[&mlkem[..], &self.uncompressed[..]].concat(), false).expose(),
            ),
        }
    }
}

impl fmt::Debug for TagRecipient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.to_string();
        write!(f, "TagRecipient({}…)", &s[..24])
    }
}
