//! SLH-DSA keys in PKCS#8 and SubjectPublicKeyInfo, DER and PEM, against
//! what OpenSSL 3.5 writes (`tests/data/slhdsa/openssl35/`, one key per
//! parameter set, made by OpenSSL 3.5.8): each is read and written back
//! byte for byte; password-protected PKCS#8 both ways; an OpenSSL
//! signature verifies; and hostile or foreign keys are refused with the
//! error that says what they are. The live two-way interop with OpenSSL is
//! `slhdsa_openssl`.

use parcrypt::keys::KeyFileError;
use parcrypt::keys::{SigningKey as _, VerifyingKey as _};
use parcrypt::par::Parallelism;
use parcrypt::pkcs8;
use parcrypt::slhdsa::{Error, Message, ParameterSet, PrivateKey, PublicKey};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/slhdsa/openssl35");

/// The private and public PEM blocks OpenSSL wrote for `set`.
fn openssl_pems(set: ParameterSet) -> (String, String) {
    let text = std::fs::read_to_string(format!("{DATA}/{set}.pem")).expect("test data");
    let at = text
        .find("-----BEGIN PUBLIC KEY-----")
        .expect("a public key block");
    (text[..at].to_owned(), text[at..].to_owned())
}

/// A DER TLV (test keys are short: lengths under 256).
fn tlv(tag: u8, contents: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    if contents.len() < 0x80 {
        out.push(contents.len() as u8);
    } else {
        out.extend([0x81, u8::try_from(contents.len()).expect("a short test key")]);
    }
    out.extend_from_slice(contents);
    out
}

/// An AlgorithmIdentifier: OID 2.16.840.1.101.3.4.3.`arc`, then `params`.
fn alg(arc: u8, params: &[u8]) -> Vec<u8> {
    let oid = tlv(0x06, &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, arc]);
    tlv(0x30, &[&oid[..], params].concat())
}

/// A PKCS#8 `PrivateKeyInfo`: version, algorithm, key, and what follows.
fn pkcs8(version: u8, alg: &[u8], key: &[u8], extra: &[u8]) -> Vec<u8> {
    tlv(
        0x30,
        &[&[0x02, 0x01, version][..], alg, &tlv(0x04, key), extra].concat(),
    )
}

/// A `SubjectPublicKeyInfo` with the BIT STRING's contents `bits`.
fn spki(alg: &[u8], bits: &[u8]) -> Vec<u8> {
    tlv(0x30, &[alg, &tlv(0x03, bits)].concat())
}

