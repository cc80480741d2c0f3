//! Password-protected private keys in the `rsa` and `ecdsa` commands:
//! keys encrypted by `openssl genpkey`/`pkcs8 -topk8` (PBKDF2 with each
//! PRF, scrypt, the legacy PEM) read with `--passin` in openssl's forms,
//! from files and pipes; keys parcrypt encrypts (`keygen`/`convert
//! --passout`) read by `openssl pkey`; and the failures: a wrong or missing
//! password, truncated or garbled keys, absurd KDF work — clear errors,
//! nothing written, the password never printed.

#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::{
    bin, fails_with_no_output_in, ok_in, openssl, p, parcrypt, require_tool, run, stderr, usage_in, within,
};
use crate::enc_password_cli::{on_pty, pty_present};

const PASSWORD: &str = "correct-horse";

/// The library's OpenSSL-made vectors (tests/data/pkcs8/README.md).
fn vector(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../parcrypt/tests/data/pkcs8")
        .join(name)
}

/// parcrypt with `PW` set to the password (for `--passin env:PW`).
fn parcrypt_env(args: &[&str], stdin: &[u8]) -> Output {
    run(Command::new(bin()).args(args).env("PW", PASSWORD), stdin)
}

fn openssl_ok(args: &[&str]) -> Output {
    let out = openssl(args);
    assert!(out.status.success(), "openssl {args:?}: {}", stderr(&out));
    out
}

/// The SPKI PEM of a plain key, as openssl writes it.
fn openssl_pub(plain: &Path) -> Vec<u8> {
    openssl_ok(&["pkey", "-in", p(plain), "-pubout"]).stdout
}

#[test]
fn openssl_encrypted_keys_are_read_with_every_passin_form() {
    if !require_tool("openssl") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pwfile = dir.path().join("pw");
    std::fs::write(&pwfile, format!("{PASSWORD}\nignored second line\n")).unwrap();
    let file_pass = format!("file:{}", p(&pwfile));
    for (family, algorithm, opts) in [
        ("ecdsa", "EC", vec!["-pkeyopt", "ec_paramgen_curve:P-256"]),
        ("rsa", "RSA", vec!["-pkeyopt", "rsa_keygen_bits:2048"]),
    ] {
        let key = dir.path().join(format!("{family}.pem"));
        let mut args = vec!["genpkey", "-algorithm", algorithm];
        args.extend(&opts);
        args.extend(["-aes256", "-pass", "env:PW", "-out", p(&key)]);
        let out = Command::new("openssl")
            .args(&args)
            .env("PW", PASSWORD)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(
            std::fs::read_to_string(&key)
                .unwrap()
                .starts_with("-----BEGIN ENCRYPTED PRIVATE KEY-----")
        );
        let public = dir.path().join(format!("{family}.pub"));
        let out = Command::new("openssl")
            .args([
                "pkey",
                "-in",
                p(&key),
                "-passin",
                "env:PW",
                "-pubout",
                "-out",
                p(&public),
            ])
            .env("PW", PASSWORD)
            .output()
            .unwrap();
        assert!(out.status.success());
        let msg = dir.path().join("msg");
        std::fs::write(&msg, b"signed with an encrypted key").unwrap();
        for passin in ["env:PW", &file_pass, "fd:3", "stdin", "pass:correct-horse"] {
            let case = format!("{family} --passin {passin}");
            let sig = dir.path().join("sig");
            let _ = std::fs::remove_file(&sig);
            let args = [
                family,
                "sign",
                "--key",
                p(&key),
                "--passin",
                passin,
                "-i",
                p(&msg),
                "-o",
                p(&sig),
            ];
            let out = if passin == "fd:3" {
                // bash opens descriptor 3 on the password file.
                let script = format!("exec 3< {}; exec \"$@\"", p(&pwfile));
                let mut cmd = Command::new("bash");
                cmd.args(["-c", &script, "bash", bin()]).args(args);
                run(&mut cmd, b"")
            } else {
                parcrypt_env(&args, format!("{PASSWORD}\n").as_bytes())
            };
            ok_in(&case, &out);
            let err = stderr(&out);
            assert_eq!(
                err.contains("warning: --passin pass:"),
                passin.starts_with("pass:"),
                "{case}: {err}"
            );
            assert!(!err.contains(PASSWORD), "{case}: the password was printed: {err}");
            let mut verify = vec!["dgst", "-sha256", "-verify", p(&public), "-signature", p(&sig)];
            if family == "rsa" {
                verify.extend(["-sigopt", "rsa_padding_mode:pss"]);
            }
            verify.push(p(&msg));
            openssl_ok(&verify);
        }
        // The key through a pipe: its public half.
        let out = parcrypt_env(
            &[family, "pubkey", "--passin", "env:PW"],
            &std::fs::read(&key).unwrap(),
        );
        ok_in("pubkey from a pipe", &out);
        assert_eq!(out.stdout, std::fs::read(&public).unwrap());
    }
}

