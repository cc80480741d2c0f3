//! Every subcommand, driven the way a careless user or an attacker would:
//! hostile sizes, standard output closed (`| head`), standard output on a
//! full disk. The binary must never panic (exit 101), abort (134) or die by
//! a signal; a failure is a `parcrypt:` message; a closed pipe is not one.

#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::common::{LAB_TINY, bin, data, ok_in, p, parcrypt, stderr};

const AES_KEY: &str = "000102030405060708090a0b0c0d0e0f";
const IV16: &str = "0f0e0d0c0b0a09080706050403020100";
const IV12: &str = "0b0a09080706050403020100";
const RC4_KEY: &str = "0102030405";
const NONCE: &str = "f0e1d2c3b4a5968778695a4b3c2d1e0f";
/// Decrypting the fixture's stream (add `--range`, `-o`).
const DECRYPT_CT: [&str; 5] = ["decrypt", "--key-file", "@key32", "-i", "@ct"];

/// Sizes no one should be able to crash parcrypt with.
const HOSTILE_SIZES: [&str; 8] = [
    "0",
    "18446744073709551615",
    "18446744073709551616",
    "9223372036854775808",
    "100GiB",
    "17MiB",
    "16777217",
    "99999999999999999999GiB",
];

/// Inputs and keys for every subcommand, made by the binary itself.
struct Fixture {
    dir: tempfile::TempDir,
}