/// Every reader takes the caller's threads, and the key it reads does not
/// depend on them: read on 1 thread or on several (any strategy), through
/// the family's readers (plain, password-protected, the public half of a
/// private key) and `anykey`'s, it is the same key, byte for byte, and signs
/// the same deterministic signatures. (That the threads given are the ones
/// used is `embedded::an_slhdsa_key_is_read_on_the_threads_it_is_given`.)
#[test]
fn a_key_read_on_any_threads_is_the_same_key() {
    use parcrypt::anykey;
    use parcrypt::par::Strategy;
    // 128s: a top tree of 512 leaves, spread over the threads (128f's 8
    // leaves are built on the calling thread whatever they are).
    let set = ParameterSet::Sha2_128s;
    let (pem, _) = openssl_pems(set);
    let one = Parallelism::new(1, Strategy::WorkStealing);
    let reference = <PrivateKey as parcrypt::keys::SigningKey>::from_bytes(pem.as_bytes(), &one).unwrap();
    let options = pkcs8::Options {
        kdf: pkcs8::Kdf::Pbkdf2 {
            prf: pkcs8::Prf::HmacSha256,
            iterations: 1000,
        },
        ..pkcs8::Options::default()
    };
    let locked = reference.to_pkcs8_encrypted_pem(b"pw", &options).unwrap();
    let message = Message::pure(b"firmware image", b"ctx").unwrap();
    let signature = reference.sign_deterministic(&message, &Parallelism::default());
    for par in [
        Parallelism::sequential(),
        one,
        Parallelism::new(2, Strategy::Static),
        Parallelism::new(3, Strategy::WorkStealing),
        Parallelism::new(8, Strategy::WorkStealing),
        Parallelism::default(),
    ] {
        let at = format!("{} threads, {}", par.threads(), par.strategy().name());
        let read = <PrivateKey as parcrypt::keys::SigningKey>::from_bytes(pem.as_bytes(), &par).unwrap();
        assert_eq!(read.to_bytes().expose(), reference.to_bytes().expose(), "{at}");
        let unlocked = PrivateKey::from_bytes_with_password(locked.as_bytes(), b"pw", &par).unwrap();
        assert_eq!(
            unlocked.to_bytes().expose(),
            reference.to_bytes().expose(),
            "{at}"
        );
        let public = <PublicKey as parcrypt::keys::VerifyingKey>::from_bytes(pem.as_bytes(), &par).unwrap();
        assert_eq!(&public, reference.public_key(), "{at}");
        match anykey::read_private(pem.as_bytes(), None, &pkcs8::KdfLimits::DEFAULT, &par).unwrap() {
            anykey::PrivateKey::SlhDsa(any) => {
                assert_eq!(any.to_bytes().expose(), reference.to_bytes().expose(), "{at}");
            }
            other => panic!("{at}: {other:?}"),
        }
        // The same bytes sign the same: checked once more at the ends.
        if par.threads().get() == 8 {
            assert_eq!(read.sign_deterministic(&message, &par), signature, "{at}");
        }
    }
}

#[test]
fn openssl_keys_are_read_and_written_back_byte_for_byte() {
    let par = Parallelism::default();
    for set in ParameterSet::ALL {
        let (private_pem, public_pem) = openssl_pems(set);
        let key = PrivateKey::from_pkcs8_pem(private_pem.as_bytes(), &par).expect("OpenSSL's private key");
        assert_eq!(key.parameter_set(), set);
        assert_eq!(key.to_pkcs8_pem().expose(), private_pem, "{set} PKCS#8 PEM");
        assert_eq!(key.public_key().to_spki_pem(), public_pem, "{set} SPKI PEM");

        let public = PublicKey::from_spki_pem(public_pem.as_bytes()).expect("OpenSSL's public key");
        assert_eq!(&public, key.public_key());
        let der = public.to_spki_der();
        assert_eq!(der.len(), 2 + 13 + 3 + set.public_key_len(), "{set}");
        assert_eq!(PublicKey::from_spki_der(&der).expect("SPKI DER"), public);

        let der = key.to_pkcs8_der();
        // The raw key is the OCTET STRING's whole contents, at the end.
        assert!(der.expose().ends_with(key.to_bytes().expose()), "{set}");
        // Reading a private key rebuilds its top tree (a key generation:
        // up to a second for a SHAKE `s` set in the test profile), so the
        // other readers run on the `f` sets.
        if set.is_fast() {
            let again = PrivateKey::from_pkcs8_der(der.expose(), &par).expect("PKCS#8 DER");
            assert_eq!(again.to_bytes().expose(), key.to_bytes().expose());
            // Through the password-taking reader too (the password is ignored).
            let again =
                PrivateKey::from_pkcs8_with_password(der.expose(), b"unused", &par).expect("plain DER");
            assert_eq!(again.public_key(), key.public_key());
        }
    }
}

