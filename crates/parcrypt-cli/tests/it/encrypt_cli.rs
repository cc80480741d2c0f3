//! `parcrypt encrypt` / `parcrypt decrypt` run as a binary: round trips
//! through files and pipes for every kind of recipient, atomic output,
//! `--force`, `--range`, and the messages of every failure.

#![allow(clippy::unwrap_used)]

use std::path::PathBuf;

use crate::common::{data, entries, fails, ok, p, parcrypt, stderr};

struct Fixture {
    dir: tempfile::TempDir,
    key: PathBuf,
    hex_key: PathBuf,
    pass: PathBuf,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("key.bin");
    std::fs::write(&key, [7u8; 32]).unwrap();
    let hex_key = dir.path().join("key.hex");
    std::fs::write(&hex_key, format!("{}\n", "07".repeat(32))).unwrap();
    let pass = dir.path().join("pass.txt");
    std::fs::write(&pass, "correct horse\n").unwrap();
    Fixture {
        dir,
        key,
        hex_key,
        pass,
    }
}

const SEG: usize = 4096;

#[test]
fn round_trips_through_files_and_pipes() {
    let f = fixture();
    let d = f.dir.path();
    for len in [0, 1, SEG - 1, SEG, SEG + 1, 300 * 1024] {
        let pt = data(len);
        let input = d.join("in");
        std::fs::write(&input, &pt).unwrap();
        for threads in ["1", "2", "4"] {
            let (sealed, back) = (d.join("s"), d.join("b"));
            let _ = std::fs::remove_file(&sealed);
            let _ = std::fs::remove_file(&back);
            ok(&parcrypt(
                &[
                    "--threads",
                    threads,
                    "encrypt",
                    "--segment-size",
                    "4KiB",
                    "--key-file",
                    p(&f.key),
                    "-i",
                    p(&input),
                    "-o",
                    p(&sealed),
                ],
                b"",
            ));
            ok(&parcrypt(
                &[
                    "--threads",
                    threads,
                    "decrypt",
                    "--key-file",
                    p(&f.hex_key),
                    "-i",
                    p(&sealed),
                    "-o",
                    p(&back),
                ],
                b"",
            ));
            assert!(
                std::fs::read(&back).unwrap() == pt,
                "{len} bytes, {threads} threads"
            );
            // Pipes both ways.
            let piped = parcrypt(
                &[
                    "--threads",
                    threads,
                    "encrypt",
                    "--segment-size",
                    "4KiB",
                    "--key-file",
                    p(&f.key),
                ],
                &pt,
            );
            let out = parcrypt(
                &["--threads", threads, "decrypt", "--key-file", p(&f.key)],
                &ok(&piped).stdout,
            );
            assert!(ok(&out).stdout == pt);
        }
    }
}

#[test]
fn every_recipient_kind_opens_and_wrong_ones_do_not() {
    let f = fixture();
    let d = f.dir.path();
    let (k1, k2) = (d.join("k1.pem"), d.join("k2.pem"));
    let (p1, p2) = (d.join("p1.pem"), d.join("p2.pem"));
    for (k, pk) in [(&k1, &p1), (&k2, &p2)] {
        ok(&parcrypt(&["rsa", "keygen", "--bits", "2048", "-o", p(k)], b""));
        ok(&parcrypt(&["rsa", "pubkey", "-i", p(k), "-o", p(pk)], b""));
    }
    let pt = data(20_000);
    // A key file and RSA keys share a stream; a passphrase stands alone.
    let sealed = ok(&parcrypt(
        &[
            "encrypt",
            "--key-file",
            p(&f.key),
            "--recipient",
            p(&p1),
            "--recipient",
            p(&p2),
        ],
        &pt,
    ))
    .stdout
    .clone();
    let by_pass = ok(&parcrypt(
        &["encrypt", "--passphrase-file", p(&f.pass), "--work-factor", "10"],
        &pt,
    ))
    .stdout
    .clone();
    for (stream, id) in [
        (&sealed, ["--key-file", p(&f.key)]),
        (&by_pass, ["--passphrase-file", p(&f.pass)]),
        (&sealed, ["--identity", p(&k1)]),
        (&sealed, ["--identity", p(&k2)]),
    ] {
        let out = parcrypt(&[&["decrypt"][..], &id].concat(), stream);
        assert!(ok(&out).stdout == pt, "{id:?}");
    }
    let wrong_key = d.join("wrong.bin");
    std::fs::write(&wrong_key, [8u8; 32]).unwrap();
    let wrong_pass = d.join("wrong.txt");
    std::fs::write(&wrong_pass, "incorrect horse\n").unwrap();
    let k3 = d.join("k3.pem");
    ok(&parcrypt(&["rsa", "keygen", "--bits", "2048", "-o", p(&k3)], b""));
    for id in [
        ["--key-file", p(&wrong_key)],
        ["--passphrase-file", p(&wrong_pass)],
        ["--identity", p(&k3)],
    ] {
        fails(
            &parcrypt(&[&["decrypt"][..], &id].concat(), &sealed),
            1,
            "wrong key or passphrase",
        );
    }
    fails(
        &parcrypt(&["decrypt", "--passphrase-file", p(&wrong_pass)], &by_pass),
        1,
        "wrong key or passphrase",
    );
}

