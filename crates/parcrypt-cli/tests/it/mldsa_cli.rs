//! `parcrypt ml-dsa`: the real binary, its exit codes, batches, and
//! interop both ways with OpenSSL 3.5 (through Node.js 26's `crypto`, which
//! bundles OpenSSL 3.5.8: `PARCRYPT_NODE_OPENSSL35=/path/to/node`).

use super::common::{fails, ok, p, parcrypt, require};

#[test]
fn keygen_sign_verify_and_exit_codes() {
    let dir = tempfile::tempdir().unwrap();
    let d = |n: &str| dir.path().join(n);
    std::fs::write(d("msg"), b"hello ML-DSA").unwrap();
    ok(&parcrypt(
        &[
            "ml-dsa",
            "keygen",
            "--params",
            "ML-DSA-44",
            "-o",
            p(&d("key.pem")),
        ],
        b"",
    ));
    let pem = std::fs::read_to_string(d("key.pem")).unwrap();
    assert!(pem.starts_with("-----BEGIN PRIVATE KEY-----"));
    ok(&parcrypt(
        &["ml-dsa", "pubkey", "-i", p(&d("key.pem")), "-o", p(&d("key.pub"))],
        b"",
    ));
    ok(&parcrypt(
        &[
            "ml-dsa",
            "sign",
            "--key",
            p(&d("key.pem")),
            "-i",
            p(&d("msg")),
            "-o",
            p(&d("sig")),
            "--context",
            "ctx",
        ],
        b"",
    ));
    assert_eq!(std::fs::read(d("sig")).unwrap().len(), 2420);
    let (public, sig, msg) = (d("key.pub"), d("sig"), d("msg"));
    let verify = |extra: &[&str]| {
        let args = [
            &[
                "ml-dsa",
                "verify",
                "--pub",
                p(&public),
                "--sig",
                p(&sig),
                "-i",
                p(&msg),
            ][..],
            extra,
        ]
        .concat();
        parcrypt(&args, b"")
    };
    assert_eq!(
        String::from_utf8_lossy(&ok(&verify(&["--context", "ctx"])).stdout),
        "Verified OK\n"
    );
    std::fs::write(d("ctxfile"), b"ctx").unwrap();
    ok(&verify(&["--context-file", p(&d("ctxfile"))]));
    fails(&verify(&[]), 1, "signature verification failed");
    fails(
        &verify(&["--context", "other"]),
        1,
        "signature verification failed",
    );
    fails(&verify(&["--context", &"x".repeat(256)]), 2, "at most 255 bytes");
    std::fs::write(d("short"), [0u8; 100]).unwrap();
    let out = parcrypt(
        &[
            "ml-dsa",
            "verify",
            "--pub",
            p(&d("key.pub")),
            "--sig",
            p(&d("short")),
            "-i",
            p(&d("msg")),
        ],
        b"",
    );
    fails(&out, 1, "signature is 2420 bytes, not 100");
    // Another family's key: a clear error naming what is needed.
    ok(&parcrypt(&["ecdsa", "keygen", "-o", p(&d("ec.pem"))], b""));
    fails(
        &parcrypt(
            &["ml-dsa", "sign", "--key", p(&d("ec.pem")), "-i", p(&d("msg"))],
            b"",
        ),
        1,
        "needs an ML-DSA key",
    );
    let out = parcrypt(&["ml-dsa", "keygen", "--params", "ML-DSA-66"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(super::common::stderr(&out).contains("ML-DSA-65"));
}

#[test]
fn sign_batch_and_verify_batch_on_every_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let d = |n: &str| dir.path().join(n);
    ok(&parcrypt(&["ml-dsa", "keygen", "-o", p(&d("key.pem"))], b""));
    let mut list = String::new();
    for i in 0..30 {
        let msg = d(&format!("m{i}"));
        std::fs::write(&msg, vec![i as u8; i * 1000]).unwrap();
        list.push_str(&format!("{} {}\n", p(&msg), p(&d(&format!("s{i}")))));
    }
    std::fs::write(d("list"), &list).unwrap();
    let out = parcrypt(
        &[
            "ml-dsa",
            "sign-batch",
            "--key",
            p(&d("key.pem")),
            "--context",
            "c",
            "--list",
            p(&d("list")),
        ],
        b"",
    );
    ok(&out);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter(|l| l.ends_with(": OK"))
            .count(),
        30
    );
    std::fs::write(d("m7"), b"changed").unwrap();
    for threads in ["1", "2", "3"] {
        let out = parcrypt(
            &[
                "--threads",
                threads,
                "ml-dsa",
                "verify-batch",
                "--pub",
                p(&d("key.pem")),
                "--context",
                "c",
                "--list",
                p(&d("list")),
            ],
            b"",
        );
        fails(&out, 1, "1 of 30 signatures did not verify");
        let lines: Vec<String> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_owned)
            .collect();
        assert_eq!(lines.len(), 30);
        for (i, line) in lines.iter().enumerate() {
            assert!(line.ends_with(if i == 7 { ": FAIL" } else { ": OK" }), "{line}");
        }
    }
}

