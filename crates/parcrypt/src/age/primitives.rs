//! The small pieces every recipient type shares, each a call into AWS-LC:
//! HKDF-SHA-256, ChaCha20-Poly1305 under a one-time key with the zero
//! nonce (the stanza wraps), X25519, the header MAC and the payload key.

use aws_lc_rs::aead::{Aad, CHACHA20_POLY1305, LessSafeKey, Nonce, UnboundKey};
use aws_lc_rs::agreement::{self, UnparsedPublicKey, X25519};
use aws_lc_rs::{hkdf, hmac};

use super::Error;
use crate::ffi::AeadKey;
use crate::secret::{SecretKey, wipe};

/// The file key's length.
pub(super) const FILE_KEY: usize = 16;
/// The payload nonce's length.
pub(super) const NONCE: usize = 16;
/// A wrapped file key: 16 bytes and a 16-byte tag.
pub(super) const WRAPPED: usize = FILE_KEY + 16;

/// The file key: 16 random bytes, wiped on drop.
pub(super) type FileKey = SecretKey<FILE_KEY>;

/// Where random bytes come from: the operating system's generator, or
/// (for reproducible files in tests) a caller's function.
pub(super) type Random<'a> = &'a mut dyn FnMut(&mut [u8]);

/// Random bytes straight from the operating system (`getrandom(2)`), as the
/// stream format draws its keys: AWS-LC's generator seeds itself from
/// CPU-jitter entropy on first use, ~20 ms per process.
pub(super) fn os_random(out: &mut [u8]) {
    getrandom::fill(out).expect("the operating system's random number generator");
}

/// An HKDF output length.
struct Len(usize);

impl hkdf::KeyType for Len {
    fn len(&self) -> usize {
        self.0
    }
}

/// HKDF-SHA-256(salt, ikm, info) into `out` (at most 8160 bytes).
pub(super) fn hkdf_into(salt: &[u8], ikm: &[u8], info: &[u8], out: &mut [u8]) {
    hkdf::Salt::new(hkdf::HKDF_SHA256, salt)
        .extract(ikm)
        .expand(&[info], Len(out.len()))
        .and_then(|okm| okm.fill(out))
        .expect("HKDF-SHA-256 output of at most 8160 bytes");
}

/// A 32-byte key from HKDF-SHA-256, made in place.
pub(super) fn hkdf32(salt: &[u8], ikm: &[u8], info: &[u8]) -> SecretKey<32> {
    SecretKey::generate(|k| {
        hkdf_into(salt, ikm, info, k);
        Ok::<(), ()>(())
    })
    .unwrap_or_else(|()| unreachable!("filled above"))
}

fn one_time_key(key: &SecretKey<32>) -> LessSafeKey {
    LessSafeKey::new(UnboundKey::new(&CHACHA20_POLY1305, key.expose()).expect("a 32-byte key"))
}

/// ChaCha20-Poly1305 of the file key under a one-time key, zero nonce.
pub(super) fn wrap(key: &SecretKey<32>, file_key: &FileKey) -> Vec<u8> {
    let mut out = vec![0u8; WRAPPED];
    out[..FILE_KEY].copy_from_slice(file_key.expose());
    let tag = one_time_key(key)
        .seal_in_place_separate_tag(
            Nonce::assume_unique_for_key([0; 12]),
            Aad::empty(),
            &mut out[..FILE_KEY],
        )
        .expect("ChaCha20-Poly1305 seal of 16 bytes");
    out[FILE_KEY..].copy_from_slice(tag.as_ref());
    out
}

/// Opens a wrapped file key; `None` if the tag fails. The caller checks
/// the body's length first (age: a body of any other length is a
/// malformed stanza, never tried).
pub(super) fn unwrap(key: &SecretKey<32>, body: &[u8]) -> Option<FileKey> {
    let mut buf = [0u8; WRAPPED];
    buf.copy_from_slice(body.get(..WRAPPED)?);
    let key = one_time_key(key)
        .open_in_place(Nonce::assume_unique_for_key([0; 12]), Aad::empty(), &mut buf)
        .ok()
        .and_then(|plain| SecretKey::from_slice(plain));
    wipe(&mut buf);
    key
}

/// X25519(scalar, point); `None` when the result is all zeros (a low-order
/// point), which age refuses.
pub(super) fn x25519(scalar: &[u8; 32], point: &[u8; 32]) -> Option<SecretKey<32>> {
    let private = agreement::PrivateKey::from_private_key(&X25519, scalar).ok()?;
    agreement::agree(&private, UnparsedPublicKey::new(&X25519, point), (), |ss| {
        SecretKey::from_slice(ss).ok_or(())
    })
    .ok()
}

/// X25519(scalar, 9): the public key of a scalar.
pub(super) fn x25519_base(scalar: &[u8; 32]) -> [u8; 32] {
    let private =
        agreement::PrivateKey::from_private_key(&X25519, scalar).expect("any 32 bytes are an X25519 scalar");
    let public = private.compute_public_key().expect("X25519 public key");
    let mut out = [0u8; 32];
    out.copy_from_slice(public.as_ref());
    out
}

/// A fresh X25519 scalar from `random`, drawn in place.
pub(super) fn random_scalar(random: Random<'_>) -> SecretKey<32> {
    SecretKey::generate(|k| {
        random(k);
        Ok::<(), ()>(())
    })
    .unwrap_or_else(|()| unreachable!("filled above"))
}

/// The header MAC: HMAC-SHA-256 under HKDF(salt = empty, file key, "header").
pub(super) fn header_mac(file_key: &FileKey, signed: &[u8]) -> [u8; 32] {
    let key = hkdf32(&[], file_key.expose(), b"header");
    let tag = hmac::sign(&hmac::Key::new(hmac::HMAC_SHA256, key.expose()), signed);
    let mut mac = [0u8; 32];
    mac.copy_from_slice(tag.as_ref());
    mac
}

/// Checks the header MAC in constant time.
pub(super) fn verify_header_mac(file_key: &FileKey, signed: &[u8], mac: &[u8; 32]) -> Result<(), Error> {
    let key = hkdf32(&[], file_key.expose(), b"header");
    hmac::verify(&hmac::Key::new(hmac::HMAC_SHA256, key.expose()), signed, mac)
        .map_err(|_| Error::HeaderAuthentication)
}

/// The payload key: HKDF-SHA-256(salt = nonce, file key, "payload"), as a
/// ChaCha20-Poly1305 key for the chunks.
pub(super) fn payload_key(file_key: &FileKey, nonce: &[u8; NONCE]) -> AeadKey {
    AeadKey::chacha20_poly1305(hkdf32(nonce, file_key.expose(), b"payload").expose())
}