#[test]
fn failures_leave_nothing_and_existing_files_alone() {
    let f = fixture();
    let d = f.dir.path();
    let pt = data(10 * SEG + 5);
    let input = d.join("in");
    std::fs::write(&input, &pt).unwrap();
    let sealed = d.join("sealed");
    ok(&parcrypt(
        &[
            "encrypt",
            "--segment-size",
            "4KiB",
            "--key-file",
            p(&f.key),
            "-i",
            p(&input),
            "-o",
            p(&sealed),
        ],
        b"",
    ));
    let bytes = std::fs::read(&sealed).unwrap();
    let header = bytes.len() - (pt.len() + 11 * 16);
    let enc = SEG + 16;
    let mut flipped = bytes.clone();
    flipped[header + 5 * enc + 100] ^= 1;
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (flipped, "segment 5 failed authentication"),
        (bytes[..header + 4 * enc].to_vec(), "truncated"),
        (bytes[..header + 4 * enc + 1000].to_vec(), "truncated"),
        (data(500), "not a parcrypt stream"),
        (Vec::new(), "not a parcrypt stream"),
    ];
    let out = d.join("out");
    for (bad, needle) in &cases {
        let bad_path = d.join("bad");
        std::fs::write(&bad_path, bad).unwrap();
        for through_file in [true, false] {
            let r = if through_file {
                parcrypt(
                    &[
                        "decrypt",
                        "--key-file",
                        p(&f.key),
                        "-i",
                        p(&bad_path),
                        "-o",
                        p(&out),
                    ],
                    b"",
                )
            } else {
                parcrypt(&["decrypt", "--key-file", p(&f.key), "-o", p(&out)], bad)
            };
            fails(&r, 1, needle);
            assert!(stderr(&r).contains("hint: "));
            assert!(!out.exists(), "{needle}: output left behind");
        }
        // An existing output is untouched by a failed --force decryption.
        std::fs::write(&out, b"precious").unwrap();
        fails(
            &parcrypt(
                &[
                    "decrypt",
                    "--force",
                    "--key-file",
                    p(&f.key),
                    "-i",
                    p(&bad_path),
                    "-o",
                    p(&out),
                ],
                b"",
            ),
            1,
            needle,
        );
        assert_eq!(std::fs::read(&out).unwrap(), b"precious");
        std::fs::remove_file(&out).unwrap();
    }
    // Without --force an existing output is refused, both ways.
    std::fs::write(&out, b"precious").unwrap();
    fails(
        &parcrypt(
            &["encrypt", "--key-file", p(&f.key), "-i", p(&input), "-o", p(&out)],
            b"",
        ),
        1,
        "exists",
    );
    fails(
        &parcrypt(
            &[
                "decrypt",
                "--key-file",
                p(&f.key),
                "-i",
                p(&sealed),
                "-o",
                p(&out),
            ],
            b"",
        ),
        1,
        "exists",
    );
    assert_eq!(std::fs::read(&out).unwrap(), b"precious");
    ok(&parcrypt(
        &[
            "decrypt",
            "--force",
            "--key-file",
            p(&f.key),
            "-i",
            p(&sealed),
            "-o",
            p(&out),
        ],
        b"",
    ));
    assert!(std::fs::read(&out).unwrap() == pt);
    let temps: Vec<String> = entries(d).into_iter().filter(|e| e.ends_with(".tmp")).collect();
    assert!(temps.is_empty(), "{temps:?}");
}

#[test]
fn ranges_and_usage_errors() {
    let f = fixture();
    let d = f.dir.path();
    let pt = data(10 * SEG + 123);
    let sealed = d.join("sealed");
    ok(&parcrypt(
        &[
            "encrypt",
            "--segment-size",
            "4KiB",
            "--key-file",
            p(&f.key),
            "-o",
            p(&sealed),
        ],
        &pt,
    ));
    for (start, len) in [
        (0usize, 10usize),
        (SEG - 3, 7),
        (2 * SEG, 3 * SEG + 1),
        (pt.len() - 1, 1),
        (0, pt.len()),
    ] {
        let range = format!("{start}:{len}");
        let out = parcrypt(
            &[
                "decrypt",
                "--key-file",
                p(&f.key),
                "--range",
                &range,
                "-i",
                p(&sealed),
            ],
            b"",
        );
        assert!(ok(&out).stdout[..] == pt[start..start + len], "{range}");
    }
    let past = format!("{}:1", pt.len());
    fails(
        &parcrypt(
            &[
                "decrypt",
                "--key-file",
                p(&f.key),
                "--range",
                &past,
                "-i",
                p(&sealed),
            ],
            b"",
        ),
        1,
        "beyond the end",
    );
    fails(
        &parcrypt(&["decrypt", "--key-file", p(&f.key), "--range", "1:2"], b""),
        2,
        "seekable",
    );
    fails(
        &parcrypt(
            &[
                "decrypt",
                "--key-file",
                p(&f.key),
                "--range",
                "x",
                "-i",
                p(&sealed),
            ],
            b"",
        ),
        2,
        "START:LEN",
    );
    // No recipient, two identities, a key file of the wrong length.
    assert_eq!(parcrypt(&["encrypt"], b"x").status.code(), Some(2));
    assert_eq!(
        parcrypt(
            &[
                "decrypt",
                "--key-file",
                p(&f.key),
                "--passphrase-file",
                p(&f.pass)
            ],
            b"x"
        )
        .status
        .code(),
        Some(2)
    );
    let short = d.join("short.bin");
    std::fs::write(&short, [1u8; 16]).unwrap();
    fails(
        &parcrypt(&["encrypt", "--key-file", p(&short)], b"x"),
        1,
        "not a 32-byte key",
    );
}