#[test]
fn password_protected_keys_both_ways() {
    let par = Parallelism::default();
    let set = ParameterSet::Sha2_128f;
    let (private_pem, _) = openssl_pems(set);
    let plain = PrivateKey::from_pkcs8_pem(private_pem.as_bytes(), &par).expect("plain key");
    let encrypted = std::fs::read(format!("{DATA}/{set}.encrypted.pem")).expect("test data");

    let key = PrivateKey::from_pkcs8_with_password(&encrypted, b"correct horse", &par)
        .expect("OpenSSL's encrypted key");
    assert_eq!(key.to_bytes().expose(), plain.to_bytes().expose());
    assert_eq!(
        PrivateKey::from_pkcs8_with_password(&encrypted, b"wrong", &par).unwrap_err(),
        Error::Key(KeyFileError::Encryption(pkcs8::Error::BadDecrypt))
    );
    assert_eq!(
        PrivateKey::from_pkcs8_pem(&encrypted, &par).unwrap_err(),
        Error::Key(KeyFileError::Encrypted)
    );

    // Ours, PEM and DER, with the default (OpenSSL 3's) and a scrypt layout.
    for options in [
        pkcs8::Options::default(),
        pkcs8::Options {
            cipher: pkcs8::Cipher::Aes128Cbc,
            kdf: pkcs8::Kdf::Scrypt {
                log2_n: 10,
                r: 8,
                p: 1,
            },
        },
    ] {
        let pem = key.to_pkcs8_encrypted_pem(b"pw", &options).expect("encrypt");
        assert!(pem.starts_with("-----BEGIN ENCRYPTED PRIVATE KEY-----"));
        let der = key.to_pkcs8_encrypted_der(b"pw", &options).expect("encrypt");
        assert_eq!(pkcs8::options_of(&der).expect("options"), options);
        for bytes in [pem.as_bytes(), &der] {
            let back = PrivateKey::from_pkcs8_with_password(bytes, b"pw", &par).expect("our encrypted key");
            assert_eq!(back.to_bytes().expose(), key.to_bytes().expose());
            assert!(matches!(
                PrivateKey::from_pkcs8_with_password(bytes, b"pX", &par),
                Err(Error::Key(KeyFileError::Encryption(_)))
            ));
        }
        assert_eq!(
            PrivateKey::from_pkcs8_der(&der, &par).unwrap_err(),
            Error::Key(KeyFileError::Encrypted)
        );
    }
}

#[test]
fn an_openssl_signature_verifies() {
    let set = ParameterSet::Sha2_128s;
    let (_, public_pem) = openssl_pems(set);
    let public = PublicKey::from_spki_pem(public_pem.as_bytes()).expect("public key");
    let sig = std::fs::read(format!("{DATA}/{set}.sig")).expect("test data");
    let msg = b"signed by OpenSSL 3.5.8";
    public
        .verify(&Message::pure(msg, b"parcrypt").expect("ctx"), &sig)
        .expect("OpenSSL's signature");
    assert_eq!(
        public.verify(&Message::pure(msg, b"").expect("ctx"), &sig),
        Err(Error::BadSignature)
    );
}

