//! `parcrypt aes` with passwords against the `openssl enc` CLI, both ways:
//! PBKDF2 and the legacy EVP_BytesToKey, every `--md`, the `Salted__`
//! header, `-S`, `--nosalt`, `-p`/`-P`, base64 with and without `-A`,
//! every mode, files and pipes; then hostile input and the password's
//! sources and secrecy.
//!
//! Byte identity with a header: openssl 3 writes no header when given `-S`,
//! so each case encrypts with openssl (random salt, header), checks that
//! parcrypt decrypts it, then encrypts with parcrypt under the salt from
//! openssl's header (`-S`) and compares with the bytes after that header.

#![allow(clippy::unwrap_used)]

use std::process::{Command, Output, Stdio};

use crate::common::{
    bin, data, fails_in, fails_with_no_output_in, ok_in, openssl_enc, p, parcrypt, require_tool, run, stderr,
    usage_in,
};

const PASSWORD: &str = "correct horse battery staple";
const SALT: &str = "0102030405060708";

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// One `openssl enc` password command line and the `parcrypt aes` one that
/// must give the same bytes.
#[derive(Clone, Debug)]
struct Case {
    cipher: &'static str,
    /// `-pbkdf2 -iter N`, or `-pbkdf2` alone (openssl's default count)
    /// for `Some(0)`; the legacy EVP_BytesToKey for `None`.
    iter: Option<u32>,
    md: Option<&'static str>,
    base64: bool,
    one_line: bool,
}

impl Case {
    fn new(cipher: &'static str, iter: Option<u32>) -> Self {
        Case {
            cipher,
            iter,
            md: None,
            base64: false,
            one_line: false,
        }
    }

    /// The flags both programs share, in each one's spelling.
    fn flags(&self, openssl: bool) -> Vec<String> {
        let dash = if openssl { "-" } else { "--" };
        let mut a = Vec::new();
        match self.iter {
            Some(0) => a.push(format!("{dash}pbkdf2")),
            Some(n) => a.extend([format!("{dash}pbkdf2"), format!("{dash}iter"), n.to_string()]),
            None => {}
        }
        if let Some(md) = self.md {
            a.extend([format!("{dash}md"), md.to_owned()]);
        }
        if self.base64 {
            a.push("-a".to_owned());
        }
        if self.one_line {
            a.push("-A".to_owned());
        }
        a
    }

    fn openssl(&self, decrypt: bool, extra: &[&str]) -> Vec<String> {
        let mut a = vec![
            format!("-{}", self.cipher),
            "-pass".into(),
            format!("pass:{PASSWORD}"),
        ];
        a.extend(self.flags(true));
        if decrypt {
            a.push("-d".into());
        }
        a.extend(extra.iter().map(|s| (*s).to_owned()));
        a
    }

    fn parcrypt(&self, decrypt: bool, extra: &[&str]) -> Vec<String> {
        let mut a = vec![
            "aes".to_owned(),
            if decrypt { "decrypt" } else { "encrypt" }.to_owned(),
            "--cipher".into(),
            self.cipher.into(),
            "--pass".into(),
            format!("pass:{PASSWORD}"),
        ];
        a.extend(self.flags(false));
        a.extend(extra.iter().map(|s| (*s).to_owned()));
        a
    }

    fn name(&self, len: usize) -> String {
        format!("{} {:?} len {len}", self.cipher, self.flags(false))
    }
}

/// openssl's ciphertext, binary: base64-decoded if the case is base64.
fn binary(case: &Case, bytes: &[u8]) -> Vec<u8> {
    if !case.base64 {
        return bytes.to_vec();
    }
    let out = openssl(
        &["base64", "-d", "-A"],
        &bytes.iter().copied().filter(|b| *b != b'\n').collect::<Vec<_>>(),
    );
    out.stdout
}

fn openssl(args: &[&str], stdin: &[u8]) -> Output {
    run(Command::new("openssl").args(args), stdin)
}

/// Both ways and byte identity (see the module's comment) for `plain`.
fn check(case: &Case, plain: &[u8], extra: &[&str]) {
    let name = case.name(plain.len());
    // openssl → parcrypt.
    let theirs = openssl_enc(&strs(&case.openssl(false, &[])), plain);
    assert!(theirs.status.success(), "{name}: openssl: {}", stderr(&theirs));
    let back = parcrypt(&strs(&case.parcrypt(true, extra)), &theirs.stdout);
    ok_in(&name, &back);
    assert!(
        back.stdout == plain,
        "{name}: parcrypt decrypted openssl's wrongly"
    );
    // The same bytes under openssl's salt.
    let raw = binary(case, &theirs.stdout);
    assert_eq!(&raw[..8], b"Salted__", "{name}");
    let salt = hex::encode(&raw[8..16]);
    let ours = parcrypt(
        &strs(&case.parcrypt(false, &[&["-S", &salt][..], extra].concat())),
        plain,
    );
    ok_in(&name, &ours);
    let with_s = openssl_enc(&strs(&case.openssl(false, &["-S", &salt])), plain);
    assert!(
        ours.stdout == with_s.stdout,
        "{name}: parcrypt -S differs from openssl -S"
    );
    assert!(
        binary(case, &ours.stdout) == raw[16..],
        "{name}: not openssl's ciphertext"
    );
    // parcrypt → openssl, with parcrypt's own random salt and header.
    let ours = parcrypt(&strs(&case.parcrypt(false, extra)), plain);
    ok_in(&name, &ours);
    assert_eq!(&binary(case, &ours.stdout)[..8], b"Salted__", "{name}");
    let back = openssl_enc(&strs(&case.openssl(true, &[])), &ours.stdout);
    assert!(
        back.status.success() && back.stdout == plain,
        "{name}: openssl cannot decrypt parcrypt's: {}",
        stderr(&back)
    );
}

