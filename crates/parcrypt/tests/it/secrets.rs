//! No key byte in `Debug`: every public type of `aes`, `hazmat`, `rsa` and
//! `ecdsa` that holds key material is built from a known key, formatted with
//! `{:?}` and `{:#?}`, and searched for the key (and what is derived from it:
//! the GHASH key, the PARC4 PRK, RSA's d, p, q, dP, dQ, qInv, the private-key
//! DER) as lowercase hex, uppercase hex, a list of numbers (decimal or `0x`
//! hex, one line or one per line) and, for big integers, decimal digits. The
//! detector itself is tested first, so a search that can never match would fail.

#![allow(clippy::unwrap_used)]

use parcrypt::aes::{Cbc, Crypter, Ctr, Gcm};
use parcrypt::ecdsa;
use parcrypt::hazmat::{self, Ecb, Parc4, Rc4};
use parcrypt::keys::SigningKey as _;
use parcrypt::par::Parallelism;
use parcrypt::rsa::PrivateKey;

/// A key nobody would type by accident; shorter keys are its prefixes.
const KEY: [u8; 32] = [
    0xA7, 0x3C, 0xE1, 0x5B, 0x92, 0x0D, 0xF4, 0x6E, 0x38, 0xC9, 0x71, 0xAB, 0x04, 0xDE, 0x5F, 0x86, 0xB3,
    0x27, 0xEA, 0x19, 0x7C, 0xD0, 0x45, 0x98, 0x2F, 0xBC, 0x63, 0x0A, 0xF1, 0x8D, 0x56, 0xC2,
];

/// Plaintext that a crypter holds back (fewer than one block).
const PENDING: [u8; 13] = [
    0x5E, 0xC7, 0x3A, 0x81, 0xF9, 0x26, 0xB4, 0x0F, 0xD3, 0x6A, 0x97, 0x1C, 0xE8,
];

/// How many consecutive secret bytes make a leak.
const RUN: usize = 4;
/// How many consecutive decimal digits of a big secret integer make a leak.
const DIGITS: usize = 20;

/// Every number written in `text`, in order: decimal digit runs and `0x…` hex
/// (`{:?}` and `{:#x?}` lists).
fn numbers(text: &str) -> Vec<u128> {
    let bytes = text.as_bytes();
    let (mut out, mut i) = (Vec::new(), 0);
    while i < bytes.len() {
        if bytes[i..].starts_with(b"0x") && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit) {
            let end = (i + 2..bytes.len())
                .find(|&j| !bytes[j].is_ascii_hexdigit())
                .unwrap_or(bytes.len());
            out.push(u128::from_str_radix(&text[i + 2..end], 16).unwrap_or(u128::MAX));
            i = end;
        } else if bytes[i].is_ascii_digit() {
            let end = (i..bytes.len())
                .find(|&j| !bytes[j].is_ascii_digit())
                .unwrap_or(bytes.len());
            out.push(text[i..end].parse().unwrap_or(u128::MAX));
            i = end;
        } else {
            i += 1;
        }
    }
    out
}

/// Every word of `text` that reads as hex, in order (`{:x?}` lists: `[a7, 3c, …]`).
fn hex_words(text: &str) -> Vec<u128> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .map(|w| w.strip_prefix("0x").unwrap_or(w))
        .filter(|w| !w.is_empty() && w.len() <= 32 && w.bytes().all(|b| b.is_ascii_hexdigit()))
        .map(|w| u128::from_str_radix(w, 16).unwrap_or(u128::MAX))
        .collect()
}

/// The big-endian unsigned integer `bytes` in decimal.
fn decimal(bytes: &[u8]) -> String {
    // Base-10⁹ limbs, least significant first.
    let mut limbs: Vec<u64> = vec![0];
    for &b in bytes {
        let mut carry = u64::from(b);
        for limb in &mut limbs {
            let v = *limb * 256 + carry;
            *limb = v % 1_000_000_000;
            carry = v / 1_000_000_000;
        }
        while carry > 0 {
            limbs.push(carry % 1_000_000_000);
            carry /= 1_000_000_000;
        }
    }
    let mut s = limbs.last().unwrap().to_string();
    for limb in limbs.iter().rev().skip(1) {
        s.push_str(&format!("{limb:09}"));
    }
    s
}