/// Node.js ≥ 26 (OpenSSL 3.5) from `PARCRYPT_NODE_OPENSSL35`.
fn node() -> Option<String> {
    let node = std::env::var("PARCRYPT_NODE_OPENSSL35").ok();
    let present = node.as_ref().is_some_and(|n| {
        std::process::Command::new(n)
            .args(["-e", "require('crypto').generateKeyPairSync('ml-dsa-65')"])
            .output()
            .is_ok_and(|o| o.status.success())
    });
    require("node-openssl35 (PARCRYPT_NODE_OPENSSL35)", present).then(|| node.unwrap_or_default())
}

/// OpenSSL 3.5's side: makes a key pair, signs `msg` under a context, and
/// verifies parcrypt's signature with parcrypt's public key.
const NODE: &str = r#"
const crypto = require('crypto'), fs = require('fs'), d = process.argv[2];
const { privateKey, publicKey } = crypto.generateKeyPairSync('ml-dsa-87');
fs.writeFileSync(d + '/ossl.pem', privateKey.export({ type: 'pkcs8', format: 'pem' }));
fs.writeFileSync(d + '/ossl.pub', publicKey.export({ type: 'spki', format: 'pem' }));
const msg = fs.readFileSync(d + '/msg'), context = Buffer.from('interop');
fs.writeFileSync(d + '/ossl.sig', crypto.sign(null, msg, { key: privateKey, context }));
if (fs.existsSync(d + '/ours.sig')) {
  const pub = crypto.createPublicKey(fs.readFileSync(d + '/ours.pub'));
  if (!crypto.verify(null, msg, { key: pub, context }, fs.readFileSync(d + '/ours.sig'))) process.exit(3);
  const priv = crypto.createPrivateKey(fs.readFileSync(d + '/ours.pem'));
  if (crypto.createPublicKey(priv).export({ type: 'spki', format: 'pem' }) !== fs.readFileSync(d + '/ours.pub', 'utf8')) process.exit(4);
}
"#;

#[test]
fn keys_and_signatures_cross_with_openssl_3_5_both_ways() {
    let Some(node) = node() else { return };
    let dir = tempfile::tempdir().unwrap();
    let d = |n: &str| dir.path().join(n);
    std::fs::write(d("msg"), vec![5u8; 100_000]).unwrap();
    std::fs::write(d("node.js"), NODE).unwrap();
    ok(&parcrypt(
        &[
            "ml-dsa",
            "keygen",
            "--params",
            "ML-DSA-87",
            "-o",
            p(&d("ours.pem")),
        ],
        b"",
    ));
    ok(&parcrypt(
        &[
            "ml-dsa",
            "pubkey",
            "-i",
            p(&d("ours.pem")),
            "-o",
            p(&d("ours.pub")),
        ],
        b"",
    ));
    ok(&parcrypt(
        &[
            "ml-dsa",
            "sign",
            "--key",
            p(&d("ours.pem")),
            "--context",
            "interop",
            "-i",
            p(&d("msg")),
            "-o",
            p(&d("ours.sig")),
        ],
        b"",
    ));
    let out = std::process::Command::new(node)
        .arg(d("node.js"))
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "node: {:?} {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    // OpenSSL's key and signature, read by parcrypt.
    ok(&parcrypt(
        &[
            "ml-dsa",
            "verify",
            "--pub",
            p(&d("ossl.pub")),
            "--sig",
            p(&d("ossl.sig")),
            "--context",
            "interop",
            "-i",
            p(&d("msg")),
        ],
        b"",
    ));
    ok(&parcrypt(
        &[
            "ml-dsa",
            "pubkey",
            "-i",
            p(&d("ossl.pem")),
            "-o",
            p(&d("again.pub")),
        ],
        b"",
    ));
    assert_eq!(
        std::fs::read(d("again.pub")).unwrap(),
        std::fs::read(d("ossl.pub")).unwrap()
    );
    // OpenSSL writes the seed form by default, as parcrypt does: the same bytes.
    ok(&parcrypt(
        &[
            "ml-dsa",
            "convert",
            "-i",
            p(&d("ossl.pem")),
            "-o",
            p(&d("conv.pem")),
        ],
        b"",
    ));
    assert_eq!(
        std::fs::read(d("conv.pem")).unwrap(),
        std::fs::read(d("ossl.pem")).unwrap()
    );
}
