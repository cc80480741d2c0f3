//! The C2SP age test kit (`tests/data/age-testkit/`, 147 vectors): every
//! `expect` outcome is checked, with the streaming decryption (sequential
//! and on several threads), the in-memory one and, for binary files, the
//! range decryption; the payload hash covers what was released before a
//! payload failure. Success vectors also check that the header re-encodes
//! to its own bytes.

#![allow(clippy::unwrap_used)]

use std::io::Read;
use std::path::Path;

use parcrypt::age::{self, Armor, DecryptOptions, Header, Identity, Outcome};
use parcrypt::digest::{Algorithm, digest};
use parcrypt::par::{Parallelism, Strategy};
use parcrypt::secret::SecretBytes;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/age-testkit");

struct Vector {
    name: String,
    expect: String,
    payload: Option<String>,
    identities: Vec<Identity>,
    armored: bool,
    file: Vec<u8>,
}

fn load(path: &Path) -> Vector {
    let raw = std::fs::read(path).unwrap();
    let split = raw
        .windows(2)
        .position(|w| w == b"\n\n")
        .expect("a header, an empty line, the file");
    let head = std::str::from_utf8(&raw[..split]).unwrap();
    let mut body = raw[split + 2..].to_vec();
    let mut v = Vector {
        name: path.file_name().unwrap().to_string_lossy().into_owned(),
        expect: String::new(),
        payload: None,
        identities: Vec::new(),
        armored: false,
        file: Vec::new(),
    };
    for line in head.lines() {
        let (k, val) = line
            .split_once(": ")
            .unwrap_or_else(|| panic!("{}: {line:?}", v.name));
        match k {
            "expect" => v.expect = val.to_owned(),
            "payload" => v.payload = Some(val.to_owned()),
            "identity" => v.identities.push(Identity::parse(val).unwrap()),
            "passphrase" => v
                .identities
                .push(Identity::Passphrase(SecretBytes::from(val.as_bytes()))),
            "armored" => v.armored = val == "yes",
            "compressed" => {
                assert_eq!(val, "zlib");
                let mut out = Vec::new();
                flate2::read::ZlibDecoder::new(&body[..])
                    .read_to_end(&mut out)
                    .unwrap();
                body = out;
            }
            "file key" | "comment" => {}
            other => panic!("{}: unknown key {other}", v.name),
        }
    }
    v.file = body;
    v
}

fn vectors() -> Vec<Vector> {
    let mut all: Vec<Vector> = std::fs::read_dir(DIR)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_none_or(|e| e != "md") && p.file_name().unwrap() != "LICENSE")
        .map(|p| load(&p))
        .collect();
    all.sort_by(|a, b| a.name.cmp(&b.name));
    all
}

fn outcome(expect: &str) -> Option<Outcome> {
    match expect {
        "success" => None,
        "header failure" => Some(Outcome::HeaderFailure),
        "HMAC failure" => Some(Outcome::HmacFailure),
        "payload failure" => Some(Outcome::PayloadFailure),
        "armor failure" => Some(Outcome::ArmorFailure),
        "no match" => Some(Outcome::NoMatch),
        other => panic!("unknown expect {other:?}"),
    }
}

fn sha256_hex(data: &[u8]) -> String {
    hex::encode(digest(Algorithm::Sha256, data).as_bytes())
}

fn opts(v: &Vector) -> DecryptOptions {
    DecryptOptions {
        armor: if v.armored { Armor::Armored } else { Armor::Binary },
        ..DecryptOptions::default()
    }
}