/// How `text` shows (part of) `secret`, if it does.
fn leak(text: &str, secret: &[u8], big_integer: bool) -> Option<String> {
    let run = RUN.min(secret.len());
    let lists = [numbers(text), hex_words(text)];
    for w in secret.windows(run) {
        let lower = hex::encode(w);
        if text.contains(&lower) {
            return Some(format!("lowercase hex {lower}"));
        }
        let upper = hex::encode_upper(w);
        if text.contains(&upper) {
            return Some(format!("uppercase hex {upper}"));
        }
        if lists.iter().any(|nums| {
            nums.windows(run)
                .any(|n| n.iter().zip(w).all(|(&n, &b)| n == u128::from(b)))
        }) {
            return Some(format!("the numbers {w:?}"));
        }
    }
    if big_integer {
        let digits = decimal(secret);
        for i in 0..=digits.len().saturating_sub(DIGITS) {
            let part = &digits[i..(i + DIGITS).min(digits.len())];
            if text.contains(part) {
                return Some(format!("decimal digits {part}"));
            }
        }
    }
    None
}

/// Formats `value` both ways and fails if any of `secrets` shows.
fn assert_redacted(what: &str, value: &dyn std::fmt::Debug, secrets: &[(&str, &[u8], bool)]) {
    for text in [format!("{value:?}"), format!("{value:#?}")] {
        for (name, secret, big) in secrets {
            if let Some(how) = leak(&text, secret, *big) {
                panic!("Debug of {what} shows the {name} as {how}:\n{text}");
            }
        }
    }
}

#[test]
fn the_detector_finds_every_form() {
    let secret = &KEY[..16];
    for shown in [
        format!("{secret:?}"),
        format!("{secret:#?}"),
        format!("{secret:x?}"),
        format!("{:#x?}", secret.to_vec()),
        format!("k: {}", hex::encode(&secret[3..9])),
        format!("K={}", hex::encode_upper(&secret[10..])),
        format!("{:?}", &secret[5..5 + RUN]),
    ] {
        assert!(leak(&shown, secret, false).is_some(), "missed: {shown}");
    }
    let n = [0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00];
    assert_eq!(decimal(&n), "4722366482869645213696"); // 2^72
    assert!(leak("Bn(4722366482869645213696)", &n, true).is_some());
    assert!(leak("Bn(4722366482869645213696)", &n, false).is_none());
    // Redacted forms do not trip it.
    for clean in [
        "Gcm { key_bits: 256, .. }",
        "SecretKey<32>(redacted)",
        "PrivateKey {\n    bits: 1024,\n    ..\n}",
    ] {
        assert!(leak(clean, &KEY, true).is_none(), "{clean}");
    }
}

/// E_K(0¹²⁸): GCM's hash key.
fn ghash_key(key: &[u8]) -> [u8; 16] {
    let mut h = [0u8; 16];
    Ecb::new(key)
        .unwrap()
        .encrypt_blocks_in_place(&mut h, &Parallelism::sequential())
        .unwrap();
    h
}

#[test]
fn aes_keys_and_the_ghash_key_never_show() {
    for len in [16, 24, 32] {
        let key = &KEY[..len];
        let secrets: &[(&str, &[u8], bool)] = &[("key", key, false)];
        assert_redacted("Ctr", &Ctr::new(key).unwrap(), secrets);
        assert_redacted("Cbc", &Cbc::new(key).unwrap(), secrets);
        assert_redacted("Ecb", &Ecb::new(key).unwrap(), secrets);
        if len != 24 {
            let h = ghash_key(key);
            let gcm = Gcm::new(key).unwrap();
            assert_redacted("Gcm", &gcm, &[("key", key, false), ("GHASH key H", &h, false)]);
            assert_eq!(format!("{gcm:?}"), format!("Gcm {{ key_bits: {}, .. }}", len * 8));
        }
    }
}

#[test]
fn a_crypter_shows_neither_its_key_nor_its_pending_plaintext() {
    let par = Parallelism::sequential();
    let iv = [0x11u8; 16];
    let crypters: Vec<(&str, Crypter)> = vec![
        ("cbc_encrypt", Crypter::cbc_encrypt(&KEY, &iv).unwrap()),
        ("cbc_decrypt", Crypter::cbc_decrypt(&KEY[..16], &iv).unwrap()),
        ("ctr", Crypter::ctr(&KEY[..24], &iv).unwrap()),
        ("ecb_encrypter", hazmat::ecb_encrypter(&KEY).unwrap()),
        (
            "cbc_encrypter_no_padding",
            hazmat::cbc_encrypter_no_padding(&KEY, &iv).unwrap(),
        ),
    ];
    for (name, mut crypter) in crypters {
        let out = crypter.update(&PENDING, &par);
        assert!(out.is_empty(), "{name}: 13 bytes are held back");
        assert_redacted(
            name,
            &crypter,
            &[("key", &KEY[..16], false), ("pending plaintext", &PENDING, false)],
        );
        assert!(format!("{crypter:?}").contains("pending_len: 13"), "{crypter:?}");
    }
}