impl Fixture {
    fn new() -> Self {
        let fx = Fixture {
            dir: tempfile::tempdir().unwrap(),
        };
        // Large enough that the output overflows a pipe's buffer.
        std::fs::write(fx.path("plain"), data(3 << 20)).unwrap();
        std::fs::write(fx.path("msg"), b"a message").unwrap();
        std::fs::write(fx.path("key32"), [7u8; 32]).unwrap();
        for (leaf, text) in [("a", "leaf a"), ("b", "leaf b"), ("c", "leaf c")] {
            std::fs::write(fx.path(leaf), text).unwrap();
        }
        // 200 lines naming `ec.sig`, which the setup below makes.
        let list = format!("{} {}\n", fx.arg("msg"), fx.arg("ec.sig")).repeat(200);
        std::fs::write(fx.path("list"), list).unwrap();
        let setup: [&[&str]; 14] = [
            &["encrypt", "--key-file", "@key32", "-i", "@plain", "-o", "@ct"],
            &[
                "aes", "encrypt", "--mode", "ctr", "--key", AES_KEY, "--iv", IV16, "-i", "@plain", "-o",
                "@ctr",
            ],
            &["rsa", "keygen", "--bits", "2048", "-o", "@rsa.pem"],
            &["rsa", "pubkey", "-i", "@rsa.pem", "-o", "@rsa.pub"],
            &["rsa", "sign", "--key", "@rsa.pem", "-i", "@msg", "-o", "@rsa.sig"],
            &[
                "rsa", "encrypt", "--pub", "@rsa.pub", "-i", "@msg", "-o", "@rsa.ct",
            ],
            &["ecdsa", "keygen", "-o", "@ec.pem"],
            &["ecdsa", "pubkey", "-i", "@ec.pem", "-o", "@ec.pub"],
            &["ecdsa", "sign", "--key", "@ec.pem", "-i", "@msg", "-o", "@ec.sig"],
            &["ml-kem", "keygen", "-o", "@kem.pem"],
            &["ml-kem", "pubkey", "-i", "@kem.pem", "-o", "@kem.pub"],
            &[
                "merkle", "prove", "--index", "1", "-o", "@proof", "--leaves", "@a", "@b", "@c",
            ],
            &[
                "merkle",
                "consistency",
                "--old-size",
                "2",
                "-o",
                "@cons",
                "--leaves",
                "@a",
                "@b",
                "@c",
            ],
            &[&LAB_TINY[..], &["--out", "@lab"]].concat(),
        ];
        for cmd in setup.into_iter().filter(|c| has(c)) {
            let args = fx.args(cmd);
            let argv: Vec<&str> = args.iter().map(String::as_str).collect();
            ok_in(&format!("{args:?}"), &parcrypt(&argv, b""));
        }
        fx
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn arg(&self, name: &str) -> String {
        p(&self.path(name)).to_owned()
    }

    /// `args` with each `@name` replaced by the path of the fixture's file.
    fn args(&self, args: &[&str]) -> Vec<String> {
        args.iter()
            .map(|a| match a.strip_prefix('@') {
                Some(name) => self.arg(name),
                None => (*a).to_owned(),
            })
            .collect()
    }

    /// Every subcommand once, as it writes its result to standard output.
    fn printing_commands(&self) -> Vec<Vec<String>> {
        let cmds: Vec<Vec<&str>> = vec![
            vec!["encrypt", "--key-file", "@key32", "-i", "@plain"],
            DECRYPT_CT.to_vec(),
            [&DECRYPT_CT[..], &["--range", "1000:2000000"]].concat(),
            vec![
                "aes", "encrypt", "--mode", "ctr", "--key", AES_KEY, "--iv", IV16, "-i", "@plain",
            ],
            vec![
                "aes", "decrypt", "--mode", "ctr", "--key", AES_KEY, "--iv", IV16, "-i", "@ctr",
            ],
            vec![
                "aes", "encrypt", "--mode", "cbc", "--key", AES_KEY, "--iv", IV16, "-i", "@plain",
            ],
            vec![
                "aes", "encrypt", "--mode", "ecb", "--key", AES_KEY, "-i", "@plain",
            ],
            vec![
                "aes", "encrypt", "--mode", "gcm", "--key", AES_KEY, "--iv", IV12, "-i", "@plain",
            ],
            vec!["rc4", "--hazmat", "--key", RC4_KEY, "-i", "@plain"],
            vec![
                "parc4", "--hazmat", "--key", AES_KEY, "--nonce", NONCE, "-i", "@plain",
            ],
            vec!["hash", "@plain", "@msg"],
            vec!["hash", "--format", "rfc6962", "--leaf-size", "16MiB", "@plain"],
            vec!["hash", "--format", "bittorrent-v2", "@plain"],
            vec!["hash", "--format", "glacier", "@plain"],
            vec!["merkle", "root", "--leaves", "@a", "@b", "@c"],
            vec!["merkle", "prove", "--index", "0", "--leaves", "@a", "@b", "@c"],
            vec![
                "merkle",
                "consistency",
                "--old-size",
                "1",
                "--leaves",
                "@a",
                "@b",
                "@c",
            ],
            vec!["merkle", "verify", "--proof", "@proof", "--leaf-file", "@b"],
            vec!["merkle", "verify", "--proof", "@cons"],
            vec!["rsa", "keygen", "--bits", "2048"],
            vec!["rsa", "pubkey", "-i", "@rsa.pem"],
            vec!["rsa", "sign", "--key", "@rsa.pem", "-i", "@msg"],
            vec![
                "rsa", "verify", "--pub", "@rsa.pub", "--sig", "@rsa.sig", "-i", "@msg",
            ],
            vec!["rsa", "encrypt", "--pub", "@rsa.pub", "-i", "@msg"],
            vec!["rsa", "decrypt", "--key", "@rsa.pem", "-i", "@rsa.ct"],
            vec!["ecdsa", "keygen"],
            vec!["ecdsa", "pubkey", "-i", "@ec.pem"],
            vec!["ecdsa", "sign", "--key", "@ec.pem", "-i", "@msg"],
            vec![
                "ecdsa", "verify", "--pub", "@ec.pub", "--sig", "@ec.sig", "-i", "@msg",
            ],
            vec!["ecdsa", "verify-batch", "--pub", "@ec.pub", "--list", "@list"],
            vec!["ml-kem", "keygen"],
            vec!["ml-kem", "pubkey", "-i", "@kem.pem"],
            vec!["ml-kem", "encap", "--pub", "@kem.pub", "--secret", "@kem.ss"],
            vec!["lab", "compare", "@lab", "@lab"],
            [&LAB_TINY[..], &["--out", "@lab2"]].concat(),
            vec!["--help"],
            vec!["--version"],
            vec!["merkle", "--help"],
            vec!["completions", "bash"],
            vec!["completions", "zsh"],
            vec!["completions", "fish"],
            vec!["completions", "elvish"],
            vec!["completions", "powershell"],
            vec!["man"],
        ];
        cmds.into_iter()
            .filter(|c| has(c))
            .map(|c| self.args(&c))
            .collect()
    }
}

/// Whether this build has the command `args` runs: `lab` is a default
/// feature (a build without it refuses `lab` with exit 2: `lab_cli.rs`;
/// the aarch64 tests under qemu run such a build, `scripts/test-aarch64.sh
/// --ci`).
fn has(args: &[&str]) -> bool {
    cfg!(feature = "lab") || args.first() != Some(&"lab")
}

/// Asserts the process ended by itself with a status other than a panic's
/// (101) or an abort's (134), and that a failure speaks as parcrypt.
fn no_crash(args: &[String], out: &Output) {
    use std::os::unix::process::ExitStatusExt;
    let err = stderr(out);
    assert_eq!(out.status.signal(), None, "{args:?} died by a signal\n{err}");
    let code = out.status.code().unwrap();
    assert!(
        ![101, 134].contains(&code) && !err.contains("panicked"),
        "{args:?}: status {code}\n{err}"
    );
    if code != 0 {
        assert!(err.starts_with("parcrypt: "), "{args:?}: status {code}\n{err}");
    }
}

/// Whether `args` is a command that prints no warning or note: one that
/// writes only through the output writer (help, version, `completions`,
/// `man`), so its standard error holds nothing but that writer's error.
fn never_warns(args: &[String]) -> bool {
    ["--help", "--version", "completions", "man"].contains(&args[0].as_str())
}

/// Lines on stderr other than warnings and notes.
fn complaints(out: &Output) -> Vec<String> {
    stderr(out)
        .lines()
        .filter(|l| !l.starts_with("parcrypt: warning: ") && !l.starts_with("parcrypt: note: "))
        .map(str::to_owned)
        .collect()
}

/// Runs parcrypt with its standard output closed before it writes, as when
/// the reader of a pipe (`| head -c 10`) has gone away.
fn with_closed_stdout(args: &[String]) -> Output {
    let mut child = Command::new(bin())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    child.wait_with_output().unwrap()
}

/// Runs parcrypt with its standard output on a full disk.
fn with_full_stdout(args: &[String]) -> Output {
    Command::new(bin())
        .args(args)
        .stdin(Stdio::null())
        .stdout(std::fs::File::options().write(true).open(full()).unwrap())
        .stderr(Stdio::piped())
        .output()
        .unwrap()
}

/// /dev/full, which every Linux has: without it these tests cannot prove
/// anything, so they fail rather than pass.
fn full() -> &'static Path {
    let full = Path::new("/dev/full");
    assert!(
        full.exists(),
        "/dev/full is missing: the full-disk tests cannot run"
    );
    full
}

