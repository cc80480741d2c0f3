//! ML-DSA (FIPS 204) known answers, from the two official sources under
//! `tests/data/mldsa/` (its README says where each file comes from and how
//! it was cut):
//!
//! - pyca/cryptography's deterministic KATs (`kat_MLDSA_*_det_pure.rsp.gz`,
//!   the first 25 of each file's 100 records): the key pair of the seed ξ
//!   (public and expanded private key), and the deterministic signature of
//!   a message under a context, byte for byte, from the seed and from the
//!   expanded key. `PARCRYPT_MLDSA_KAT_DIR=DIR` runs the whole files
//!   instead, from `DIR` (`cryptography_vectors/asymmetric/MLDSA` of
//!   `pip install cryptography-vectors==50.0.2`);
//! - NIST's ACVP vectors (`acvp/`): keyGen (seed → both keys), sigGen
//!   (ML-DSA.Sign_internal from the expanded key, deterministic and with
//!   given randomness) and sigVer (ML-DSA.Verify_internal, passing and
//!   failing cases), every case of every parameter set.

use parcrypt::keys::{SigningKey as _, VerifyingKey as _};
use parcrypt::mldsa::{ParameterSet, PrivateKey, PublicKey, RND_BYTES};
use serde_json::Value;

use crate::common::unhex;
use crate::vector_sets::{acvp, gunzip, hex_field as hex_of};
use crate::vectors::{Record, records};

/// The records of a `.rsp` file, which has no blank lines between them:
/// each starts at its `count`.
fn kat_records(text: &str) -> Vec<Record> {
    let mut out: Vec<Record> = Vec::new();
    for (k, v) in records(text).into_iter().flat_map(|r| r.fields) {
        if k == "count" {
            out.push(Record::default());
        }
        out.last_mut().expect("a count first").fields.push((k, v));
    }
    out
}

#[test]
fn pyca_deterministic_known_answers() {
    let full = std::env::var_os("PARCRYPT_MLDSA_KAT_DIR").filter(|d| !d.is_empty());
    let mut checked = 0;
    for set in ParameterSet::ALL {
        let file = format!("kat_MLDSA_{}_det_pure.rsp", &set.name()["ML-DSA-".len()..]);
        let text = match &full {
            Some(dir) => {
                let path = std::path::Path::new(dir).join(&file);
                std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            }
            None => String::from_utf8(gunzip(&format!("mldsa/{file}.gz"))).expect("UTF-8"),
        };
        for r in kat_records(&text) {
            let id = format!("{file} count {}", r.field("count"));
            let key = PrivateKey::from_seed(set, &unhex(r.field("xi"))).expect("a 32-byte seed");
            assert_eq!(key.public_key().to_raw(), unhex(r.field("pk")), "{id}");
            assert_eq!(
                key.to_expanded().expect("expanded").expose(),
                &unhex(r.field("sk"))[..],
                "{id}"
            );
            let (msg, ctx) = (unhex(r.field("msg")), unhex(r.field("ctx")));
            // `sm` is the signature followed by the message.
            let sm = unhex(r.field("sm"));
            let (sig, rest) = sm.split_at(set.signature_len());
            assert_eq!(rest, msg, "{id}: sm = sig ‖ msg");
            assert_eq!(key.sign_deterministic(&msg, &ctx).expect("sign"), sig, "{id}");
            // The same from the expanded key alone, and through μ.
            let expanded = PrivateKey::from_expanded(set, &unhex(r.field("sk"))).expect("expanded key");
            assert_eq!(
                expanded.sign_deterministic(&msg, &ctx).expect("sign"),
                sig,
                "{id}"
            );
            let mut h = key.public_key().mu_hasher(&ctx).expect("context ≤ 255");
            h.update(&msg);
            let mu = h.finish().expect("μ");
            assert_eq!(
                key.sign_mu_internal(&mu, &[0; RND_BYTES]).expect("sign"),
                sig,
                "{id}"
            );
            key.public_key().verify(&msg, sig, &ctx).expect("verifies");
            // Hedged signing differs (fresh randomness) and verifies too.
            let hedged = key.sign(&msg, &ctx).expect("sign");
            assert_ne!(hedged, sig, "{id}: hedged signing is randomized");
            key.public_key().verify(&msg, &hedged, &ctx).expect("verifies");
            checked += 1;
        }
    }
    assert_eq!(checked, 3 * if full.is_some() { 100 } else { 25 });
}

fn set_of(group: &Value) -> ParameterSet {
    group["parameterSet"]
        .as_str()
        .expect("parameterSet")
        .parse()
        .expect("an ML-DSA set")
}

#[test]
fn acvp_keygen() {
    let mut checked = 0;
    for (g, tests) in acvp("mldsa/acvp/ML-DSA-keyGen-FIPS204") {
        let set = set_of(&g);
        for t in tests {
            let key = PrivateKey::from_seed(set, &hex_of(&t, "seed")).expect("a 32-byte seed");
            assert_eq!(
                key.public_key().to_raw(),
                hex_of(&t, "pk"),
                "{set} tcId {}",
                t["tcId"]
            );
            assert_eq!(
                key.to_expanded().expect("expanded").expose(),
                &hex_of(&t, "sk")[..],
                "{set} tcId {}",
                t["tcId"]
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 75);
}

#[test]
fn acvp_siggen() {
    let mut checked = (0, 0);
    for (g, tests) in acvp("mldsa/acvp/ML-DSA-sigGen-FIPS204") {
        let set = set_of(&g);
        let deterministic = g["deterministic"].as_bool().expect("deterministic");
        for t in tests {
            let id = format!("{set} tgId {} tcId {}", g["tgId"], t["tcId"]);
            let key = PrivateKey::from_expanded(set, &hex_of(&t, "sk")).expect("an expanded key");
            let rnd: [u8; RND_BYTES] = if deterministic {
                [0; RND_BYTES]
            } else {
                hex_of(&t, "rnd").try_into().expect("32-byte rnd")
            };
            let message = hex_of(&t, "message");
            let sig = key.sign_internal(&message, &rnd).expect("sign");
            assert_eq!(sig, hex_of(&t, "signature"), "{id}");
            key.public_key()
                .verify_internal(&message, &sig)
                .unwrap_or_else(|e| panic!("{id}: {e}"));
            if deterministic {
                checked.0 += 1;
            } else {
                checked.1 += 1;
            }
        }
    }
    assert_eq!(checked, (30, 30));
}

#[test]
fn acvp_sigver() {
    let mut seen = (0, 0);
    for (g, tests) in acvp("mldsa/acvp/ML-DSA-sigVer-FIPS204") {
        let set = set_of(&g);
        let key = PublicKey::from_raw(set, &hex_of(&g, "pk")).expect("a public key");
        // The SPKI reader gives the same key.
        assert_eq!(
            PublicKey::from_spki_der(&key.to_spki_der().expect("SPKI")).expect("SPKI"),
            key
        );
        for t in tests {
            let got = key.verify_internal(&hex_of(&t, "message"), &hex_of(&t, "signature"));
            let want = t["testPassed"].as_bool().expect("testPassed");
            assert_eq!(got.is_ok(), want, "{set} tcId {}: {got:?}", t["tcId"]);
            if want {
                seen.0 += 1;
            } else {
                seen.1 += 1;
            }
        }
    }
    // Each set's group mixes passing and failing cases.
    assert_eq!(seen.0 + seen.1, 45, "{seen:?}");
    assert!(seen.0 > 0 && seen.1 > 0, "{seen:?}");
}