#[test]
fn rc4_and_parc4_keys_never_show() {
    let mut rc4 = Rc4::new(&KEY[..16]).unwrap();
    rc4.apply_keystream_in_place(&mut [0u8; 100]);
    assert_redacted("Rc4", &rc4, &[("key", &KEY[..16], false)]);

    let nonce = [0x42u8; 16];
    let parc4 = Parc4::new(&KEY, &nonce, 4096).unwrap();
    // HKDF-Extract: PRK = HMAC-SHA256(salt = nonce, ikm = key).
    let prk = aws_lc_rs::hmac::sign(
        &aws_lc_rs::hmac::Key::new(aws_lc_rs::hmac::HMAC_SHA256, &nonce),
        &KEY,
    );
    assert_redacted(
        "Parc4",
        &parc4,
        &[("key", &KEY, false), ("HKDF PRK", prk.as_ref(), false)],
    );
}

/// A minimal DER reader: the next TLV in `der`, as (tag, content, rest).
fn tlv(der: &[u8]) -> (u8, &[u8], &[u8]) {
    let tag = der[0];
    let (len, head) = match der[1] {
        n if n < 0x80 => (usize::from(n), 2),
        n => {
            let k = usize::from(n & 0x7f);
            (
                der[2..2 + k].iter().fold(0, |a, &b| a << 8 | usize::from(b)),
                2 + k,
            )
        }
    };
    (tag, &der[head..head + len], &der[head + len..])
}

/// The INTEGERs of a PKCS#1 `RSAPrivateKey`: version, n, e, d, p, q, dP, dQ, qInv.
fn rsa_integers(pkcs1: &[u8]) -> Vec<Vec<u8>> {
    let (tag, mut body, _) = tlv(pkcs1);
    assert_eq!(tag, 0x30);
    let mut out = Vec::new();
    while !body.is_empty() {
        let (tag, int, rest) = tlv(body);
        assert_eq!(tag, 0x02);
        let int = int.strip_prefix(&[0]).unwrap_or(int);
        out.push(int.to_vec());
        body = rest;
    }
    out
}

#[test]
fn an_rsa_private_key_shows_no_private_value() {
    let key = PrivateKey::generate(1024, &Parallelism::sequential()).unwrap();
    let ints = rsa_integers(key.to_pkcs1_der().unwrap().expose());
    assert_eq!(ints.len(), 9, "version, n, e, d, p, q, dP, dQ, qInv");
    let pkcs8 = key.to_pkcs8_der().unwrap();
    let names = ["d", "p", "q", "dP", "dQ", "qInv"];
    let mut secrets: Vec<(&str, &[u8], bool)> = names
        .iter()
        .zip(&ints[3..])
        .map(|(name, v)| (*name, v.as_slice(), true))
        .collect();
    secrets.push(("PKCS#8 DER", pkcs8.expose(), false));
    assert_redacted("rsa::PrivateKey", &key, &secrets);
    assert_eq!(
        format!("{key:?}"),
        "PrivateKey { bits: 1024, crt_mode: Auto, .. }"
    );
    assert_redacted("rsa::PublicKey", key.public_key(), &secrets);
}

#[test]
fn an_ecdsa_private_key_shows_no_scalar() {
    // SEC1 ECPrivateKey { version 1, privateKey KEY, parameters P-256 }; the
    // public key is computed on import.
    let mut sec1 = vec![0x30, 0x31, 0x02, 0x01, 0x01, 0x04, 0x20];
    sec1.extend_from_slice(&KEY);
    sec1.extend_from_slice(&[
        0xa0, 0x0a, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07,
    ]);
    let key = ecdsa::PrivateKey::from_sec1_der(&sec1).unwrap();
    // It is the key we think: its export carries the scalar.
    let exported = key.to_sec1_der().unwrap();
    assert!(exported.expose().windows(32).any(|w| w == KEY));
    let pkcs8 = key.to_pkcs8_der().unwrap();
    let secrets: &[(&str, &[u8], bool)] = &[
        ("private scalar", &KEY, true),
        ("PKCS#8 DER", pkcs8.expose(), false),
        ("SEC1 DER", exported.expose(), false),
    ];
    assert_redacted("ecdsa::PrivateKey", &key, secrets);
    assert_eq!(format!("{key:?}"), r#"PrivateKey { curve: "P-256", .. }"#);
    assert_redacted("ecdsa::PublicKey", key.public_key(), secrets);
}
