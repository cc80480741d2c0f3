//! `parcrypt aes --mode gcm` run as a binary: round trips, interop with an
//! independent AES-GCM (Python's `cryptography`, which wraps OpenSSL; the
//! `openssl enc` CLI has no AEAD modes), and failures that write nothing.

#![allow(clippy::unwrap_used)]

use std::process::Command;

use crate::common::{data, entries, fails_in, parcrypt, stderr};

const KEY: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
const NONCE: &str = "cafebabefacedbaddecaf888";

/// AES-GCM by Python's `cryptography` (OpenSSL underneath): ciphertext ‖ tag.
fn python_gcm(encrypt: bool, key: &str, nonce: &str, aad: &str, input: &std::path::Path) -> Vec<u8> {
    let op = if encrypt { "encrypt" } else { "decrypt" };
    let script = format!(
        "import sys\nfrom cryptography.hazmat.primitives.ciphers.aead import AESGCM\n\
         d=open(sys.argv[1],'rb').read()\n\
         sys.stdout.buffer.write(AESGCM(bytes.fromhex('{key}')).{op}(bytes.fromhex('{nonce}'), d, bytes.fromhex('{aad}') or None))\n"
    );
    let out = Command::new("python3")
        .args(["-c", &script, input.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

#[test]
fn gcm_round_trips_and_matches_an_independent_implementation() {
    let dir = tempfile::tempdir().unwrap();
    for (len, aad) in [
        (0, ""),
        (1, "01"),
        (1000, ""),
        (3 << 20, "feedfacedeadbeef"),
        ((5 << 20) + 17, "00"),
    ] {
        let pt = data(len);
        let input = dir.path().join("in");
        std::fs::write(&input, &pt).unwrap();
        let mut args = vec!["aes", "encrypt", "--mode", "gcm", "--key", KEY, "--iv", NONCE];
        if !aad.is_empty() {
            args.extend(["--aad", aad]);
        }
        for threads in ["1", "2", "4"] {
            let ct = parcrypt(&[&["--threads", threads][..], &args].concat(), &pt);
            assert!(ct.status.success(), "{}", stderr(&ct));
            assert_eq!(ct.stdout.len(), len + 16);
            let mut dec = args.clone();
            dec[1] = "decrypt";
            let back = parcrypt(&[&["--threads", threads][..], &dec].concat(), &ct.stdout);
            assert!(back.status.success(), "{}", stderr(&back));
            assert!(back.stdout == pt);
            if threads == "2" && crate::common::require_tool("python3-cryptography") {
                assert!(
                    python_gcm(true, KEY, NONCE, aad, &input) == ct.stdout,
                    "{len} bytes"
                );
                let ct_file = dir.path().join("ct");
                std::fs::write(&ct_file, &ct.stdout).unwrap();
                assert!(python_gcm(false, KEY, NONCE, aad, &ct_file) == pt);
            }
        }
    }
}

#[test]
fn gcm_failures_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let pt = data(3 << 20);
    let enc = parcrypt(
        &["aes", "encrypt", "--mode", "gcm", "--key", KEY, "--iv", NONCE],
        &pt,
    );
    assert!(enc.status.success());
    let ct = enc.stdout;
    let out = dir.path().join("out");
    let o = out.to_str().unwrap();
    let decrypt = |input: &[u8], extra: &[&str]| {
        parcrypt(
            &[
                &[
                    "aes", "decrypt", "--mode", "gcm", "--key", KEY, "--iv", NONCE, "-o", o,
                ][..],
                extra,
            ]
            .concat(),
            input,
        )
    };
    let mut flipped = ct.clone();
    flipped[1 << 20] ^= 4;
    let mut bad_tag = ct.clone();
    *bad_tag.last_mut().unwrap() ^= 1;
    for (case, input, extra) in [
        ("a flipped byte", &flipped[..], &[][..]),
        ("a bad tag", &bad_tag[..], &[]),
        ("one byte short", &ct[..ct.len() - 1], &[]),
        ("another --aad", &ct[..], &["--aad", "00"]),
    ] {
        let r = decrypt(input, extra);
        fails_in(case, &r, 1, "authentication failed");
        assert!(stderr(&r).contains("nothing was written"), "{case}");
    }
    let r = decrypt(&ct[..10], &[]);
    assert_eq!(r.status.code(), Some(1));
    assert!(stderr(&r).contains("too short"));
    // Usage errors: nonce length, key length, --aad outside GCM, no nonce.
    for args in [
        &[
            "aes", "encrypt", "--mode", "gcm", "--key", KEY, "--iv", "00112233",
        ][..],
        &[
            "aes",
            "encrypt",
            "--mode",
            "gcm",
            "--key",
            &KEY[..48],
            "--iv",
            NONCE,
        ],
        &[
            "aes",
            "encrypt",
            "--mode",
            "ctr",
            "--key",
            KEY,
            "--iv",
            &format!("{NONCE}00000000"),
            "--aad",
            "00",
        ],
        &["aes", "encrypt", "--mode", "gcm", "--key", KEY],
    ] {
        // Exit 2 with a `parcrypt:` message and a hint.
        fails_in(&format!("{args:?}"), &parcrypt(args, b"x"), 2, "");
    }
    let left: Vec<String> = entries(dir.path());
    assert!(left.is_empty(), "{left:?}");
}
