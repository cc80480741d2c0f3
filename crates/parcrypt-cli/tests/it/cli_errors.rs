//! Bad input gets a clear `parcrypt:` error, the documented exit status, and
//! loses nothing: no output file appears, an existing one is left untouched,
//! and no temporary file stays behind.

#![allow(clippy::unwrap_used)]

use std::path::Path;
use std::process::{Command, Stdio};

use crate::common::{bin, data, entries, fails_in, ok, ok_in, parcrypt, stderr, usage_in};

const K: &str = "000102030405060708090a0b0c0d0e0f";
const IV: &str = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

/// `parcrypt aes encrypt --mode ctr … -o path` on `input`.
fn ctr_to(path: &Path, input: &[u8]) -> std::process::Output {
    parcrypt(
        &[
            "aes",
            "encrypt",
            "--mode",
            "ctr",
            "--key",
            K,
            "--iv",
            IV,
            "-o",
            path.to_str().unwrap(),
        ],
        input,
    )
}

#[test]
fn usage_errors_exit_2_with_a_hint() {
    let enc = |extra: &[&'static str]| {
        let mut a = vec!["aes", "encrypt", "--mode", "cbc"];
        a.extend_from_slice(extra);
        a
    };
    let cases: [(Vec<&str>, &str); 8] = [
        (
            enc(&["--key", "00112233445566778899aabbccddee", "--iv", IV]),
            "AES keys are 16, 24 or 32",
        ),
        (enc(&["--key", "zz", "--iv", IV]), "not valid hex"),
        (enc(&["--key", K, "--iv", "xyz"]), "not valid hex"),
        (enc(&["--key", K, "--iv", "0011"]), "it must be 16"),
        (enc(&["--key", K]), "needs --iv"),
        (vec!["aes", "encrypt", "--mode", "ctr", "--key", K], "needs --iv"),
        (
            vec!["aes", "encrypt", "--mode", "ecb", "--key", K, "--iv", IV],
            "takes no --iv",
        ),
        (
            vec![
                "aes", "encrypt", "--mode", "ctr", "--key", K, "--iv", IV, "--no-pad",
            ],
            "--no-pad",
        ),
    ];
    for (args, needle) in cases {
        usage_in(&format!("{args:?}"), &parcrypt(&args, b"hello"), needle);
    }
    for args in [&enc(&["--key", "zz", "--iv", IV])[..], &enc(&["--key", K])[..]] {
        assert!(stderr(&parcrypt(args, b"")).contains("\n  hint: "), "{args:?}");
    }
}

#[test]
fn argument_parsing_errors_exit_2() {
    for args in [
        &["aes"][..],
        &["aes", "encrypt", "--mode", "gcm", "--key", K],
        &[
            "--strategy",
            "fastest",
            "aes",
            "encrypt",
            "--mode",
            "ctr",
            "--key",
            K,
            "--iv",
            IV,
        ],
        &[
            "--threads",
            "1025",
            "aes",
            "encrypt",
            "--mode",
            "ctr",
            "--key",
            K,
            "--iv",
            IV,
        ],
        &["frobnicate"],
    ] {
        let out = parcrypt(args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).starts_with("parcrypt: ") || args == ["aes"],
            "{args:?}: {}",
            stderr(&out)
        );
    }
    let help = parcrypt(&["--help"], b"");
    assert_eq!(help.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&help.stdout).contains("aes"));
}

/// A row of [`bad_ciphertext_leaves_nothing_behind`]: its name, the command,
/// its input, what stderr must hold, and what a file at `-o` held before.
type Failure<'a> = (&'a str, &'a [&'a str], &'a [u8], &'a str, Option<&'a [u8]>);