#[test]
fn every_openssl_scheme_is_read() {
    if !require_tool("openssl") {
        return;
    }
    let ec_pub = openssl_pub(&vector("ec-plain.pem"));
    let rsa_pub = openssl_pub(&vector("rsa-plain.pem"));
    for (family, name, want) in [
        ("ecdsa", "ec-pbkdf2-sha256-aes256.pem", &ec_pub),
        ("ecdsa", "ec-pbkdf2-sha1-aes128.der", &ec_pub),
        ("ecdsa", "ec-pbkdf2-sha224-aes128.pem", &ec_pub),
        ("ecdsa", "ec-pbkdf2-sha384-aes256.pem", &ec_pub),
        ("ecdsa", "ec-pbkdf2-sha512-aes192.pem", &ec_pub),
        ("ecdsa", "ec-scrypt-aes256.pem", &ec_pub),
        ("ecdsa", "ec-legacy-aes128.pem", &ec_pub),
        ("rsa", "rsa-pbkdf2-sha256-aes256.pem", &rsa_pub),
        ("rsa", "rsa-scrypt-aes256.der", &rsa_pub),
        ("rsa", "rsa-legacy-aes256.pem", &rsa_pub),
    ] {
        let out = parcrypt_env(
            &[family, "pubkey", "--passin", "env:PW", "-i", p(&vector(name))],
            b"",
        );
        ok_in(name, &out);
        assert_eq!(&out.stdout, want, "{name}");
    }
    // Schemes parcrypt does not read say how to convert.
    for name in ["ec-pbes1-3des.pem", "ec-legacy-des3.pem"] {
        let out = parcrypt_env(
            &["ecdsa", "pubkey", "--passin", "env:PW", "-i", p(&vector(name))],
            b"",
        );
        fails_with_no_output_in(name, &out, 1, "openssl pkcs8 -topk8");
    }
}