#[test]
fn every_vector_of_the_c2sp_age_test_kit() {
    let all = vectors();
    assert_eq!(all.len(), 147, "the test kit pinned by filippo.io/age v1.3.2");
    let pars = [
        Parallelism::sequential(),
        Parallelism::new(3, Strategy::Static),
        Parallelism::new(4, Strategy::WorkStealing),
    ];
    let mut seen = std::collections::BTreeMap::<String, usize>::new();
    for v in &all {
        *seen.entry(v.expect.clone()).or_default() += 1;
        let want = outcome(&v.expect);
        for par in &pars {
            let mut out = Vec::new();
            let got = age::decrypt_stream(&v.identities, &v.file[..], &mut out, &opts(v), par, |_| {});
            match (want, &got) {
                (None, Ok(n)) => assert_eq!(*n as usize, out.len(), "{}", v.name),
                (Some(w), Err(e)) => assert_eq!(e.outcome(), w, "{}: {e}", v.name),
                _ => panic!("{}: expected {}, got {got:?}", v.name, v.expect),
            }
            if let Some(hash) = &v.payload {
                assert_eq!(
                    &sha256_hex(&out),
                    hash,
                    "{}: released plaintext ({:?})",
                    v.name,
                    par
                );
            } else {
                assert!(out.is_empty(), "{}: released {} bytes", v.name, out.len());
            }
            // In memory: all or nothing.
            let mem = age::decrypt(&v.identities, &v.file, &opts(v), par);
            match (want, &mem) {
                (None, Ok(plain)) => assert_eq!(Some(sha256_hex(plain.expose())), v.payload, "{}", v.name),
                (Some(w), Err(e)) => assert_eq!(e.outcome(), w, "{}: {e}", v.name),
                _ => panic!(
                    "{}: in memory, expected {}, got {:?}",
                    v.name,
                    v.expect,
                    mem.map(|p| p.len())
                ),
            }
        }
        if want.is_none() {
            // Armor is detected as the age CLI detects it.
            let mut out = Vec::new();
            age::decrypt_stream(
                &v.identities,
                &v.file[..],
                &mut out,
                &DecryptOptions::default(),
                &pars[1],
                |_| {},
            )
            .unwrap();
            assert_eq!(Some(sha256_hex(&out)), v.payload, "{}", v.name);
            if !v.armored {
                // The header re-encodes to its own bytes, and ranges read
                // the same bytes as the whole.
                let header = Header::parse(&v.file).unwrap();
                assert_eq!(header.to_bytes(), v.file[..header.len()], "{}", v.name);
                for (start, len) in [
                    (0, out.len()),
                    (out.len().min(1), out.len().saturating_sub(2)),
                    (out.len() / 2, out.len() / 3),
                ] {
                    let mut part = Vec::new();
                    let n = age::decrypt_range(
                        &v.identities,
                        &v.file[..],
                        start as u64,
                        len as u64,
                        &mut part,
                        &opts(v),
                        &pars[2],
                    )
                    .unwrap_or_else(|e| panic!("{}: range {start}+{len}: {e}", v.name));
                    assert_eq!(n as usize, len);
                    assert_eq!(part, out[start..start + len], "{}: range {start}+{len}", v.name);
                }
            }
        }
    }
    let summary: Vec<String> = seen.iter().map(|(k, n)| format!("{n} {k}")).collect();
    eprintln!("age test kit: {}", summary.join(", "));
    assert_eq!(seen.len(), 6, "every outcome is exercised: {summary:?}");
}

#[test]
fn payload_failures_are_refused_by_range_decryption_too() {
    for v in vectors()
        .iter()
        .filter(|v| v.expect == "payload failure" && !v.armored)
    {
        let mut out = Vec::new();
        let got = age::decrypt_range(
            &v.identities,
            &v.file[..],
            0,
            0,
            &mut out,
            &opts(v),
            &Parallelism::new(2, Strategy::WorkStealing),
        );
        // The last chunk is checked first, whatever the range; a file whose
        // damage is elsewhere may still give an empty range, never bytes.
        if let Err(e) = got {
            assert!(
                matches!(e.outcome(), Outcome::PayloadFailure | Outcome::Other),
                "{}: {e}",
                v.name
            );
        }
        assert!(out.is_empty(), "{}", v.name);
    }
}
