//! NIST's ACVP vectors for FIPS 205 (keyGen, sigGen deterministic and
//! hedged with given randomness, sigVer; internal and external interfaces;
//! pure and prehash; all twelve parameter sets), the subset in
//! `tests/data/slhdsa/acvp.json.gz` (`subset.py` there says how it was cut).
//!
//! Signing an `s` set is slow in the test profile (0.5–1 s for the SHA2
//! sets, 7–11 s for SHAKE), so CI signs every case of the `f` sets and one
//! case of each `s` set ([`selected`]); sigVer runs every case.
//! `PARCRYPT_SLHDSA_FULL=1` runs every case of the file (docs: the module
//! README's "Tests").

use std::io::Read;

use parcrypt::par::Parallelism;
use parcrypt::slhdsa::{Message, ParameterSet, PreHash, PrivateKey, PublicKey};
use serde_json::Value;

use crate::common::{emulated, unhex};

fn vectors() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/slhdsa/acvp.json.gz");
    let raw = std::fs::read(path).expect("tests/data/slhdsa/acvp.json.gz");
    let mut text = String::new();
    flate2::read::GzDecoder::new(&raw[..])
        .read_to_string(&mut text)
        .expect("gzip");
    serde_json::from_str(&text).expect("JSON")
}

pub fn full() -> bool {
    std::env::var_os("PARCRYPT_SLHDSA_FULL").is_some_and(|v| !v.is_empty() && v != "0")
}

/// Which cases run: all in a full run. Otherwise every SHA2-`f` case, the
/// first case of each SHAKE-`f` group and,
/// of each `s` set, the first case of one group: the six `s` sets take the
/// six groups (internal, pure, prehash × deterministic, hedged) in turn, so
/// every set and every interface is signed (an `s`-set signature takes
/// 0.5–10 s in the test profile). Under emulation only the first case of
/// each `f`-set group.
fn selected(cases: &[Value]) -> Vec<&Value> {
    let slow: Vec<ParameterSet> = ParameterSet::ALL.into_iter().filter(|s| !s.is_fast()).collect();
    let mut firsts = std::collections::HashSet::new();
    cases
        .iter()
        .filter(|c| {
            let set = set_of(c);
            let tg = c["tgId"].as_u64().expect("tgId");
            let first = firsts.insert(tg);
            if full() {
                return true;
            }
            if emulated() {
                return first && set.is_fast();
            }
            if set.is_fast() {
                // SHAKE signs ~15× slower than SHA-2 here: one case per group.
                return set.is_sha2() || first;
            }
            let turn = slow.iter().position(|&s| s == set).expect("an s set");
            let groups_of_set = cases_groups(cases, set);
            first && groups_of_set.get(turn % groups_of_set.len().max(1)) == Some(&tg)
        })
        .collect()
}

/// The tgIds of `set`'s groups, in file order.
fn cases_groups(cases: &[Value], set: ParameterSet) -> Vec<u64> {
    let mut out = Vec::new();
    for c in cases.iter().filter(|c| set_of(c) == set) {
        let tg = c["tgId"].as_u64().expect("tgId");
        if !out.contains(&tg) {
            out.push(tg);
        }
    }
    out
}

fn set_of(c: &Value) -> ParameterSet {
    str_of(c, "parameterSet").parse().expect("a parameter set")
}

fn str_of<'a>(c: &'a Value, k: &str) -> &'a str {
    c[k].as_str().unwrap_or_else(|| panic!("{k} in {c}"))
}

fn bytes(c: &Value, k: &str) -> Vec<u8> {
    c[k].as_str().map(unhex).unwrap_or_default()
}

fn id(c: &Value) -> String {
    format!(
        "{} tgId {} tcId {} ({} {} {})",
        str_of(c, "parameterSet"),
        c["tgId"],
        c["tcId"],
        c["signatureInterface"].as_str().unwrap_or("keyGen"),
        c["preHash"].as_str().unwrap_or(""),
        c["hashAlg"].as_str().unwrap_or("")
    )
}

/// The message as the external interface signs it.
fn message(c: &Value) -> Message<'static> {
    let msg = bytes(c, "message");
    let ctx = bytes(c, "context");
    match c["preHash"].as_str() {
        Some("preHash") => {
            let hash: PreHash = str_of(c, "hashAlg").parse().expect("a prehash name");
            Message::prehashed(hash, &msg, &ctx).expect("context ≤ 255")
        }
        _ => {
            let owned: &'static [u8] = Box::leak(msg.into_boxed_slice());
            Message::pure(owned, &ctx).expect("context ≤ 255")
        }
    }
}

