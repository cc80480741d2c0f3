//! The stream header: recipients' stanzas wrapping the file key, and the
//! header MAC. Layout in `docs/FORMAT.md`.

use std::io::Read;

use aws_lc_rs::aead::{AES_256_GCM, Aad, LessSafeKey, Nonce, UnboundKey};
use aws_lc_rs::{hkdf, hmac};

use super::{DecryptOptions, Error, Identity, Recipient};
use crate::ffi;
use crate::keys::{SigningKey as _, VerifyingKey as _};
use crate::par::Parallelism;
use crate::secret::{SecretKey, wipe};

const MAGIC: &[u8; 8] = b"PARCRYPT";
const VERSION: u8 = 1;
const WRAP_AAD: &[u8] = b"parcrypt stream v1 wrap";
const PAYLOAD_INFO: &[u8] = b"parcrypt stream v1 payload";
const HEADER_INFO: &[u8] = b"parcrypt stream v1 header";

const KIND_KEY: u8 = 1;
const KIND_SCRYPT: u8 = 2;
const KIND_RSA: u8 = 3;

/// The scrypt cost parcrypt writes by default: N = 2^18, r = 8, p = 1
/// (256 MiB, about a second), as age does.
pub const DEFAULT_SCRYPT_LOG2_N: u8 = 18;
/// The most expensive scrypt cost parcrypt reads or writes: N = 2^22 (4 GiB),
/// so a crafted header cannot make a reader allocate without bound.
pub const MAX_SCRYPT_LOG2_N: u8 = 22;
/// The most expensive scrypt cost a reader accepts unless told otherwise
/// ([`DecryptOptions::max_work_factor`]): N = 2^20, 1 GiB and about 3 s of
/// one core on the 2-vCPU EPYC this was measured on (the default cost, 2^18,
/// takes 256 MiB and 0.8 s; 2^22 would take 4 GiB and over 10 s). Anyone
/// can write a header, and scrypt runs before anything in it is
/// authenticated, so this is the most CPU and memory a file from a stranger
/// may cost; four times the default cost leaves room for files written with
/// a higher `--work-factor` on purpose.
pub const DEFAULT_MAX_WORK_FACTOR: u8 = 20;
const SCRYPT_R: u8 = 8;
const SCRYPT_P: u8 = 1;
const MAX_STANZAS: usize = 64;
const MAX_STANZA_BODY: usize = 4096;

/// The derived keys of one stream.
pub(super) struct Keys {
    pub(super) payload: crate::ffi::AeadKey,
    /// The payload key's bytes, for [`super::Segments`] to hand to other
    /// processes; the header key never leaves.
    pub(super) payload_bytes: SecretKey<32>,
    header: hmac::Key,
}

enum Stanza {
    Key {
        nonce: [u8; 12],
        wrapped: [u8; 48],
    },
    /// Parsed only with r = 8, p = 1 and N within what parcrypt reads.
    Scrypt {
        log2_n: u8,
        salt: [u8; 16],
        nonce: [u8; 12],
        wrapped: [u8; 48],
    },
    Rsa {
        key_id: [u8; 8],
        wrapped: Vec<u8>,
    },
}

/// A parsed header.
pub(super) struct Header {
    pub(super) segment_size: usize,
    salt: [u8; 32],
    stanzas: Vec<Stanza>,
    /// Every byte before the MAC, as read.
    signed: Vec<u8>,
    mac: [u8; 32],
}

/// Random bytes for the salt and nonces, straight from the operating
/// system's CSPRNG (`getrandom(2)`). AWS-LC's own generator would do as well
/// but seeds itself on first use from CPU-jitter entropy, about 20 ms of CPU
/// per process — a tenth of encrypting 1 GiB here.
fn random<const N: usize>() -> [u8; N] {
    let mut b = [0u8; N];
    getrandom::fill(&mut b).expect("the operating system's random number generator");
    b
}

/// A fresh file key, drawn in place (no copy of it outside the key).
fn random_key() -> SecretKey<32> {
    SecretKey::generate(|k| getrandom::fill(k)).expect("the operating system's random number generator")
}