const SIZES: [usize; 6] = [0, 1, 15, 16, 17, (1 << 20) + 3];

#[test]
fn every_mode_and_size_with_pbkdf2() {
    if !require_tool("openssl") {
        return;
    }
    for (i, cipher) in [
        "aes-128-cbc",
        "aes-192-cbc",
        "aes-256-cbc",
        "aes-128-ctr",
        "aes-192-ctr",
        "aes-256-ctr",
    ]
    .into_iter()
    .enumerate()
    {
        // One iteration for most sizes; openssl's default count (10000) on a few.
        for len in SIZES {
            let iter = if (i + len) % 3 == 0 { Some(0) } else { Some(1) };
            check(&Case::new(cipher, iter), &data(len), &[]);
        }
    }
}

#[test]
fn ecb_and_the_legacy_derivation() {
    if !require_tool("openssl") {
        return;
    }
    for cipher in ["aes-128-ecb", "aes-192-ecb", "aes-256-ecb"] {
        for len in SIZES {
            check(&Case::new(cipher, Some(1)), &data(len), &[]);
        }
    }
    for cipher in ["aes-128-cbc", "aes-256-ctr", "aes-192-ecb", "aes256", "aes128"] {
        for len in [0, 17, 1000] {
            check(&Case::new(cipher, None), &data(len), &[]);
        }
    }
}

#[test]
fn every_digest_under_both_derivations() {
    if !require_tool("openssl") {
        return;
    }
    for md in ["md5", "sha1", "sha224", "sha256", "sha384", "sha512"] {
        for iter in [Some(1), Some(10_000), None] {
            let case = Case {
                md: Some(md),
                ..Case::new("aes-256-cbc", iter)
            };
            check(&case, &data(33), &[]);
        }
    }
}

#[test]
fn iteration_counts() {
    if !require_tool("openssl") {
        return;
    }
    // --pbkdf2 alone is openssl's 10000: the same bytes as --iter 10000.
    let default = parcrypt(
        &strs(&Case::new("aes-128-ctr", Some(0)).parcrypt(false, &["-S", SALT])),
        b"x",
    );
    let explicit = parcrypt(
        &strs(&Case::new("aes-128-ctr", Some(10_000)).parcrypt(false, &["-S", SALT])),
        b"x",
    );
    ok_in("default", &default);
    assert_eq!(default.stdout, explicit.stdout);
    for iter in [1, 2, 10_000] {
        check(&Case::new("aes-256-cbc", Some(iter)), &data(100), &[]);
    }
    // One case at a modern count (600 000), to keep the suite fast.
    let case = Case {
        md: Some("sha512"),
        ..Case::new("aes-256-ctr", Some(600_000))
    };
    check(&case, &data(17), &[]);
}

#[test]
fn base64_on_lines_and_on_one_line() {
    if !require_tool("openssl") {
        return;
    }
    for (cipher, one_line) in [
        ("aes-256-cbc", false),
        ("aes-128-ctr", true),
        ("aes-192-ecb", false),
        ("aes-256-ctr", false),
        ("aes-128-cbc", true),
    ] {
        let case = Case {
            base64: true,
            one_line,
            ..Case::new(cipher, Some(1))
        };
        for len in [0, 1, 15, 16, 17, 31, 32, 33, 47, 48, 1000, (1 << 20) + 3] {
            check(&case, &data(len), &[]);
        }
    }
    // parcrypt reads either layout with or without -A.
    let lines = openssl_enc(
        &["-aes-128-ctr", "-pbkdf2", "-iter", "1", "-pass", "pass:x", "-a"],
        &data(500),
    )
    .stdout;
    let one = openssl_enc(
        &[
            "-aes-128-ctr",
            "-pbkdf2",
            "-iter",
            "1",
            "-pass",
            "pass:x",
            "-a",
            "-A",
        ],
        &data(500),
    )
    .stdout;
    for (text, extra) in [(&lines, &["-A"][..]), (&one, &[][..])] {
        let mut args = vec![
            "aes",
            "decrypt",
            "--cipher",
            "aes-128-ctr",
            "--pbkdf2",
            "--iter",
            "1",
            "--pass",
            "pass:x",
            "-a",
        ];
        args.extend(extra);
        let out = parcrypt(&args, text);
        ok_in("layout", &out);
        assert!(out.stdout == data(500));
    }
}