#[test]
fn parcrypts_encrypted_keys_are_read_by_openssl() {
    if !require_tool("openssl") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&str, &[&str], &str)] = &[
        ("ecdsa", &[], "PEM"),
        ("ecdsa", &["--der"], "DER"),
        ("ecdsa", &["--cipher", "aes-128-cbc"], "PEM"),
        ("ecdsa", &["--cipher", "aes-192-cbc", "--iter", "10000"], "PEM"),
        ("ecdsa", &["--scrypt", "--der"], "DER"),
        ("rsa", &["--bits", "2048"], "PEM"),
        (
            "rsa",
            &["--bits", "2048", "--scrypt", "--cipher", "aes-128-cbc"],
            "PEM",
        ),
    ];
    for (i, (family, extra, form)) in cases.iter().enumerate() {
        let case = format!("{family} keygen {extra:?}");
        let key = dir.path().join(format!("key{i}"));
        let mut args = vec![*family, "keygen", "--passout", "env:PW", "-o", p(&key)];
        args.extend(*extra);
        let out = parcrypt_env(&args, b"");
        ok_in(&case, &out);
        assert!(out.stderr.is_empty(), "{case}: {}", stderr(&out));
        let out = Command::new("openssl")
            .args([
                "pkey",
                "-inform",
                form,
                "-in",
                p(&key),
                "-passin",
                "env:PW",
                "-noout",
            ])
            .env("PW", PASSWORD)
            .output()
            .unwrap();
        assert!(out.status.success(), "{case}: {}", stderr(&out));
        let text = openssl_ok(&["asn1parse", "-inform", form, "-in", p(&key)]).stdout;
        let text = String::from_utf8_lossy(&text);
        assert!(text.contains("PBES2"), "{case}: {text}");
        if extra.contains(&"--scrypt") {
            assert!(
                text.contains(":scrypt") && text.contains("INTEGER           :4000"),
                "{case}: {text}"
            );
        } else {
            // What openssl 3 writes: PBKDF2-HMAC-SHA256, 2048 iterations, an 8-byte salt.
            assert!(text.contains("hmacWithSHA256"), "{case}: {text}");
            let iter = if extra.contains(&"10000") {
                ":2710"
            } else {
                ":0800"
            };
            assert!(text.contains(iter), "{case}: {text}");
        }
        // Wrong password: openssl refuses too.
        let out = openssl(&[
            "pkey",
            "-inform",
            form,
            "-in",
            p(&key),
            "-passin",
            "pass:wrong",
            "-noout",
        ]);
        assert!(!out.status.success(), "{case}");
    }
    // convert: openssl's encrypted key re-encrypted by parcrypt, and decrypted to plain PKCS#8.
    let again = dir.path().join("again.pem");
    let out = parcrypt_env(
        &[
            "rsa",
            "convert",
            "-i",
            p(&vector("rsa-legacy-aes256.pem")),
            "--passin",
            "env:PW",
            "--passout",
            "env:PW",
            "-o",
            p(&again),
        ],
        b"",
    );
    ok_in("convert", &out);
    let plain = Command::new("openssl")
        .args(["pkey", "-in", p(&again), "-passin", "env:PW"])
        .env("PW", PASSWORD)
        .output()
        .unwrap();
    assert_eq!(plain.stdout, std::fs::read(vector("rsa-plain.pem")).unwrap());
    let out = parcrypt_env(
        &[
            "ecdsa",
            "convert",
            "--passin",
            "env:PW",
            "-i",
            p(&vector("ec-scrypt-aes256.pem")),
        ],
        b"",
    );
    ok_in("convert to plain", &out);
    assert_eq!(out.stdout, std::fs::read(vector("ec-plain.pem")).unwrap());
}

/// The raw DER of an `EncryptedPrivateKeyInfo` with the given KDF
/// `AlgorithmIdentifier` (hex) and AES-256-CBC over two zero blocks.
fn crafted(kdf_hex: &str) -> Vec<u8> {
    let tlv = |tag: u8, body: &[u8]| {
        assert!(body.len() < 128);
        let mut v = vec![tag, body.len() as u8];
        v.extend_from_slice(body);
        v
    };
    let kdf = hex::decode(kdf_hex).unwrap();
    let mut enc = tlv(6, &hex::decode("60864801650304012a").unwrap());
    enc.extend(tlv(4, &[0; 16]));
    let enc = tlv(0x30, &enc);
    let mut params = kdf;
    params.extend(enc);
    let mut alg = tlv(6, &hex::decode("2a864886f70d01050d").unwrap());
    alg.extend(tlv(0x30, &params));
    let mut info = tlv(0x30, &alg);
    info.extend(tlv(4, &[0; 32]));
    tlv(0x30, &info)
}