fn derive(file_key: &SecretKey<32>, salt: &[u8; 32]) -> Keys {
    let prk = hkdf::Salt::new(hkdf::HKDF_SHA256, salt).extract(file_key.expose());
    let expand = |info: &[u8]| {
        SecretKey::<32>::generate(|out| {
            prk.expand(&[info], hkdf::HKDF_SHA256)
                .and_then(|okm| okm.fill(out))
        })
        .expect("HKDF-SHA256 of 32 bytes")
    };
    let payload_bytes = expand(PAYLOAD_INFO);
    Keys {
        payload: payload_key(payload_bytes.expose()),
        payload_bytes,
        header: hmac::Key::new(hmac::HMAC_SHA256, expand(HEADER_INFO).expose()),
    }
}

fn kek(bytes: &[u8]) -> LessSafeKey {
    LessSafeKey::new(UnboundKey::new(&AES_256_GCM, bytes).expect("a 32-byte key"))
}

fn wrap(kek_bytes: &[u8], file_key: &SecretKey<32>) -> ([u8; 12], [u8; 48]) {
    let nonce = random::<12>();
    let mut out = [0u8; 48];
    // Sealed in place: from here on `out` holds only ciphertext.
    out[..32].copy_from_slice(file_key.expose());
    let tag = kek(kek_bytes)
        .seal_in_place_separate_tag(
            Nonce::assume_unique_for_key(nonce),
            Aad::from(WRAP_AAD),
            &mut out[..32],
        )
        .expect("GCM seal of 32 bytes");
    out[32..].copy_from_slice(tag.as_ref());
    (nonce, out)
}

fn unwrap(kek_bytes: &[u8], nonce: &[u8; 12], wrapped: &[u8; 48]) -> Option<SecretKey<32>> {
    let mut buf = *wrapped;
    let key = kek(kek_bytes)
        .open_in_place(
            Nonce::assume_unique_for_key(*nonce),
            Aad::from(WRAP_AAD),
            &mut buf[..],
        )
        .ok()
        .and_then(|plain| SecretKey::from_slice(plain));
    wipe(&mut buf);
    key
}

fn scrypt_kek(passphrase: &[u8], salt: &[u8; 16], log2_n: u8) -> Result<SecretKey<32>, Error> {
    SecretKey::generate(|out| {
        let (r, p) = (u32::from(SCRYPT_R), u32::from(SCRYPT_P));
        ffi::scrypt(passphrase, salt, log2_n, r, p, out)
            .then_some(())
            .ok_or_else(|| Error::Options(format!("scrypt refused N = 2^{log2_n}, r = {r}, p = {p}")))
    })
}

fn key_id(public: &crate::rsa::PublicKey) -> Result<[u8; 8], Error> {
    let digest = crate::digest::digest(crate::digest::Algorithm::Sha256, &public.to_spki_der()?);
    let mut id = [0u8; 8];
    id.copy_from_slice(&digest[..8]);
    Ok(id)
}

