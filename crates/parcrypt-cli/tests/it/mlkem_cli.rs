//! `parcrypt ml-kem` run as a binary: keys, encap and decap for every
//! parameter set, password-protected keys, OpenSSL 3.5 (through Node.js
//! 26) both ways, and bad input that must fail cleanly, leaving no secret.

#![allow(clippy::unwrap_used)]

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use crate::common::{fails, node_script, ok, p, parcrypt, usage};

const PARAMS: [&str; 3] = ["ML-KEM-512", "ML-KEM-768", "ML-KEM-1024"];

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[test]
fn keygen_pubkey_encap_decap_round_trip_for_every_parameter_set() {
    let dir = tempfile::tempdir().unwrap();
    let d = |name: &str| dir.path().join(name);
    for (params, ct_len) in PARAMS.into_iter().zip([768, 1088, 1568]) {
        for der in [false, true] {
            let der_flag: &[&str] = if der { &["--der"] } else { &[] };
            let (key, public, ct, ss, back) = (d("key"), d("pub"), d("ct"), d("ss"), d("back"));
            ok(&parcrypt(
                &[
                    &["ml-kem", "keygen", "--params", params, "--force", "-o", p(&key)][..],
                    der_flag,
                ]
                .concat(),
                b"",
            ));
            assert_eq!(mode(&key) & 0o077, 0, "{params}: the key is private");
            let text = std::fs::read(&key).unwrap();
            assert_eq!(text.starts_with(b"-----BEGIN PRIVATE KEY-----"), !der, "{params}");
            ok(&parcrypt(
                &[
                    &["ml-kem", "pubkey", "-i", p(&key), "-o", p(&public)][..],
                    der_flag,
                ]
                .concat(),
                b"",
            ));
            ok(&parcrypt(
                &[
                    "ml-kem",
                    "encap",
                    "--pub",
                    p(&public),
                    "-o",
                    p(&ct),
                    "--secret",
                    p(&ss),
                ],
                b"",
            ));
            assert_eq!(std::fs::read(&ct).unwrap().len(), ct_len, "{params}");
            assert_eq!(std::fs::read(&ss).unwrap().len(), 32, "{params}");
            assert_eq!(mode(&ss) & 0o077, 0, "{params}: the secret is private");
            // The ciphertext from standard input, as from -i.
            let ciphertext = std::fs::read(&ct).unwrap();
            ok(&parcrypt(
                &["ml-kem", "decap", "--key", p(&key), "--secret", p(&back)],
                &ciphertext,
            ));
            assert_eq!(
                std::fs::read(&back).unwrap(),
                std::fs::read(&ss).unwrap(),
                "{params}"
            );
            // Implicit rejection: a changed ciphertext decapsulates (exit
            // 0) to another secret.
            let mut changed = ciphertext.clone();
            changed[5] ^= 0x40;
            std::fs::write(&ct, &changed).unwrap();
            ok(&parcrypt(
                &[
                    "ml-kem",
                    "decap",
                    "--key",
                    p(&key),
                    "-i",
                    p(&ct),
                    "--secret",
                    p(&back),
                ],
                b"",
            ));
            assert_ne!(
                std::fs::read(&back).unwrap(),
                std::fs::read(&ss).unwrap(),
                "{params}"
            );
            // The ciphertext on standard output when -o is not given;
            // the secret is never printed.
            let out = ok(&parcrypt(
                &["ml-kem", "encap", "--pub", p(&public), "--secret", p(&ss)],
                b"",
            ))
            .clone();
            assert_eq!(out.stdout.len(), ct_len);
            assert!(out.stderr.is_empty());
        }
    }
}

#[test]
fn a_password_protected_key_is_written_and_read() {
    let dir = tempfile::tempdir().unwrap();
    let (key, public, ct, ss, back) = (
        dir.path().join("key.pem"),
        dir.path().join("pub.pem"),
        dir.path().join("ct"),
        dir.path().join("ss"),
        dir.path().join("back"),
    );
    ok(&parcrypt(
        &["ml-kem", "keygen", "--passout", "pass:hunter2", "-o", p(&key)],
        b"",
    ));
    assert!(
        std::fs::read(&key)
            .unwrap()
            .starts_with(b"-----BEGIN ENCRYPTED PRIVATE KEY-----")
    );
    fails(
        &parcrypt(&["ml-kem", "pubkey", "-i", p(&key), "-o", p(&public)], b""),
        1,
        "encrypted",
    );
    ok(&parcrypt(
        &[
            "ml-kem",
            "pubkey",
            "--passin",
            "pass:hunter2",
            "-i",
            p(&key),
            "-o",
            p(&public),
        ],
        b"",
    ));
    ok(&parcrypt(
        &[
            "ml-kem",
            "encap",
            "--pub",
            p(&public),
            "-o",
            p(&ct),
            "--secret",
            p(&ss),
        ],
        b"",
    ));
    fails(
        &parcrypt(
            &[
                "ml-kem",
                "decap",
                "--key",
                p(&key),
                "--passin",
                "pass:wrong",
                "-i",
                p(&ct),
                "--secret",
                p(&back),
            ],
            b"",
        ),
        1,
        "bad decrypt",
    );
    assert!(!back.exists(), "a refused decapsulation leaves no secret");
    ok(&parcrypt(
        &[
            "ml-kem",
            "decap",
            "--key",
            p(&key),
            "--passin",
            "pass:hunter2",
            "-i",
            p(&ct),
            "--secret",
            p(&back),
        ],
        b"",
    ));
    assert_eq!(std::fs::read(&back).unwrap(), std::fs::read(&ss).unwrap());
}

