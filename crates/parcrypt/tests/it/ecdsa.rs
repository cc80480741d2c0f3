//! ECDSA P-256 through the public API: key encodings, signature encodings,
//! batches with invalid signatures in random positions, and bad input.

#![allow(clippy::unwrap_used)]

use parcrypt::ecdsa::{self, BatchItem, DigestItem, Error, PrivateKey, PublicKey, Signature, VerifyStrategy};
use parcrypt::keys::KeyFileError;
use parcrypt::keys::{SigningKey as _, VerifyingKey as _};
use parcrypt::par::{Parallelism, Strategy};

fn schedules() -> Vec<Parallelism> {
    let mut v = vec![Parallelism::sequential()];
    for strategy in [Strategy::Static, Strategy::WorkStealing] {
        for threads in [1, 2, 3, 8] {
            v.push(Parallelism::new(threads, strategy));
        }
    }
    v
}

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn keys_round_trip_through_every_encoding() {
    let key = PrivateKey::generate().unwrap();
    let public = key.public_key();
    let spki = public.to_spki_der().unwrap();
    for bytes in [
        key.to_pkcs8_pem().unwrap().expose_bytes().to_vec(),
        key.to_pkcs8_der().unwrap().expose().to_vec(),
        key.to_sec1_pem().unwrap().expose_bytes().to_vec(),
        key.to_sec1_der().unwrap().expose().to_vec(),
    ] {
        let back = PrivateKey::from_bytes(&bytes, &Parallelism::sequential()).unwrap();
        assert_eq!(back.public_key().to_spki_der().unwrap(), spki);
        assert_eq!(
            PublicKey::from_bytes(&bytes, &Parallelism::sequential())
                .unwrap()
                .to_spki_der()
                .unwrap(),
            spki
        );
        let sig = back.sign(b"m").unwrap();
        public.verify_vartime(b"m", &sig).unwrap();
    }
    for bytes in [public.to_spki_pem().unwrap().into_bytes(), spki.clone()] {
        assert_eq!(
            PublicKey::from_bytes(&bytes, &Parallelism::sequential())
                .unwrap()
                .to_spki_der()
                .unwrap(),
            spki
        );
        assert!(matches!(
            PrivateKey::from_bytes(&bytes, &Parallelism::sequential()),
            Err(Error::Key(KeyFileError::WrongType { .. }) | Error::Key(KeyFileError::Malformed(_)))
        ));
    }
    let point = public.to_sec1_point().unwrap();
    assert_eq!((point.len(), point[0]), (65, 4));
    assert_eq!(
        PublicKey::from_sec1_point(&point).unwrap().to_spki_der().unwrap(),
        spki
    );
    assert!(
        key.to_pkcs8_pem()
            .unwrap()
            .expose()
            .starts_with("-----BEGIN PRIVATE KEY-----\n")
    );
    assert!(
        key.to_sec1_pem()
            .unwrap()
            .expose()
            .starts_with("-----BEGIN EC PRIVATE KEY-----\n")
    );
}

#[test]
fn bad_keys_and_points_are_refused() {
    let key = PrivateKey::generate().unwrap();
    let point = key.public_key().to_sec1_point().unwrap();
    // Off the curve: change y.
    let mut off = point.clone();
    off[64] ^= 1;
    assert!(matches!(
        PublicKey::from_sec1_point(&off),
        Err(Error::Key(KeyFileError::Malformed(_)))
    ));
    assert!(PublicKey::from_sec1_point(&point[..64]).is_err());
    assert!(PublicKey::from_sec1_point(&[0]).is_err());
    let der = key.to_pkcs8_der().unwrap().expose().to_vec();
    for bad in [&der[..der.len() - 1], &[][..], b"junk"] {
        assert!(matches!(
            PrivateKey::from_bytes(bad, &Parallelism::sequential()),
            Err(Error::Key(KeyFileError::Malformed(_)))
        ));
    }
    let encrypted = "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIB\n-----END ENCRYPTED PRIVATE KEY-----\n";
    assert_eq!(
        PrivateKey::from_bytes(encrypted.as_bytes(), &Parallelism::sequential()).err(),
        Some(Error::Key(KeyFileError::Encrypted))
    );
    let rsa = parcrypt::rsa::PrivateKey::generate(1024, &Parallelism::default()).unwrap();
    let rsa_pem = rsa.to_pkcs8_pem().unwrap();
    match PrivateKey::from_bytes(rsa_pem.expose_bytes(), &Parallelism::sequential()) {
        Err(Error::Key(KeyFileError::WrongType { why, .. })) => {
            assert!(why.contains("holds an RSA key"), "{why}")
        }
        other => panic!("{other:?}"),
    }
    let rsa_pub = rsa.public_key().to_spki_der().unwrap();
    assert!(matches!(
        PublicKey::from_bytes(&rsa_pub, &Parallelism::sequential()),
        Err(Error::Key(KeyFileError::WrongType { .. }))
    ));
}

