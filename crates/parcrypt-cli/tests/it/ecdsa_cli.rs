//! `parcrypt ecdsa` run as a binary, against the `openssl` CLI both ways,
//! `verify-batch` on lists, and bad input that must fail cleanly.

#![allow(clippy::unwrap_used)]

use std::path::PathBuf;

use crate::common::{data, entries, fails, fails_in, ok, ok_in, openssl, p, parcrypt, require_tool, stderr};

struct Keys {
    dir: tempfile::TempDir,
    key: PathBuf,
    public: PathBuf,
}

fn keys() -> Keys {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("key.pem");
    let public = dir.path().join("pub.pem");
    ok(&parcrypt(&["ecdsa", "keygen", "-o", p(&key)], b""));
    ok(&parcrypt(
        &["ecdsa", "pubkey", "-i", p(&key), "-o", p(&public)],
        b"",
    ));
    Keys { dir, key, public }
}

#[test]
fn keys_interoperate_with_openssl_both_ways() {
    if !require_tool("openssl") {
        return;
    }
    let k = keys();
    let dir = k.dir.path();
    ok(&openssl(&["pkey", "-in", p(&k.key), "-check", "-noout"]));
    let theirs = ok(&openssl(&["pkey", "-in", p(&k.key), "-pubout"]))
        .stdout
        .clone();
    assert_eq!(std::fs::read(&k.public).unwrap(), theirs);
    // SEC1 and DER forms.
    for (args, check) in [
        (&["--format", "sec1"][..], &["ec", "-check", "-noout", "-in"][..]),
        (&["--der"], &["pkey", "-inform", "DER", "-check", "-noout", "-in"]),
        (
            &["--format", "sec1", "--der"],
            &["ec", "-inform", "DER", "-check", "-noout", "-in"],
        ),
    ] {
        let key = dir.join("k");
        // --force: each form replaces the previous one's key.
        ok(&parcrypt(
            &[&["ecdsa", "keygen", "--force", "-o", p(&key)][..], args].concat(),
            b"",
        ));
        ok(&openssl(&[check, &[p(&key)]].concat()));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(std::fs::metadata(&key).unwrap().permissions().mode() & 0o077, 0);
        }
    }
    // openssl's keys: genpkey (PKCS#8), ecparam -genkey (SEC1 with a parameters block), DER.
    let (pk8, sec1, der) = (dir.join("o8.pem"), dir.join("sec1.pem"), dir.join("o.der"));
    for args in [
        &[
            "genpkey",
            "-algorithm",
            "EC",
            "-pkeyopt",
            "ec_paramgen_curve:P-256",
            "-out",
            p(&pk8),
        ][..],
        &["ecparam", "-name", "prime256v1", "-genkey", "-out", p(&sec1)],
        &["pkey", "-in", p(&pk8), "-outform", "DER", "-out", p(&der)],
    ] {
        ok_in(&format!("{args:?}"), &openssl(args));
    }
    for key in [&pk8, &sec1, &der] {
        let ours = parcrypt(&["ecdsa", "pubkey", "-i", p(key)], b"");
        let inform: &[&str] = if key == &der { &["-inform", "DER"] } else { &[] };
        let theirs = openssl(&[&["pkey", "-in", p(key), "-pubout"][..], inform].concat());
        assert_eq!(ok(&ours).stdout, ok(&theirs).stdout, "{}", key.display());
    }
}

