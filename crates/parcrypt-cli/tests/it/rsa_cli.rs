//! `parcrypt rsa` run as a binary, against the `openssl` CLI both ways:
//! keys (pkey -check, pkey -pubout), signatures (dgst, PKCS#1 and PSS),
//! OAEP-SHA-256 (pkeyutl), and bad input that must fail cleanly.

#![allow(clippy::unwrap_used)]

use std::path::PathBuf;
use std::sync::OnceLock;

use crate::common::{
    data, entries, fails, fails_in, ok, ok_in, openssl, p, parcrypt, require_tool, sign_and_verify_batch,
    stderr,
};

/// A directory holding a parcrypt-made 2048-bit key (PKCS#8 PEM) and its public key.
fn keys() -> &'static (tempfile::TempDir, PathBuf, PathBuf) {
    static KEYS: OnceLock<(tempfile::TempDir, PathBuf, PathBuf)> = OnceLock::new();
    KEYS.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let key = dir.path().join("key.pem");
        let public = dir.path().join("pub.pem");
        ok(&parcrypt(
            &["rsa", "keygen", "--bits", "2048", "-o", p(&key)],
            b"",
        ));
        ok(&parcrypt(
            &["rsa", "pubkey", "-i", p(&key), "-o", p(&public)],
            b"",
        ));
        (dir, key, public)
    })
}

#[test]
fn keygen_writes_keys_openssl_accepts_in_every_format() {
    if !require_tool("openssl") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for (args, check) in [
        (
            &["--format", "pkcs8"][..],
            &["pkey", "-check", "-noout", "-in"][..],
        ),
        (&["--format", "pkcs1"], &["rsa", "-check", "-noout", "-in"]),
        (
            &["--format", "pkcs8", "--der"],
            &["pkey", "-inform", "DER", "-check", "-noout", "-in"],
        ),
        (
            &["--format", "pkcs1", "--der"],
            &["rsa", "-inform", "DER", "-check", "-noout", "-in"],
        ),
    ] {
        let key = dir.path().join("k");
        for strategy in ["seq", "static", "steal"] {
            let out = parcrypt(
                &[
                    &[
                        "--strategy",
                        strategy,
                        "rsa",
                        "keygen",
                        "--bits",
                        "2048",
                        // Each run replaces the previous run's key.
                        "--force",
                        "-o",
                        p(&key),
                    ][..],
                    args,
                ]
                .concat(),
                b"",
            );
            ok(&out);
            let check = openssl(&[check, &[p(&key)]].concat());
            ok(&check);
            let text = openssl(&[&["pkey", "-noout", "-text", "-in"][..], &[p(&key)]].concat());
            if !args.contains(&"--der") {
                assert!(String::from_utf8_lossy(&ok(&text).stdout).contains("2048 bit"));
            }
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&key).unwrap().permissions().mode();
            assert_eq!(mode & 0o077, 0, "private key readable by others: {mode:o}");
        }
    }
    // The public key equals what openssl derives, byte for byte.
    let (_, key, public) = keys();
    let theirs = ok(&openssl(&["pkey", "-in", p(key), "-pubout"])).stdout.clone();
    assert_eq!(std::fs::read(public).unwrap(), theirs);
    let pkcs1 = ok(&parcrypt(
        &["rsa", "pubkey", "--format", "pkcs1", "-i", p(key)],
        b"",
    ))
    .stdout
    .clone();
    let theirs = ok(&openssl(&["rsa", "-in", p(key), "-RSAPublicKey_out"]))
        .stdout
        .clone();
    assert_eq!(pkcs1, theirs);
}

#[test]
fn openssl_keys_work_in_parcrypt() {
    if !require_tool("openssl") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("ossl.pem");
    let trad = dir.path().join("trad.pem");
    let der = dir.path().join("key.der");
    // PKCS#8 PEM, then the same key as PKCS#1 ("traditional") PEM and as DER.
    for args in [
        &[
            "genpkey",
            "-algorithm",
            "RSA",
            "-pkeyopt",
            "rsa_keygen_bits:3072",
            "-out",
            p(&key),
        ][..],
        &["rsa", "-in", p(&key), "-traditional", "-out", p(&trad)],
        &["pkey", "-in", p(&key), "-outform", "DER", "-out", p(&der)],
    ] {
        ok_in(&format!("{args:?}"), &openssl(args));
    }
    let theirs = ok(&openssl(&["pkey", "-in", p(&key), "-pubout"])).stdout.clone();
    for k in [&key, &trad, &der] {
        let ours = parcrypt(&["rsa", "pubkey", "-i", p(k)], b"");
        assert_eq!(ok(&ours).stdout, theirs, "{}", k.display());
    }
    // A signature made with the traditional (PKCS#1) key verifies in openssl.
    let msg = dir.path().join("msg");
    std::fs::write(&msg, b"abc").unwrap();
    let sig = dir.path().join("sig");
    ok(&parcrypt(
        &[
            "rsa",
            "sign",
            "--key",
            p(&trad),
            "--scheme",
            "pkcs1",
            "-i",
            p(&msg),
            "-o",
            p(&sig),
        ],
        b"",
    ));
    ok(&openssl(&[
        "dgst",
        "-sha256",
        "-prverify",
        p(&key),
        "-signature",
        p(&sig),
        p(&msg),
    ]));
}