#[test]
fn nosalt_and_given_salt() {
    if !require_tool("openssl") {
        return;
    }
    for cipher in ["aes-128-cbc", "aes-256-ctr", "aes-192-ecb"] {
        for (iter, len) in [(Some(1), 0), (Some(0), 17), (None, 1000)] {
            let case = Case::new(cipher, iter);
            for extra in [&["-nosalt"][..], &["-S", SALT]] {
                let ours_extra: Vec<&str> = extra
                    .iter()
                    .map(|f| if *f == "-nosalt" { "--nosalt" } else { f })
                    .collect();
                let name = format!("{} {extra:?}", case.name(len));
                let theirs = openssl_enc(&strs(&case.openssl(false, extra)), &data(len));
                let ours = parcrypt(&strs(&case.parcrypt(false, &ours_extra)), &data(len));
                ok_in(&name, &ours);
                assert!(theirs.status.success(), "{name}");
                assert!(ours.stdout == theirs.stdout, "{name}: differs from openssl");
                let back = parcrypt(&strs(&case.parcrypt(true, &ours_extra)), &theirs.stdout);
                ok_in(&name, &back);
                assert!(back.stdout == data(len), "{name}");
            }
        }
    }
}

/// `-S` with other than 16 hex digits, as openssl reads it: fewer are
/// padded with zero bytes, more cut to 16, an odd count ends in a high
/// nibble; openssl's warning on stderr, and its bytes.
#[test]
fn short_and_long_salts_are_fitted_as_openssl_fits_them() {
    if !require_tool("openssl") {
        return;
    }
    for (salt, warning) in [
        ("0102", "too short"),
        ("010", "too short"),
        ("", "too short"),
        ("0102030405060708090a", "too long"),
        ("01020304050607080zzz", "too long"),
    ] {
        let theirs = openssl_enc(
            &["-aes-128-cbc", "-pbkdf2", "-pass", "pass:x", "-S", salt],
            &data(33),
        );
        assert!(theirs.status.success(), "openssl -S {salt:?}");
        let ours = parcrypt(
            &[
                "aes",
                "encrypt",
                "--cipher",
                "aes-128-cbc",
                "--pbkdf2",
                "--pass",
                "pass:x",
                "-S",
                salt,
            ],
            &data(33),
        );
        ok_in(&format!("-S {salt:?}"), &ours);
        assert!(ours.stdout == theirs.stdout, "-S {salt:?}: differs from openssl");
        let stderr = String::from_utf8_lossy(&ours.stderr);
        assert!(stderr.contains(warning), "-S {salt:?}: {stderr}");
    }
}

/// `-p` and `-P` print what openssl prints, where it prints it: `-p` with
/// a binary ciphertext on stdout comes after the header (openssl's order),
/// with base64 before it.
#[test]
fn printed_salt_key_and_iv_match_openssl() {
    if !require_tool("openssl") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("made-by-openssl");
    for cipher in ["aes-256-cbc", "aes-128-ctr", "aes-192-ecb"] {
        for (iter, salt) in [
            (Some(1), &["-S", SALT][..]),
            (None, &["-nosalt"][..]),
            (Some(0), &[][..]),
        ] {
            let case = Case::new(cipher, iter);
            let ours_salt: Vec<&str> = salt
                .iter()
                .map(|f| if *f == "-nosalt" { "--nosalt" } else { f })
                .collect();
            let name = format!("{} {salt:?}", case.name(0));
            // -P with a given salt or none: the same lines, and nothing else.
            if !salt.is_empty() {
                let theirs = openssl_enc(&strs(&case.openssl(false, &[&["-P"][..], salt].concat())), b"");
                let ours = parcrypt(
                    &strs(&case.parcrypt(false, &[&["-P"][..], &ours_salt].concat())),
                    b"",
                );
                ok_in(&name, &ours);
                assert_eq!(
                    String::from_utf8_lossy(&ours.stdout),
                    String::from_utf8_lossy(&theirs.stdout),
                    "{name} -P"
                );
                // -p: the lines, then the ciphertext.
                let theirs = openssl_enc(
                    &strs(&case.openssl(false, &[&["-p"][..], salt].concat())),
                    &data(40),
                );
                let ours = parcrypt(
                    &strs(&case.parcrypt(false, &[&["-p"][..], &ours_salt].concat())),
                    &data(40),
                );
                assert!(ours.stdout == theirs.stdout, "{name} -p");
            }
            // Decrypting a file openssl wrote with a header: -P reads the salt from it.
            let made = openssl_enc(
                &strs(&case.openssl(false, &[&["-out", p(&file)][..], salt].concat())),
                &data(40),
            );
            assert!(made.status.success());
            for flag in ["-P", "-p"] {
                let theirs = openssl_enc(
                    &strs(&case.openssl(true, &[&[flag, "-in", p(&file)][..], salt].concat())),
                    b"",
                );
                let ours = parcrypt(
                    &strs(&case.parcrypt(true, &[&[flag, "-i", p(&file)][..], &ours_salt].concat())),
                    b"",
                );
                ok_in(&name, &ours);
                assert!(
                    ours.stdout == theirs.stdout,
                    "{name} -d {flag}: {:?} vs {:?}",
                    String::from_utf8_lossy(&ours.stdout),
                    String::from_utf8_lossy(&theirs.stdout)
                );
            }
        }
    }
    // -p with a binary header on stdout: header, lines, ciphertext, as openssl.
    let case = Case::new("aes-128-cbc", Some(1));
    let ours = parcrypt(&strs(&case.parcrypt(false, &["-p"])), b"hello");
    ok_in("-p header", &ours);
    let text = String::from_utf8_lossy(&ours.stdout[16..]).into_owned();
    assert!(ours.stdout.starts_with(b"Salted__"));
    let salt = hex::encode_upper(&ours.stdout[8..16]);
    assert!(text.starts_with(&format!("salt={salt}\nkey=")), "{text}");
    // -p with -a: the lines, then the base64 (header included).
    let b64 = Case { base64: true, ..case };
    let ours = parcrypt(&strs(&b64.parcrypt(false, &["-p"])), b"hello");
    let text = String::from_utf8(ours.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("salt=") && lines[1].starts_with("key=") && lines[2].starts_with("iv ="),
        "{text}"
    );
    assert!(lines[3].starts_with("U2FsdGVkX1"), "{text}");
}