/// M' built by hand from FIPS 205 Algorithms 22 and 23, for the hedged
/// external cases (their randomness goes in through `sign_internal`).
fn encoded(c: &Value) -> Vec<u8> {
    let msg = bytes(c, "message");
    let ctx = bytes(c, "context");
    let mut m = Vec::new();
    match c["preHash"].as_str() {
        Some("preHash") => {
            let hash: PreHash = str_of(c, "hashAlg").parse().expect("a prehash name");
            m.extend([1, ctx.len() as u8]);
            m.extend_from_slice(&ctx);
            m.extend_from_slice(&hash.oid_der());
            m.extend_from_slice(&hash.digest(&msg));
        }
        _ => {
            m.extend([0, ctx.len() as u8]);
            m.extend_from_slice(&ctx);
            m.extend_from_slice(&msg);
        }
    }
    m
}

#[test]
fn acvp_keygen() {
    let v = vectors();
    let cases = v["keyGen"].as_array().expect("keyGen");
    let par = Parallelism::default();
    let mut sets = std::collections::HashSet::new();
    for c in selected(cases) {
        let set = set_of(c);
        sets.insert(set);
        let key = PrivateKey::from_seeds(
            set,
            &bytes(c, "skSeed"),
            &bytes(c, "skPrf"),
            &bytes(c, "pkSeed"),
            &par,
        )
        .expect("seeds of n bytes");
        assert_eq!(key.to_bytes().expose(), &bytes(c, "sk")[..], "{}", id(c));
        assert_eq!(key.public_key().as_bytes(), &bytes(c, "pk")[..], "{}", id(c));
    }
    assert!(emulated() || sets.len() == 12, "every parameter set: {sets:?}");
}

#[test]
fn acvp_siggen() {
    let v = vectors();
    let cases = v["sigGen"].as_array().expect("sigGen");
    let par = Parallelism::default();
    let mut kinds = std::collections::HashSet::new();
    for c in selected(cases) {
        let set = set_of(c);
        let sk = bytes(c, "sk");
        let key = PrivateKey::from_bytes(set, &sk, &par).unwrap_or_else(|e| panic!("{}: {e}", id(c)));
        let deterministic = c["deterministic"].as_bool().expect("deterministic");
        let internal = str_of(c, "signatureInterface") == "internal";
        let opt_rand = if deterministic {
            sk[2 * set.n()..3 * set.n()].to_vec()
        } else {
            bytes(c, "additionalRandomness")
        };
        let sig = if internal {
            key.sign_internal(&bytes(c, "message"), &opt_rand, &par)
                .expect("n-byte opt_rand")
        } else if deterministic {
            key.sign_deterministic(&message(c), &par)
        } else {
            key.sign_internal(&encoded(c), &opt_rand, &par)
                .expect("n-byte opt_rand")
        };
        assert_eq!(
            hex::encode(parcrypt::digest::sha256(&sig)),
            str_of(c, "signatureSha256"),
            "{}",
            id(c)
        );
        let public = key.public_key();
        if internal {
            public.verify_internal(&bytes(c, "message"), &sig)
        } else {
            public.verify(&message(c), &sig)
        }
        .unwrap_or_else(|e| panic!("{}: {e}", id(c)));
        kinds.insert((
            set,
            internal,
            deterministic,
            c["preHash"].as_str().unwrap_or("").to_owned(),
        ));
    }
    // 12 sets × (internal, external pure, external prehash) × (deterministic, hedged)
    // in full; in CI every kind of the `f` sets and one of each `s` set.
    let want = if full() { 72 } else { 36 + 6 };
    assert!(emulated() || kinds.len() == want, "{} kinds", kinds.len());
}

#[test]
fn acvp_sigver() {
    let v = vectors();
    let cases = v["sigVer"].as_array().expect("sigVer");
    let mut seen = (0, 0);
    for c in cases {
        let set = set_of(c);
        if emulated() && !set.is_fast() {
            continue;
        }
        let key = PublicKey::from_bytes(set, &bytes(c, "pk")).expect("a 2n-byte key");
        let sig = bytes(c, "signature");
        let got = if str_of(c, "signatureInterface") == "internal" {
            key.verify_internal(&bytes(c, "message"), &sig)
        } else {
            key.verify(&message(c), &sig)
        };
        let want = c["testPassed"].as_bool().expect("testPassed");
        assert_eq!(got.is_ok(), want, "{}: {got:?}", id(c));
        if want {
            seen.0 += 1;
        } else {
            seen.1 += 1;
        }
    }
    assert!(emulated() || seen == (36, 36), "{seen:?}");
}
