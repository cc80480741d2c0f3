//! The stream header: recipients' stanzas wrapping the file key, and the
//! header MAC. Layout in `docs/FORMAT.md`.

use std::io::Read;

use aws_lc_rs::aead::{AES_256_GCM, Aad, LessSafeKey, Nonce, UnboundKey};
use aws_lc_rs::{hkdf, hmac};
use zeroize::Zeroizing;

use super::{Error, Identity, Recipient, payload_key};
use crate::ffi;
use crate::par::Parallelism;

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
const SCRYPT_R: u8 = 8;
const SCRYPT_P: u8 = 1;
const MAX_STANZAS: usize = 64;
const MAX_STANZA_BODY: usize = 4096;

/// The derived keys of one stream.
pub(super) struct Keys {
    pub(super) payload: crate::ffi::GcmKey,
    header: hmac::Key,
}

enum Stanza {
    Key {
        nonce: [u8; 12],
        wrapped: [u8; 48],
    },
    Scrypt {
        log2_n: u8,
        r: u8,
        p: u8,
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

/// Random bytes for the file key and salt, straight from the operating
/// system's CSPRNG (`getrandom(2)`). AWS-LC's own generator would do as well
/// but seeds itself on first use from CPU-jitter entropy, about 20 ms of CPU
/// per process — a tenth of encrypting 1 GiB here.
fn random<const N: usize>() -> [u8; N] {
    let mut b = [0u8; N];
    getrandom::fill(&mut b).expect("the operating system's random number generator");
    b
}

fn derive(file_key: &[u8; 32], salt: &[u8; 32]) -> Keys {
    let prk = hkdf::Salt::new(hkdf::HKDF_SHA256, salt).extract(file_key);
    let expand = |info: &[u8]| {
        let mut out = Zeroizing::new([0u8; 32]);
        prk.expand(&[info], hkdf::HKDF_SHA256)
            .and_then(|okm| okm.fill(&mut out[..]))
            .expect("HKDF-SHA256 of 32 bytes");
        out
    };
    Keys {
        payload: payload_key(&expand(PAYLOAD_INFO)),
        header: hmac::Key::new(hmac::HMAC_SHA256, &expand(HEADER_INFO)[..]),
    }
}

fn kek(bytes: &[u8]) -> LessSafeKey {
    LessSafeKey::new(UnboundKey::new(&AES_256_GCM, bytes).expect("a 32-byte key"))
}

fn wrap(kek_bytes: &[u8], file_key: &[u8; 32]) -> ([u8; 12], [u8; 48]) {
    let nonce = random::<12>();
    let mut out = [0u8; 48];
    out[..32].copy_from_slice(file_key);
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

fn unwrap(kek_bytes: &[u8], nonce: &[u8; 12], wrapped: &[u8; 48]) -> Option<Zeroizing<[u8; 32]>> {
    let mut buf = Zeroizing::new(*wrapped);
    let plain = kek(kek_bytes)
        .open_in_place(
            Nonce::assume_unique_for_key(*nonce),
            Aad::from(WRAP_AAD),
            &mut buf[..],
        )
        .ok()?;
    let mut key = Zeroizing::new([0u8; 32]);
    key.copy_from_slice(plain);
    Some(key)
}

fn scrypt_kek(
    passphrase: &[u8],
    salt: &[u8; 16],
    log2_n: u8,
    r: u8,
    p: u8,
) -> Result<Zeroizing<[u8; 32]>, Error> {
    let mut out = Zeroizing::new([0u8; 32]);
    if !ffi::scrypt(passphrase, salt, log2_n, u32::from(r), u32::from(p), &mut out[..]) {
        return Err(Error::Options(format!(
            "scrypt refused N = 2^{log2_n}, r = {r}, p = {p}"
        )));
    }
    Ok(out)
}

fn key_id(public: &crate::rsa::PublicKey) -> Result<[u8; 8], Error> {
    let digest = crate::rsa::Hash::Sha256.digest(&public.to_spki_der()?);
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
        if !segment_size.is_power_of_two()
            || !(super::MIN_SEGMENT..=super::MAX_SEGMENT).contains(&segment_size)
        {
            return Err(Error::Options(format!(
                "segment size {segment_size} is not a power of two from 4 KiB to 1 GiB"
            )));
        }
        let file_key = Zeroizing::new(random::<32>());
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
                    let (nonce, wrapped) = wrap(k, &file_key);
                    (KIND_KEY, [&nonce[..], &wrapped[..]].concat())
                }
                Recipient::Passphrase { passphrase, log2_n } => {
                    if *log2_n > MAX_SCRYPT_LOG2_N || *log2_n < 1 {
                        return Err(Error::Options(format!(
                            "scrypt cost 2^{log2_n} is outside 2^1..=2^{MAX_SCRYPT_LOG2_N}"
                        )));
                    }
                    let kdf_salt = random::<16>();
                    let kek = scrypt_kek(passphrase, &kdf_salt, *log2_n, SCRYPT_R, SCRYPT_P)?;
                    let (nonce, wrapped) = wrap(&kek[..], &file_key);
                    let mut body = vec![*log2_n, SCRYPT_R, SCRYPT_P];
                    body.extend_from_slice(&kdf_salt);
                    body.extend_from_slice(&nonce);
                    body.extend_from_slice(&wrapped);
                    (KIND_SCRYPT, body)
                }
                Recipient::Rsa(public) => {
                    let mut body = key_id(public)?.to_vec();
                    body.extend_from_slice(&public.encrypt(&file_key[..])?);
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
            Error::MalformedHeader(_) => Error::NotStream,
            e => e,
        })?;
        if magic != MAGIC {
            return Err(Error::NotStream);
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
                (KIND_SCRYPT, 79) => Stanza::Scrypt {
                    log2_n: body[0],
                    r: body[1],
                    p: body[2],
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

    /// Unwraps the file key with `identity`, derives the keys, checks the MAC.
    pub(super) fn open(&self, identity: &Identity<'_>, par: &Parallelism) -> Result<Keys, Error> {
        let mut file_key = None;
        let rsa_id = match identity {
            Identity::Rsa(k) => Some(key_id(k.public_key())?),
            _ => None,
        };
        for stanza in &self.stanzas {
            let found = match (stanza, identity) {
                (Stanza::Key { nonce, wrapped }, Identity::Key(k)) => unwrap(k, nonce, wrapped),
                (
                    Stanza::Scrypt {
                        log2_n,
                        r,
                        p,
                        salt,
                        nonce,
                        wrapped,
                    },
                    Identity::Passphrase(pass),
                ) => {
                    if *log2_n < 1 || *log2_n > MAX_SCRYPT_LOG2_N || *r != SCRYPT_R || *p != SCRYPT_P {
                        return Err(Error::MalformedHeader(
                            "scrypt parameters beyond what parcrypt accepts",
                        ));
                    }
                    unwrap(&scrypt_kek(pass, salt, *log2_n, *r, *p)?[..], nonce, wrapped)
                }
                (Stanza::Rsa { key_id, wrapped }, Identity::Rsa(k)) if Some(*key_id) == rsa_id => {
                    k.decrypt(wrapped, par).ok().and_then(|v| {
                        let key: [u8; 32] = v.as_slice().try_into().ok()?;
                        Some(Zeroizing::new(key))
                    })
                }
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