#[test]
fn files_pipes_and_every_schedule() {
    if !require_tool("openssl") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("plain");
    let theirs = dir.path().join("theirs");
    let ours = dir.path().join("ours");
    let back = dir.path().join("back");
    // Longer than one 8 MiB buffer: the file is read by every thread from past the header.
    let input = data((9 << 20) + 5);
    std::fs::write(&plain, &input).unwrap();
    for cipher in ["aes-256-cbc", "aes-128-ctr", "aes-256-ecb"] {
        let case = Case::new(cipher, Some(1));
        let made = openssl_enc(
            &strs(&case.openssl(false, &["-in", p(&plain), "-out", p(&theirs)])),
            b"",
        );
        assert!(made.status.success());
        for schedule in [
            &["--threads", "2"][..],
            &["--strategy", "seq"],
            &["--threads", "3", "--strategy", "static"],
        ] {
            let name = format!("{cipher} {schedule:?}");
            let with = |extra: &[&str]| -> Vec<String> {
                let mut a: Vec<String> = schedule.iter().map(|s| (*s).to_owned()).collect();
                a.extend(case.parcrypt(true, extra));
                a
            };
            // -i FILE -o FILE.
            let out = parcrypt(&strs(&with(&["-i", p(&theirs), "-o", p(&back)])), b"");
            ok_in(&name, &out);
            assert!(std::fs::read(&back).unwrap() == input, "{name} -i -o");
            // stdin redirected from the file (read like -i FILE), and a pipe.
            let args = with(&[]);
            let redirected = Command::new(bin())
                .args(strs(&args))
                .stdin(std::fs::File::open(&theirs).unwrap())
                .output()
                .unwrap();
            ok_in(&name, &redirected);
            assert!(redirected.stdout == input, "{name} < file");
            let piped = parcrypt(&strs(&args), &std::fs::read(&theirs).unwrap());
            ok_in(&name, &piped);
            assert!(piped.stdout == input, "{name} pipe");
        }
        // parcrypt -i -o, openssl decrypts; the same bytes under openssl's salt.
        let salt = hex::encode(&std::fs::read(&theirs).unwrap()[8..16]);
        let out = parcrypt(
            &strs(&case.parcrypt(false, &["-S", &salt, "-i", p(&plain), "-o", p(&ours)])),
            b"",
        );
        ok_in(cipher, &out);
        assert!(
            std::fs::read(&ours).unwrap() == std::fs::read(&theirs).unwrap()[16..],
            "{cipher} file"
        );
        let out = parcrypt(
            &strs(&case.parcrypt(false, &["-i", p(&plain), "-o", p(&ours)])),
            b"",
        );
        ok_in(cipher, &out);
        let dec = openssl_enc(
            &strs(&case.openssl(true, &["-in", p(&ours), "-out", p(&back)])),
            b"",
        );
        assert!(dec.status.success());
        assert!(
            std::fs::read(&back).unwrap() == input,
            "{cipher} openssl reads ours"
        );
    }
}