#[test]
fn hostile_and_foreign_keys_are_refused_clearly() {
    let par = Parallelism::default();
    let set = ParameterSet::Sha2_128f;
    let (private_pem, public_pem) = openssl_pems(set);
    let key = PrivateKey::from_pkcs8_pem(private_pem.as_bytes(), &par).expect("key");
    let der = key.to_pkcs8_der().expose().to_vec();
    let raw = key.to_bytes().expose().to_vec();
    let public = key.public_key().to_bytes();
    let arc = set.oid_arc();
    assert_eq!(arc, 21);
    // What OpenSSL writes, spelled out: the test's builders make the same.
    assert_eq!(der, pkcs8(0, &alg(arc, &[]), &raw, &[]));
    let spki_der = key.public_key().to_spki_der();
    assert_eq!(spki_der, spki(&alg(arc, &[]), &[&[0][..], &public].concat()));

    // Every truncation and a trailing byte: an error, never a panic.
    for cut in 0..der.len() {
        assert!(
            PrivateKey::from_pkcs8_der(&der[..cut], &par).is_err(),
            "cut {cut}"
        );
    }
    for cut in 0..spki_der.len() {
        assert!(PublicKey::from_spki_der(&spki_der[..cut]).is_err(), "cut {cut}");
    }
    let mut long = der.clone();
    long.push(0);
    assert!(matches!(
        PrivateKey::from_pkcs8_der(&long, &par),
        Err(Error::Key(KeyFileError::Malformed(_)))
    ));
    let mut long = spki_der.clone();
    long.push(0);
    assert!(matches!(
        PublicKey::from_spki_der(&long),
        Err(Error::Key(KeyFileError::Malformed(_)))
    ));

    // A key one byte short or long inside well-formed DER: the length error.
    let p = |key: &[u8]| PrivateKey::from_pkcs8_der(&pkcs8(0, &alg(arc, &[]), key, &[]), &par);
    assert_eq!(
        p(&raw[..63]).unwrap_err(),
        Error::PrivateKeyLength {
            set,
            expected: 64,
            got: 63
        }
    );
    assert_eq!(
        p(&[&raw[..], &[7]].concat()).unwrap_err(),
        Error::PrivateKeyLength {
            set,
            expected: 64,
            got: 65
        }
    );
    assert!(matches!(p(&[]), Err(Error::PrivateKeyLength { got: 0, .. })));
    let s = |arc: u8, bits: &[u8]| PublicKey::from_spki_der(&spki(&alg(arc, &[]), bits));
    assert_eq!(
        s(arc, &[&[0][..], &public, &[1]].concat()).unwrap_err(),
        Error::PublicKeyLength {
            set,
            expected: 32,
            got: 33
        }
    );
    assert_eq!(
        s(arc, &[0, 1]).unwrap_err(),
        Error::PublicKeyLength {
            set,
            expected: 32,
            got: 1
        }
    );
    // Unused bits in the BIT STRING, or no unused-bits byte at all.
    assert!(matches!(
        s(arc, &[&[1][..], &public].concat()),
        Err(Error::Key(KeyFileError::Malformed(_)))
    ));
    assert!(matches!(s(arc, &[]), Err(Error::Key(KeyFileError::Malformed(_)))));
    // A public key under another set's OID is that set's key (n = 16: a
    // SHAKE key; the bytes alone cannot tell), or the wrong length.
    assert_eq!(
        s(ParameterSet::Shake128f.oid_arc(), &[&[0][..], &public].concat())
            .expect("32 bytes")
            .parameter_set(),
        ParameterSet::Shake128f
    );
    assert!(matches!(
        s(ParameterSet::Sha2_256s.oid_arc(), &[&[0][..], &public].concat()),
        Err(Error::PublicKeyLength {
            expected: 64,
            got: 32,
            ..
        })
    ));

    // Another set's OID over this private key: SHAKE-128f (same n) fails
    // the root check; SHA2-192f (n = 24) the length.
    let under = |arc: u8| PrivateKey::from_pkcs8_der(&pkcs8(0, &alg(arc, &[]), &raw, &[]), &par);
    assert_eq!(
        under(ParameterSet::Shake128f.oid_arc()).unwrap_err(),
        Error::KeyMismatch
    );
    assert!(matches!(
        under(ParameterSet::Sha2_192f.oid_arc()),
        Err(Error::PrivateKeyLength {
            expected: 96,
            got: 64,
            ..
        })
    ));
    // A damaged PK.root.
    let mut damaged = raw.clone();
    damaged[63] ^= 1;
    assert_eq!(p(&damaged).unwrap_err(), Error::KeyMismatch);

    // Another algorithm's OID (ML-DSA-65), a HashSLH-DSA OID, parameters.
    let e = under(18).unwrap_err();
    assert!(
        matches!(&e, Error::Key(KeyFileError::WrongType { why, .. }) if why.contains("ML-DSA-65")),
        "{e}"
    );
    assert!(e.to_string().starts_with("not an SLH-DSA key"), "{e}");
    assert!(matches!(
        under(35),
        Err(Error::Key(KeyFileError::WrongType { .. }))
    ));
    let e = PrivateKey::from_pkcs8_der(&pkcs8(0, &alg(arc, &[0x05, 0x00]), &raw, &[]), &par).unwrap_err();
    assert!(
        matches!(&e, Error::Key(KeyFileError::Malformed(why)) if why.contains("parameters")),
        "{e}"
    );
    let e =
        PublicKey::from_spki_der(&spki(&alg(arc, &[0x05, 0x00]), &[&[0][..], &public].concat())).unwrap_err();
    assert!(
        matches!(&e, Error::Key(KeyFileError::Malformed(why)) if why.contains("parameters")),
        "{e}"
    );

    // Versions: 1 with a matching public key reads, with another does not;
    // attributes are skipped; version 2 and unknown trailing fields are refused.
    let field = |public: &[u8]| tlv(0x81, &[&[0][..], public].concat());
    let with = |version: u8, extra: &[u8]| {
        PrivateKey::from_pkcs8_der(&pkcs8(version, &alg(arc, &[]), &raw, extra), &par)
    };
    assert!(with(1, &field(&public)).is_ok());
    assert!(with(1, &[]).is_ok());
    let attributes = tlv(0xa0, &tlv(0x30, &[0x06, 0x01, 0x2a, 0x31, 0x00]));
    assert!(with(0, &attributes).is_ok());
    assert!(with(1, &[&attributes[..], &field(&public)].concat()).is_ok());
    let mut wrong = public.clone();
    wrong[0] ^= 1;
    assert_eq!(with(1, &field(&wrong)).unwrap_err(), Error::KeyMismatch);
    assert!(matches!(
        with(0, &field(&public)),
        Err(Error::Key(KeyFileError::Malformed(_)))
    ));
    assert!(matches!(
        with(2, &[]),
        Err(Error::Key(KeyFileError::Malformed(_)))
    ));
    assert!(matches!(
        with(1, &tlv(0x04, &[])),
        Err(Error::Key(KeyFileError::Malformed(_)))
    ));

    // PEM blocks of another kind, and keys of other algorithms.
    let e = PrivateKey::from_pkcs8_pem(public_pem.as_bytes(), &par).unwrap_err();
    assert!(
        matches!(&e, Error::Key(KeyFileError::WrongType { why, .. }) if why.contains("PUBLIC KEY")),
        "{e}"
    );
    let e = PublicKey::from_spki_pem(private_pem.as_bytes()).unwrap_err();
    assert!(
        matches!(&e, Error::Key(KeyFileError::WrongType { why, .. }) if why.contains("PRIVATE KEY")),
        "{e}"
    );
    let ec = parcrypt::ecdsa::PrivateKey::generate().expect("P-256 key");
    let e = PrivateKey::from_pkcs8_pem(ec.to_pkcs8_pem().expect("pem").expose_bytes(), &par).unwrap_err();
    assert!(
        matches!(&e, Error::Key(KeyFileError::WrongType { why, .. }) if why.contains("an EC key")),
        "{e}"
    );
    let e = PrivateKey::from_pkcs8_pem(ec.to_sec1_pem().expect("pem").expose_bytes(), &par).unwrap_err();
    assert!(
        matches!(&e, Error::Key(KeyFileError::WrongType { why, .. }) if why.contains("EC PRIVATE KEY")),
        "{e}"
    );
    let ec_spki = ec.public_key().to_spki_pem().expect("pem");
    let e = PublicKey::from_spki_pem(ec_spki.as_bytes()).unwrap_err();
    assert!(
        matches!(&e, Error::Key(KeyFileError::WrongType { why, .. }) if why.contains("an EC key")),
        "{e}"
    );
    assert!(matches!(
        PrivateKey::from_pkcs8_pem(b"not a key", &par),
        Err(Error::Key(KeyFileError::Malformed(_)))
    ));
    assert!(matches!(
        PrivateKey::from_pkcs8_der(b"not a key", &par),
        Err(Error::Key(KeyFileError::Malformed(_)))
    ));
}