#[test]
fn signature_encodings_round_trip_and_malformed_ones_are_refused() {
    let key = PrivateKey::generate().unwrap();
    for i in 0..50u8 {
        let sig = key.sign(&[i]).unwrap();
        let der = sig.to_der().unwrap();
        assert_eq!(Signature::from_der(&der).unwrap(), sig);
        let fixed = sig.to_fixed().unwrap();
        assert_eq!(Signature::from_fixed(&fixed).unwrap(), sig);
        // Trailing bytes, truncation, a BER long-form length: not DER.
        assert_eq!(
            Signature::from_der(&[&der[..], &[0]].concat()),
            Err(Error::MalformedSignature)
        );
        assert_eq!(
            Signature::from_der(&der[..der.len() - 1]),
            Err(Error::MalformedSignature)
        );
        let mut ber = vec![0x30, 0x81, der[1]];
        ber.extend_from_slice(&der[2..]);
        assert_eq!(Signature::from_der(&ber), Err(Error::MalformedSignature));
        assert_eq!(
            Signature::from_fixed(&fixed[..63]),
            Err(Error::MalformedSignature)
        );
    }
    // r = 0, s = 0 and r, s ≥ n parse (they are integers) but never verify.
    let public = key.public_key();
    let n = hex::decode("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551").unwrap();
    let sig = key.sign(b"m").unwrap().to_fixed().unwrap();
    for (r, s) in [
        (&[0u8; 32][..], &sig[32..]),
        (&sig[..32], &[0u8; 32][..]),
        (&n[..], &sig[32..]),
        (&sig[..32], &n[..]),
    ] {
        let bad = Signature::from_fixed(&[r, s].concat()).unwrap();
        for (strategy, par) in [
            (VerifyStrategy::Joint, Parallelism::new(2, Strategy::Static)),
            (VerifyStrategy::Split, Parallelism::new(2, Strategy::Static)),
            (VerifyStrategy::Split, Parallelism::sequential()),
        ] {
            assert_eq!(
                public.verify_with_vartime(b"m", &bad, strategy, &par),
                Err(Error::BadSignature)
            );
        }
    }
}

#[test]
fn batches_report_exactly_the_invalid_signatures() {
    let keys: Vec<PrivateKey> = (0..3).map(|_| PrivateKey::generate().unwrap()).collect();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for len in [0usize, 1, 2, 7, 64, 300] {
        let messages: Vec<Vec<u8>> = (0..len).map(|i| format!("message {i}").into_bytes()).collect();
        let mut expected = Vec::new();
        let mut sigs = Vec::new();
        let mut signer = Vec::new();
        for (i, m) in messages.iter().enumerate() {
            let k = i % keys.len();
            let sig = keys[k].sign(m).unwrap();
            let bad = rng.next() % 5 == 0;
            sigs.push(if bad {
                // Signed by another key, or over another message.
                if rng.next() % 2 == 0 {
                    keys[(k + 1) % 3].sign(m).unwrap()
                } else {
                    keys[k].sign(b"x").unwrap()
                }
            } else {
                sig
            });
            signer.push(k);
            expected.push(!bad);
        }
        let items: Vec<BatchItem<'_>> = (0..len)
            .map(|i| BatchItem {
                key: keys[signer[i]].public_key(),
                message: &messages[i],
                signature: &sigs[i],
            })
            .collect();
        let digests: Vec<parcrypt::digest::Digest> =
            messages.iter().map(|m| parcrypt::digest::sha256(m)).collect();
        let digest_items: Vec<DigestItem<'_>> = (0..len)
            .map(|i| DigestItem {
                key: keys[signer[i]].public_key(),
                digest: &digests[i],
                signature: &sigs[i],
            })
            .collect();
        for par in schedules() {
            assert_eq!(
                ecdsa::verify_batch_vartime(&items, &par),
                expected,
                "{len} items, {par:?}"
            );
            assert_eq!(
                ecdsa::verify_batch_digests_vartime(&digest_items, &par),
                expected,
                "{len}, {par:?}"
            );
        }
    }
}