/// A wrong password: CBC's padding check fails (openssl's "bad decrypt"),
/// exit 1, no file; CTR cannot tell and gives garbage, as openssl does.
#[test]
fn wrong_password() {
    if !require_tool("openssl") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("out");
    let case = Case::new("aes-256-cbc", Some(1));
    let ct = openssl_enc(&strs(&case.openssl(false, &["-S", SALT])), &data(100_000)).stdout;
    for wrong in ["pass:wrong", "pass:Correct horse battery staple", "pass:"] {
        // openssl fails on these too (so the padding check is not passed by chance).
        let theirs = openssl_enc(
            &[
                "-d",
                "-aes-256-cbc",
                "-pbkdf2",
                "-iter",
                "1",
                "-S",
                SALT,
                "-pass",
                wrong,
            ],
            &ct,
        );
        assert!(!theirs.status.success(), "{wrong}");
        assert!(stderr(&theirs).contains("bad decrypt"));
        let args = [
            "aes",
            "decrypt",
            "--cipher",
            "aes-256-cbc",
            "--pbkdf2",
            "--iter",
            "1",
            "-S",
            SALT,
            "--pass",
            wrong,
            "-o",
            p(&out_path),
        ];
        let ours = parcrypt(&args, &ct);
        fails_in(wrong, &ours, 1, "bad decrypt");
        assert!(stderr(&ours).contains("wrong password"), "{}", stderr(&ours));
        assert!(!out_path.exists(), "{wrong}: output left behind");
        assert_eq!(crate::common::entries(dir.path()), Vec::<String>::new());
    }
    // CTR: garbage of the right length, exit 0 (no way to tell).
    let case = Case::new("aes-128-ctr", Some(1));
    let ct = openssl_enc(&strs(&case.openssl(false, &[])), b"attack at dawn").stdout;
    let out = parcrypt(
        &[
            "aes",
            "decrypt",
            "--cipher",
            "aes-128-ctr",
            "--pbkdf2",
            "--iter",
            "1",
            "--pass",
            "pass:wrong",
        ],
        &ct,
    );
    ok_in("ctr", &out);
    assert_eq!(out.stdout.len(), 14);
    assert_ne!(out.stdout, b"attack at dawn");
}

#[test]
fn hostile_input_fails_cleanly_and_leaves_nothing() {
    if !require_tool("openssl") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("out");
    let input = dir.path().join("in");
    let case = Case::new("aes-256-cbc", Some(1));
    let good = openssl_enc(&strs(&case.openssl(false, &[])), &data(1000)).stdout;
    let cases: Vec<(&str, Vec<u8>, Vec<&str>, &str)> = vec![
        (
            "empty",
            vec![],
            vec![],
            "too short for the `Salted__` header (0 of its 16 bytes)",
        ),
        ("magic only", good[..8].to_vec(), vec![], "(8 of its 16 bytes)"),
        ("15 bytes", good[..15].to_vec(), vec![], "(15 of its 16 bytes)"),
        (
            "bad magic",
            [&b"Salted_!"[..], &good[8..]].concat(),
            vec![],
            "bad magic number",
        ),
        ("not openssl", data(1000), vec![], "bad magic number"),
        (
            "truncated ciphertext",
            good[..good.len() - 5].to_vec(),
            vec![],
            "not a whole number of 16-byte blocks",
        ),
        ("header only", good[..16].to_vec(), vec![], "bad decrypt"),
        (
            "base64 garbage",
            b"!!!! this is not base64 @@@@\n".to_vec(),
            vec!["-a"],
            "not valid base64",
        ),
        (
            "base64 of garbage after the header",
            [&b"U2FsdGVkX18BAgMEBQYHCA==\n"[..], b"QUJD"].concat(),
            vec!["-a"],
            "not valid base64",
        ),
        (
            "base64 cut short",
            b"U2FsdGVkX18BAgMEBQYHCAAA\nAB".to_vec(),
            vec!["-a"],
            "not valid base64",
        ),
        ("binary as base64", good.clone(), vec!["-a"], "not valid base64"),
    ];
    for (name, bytes, extra, needle) in &cases {
        std::fs::write(&input, bytes).unwrap();
        for through_file in [true, false] {
            let mut args = case.parcrypt(true, extra);
            args.extend(["-o".into(), p(&out_path).to_owned()]);
            let out = if through_file {
                args.extend(["-i".into(), p(&input).to_owned()]);
                parcrypt(&strs(&args), b"")
            } else {
                parcrypt(&strs(&args), bytes)
            };
            let name = format!("{name} file {through_file}");
            fails_with_no_output_in(&name, &out, 1, needle);
            assert!(
                !stderr(&out).contains(PASSWORD),
                "{name}: the password was printed"
            );
            assert!(!out_path.exists(), "{name}: output left behind");
        }
    }
    // A missing input file, a missing password file, an unset variable, an empty password file.
    let missing = dir.path().join("nope");
    let empty = dir.path().join("empty");
    std::fs::write(&empty, b"").unwrap();
    let file_pass = format!("file:{}", p(&missing));
    let empty_pass = format!("file:{}", p(&empty));
    let base = [
        "aes",
        "decrypt",
        "--cipher",
        "aes-128-cbc",
        "--pbkdf2",
        "-o",
        p(&out_path),
    ];
    for (name, extra, needle) in [
        (
            "missing input",
            vec!["--pass", "pass:x", "-i", p(&missing)],
            "cannot open input",
        ),
        (
            "missing password file",
            vec!["--pass", &file_pass, "-i", p(&input)],
            "cannot open the password file",
        ),
        (
            "unset variable",
            vec!["--pass", "env:PARCRYPT_TEST_NO_SUCH_VARIABLE", "-i", p(&input)],
            "no environment variable",
        ),
        (
            "empty password file",
            vec!["--pass", &empty_pass, "-i", p(&input)],
            "no password in",
        ),
    ] {
        let out = parcrypt(&[&base[..], &extra].concat(), b"");
        fails_with_no_output_in(name, &out, 1, needle);
        assert!(!out_path.exists(), "{name}");
    }
    assert_eq!(crate::common::entries(dir.path()), ["empty", "in"]);
}

