//! `parcrypt encrypt|decrypt --format cobblestone-128|cobblestone-256|chunked`
//! run as a binary: round trips through files and pipes at chunk boundaries
//! on 1 and 2 threads, every generic scheme, `--range`, damaged and
//! truncated files (exit 1, no output left), usage errors (exit 2), and
//! pyca/cryptography reading the binary's files and the binary reading
//! pyca's.

#![allow(clippy::unwrap_used)]

use std::path::Path;

use crate::common::{data, entries, fails_in, ok_quietly_in, p, parcrypt, require, usage_in};

const CHUNK: usize = 16 << 10;
const SIZES: [usize; 6] = [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK + 77];

fn key_file(dir: &Path, len: usize) -> String {
    let path = dir.join(format!("key{len}.bin"));
    std::fs::write(&path, vec![0x5au8; len]).unwrap();
    path.display().to_string()
}

#[test]
fn round_trips_through_files_and_pipes() {
    let dir = tempfile::tempdir().unwrap();
    let (k16, k32) = (key_file(dir.path(), 16), key_file(dir.path(), 32));
    let formats: [(&[&str], &str); 6] = [
        (&["--format", "cobblestone-128"], &k16),
        (&["--format", "cobblestone-256"], &k32),
        (&["--format", "chunked"], &k16),
        (
            &[
                "--format",
                "chunked",
                "--kdf-hash",
                "sha512",
                "--aead",
                "chacha20-poly1305",
            ],
            &k32,
        ),
        (
            &[
                "--format",
                "chunked",
                "--kdf-hash",
                "sha256",
                "--aead",
                "AEAD_AES_256_GCM",
            ],
            &k32,
        ),
        (&["--format", "cobblestone-128", "--context", "a context"], &k16),
    ];
    for (fmt, key) in formats {
        for len in SIZES {
            for threads in ["1", "2"] {
                let case = format!("{fmt:?} {len} bytes, {threads} threads");
                let plain = data(len);
                let input = dir.path().join("plain");
                std::fs::write(&input, &plain).unwrap();
                let sealed = dir.path().join("sealed");
                let _ = std::fs::remove_file(&sealed);
                let mut args = vec![
                    "--threads",
                    threads,
                    "encrypt",
                    "--key-file",
                    key,
                    "-i",
                    p(&input),
                    "-o",
                    p(&sealed),
                ];
                args.extend_from_slice(fmt);
                ok_quietly_in(&case, &parcrypt(&args, b""));
                let bytes = std::fs::read(&sealed).unwrap();
                assert_eq!(bytes.len(), 56 + len + (len / CHUNK + 1) * 16, "{case}");
                // From a pipe to a pipe, and from a file to stdout.
                let mut args = vec!["--threads", threads, "decrypt", "--key-file", key];
                args.extend_from_slice(fmt);
                let out = parcrypt(&args, &bytes);
                assert_eq!(ok_quietly_in(&case, &out).stdout, plain, "{case}");
                args.extend_from_slice(&["-i", p(&sealed)]);
                let out = parcrypt(&args, b"");
                assert_eq!(ok_quietly_in(&case, &out).stdout, plain, "{case}");
                // Encryption from a pipe decrypts too.
                let mut args = vec!["--threads", threads, "encrypt", "--key-file", key];
                args.extend_from_slice(fmt);
                let piped = ok_quietly_in(&case, &parcrypt(&args, &plain)).stdout.clone();
                std::fs::write(&sealed, &piped).unwrap();
                let mut args = vec!["decrypt", "--key-file", key, "-i", p(&sealed)];
                args.extend_from_slice(fmt);
                assert_eq!(
                    ok_quietly_in(&case, &parcrypt(&args, b"")).stdout,
                    plain,
                    "{case}"
                );
            }
        }
    }
}