#[test]
fn signatures_interoperate_with_openssl_both_ways() {
    if !require_tool("openssl") {
        return;
    }
    let k = keys();
    let dir = k.dir.path();
    let msg = dir.join("msg");
    let sig = dir.join("sig");
    for len in [0, 1, 1000, 1 << 20] {
        std::fs::write(&msg, data(len)).unwrap();
        // parcrypt → openssl
        ok(&parcrypt(
            &["ecdsa", "sign", "--key", p(&k.key), "-i", p(&msg), "-o", p(&sig)],
            b"",
        ));
        let out = openssl(&[
            "dgst",
            "-sha256",
            "-verify",
            p(&k.public),
            "-signature",
            p(&sig),
            p(&msg),
        ]);
        assert!(String::from_utf8_lossy(&ok(&out).stdout).contains("Verified OK"));
        // openssl → parcrypt, every method, file and stdin
        ok(&openssl(&[
            "dgst",
            "-sha256",
            "-sign",
            p(&k.key),
            "-out",
            p(&sig),
            p(&msg),
        ]));
        for method in ["auto", "joint", "split", "separate"] {
            let out = parcrypt(
                &[
                    "ecdsa",
                    "verify",
                    "--pub",
                    p(&k.public),
                    "--sig",
                    p(&sig),
                    "--method",
                    method,
                    "-i",
                    p(&msg),
                ],
                b"",
            );
            assert_eq!(String::from_utf8_lossy(&ok(&out).stdout), "Verified OK\n");
        }
        ok(&parcrypt(
            &["ecdsa", "verify", "--pub", p(&k.public), "--sig", p(&sig)],
            &data(len),
        ));
        fails(
            &parcrypt(
                &["ecdsa", "verify", "--pub", p(&k.public), "--sig", p(&sig)],
                &data(len + 1),
            ),
            1,
            "verification failed",
        );
    }
    // The fixed-width form round-trips and is 64 bytes.
    ok(&parcrypt(
        &[
            "ecdsa",
            "sign",
            "--sig-format",
            "fixed",
            "--key",
            p(&k.key),
            "-i",
            p(&msg),
            "-o",
            p(&sig),
        ],
        b"",
    ));
    assert_eq!(std::fs::metadata(&sig).unwrap().len(), 64);
    ok(&parcrypt(
        &[
            "ecdsa",
            "verify",
            "--sig-format",
            "fixed",
            "--pub",
            p(&k.public),
            "--sig",
            p(&sig),
            "-i",
            p(&msg),
        ],
        b"",
    ));
}

#[test]
fn verify_batch_prints_one_line_per_entry_and_fails_if_any_fails() {
    let k = keys();
    let dir = k.dir.path();
    let mut list = String::from("# message signature\n\n");
    let mut expected = Vec::new();
    for i in 0..40 {
        let msg = dir.join(format!("m{i}"));
        let sig = dir.join(format!("s{i}"));
        std::fs::write(&msg, format!("message {i}")).unwrap();
        ok(&parcrypt(
            &["ecdsa", "sign", "--key", p(&k.key), "-i", p(&msg), "-o", p(&sig)],
            b"",
        ));
        if i % 7 == 3 {
            std::fs::write(&msg, format!("changed {i}")).unwrap();
        }
        list.push_str(&format!("{} {}\n", p(&msg), p(&sig)));
        expected.push(format!(
            "{} {}: {}",
            p(&msg),
            p(&sig),
            if i % 7 == 3 { "FAIL" } else { "OK" }
        ));
    }
    let list_path = dir.join("list");
    std::fs::write(&list_path, &list).unwrap();
    for threads in ["1", "2", "4"] {
        let out = parcrypt(
            &[
                "--threads",
                threads,
                "ecdsa",
                "verify-batch",
                "--pub",
                p(&k.public),
                "--list",
                p(&list_path),
            ],
            b"",
        );
        assert_eq!(
            String::from_utf8_lossy(&out.stdout).lines().collect::<Vec<_>>(),
            expected
        );
        fails(&out, 1, "6 of 40 signatures did not verify");
    }
    // All good, through stdin: exit 0.
    let good: String = list
        .lines()
        .filter(|l| {
            !l.contains("m3 ")
                && !l.contains("m10 ")
                && !l.contains("m17 ")
                && !l.contains("m24 ")
                && !l.contains("m31 ")
                && !l.contains("m38 ")
        })
        .map(|l| format!("{l}\n"))
        .collect();
    let out = parcrypt(
        &["ecdsa", "verify-batch", "--pub", p(&k.public), "--list", "-"],
        good.as_bytes(),
    );
    ok(&out);
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 34);
    // Missing files and malformed lines are FAIL lines with a reason, not crashes.
    let bad_list = format!(
        "{} {}\nonly-one-field\n{} {}\n",
        p(&dir.join("nope")),
        p(&dir.join("s0")),
        p(&dir.join("m0")),
        p(&dir.join("m0"))
    );
    let out = parcrypt(
        &["ecdsa", "verify-batch", "--pub", p(&k.public), "--list", "-"],
        bad_list.as_bytes(),
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter(|l| l.ends_with(": FAIL"))
            .count(),
        3
    );
    fails(&out, 1, "cannot read message");
    assert!(stderr(&out).contains("expected `MSGFILE SIGFILE`"));
    assert!(stderr(&out).contains("is not a DER signature"));
    // An empty list is an error.
    fails(
        &parcrypt(
            &["ecdsa", "verify-batch", "--pub", p(&k.public), "--list", "-"],
            b"# nothing\n",
        ),
        1,
        "no entries",
    );
}