/// Runs a command that must fail with exit 1 and writes `-o dir/out`, where
/// `out` may already exist; checks nothing was created or changed.
fn assert_fails_cleanly(case: &str, args: &[&str], input: &[u8], needle: &str, existing: Option<&[u8]>) {
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("out");
    if let Some(old) = existing {
        std::fs::write(&out_path, old).unwrap();
    }
    let before = entries(dir.path());
    let mut full: Vec<&str> = args.to_vec();
    let out_str = out_path.to_str().unwrap().to_owned();
    full.extend(["-o", &out_str]);
    let out = parcrypt(&full, input);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{case}: {err}");
    assert!(
        err.starts_with("parcrypt: ") && err.contains(needle),
        "{case}: expected {needle:?} in {err}"
    );
    assert!(!err.contains("panicked"), "{case}: {err}");
    assert_eq!(entries(dir.path()), before, "{case}: files appeared or vanished");
    match existing {
        Some(old) => assert_eq!(
            std::fs::read(&out_path).unwrap(),
            old,
            "{case}: existing output changed"
        ),
        None => assert!(!out_path.exists(), "{case}: output left behind"),
    }
}

#[test]
fn bad_ciphertext_leaves_nothing_behind() {
    let cbc_enc = ["aes", "encrypt", "--mode", "cbc", "--key", K, "--iv", IV];
    let cbc_dec = ["aes", "decrypt", "--mode", "cbc", "--key", K, "--iv", IV];
    let ecb_dec = ["aes", "decrypt", "--mode", "ecb", "--key", K];
    // Wrong key: almost surely bad padding too.
    let wrong_dec = [
        "aes",
        "decrypt",
        "--mode",
        "cbc",
        "--key",
        "ff0102030405060708090a0b0c0d0e0f",
        "--iv",
        IV,
    ];
    let no_pad_enc = [
        "aes", "encrypt", "--mode", "cbc", "--no-pad", "--key", K, "--iv", IV,
    ];
    // Bad padding: a short input and one longer than the 8 MiB buffer, so
    // megabytes of plaintext were already written to the temporary file.
    let sealed = |len: usize| ok(&parcrypt(&cbc_enc, &data(len))).stdout.clone();
    let flip_last = |mut ct: Vec<u8>| {
        let last = ct.len() - 1;
        ct[last] ^= 0x55;
        ct
    };
    let (short, long) = (sealed(100), sealed((9 << 20) + 3));
    let (short_bad, long_bad) = (flip_last(short.clone()), flip_last(long.clone()));
    let keep: Option<&[u8]> = Some(b"keep me");
    let old: Option<&[u8]> = Some(b"old contents");
    // (name, command, input, wanted on stderr, a file already at `-o`)
    let cases: [Failure; 12] = [
        (
            "cbc, 33 bytes",
            &cbc_dec,
            &data(33),
            "not a whole number of 16-byte blocks",
            None,
        ),
        (
            "cbc, 33 bytes, existing",
            &cbc_dec,
            &data(33),
            "not a whole number of 16-byte blocks",
            keep,
        ),
        ("ecb, 17 bytes", &ecb_dec, &data(17), "not a whole number", None),
        (
            "ecb, 17 bytes, existing",
            &ecb_dec,
            &data(17),
            "not a whole number",
            keep,
        ),
        ("short, bad padding", &cbc_dec, &short_bad, "bad decrypt", None),
        (
            "short, bad padding, existing",
            &cbc_dec,
            &short_bad,
            "bad decrypt",
            old,
        ),
        ("short, wrong key", &wrong_dec, &short, "bad decrypt", None),
        ("long, bad padding", &cbc_dec, &long_bad, "bad decrypt", None),
        (
            "long, bad padding, existing",
            &cbc_dec,
            &long_bad,
            "bad decrypt",
            old,
        ),
        ("long, wrong key", &wrong_dec, &long, "bad decrypt", None),
        // Empty ciphertext has no padding block.
        ("empty", &cbc_dec, b"", "bad decrypt", None),
        // --no-pad on input that is not whole blocks.
        (
            "--no-pad, 20 bytes",
            &no_pad_enc,
            &data(20),
            "not a whole number",
            None,
        ),
    ];
    for (case, args, input, needle, existing) in cases {
        assert_fails_cleanly(case, args, input, needle, existing);
    }
}

