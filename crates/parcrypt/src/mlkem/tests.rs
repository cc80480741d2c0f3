//! The FIPS 203 known answers (tests/data/mlkem: key generation from
//! `d ‖ z`, encapsulation with given `m`, decapsulation and implicit
//! rejection), the three PKCS#8 forms, and hostile input.
#![allow(clippy::unwrap_used)]

use std::collections::HashMap;

use super::*;

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/mlkem/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The records of a `.rsp` file: `name = hex` lines, a record per `count`.
fn records(text: &str) -> Vec<HashMap<String, Vec<u8>>> {
    let mut out: Vec<HashMap<String, Vec<u8>>> = Vec::new();
    for line in text.lines() {
        let Some((name, value)) = line.split_once(" = ") else {
            continue;
        };
        if name == "count" {
            out.push(HashMap::new());
        } else {
            out.last_mut()
                .unwrap()
                .insert(name.to_owned(), unhex(value.trim()));
        }
    }
    out
}

fn seed_of(record: &HashMap<String, Vec<u8>>) -> [u8; SEED_LEN] {
    [&record["d"][..], &record["z"][..]].concat().try_into().unwrap()
}

/// A PKCS#8 v1 `PrivateKeyInfo` around `private` (the contents of the
/// `privateKey` OCTET STRING), for the forms parcrypt does not write. All
/// lengths here are below 64 KiB.
fn pkcs8(params: Params, private: &[u8]) -> Vec<u8> {
    fn tlv(tag: u8, body: &[u8]) -> Vec<u8> {
        let len = body.len();
        let mut out = vec![tag];
        match len {
            0..=127 => out.push(len as u8),
            128..=255 => out.extend([0x81, len as u8]),
            _ => out.extend([0x82, (len >> 8) as u8, len as u8]),
        }
        out.extend_from_slice(body);
        out
    }
    let last = match params {
        Params::MlKem512 => 1,
        Params::MlKem768 => 2,
        Params::MlKem1024 => 3,
    };
    let oid = tlv(0x06, &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x04, last]);
    let body = [tlv(0x02, &[0]), tlv(0x30, &oid), tlv(0x04, private)].concat();
    tlv(0x30, &body)
}

pub(super) fn expanded_form(params: Params, dk: &[u8]) -> Vec<u8> {
    pkcs8(
        params,
        &[&[0x04, 0x82][..], &(dk.len() as u16).to_be_bytes(), dk].concat(),
    )
}

fn both_form(params: Params, seed: &[u8], dk: &[u8]) -> Vec<u8> {
    let inner = [
        &[0x04, 0x40][..],
        seed,
        &[0x04, 0x82],
        &(dk.len() as u16).to_be_bytes(),
        dk,
    ]
    .concat();
    let mut seq = vec![0x30, 0x82];
    seq.extend((inner.len() as u16).to_be_bytes());
    seq.extend(inner);
    pkcs8(params, &seq)
}

