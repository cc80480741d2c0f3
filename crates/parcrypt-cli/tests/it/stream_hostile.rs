//! `parcrypt encrypt` / `decrypt` against inputs and arguments chosen to
//! cost memory or CPU: huge segments on many threads, long ranges, costly
//! passphrase headers, out-of-range sizes. Memory is bounded by running the
//! real binary under an address-space limit (`ulimit -v`), so an
//! over-allocation aborts instead of passing unnoticed.

#![allow(clippy::unwrap_used)]

use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::common::{
    bin, data, emulator_address_space_var, fails_with_no_output, fails_with_no_output_in, p, parcrypt,
    stderr, usage,
};

/// Runs parcrypt with `args` and `stdin` under an address-space limit of
/// `limit_mib` MiB. glibc's per-thread malloc arenas reserve 64 MiB of
/// address space each, so they are capped to keep the limit about parcrypt's
/// own buffers; the shell refuses to run parcrypt at all if it cannot set the
/// limit. Under qemu-user the same bound is qemu's guest address space
/// instead (see [`emulator_address_space_var`]).
fn limited(limit_mib: u64, args: &[&str], stdin: Stdio) -> Output {
    let mut cmd = Command::new("sh");
    match emulator_address_space_var() {
        Some(var) => cmd
            .arg("-c")
            .arg("exec \"$0\" \"$@\"")
            .env(var, (limit_mib << 20).to_string()),
        None => cmd
            .arg("-c")
            .arg(format!("ulimit -v {} && exec \"$0\" \"$@\"", limit_mib * 1024)),
    };
    cmd.arg(bin())
        .args(args)
        .env("MALLOC_ARENA_MAX", "2")
        .env("RUST_BACKTRACE", "0")
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .unwrap()
}

fn succeeds(out: &Output, what: &str) -> Vec<u8> {
    assert!(
        out.status.success(),
        "{what}: status {:?}\nstderr: {}",
        out.status,
        stderr(out)
    );
    out.stdout.clone()
}

fn file_in(path: &Path) -> Stdio {
    Stdio::from(std::fs::File::open(path).unwrap())
}

/// Buffers used to be sized threads × 4 × segment before reading anything:
/// 3 bytes with 1 GiB segments on 64 threads asked for 256 GiB, and 64 MiB
/// segments for 16 GiB. They now grow with the data, within a budget that
/// does not depend on the thread count.
#[test]
fn three_bytes_with_huge_segments_on_64_threads_stay_small() {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("key");
    std::fs::write(&key, [0x42u8; 32]).unwrap();
    let plain = dir.path().join("plain");
    std::fs::write(&plain, b"abc").unwrap();
    let key = p(&key);
    // Stacks for 64 workers and the binary itself fit easily in 512 MiB.
    const LIMIT: u64 = 512;
    for seg in ["64MiB", "1GiB"] {
        let enc = [
            "--threads",
            "64",
            "encrypt",
            "--key-file",
            key,
            "--segment-size",
            seg,
        ];
        let sealed = succeeds(&limited(LIMIT, &enc, file_in(&plain)), seg);
        let sealed_path = dir.path().join(format!("sealed-{seg}"));
        std::fs::write(&sealed_path, &sealed).unwrap();
        let by_file = [&enc[..5], &["-i", p(&plain)]].concat();
        succeeds(&limited(LIMIT, &by_file, Stdio::null()), seg);
        let dec = ["--threads", "64", "decrypt", "--key-file", key];
        for (what, out) in [
            ("pipe", limited(LIMIT, &dec, file_in(&sealed_path))),
            (
                "file",
                limited(
                    LIMIT,
                    &[&dec[..], &["-i", p(&sealed_path)]].concat(),
                    Stdio::null(),
                ),
            ),
            (
                "range",
                limited(
                    LIMIT,
                    &[&dec[..], &["-i", p(&sealed_path), "--range", "1:2"]].concat(),
                    Stdio::null(),
                ),
            ),
        ] {
            let got = succeeds(&out, &format!("{seg} {what}"));
            assert_eq!(
                got,
                if what == "range" { &b"bc"[..] } else { b"abc" },
                "{seg} {what}"
            );
        }
    }
}

