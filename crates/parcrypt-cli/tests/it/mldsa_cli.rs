//! `parcrypt ml-dsa`: the real binary, its exit codes, batches, and
//! interop both ways with OpenSSL 3.5 (through Node.js 26's `crypto`, which
//! bundles OpenSSL 3.5.8: `PARCRYPT_NODE_OPENSSL35=/path/to/node`).

use super::common::{
    batch_lines, batch_list, bin, fails, node_script, ok, ok_quietly, p, parcrypt, reads_openssl_keys_back,
    require, sign_and_verify_batch,
};

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
    let key = dir.path().join("key.pem");
    ok(&parcrypt(&["ml-dsa", "keygen", "-o", p(&key)], b""));
    sign_and_verify_batch(
        "ml-dsa",
        (&key, &key),
        (30, 1000),
        &["--context", "c"],
        &["1", "2", "3"],
    );
}

/// `verify-batch` over more entries than it reads at once (4,096), with bad
/// entries on both sides of that boundary: one line per entry in list
/// order on every thread count (the files are read across the threads), a
/// reason on stderr for the signature that is not one and the file that is
/// not there, exit 1 naming how many failed; the good entries alone exit 0.
#[test]
fn verify_batch_across_its_read_batches_reports_each_entry_in_order() {
    const COUNT: usize = 4100;
    let dir = tempfile::tempdir().unwrap();
    let d = |n: &str| dir.path().join(n);
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
    std::fs::write(d("m"), b"one message, many copies").unwrap();
    ok(&parcrypt(
        &[
            "ml-dsa",
            "sign",
            "--key",
            p(&d("key.pem")),
            "-i",
            p(&d("m")),
            "-o",
            p(&d("sig")),
        ],
        b"",
    ));
    let signature = std::fs::read(d("sig")).unwrap();
    // 5: its message changed; 4097: truncated; 4099: no signature file.
    let failing = [5, 4097, 4099];
    let (mut list, mut good, mut expected) = (String::new(), String::new(), Vec::new());
    for i in 0..COUNT {
        let (msg, sig) = (d(&format!("m{i}")), d(&format!("s{i}")));
        let text: &[u8] = if i == 5 {
            b"another message"
        } else {
            b"one message, many copies"
        };
        std::fs::write(&msg, text).unwrap();
        match i {
            4097 => std::fs::write(&sig, &signature[..signature.len() - 1]).unwrap(),
            4099 => {}
            _ => std::fs::write(&sig, &signature).unwrap(),
        }
        let line = format!("{} {}", p(&msg), p(&sig));
        let verdict = if failing.contains(&i) { "FAIL" } else { "OK" };
        expected.push(format!("{line}: {verdict}"));
        if !failing.contains(&i) {
            good.push_str(&format!("{line}\n"));
        }
        list.push_str(&format!("{line}\n"));
    }
    std::fs::write(d("list"), &list).unwrap();
    std::fs::write(d("good"), &good).unwrap();
    for threads in ["1", "2", "3"] {
        let verify = |list: &str| {
            parcrypt(
                &[
                    "--threads",
                    threads,
                    "ml-dsa",
                    "verify-batch",
                    "--pub",
                    p(&d("key.pem")),
                    "--list",
                    p(&d(list)),
                ],
                b"",
            )
        };
        let out = verify("list");
        assert_eq!(
            String::from_utf8_lossy(&out.stdout).lines().collect::<Vec<_>>(),
            expected,
            "threads {threads}"
        );
        fails(&out, 1, &format!("3 of {COUNT} signatures did not verify"));
        let err = super::common::stderr(&out);
        assert!(
            err.contains(&format!("{} is not a ML-DSA-44 signature", p(&d("s4097")))),
            "{err}"
        );
        assert!(
            err.contains(&format!("cannot read signature {}", p(&d("s4099")))),
            "{err}"
        );
        let out = verify("good");
        batch_lines(ok_quietly(&out), COUNT - failing.len(), &[]);
    }
}

/// The batch commands (of every family: `cmd::family` writes them once)
/// show a progress line on stderr when it is a terminal, and print nothing
/// there when it is piped.
#[test]
fn batch_progress_shows_on_a_terminal_only() {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("key.pem");
    ok(&parcrypt(&["ml-dsa", "keygen", "-o", p(&key)], b""));
    let list = batch_list(dir.path(), 5, 10);
    let pty = require("python3 pty", crate::age_cli::pty_present());
    for (command, key_flag, done) in [
        ("sign-batch", "--key", "signed"),
        ("verify-batch", "--pub", "verified"),
    ] {
        let args = ["ml-dsa", command, key_flag, p(&key), "--list", p(&list)];
        batch_lines(ok_quietly(&parcrypt(&args, b"")), 5, &[]);
        if !pty {
            continue;
        }
        // stderr on the terminal (sh redirects it to /dev/tty), stdout piped.
        let sh_args = [&["-c", r#"exec "$0" "$@" 2>/dev/tty"#, bin()][..], &args].concat();
        let (out, terminal) = crate::age_cli::on_pty(&[], false, "sh", &sh_args, b"");
        batch_lines(ok(&out), 5, &[]);
        assert!(
            terminal.contains(&format!("entries {done}")),
            "{command}: {terminal:?}"
        );
    }
}

/// OpenSSL 3.5's side: makes a key pair, signs `msg` under a context, and
/// verifies parcrypt's signature with parcrypt's public key.
const NODE: &str = r#"
const crypto = require('crypto'), fs = require('fs'), d = process.argv[1];
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
    let Some(node) = crate::tools::node_openssl35() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let d = |n: &str| dir.path().join(n);
    std::fs::write(d("msg"), vec![5u8; 100_000]).unwrap();
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
    node_script(&node, NODE, &[p(dir.path())]);
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
    // OpenSSL writes the seed form by default, as parcrypt does: the same bytes.
    reads_openssl_keys_back("ml-dsa", dir.path());
}