#[test]
fn parcrypt_signatures_verify_in_openssl() {
    if !require_tool("openssl") {
        return;
    }
    let (_, key, public) = keys();
    let dir = tempfile::tempdir().unwrap();
    let msg = dir.path().join("msg");
    std::fs::write(&msg, data(100_000)).unwrap();
    let sig = dir.path().join("sig");
    // (scheme, its options to `rsa sign`, openssl dgst's to verify it)
    let schemes: [(&str, &[&str], &[&str]); 2] = [
        (
            "pss (the default)",
            &[],
            &[
                "-sigopt",
                "rsa_padding_mode:pss",
                "-sigopt",
                "rsa_pss_saltlen:digest",
            ],
        ),
        ("pkcs1", &["--scheme", "pkcs1"], &[]),
    ];
    for hash in ["sha256", "sha384", "sha512"] {
        for threads in ["1", "2"] {
            for (scheme, scheme_args, sigopts) in schemes {
                let case = format!("{scheme} {hash}, {threads} threads");
                let sign = [
                    &["--threads", threads, "rsa", "sign", "--key", p(key)][..],
                    scheme_args,
                    &["--hash", hash, "-i", p(&msg), "-o", p(&sig)],
                ]
                .concat();
                ok_in(&case, &parcrypt(&sign, b""));
                let flag = format!("-{hash}");
                let verify = [
                    &["dgst", &flag, "-verify", p(public)][..],
                    sigopts,
                    &["-signature", p(&sig), p(&msg)],
                ]
                .concat();
                let out = openssl(&verify);
                let said = String::from_utf8_lossy(&ok_in(&case, &out).stdout).into_owned();
                assert!(said.contains("Verified OK"), "{case}: {said}");
            }
        }
    }
}

#[test]
fn openssl_signatures_verify_in_parcrypt() {
    if !require_tool("openssl") {
        return;
    }
    let (_, key, public) = keys();
    let dir = tempfile::tempdir().unwrap();
    let msg = dir.path().join("msg");
    std::fs::write(&msg, data(5000)).unwrap();
    let sig = dir.path().join("sig");
    // openssl's own PSS default salt length, and the digest-length salt.
    for (hash, extra) in [
        ("sha256", &[][..]),
        ("sha384", &["-sigopt", "rsa_padding_mode:pss"][..]),
        (
            "sha256",
            &[
                "-sigopt",
                "rsa_padding_mode:pss",
                "-sigopt",
                "rsa_pss_saltlen:digest",
            ][..],
        ),
        (
            "sha512",
            &[
                "-sigopt",
                "rsa_padding_mode:pss",
                "-sigopt",
                "rsa_pss_saltlen:max",
            ][..],
        ),
    ] {
        let scheme = if extra.is_empty() { "pkcs1" } else { "pss" };
        let flag = format!("-{hash}");
        let args = [
            &["dgst", &flag, "-sign", p(key)][..],
            extra,
            &["-out", p(&sig), p(&msg)],
        ]
        .concat();
        ok(&openssl(&args));
        let verify = [
            "rsa",
            "verify",
            "--pub",
            p(public),
            "--sig",
            p(&sig),
            "--scheme",
            scheme,
            "--hash",
            hash,
        ];
        let case = format!("{scheme} {hash} {extra:?}");
        let by_file = parcrypt(&[&verify[..], &["-i", p(&msg)]].concat(), b"");
        let said = String::from_utf8_lossy(&ok_in(&case, &by_file).stdout).into_owned();
        assert_eq!(said, "Verified OK\n", "{case}");
        // The message through stdin works the same.
        ok_in(&case, &parcrypt(&verify, &data(5000)));
        // A changed message or the wrong scheme fails with exit 1.
        let changed = parcrypt(&verify, &data(5001));
        fails_in(&case, &changed, 1, "signature verification failed");
    }
}