#[test]
fn fips_203_known_answers() {
    let mut checked = 0;
    for params in Params::ALL {
        let file = format!("kat_MLKEM_{}.rsp", &params.name()["ML-KEM-".len()..]);
        for record in records(&data(&file)) {
            let key = PrivateKey::from_seed(params, &seed_of(&record)).unwrap();
            assert_eq!(key.public_key().to_raw().unwrap(), record["pk"], "{file}");
            assert_eq!(
                key.to_expanded_bytes().unwrap().expose(),
                &record["sk"][..],
                "{file}"
            );
            let m: [u8; 32] = record["msg"][..].try_into().unwrap();
            let (ss, ct) = key.public.key.encapsulate_deterministic(&m).unwrap();
            assert_eq!(
                (ct, &ss.expose()[..]),
                (record["ct"].clone(), &record["ss"][..]),
                "{file}"
            );
            assert_eq!(
                key.decapsulate(&record["ct"]).unwrap().expose()[..],
                record["ss"][..]
            );
            // Implicit rejection: ct_n is not made for the key, and
            // decapsulates to J(z ‖ c), not to an error.
            assert_eq!(
                key.decapsulate(&record["ct_n"]).unwrap().expose()[..],
                record["ss_n"][..]
            );
            // The expanded and both forms of PKCS#8 give the same key.
            for der in [
                expanded_form(params, &record["sk"]),
                both_form(params, &seed_of(&record), &record["sk"]),
            ] {
                let read = PrivateKey::from_pkcs8_der(&der).unwrap();
                assert_eq!(read.params(), params);
                assert_eq!(read.public_key().to_raw().unwrap(), record["pk"]);
                assert_eq!(
                    read.decapsulate(&record["ct_n"]).unwrap().expose()[..],
                    record["ss_n"][..]
                );
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 9);
}

#[test]
fn the_seed_form_is_pycas_byte_for_byte() {
    let pem = data("pyca_mlkem768.pem");
    let key = PrivateKey::from_bytes(pem.as_bytes()).unwrap();
    assert_eq!(key.params(), Params::MlKem768);
    assert_eq!(key.to_pkcs8_pem().unwrap().expose(), pem);
    let record = &records(&data("kat_MLKEM_768.rsp"))[0];
    assert_eq!(key.seed().unwrap().expose(), &seed_of(record));
    let der = key.to_pkcs8_der().unwrap();
    assert_eq!(der.len(), 86);
    assert_eq!(PrivateKey::from_bytes(der.expose()).unwrap().seed(), key.seed());
}

#[test]
fn a_key_read_expanded_has_no_seed_and_is_written_expanded() {
    let record = &records(&data("kat_MLKEM_512.rsp"))[1];
    let der = expanded_form(Params::MlKem512, &record["sk"]);
    let key = PrivateKey::from_pkcs8_der(&der).unwrap();
    assert!(key.seed().is_none());
    assert_eq!(key.to_pkcs8_der().unwrap().expose(), &der[..]);
}

#[test]
fn keys_and_ciphertexts_round_trip_through_every_encoding() {
    for params in Params::ALL {
        let key = PrivateKey::generate(params).unwrap();
        let public = key.public_key();
        let from_pem = PublicKey::from_bytes(public.to_spki_pem().unwrap().as_bytes()).unwrap();
        let from_der = PublicKey::from_bytes(&public.to_spki_der().unwrap()).unwrap();
        let from_raw = PublicKey::from_raw(params, &public.to_raw().unwrap()).unwrap();
        let from_private = PublicKey::from_bytes(key.to_pkcs8_pem().unwrap().expose_bytes()).unwrap();
        for p in [from_pem, from_der, from_raw, from_private] {
            assert_eq!(p.params(), params);
            let (ss, ct) = p.encapsulate().unwrap();
            assert_eq!(ct.len(), params.ciphertext_len());
            assert_eq!(key.decapsulate(&ct).unwrap(), ss);
        }
        let password = b"correct horse";
        let locked = key
            .to_pkcs8_encrypted_pem(password, &pkcs8::Options::default())
            .unwrap();
        assert_eq!(
            PrivateKey::from_bytes(locked.as_bytes()).unwrap_err(),
            Error::EncryptedKey
        );
        assert_eq!(
            PublicKey::from_bytes(locked.as_bytes()).unwrap_err(),
            Error::EncryptedKey
        );
        let unlocked = PrivateKey::from_bytes_with_password(locked.as_bytes(), password).unwrap();
        assert_eq!(unlocked.seed(), key.seed());
        assert!(matches!(
            PrivateKey::from_bytes_with_password(locked.as_bytes(), b"wrong"),
            Err(Error::KeyEncryption(pkcs8::Error::BadDecrypt))
        ));
        assert!(format!("{key:?}").contains(params.name()));
    }
}

#[test]
fn hostile_input_is_a_clear_error() {
    let key = PrivateKey::from_seed(Params::MlKem768, &[9; 64]).unwrap();
    let der = key.to_pkcs8_der().unwrap();
    let der = der.expose();
    // Truncated and extended private keys.
    for cut in [0, 1, 20, der.len() - 1] {
        assert!(
            matches!(PrivateKey::from_bytes(&der[..cut]), Err(Error::MalformedKey(_))),
            "{cut}"
        );
    }
    let extended = [der, &[0][..]].concat();
    assert!(matches!(
        PrivateKey::from_bytes(&extended),
        Err(Error::MalformedKey(_))
    ));
    // A seed of the wrong size, inside PKCS#8 and given directly.
    let mut short_seed = der.to_vec();
    short_seed[1] -= 1;
    short_seed[19] -= 1;
    short_seed[21] -= 1;
    short_seed.pop();
    assert!(PrivateKey::from_bytes(&short_seed).is_err());
    assert_eq!(
        PrivateKey::from_seed(Params::MlKem768, &[0; 63]).unwrap_err(),
        Error::SeedLength(63)
    );
    // Public keys: raw of the wrong length, SPKI truncated and extended,
    // a coefficient ≥ q.
    let raw = key.public_key().to_raw().unwrap();
    assert!(matches!(
        PublicKey::from_raw(Params::MlKem768, &raw[1..]),
        Err(Error::MalformedKey(_))
    ));
    assert!(matches!(
        PublicKey::from_raw(Params::MlKem1024, &raw),
        Err(Error::MalformedKey(_))
    ));
    let spki = key.public_key().to_spki_der().unwrap();
    assert!(matches!(
        PublicKey::from_bytes(&spki[..spki.len() - 1]),
        Err(Error::MalformedKey(_))
    ));
    assert!(matches!(
        PublicKey::from_bytes(&[&spki[..], &[0]].concat()),
        Err(Error::MalformedKey(_))
    ));
    let mut overflow = raw.clone();
    overflow[0] = 0xff;
    overflow[1] |= 0x0f;
    assert_eq!(
        PublicKey::from_raw(Params::MlKem768, &overflow).unwrap_err(),
        Error::InvalidKey
    );
    let mut bad_spki = spki.clone();
    let at = spki.len() - raw.len();
    bad_spki[at] = 0xff;
    bad_spki[at + 1] |= 0x0f;
    assert_eq!(PublicKey::from_bytes(&bad_spki).unwrap_err(), Error::InvalidKey);
    // Ciphertexts of the wrong length (another parameter set's, one byte
    // off); the right length decapsulates (implicit rejection).
    for len in [0, 767, 1087, 1089, 1568] {
        assert_eq!(
            key.decapsulate(&vec![0; len]).unwrap_err(),
            Error::CiphertextLength {
                params: Params::MlKem768,
                expected: 1088,
                found: len
            }
        );
    }
    assert!(key.decapsulate(&[0; 1088]).is_ok());
    // An expanded key whose H(ek) is wrong, and a "both" key whose halves
    // disagree.
    let dk = key.to_expanded_bytes().unwrap();
    let mut bad_hash = dk.expose().to_vec();
    bad_hash[2400 - 64] ^= 1;
    assert_eq!(
        PrivateKey::from_pkcs8_der(&expanded_form(Params::MlKem768, &bad_hash)).unwrap_err(),
        Error::InvalidKey
    );
    assert_eq!(
        PrivateKey::from_pkcs8_der(&both_form(Params::MlKem768, &[8; 64], dk.expose())).unwrap_err(),
        Error::InvalidKey
    );
    // An expanded key of another parameter set's length.
    assert!(matches!(
        PrivateKey::from_pkcs8_der(&expanded_form(Params::MlKem1024, dk.expose())),
        Err(Error::MalformedKey(_))
    ));
    // A wrong parameter set where one is required, a public key where a
    // private one is needed, a key of another family.
    let pem = key.to_pkcs8_pem().unwrap();
    let read = PrivateKey::from_bytes(pem.expose_bytes()).unwrap();
    assert_eq!(
        read.require_params(Params::MlKem1024).unwrap_err(),
        Error::WrongParams {
            expected: Params::MlKem1024,
            found: Params::MlKem768
        }
    );
    let spki_pem = key.public_key().to_spki_pem().unwrap();
    assert!(matches!(
        PrivateKey::from_bytes(spki_pem.as_bytes()),
        Err(Error::WrongKeyType(_))
    ));
    assert!(matches!(
        PrivateKey::from_bytes(&spki),
        Err(Error::WrongKeyType(_))
    ));
    let ec = std::fs::read(format!(
        "{}/tests/data/pkcs8/ec-plain.pem",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let err = PrivateKey::from_bytes(&ec).unwrap_err();
    assert_eq!(
        err,
        Error::WrongKeyType("the PKCS#8 private key holds an EC key".into())
    );
    let err = PublicKey::from_bytes(&ec).unwrap_err();
    assert!(matches!(err, Error::WrongKeyType(_)), "{err:?}");
    assert!(matches!(
        PublicKey::from_bytes(b"not a key"),
        Err(Error::MalformedKey(_))
    ));
}

#[test]
fn params_are_named_as_openssl_names_them() {
    for params in Params::ALL {
        assert_eq!(params.name().parse::<Params>().unwrap(), params);
        assert_eq!(params.to_string(), params.name());
    }
    assert_eq!(
        "ml-kem-768".parse::<Params>().unwrap_err().kind,
        "ML-KEM parameter set"
    );
}

#[test]
fn a_cloned_public_key_outlives_its_private_key() {
    for params in Params::ALL {
        let key = PrivateKey::generate(params).unwrap();
        let public = key.public_key().clone();
        let (secret, ciphertext) = public.encapsulate().unwrap();
        assert_eq!(key.decapsulate(&ciphertext).unwrap().expose(), secret.expose());
        let spki = key.public_key().to_spki_der().unwrap();
        drop(key);
        assert_eq!(public.to_spki_der().unwrap(), spki);
        assert_eq!(public.params(), params);
    }
}