#[test]
fn a_closed_stdout_ends_every_command_quietly() {
    let fx = Fixture::new();
    for args in fx.printing_commands() {
        let out = with_closed_stdout(&args);
        no_crash(&args, &out);
        assert_eq!(out.status.code(), Some(0), "{args:?}\n{}", stderr(&out));
        assert!(complaints(&out).is_empty(), "{args:?}\n{}", stderr(&out));
        if never_warns(&args) {
            assert_eq!(stderr(&out), "", "{args:?}");
        }
    }
}

#[test]
fn a_full_stdout_is_named_with_a_hint_by_every_command() {
    let fx = Fixture::new();
    for args in fx.printing_commands() {
        let out = with_full_stdout(&args);
        no_crash(&args, &out);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}\n{err}");
        // (For a command that never warns, the error is all of stderr.)
        let first = if never_warns(&args) {
            err.clone()
        } else {
            complaints(&out).join("\n")
        };
        assert!(
            first.starts_with("parcrypt: cannot write standard output: No space left on device"),
            "{args:?}\n{err}"
        );
        assert!(err.contains("hint: is the disk full?"), "{args:?}\n{err}");
    }
}

#[test]
fn hostile_sizes_are_usage_errors_that_name_the_maximum() {
    let fx = Fixture::new();
    let lab = ["lab", "--only", "aes-128-ctr", "--no-peers", "--out", "@lab-out"];
    let parc4 = [
        "parc4", "--hazmat", "--key", AES_KEY, "--nonce", NONCE, "-i", "@plain",
    ];
    for size in HOSTILE_SIZES {
        let cases: [(Vec<&str>, &str); 5] = [
            (
                vec!["hash", "--format", "rfc6962", "@plain", "--leaf-size", size],
                "--leaf-size",
            ),
            ([&parc4[..], &["--block-size", size]].concat(), "--block-size"),
            ([&lab[..], &["--sizes", size]].concat(), "--sizes"),
            ([&lab[..], &["--threads-list", size]].concat(), "--threads-list"),
            (
                vec![
                    "encrypt",
                    "--key-file",
                    "@key32",
                    "-i",
                    "@plain",
                    "--segment-size",
                    size,
                ],
                "--segment-size",
            ),
        ];
        for (args, flag) in cases.into_iter().filter(|(args, _)| has(args)) {
            if flag == "--sizes" && ["17MiB", "16777217"].contains(&size) {
                continue; // the lab takes inputs up to 1GiB
            }
            let args = fx.args(&args);
            let out = with_closed_stdout(&args);
            no_crash(&args, &out);
            let err = stderr(&out);
            assert_eq!(out.status.code(), Some(2), "{args:?}\n{err}");
            assert!(err.contains(flag), "{args:?}\n{err}");
            // (--segment-size's message names its range of powers of two.)
            if flag != "--segment-size" {
                assert!(err.contains("(the maximum)"), "{args:?}\n{err}");
            }
        }
    }
}