#[test]
fn ranges_damage_and_mistakes() {
    let dir = tempfile::tempdir().unwrap();
    let (k16, k32) = (key_file(dir.path(), 16), key_file(dir.path(), 32));
    let plain = data(5 * CHUNK + 100);
    let sealed = dir.path().join("sealed");
    let cob = ["--format", "cobblestone-128"];
    ok_quietly_in(
        "encrypt",
        &parcrypt(
            &[&["encrypt", "--key-file", &k16, "-o", p(&sealed)][..], &cob].concat(),
            &plain,
        ),
    );
    for (start, len) in [
        (0usize, 0usize),
        (0, 1),
        (CHUNK - 1, 2),
        (2 * CHUNK, CHUNK),
        (5 * CHUNK, 100),
    ] {
        let range = format!("{start}:{len}");
        let out = parcrypt(
            &[
                &["decrypt", "--key-file", &k16, "-i", p(&sealed), "--range", &range][..],
                &cob,
            ]
            .concat(),
            b"",
        );
        assert_eq!(
            ok_quietly_in(&range, &out).stdout,
            &plain[start..start + len],
            "{range}"
        );
    }
    let beyond = format!("{}:2", plain.len() - 1);
    let out = parcrypt(
        &[
            &[
                "decrypt",
                "--key-file",
                &k16,
                "-i",
                p(&sealed),
                "--range",
                &beyond,
            ][..],
            &cob,
        ]
        .concat(),
        b"",
    );
    fails_in("range beyond", &out, 1, "beyond the end");
    // Damaged and truncated: exit 1, the output file never appears.
    let good = std::fs::read(&sealed).unwrap();
    let mut bad = good.clone();
    bad[56 + 3 * (CHUNK + 16) + 5] ^= 1;
    let cases: [(&str, Vec<u8>, &str); 4] = [
        ("damaged", bad, "chunk 3 failed authentication"),
        ("truncated", good[..56 + 2 * (CHUNK + 16)].to_vec(), "truncated"),
        ("short", good[..40].to_vec(), "not a chunked-encryption message"),
        (
            "extended",
            [&good[..], &[0u8; 20]].concat(),
            "failed authentication",
        ),
    ];
    for (name, bytes, needle) in cases {
        let input = dir.path().join("in");
        std::fs::write(&input, &bytes).unwrap();
        let out_path = dir.path().join("out");
        let out = parcrypt(
            &[
                &["decrypt", "--key-file", &k16, "-i", p(&input), "-o", p(&out_path)][..],
                &cob,
            ]
            .concat(),
            b"",
        );
        fails_in(name, &out, 1, needle);
        assert!(
            !out_path.exists(),
            "{name}: output left behind: {:?}",
            entries(dir.path())
        );
        let out = parcrypt(&[&["decrypt", "--key-file", &k16][..], &cob].concat(), &bytes);
        fails_in(name, &out, 1, needle);
    }
    // The wrong key, context or scheme: the commitment.
    for (name, args) in [
        ("wrong context", vec!["--context", "other"]),
        ("wrong scheme", vec!["--format", "chunked"]),
    ] {
        let mut all = vec!["decrypt", "--key-file", &k16, "-i", p(&sealed)];
        if name == "wrong context" {
            all.extend_from_slice(&cob);
        }
        all.extend_from_slice(&args);
        fails_in(name, &parcrypt(&all, b""), 1, "key commitment does not match");
    }
    let out = parcrypt(
        &[&["decrypt", "--key-file", &k32, "-i", p(&sealed)][..], &cob].concat(),
        b"",
    );
    fails_in("a 32-byte key for -128", &out, 1, "not a 16-byte key");
    // Usage errors.
    let pass = dir.path().join("pass");
    std::fs::write(&pass, "secret\n").unwrap();
    for (name, args) in [
        (
            "kdf-hash without chunked",
            vec![
                "encrypt",
                "--key-file",
                &k16,
                "--format",
                "cobblestone-128",
                "--kdf-hash",
                "sha256",
            ],
        ),
        (
            "context with stream",
            vec!["encrypt", "--key-file", &k32, "--context", "x"],
        ),
        (
            "passphrase",
            vec![
                "encrypt",
                "--passphrase-file",
                p(&pass),
                "--format",
                "cobblestone-128",
            ],
        ),
        (
            "range from a pipe",
            vec![
                "decrypt",
                "--key-file",
                &k16,
                "--format",
                "cobblestone-128",
                "--range",
                "0:1",
            ],
        ),
    ] {
        usage_in(name, &parcrypt(&args, b""), "");
    }
}

/// The Python that has pyca/cryptography 50 (`cryptography.cobblestone`):
/// `PARCRYPT_PYTHON`, or `python3`.
fn pyca_python() -> Option<String> {
    let python = std::env::var("PARCRYPT_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    let present = std::process::Command::new(&python)
        .args(["-c", "import cryptography.cobblestone"])
        .stdin(std::process::Stdio::null())
        .output()
        .is_ok_and(|o| o.status.success());
    require("python3-cryptography-cobblestone", present).then_some(python)
}

#[test]
fn pyca_reads_the_binarys_files_and_the_binary_reads_pycas() {
    let Some(python) = pyca_python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let script = r#"
import sys
from cryptography import cobblestone as c
mode, key, ctx, src, dst = sys.argv[1], open(sys.argv[2], "rb").read(), sys.argv[3].encode(), sys.argv[4], sys.argv[5]
cls = {("enc", 16): c.Cobblestone128Encryptor, ("enc", 32): c.Cobblestone256Encryptor,
       ("dec", 16): c.Cobblestone128Decryptor, ("dec", 32): c.Cobblestone256Decryptor}[(mode, len(key))]
o = cls(key, ctx)
data = open(src, "rb").read()
open(dst, "wb").write(o.update(data) + o.finalize())
"#;
    for (format, len) in [("cobblestone-128", 16), ("cobblestone-256", 32)] {
        let key = key_file(dir.path(), len);
        for size in [0, CHUNK, 200_000] {
            let case = format!("{format} {size}");
            let plain = dir.path().join("plain");
            std::fs::write(&plain, data(size)).unwrap();
            let ours = dir.path().join("ours");
            let _ = std::fs::remove_file(&ours);
            let args = [
                "encrypt",
                "--format",
                format,
                "--context",
                "ctx",
                "--key-file",
                &key,
                "-i",
                p(&plain),
                "-o",
                p(&ours),
            ];
            ok_quietly_in(&case, &parcrypt(&args, b""));
            // pyca's side: `dec` or `enc` from `src` into `dst`.
            let pyca = |mode: &str, src: &std::path::Path, dst: &std::path::Path| {
                let status = std::process::Command::new(&python)
                    .args(["-c", script, mode, &key, "ctx", p(src), p(dst)])
                    .status()
                    .unwrap();
                assert!(status.success(), "{case}: pyca could not {mode}");
            };
            let back = dir.path().join("back");
            pyca("dec", &ours, &back);
            assert_eq!(std::fs::read(&back).unwrap(), data(size), "{case}");
            let theirs = dir.path().join("theirs");
            pyca("enc", &plain, &theirs);
            let args = [
                "decrypt",
                "--format",
                format,
                "--context",
                "ctx",
                "--key-file",
                &key,
                "-i",
                p(&theirs),
            ];
            assert_eq!(
                ok_quietly_in(&case, &parcrypt(&args, b"")).stdout,
                data(size),
                "{case}"
            );
        }
    }
}