#[test]
fn absurd_and_conflicting_flags_are_usage_errors() {
    let enc = ["aes", "encrypt", "--cipher", "aes-256-cbc", "--pass", "pass:x"];
    for (extra, needle) in [
        (&["--iter", "0"][..], "--iter"),
        (&["--iter", "-1"], ""),
        (&["--iter", "2147483648"], "--iter"),
        (&["--iter", "99999999999999999999"], "--iter"),
        (&["--iter", "lots"], "--iter"),
        (&["--md", "sha3-256"], "--md"),
        (&["-S", "0102zz"], "not a salt"),
        (&["-S", "zz02030405060708"], "not a salt"),
        (&["-S", SALT, "--nosalt"], "--nosalt"),
        (&["-A"], "--base64"),
        (&["-p", "-P"], "--print-key"),
        (&["--key", "00112233445566778899aabbccddeeff"], "--key"),
    ] {
        let out = parcrypt(&[&enc[..], extra].concat(), b"");
        usage_in(&format!("{extra:?}"), &out, needle);
    }
    for (args, needle) in [
        (
            &["aes", "encrypt", "--cipher", "aes-256-gcm", "--pass", "pass:x"][..],
            "AEAD",
        ),
        (
            &["aes", "encrypt", "--cipher", "id-aes128-GCM", "--pass", "pass:x"],
            "AEAD",
        ),
        (
            &["aes", "encrypt", "--cipher", "aes-256-cfb", "--pass", "pass:x"],
            "not one of parcrypt's ciphers",
        ),
        (
            &["aes", "encrypt", "--cipher", "aes-512-cbc", "--pass", "pass:x"],
            "not one of parcrypt's ciphers",
        ),
        (
            &["aes", "encrypt", "--mode", "cbc", "--pass", "pass:x"],
            "--cipher",
        ),
        (
            &["aes", "encrypt", "--mode", "gcm", "--pass", "pass:x"],
            "needs --key",
        ),
        (
            &[
                "aes",
                "encrypt",
                "--cipher",
                "aes-128-cbc",
                "--mode",
                "cbc",
                "--pass",
                "pass:x",
            ],
            "--mode",
        ),
        (
            &[
                "aes",
                "encrypt",
                "--cipher",
                "aes-128-cbc",
                "--key",
                "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff",
                "--iv",
                "00112233445566778899aabbccddeeff",
            ],
            "aes-128-cbc takes 16",
        ),
        (
            &["aes", "encrypt", "--cipher", "aes-128-cbc", "--pass", "stdin"],
            "standard input",
        ),
        (
            &["aes", "encrypt", "--cipher", "aes-128-cbc", "--pass", "hunter2"],
            "takes a password source, not a password",
        ),
        (
            &["aes", "encrypt", "--cipher", "aes-128-cbc", "--pass", "fd:three"],
            "takes a password source",
        ),
        (
            &[
                "aes",
                "encrypt",
                "--cipher",
                "aes-128-ecb",
                "--pass",
                "pass:x",
                "--iv",
                "00112233445566778899aabbccddeeff",
            ],
            "takes no --iv",
        ),
    ] {
        let out = parcrypt(args, b"");
        usage_in(&format!("{args:?}"), &out, needle);
        assert!(!stderr(&out).contains("hunter2"), "the refused --pass was echoed");
    }
    if require_tool("openssl") {
        // openssl refuses AEAD ciphers too.
        let theirs = openssl_enc(&["-aes-256-gcm", "-pass", "pass:x", "-pbkdf2"], b"");
        assert!(!theirs.status.success() && stderr(&theirs).contains("AEAD"));
    }
}

#[test]
fn warnings_for_the_legacy_derivation_and_pass_text() {
    let plain = b"hi";
    let legacy = parcrypt(
        &[
            "aes",
            "encrypt",
            "--cipher",
            "aes-128-cbc",
            "--pass",
            "env:PARCRYPT_TEST_PW",
        ],
        plain,
    );
    // Unset variable: an error, before any warning about the derivation.
    fails_with_no_output_in("unset", &legacy, 1, "no environment variable PARCRYPT_TEST_PW");
    let with_env = |args: &[&str]| {
        run(
            Command::new(bin()).args(args).env("PARCRYPT_TEST_PW", PASSWORD),
            plain,
        )
    };
    let out = with_env(&[
        "aes",
        "encrypt",
        "--cipher",
        "aes-128-cbc",
        "--pass",
        "env:PARCRYPT_TEST_PW",
    ]);
    ok_in("legacy", &out);
    assert!(
        stderr(&out).contains("deprecated key derivation used"),
        "{}",
        stderr(&out)
    );
    assert!(!stderr(&out).contains("pass:"), "{}", stderr(&out));
    let out = with_env(&[
        "aes",
        "encrypt",
        "--cipher",
        "aes-128-cbc",
        "--pbkdf2",
        "--pass",
        "env:PARCRYPT_TEST_PW",
    ]);
    ok_in("pbkdf2", &out);
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
    let out = parcrypt(
        &[
            "aes",
            "encrypt",
            "--cipher",
            "aes-128-cbc",
            "--pbkdf2",
            "--pass",
            &format!("pass:{PASSWORD}"),
        ],
        plain,
    );
    ok_in("pass:", &out);
    assert!(stderr(&out).contains("/proc/PID/cmdline"), "{}", stderr(&out));
    assert!(!stderr(&out).contains(PASSWORD));
}