impl Header {
    /// A fresh header for `recipients` and its keys.
    pub(super) fn seal(recipients: &[Recipient<'_>], segment_size: usize) -> Result<(Vec<u8>, Keys), Error> {
        if recipients.is_empty() || recipients.len() > MAX_STANZAS {
            return Err(Error::Options(format!(
                "1 to {MAX_STANZAS} recipients are needed"
            )));
        }
        if recipients.len() > 1
            && recipients
                .iter()
                .any(|r| matches!(r, Recipient::Passphrase { .. }))
        {
            return Err(Error::Options(
                "a passphrase must be the only recipient (readers refuse a passphrase stanza beside others)"
                    .into(),
            ));
        }
        if !segment_size.is_power_of_two()
            || !(super::MIN_SEGMENT..=super::MAX_SEGMENT).contains(&segment_size)
        {
            return Err(Error::Options(format!(
                "segment size {segment_size} is not a power of two from 4 KiB to 1 GiB"
            )));
        }
        let file_key = random_key();
        let salt = random::<32>();
        let mut out = Vec::with_capacity(256);
        out.extend_from_slice(MAGIC);
        out.push(VERSION);
        out.push(segment_size.trailing_zeros() as u8);
        out.extend_from_slice(&salt);
        out.push(recipients.len() as u8);
        for r in recipients {
            let (kind, body) = match r {
                Recipient::Key(k) => {
                    let (nonce, wrapped) = wrap(k.expose(), &file_key);
                    (KIND_KEY, [&nonce[..], &wrapped[..]].concat())
                }
                Recipient::Passphrase { passphrase, log2_n } => {
                    if *log2_n > MAX_SCRYPT_LOG2_N || *log2_n < 1 {
                        return Err(Error::Options(format!(
                            "scrypt cost 2^{log2_n} is outside 2^1..=2^{MAX_SCRYPT_LOG2_N}"
                        )));
                    }
                    let kdf_salt = random::<16>();
                    let kek = scrypt_kek(passphrase.expose(), &kdf_salt, *log2_n)?;
                    let (nonce, wrapped) = wrap(kek.expose(), &file_key);
                    let mut body = vec![*log2_n, SCRYPT_R, SCRYPT_P];
                    body.extend_from_slice(&kdf_salt);
                    body.extend_from_slice(&nonce);
                    body.extend_from_slice(&wrapped);
                    (KIND_SCRYPT, body)
                }
                Recipient::Rsa(public) => {
                    let mut body = key_id(public)?.to_vec();
                    body.extend_from_slice(&public.encrypt(file_key.expose())?);
                    (KIND_RSA, body)
                }
            };
            out.push(kind);
            out.extend_from_slice(&(body.len() as u16).to_be_bytes());
            out.extend_from_slice(&body);
        }
        let keys = derive(&file_key, &salt);
        let mac = hmac::sign(&keys.header, &out);
        out.extend_from_slice(mac.as_ref());
        Ok((out, keys))
    }

    /// Parses a header from the start of `input`; returns it and its length.
    pub(super) fn read(input: &mut impl Read) -> Result<(Header, u64), Error> {
        let mut signed = Vec::with_capacity(256);
        let mut take = |n: usize, signed: &mut Vec<u8>| -> Result<Vec<u8>, Error> {
            let mut b = vec![0u8; n];
            input.read_exact(&mut b).map_err(|e| match e.kind() {
                std::io::ErrorKind::UnexpectedEof => Error::MalformedHeader("cut short"),
                _ => Error::Io(e),
            })?;
            signed.extend_from_slice(&b);
            Ok(b)
        };
        let magic = take(8, &mut signed).map_err(|e| match e {
            Error::MalformedHeader(_) => Error::WrongFormat,
            e => e,
        })?;
        if magic != MAGIC {
            return Err(Error::WrongFormat);
        }
        let fixed = take(35, &mut signed)?;
        if fixed[0] != VERSION {
            return Err(Error::UnsupportedVersion(fixed[0]));
        }
        let log2 = fixed[1];
        if !(12..=30).contains(&log2) {
            return Err(Error::MalformedHeader("segment size out of range"));
        }
        let mut salt = [0u8; 32];
        salt.copy_from_slice(&fixed[2..34]);
        let count = usize::from(fixed[34]);
        if count == 0 || count > MAX_STANZAS {
            return Err(Error::MalformedHeader("no recipients"));
        }
        let mut stanzas = Vec::with_capacity(count);
        for _ in 0..count {
            let head = take(3, &mut signed)?;
            let len = usize::from(u16::from_be_bytes([head[1], head[2]]));
            if len > MAX_STANZA_BODY {
                return Err(Error::MalformedHeader("recipient stanza too long"));
            }
            let body = take(len, &mut signed)?;
            let arr = |b: &[u8]| -> [u8; 48] { b.try_into().unwrap_or([0; 48]) };
            stanzas.push(match (head[0], len) {
                (KIND_KEY, 60) => Stanza::Key {
                    nonce: body[..12].try_into().unwrap_or_default(),
                    wrapped: arr(&body[12..]),
                },
                (KIND_SCRYPT, 79) if count > 1 => {
                    // As in age: a passphrase stanza costs scrypt before
                    // anything is authenticated, so a header gets one, alone.
                    return Err(Error::MalformedHeader(
                        "a passphrase stanza must be the header's only stanza",
                    ));
                }
                (KIND_SCRYPT, 79)
                    if !(1..=MAX_SCRYPT_LOG2_N).contains(&body[0])
                        || body[1] != SCRYPT_R
                        || body[2] != SCRYPT_P =>
                {
                    return Err(Error::MalformedHeader(
                        "scrypt parameters beyond what parcrypt accepts",
                    ));
                }
                (KIND_SCRYPT, 79) => Stanza::Scrypt {
                    log2_n: body[0],
                    salt: body[3..19].try_into().unwrap_or_default(),
                    nonce: body[19..31].try_into().unwrap_or_default(),
                    wrapped: arr(&body[31..]),
                },
                (KIND_RSA, n) if n > 8 => Stanza::Rsa {
                    key_id: body[..8].try_into().unwrap_or_default(),
                    wrapped: body[8..].to_vec(),
                },
                _ => return Err(Error::MalformedHeader("unknown or malformed recipient stanza")),
            });
        }
        let mut mac = [0u8; 32];
        input.read_exact(&mut mac).map_err(|e| match e.kind() {
            std::io::ErrorKind::UnexpectedEof => Error::MalformedHeader("cut short"),
            _ => Error::Io(e),
        })?;
        let len = (signed.len() + 32) as u64;
        let header = Header {
            segment_size: 1 << log2,
            salt,
            stanzas,
            signed,
            mac,
        };
        Ok((header, len))
    }

    /// Unwraps the file key with the first of `identities` that opens a
    /// stanza (in the order given), derives the keys, checks the MAC.
    pub(super) fn open(
        &self,
        identities: &[Identity<'_>],
        opts: &DecryptOptions,
        par: &Parallelism,
    ) -> Result<Keys, Error> {
        for identity in identities {
            match self.open_one(identity, opts, par) {
                Err(Error::NoMatchingIdentity) => continue,
                opened => return opened,
            }
        }
        Err(Error::NoMatchingIdentity)
    }

    /// Unwraps the file key with `identity`, derives the keys, checks the
    /// MAC. A passphrase stanza costlier than `opts.max_work_factor` is
    /// refused before scrypt runs; an RSA identity's private operation runs
    /// under `par`.
    fn open_one(
        &self,
        identity: &Identity<'_>,
        opts: &DecryptOptions,
        par: &Parallelism,
    ) -> Result<Keys, Error> {
        let mut file_key = None;
        let rsa_id = match identity {
            Identity::Rsa(k) => Some(key_id(k.public_key())?),
            _ => None,
        };
        for stanza in &self.stanzas {
            let found = match (stanza, identity) {
                (Stanza::Key { nonce, wrapped }, Identity::Key(k)) => unwrap(k.expose(), nonce, wrapped),
                (
                    Stanza::Scrypt {
                        log2_n,
                        salt,
                        nonce,
                        wrapped,
                    },
                    Identity::Passphrase(pass),
                ) => {
                    if *log2_n > opts.max_work_factor {
                        return Err(Error::WorkFactor {
                            log2_n: *log2_n,
                            max: opts.max_work_factor,
                        });
                    }
                    unwrap(scrypt_kek(pass.expose(), salt, *log2_n)?.expose(), nonce, wrapped)
                }
                (Stanza::Rsa { key_id, wrapped }, Identity::Rsa(k)) if Some(*key_id) == rsa_id => k
                    .decrypt(wrapped, par)
                    .ok()
                    .and_then(|v| SecretKey::from_slice(v.expose())),
                _ => None,
            };
            if found.is_some() {
                file_key = found;
                break;
            }
        }
        let file_key = file_key.ok_or(Error::NoMatchingIdentity)?;
        let keys = derive(&file_key, &self.salt);
        hmac::verify(&keys.header, &self.signed, &self.mac).map_err(|_| Error::HeaderAuthentication)?;
        Ok(keys)
    }
}

pub(super) fn payload_key(bytes: &[u8; 32]) -> crate::ffi::AeadKey {
    crate::ffi::AeadKey::new(bytes).expect("a 32-byte AES-256 key")
}

impl std::fmt::Debug for Keys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Keys")
    }
}