#[test]
fn bad_passwords_and_hostile_keys_are_clear_errors_with_nothing_written() {
    let dir = tempfile::tempdir().unwrap();
    let msg = dir.path().join("msg");
    std::fs::write(&msg, b"message").unwrap();
    let sig = dir.path().join("sig");
    let key = vector("ec-pbkdf2-sha256-aes256.pem");
    let pem = std::fs::read_to_string(&key).unwrap();
    let der = std::fs::read(vector("ec-pbkdf2-sha1-aes128.der")).unwrap();
    let write = |name: &str, bytes: &[u8]| {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    };
    let truncated = write("truncated.der", &der[..der.len() - 20]);
    let garbage = write("garbage.pem", pem.replacen("MI", "!*", 1).as_bytes());
    let no_end = write("no-end.pem", &pem.as_bytes()[..pem.len() - 30]);
    // PBKDF2 with 2^31 − 1 iterations; scrypt with N = 2^40.
    let iterations = write(
        "iterations.der",
        &crafted("301d06092a864886f70d01050c30100408010203040506070802047fffffff"),
    );
    let scrypt = write(
        "scrypt.der",
        &crafted("302506092b06010401da47040b3018040801020304050607080206010000000000020108020101"),
    );
    let cases: Vec<(&str, Vec<&str>, i32, &str)> = vec![
        (
            "wrong password",
            vec!["--key", p(&key), "--passin", "env:WRONG"],
            1,
            "bad decrypt",
        ),
        (
            "empty password",
            vec!["--key", p(&key), "--passin", "env:EMPTY"],
            1,
            "bad decrypt",
        ),
        (
            "truncated DER",
            vec!["--key", p(&truncated), "--passin", "env:PW"],
            1,
            "malformed",
        ),
        (
            "garbage base64",
            vec!["--key", p(&garbage), "--passin", "env:PW"],
            1,
            "base64",
        ),
        (
            "no END line",
            vec!["--key", p(&no_end), "--passin", "env:PW"],
            1,
            "PEM",
        ),
        (
            "absurd iterations",
            vec!["--key", p(&iterations), "--passin", "env:PW"],
            1,
            "limit",
        ),
        (
            "absurd scrypt",
            vec!["--key", p(&scrypt), "--passin", "env:PW"],
            1,
            "limit",
        ),
        (
            "no such variable",
            vec!["--key", p(&key), "--passin", "env:PARCRYPT_UNSET_VAR"],
            1,
            "no environment variable",
        ),
        (
            "not a source",
            vec!["--key", p(&key), "--passin", "correct-horse"],
            2,
            "not a password",
        ),
    ];
    for (case, mut args, status, needle) in cases {
        let mut full = vec!["ecdsa", "sign", "-i", p(&msg), "-o", p(&sig)];
        full.append(&mut args);
        let out = run(
            Command::new(bin())
                .args(&full)
                .env("PW", PASSWORD)
                .env("WRONG", "correct-hors")
                .env("EMPTY", ""),
            b"",
        );
        if status == 2 {
            usage_in(case, &out, needle);
        } else {
            fails_with_no_output_in(case, &out, status, needle);
        }
        assert!(!sig.exists(), "{case}: an output file was left");
        assert!(
            !stderr(&out).contains(PASSWORD),
            "{case}: the password was printed"
        );
    }
    // keygen: an encrypted key is PKCS#8 only; nothing written.
    let out_key = dir.path().join("new.pem");
    let out = parcrypt_env(
        &[
            "ecdsa",
            "keygen",
            "--format",
            "sec1",
            "--passout",
            "env:PW",
            "-o",
            p(&out_key),
        ],
        b"",
    );
    usage_in("sec1 encrypted", &out, "PKCS#8 only");
    assert!(!out_key.exists());
    // Verification takes a public key: an encrypted private key says how to get one.
    let out = parcrypt(
        &[
            "ecdsa",
            "verify",
            "--pub",
            p(&key),
            "--sig",
            p(&msg),
            "-i",
            p(&msg),
        ],
        b"",
    );
    fails_with_no_output_in("verify with an encrypted key", &out, 1, "ecdsa pubkey --passin");
    // The key and its password cannot both be stdin.
    let out = parcrypt(&["ecdsa", "pubkey", "--passin", "stdin"], pem.as_bytes());
    usage_in("both stdin", &out, "standard input");
    let out = parcrypt(&["ecdsa", "convert", "--passout", "stdin"], pem.as_bytes());
    usage_in("key and new password on stdin", &out, "standard input");
}

/// No --passin: asked on the terminal as openssl asks; without a terminal,
/// an error saying how to give it.
#[test]
fn without_passin_the_password_is_asked_on_the_terminal() {
    let key = vector("ec-scrypt-aes256.pem");
    if require_tool("setsid") {
        // A new session has no controlling terminal, and stdin is a pipe.
        let out = run(
            Command::new("setsid").args([bin(), "ecdsa", "pubkey", "-i", p(&key)]),
            b"",
        );
        // Exit 1, as `aes` without --pass and without a terminal.
        fails_with_no_output_in("no terminal", &out, 1, "no password was given");
        assert!(stderr(&out).contains("--passin"));
    }
    if !crate::common::require("python3 pty", pty_present()) {
        return;
    }
    let prompt = format!("Enter pass phrase for {}:", p(&key));
    let (out, tty) = on_pty(
        &[(&prompt, &format!("{PASSWORD}\n"))],
        &["ecdsa", "pubkey", "-i", p(&key)],
        b"",
    );
    ok_in("prompt", &out);
    assert!(!tty.contains(PASSWORD), "the password was echoed: {tty:?}");
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("-----BEGIN PUBLIC KEY-----"));
    // keygen --cipher without --passout asks twice.
    let dir = tempfile::tempdir().unwrap();
    let new = dir.path().join("new.pem");
    let (out, _) = on_pty(
        &[
            ("Enter PEM pass phrase:", "typed\n"),
            ("Verifying - Enter PEM pass phrase:", "typed\n"),
        ],
        &["ecdsa", "keygen", "--cipher", "aes-256-cbc", "-o", p(&new)],
        b"",
    );
    ok_in("keygen prompt", &out);
    let out = parcrypt(&["ecdsa", "pubkey", "--passin", "pass:typed", "-i", p(&new)], b"");
    ok_in("read back", &out);
}

