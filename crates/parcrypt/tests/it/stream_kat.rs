//! The `stream` format's published test vectors (`tests/data/stream_vectors.txt`,
//! made by `examples/stream_vectors.rs`, described in `docs/FORMAT.md`) still
//! open to their plaintext under every schedule, and their structure is what
//! the format document says.

#![allow(clippy::unwrap_used)]

use std::collections::HashMap;

use crate::vectors::records;
use parcrypt::keys::SigningKey as _;
use parcrypt::par::{Parallelism, Strategy};
use parcrypt::rsa::PrivateKey;
use parcrypt::secret::{SecretBytes, SecretKey};
use parcrypt::stream::{self, DecryptOptions, Identity};

fn vectors() -> (HashMap<String, String>, Vec<HashMap<String, String>>) {
    let mut blocks: Vec<HashMap<String, String>> = records(include_str!("../data/stream_vectors.txt"))
        .into_iter()
        .map(|record| record.fields.into_iter().collect())
        .collect();
    let globals = blocks.remove(0);
    (globals, blocks)
}

#[test]
fn published_vectors_open_under_every_schedule() {
    let (globals, vectors) = vectors();
    let rsa = PrivateKey::from_pkcs8_der(
        &hex::decode(&globals["rsa_private_key_pkcs8"]).unwrap(),
        &Parallelism::sequential(),
    )
    .unwrap();
    assert_eq!(vectors.len(), 6);
    for v in &vectors {
        let len: usize = v["plaintext_len"].parse().unwrap();
        let want: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
        let sealed = hex::decode(&v["stream"]).unwrap();
        // Magic, version 1, segment size 2^12.
        assert_eq!(&sealed[..10], b"PARCRYPT\x01\x0c", "{}", v["name"]);
        let identity = if let Some(k) = v.get("key") {
            Identity::Key(SecretKey::from_slice(&hex::decode(k).unwrap()).unwrap())
        } else if let Some(p) = v.get("passphrase") {
            Identity::Passphrase(SecretBytes::from(p.as_bytes()))
        } else {
            Identity::Rsa(&rsa)
        };
        for par in [
            Parallelism::sequential(),
            Parallelism::new(2, Strategy::Static),
            Parallelism::new(4, Strategy::WorkStealing),
        ] {
            let mut out = Vec::new();
            stream::decrypt_stream(
                std::slice::from_ref(&identity),
                &sealed[..],
                &mut out,
                &DecryptOptions::default(),
                &par,
                |_| {},
            )
            .unwrap();
            assert!(out == want, "{}", v["name"]);
        }
        // Header + per segment 16 bytes of tag.
        let segments = len.div_ceil(4096).max(1);
        assert!(sealed.len() > len + 16 * segments, "{}", v["name"]);
    }
}
