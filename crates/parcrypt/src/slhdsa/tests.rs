//! Unit tests: sizes and names, schedules, hostile input. NIST's vectors
//! and the differential tests against RustCrypto's `slh-dsa` are in
//! `tests/it/slhdsa_acvp.rs` and `tests/it/slhdsa.rs`.

use super::*;
use crate::par::Strategy;

fn seeds(set: ParameterSet, tag: u8) -> [Vec<u8>; 3] {
    let n = set.n();
    [0u8, 1, 2].map(|s| {
        (0..n)
            .map(|i| (i as u8).wrapping_mul(7) ^ (s << 5) ^ tag)
            .collect()
    })
}

fn key(set: ParameterSet) -> PrivateKey {
    let [a, b, c] = seeds(set, 0);
    PrivateKey::from_seeds(set, &a, &b, &c, &Parallelism::default()).expect("n-byte seeds")
}

#[test]
fn sizes_and_names_are_fips_205s() {
    // FIPS 205 Table 2: (n, public key, signature).
    let table = [
        ("SLH-DSA-SHA2-128s", 16, 32, 7856),
        ("SLH-DSA-SHAKE-128s", 16, 32, 7856),
        ("SLH-DSA-SHA2-128f", 16, 32, 17088),
        ("SLH-DSA-SHAKE-128f", 16, 32, 17088),
        ("SLH-DSA-SHA2-192s", 24, 48, 16224),
        ("SLH-DSA-SHAKE-192s", 24, 48, 16224),
        ("SLH-DSA-SHA2-192f", 24, 48, 35664),
        ("SLH-DSA-SHAKE-192f", 24, 48, 35664),
        ("SLH-DSA-SHA2-256s", 32, 64, 29792),
        ("SLH-DSA-SHAKE-256s", 32, 64, 29792),
        ("SLH-DSA-SHA2-256f", 32, 64, 49856),
        ("SLH-DSA-SHAKE-256f", 32, 64, 49856),
    ];
    for (set, (name, n, pk, sig)) in ParameterSet::ALL.into_iter().zip(table) {
        assert_eq!(set.name(), name);
        assert_eq!(set.to_string().parse::<ParameterSet>(), Ok(set));
        assert_eq!(name.to_uppercase().parse::<ParameterSet>(), Ok(set));
        assert_eq!(
            (set.n(), set.public_key_len(), set.private_key_len()),
            (n, pk, 2 * pk)
        );
        assert_eq!(set.signature_len(), sig, "{name}");
        assert_eq!(set.is_sha2(), name.contains("SHA2"));
    }
    // RFC 9909 / NIST CSOR: id-slh-dsa-sha2-128s .20 … id-slh-dsa-shake-256f .31.
    let arcs: Vec<u8> = ParameterSet::ALL.iter().map(|s| s.oid_arc()).collect();
    assert_eq!(arcs, [20, 26, 21, 27, 22, 28, 23, 29, 24, 30, 25, 31]);
    assert!("SLH-DSA-SHA2-128".parse::<ParameterSet>().is_err());
    for h in PreHash::ALL {
        assert_eq!(h.name().parse::<PreHash>(), Ok(h));
        assert_eq!(h.digest(b"abc").len(), h.digest_len());
    }
    for (acvp, h) in [
        ("SHA2-256", PreHash::Sha256),
        ("SHA2-512/224", PreHash::Sha512_224),
        ("SHA3-384", PreHash::Sha3_384),
        ("SHAKE-128", PreHash::Shake128),
        ("SHA-512", PreHash::Sha512),
    ] {
        assert_eq!(acvp.parse::<PreHash>(), Ok(h));
    }
    assert!("md5".parse::<PreHash>().is_err());
}

/// Keys and signatures are the same bytes on every strategy and thread
/// count (1 to 8), for a SHA-2 and a SHAKE set.
#[test]
fn every_schedule_gives_the_same_keys_and_signatures() {
    for set in [ParameterSet::Sha2_128f, ParameterSet::Shake128f] {
        let [a, b, c] = seeds(set, 9);
        let seq = Parallelism::sequential();
        let reference = PrivateKey::from_seeds(set, &a, &b, &c, &seq).expect("seeds");
        let msg = Message::pure(b"schedule", b"ctx").expect("ctx");
        let sig = reference.sign_deterministic(&msg, &seq);
        reference.public_key().verify(&msg, &sig).expect("verifies");
        let schedules = crate::test_schedules(8);
        assert!(schedules.len() >= 3);
        for par in schedules {
            let key = PrivateKey::from_seeds(set, &a, &b, &c, &par).expect("seeds");
            assert_eq!(
                key.public_key(),
                reference.public_key(),
                "{set} keygen on {par:?}"
            );
            assert!(
                key.sign_deterministic(&msg, &par) == sig,
                "{set} signature on {par:?}"
            );
        }
    }
}

