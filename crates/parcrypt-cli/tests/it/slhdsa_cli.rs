//! `parcrypt slh-dsa`: the real binary, its exit codes, context,
//! deterministic and prehashed signatures, batches, hostile input, and
//! interop both ways with OpenSSL 3.5 (through Node.js 26's `crypto`, which
//! bundles OpenSSL 3.5.8: `PARCRYPT_NODE_OPENSSL35=/path/to/node`). The
//! fast (`f`) sets keep debug builds quick.

use std::path::Path;

use super::common::{
    fails, node_script, ok, p, parcrypt, reads_openssl_keys_back, sign_and_verify_batch, stderr,
};

fn keygen(set: &str, key: &Path, public: &Path) {
    ok(&parcrypt(
        &["slh-dsa", "keygen", "--params", set, "-o", p(key)],
        b"",
    ));
    ok(&parcrypt(
        &["slh-dsa", "pubkey", "-i", p(key), "-o", p(public)],
        b"",
    ));
}

fn sign(key: &Path, msg: &Path, sig: &Path, extra: &[&str]) -> std::process::Output {
    let args = [
        &["slh-dsa", "sign", "--key", p(key), "-i", p(msg), "-o", p(sig)][..],
        extra,
    ]
    .concat();
    parcrypt(&args, b"")
}

fn verify(public: &Path, msg: &Path, sig: &Path, extra: &[&str]) -> std::process::Output {
    let args = [
        &[
            "slh-dsa",
            "verify",
            "--pub",
            p(public),
            "--sig",
            p(sig),
            "-i",
            p(msg),
        ][..],
        extra,
    ]
    .concat();
    parcrypt(&args, b"")
}