#[test]
fn oaep_interoperates_with_pkeyutl_both_ways() {
    if !require_tool("openssl") {
        return;
    }
    let (_, key, public) = keys();
    let dir = tempfile::tempdir().unwrap();
    let (msg, ct, back) = (dir.path().join("m"), dir.path().join("c"), dir.path().join("b"));
    let oaep = [
        "-pkeyopt",
        "rsa_padding_mode:oaep",
        "-pkeyopt",
        "rsa_oaep_md:sha256",
        "-pkeyopt",
        "rsa_mgf1_md:sha256",
    ];
    for len in [0, 1, 100, 190] {
        std::fs::write(&msg, data(len)).unwrap();
        // openssl → parcrypt
        let args = [
            &[
                "pkeyutl",
                "-encrypt",
                "-pubin",
                "-inkey",
                p(public),
                "-in",
                p(&msg),
                "-out",
                p(&ct),
            ][..],
            &oaep,
        ]
        .concat();
        ok(&openssl(&args));
        ok(&parcrypt(
            &["rsa", "decrypt", "--key", p(key), "-i", p(&ct), "-o", p(&back)],
            b"",
        ));
        assert_eq!(std::fs::read(&back).unwrap(), data(len));
        // parcrypt → openssl
        ok(&parcrypt(
            &[
                "rsa",
                "encrypt",
                "--pub",
                p(public),
                "--single-block",
                "-i",
                p(&msg),
                "-o",
                p(&ct),
            ],
            b"",
        ));
        assert_eq!(std::fs::metadata(&ct).unwrap().len(), 256);
        let args = [
            &["pkeyutl", "-decrypt", "-inkey", p(key), "-in", p(&ct)][..],
            &oaep,
        ]
        .concat();
        assert_eq!(ok(&openssl(&args)).stdout, data(len));
    }
}

#[test]
fn bulk_encryption_round_trips_at_the_block_edges() {
    let (_, key, public) = keys();
    let k = 256;
    for len in [0, 1, k - 66, k - 65, k - 64, 10_000] {
        let ct = parcrypt(&["rsa", "encrypt", "--pub", p(public)], &data(len));
        let ct = ok(&ct).stdout.clone();
        assert_eq!(ct.len(), len.div_ceil(k - 66).max(1) * k, "{len}");
        let note = stderr(&parcrypt(&["rsa", "encrypt", "--pub", p(public)], &data(len)));
        assert_eq!(note.contains("independent blocks"), len > k - 66, "{note}");
        for threads in ["1", "2", "4"] {
            let back = parcrypt(&["--threads", threads, "rsa", "decrypt", "--key", p(key)], &ct);
            assert_eq!(ok(&back).stdout, data(len), "{len} bytes, {threads} threads");
        }
    }
}