#[test]
fn hedged_signatures_differ_and_verify() {
    let key = key(ParameterSet::Sha2_128f);
    let par = Parallelism::new(2, Strategy::WorkStealing);
    let msg = Message::pure(b"hedged", b"").expect("ctx");
    let (x, y) = (
        key.sign(&msg, &par).expect("rng"),
        key.sign(&msg, &par).expect("rng"),
    );
    assert_ne!(x, y, "a fresh opt_rand each time");
    assert_ne!(x, key.sign_deterministic(&msg, &par));
    for sig in [&x, &y] {
        key.public_key().verify(&msg, sig).expect("verifies");
    }
}

#[test]
fn generated_keys_round_trip_and_sign() {
    let par = Parallelism::default();
    let key = PrivateKey::generate(ParameterSet::Shake128f, &par).expect("rng");
    let again = PrivateKey::from_bytes(ParameterSet::Shake128f, key.to_bytes().expose(), &par)
        .expect("its own bytes");
    assert_eq!(again.public_key(), key.public_key());
    assert_ne!(
        PrivateKey::generate(ParameterSet::Shake128f, &par)
            .expect("rng")
            .public_key(),
        key.public_key()
    );
    let msg = Message::prehashed(PreHash::Shake256, b"image", b"").expect("ctx");
    let sig = again.sign(&msg, &par).expect("rng");
    key.public_key().verify(&msg, &sig).expect("verifies");
}

#[test]
fn debug_shows_no_secret() {
    let key = key(ParameterSet::Sha2_128f);
    let text = format!("{key:?} {key:#?}");
    assert!(text.contains("redacted"), "{text}");
    let bytes = key.to_bytes();
    let secret = &bytes.expose()[..32];
    for window in [&secret[..4], &secret[16..20]] {
        assert!(!text.contains(&hex::encode(window)), "{text}");
    }
    assert!(
        text.contains(&hex::encode(key.public_key().as_bytes())),
        "the public half is shown"
    );
}

/// Hostile input: wrong lengths, flipped bits, another set's key, a long
/// context: each a clear error, never a panic.
#[test]
fn hostile_input_is_refused_clearly() {
    let set = ParameterSet::Sha2_128f;
    let par = Parallelism::default();
    let key = key(set);
    let public = key.public_key();
    let msg = Message::pure(b"hostile", b"ctx").expect("ctx");
    let sig = key.sign_deterministic(&msg, &par);

    // Lengths.
    for len in [0, 1, sig.len() - 1, sig.len() + 1, 2 * sig.len()] {
        let mut s = sig.clone();
        s.resize(len, 0);
        assert_eq!(
            public.verify(&msg, &s),
            Err(Error::SignatureLength {
                set,
                expected: sig.len(),
                got: len
            })
        );
    }
    let other = ParameterSet::Sha2_128s;
    let wrong_set = PublicKey::from_bytes(other, public.as_bytes()).expect("same length");
    assert!(matches!(
        wrong_set.verify(&msg, &sig),
        Err(Error::SignatureLength {
            set: ParameterSet::Sha2_128s,
            ..
        })
    ));
    // The SHAKE twin has the same lengths: the signature just fails.
    let twin = PublicKey::from_bytes(ParameterSet::Shake128f, public.as_bytes()).expect("same length");
    assert_eq!(twin.verify(&msg, &sig), Err(Error::BadSignature));

    // A flipped bit anywhere: R, each FORS tree's leaf and path, each
    // layer's WOTS+ chains and path.
    let p = set.params();
    let n = p.n;
    let mut positions = vec![0, n - 1];
    positions.extend((0..p.k as usize).map(|i| n + i * (1 + p.a as usize) * n + (i % 3) * n));
    let ht = n + p.fors_len();
    positions.extend((0..p.d as usize).flat_map(|j| {
        [
            ht + j * p.xmss_len() + j % p.len() * n,
            ht + (j + 1) * p.xmss_len() - 1,
        ]
    }));
    for at in positions {
        let mut s = sig.clone();
        s[at] ^= 1 << (at % 8);
        assert_eq!(
            public.verify(&msg, &s),
            Err(Error::BadSignature),
            "bit flipped at {at}"
        );
    }
    // Another message, context, prehash or interface.
    for other in [
        Message::pure(b"hostilE", b"ctx"),
        Message::pure(b"hostile", b"ctX"),
        Message::pure(b"hostile", b""),
        Message::prehashed(PreHash::Sha256, b"hostile", b"ctx"),
    ] {
        assert_eq!(
            public.verify(&other.expect("ctx"), &sig),
            Err(Error::BadSignature)
        );
    }
    assert_eq!(public.verify_internal(b"hostile", &sig), Err(Error::BadSignature));

    // Contexts: 255 bytes is the most.
    assert!(Message::pure(b"m", &[7; 255]).is_ok());
    assert_eq!(Message::pure(b"m", &[7; 256]), Err(Error::ContextTooLong(256)));
    assert_eq!(
        Message::prehashed(PreHash::Sha512, b"m", &[0; 300]),
        Err(Error::ContextTooLong(300))
    );
    assert!(matches!(
        Message::from_digest(PreHash::Sha256, &[0; 31], b""),
        Err(Error::DigestLength {
            expected: 32,
            got: 31,
            ..
        })
    ));

    // Keys: lengths, a flipped root, mismatched halves, another set.
    let sk = key.to_bytes();
    let sk = sk.expose();
    for len in [0, 63, 65, 128] {
        let mut b = sk.to_vec();
        b.resize(len, 0);
        assert_eq!(
            PrivateKey::from_bytes(set, &b, &par).map(|_| ()),
            Err(Error::PrivateKeyLength {
                set,
                expected: 64,
                got: len
            })
        );
    }
    for len in [0, 31, 33, 64] {
        assert_eq!(
            PublicKey::from_bytes(set, &vec![0; len]),
            Err(Error::PublicKeyLength {
                set,
                expected: 32,
                got: len
            })
        );
    }
    for at in [0, 17, 40, 63] {
        let mut b = sk.to_vec();
        b[at] ^= 0x80;
        let got = PrivateKey::from_bytes(set, &b, &par).map(|_| ());
        if (16..32).contains(&at) {
            // SK.prf does not enter PK.root: a changed SK.prf is another
            // valid key (its signatures use other randomisers).
            assert_eq!(got, Ok(()), "byte {at}");
        } else {
            assert_eq!(got, Err(Error::KeyMismatch), "byte {at}");
        }
    }
    let other_key = PrivateKey::from_seeds(set, &[1; 16], &[2; 16], &[3; 16], &par).expect("seeds");
    let mut mixed = sk[..32].to_vec();
    mixed.extend_from_slice(&other_key.to_bytes().expose()[32..]);
    assert_eq!(
        PrivateKey::from_bytes(set, &mixed, &par).map(|_| ()),
        Err(Error::KeyMismatch)
    );
    assert_eq!(
        PrivateKey::from_bytes(ParameterSet::Shake128f, sk, &par).map(|_| ()),
        Err(Error::KeyMismatch)
    );
    assert!(matches!(
        PrivateKey::from_seeds(set, &[0; 16], &[0; 15], &[0; 16], &par),
        Err(Error::SeedLength { got: 15, .. })
    ));
    assert!(matches!(
        key.sign_internal(b"m", &[0; 17], &par),
        Err(Error::SeedLength { got: 17, .. })
    ));
}