#[test]
fn missing_input_and_unusable_output() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nope.bin");
    assert_fails_cleanly(
        "missing input",
        &[
            "aes",
            "encrypt",
            "--mode",
            "ctr",
            "--key",
            K,
            "--iv",
            IV,
            "-i",
            missing.to_str().unwrap(),
        ],
        b"",
        "cannot open input",
        None,
    );
    let unusable = [
        (
            "no such directory",
            dir.path().join("no/such/dir/out"),
            "cannot create output",
        ),
        ("a directory", dir.path().to_owned(), "is a directory"),
    ];
    for (case, path, needle) in unusable {
        fails_in(case, &ctr_to(&path, &data(100)), 1, needle);
    }
    assert!(entries(dir.path()).is_empty(), "{:?}", entries(dir.path()));
}

#[test]
fn a_full_disk_is_an_error_not_a_panic() {
    if !crate::common::require_tool("/dev/full") {
        return;
    }
    let out = Command::new(bin())
        .args(["aes", "encrypt", "--mode", "ctr", "--key", K, "--iv", IV])
        .stdin(Stdio::piped())
        .stdout(std::fs::File::create("/dev/full").unwrap())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            let _ = c.stdin.take().unwrap().write_all(&data(1 << 20));
            c.wait_with_output()
        })
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.starts_with("parcrypt: ") && !err.contains("panicked"),
        "{err}"
    );
    // And as -o: a device is written directly, never replaced by a file.
    let out = parcrypt(
        &[
            "aes",
            "encrypt",
            "--mode",
            "ctr",
            "--key",
            K,
            "--iv",
            IV,
            "-o",
            "/dev/full",
        ],
        &data(1000),
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(!std::fs::metadata("/dev/full").unwrap().file_type().is_file());
}

#[test]
fn success_replaces_an_existing_file_atomically() {
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("out");
    std::fs::write(&out_path, b"previous").unwrap();
    let out = ctr_to(&out_path, &data(5000));
    assert!(out.status.success());
    assert_eq!(std::fs::read(&out_path).unwrap().len(), 5000);
    assert_eq!(entries(dir.path()), vec!["out".to_owned()]);
}

#[cfg(unix)]
#[test]
fn fifos_and_symlinks_are_not_replaced() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    // A symbolic link: the file it points to is replaced, the link stays.
    let target = dir.path().join("real.bin");
    let link = dir.path().join("link.bin");
    std::fs::write(&target, b"old").unwrap();
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let out = ctr_to(&link, &data(777));
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read(&target).unwrap().len(), 777);

    // A FIFO is written through and stays a FIFO.
    let fifo = dir.path().join("pipe");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    if !crate::common::require("mkfifo", made) {
        return;
    }
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).unwrap())
    };
    let out = ctr_to(&fifo, &data(3000));
    assert!(out.status.success(), "{}", stderr(&out));
    let through = reader.join().unwrap();
    let direct = parcrypt(
        &["aes", "encrypt", "--mode", "ctr", "--key", K, "--iv", IV],
        &data(3000),
    );
    assert_eq!(through, direct.stdout);
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
}

#[test]
fn a_closed_pipe_is_not_a_crash() {
    use std::io::{Read, Write};
    let mut child = Command::new(bin())
        .args(["aes", "encrypt", "--mode", "ctr", "--key", K, "--iv", IV])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&data(32 << 20));
    });
    let mut first = [0u8; 10];
    // Then the pipe closes. If the output ends first, say how the child ended.
    let read = child.stdout.take().unwrap().read_exact(&mut first);
    let out = child.wait_with_output().unwrap();
    assert!(
        read.is_ok(),
        "no first 10 bytes ({read:?}): the child ended {:?}, stderr: {}",
        out.status,
        stderr(&out)
    );
    feeder.join().unwrap();
    let err = stderr(&out);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(out.status.code(), Some(0), "{err}");
}

