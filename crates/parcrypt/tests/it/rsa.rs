//! RSA through the public API: key generation under every strategy, key
//! encodings, every scheme, bulk at the OAEP edges, and bad input.

#![allow(clippy::unwrap_used)]

use parcrypt::keys::KeyFileError;
use std::sync::OnceLock;

use parcrypt::digest::Algorithm;
use parcrypt::hazmat::{rsa_bulk_block_capacity, rsa_bulk_blocks, rsa_bulk_decrypt, rsa_bulk_encrypt};
use parcrypt::par::{Parallelism, Strategy};
use parcrypt::rsa::{Error, PrivateKey, PublicKey, Scheme};

use crate::common::emulated;
use parcrypt::keys::{SigningKey as _, VerifyingKey as _};

fn schedules() -> Vec<Parallelism> {
    let mut v = vec![Parallelism::sequential()];
    // Under emulation (`common::emulated`) one odd thread count per strategy.
    let threads: &[usize] = if emulated() { &[3] } else { &[2, 3, 8] };
    for strategy in [Strategy::Static, Strategy::WorkStealing] {
        for &threads in threads {
            v.push(Parallelism::new(threads, strategy));
        }
    }
    v
}

/// One 2048-bit key shared by the tests (generation is the slow part).
fn key2048() -> &'static PrivateKey {
    static KEY: OnceLock<PrivateKey> = OnceLock::new();
    KEY.get_or_init(|| PrivateKey::generate(2048, &Parallelism::default()).unwrap())
}

#[test]
fn keygen_every_strategy_gives_valid_keys_of_the_size_asked() {
    for par in schedules() {
        let (key, stats) = PrivateKey::generate_with_stats(1024, &par).unwrap();
        assert_eq!(key.bits(), 1024, "{par:?}");
        assert!(stats.candidates >= 2, "{par:?}: {stats:?}");
        let sig = key.sign(Scheme::Pss, Algorithm::Sha256, b"m", &par).unwrap();
        key.public_key()
            .verify(Scheme::Pss, Algorithm::Sha256, b"m", &sig)
            .unwrap();
    }
    for bits in [1152, 2048, 3072] {
        let key = PrivateKey::generate(bits, &Parallelism::new(2, Strategy::WorkStealing)).unwrap();
        assert_eq!((key.bits(), key.size()), (bits, bits / 8));
    }
}

#[test]
fn keygen_refuses_odd_sizes() {
    for bits in [0, 512, 1000, 2047, 2049, 16384 + 128] {
        assert_eq!(
            PrivateKey::generate(bits, &Parallelism::default()).err(),
            Some(Error::KeySize(bits)),
            "{bits}"
        );
    }
}

#[test]
fn keys_round_trip_through_every_encoding() {
    let key = key2048();
    let public = key.public_key();
    let encodings: Vec<Vec<u8>> = vec![
        key.to_pkcs8_pem().unwrap().expose_bytes().to_vec(),
        key.to_pkcs8_der().unwrap().expose().to_vec(),
        key.to_pkcs1_pem().unwrap().expose_bytes().to_vec(),
        key.to_pkcs1_der().unwrap().expose().to_vec(),
    ];
    for bytes in &encodings {
        let back = PrivateKey::from_bytes(bytes, &Parallelism::sequential()).unwrap();
        assert!(back.public_key() == public);
        assert_eq!(back.to_pkcs8_der().unwrap(), key.to_pkcs8_der().unwrap());
        // A private key also serves where a public one is wanted.
        assert!(PublicKey::from_bytes(bytes, &Parallelism::sequential()).unwrap() == *public);
    }
    assert!(
        key.to_pkcs8_pem()
            .unwrap()
            .expose()
            .starts_with("-----BEGIN PRIVATE KEY-----\n")
    );
    assert!(
        key.to_pkcs1_pem()
            .unwrap()
            .expose()
            .starts_with("-----BEGIN RSA PRIVATE KEY-----\n")
    );
    for bytes in [
        public.to_spki_pem().unwrap().into_bytes(),
        public.to_spki_der().unwrap(),
        public.to_pkcs1_pem().unwrap().into_bytes(),
        public.to_pkcs1_der().unwrap(),
    ] {
        assert!(PublicKey::from_bytes(&bytes, &Parallelism::sequential()).unwrap() == *public);
        // ...but a public key is not a private key.
        assert!(matches!(
            PrivateKey::from_bytes(&bytes, &Parallelism::sequential()),
            Err(Error::Key(KeyFileError::WrongType { .. }) | Error::Key(KeyFileError::Malformed(_)))
        ));
    }
}