#[test]
fn bad_input_fails_cleanly_and_leaves_nothing_behind() {
    let k = keys();
    let dir = k.dir.path();
    let write = |name: &str, bytes: &[u8]| {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    };
    let msg = write("msg", b"hello");
    let out = dir.join("out");
    let sig = write(
        "sig",
        &ok(&parcrypt(
            &["ecdsa", "sign", "--key", p(&k.key), "-i", p(&msg)],
            b"",
        ))
        .stdout,
    );
    let der = std::fs::read(&sig).unwrap();
    let mut flipped = der.clone();
    flipped[0] = 0x31;
    // r or s out of range in the fixed form: parses, never verifies.
    let n = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551";
    let r_s_n = hex::decode(format!("{n}{n}")).unwrap();
    // (name, options to `ecdsa verify`, the signature, wanted on stderr)
    let sigs: [(&str, &[&str], Vec<u8>, &str); 5] = [
        ("malformed DER", &[], flipped, "malformed signature"),
        (
            "truncated",
            &[],
            der[..der.len() - 1].to_vec(),
            "malformed signature",
        ),
        (
            "trailing junk",
            &[],
            [&der[..], &[0u8][..]].concat(),
            "malformed signature",
        ),
        (
            "a fixed-width signature read as DER",
            &[],
            vec![7u8; 64],
            "malformed signature",
        ),
        (
            "r = s = n, fixed",
            &["--sig-format", "fixed"],
            r_s_n,
            "verification failed",
        ),
    ];
    for (case, options, bad, needle) in sigs {
        let s = write("bad", &bad);
        let args = [
            &["ecdsa", "verify"][..],
            options,
            &["--pub", p(&k.public), "--sig", p(&s), "-i", p(&msg)],
        ]
        .concat();
        fails_in(case, &parcrypt(&args, b""), 1, needle);
    }
    // Keys: garbage, a public key to sign with, missing, and (with openssl) other curves and RSA.
    let garbage = write(
        "garbage.pem",
        b"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
    );
    let missing = dir.join("missing.pem");
    let (msg, out) = (p(&msg), p(&out));
    for (case, key, needle) in [
        ("garbage", p(&garbage), "malformed key"),
        (
            "public key",
            p(&k.public),
            "public key where a private key is needed",
        ),
        ("missing", p(&missing), "cannot open key file"),
    ] {
        let args = ["ecdsa", "sign", "--key", key, "-i", msg, "-o", out];
        fails_in(case, &parcrypt(&args, b""), 1, needle);
    }
    if require_tool("openssl") {
        let p384 = dir.join("p384.pem");
        let rsa = dir.join("rsa.pem");
        for (key, algorithm, option) in [
            (&p384, "EC", "ec_paramgen_curve:P-384"),
            (&rsa, "RSA", "rsa_keygen_bits:1024"),
        ] {
            let args = [
                "genpkey",
                "-algorithm",
                algorithm,
                "-pkeyopt",
                option,
                "-out",
                p(key),
            ];
            ok_in(option, &openssl(&args));
        }
        for (case, args, needle) in [
            (
                "P-384 key",
                ["ecdsa", "sign", "--key", p(&p384), "-i", msg, "-o", out],
                "another curve",
            ),
            (
                "RSA key",
                ["ecdsa", "sign", "--key", p(&rsa), "-i", msg, "-o", out],
                "RSA key",
            ),
            (
                "RSA public key",
                ["ecdsa", "verify", "--pub", p(&rsa), "--sig", p(&sig), "-i", msg],
                "RSA key",
            ),
        ] {
            fails_in(case, &parcrypt(&args, b""), 1, needle);
        }
    }
    let left: Vec<String> = entries(dir)
        .into_iter()
        .filter(|e| e == "out" || e.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}