#[test]
fn verify_batch_answers_each_in_order() {
    let par = Parallelism::default();
    let keys = [key(ParameterSet::Sha2_128f), key(ParameterSet::Shake128f)];
    let msgs: Vec<Message<'_>> = [&b"a"[..], b"b", b"c"]
        .iter()
        .map(|m| Message::pure(m, b"").expect("ctx"))
        .collect();
    let sigs: Vec<Vec<u8>> = msgs
        .iter()
        .enumerate()
        .map(|(i, m)| keys[i % 2].sign_deterministic(m, &par))
        .collect();
    let mut bad = sigs[1].clone();
    bad[100] ^= 1;
    let items = [
        BatchItem {
            key: keys[0].public_key(),
            message: &msgs[0],
            signature: &sigs[0],
        },
        BatchItem {
            key: keys[1].public_key(),
            message: &msgs[1],
            signature: &bad,
        },
        BatchItem {
            key: keys[0].public_key(),
            message: &msgs[2],
            signature: &sigs[2],
        },
        BatchItem {
            key: keys[1].public_key(),
            message: &msgs[0],
            signature: &sigs[0],
        },
        BatchItem {
            key: keys[1].public_key(),
            message: &msgs[1],
            signature: &sigs[1],
        },
    ];
    for par in crate::test_schedules(4) {
        assert_eq!(
            verify_batch(&items, &par),
            [true, false, true, false, true],
            "{par:?}"
        );
    }
}

/// How long one deterministic signature takes here, per set (`cargo test
/// -p parcrypt --lib slhdsa::tests::timing -- --ignored --nocapture`): what
/// the CI selection of the vectors was sized with. Not a benchmark.
#[test]
#[ignore]
fn timing() {
    let par = Parallelism::sequential();
    for set in ParameterSet::ALL {
        let t = std::time::Instant::now();
        let key = key(set);
        let k = t.elapsed();
        let msg = Message::pure(b"timing", b"").expect("ctx");
        let t = std::time::Instant::now();
        let sig = key.sign_deterministic(&msg, &par);
        let s = t.elapsed();
        let t = std::time::Instant::now();
        key.public_key().verify(&msg, &sig).expect("verifies");
        eprintln!("{set}: keygen {k:?} sign {s:?} verify {:?}", t.elapsed());
    }
}
