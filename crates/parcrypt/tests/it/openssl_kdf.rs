//! `openssl enc`'s password derivations (PBKDF2-HMAC and EVP_BytesToKey,
//! every `-md`, salted and not) against the keys and IVs `openssl enc -P`
//! printed: tests/data/openssl_enc_kdf.txt.

#![allow(clippy::unwrap_used)]

use crate::common::unhex;
use crate::vectors::records;
use parcrypt::aes::{KdfDigest, PasswordKdf, PasswordKey};

#[test]
fn openssl_enc_known_answers() {
    let records = records(include_str!("../data/openssl_enc_kdf.txt"));
    for record in &records {
        let name = record.header.as_deref().unwrap();
        let iterations: u32 = record.field("ITER").parse().unwrap();
        let kdf = match record.field("KDF") {
            "pbkdf2" => PasswordKdf::Pbkdf2 { iterations },
            "legacy" => PasswordKdf::BytesToKey,
            other => panic!("{name}: KDF {other}"),
        };
        let digest: KdfDigest = record.field("MD").parse().unwrap();
        // aes-256-cbc: the key length, and an IV unless ECB.
        let cipher = record.field("CIPHER");
        let key_len = cipher[4..7].parse::<usize>().unwrap() / 8;
        let iv_len = if cipher.ends_with("ecb") { 0 } else { 16 };
        let salt: Option<[u8; 8]> = match record.field("SALT") {
            "none" => None,
            s => Some(unhex(s).try_into().unwrap()),
        };
        let password = unhex(record.field("PASSWORD"));
        let derived = PasswordKey::derive(&password, salt.as_ref(), kdf, digest, key_len, iv_len).unwrap();
        assert_eq!(derived.key(), unhex(record.field("KEY")), "{name}");
        assert_eq!(derived.iv(), unhex(record.field("IV")), "{name}");
    }
    // Every digest under both derivations; the file is not silently short.
    assert_eq!(records.len(), 27);
    for d in KdfDigest::ALL {
        for kdf in ["pbkdf2", "legacy"] {
            assert!(
                records
                    .iter()
                    .any(|r| r.field("MD") == d.name() && r.field("KDF") == kdf),
                "{d} {kdf}"
            );
        }
    }
}