#[test]
fn bad_input_fails_cleanly_and_leaves_no_secret() {
    let dir = tempfile::tempdir().unwrap();
    let d = |name: &str| dir.path().join(name);
    let (key, public, ct, ss) = (d("key.pem"), d("pub.pem"), d("ct"), d("ss"));
    ok(&parcrypt(&["ml-kem", "keygen", "-o", p(&key)], b""));
    ok(&parcrypt(
        &["ml-kem", "pubkey", "-i", p(&key), "-o", p(&public)],
        b"",
    ));
    ok(&parcrypt(
        &[
            "ml-kem",
            "encap",
            "--pub",
            p(&public),
            "-o",
            p(&ct),
            "--secret",
            p(&ss),
        ],
        b"",
    ));
    let ciphertext = std::fs::read(&ct).unwrap();
    let decap = |ct: &[u8], secret: &Path| {
        std::fs::write(d("bad-ct"), ct).unwrap();
        parcrypt(
            &[
                "ml-kem",
                "decap",
                "--key",
                p(&key),
                "-i",
                p(&d("bad-ct")),
                "--secret",
                p(secret),
            ],
            b"",
        )
    };
    // Ciphertexts of the wrong length: truncated, extended, empty, an
    // ML-KEM-1024 one for this ML-KEM-768 key. No secret file appears,
    // and one that was there is kept as it was.
    let kept = d("kept");
    std::fs::write(&kept, b"before").unwrap();
    for bad in [
        &ciphertext[..1087],
        &[&ciphertext[..], &[0]].concat(),
        &[],
        &[0; 1568],
    ] {
        let fresh = d("fresh");
        fails(&decap(bad, &fresh), 1, "ML-KEM-768 ciphertext is 1088 bytes");
        assert!(!fresh.exists());
        fails(&decap(bad, &kept), 1, "ciphertext");
        assert_eq!(std::fs::read(&kept).unwrap(), b"before");
    }
    // Keys: truncated, extended, the public key where the private one is
    // needed, another algorithm's key, not a key.
    let text = std::fs::read(&key).unwrap();
    let der_key = d("key.der");
    ok(&parcrypt(&["ml-kem", "keygen", "--der", "-o", p(&der_key)], b""));
    let der = std::fs::read(&der_key).unwrap();
    let ec = format!(
        "{}/../parcrypt/tests/data/pkcs8/ec-plain.pem",
        env!("CARGO_MANIFEST_DIR")
    );
    for (bad, needle) in [
        (text[..text.len() / 2].to_vec(), "PEM"),
        (der[..der.len() - 1].to_vec(), "malformed"),
        ([&der[..], &[0]].concat(), "malformed"),
        (
            std::fs::read(&public).unwrap(),
            "a public key where a private key is needed",
        ),
        (std::fs::read(&ec).unwrap(), "EC key"),
        (b"not a key".to_vec(), "malformed"),
    ] {
        std::fs::write(d("bad-key"), &bad).unwrap();
        let fresh = d("fresh");
        let out = parcrypt(
            &[
                "ml-kem",
                "decap",
                "--key",
                p(&d("bad-key")),
                "-i",
                p(&ct),
                "--secret",
                p(&fresh),
            ],
            b"",
        );
        fails(&out, 1, needle);
        assert!(!fresh.exists());
        let out = parcrypt(
            &[
                "ml-kem",
                "encap",
                "--pub",
                p(&d("bad-key")),
                "-o",
                p(&d("ct2")),
                "--secret",
                p(&fresh),
            ],
            b"",
        );
        if needle == "a public key where a private key is needed" {
            // A public key is what encap wants.
            ok(&out);
            std::fs::remove_file(&fresh).unwrap();
            std::fs::remove_file(d("ct2")).unwrap();
        } else {
            assert_eq!(out.status.code(), Some(1), "{needle}");
            assert!(!fresh.exists() && !d("ct2").exists());
        }
    }
    // A public key with a coefficient ≥ q (FIPS 203's modulus check).
    ok(&parcrypt(
        &["ml-kem", "pubkey", "--der", "-i", p(&key), "-o", p(&d("pub.der"))],
        b"",
    ));
    let mut spki = std::fs::read(d("pub.der")).unwrap();
    let at = spki.len() - 1184;
    spki[at] = 0xff;
    spki[at + 1] |= 0x0f;
    std::fs::write(d("bad.der"), &spki).unwrap();
    fails(
        &parcrypt(
            &[
                "ml-kem",
                "encap",
                "--pub",
                p(&d("bad.der")),
                "-o",
                p(&d("ct3")),
                "--secret",
                p(&d("s3")),
            ],
            b"",
        ),
        1,
        "invalid ML-KEM key",
    );
    // The secret is never written to standard output; a bad name is a
    // usage error.
    usage(
        &parcrypt(
            &[
                "ml-kem",
                "encap",
                "--pub",
                p(&public),
                "-o",
                p(&d("ct4")),
                "--secret",
                "-",
            ],
            b"",
        ),
        "not written to standard output",
    );
    usage(
        &parcrypt(&["ml-kem", "keygen", "--params", "ML-KEM-769"], b""),
        "ML-KEM-769",
    );
    usage(
        &parcrypt(&["ml-kem", "decap", "--key", p(&key), "-i", p(&ct)], b""),
        "--secret",
    );
}