#[test]
fn keygen_sign_verify_context_and_exit_codes() {
    let dir = tempfile::tempdir().unwrap();
    let d = |n: &str| dir.path().join(n);
    std::fs::write(d("msg"), b"release manifest").unwrap();
    keygen("SLH-DSA-SHA2-128f", &d("key.pem"), &d("key.pub"));
    let pem = std::fs::read_to_string(d("key.pem")).unwrap();
    assert!(pem.starts_with("-----BEGIN PRIVATE KEY-----"));
    assert!(
        std::fs::read_to_string(d("key.pub"))
            .unwrap()
            .starts_with("-----BEGIN PUBLIC KEY-----")
    );
    ok(&sign(&d("key.pem"), &d("msg"), &d("sig"), &["--context", "ctx"]));
    assert_eq!(std::fs::read(d("sig")).unwrap().len(), 17088);
    let (public, msg, sig) = (d("key.pub"), d("msg"), d("sig"));
    assert_eq!(
        String::from_utf8_lossy(&ok(&verify(&public, &msg, &sig, &["--context", "ctx"])).stdout),
        "Verified OK\n"
    );
    std::fs::write(d("ctxfile"), b"ctx").unwrap();
    ok(&verify(
        &public,
        &msg,
        &sig,
        &["--context-file", p(&d("ctxfile"))],
    ));
    // A private key verifies too (its public half is taken).
    ok(&verify(&d("key.pem"), &msg, &sig, &["--context", "ctx"]));
    fails(
        &verify(&public, &msg, &sig, &[]),
        1,
        "signature verification failed",
    );
    fails(
        &verify(&public, &msg, &sig, &["--context", "other"]),
        1,
        "signature verification failed",
    );
    std::fs::write(d("msg2"), b"release manifesT").unwrap();
    fails(
        &verify(&public, &d("msg2"), &sig, &["--context", "ctx"]),
        1,
        "signature verification failed",
    );
    // Usage errors: exit 2.
    fails(
        &verify(&public, &msg, &sig, &["--context", &"x".repeat(256)]),
        2,
        "at most 255",
    );
    fails(
        &sign(
            &d("key.pem"),
            &msg,
            &d("refused"),
            &["--context", &"x".repeat(256)],
        ),
        2,
        "at most 255",
    );
    assert!(!d("refused").exists(), "a refused sign leaves no -o");
    let out = parcrypt(&["slh-dsa", "keygen", "--params", "SLH-DSA-SHA2-129f"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("SLH-DSA-SHA2-128f"));
    let out = verify(&public, &msg, &sig, &["--prehash", "md5"]);
    assert_eq!(out.status.code(), Some(2));
    // --threads: the same deterministic signature on every thread count.
    let mut sigs = Vec::new();
    for threads in ["1", "2", "3"] {
        let s = d(&format!("det{threads}"));
        ok(&parcrypt(
            &[
                "--threads",
                threads,
                "slh-dsa",
                "sign",
                "--key",
                p(&d("key.pem")),
                "-i",
                p(&msg),
                "-o",
                p(&s),
                "--deterministic",
            ],
            b"",
        ));
        sigs.push(std::fs::read(&s).unwrap());
    }
    assert!(sigs.windows(2).all(|w| w[0] == w[1]));
    // Hedged signatures differ from each other and from the deterministic one.
    ok(&sign(&d("key.pem"), &msg, &d("h1"), &[]));
    ok(&sign(&d("key.pem"), &msg, &d("h2"), &[]));
    let (h1, h2) = (std::fs::read(d("h1")).unwrap(), std::fs::read(d("h2")).unwrap());
    assert_ne!(h1, h2);
    assert_ne!(h1, sigs[0]);
    ok(&verify(&public, &msg, &d("h1"), &[]));
    ok(&verify(&public, &msg, &d("det1"), &[]));
}

#[test]
fn prehash_round_trips_and_large_messages_need_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = |n: &str| dir.path().join(n);
    keygen("SLH-DSA-SHAKE-128f", &d("key.pem"), &d("key.pub"));
    std::fs::write(d("msg"), vec![7u8; 300_000]).unwrap();
    for hash in ["sha256", "sha512", "shake128", "shake256"] {
        let sig = d(&format!("sig-{hash}"));
        ok(&sign(
            &d("key.pem"),
            &d("msg"),
            &sig,
            &["--prehash", hash, "--context", "c"],
        ));
        ok(&verify(
            &d("key.pub"),
            &d("msg"),
            &sig,
            &["--prehash", hash, "--context", "c"],
        ));
        // Pure, or another prehash: another message.
        fails(
            &verify(&d("key.pub"), &d("msg"), &sig, &["--context", "c"]),
            1,
            "verification failed",
        );
        let other = if hash == "sha256" { "sha512" } else { "sha256" };
        fails(
            &verify(
                &d("key.pub"),
                &d("msg"),
                &sig,
                &["--prehash", other, "--context", "c"],
            ),
            1,
            "verification failed",
        );
    }
    // Deterministic HashSLH-DSA: the same bytes twice.
    ok(&sign(
        &d("key.pem"),
        &d("msg"),
        &d("a"),
        &["--prehash", "sha256", "--deterministic"],
    ));
    ok(&sign(
        &d("key.pem"),
        &d("msg"),
        &d("b"),
        &["--prehash", "sha256", "--deterministic"],
    ));
    assert_eq!(std::fs::read(d("a")).unwrap(), std::fs::read(d("b")).unwrap());
    // Pure signing holds the message: over 64 MiB is refused (exit 2, no
    // output), with the --prehash hint; --prehash streams it.
    // Exactly the limit is signed whole.
    let big = std::fs::File::create(d("big")).unwrap();
    big.set_len(64 << 20).unwrap();
    ok(&sign(
        &d("key.pem"),
        &d("big"),
        &d("edge.sig"),
        &["--deterministic"],
    ));
    ok(&verify(&d("key.pub"), &d("big"), &d("edge.sig"), &[]));
    big.set_len((64 << 20) + 1).unwrap();
    let out = sign(&d("key.pem"), &d("big"), &d("big.sig"), &[]);
    fails(&out, 2, "over 67108864 bytes");
    assert!(stderr(&out).contains("--prehash sha256"), "{}", stderr(&out));
    assert!(!d("big.sig").exists());
    ok(&sign(
        &d("key.pem"),
        &d("big"),
        &d("big.sig"),
        &["--prehash", "shake256"],
    ));
    ok(&verify(
        &d("key.pub"),
        &d("big"),
        &d("big.sig"),
        &["--prehash", "shake256"],
    ));
}