/// Every `--pass` form reads what openssl's does: the same bytes come out.
#[test]
fn password_sources_read_as_openssl_reads_them() {
    if !require_tool("openssl") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("plain");
    std::fs::write(&plain, data(100)).unwrap();
    let long = "y".repeat(1500);
    for (what, content) in [
        ("one line", format!("{PASSWORD}\n")),
        ("no newline", PASSWORD.to_owned()),
        ("two lines", format!("{PASSWORD}\nsecond line\n")),
        ("CRLF", format!("{PASSWORD}\r\n")),
        ("longer than openssl reads", format!("{long}\n")),
        ("empty first line", "\nsecond\n".to_owned()),
    ] {
        let pw = dir.path().join("pw");
        std::fs::write(&pw, &content).unwrap();
        let common = ["-aes-256-cbc", "-pbkdf2", "-iter", "1", "-S", SALT];
        let file_pass = format!("file:{}", p(&pw));
        let theirs = openssl_enc(
            &[&common[..], &["-pass", &file_pass, "-in", p(&plain)]].concat(),
            b"",
        );
        assert!(theirs.status.success(), "{what}: {}", stderr(&theirs));
        let ours_args = |pass: &str| -> Vec<String> {
            [
                "aes",
                "encrypt",
                "--cipher",
                "aes-256-cbc",
                "--pbkdf2",
                "--iter",
                "1",
                "-S",
                SALT,
                "--pass",
                pass,
                "-i",
                p(&plain),
            ]
            .iter()
            .map(|s| (*s).to_owned())
            .collect()
        };
        let from_file = parcrypt(&strs(&ours_args(&file_pass)), b"");
        ok_in(what, &from_file);
        assert!(from_file.stdout == theirs.stdout, "{what}: file:");
        let from_stdin = run(
            Command::new(bin()).args(strs(&ours_args("stdin"))),
            content.as_bytes(),
        );
        ok_in(what, &from_stdin);
        assert!(from_stdin.stdout == theirs.stdout, "{what}: stdin");
        let script = format!("exec \"$0\" \"$@\" 3< '{}'", p(&pw));
        let from_fd = run(
            Command::new("sh")
                .arg("-c")
                .arg(&script)
                .arg(bin())
                .args(strs(&ours_args("fd:3"))),
            b"",
        );
        ok_in(what, &from_fd);
        assert!(from_fd.stdout == theirs.stdout, "{what}: fd:3");
    }
    // env: and pass: take the whole value.
    let theirs = openssl_enc(
        &[
            "-aes-128-ctr",
            "-pbkdf2",
            "-S",
            SALT,
            "-pass",
            &format!("pass:{PASSWORD}"),
        ],
        b"data",
    );
    let ours = run(
        Command::new(bin())
            .args([
                "aes",
                "encrypt",
                "--cipher",
                "aes-128-ctr",
                "--pbkdf2",
                "-S",
                SALT,
                "--pass",
                "env:PW",
            ])
            .env("PW", PASSWORD),
        b"data",
    );
    ok_in("env", &ours);
    assert!(ours.stdout == theirs.stdout);
    let missing_fd = parcrypt(
        &["aes", "encrypt", "--cipher", "aes-128-ctr", "--pass", "fd:9"],
        b"",
    );
    fails_with_no_output_in("fd:9", &missing_fd, 1, "descriptor 9");
}

