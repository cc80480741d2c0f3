//! Decrypting a regular file proves its length before the first byte goes
//! out (issue #48): `decrypt` (the `stream` format and Cobblestone) and
//! `age -d` open the final chunk of a file given with `-i`/INPUT first, so
//! a file cut short (by 1,000 bytes, by 1), extended by a byte, or with its
//! last tag changed writes nothing at all to a pipe, and says so. From a
//! pipe, whose end cannot be read first, the verified batches before the
//! failure have gone out: the hint says how many bytes, and that is what
//! standard output got.
//!
//! The files span several batches on one thread (4 MiB of plaintext a
//! batch in every format), so the old code released whole batches before
//! it found the end missing.

#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::common::{bin, data, fails_in, p, parcrypt, stderr};

/// 10 MiB and a partial last chunk in every format: three batches.
const LEN: usize = (10 << 20) + 123;

/// A format's way to decrypt, given the path of its encrypted file.
struct Format {
    name: &'static str,
    /// Arguments before the input (`-i FILE` or `INPUT` follows).
    decrypt: Vec<String>,
    /// `true` if the input is given as `-i FILE`, else as INPUT.
    dash_i: bool,
    sealed: Vec<u8>,
}

fn formats(dir: &Path, plain: &[u8]) -> Vec<Format> {
    let input = dir.join("plain");
    std::fs::write(&input, plain).unwrap();
    let seal = |args: &[&str], name: &str| -> Vec<u8> {
        let out = dir.join(name);
        let mut all: Vec<&str> = args.to_vec();
        all.extend(["-o", p(&out)]);
        let run = parcrypt(&all, b"");
        assert!(run.status.success(), "{name}: {}", stderr(&run));
        std::fs::read(&out).unwrap()
    };
    let key32 = dir.join("key32");
    std::fs::write(&key32, [7u8; 32]).unwrap();
    let key16 = dir.join("key16");
    std::fs::write(&key16, [9u8; 16]).unwrap();
    let identity = dir.join("age-key.txt");
    let made = parcrypt(&["age", "keygen", "-o", p(&identity)], b"");
    assert!(made.status.success(), "{}", stderr(&made));
    let recipient = String::from_utf8(made.stderr)
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("Public key: ").map(str::to_owned))
        .unwrap();
    let own = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    vec![
        Format {
            name: "stream",
            sealed: seal(&["encrypt", "--key-file", p(&key32), "-i", p(&input)], "f.pc"),
            decrypt: own(&["--threads", "1", "decrypt", "--key-file", p(&key32)]),
            dash_i: true,
        },
        Format {
            name: "cobblestone-128",
            sealed: seal(
                &[
                    "encrypt",
                    "--format",
                    "cobblestone-128",
                    "--key-file",
                    p(&key16),
                    "-i",
                    p(&input),
                ],
                "f.cob",
            ),
            decrypt: own(&[
                "--threads",
                "1",
                "decrypt",
                "--format",
                "cobblestone-128",
                "--key-file",
                p(&key16),
            ]),
            dash_i: true,
        },
        Format {
            name: "age",
            sealed: seal(&["age", "-r", &recipient, p(&input)], "f.age"),
            decrypt: own(&["--threads", "1", "age", "-d", "-i", p(&identity)]),
            dash_i: false,
        },
    ]
}

/// The four ways a file's end goes wrong.
fn damaged(sealed: &[u8]) -> Vec<(&'static str, Vec<u8>)> {
    let n = sealed.len();
    let mut flipped = sealed.to_vec();
    flipped[n - 1] ^= 1;
    vec![
        ("cut by 1000 bytes", sealed[..n - 1000].to_vec()),
        ("cut by 1 byte", sealed[..n - 1].to_vec()),
        ("extended by a byte", [sealed, b"x"].concat()),
        ("last tag flipped", flipped),
    ]
}

/// Runs parcrypt with `args`, standard input from `stdin` (a file, or a
/// pipe fed with bytes), standard output a pipe.
fn run(args: &[String], stdin: Input<'_>) -> Output {
    match stdin {
        Input::Bytes(bytes) => {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            parcrypt(&args, bytes)
        }
        Input::Nothing => Command::new(bin())
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap(),
    }
}