#[test]
fn hazardous_modes_warn_but_work() {
    // Each hazardous mode says so in one warning line; safe modes are quiet.
    let cases: [(&str, &[&str], Option<&str>, usize); 3] = [
        (
            "ecb",
            &["aes", "encrypt", "--mode", "ecb", "--key", K],
            Some("parcrypt: warning: ECB"),
            48,
        ),
        (
            "cbc --no-pad",
            &[
                "aes", "encrypt", "--mode", "cbc", "--no-pad", "--key", K, "--iv", IV,
            ],
            Some("parcrypt: warning: --no-pad"),
            32,
        ),
        (
            "cbc",
            &["aes", "encrypt", "--mode", "cbc", "--key", K, "--iv", IV],
            None,
            48,
        ),
    ];
    for (case, args, warning, len) in cases {
        let out = parcrypt(args, &data(32));
        let err = stderr(ok_in(case, &out));
        match warning {
            Some(warning) => {
                assert!(err.starts_with(warning), "{case}: {err}");
                assert_eq!(err.lines().count(), 1, "{case}: {err}");
            }
            None => assert!(err.is_empty(), "{case}: {err}"),
        }
        assert_eq!(out.stdout.len(), len, "{case}");
    }
}

/// `--strategy` and `--scheme` are parsed into the library's own enums; the
/// spellings and the help lines stay the CLI's, and `steal` is described as
/// what it is (dynamic hand-out of tasks), not as a work-stealing pool.
#[test]
fn library_enums_keep_their_cli_spellings_and_help() {
    let help = parcrypt(&["--help"], b"");
    assert_eq!(help.status.code(), Some(0));
    let help = String::from_utf8(help.stdout).unwrap();
    assert!(
        help.contains("- seq:    One thread: the reference implementation"),
        "{help}"
    );
    assert!(
        help.contains("- steal:  Fixed-size tasks, each thread taking the next"),
        "{help}"
    );
    assert!(!help.contains("work-stealing pool"), "{help}");
    assert!(help.contains("[default: steal]"), "{help}");
    let sign = String::from_utf8(parcrypt(&["rsa", "sign", "--help"], b"").stdout).unwrap();
    assert!(
        sign.contains("- pkcs1: RSASSA-PKCS1-v1_5 (openssl dgst's default)"),
        "{sign}"
    );
    assert!(sign.contains("[default: pss]"), "{sign}");
    for (args, needle) in [
        (
            &["--strategy", "sequential", "hash", "-"][..],
            "[possible values: seq, static, steal]",
        ),
        (
            &["rsa", "sign", "--scheme", "pkcs1v15", "--key", "k"],
            "[possible values: pss, pkcs1]",
        ),
    ] {
        let out = parcrypt(args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(needle), "{args:?}: {}", stderr(&out));
    }
    for strategy in ["seq", "static", "steal"] {
        let out = parcrypt(&["--strategy", strategy, "hash", "-"], b"abc");
        assert_eq!(out.status.code(), Some(0), "{strategy}: {}", stderr(&out));
    }
}

// ---------------------------------------------------------------------------
// `completions` and `man` (issue 15, item 11): the real binary, since what is
// checked is that they write through the CLI's one output writer. (A closed
// or full standard output for them is in `hostile`, with every command.)

/// `man --out DIR` creates DIR and writes every page there, printing nothing
/// on stdout; a DIR that is a file is refused with a hint and left alone.
#[test]
fn man_out_writes_the_pages_or_says_why_not() {
    let dir = tempfile::tempdir().unwrap();
    let man1 = dir.path().join("share/man/man1");
    let out = parcrypt(&["man", "--out", man1.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    let pages = entries(&man1);
    for page in [
        "parcrypt.1",
        "parcrypt-encrypt.1",
        "parcrypt-rsa-sign.1",
        "parcrypt-completions.1",
    ] {
        assert!(pages.iter().any(|p| p == page), "{page} in {pages:?}");
    }
    assert!(pages.iter().all(|p| p.ends_with(".1")), "{pages:?}");

    let file = dir.path().join("file");
    std::fs::write(&file, b"keep").unwrap();
    let out = parcrypt(&["man", "--out", file.to_str().unwrap()], b"");
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.starts_with("parcrypt: cannot create directory"), "{text}");
    assert!(text.contains("\n  hint: "), "{text}");
    assert_eq!(std::fs::read(&file).unwrap(), b"keep");
}