#[test]
fn hostile_keys_and_signatures_are_refused_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let d = |n: &str| dir.path().join(n);
    std::fs::write(d("msg"), b"m").unwrap();
    keygen("SLH-DSA-SHA2-128f", &d("key.pem"), &d("key.pub"));
    keygen("SLH-DSA-SHAKE-128f", &d("other.pem"), &d("other.pub"));
    ok(&sign(&d("key.pem"), &d("msg"), &d("sig"), &[]));
    // Another set's key: the signature does not verify.
    fails(
        &verify(&d("other.pub"), &d("msg"), &d("sig"), &[]),
        1,
        "verification failed",
    );
    // Truncated and extended signatures: the expected length is named.
    let sig = std::fs::read(d("sig")).unwrap();
    std::fs::write(d("short"), &sig[..sig.len() - 1]).unwrap();
    fails(
        &verify(&d("key.pub"), &d("msg"), &d("short"), &[]),
        1,
        "signature is 17088 bytes, not 17087",
    );
    let mut long = sig.clone();
    long.push(0);
    std::fs::write(d("long"), &long).unwrap();
    fails(&verify(&d("key.pub"), &d("msg"), &d("long"), &[]), 1, "not 17089");
    let mut flipped = sig.clone();
    flipped[5000] ^= 1;
    std::fs::write(d("flipped"), &flipped).unwrap();
    fails(
        &verify(&d("key.pub"), &d("msg"), &d("flipped"), &[]),
        1,
        "verification failed",
    );
    // A public key where a private key is needed; another family's key.
    fails(
        &sign(&d("key.pub"), &d("msg"), &d("x"), &[]),
        1,
        "needs an SLH-DSA key",
    );
    ok(&parcrypt(&["ml-dsa", "keygen", "-o", p(&d("ml.pem"))], b""));
    fails(
        &sign(&d("ml.pem"), &d("msg"), &d("x"), &[]),
        1,
        "needs an SLH-DSA key",
    );
    fails(&verify(&d("ml.pem"), &d("msg"), &d("sig"), &[]), 1, "SLH-DSA");
    assert!(!d("x").exists());
    // A damaged private key (PK.root not its seeds'): refused, never used.
    let der_key = d("key.der");
    ok(&parcrypt(
        &[
            "slh-dsa",
            "convert",
            "--der",
            "-i",
            p(&d("key.pem")),
            "-o",
            p(&der_key),
        ],
        b"",
    ));
    let mut der = std::fs::read(&der_key).unwrap();
    let last = der.len() - 1;
    der[last] ^= 1;
    std::fs::write(d("bad.der"), &der).unwrap();
    fails(&sign(&d("bad.der"), &d("msg"), &d("x"), &[]), 1, "does not match");
    std::fs::write(
        d("garbage"),
        b"-----BEGIN PRIVATE KEY-----\nnot base64!\n-----END PRIVATE KEY-----\n",
    )
    .unwrap();
    fails(&sign(&d("garbage"), &d("msg"), &d("x"), &[]), 1, "parcrypt:");
    assert!(!d("x").exists());
    // A password-protected key round-trips through the family's plumbing.
    let out = parcrypt(
        &[
            "slh-dsa",
            "keygen",
            "--params",
            "SLH-DSA-SHA2-128f",
            "--passout",
            "pass:pw",
            "-o",
            p(&d("enc.pem")),
        ],
        b"",
    );
    ok(&out);
    assert!(
        std::fs::read_to_string(d("enc.pem"))
            .unwrap()
            .starts_with("-----BEGIN ENCRYPTED PRIVATE KEY-----")
    );
    fails(
        &sign(&d("enc.pem"), &d("msg"), &d("x"), &["--passin", "pass:wrong"]),
        1,
        "password",
    );
    ok(&sign(&d("enc.pem"), &d("msg"), &d("x"), &["--passin", "pass:pw"]));
}

#[test]
fn sign_batch_and_verify_batch() {
    let dir = tempfile::tempdir().unwrap();
    let d = |n: &str| dir.path().join(n);
    keygen("SLH-DSA-SHA2-128f", &d("key.pem"), &d("key.pub"));
    // More than one batch of messages held whole (16).
    let keys = (&*d("key.pem"), &*d("key.pub"));
    sign_and_verify_batch("slh-dsa", keys, (20, 100), &["--context", "c"], &["1", "2"]);
    ok(&verify(&d("key.pub"), &d("m3"), &d("s3"), &["--context", "c"]));
    // Prehashed batches.
    let out = parcrypt(
        &[
            "slh-dsa",
            "sign-batch",
            "--key",
            p(&d("key.pem")),
            "--prehash",
            "sha256",
            "--list",
            p(&d("list")),
        ],
        b"",
    );
    ok(&out);
    ok(&parcrypt(
        &[
            "slh-dsa",
            "verify-batch",
            "--pub",
            p(&d("key.pub")),
            "--prehash",
            "sha256",
            "--list",
            p(&d("list")),
        ],
        b"",
    ));
}

