//! Writes the `stream` format's test vectors (`tests/data/stream_vectors.txt`,
//! quoted in `docs/FORMAT.md`). The format is randomized (file key, salt,
//! nonces), so a vector is a stream plus what opens it;
//! `tests/it/stream_kat.rs` checks that every one still opens to its
//! plaintext.
//!
//! ```text
//! cargo run -p parcrypt --example stream_vectors > crates/parcrypt/tests/data/stream_vectors.txt
//! ```
#![allow(clippy::unwrap_used)]

use parcrypt::keys::SigningKey as _;
use parcrypt::par::Parallelism;
use parcrypt::rsa::PrivateKey;
use parcrypt::secret::{SecretBytes, SecretKey};
use parcrypt::stream::{self, Options, Recipient};

fn main() {
    let opts = Options { segment_size: 4096 };
    let seq = Parallelism::sequential();
    let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
    let rsa = PrivateKey::generate(2048, &Parallelism::default()).unwrap();
    println!("# parcrypt stream format v1 test vectors: one block per vector, blank-line separated.");
    println!("# plaintext bytes are i % 251 for i in 0..len; segment size 4096.");
    println!(
        "rsa_private_key_pkcs8 = {}",
        hex(rsa.to_pkcs8_der().unwrap().expose())
    );
    println!();
    let key: [u8; 32] = std::array::from_fn(|i| i as u8);
    for (name, len, recipient) in [
        (
            "key-empty",
            0usize,
            Recipient::Key(SecretKey::from_slice(&key).unwrap()),
        ),
        (
            "key-one-segment",
            100,
            Recipient::Key(SecretKey::from_slice(&key).unwrap()),
        ),
        (
            "key-exact-segment",
            4096,
            Recipient::Key(SecretKey::from_slice(&key).unwrap()),
        ),
        (
            "key-three-segments",
            9000,
            Recipient::Key(SecretKey::from_slice(&key).unwrap()),
        ),
        (
            "passphrase",
            5000,
            Recipient::Passphrase {
                passphrase: SecretBytes::from(&b"parcrypt test vector"[..]),
                log2_n: 10,
            },
        ),
        ("rsa", 300, Recipient::Rsa(rsa.public_key())),
    ] {
        let pt: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
        let mut out = Vec::new();
        stream::encrypt_stream(&[recipient], &pt[..], &mut out, &opts, &seq, |_| {}).unwrap();
        println!("name = {name}");
        println!("plaintext_len = {len}");
        match name {
            "passphrase" => println!("passphrase = parcrypt test vector"),
            "rsa" => println!("identity = rsa_private_key_pkcs8"),
            _ => println!("key = {}", hex(&key)),
        }
        println!("stream = {}", hex(&out));
        println!();
    }
}