/// OpenSSL's side (Node.js `crypto`): `gen DIR ALG` writes a key pair;
/// `encap DIR` encapsulates to DIR/pub.pem; `decap DIR` decapsulates
/// DIR/ct with DIR/key.pem; `pem DIR` writes our key back.
const NODE: &str = r#"
const c = require('crypto'), fs = require('fs');
const [mode, dir, alg] = process.argv.slice(1);
if (mode === 'gen') {
  const pair = c.generateKeyPairSync(alg);
  fs.writeFileSync(dir + '/key.pem', pair.privateKey.export({ type: 'pkcs8', format: 'pem' }));
  fs.writeFileSync(dir + '/pub.pem', pair.publicKey.export({ type: 'spki', format: 'pem' }));
} else if (mode === 'encap') {
  const e = c.encapsulate(c.createPublicKey(fs.readFileSync(dir + '/pub.pem')));
  fs.writeFileSync(dir + '/ct', e.ciphertext);
  fs.writeFileSync(dir + '/ss', e.sharedKey);
} else if (mode === 'decap') {
  const key = c.createPrivateKey(fs.readFileSync(dir + '/key.pem'));
  fs.writeFileSync(dir + '/ss', c.decapsulate(key, fs.readFileSync(dir + '/ct')));
} else {
  const key = c.createPrivateKey(fs.readFileSync(dir + '/key.pem'));
  fs.writeFileSync(dir + '/again.pem', key.export({ type: 'pkcs8', format: 'pem' }));
}
"#;

#[test]
fn openssl_35_and_parcrypt_encapsulate_for_each_other() {
    let Some(bin) = crate::tools::node_openssl35() else {
        return;
    };
    for params in PARAMS {
        let alg = params.to_ascii_lowercase();
        // Our key, OpenSSL's encapsulation, our decapsulation.
        let ours = tempfile::tempdir().unwrap();
        let o = |name: &str| ours.path().join(name);
        ok(&parcrypt(
            &["ml-kem", "keygen", "--params", params, "-o", p(&o("key.pem"))],
            b"",
        ));
        ok(&parcrypt(
            &["ml-kem", "pubkey", "-i", p(&o("key.pem")), "-o", p(&o("pub.pem"))],
            b"",
        ));
        node_script(&bin, NODE, &["encap", p(ours.path())]);
        ok(&parcrypt(
            &[
                "ml-kem",
                "decap",
                "--key",
                p(&o("key.pem")),
                "-i",
                p(&o("ct")),
                "--secret",
                p(&o("mine")),
            ],
            b"",
        ));
        assert_eq!(
            std::fs::read(o("mine")).unwrap(),
            std::fs::read(o("ss")).unwrap(),
            "{params}"
        );
        // OpenSSL writes our key back byte for byte (the seed form).
        node_script(&bin, NODE, &["pem", p(ours.path())]);
        assert_eq!(
            std::fs::read(o("again.pem")).unwrap(),
            std::fs::read(o("key.pem")).unwrap()
        );
        // OpenSSL's key, our encapsulation (to its public key, and to the
        // public half of its private key), its decapsulation.
        let theirs = tempfile::tempdir().unwrap();
        let t = |name: &str| theirs.path().join(name);
        node_script(&bin, NODE, &["gen", p(theirs.path()), &alg]);
        for public in [t("pub.pem"), t("key.pem")] {
            ok(&parcrypt(
                &[
                    "ml-kem",
                    "encap",
                    "--pub",
                    p(&public),
                    "-o",
                    p(&t("ct")),
                    "--secret",
                    p(&t("mine")),
                ],
                b"",
            ));
            node_script(&bin, NODE, &["decap", p(theirs.path())]);
            assert_eq!(
                std::fs::read(t("mine")).unwrap(),
                std::fs::read(t("ss")).unwrap(),
                "{params}"
            );
        }
        // Our pubkey of its key is its SPKI, byte for byte.
        ok(&parcrypt(
            &[
                "ml-kem",
                "pubkey",
                "-i",
                p(&t("key.pem")),
                "-o",
                p(&t("ours.pem")),
            ],
            b"",
        ));
        assert_eq!(
            std::fs::read(t("ours.pem")).unwrap(),
            std::fs::read(t("pub.pem")).unwrap()
        );
    }
}
