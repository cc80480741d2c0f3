//! What `-o` does to the file system: concurrent writers never replace each
//! other, paths that name standard output are standard output, keys are not
//! replaced without `--force`, a replaced file keeps its mode and owner, and
//! failures name the `-o` target (never the temporary file) with a hint.

#![allow(clippy::unwrap_used)]

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;
use std::process::{Command, Stdio};

use crate::common::{bin, data, entries, fails_in, ok, ok_in, p, parcrypt, stderr};

const K: &str = "000102030405060708090a0b0c0d0e0f";
const IV: &str = "0f0e0d0c0b0a09080706050403020100";

fn ctr(extra: &[&str]) -> Vec<String> {
    ["aes", "encrypt", "--mode", "ctr", "--key", K, "--iv", IV]
        .iter()
        .chain(extra)
        .map(|s| (*s).to_owned())
        .collect()
}

/// Runs `sh -c script` with `$P` set to the parcrypt binary.
fn sh(script: &str, dir: &Path) -> std::process::Output {
    Command::new("sh")
        .args(["-c", script])
        .env("P", bin())
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

#[test]
fn concurrent_writers_without_force_never_replace_each_other() {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("key");
    std::fs::write(&key, [9u8; 32]).unwrap();
    let target = dir.path().join("same.pc");
    // Eight different inputs, large enough that all eight are still working
    // when the first one finishes.
    let inputs: Vec<_> = (0..8u8)
        .map(|i| {
            let path = dir.path().join(format!("in{i}"));
            let mut bytes = data(6 << 20);
            bytes[0] = i;
            std::fs::write(&path, bytes).unwrap();
            path
        })
        .collect();
    let children: Vec<_> = inputs
        .iter()
        .map(|input| {
            Command::new(bin())
                .args(["encrypt", "--key-file", p(&key), "-i", p(input), "-o", p(&target)])
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let outs: Vec<_> = children
        .into_iter()
        .map(|c| c.wait_with_output().unwrap())
        .collect();
    let winners: Vec<usize> = (0..8).filter(|&i| outs[i].status.success()).collect();
    assert_eq!(
        winners.len(),
        1,
        "{:?}",
        outs.iter()
            .map(|o| (o.status.code(), stderr(o)))
            .collect::<Vec<_>>()
    );
    for (i, out) in outs.iter().enumerate() {
        if i != winners[0] {
            fails_in(&format!("writer {i}"), out, 1, "exists");
        }
    }
    // What survives is the winner's, whole.
    let plain = ok(&parcrypt(
        &["decrypt", "--key-file", p(&key), "-i", p(&target)],
        b"",
    ))
    .stdout
    .clone();
    assert_eq!(plain, std::fs::read(&inputs[winners[0]]).unwrap());
    let left: Vec<_> = entries(dir.path())
        .into_iter()
        .filter(|e| e.starts_with(".parcrypt-"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn paths_naming_stdout_append_and_are_never_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let want = ok(&parcrypt(
        &ctr(&[]).iter().map(String::as_str).collect::<Vec<_>>(),
        &data(1000),
    ))
    .stdout
    .clone();
    std::fs::write(dir.path().join("plain"), data(1000)).unwrap();
    for path in ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1", "-"] {
        std::fs::write(dir.path().join("log"), b"earlier lines\n").unwrap();
        let script = format!("\"$P\" aes encrypt --mode ctr --key {K} --iv {IV} -i plain -o {path} >> log");
        let out = sh(&script, dir.path());
        assert!(out.status.success(), "{path}: {}", stderr(&out));
        let log = std::fs::read(dir.path().join("log")).unwrap();
        assert_eq!(log, [&b"earlier lines\n"[..], &want].concat(), "{path}");
    }
    // Another descriptor is written directly too (appended to, as with 3>>).
    std::fs::write(dir.path().join("log"), b"x").unwrap();
    let script = format!("\"$P\" aes encrypt --mode ctr --key {K} --iv {IV} -i plain -o /dev/fd/3 3>> log");
    assert!(sh(&script, dir.path()).status.success());
    assert_eq!(
        std::fs::read(dir.path().join("log")).unwrap(),
        [&b"x"[..], &want].concat()
    );
    assert_eq!(entries(dir.path()), ["log", "plain"]);
}

#[test]
fn encrypt_and_decrypt_to_dev_stdout_redirected_to_a_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("key"), [3u8; 32]).unwrap();
    std::fs::write(dir.path().join("plain"), data(100_000)).unwrap();
    let out = sh(
        "\"$P\" encrypt --key-file key -i plain -o /dev/stdout > out.pc && \
         \"$P\" decrypt --key-file key -i out.pc -o /dev/stdout > back",
        dir.path(),
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read(dir.path().join("back")).unwrap(), data(100_000));
}

#[test]
fn keygen_refuses_an_existing_key_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("k.pem");
    for keygen in [&["rsa", "keygen", "--bits", "2048"][..], &["ecdsa", "keygen"]] {
        std::fs::write(&key, b"the only copy of an old key").unwrap();
        let out = parcrypt(&[keygen, &["-o", p(&key)]].concat(), b"");
        let case = keygen[0];
        fails_in(case, &out, 1, "exists");
        assert!(stderr(&out).contains("--force"), "{case}: {}", stderr(&out));
        let kept = std::fs::read(&key).unwrap();
        assert_eq!(kept, b"the only copy of an old key", "{case}");
        ok_in(
            case,
            &parcrypt(&[keygen, &["-o", p(&key), "--force"]].concat(), b""),
        );
        let new = std::fs::read_to_string(&key).unwrap();
        assert!(new.contains("PRIVATE KEY"), "{case}");
        assert_eq!(entries(dir.path()), ["k.pem"], "{case}");
    }
}

#[test]
fn a_replaced_file_keeps_its_mode_and_owner_and_new_files_are_private() {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("key");
    std::fs::write(&key, [5u8; 32]).unwrap();
    let target = dir.path().join("out.pc");
    std::fs::write(&target, b"old").unwrap();
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o644)).unwrap();
    // As root, the file belongs to someone else (as in the issue); otherwise it is ours.
    let root = std::fs::metadata("/proc/self").unwrap().uid() == 0;
    if root {
        std::os::unix::fs::chown(&target, Some(4321), Some(4321)).unwrap();
    }
    let before = std::fs::metadata(&target).unwrap();
    let args = ["encrypt", "--key-file", p(&key), "--force", "-o", p(&target)];
    ok(&parcrypt(&args, b"new contents"));
    let after = std::fs::metadata(&target).unwrap();
    assert_ne!(before.ino(), after.ino(), "replaced by rename");
    assert_eq!(after.mode() & 0o7777, 0o644);
    assert_eq!((after.uid(), after.gid()), (before.uid(), before.gid()));
    // A new file holding plaintext or a key is readable by its owner only.
    let plain = dir.path().join("plain");
    ok(&parcrypt(
        &[
            "decrypt",
            "--key-file",
            p(&key),
            "-i",
            p(&target),
            "-o",
            p(&plain),
        ],
        b"",
    ));
    assert_eq!(std::fs::read(&plain).unwrap(), b"new contents");
    assert_eq!(std::fs::metadata(&plain).unwrap().mode() & 0o777, 0o600);
}

#[test]
fn a_failed_write_names_the_target_not_the_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("plain"), data(200_000)).unwrap();
    std::fs::write(dir.path().join("key"), [3u8; 32]).unwrap();
    // A file-size limit of 4 blocks, SIGXFSZ ignored: writes fail with EFBIG.
    for cmd in [
        format!("aes encrypt --mode ctr --key {K} --iv {IV}"),
        "rc4 --hazmat --key 0102030405".to_owned(),
        "encrypt --key-file key".to_owned(),
    ] {
        let script = format!("trap '' XFSZ; ulimit -f 4; \"$P\" {cmd} -i plain -o out.bin");
        let out = sh(&script, dir.path());
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{cmd}: {err}");
        let complaint = err.lines().find(|l| !l.contains("warning")).unwrap_or_default();
        assert!(
            complaint.starts_with("parcrypt: cannot write out.bin: File too large"),
            "{cmd}: {err}"
        );
        assert!(err.contains("hint: "), "{cmd}: {err}");
        assert!(!err.contains(".parcrypt-"), "{cmd}: {err}");
        assert_eq!(entries(dir.path()), ["key", "plain"], "{cmd}");
    }
}