#[test]
fn bad_input_fails_cleanly_and_leaves_nothing_behind() {
    let (_, key, public) = keys();
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, bytes: &[u8]| {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    };
    let msg = write("msg", b"hello");
    let out = dir.path().join("out");
    let ct = ok(&parcrypt(&["rsa", "encrypt", "--pub", p(public)], &data(600)))
        .stdout
        .clone();

    // Truncated or modified ciphertext.
    for bad in [&ct[..ct.len() - 1], &ct[..256], &[][..]] {
        let bad = write("bad", bad);
        let r = parcrypt(
            &["rsa", "decrypt", "--key", p(key), "-i", p(&bad), "-o", p(&out)],
            b"",
        );
        if bad.metadata().unwrap().len() == 256 {
            // One block alone decrypts (blocks are independent: a documented limit of bulk mode)...
            ok(&r);
            std::fs::remove_file(&out).unwrap();
        } else {
            fails(&r, 1, "decryption failed");
        }
    }
    let mut flipped = ct.clone();
    flipped[300] ^= 1;
    let bad = write("flipped", &flipped);
    fails(
        &parcrypt(
            &["rsa", "decrypt", "--key", p(key), "-i", p(&bad), "-o", p(&out)],
            b"",
        ),
        1,
        "decryption failed",
    );

    // A message over one block with --single-block.
    let big = write("big", &data(191));
    fails(
        &parcrypt(
            &[
                "rsa",
                "encrypt",
                "--single-block",
                "--pub",
                p(public),
                "-i",
                p(&big),
                "-o",
                p(&out),
            ],
            b"",
        ),
        2,
        "too long",
    );

    // Keys: malformed PEM, encrypted, EC, public where private is needed, missing.
    let pem = std::fs::read_to_string(key).unwrap();
    let malformed = write("malformed.pem", pem.replace('M', "!").as_bytes());
    let truncated = write("truncated.pem", &pem.as_bytes()[..pem.len() / 2]);
    let garbage = write("garbage.der", &data(300));
    for (k, needle) in [
        (&malformed, "malformed key"),
        (&truncated, "malformed key"),
        (&garbage, "malformed key"),
        (public, "public key where a private key is needed"),
        (&dir.path().join("missing.pem"), "cannot open key file"),
    ] {
        for cmd in ["sign", "decrypt"] {
            let args = ["rsa", cmd, "--key", p(k), "-i", p(&msg), "-o", p(&out)];
            fails_in(&format!("{args:?}"), &parcrypt(&args, b""), 1, needle);
        }
    }
    if require_tool("openssl") {
        let encrypted = dir.path().join("enc.pem");
        let ec = dir.path().join("ec.pem");
        let ec_pub = dir.path().join("ecpub.pem");
        for args in [
            &[
                "pkey",
                "-in",
                p(key),
                "-aes256",
                "-passout",
                "pass:x",
                "-out",
                p(&encrypted),
            ][..],
            &[
                "genpkey",
                "-algorithm",
                "EC",
                "-pkeyopt",
                "ec_paramgen_curve:P-256",
                "-out",
                p(&ec),
            ],
            &["pkey", "-in", p(&ec), "-pubout", "-out", p(&ec_pub)],
        ] {
            ok_in(&format!("{args:?}"), &openssl(args));
        }
        for (args, needle) in [
            (["rsa", "sign", "--key", p(&encrypted)], "encrypted"),
            (["rsa", "sign", "--key", p(&ec)], "not an RSA key"),
            (["rsa", "encrypt", "--pub", p(&ec_pub)], "not an RSA key"),
        ] {
            let args = [&args[..], &["-i", p(&msg), "-o", p(&out)]].concat();
            fails_in(&format!("{args:?}"), &parcrypt(&args, b""), 1, needle);
        }
    }

    // A modified signature, and a signature of the wrong length.
    let sig = write(
        "sig",
        &ok(&parcrypt(&["rsa", "sign", "--key", p(key), "-i", p(&msg)], b"")).stdout,
    );
    let mut bad_sig = std::fs::read(&sig).unwrap();
    bad_sig[0] ^= 0x80;
    let bad_sig = write("badsig", &bad_sig);
    let short_sig = write("shortsig", &std::fs::read(&sig).unwrap()[1..]);
    for (case, s) in [("modified", &bad_sig), ("one byte short", &short_sig)] {
        fails_in(
            case,
            &parcrypt(
                &["rsa", "verify", "--pub", p(public), "--sig", p(s), "-i", p(&msg)],
                b"",
            ),
            1,
            "verification failed",
        );
    }
    ok(&parcrypt(
        &[
            "rsa",
            "verify",
            "--pub",
            p(public),
            "--sig",
            p(&sig),
            "-i",
            p(&msg),
        ],
        b"",
    ));

    // Key sizes keygen does not make.
    for bits in ["1000", "512", "20000"] {
        fails_in(
            bits,
            &parcrypt(&["rsa", "keygen", "--bits", bits, "-o", p(&out)], b""),
            2,
            "cannot generate",
        );
    }

    // Nothing was written: no output, no temporary file.
    let left: Vec<String> = entries(dir.path())
        .into_iter()
        .filter(|e| e == "out" || e.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// `sign-batch`/`verify-batch`, the family's batch commands, with RSA's
/// options; a batch signature is openssl's too.
#[test]
fn sign_batch_and_verify_batch() {
    let (_, key, public) = keys();
    let dir = tempfile::tempdir().unwrap();
    let own_key = dir.path().join("key.pem");
    std::fs::copy(key, &own_key).unwrap();
    let options = ["--scheme", "pkcs1", "--hash", "sha384"];
    sign_and_verify_batch("rsa", (&own_key, public), (12, 300), &options, &["1", "2"]);
    if require_tool("openssl") {
        let d = |n: &str| dir.path().join(n);
        ok(&openssl(&[
            "dgst",
            "-sha384",
            "-verify",
            p(public),
            "-signature",
            p(&d("s3")),
            p(&d("m3")),
        ]));
    }
}