/// The hex of a minimal DER INTEGER.
fn der_uint(v: u64) -> String {
    let mut bytes = v.to_be_bytes().to_vec();
    while bytes.len() > 1 && bytes[0] == 0 && bytes[1] < 0x80 {
        bytes.remove(0);
    }
    if bytes[0] >= 0x80 {
        bytes.insert(0, 0);
    }
    format!("02{:02x}{}", bytes.len(), hex::encode(bytes))
}

/// The hex of a DER KDF `AlgorithmIdentifier`: `oid` (hex) over an 8-byte
/// salt and `ints`.
fn kdf_hex(oid: &str, ints: &[u64]) -> String {
    let params: String = std::iter::once("04080102030405060708".to_owned())
        .chain(ints.iter().map(|&v| der_uint(v)))
        .collect();
    let params = format!("30{:02x}{params}", params.len() / 2);
    let body = format!("0609{oid}{params}");
    format!("30{:02x}{body}", body.len() / 2)
}

/// The hex of a DER scrypt `AlgorithmIdentifier` with N, r, p.
fn scrypt_kdf(n: u64, r: u64, p: u64) -> String {
    kdf_hex("2b06010401da47040b", &[n, r, p])
}

/// The hex of a DER PBKDF2 (HMAC-SHA1) `AlgorithmIdentifier` with `iterations`.
fn pbkdf2_kdf(iterations: u64) -> String {
    kdf_hex("2a864886f70d01050c", &[iterations])
}

#[test]
fn costly_kdf_parameters_are_refused_before_any_work_unless_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let key = |name: &str, kdf: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, crafted(kdf)).unwrap();
        path
    };
    // The hostile key of issue #48: N = 2^20, r = 8, p = 16 cost a minute
    // and 1 GiB before "bad decrypt". Refused at once, also with the flag;
    // the watchdog only keeps a regression from hanging the suite.
    let hostile = key("hostile.der", &scrypt_kdf(1 << 20, 8, 16));
    let n18 = key("n18.der", &scrypt_kdf(1 << 18, 8, 1));
    let n16 = key("n16.der", &scrypt_kdf(1 << 16, 8, 1));
    let edge = key("edge.der", &scrypt_kdf(1 << 14, 8, 16));
    let many = key("many.der", &pbkdf2_kdf(2_000_001));
    let too_many = key("too-many.der", &pbkdf2_kdf(10_000_001));
    let convert = |path: &Path, extra: &[&str]| {
        let mut cmd = Command::new(bin());
        cmd.args(["ecdsa", "convert", "--passin", "env:PW", "-i", p(path)])
            .args(extra)
            .env("PW", "wrong");
        within(&mut cmd, 60)
    };
    for (case, path, extra, needle) in [
        ("hostile", &hostile, &[][..], "scrypt memory"),
        (
            "hostile, allowed",
            &hostile,
            &["--allow-costly-kdf"][..],
            "scrypt memory",
        ),
        (
            "N = 2^18, r = 8",
            &n18,
            &[][..],
            "268438528 bytes of scrypt memory",
        ),
        ("N = 2^16, r = 8", &n16, &[][..], "scrypt memory"),
        ("2000001 iterations", &many, &[][..], "2000001 PBKDF2 iterations"),
        (
            "10000001 iterations, allowed",
            &too_many,
            &["--allow-costly-kdf"][..],
            "10000001 PBKDF2 iterations",
        ),
    ] {
        let out = convert(path, extra);
        fails_with_no_output_in(case, &out, 1, needle);
        assert!(
            stderr(&out).contains("--allow-costly-kdf"),
            "{case}: {}",
            stderr(&out)
        );
    }
    // Without --passin, refused before the password is asked (here there
    // is no terminal to ask on: that would be a different error).
    for (path, needle) in [(&hostile, "scrypt memory"), (&many, "2000001 PBKDF2 iterations")] {
        let out = within(Command::new(bin()).args(["ecdsa", "convert", "-i", p(path)]), 60);
        fails_with_no_output_in("no --passin", &out, 1, needle);
        assert!(stderr(&out).contains("--allow-costly-kdf"), "{}", stderr(&out));
    }
    // What the default allows, and what the flag allows, runs (and a
    // wrong password is then a bad decrypt, not a backend error).
    for (case, path, extra) in [
        ("N = 2^14, r = 8, p = 16", &edge, &[][..]),
        ("N = 2^16, r = 8, allowed", &n16, &["--allow-costly-kdf"][..]),
        ("2000001 iterations, allowed", &many, &["--allow-costly-kdf"][..]),
    ] {
        fails_with_no_output_in(case, &convert(path, extra), 1, "bad decrypt");
    }
    // Keys written keep to what a reader allows by default.
    usage_in(
        "--iter above the limit",
        &parcrypt(
            &["ecdsa", "keygen", "--passout", "pass:x", "--iter", "2000001"],
            b"",
        ),
        "2000001",
    );
    // openssl 3 refuses the same scrypt memory (its 32 MiB).
    if require_tool("openssl") {
        for path in [&hostile, &n18] {
            let out = openssl(&["pkey", "-inform", "DER", "-in", p(path), "-passin", "pass:wrong"]);
            assert!(!out.status.success(), "openssl read {}", p(path));
        }
    }
}