enum Input<'a> {
    Bytes(&'a [u8]),
    Nothing,
}

/// The count in "N verified bytes went out" in `err`, or 0 for "nothing
/// was written".
fn released(err: &str) -> usize {
    if err.contains("nothing was written") {
        return 0;
    }
    let at = err
        .find(" verified byte")
        .unwrap_or_else(|| panic!("no count of verified bytes in {err}"));
    let digits: String = err[..at].chars().rev().take_while(char::is_ascii_digit).collect();
    digits.chars().rev().collect::<String>().parse().unwrap()
}

#[test]
fn a_damaged_end_of_a_regular_file_writes_nothing_to_a_pipe() {
    let dir = tempfile::tempdir().unwrap();
    let plain = data(LEN);
    for format in formats(dir.path(), &plain) {
        for (case, bad) in damaged(&format.sealed) {
            let path: PathBuf = dir.path().join("bad");
            std::fs::write(&path, &bad).unwrap();
            let mut args = format.decrypt.clone();
            if format.dash_i {
                args.push("-i".into());
            }
            args.push(p(&path).into());
            let what = format!("{} {case}, from a file", format.name);
            let out = run(&args, Input::Nothing);
            fails_in(&what, &out, 1, "nothing was written");
            assert_eq!(out.stdout.len(), 0, "{what}: bytes on standard output");
        }
    }
}

#[test]
fn from_a_pipe_the_error_says_how_many_verified_bytes_went_out() {
    let dir = tempfile::tempdir().unwrap();
    let plain = data(LEN);
    for format in formats(dir.path(), &plain) {
        for (case, bad) in damaged(&format.sealed) {
            let what = format!("{} {case}, from a pipe", format.name);
            let out = run(&format.decrypt, Input::Bytes(&bad));
            fails_in(&what, &out, 1, "");
            let err = stderr(&out);
            let n = released(&err);
            assert_eq!(out.stdout.len(), n, "{what}: {err}");
            assert!(out.stdout[..] == plain[..n], "{what}: not the plaintext's start");
            // Whole batches before the end went out (the pipe's end is
            // found last); the hint says so rather than "nothing".
            assert!(n > 0, "{what}: {err}");
        }
    }
}

#[test]
fn damage_inside_a_regular_file_releases_only_what_verified_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let plain = data(LEN);
    for format in formats(dir.path(), &plain) {
        // A byte in the middle: the batches before it verified and went
        // out (bounded memory: no second pass); the hint counts them.
        let mut bad = format.sealed.clone();
        let at = bad.len() / 2;
        bad[at] ^= 1;
        let path = dir.path().join("bad");
        std::fs::write(&path, &bad).unwrap();
        let mut args = format.decrypt.clone();
        if format.dash_i {
            args.push("-i".into());
        }
        args.push(p(&path).into());
        let what = format!("{} flipped in the middle", format.name);
        let out = run(&args, Input::Nothing);
        fails_in(&what, &out, 1, "modified or damaged");
        let err = stderr(&out);
        let n = released(&err);
        assert_eq!(out.stdout.len(), n, "{what}: {err}");
        assert!(out.stdout[..] == plain[..n], "{what}");
        assert!(n < at, "{what}: {n} bytes went out, past the damage at {at}");
        // And a good file still decrypts whole, from a file and a pipe.
        let path = dir.path().join("good");
        std::fs::write(&path, &format.sealed).unwrap();
        let mut args = format.decrypt.clone();
        if format.dash_i {
            args.push("-i".into());
        }
        args.push(p(&path).into());
        let out = run(&args, Input::Nothing);
        assert!(out.status.success(), "{}: {}", format.name, stderr(&out));
        assert!(out.stdout == plain, "{}: from a file", format.name);
        let out = run(&format.decrypt, Input::Bytes(&format.sealed));
        assert!(out.status.success(), "{}: {}", format.name, stderr(&out));
        assert!(out.stdout == plain, "{}: from a pipe", format.name);
    }
}