/// The password never reaches stdout, stderr or the process's command
/// line when given by file, env or fd.
#[test]
fn passwords_stay_out_of_sight() {
    let dir = tempfile::tempdir().unwrap();
    let pw = dir.path().join("pw");
    let secret = "s3cr3t-pa55phrase-zz";
    std::fs::write(&pw, format!("{secret}\n")).unwrap();
    let file_pass = format!("file:{}", p(&pw));
    // A run held open on its input, to look at /proc/PID/cmdline.
    let mut child = Command::new(bin())
        .args([
            "aes",
            "encrypt",
            "--cipher",
            "aes-256-ctr",
            "--pbkdf2",
            "--pass",
            &file_pass,
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let cmdline = std::fs::read(format!("/proc/{}/cmdline", child.id())).unwrap_or_default();
    assert!(!String::from_utf8_lossy(&cmdline).contains(secret));
    drop(child.stdin.take());
    let out = child.wait_with_output().unwrap();
    ok_in("held", &out);
    // Failures (bad decrypt, bad header, bad base64) print no password.
    for (input, extra) in [
        (data(64), &[][..]),
        ([&b"Salted__"[..], &data(40)].concat(), &[][..]),
        (b"@@@".to_vec(), &["-a"][..]),
    ] {
        let args = [
            &[
                "aes",
                "decrypt",
                "--cipher",
                "aes-256-cbc",
                "--pbkdf2",
                "-p",
                "--pass",
                &file_pass,
            ][..],
            extra,
        ]
        .concat();
        let out = parcrypt(&args, &input);
        assert!(!out.status.success());
        assert!(!String::from_utf8_lossy(&out.stderr).contains(secret));
        assert!(!String::from_utf8_lossy(&out.stdout).contains(secret));
    }
}

/// A raw key under openssl's cipher name, with base64: `openssl enc
/// -aes-256-ctr -K … -iv … -a`. And a password with an explicit IV, which
/// replaces the derived one (openssl's -iv).
#[test]
fn raw_keys_by_cipher_name_and_a_given_iv() {
    if !require_tool("openssl") {
        return;
    }
    let key = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
    let iv = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";
    for flags in [&[][..], &["-a"], &["-a", "-A"]] {
        let theirs = openssl_enc(
            &[&["-aes-256-ctr", "-K", key, "-iv", iv][..], flags].concat(),
            &data(200),
        );
        let ours = parcrypt(
            &[
                &[
                    "aes",
                    "encrypt",
                    "--cipher",
                    "aes-256-ctr",
                    "--key",
                    key,
                    "--iv",
                    iv,
                ][..],
                flags,
            ]
            .concat(),
            &data(200),
        );
        ok_in("raw", &ours);
        assert!(ours.stdout == theirs.stdout, "{flags:?}");
        let back = parcrypt(
            &[
                &[
                    "aes",
                    "decrypt",
                    "--cipher",
                    "AES-256-CTR",
                    "--key",
                    key,
                    "--iv",
                    iv,
                ][..],
                flags,
            ]
            .concat(),
            &theirs.stdout,
        );
        ok_in("raw back", &back);
        assert!(back.stdout == data(200));
    }
    let theirs = openssl_enc(
        &[
            "-aes-128-cbc",
            "-pbkdf2",
            "-pass",
            "pass:x",
            "-S",
            SALT,
            "-iv",
            iv,
            "-p",
        ],
        &data(50),
    );
    let ours = parcrypt(
        &[
            "aes",
            "encrypt",
            "--cipher",
            "aes-128-cbc",
            "--pbkdf2",
            "--pass",
            "pass:x",
            "-S",
            SALT,
            "--iv",
            iv,
            "-p",
        ],
        &data(50),
    );
    ok_in("--iv", &ours);
    assert!(ours.stdout == theirs.stdout);
}

const PTY_DRIVE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/tools/pty_drive.py");

/// Runs parcrypt on a new pseudo-terminal (its controlling terminal),
/// answering `dialogue`'s prompts there; returns its result and what it
/// wrote to the terminal.
pub(crate) fn on_pty(dialogue: &[(&str, &str)], args: &[&str], stdin: &[u8]) -> (Output, String) {
    let transcript = tempfile::NamedTempFile::new().unwrap();
    let mut cmd = Command::new("python3");
    cmd.arg(PTY_DRIVE).arg(transcript.path());
    for (expect, send) in dialogue {
        cmd.args([expect, send]);
    }
    cmd.arg("--").arg(bin()).args(args);
    let out = run(&mut cmd, stdin);
    let text = String::from_utf8_lossy(&std::fs::read(transcript.path()).unwrap()).into_owned();
    (out, text)
}

pub(crate) fn pty_present() -> bool {
    Command::new("python3")
        .args(["-c", "import pty, termios, fcntl; pty.openpty()"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// No --pass: the password is asked on the terminal as openssl asks it
/// (twice to encrypt), never echoed, and gives openssl's bytes.
#[test]
fn without_pass_the_password_is_asked_on_the_terminal() {
    if !require_tool("openssl") || !crate::common::require("python3 pty", pty_present()) {
        return;
    }
    let secret = "typed-on-the-terminal";
    let args = [
        "aes",
        "encrypt",
        "--cipher",
        "aes-256-cbc",
        "--pbkdf2",
        "-S",
        SALT,
    ];
    let (out, tty) = on_pty(
        &[
            ("enter AES-256-CBC encryption password:", &format!("{secret}\n")),
            (
                "Verifying - enter AES-256-CBC encryption password:",
                &format!("{secret}\n"),
            ),
        ],
        &args,
        &data(100),
    );
    ok_in("encrypt", &out);
    assert!(!tty.contains(secret), "the password was echoed: {tty:?}");
    let theirs = openssl_enc(
        &[
            "-aes-256-cbc",
            "-pbkdf2",
            "-S",
            SALT,
            "-pass",
            &format!("pass:{secret}"),
        ],
        &data(100),
    );
    assert!(out.stdout == theirs.stdout);
    let (out, _) = on_pty(
        &[("enter AES-256-CBC decryption password:", &format!("{secret}\n"))],
        &[
            "aes",
            "decrypt",
            "--cipher",
            "aes-256-cbc",
            "--pbkdf2",
            "-S",
            SALT,
        ],
        &theirs.stdout,
    );
    ok_in("decrypt", &out);
    assert!(out.stdout == data(100));
    // Two different answers: refused, nothing written.
    let (out, _) = on_pty(
        &[("encryption password:", "one\n"), ("Verifying - enter", "two\n")],
        &args,
        b"data",
    );
    fails_with_no_output_in("verify", &out, 1, "the passwords differ");
}