/// `--range` used to read the whole range into memory (twice: ciphertext
/// and plaintext); it now streams a batch at a time.
#[test]
fn a_long_range_streams_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("key");
    std::fs::write(&key, [0x42u8; 32]).unwrap();
    let len = 160 << 20;
    let plain = data(len);
    let plain_path = dir.path().join("plain");
    std::fs::write(&plain_path, &plain).unwrap();
    let sealed = dir.path().join("sealed");
    succeeds(
        &parcrypt(
            &[
                "encrypt",
                "--key-file",
                p(&key),
                "-i",
                p(&plain_path),
                "-o",
                p(&sealed),
            ],
            b"",
        ),
        "encrypt",
    );
    std::fs::remove_file(&plain_path).unwrap();
    // The range alone is 160 MiB; holding it twice does not fit in 256 MiB.
    let back = dir.path().join("back");
    let range = format!("1:{}", len - 2);
    let out = limited(
        256,
        &[
            "--threads",
            "8",
            "decrypt",
            "--key-file",
            p(&key),
            "-i",
            p(&sealed),
            "--range",
            &range,
            "-o",
            p(&back),
        ],
        Stdio::null(),
    );
    succeeds(&out, "range");
    assert!(std::fs::read(&back).unwrap() == plain[1..len - 1]);
}

/// A passphrase header costs scrypt before anything in it is authenticated:
/// `--max-work-factor` (default 20) refuses costlier ones before any work.
#[test]
fn a_costly_passphrase_header_is_refused_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let pass = dir.path().join("pass");
    std::fs::write(&pass, "correct horse\n").unwrap();
    let pass = p(&pass);
    let plain = data(1000);
    let sealed = parcrypt(
        &["encrypt", "--passphrase-file", pass, "--work-factor", "11"],
        &plain,
    );
    let sealed = succeeds(&sealed, "encrypt");
    let decrypt = |extra: &[&str], stream: &[u8]| {
        parcrypt(
            &[&["decrypt", "--passphrase-file", pass][..], extra].concat(),
            stream,
        )
    };
    let out = decrypt(&["--max-work-factor", "10"], &sealed);
    fails_with_no_output(&out, 1, "work factor 11");
    assert!(stderr(&out).contains("--max-work-factor 11"), "{}", stderr(&out));
    assert_eq!(
        succeeds(&decrypt(&["--max-work-factor", "11"], &sealed), "at the limit"),
        plain
    );
    assert_eq!(succeeds(&decrypt(&[], &sealed), "default"), plain);
    // A header anyone can make, asking for N = 2^21 or 2^22 (2 or 4 GiB,
    // seconds of CPU): refused at once by default, the file and the range
    // reader alike.
    assert_eq!(sealed[43], 2, "the passphrase stanza");
    let file = dir.path().join("costly");
    for log2_n in [21, 22] {
        let mut costly = sealed.clone();
        costly[46] = log2_n;
        std::fs::write(&file, &costly).unwrap();
        for out in [
            decrypt(&[], &costly),
            decrypt(&["-i", p(&file)], b""),
            decrypt(&["-i", p(&file), "--range", "0:1"], b""),
        ] {
            fails_with_no_output(&out, 1, &format!("work factor {log2_n}"));
            assert!(stderr(&out).contains("above the limit of 20"), "{}", stderr(&out));
        }
    }
    // The ceiling itself is bounded by what parcrypt reads at all.
    for bad in ["23", "0", "lots"] {
        usage(
            &decrypt(&["--max-work-factor", bad], &sealed),
            "--max-work-factor",
        );
    }
}

#[test]
fn ranges_ending_past_2_63_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("key");
    std::fs::write(&key, [0x42u8; 32]).unwrap();
    let sealed = dir.path().join("sealed");
    std::fs::write(
        &sealed,
        succeeds(&parcrypt(&["encrypt", "--key-file", p(&key)], b"abc"), "encrypt"),
    )
    .unwrap();
    let max = i64::MAX as u64;
    let huge = u64::MAX;
    for range in [
        format!("{huge}:2"),
        format!("1:{huge}"),
        format!("{huge}:{huge}"),
        format!("0:{huge}"),
        format!("{max}:1"),
        format!("1:{max}"),
    ] {
        let out = parcrypt(
            &[
                "decrypt",
                "--key-file",
                p(&key),
                "-i",
                p(&sealed),
                "--range",
                &range,
            ],
            b"",
        );
        fails_with_no_output_in(&range, &out, 2, "2^63 - 1");
    }
    // At the maximum: a well-formed range, beyond this file's end.
    let out = parcrypt(
        &[
            "decrypt",
            "--key-file",
            p(&key),
            "-i",
            p(&sealed),
            "--range",
            &format!("{max}:0"),
        ],
        b"",
    );
    fails_with_no_output(&out, 1, "beyond the end of the plaintext");
}