/// `fd:1` and `fd:2` are refused (reopened for reading, an output pipe
/// waited for ever), and `fd:0` is refused where the key or the data is on
/// standard input, as `stdin` is (it read the key's first line as the
/// password). The watchdog keeps the old hang from hanging the suite.
#[test]
fn password_descriptors_that_cannot_be_the_password_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let key = vector("ec-pbkdf2-sha256-aes256.pem");
    let out_key = dir.path().join("new.pem");
    for (flag, n) in [
        ("--passin", 1),
        ("--passin", 2),
        ("--passout", 1),
        ("--passout", 2),
    ] {
        let source = format!("fd:{n}");
        let args: Vec<&str> = if flag == "--passin" {
            vec!["ecdsa", "pubkey", "-i", p(&key), "--passin", &source]
        } else {
            vec!["ecdsa", "keygen", "--passout", &source, "-o", p(&out_key)]
        };
        let out = within(Command::new(bin()).args(&args), 30);
        usage_in(
            &format!("{flag} {source}"),
            &out,
            &format!("'fd:{n}' for '{flag} <SOURCE>': fd:{n} is standard"),
        );
        assert!(out.stdout.is_empty() && !out_key.exists(), "{flag} {source}");
    }
    let out = within(
        Command::new(bin()).args([
            "aes",
            "decrypt",
            "--cipher",
            "aes-256-cbc",
            "--pbkdf2",
            "-i",
            p(&key),
            "--pass",
            "fd:2",
        ]),
        30,
    );
    usage_in("aes --pass fd:2", &out, "fd:2 is standard error");
    // fd:0 beside a key, or data, on standard input.
    let pem = std::fs::read(&key).unwrap();
    usage_in(
        "--passin fd:0",
        &parcrypt(&["ecdsa", "pubkey", "--passin", "fd:0"], &pem),
        "cannot both come from standard input",
    );
    usage_in(
        "--passout fd:0",
        &parcrypt(
            &["ecdsa", "convert", "--passin", "pass:x", "--passout", "fd:0"],
            &pem,
        ),
        "cannot both come from standard input",
    );
    usage_in(
        "aes --pass fd:0",
        &parcrypt(
            &[
                "aes",
                "encrypt",
                "--cipher",
                "aes-256-cbc",
                "--pbkdf2",
                "--pass",
                "fd:0",
            ],
            b"data",
        ),
        "--pass fd:0 and the data cannot both come from standard input",
    );
    // fd:0 with the key in a file is a password on standard input, as before.
    let out = parcrypt(
        &["ecdsa", "pubkey", "-i", p(&key), "--passin", "fd:0"],
        format!("{PASSWORD}\n").as_bytes(),
    );
    ok_in("--passin fd:0 with -i", &out);
}