/// Every command that reads a private key reads it on `--threads` (its
/// top tree is rebuilt, a key generation's cost), and what it reads does
/// not depend on them: `pubkey`, `convert`, a deterministic `sign` and
/// `verify` given the private key as `--pub`, each with `--threads 1` and
/// `--threads 3`, write the same bytes. 128s: a top tree big enough to be
/// spread (128f's is built on one thread whatever `--threads` says). That
/// the readers run on the threads they are given is the library's
/// `embedded::an_slhdsa_key_is_read_on_the_threads_it_is_given`.
#[test]
fn keys_are_read_on_threads_and_read_alike_on_any() {
    let dir = tempfile::tempdir().unwrap();
    let d = |n: &str| dir.path().join(n);
    std::fs::write(d("msg"), b"boot image").unwrap();
    ok(&parcrypt(
        &[
            "--threads",
            "2",
            "slh-dsa",
            "keygen",
            "--params",
            "SLH-DSA-SHA2-128s",
            "-o",
            p(&d("key.pem")),
        ],
        b"",
    ));
    for threads in ["1", "3"] {
        let out = |what: &str| d(&format!("{what}-{threads}"));
        let run = |args: &[&str]| {
            let out = parcrypt(&[&["--threads", threads, "slh-dsa"][..], args].concat(), b"");
            ok(&out);
            out
        };
        run(&["pubkey", "-i", p(&d("key.pem")), "-o", p(&out("pub"))]);
        run(&["convert", "-i", p(&d("key.pem")), "--der", "-o", p(&out("der"))]);
        run(&[
            "sign",
            "--key",
            p(&d("key.pem")),
            "--deterministic",
            "-i",
            p(&d("msg")),
            "-o",
            p(&out("sig")),
        ]);
        let verified = run(&[
            "verify",
            "--pub",
            p(&d("key.pem")),
            "--sig",
            p(&out("sig")),
            "-i",
            p(&d("msg")),
        ]);
        assert_eq!(String::from_utf8_lossy(&verified.stdout), "Verified OK\n");
    }
    for what in ["pub", "der", "sig"] {
        let read = |threads: &str| std::fs::read(d(&format!("{what}-{threads}"))).unwrap();
        assert_eq!(read("1"), read("3"), "{what}: --threads 1 and 3 differ");
    }
}

/// OpenSSL 3.5's side: makes a key pair, signs `msg` under a context, and
/// verifies parcrypt's signature with parcrypt's public key.
const NODE: &str = r#"
const crypto = require('crypto'), fs = require('fs'), [d, set] = process.argv.slice(1);
const { privateKey, publicKey } = crypto.generateKeyPairSync(set);
fs.writeFileSync(d + '/ossl.pem', privateKey.export({ type: 'pkcs8', format: 'pem' }));
fs.writeFileSync(d + '/ossl.pub', publicKey.export({ type: 'spki', format: 'pem' }));
const msg = fs.readFileSync(d + '/msg'), context = Buffer.from('interop');
fs.writeFileSync(d + '/ossl.sig', crypto.sign(null, msg, { key: privateKey, context }));
const pub = crypto.createPublicKey(fs.readFileSync(d + '/ours.pub'));
if (!crypto.verify(null, msg, { key: pub, context }, fs.readFileSync(d + '/ours.sig'))) process.exit(3);
if (crypto.verify(null, msg, { key: pub }, fs.readFileSync(d + '/ours.sig'))) process.exit(5);
const priv = crypto.createPrivateKey(fs.readFileSync(d + '/ours.pem'));
if (crypto.createPublicKey(priv).export({ type: 'spki', format: 'pem' }) !== fs.readFileSync(d + '/ours.pub', 'utf8')) process.exit(4);
"#;

#[test]
fn keys_and_signatures_cross_with_openssl_3_5_both_ways() {
    let Some(node) = crate::tools::node_openssl35() else {
        return;
    };
    for (set, node_set) in [
        ("SLH-DSA-SHA2-128f", "slh-dsa-sha2-128f"),
        ("SLH-DSA-SHAKE-192f", "slh-dsa-shake-192f"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let d = |n: &str| dir.path().join(n);
        std::fs::write(d("msg"), vec![5u8; 100_000]).unwrap();
        keygen(set, &d("ours.pem"), &d("ours.pub"));
        ok(&sign(
            &d("ours.pem"),
            &d("msg"),
            &d("ours.sig"),
            &["--context", "interop"],
        ));
        node_script(&node, NODE, &[p(dir.path()), node_set]);
        // OpenSSL's key and signature, read by parcrypt.
        ok(&verify(
            &d("ossl.pub"),
            &d("msg"),
            &d("ossl.sig"),
            &["--context", "interop"],
        ));
        fails(
            &verify(&d("ossl.pub"), &d("msg"), &d("ossl.sig"), &[]),
            1,
            "verification failed",
        );
        // parcrypt writes OpenSSL's PKCS#8 byte for byte.
        reads_openssl_keys_back("slh-dsa", dir.path());
        // OpenSSL's private key signs with parcrypt; OpenSSL's public key checks it.
        ok(&sign(
            &d("ossl.pem"),
            &d("msg"),
            &d("by-us.sig"),
            &["--context", "interop", "--deterministic"],
        ));
        ok(&verify(
            &d("ossl.pub"),
            &d("msg"),
            &d("by-us.sig"),
            &["--context", "interop"],
        ));
    }
}