#[test]
fn hostile_counts_and_ranges_fail_cleanly_everywhere() {
    // (Ranges past 2^63 for `decrypt --range`: in `stream_hostile`.)
    let fx = Fixture::new();
    let huge = "18446744073709551615";
    let cases: Vec<(Vec<&str>, i32)> = vec![
        (vec!["--threads", "1025", "hash", "@a"], 2),
        (vec!["--threads", "-1", "hash", "@a"], 2),
        (vec!["--threads", huge, "hash", "@a"], 2),
        (vec!["rsa", "keygen", "--bits", "0"], 2),
        (vec!["rsa", "keygen", "--bits", huge], 2),
        (
            vec!["merkle", "prove", "--index", huge, "--leaves", "@a", "@b", "@c"],
            1,
        ),
        (
            vec![
                "merkle",
                "consistency",
                "--old-size",
                huge,
                "--new-size",
                huge,
                "--leaves",
                "@a",
                "@b",
                "@c",
            ],
            2,
        ),
        (
            vec![
                "merkle",
                "consistency",
                "--old-size",
                "0",
                "--leaves",
                "@a",
                "@b",
                "@c",
            ],
            2,
        ),
        (vec!["lab", "--repeats", "0", "--sizes", "10"], 2),
        // Issue #48: a PBKDF2 count above what a reader allows; password
        // descriptors that are outputs (standard output is /dev/full here,
        // which read as zeros for a password before).
        (
            vec!["ecdsa", "keygen", "--passout", "pass:x", "--iter", "2000001"],
            2,
        ),
        (vec!["ecdsa", "pubkey", "-i", "@ec.pem", "--passin", "fd:1"], 2),
        (vec!["rsa", "pubkey", "-i", "@rsa.pem", "--passin", "fd:2"], 2),
        (
            vec![
                "aes",
                "encrypt",
                "--cipher",
                "aes-128-cbc",
                "--pbkdf2",
                "--pass",
                "fd:1",
                "-i",
                "@msg",
            ],
            2,
        ),
    ];
    for (args, status) in cases.into_iter().filter(|(args, _)| has(args)) {
        let args = fx.args(&args);
        let out = with_full_stdout(&args);
        no_crash(&args, &out);
        assert_eq!(out.status.code(), Some(status), "{args:?}\n{}", stderr(&out));
    }
}

#[test]
fn a_closed_or_full_stderr_is_not_a_crash() {
    let fx = Fixture::new();
    // A warning (rc4), a note (rsa bulk encryption), and an error (a bad key).
    let cases: [(&[&str], i32); 3] = [
        (&["rc4", "--hazmat", "--key", RC4_KEY, "-i", "@msg"], 0),
        (&["rsa", "encrypt", "--pub", "@rsa.pub", "-i", "@plain"], 0),
        (
            &[
                "rsa", "verify", "--pub", "@msg", "--sig", "@rsa.sig", "-i", "@msg",
            ],
            1,
        ),
    ];
    for (args, status) in cases {
        let args = fx.args(args);
        for closed in [true, false] {
            let mut cmd = Command::new(bin());
            cmd.args(&args).stdin(Stdio::null()).stdout(Stdio::null());
            let out = if closed {
                let mut child = cmd.stderr(Stdio::piped()).spawn().unwrap();
                drop(child.stderr.take());
                child.wait_with_output().unwrap()
            } else {
                let full = std::fs::File::options().write(true).open(full()).unwrap();
                cmd.stderr(full).output().unwrap()
            };
            use std::os::unix::process::ExitStatusExt;
            assert_eq!(out.status.signal(), None, "{args:?} closed: {closed}");
            assert_eq!(out.status.code(), Some(status), "{args:?} closed: {closed}");
        }
    }
}
