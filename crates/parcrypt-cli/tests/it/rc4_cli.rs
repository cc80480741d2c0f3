//! `parcrypt rc4` / `parcrypt parc4`: refused without --hazmat, warn with it,
//! RC4 equals `openssl enc -rc4` (legacy provider), PARC4 equals the
//! independent reference's vectors.

#![allow(clippy::unwrap_used)]

use std::process::Command;

use crate::common::{data, fails_with_no_output_in, ok_in, parcrypt, stderr, usage_in};
use crate::vectors::records;

const K: &str = "0102030405060708090a0b0c0d0e0f10";
const NONCE: &str = "f0e1d2c3b4a5968778695a4b3c2d1e0f";

#[test]
fn both_refuse_without_hazmat() {
    for args in [&["rc4", "--key", K][..], &["parc4", "--key", K, "--nonce", NONCE]] {
        let out = parcrypt(args, b"secret");
        fails_with_no_output_in(args[0], &out, 2, "needs --hazmat");
    }
}

#[test]
fn both_warn_but_work_with_hazmat() {
    for (args, warning) in [
        (&["rc4", "--hazmat", "--key", K][..], "parcrypt: warning: RC4"),
        (
            &["parc4", "--hazmat", "--key", K, "--nonce", NONCE],
            "parcrypt: warning: PARC4",
        ),
    ] {
        let out = parcrypt(args, &data(100));
        ok_in(args[0], &out);
        assert_eq!(out.stdout.len(), 100, "{}", args[0]);
        assert!(stderr(&out).starts_with(warning), "{}", stderr(&out));
    }
}

#[test]
fn bad_input_is_a_usage_error() {
    let long_key = "01".repeat(257);
    for args in [
        &["rc4", "--hazmat", "--key", ""][..],
        &["rc4", "--hazmat", "--key", &long_key],
        &["rc4", "--hazmat", "--key", "xyz"],
        &[
            "parc4",
            "--hazmat",
            "--key",
            K,
            "--nonce",
            NONCE,
            "--block-size",
            "0",
        ],
        &["parc4", "--hazmat", "--key", K, "--nonce", "00"],
        &["parc4", "--hazmat", "--key", "0011", "--nonce", NONCE],
        &[
            "parc4",
            "--hazmat",
            "--key",
            K,
            "--nonce",
            NONCE,
            "--block-size",
            "lots",
        ],
    ] {
        // Exit 2, a `parcrypt:` message, nothing on stdout.
        usage_in(&format!("{args:?}"), &parcrypt(args, b"data"), "");
    }
}

#[test]
fn rc4_matches_openssl_legacy_provider() {
    let probe = Command::new("openssl")
        .args([
            "enc",
            "-rc4",
            "-K",
            K,
            "-nosalt",
            "-provider",
            "legacy",
            "-provider",
            "default",
        ])
        .stdin(std::process::Stdio::null())
        .output();
    if !crate::common::require("openssl-legacy-rc4", probe.is_ok_and(|o| o.status.success())) {
        return;
    }
    for len in [0usize, 1, 255, 256, 100_000, (9 << 20) + 1] {
        let input = data(len);
        let theirs = crate::common::openssl_enc(
            &[
                "-rc4",
                "-K",
                K,
                "-nosalt",
                "-provider",
                "legacy",
                "-provider",
                "default",
            ],
            &input,
        );
        let ours = parcrypt(&["rc4", "--hazmat", "--key", K], &input);
        assert!(ours.status.success());
        assert!(ours.stdout == theirs.stdout, "len {len}");
        // A file longer than the CLI's 8 MiB buffer is read through maps.
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("in.bin");
        std::fs::write(&file, &input).unwrap();
        let mapped = parcrypt(
            &["rc4", "--hazmat", "--key", K, "-i", file.to_str().unwrap()],
            b"",
        );
        assert!(mapped.stdout == theirs.stdout, "len {len} from -i");
    }
}

/// PARC4 of a file longer than the CLI's 8 MiB buffer (read through memory
/// maps) equals PARC4 of the same bytes from a pipe, on every thread count.
#[test]
fn parc4_of_a_file_equals_parc4_of_a_pipe() {
    let input = data((17 << 20) + 3);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("in.bin");
    std::fs::write(&file, &input).unwrap();
    let args = ["parc4", "--hazmat", "--key", K, "--nonce", NONCE];
    let piped = parcrypt(&args, &input);
    assert!(piped.status.success(), "{}", stderr(&piped));
    for threads in ["1", "2", "3"] {
        let mut argv = vec!["--threads", threads];
        argv.extend(args);
        argv.extend(["-i", file.to_str().unwrap()]);
        let mapped = parcrypt(&argv, b"");
        assert!(mapped.status.success(), "{}", stderr(&mapped));
        assert!(mapped.stdout == piped.stdout, "threads {threads}");
    }
}

/// The CLI reproduces `tests/data/parc4_vectors.txt` of the library, which an
/// independent Python implementation generated.
#[test]
fn parc4_matches_the_reference_vectors() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../parcrypt/tests/data/parc4_vectors.txt"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let mut checked = 0;
    for record in records(&text).iter().filter(|r| r.get("CIPHERTEXT").is_some()) {
        let field = |name: &str| record.field(name).to_owned();
        let len: usize = field("LEN").parse().unwrap();
        for extra in [&[][..], &["--threads", "3", "--strategy", "static"]] {
            let mut args: Vec<String> = extra.iter().map(|s| (*s).to_owned()).collect();
            args.extend(
                [
                    "parc4",
                    "--hazmat",
                    "--key",
                    &field("KEY"),
                    "--nonce",
                    &field("NONCE"),
                    "--block-size",
                    &field("BLOCK"),
                ]
                .map(String::from),
            );
            let argv: Vec<&str> = args.iter().map(String::as_str).collect();
            let out = parcrypt(&argv, &data(len));
            assert!(out.status.success(), "{}", stderr(&out));
            assert_eq!(
                hex::encode(&out.stdout),
                field("CIPHERTEXT"),
                "block {} len {len}",
                field("BLOCK")
            );
        }
        checked += 1;
    }
    assert_eq!(checked, text.matches("CIPHERTEXT = ").count());
    assert!(checked > 0);
}