#[test]
fn malformed_keys_get_clear_errors() {
    let pem = key2048().to_pkcs8_pem().unwrap().expose().to_owned();
    let der = key2048().to_pkcs8_der().unwrap().expose().to_vec();
    let cases: Vec<Vec<u8>> = vec![
        Vec::new(),
        b"hello".to_vec(),
        pem.replace("MII", "!!!").into_bytes(),
        pem.as_bytes()[..pem.len() / 2].to_vec(),
        der[..der.len() - 1].to_vec(),
        [&der[..], b"x"].concat(),
    ];
    for bytes in cases {
        assert!(
            matches!(
                PrivateKey::from_bytes(&bytes, &Parallelism::sequential()),
                Err(Error::Key(KeyFileError::Malformed(_)))
            ),
            "{:?}",
            PrivateKey::from_bytes(&bytes, &Parallelism::sequential()).err()
        );
    }
    let encrypted = "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIFHDBOBgkqhkiG9w0BBQ0w\n-----END ENCRYPTED PRIVATE KEY-----\n";
    assert_eq!(
        PrivateKey::from_bytes(encrypted.as_bytes(), &Parallelism::sequential()).err(),
        Some(Error::Key(KeyFileError::Encrypted))
    );
    let ec = "-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----\n";
    assert!(matches!(
        PrivateKey::from_bytes(ec.as_bytes(), &Parallelism::sequential()),
        Err(Error::Key(KeyFileError::WrongType { .. }))
    ));
    // A well-formed key of another type is named.
    let ec_der = parcrypt::ecdsa::PrivateKey::generate()
        .unwrap()
        .to_pkcs8_der()
        .unwrap();
    match PrivateKey::from_bytes(ec_der.expose(), &Parallelism::sequential()) {
        Err(Error::Key(KeyFileError::WrongType { why, .. })) => {
            assert!(why.contains("holds an EC key"), "{why}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn signatures_verify_for_every_scheme_hash_and_strategy() {
    let key = key2048();
    let public = key.public_key();
    let msg = b"the quick brown fox";
    for scheme in [Scheme::Pss, Scheme::Pkcs1v15] {
        for hash in [Algorithm::Sha256, Algorithm::Sha384, Algorithm::Sha512] {
            let mut pkcs1_sigs = Vec::new();
            for par in schedules() {
                let sig = key.sign(scheme, hash, msg, &par).unwrap();
                assert_eq!(sig.len(), key.size());
                public.verify(scheme, hash, msg, &sig).unwrap();
                assert_eq!(
                    public.verify(scheme, hash, b"the quick brown fox!", &sig),
                    Err(Error::BadSignature)
                );
                let mut bad = sig.clone();
                bad[10] ^= 1;
                assert_eq!(public.verify(scheme, hash, msg, &bad), Err(Error::BadSignature));
                assert_eq!(
                    public.verify(scheme, hash, msg, &sig[1..]),
                    Err(Error::BadSignature)
                );
                if scheme == Scheme::Pkcs1v15 {
                    pkcs1_sigs.push(sig);
                } else {
                    public
                        .verify_pss_salt(hash, &parcrypt::digest::digest(hash, msg), hash.len(), &sig)
                        .unwrap();
                    assert!(
                        public
                            .verify_pss_salt(hash, &parcrypt::digest::digest(hash, msg), 0, &sig)
                            .is_err()
                    );
                }
            }
            // PKCS#1 v1.5 is deterministic: every strategy gives the same bytes.
            assert!(pkcs1_sigs.windows(2).all(|w| w[0] == w[1]));
        }
    }
    // The other scheme, or another hash, does not verify.
    let sig = key
        .sign(Scheme::Pss, Algorithm::Sha256, msg, &Parallelism::default())
        .unwrap();
    assert!(
        public
            .verify(Scheme::Pkcs1v15, Algorithm::Sha256, msg, &sig)
            .is_err()
    );
    assert!(public.verify(Scheme::Pss, Algorithm::Sha384, msg, &sig).is_err());
    assert!(matches!(
        key.sign_digest(Scheme::Pss, Algorithm::Sha256, &[0; 31], &Parallelism::default()),
        Err(Error::DigestLength {
            got: 31,
            want: 32,
            ..
        })
    ));
}

#[test]
fn oaep_round_trips_up_to_the_limit_and_refuses_beyond() {
    let key = key2048();
    let public = key.public_key();
    let k = key.size();
    assert_eq!(public.max_message(), k - 66);
    for len in [0, 1, k - 67, k - 66] {
        let msg: Vec<u8> = (0..len).map(|i| i as u8).collect();
        let ct = public.encrypt(&msg).unwrap();
        assert_eq!(ct.len(), k);
        for par in schedules() {
            assert_eq!(key.decrypt(&ct, &par).unwrap().expose(), &msg[..]);
        }
    }
    assert_eq!(
        public.encrypt(&vec![0; k - 65]),
        Err(Error::MessageTooLong {
            len: k - 65,
            max: k - 66
        })
    );
    // Every kind of bad ciphertext is the same error.
    let ct = public.encrypt(b"secret").unwrap();
    let par = Parallelism::default();
    let mut flipped = ct.clone();
    flipped[k / 2] ^= 0x40;
    let other = PrivateKey::generate(2048, &par).unwrap();
    for bad in [
        &ct[..k - 1],
        &[ct.clone(), vec![0]].concat()[..],
        &flipped[..],
        &[0xff; 256][..],
        &[][..],
    ] {
        assert_eq!(key.decrypt(bad, &par).err(), Some(Error::Decryption));
    }
    assert_eq!(other.decrypt(&ct, &par).err(), Some(Error::Decryption));
}

#[test]
fn bulk_round_trips_at_the_oaep_edges_for_every_strategy() {
    let key = key2048();
    let public = key.public_key();
    let k = key.size();
    assert_eq!(rsa_bulk_block_capacity(k), k - 66);
    for len in [
        0,
        1,
        k - 67,
        k - 66,
        k - 65,
        k - 64,
        2 * (k - 66),
        2 * (k - 66) + 1,
        10_000,
    ] {
        let msg: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
        let want_blocks = rsa_bulk_blocks(len, k);
        assert_eq!(want_blocks, len.div_ceil(k - 66).max(1));
        for par in schedules() {
            let ct = rsa_bulk_encrypt(public, &msg, &par).unwrap();
            assert_eq!(ct.len(), want_blocks * k, "{len} bytes, {par:?}");
            assert_eq!(
                rsa_bulk_decrypt(key, &ct, &Parallelism::new(2, Strategy::WorkStealing))
                    .unwrap()
                    .expose(),
                &msg[..]
            );
            assert_eq!(rsa_bulk_decrypt(key, &ct, &par).unwrap().expose(), &msg[..]);
        }
        // One block is plain OAEP: the single-block decryption reads it.
        if want_blocks == 1 {
            let ct = rsa_bulk_encrypt(public, &msg, &Parallelism::default()).unwrap();
            assert_eq!(
                key.decrypt(&ct, &Parallelism::default()).unwrap().expose(),
                &msg[..]
            );
        }
    }
}

/// A million bytes (5,500 blocks); under emulation (`common::emulated`) a
/// tenth: the blocks' code is the edge test's above, here only many more.
#[test]
fn bulk_one_million_bytes() {
    let key = key2048();
    let len: usize = if emulated() { 100_000 } else { 1_000_000 };
    let msg: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
    let ct = rsa_bulk_encrypt(key.public_key(), &msg, &Parallelism::new(2, Strategy::Static)).unwrap();
    assert_eq!(ct.len(), len.div_ceil(key.size() - 66) * key.size());
    let back = rsa_bulk_decrypt(key, &ct, &Parallelism::new(2, Strategy::WorkStealing)).unwrap();
    assert!(back.expose() == &msg[..]);
}

#[test]
fn bulk_refuses_truncated_reordered_and_modified_input() {
    let key = key2048();
    let k = key.size();
    let par = Parallelism::default();
    let msg: Vec<u8> = (0..3 * (k - 66) - 5).map(|i| i as u8).collect();
    let ct = rsa_bulk_encrypt(key.public_key(), &msg, &par).unwrap();
    assert_eq!(ct.len(), 3 * k);
    for bad in [&ct[..ct.len() - 1], &ct[..k + 1], &[][..]] {
        assert_eq!(rsa_bulk_decrypt(key, bad, &par).err(), Some(Error::Decryption));
    }
    let mut flipped = ct.clone();
    flipped[k + 7] ^= 1;
    assert_eq!(
        rsa_bulk_decrypt(key, &flipped, &par).err(),
        Some(Error::Decryption)
    );
    // The short last block moved to the front is a short non-final block.
    let reordered = [&ct[2 * k..], &ct[..2 * k]].concat();
    assert_eq!(
        rsa_bulk_decrypt(key, &reordered, &par).err(),
        Some(Error::Decryption)
    );
}

#[test]
fn one_key_serves_many_threads_at_once() {
    let key = key2048();
    std::thread::scope(|s| {
        for t in 0..4u8 {
            s.spawn(move || {
                for i in 0..10u8 {
                    let msg = [t, i];
                    let par = Parallelism::new(2, Strategy::ALL[usize::from(i) % 3]);
                    let sig = key.sign(Scheme::Pkcs1v15, Algorithm::Sha256, &msg, &par).unwrap();
                    key.public_key()
                        .verify(Scheme::Pkcs1v15, Algorithm::Sha256, &msg, &sig)
                        .unwrap();
                    let ct = key.public_key().encrypt(&msg).unwrap();
                    assert_eq!(key.decrypt(&ct, &par).unwrap().expose(), &msg[..]);
                }
            });
        }
    });
}

/// Runs `openssl` with `args` and returns its standard output, failing the
/// test on a non-zero exit.
fn openssl(args: &[&str], input: &[u8]) -> Vec<u8> {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new("openssl")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn openssl");
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "openssl {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// The hex of one multi-line field (`prime1:`, `prime2:`) of
/// `openssl pkey -text`, leading zero bytes dropped.
fn text_field(text: &str, name: &str) -> Vec<u8> {
    let mut lines = text
        .lines()
        .skip_while(|l| l.trim() != format!("{name}:"))
        .skip(1);
    let mut hex = String::new();
    for line in lines.by_ref() {
        if !line.starts_with("    ") {
            break;
        }
        hex.extend(line.trim().chars().filter(|c| c.is_ascii_hexdigit()));
    }
    let bytes = hex::decode(hex).unwrap();
    bytes.into_iter().skip_while(|&b| b == 0).collect()
}

/// Keys of several sizes from every strategy pass OpenSSL's key check
/// (`pkey -check`, as `RSA_check_key` in parcrypt), have primes of exactly
/// half the size with the top two bits set, and interoperate: OpenSSL
/// verifies their PSS and PKCS#1 v1.5 signatures, and OAEP ciphertexts it
/// makes decrypt.
#[test]
fn generated_keys_pass_openssl_checks_and_interoperate() {
    if !crate::common::require_tool("openssl") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    let (key_pem, pub_pem, msg, sig) = (path("key.pem"), path("pub.pem"), path("msg"), path("sig"));
    std::fs::write(&msg, b"parcrypt keygen").unwrap();
    let cases = [
        (1024, Parallelism::sequential()),
        (2048, Parallelism::new(2, Strategy::Static)),
        (2048, Parallelism::new(3, Strategy::WorkStealing)),
        (3072, Parallelism::new(2, Strategy::WorkStealing)),
    ];
    for (bits, par) in cases {
        let key = PrivateKey::generate(bits, &par).unwrap();
        std::fs::write(&key_pem, key.to_pkcs8_pem().unwrap().expose_bytes()).unwrap();
        std::fs::write(&pub_pem, key.public_key().to_spki_pem().unwrap()).unwrap();
        let check = openssl(&["pkey", "-in", &key_pem, "-check", "-noout"], b"");
        assert!(String::from_utf8_lossy(&check).contains("valid"), "{par:?}");
        let text = String::from_utf8(openssl(&["pkey", "-in", &key_pem, "-noout", "-text"], b"")).unwrap();
        for prime in ["prime1", "prime2"] {
            let p = text_field(&text, prime);
            assert_eq!(p.len() * 8, bits / 2, "{prime} of {bits}");
            assert_eq!(p[0] >> 6, 0b11, "{prime} of {bits}: top two bits");
            assert_eq!(p[p.len() - 1] & 1, 1);
        }
        for (scheme, opts) in [
            (Scheme::Pss, &["-sigopt", "rsa_padding_mode:pss"][..]),
            (Scheme::Pkcs1v15, &[][..]),
        ] {
            let s = key
                .sign(scheme, Algorithm::Sha256, b"parcrypt keygen", &par)
                .unwrap();
            std::fs::write(&sig, &s).unwrap();
            let args = [
                &["dgst", "-sha256", "-verify", &pub_pem, "-signature", &sig][..],
                opts,
                &[&msg],
            ]
            .concat();
            openssl(&args, b"");
        }
        let ct = openssl(
            &[
                "pkeyutl",
                "-encrypt",
                "-pubin",
                "-inkey",
                &pub_pem,
                "-pkeyopt",
                "rsa_padding_mode:oaep",
                "-pkeyopt",
                "rsa_oaep_md:sha256",
                "-pkeyopt",
                "rsa_mgf1_md:sha256",
            ],
            b"a secret",
        );
        assert_eq!(key.decrypt(&ct, &par).unwrap().expose(), b"a secret", "{par:?}");
    }
}
