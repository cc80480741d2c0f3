//! What `-o` does to the file system: one policy per command (replacing
//! commands replace whatever is there when they finish, refusing ones refuse
//! it unless `--force`, then replace it), so concurrent writers either all
//! succeed or exactly one does; paths that name standard output are standard
//! output; keys are not replaced without `--force` and are always 0600; a
//! replaced file keeps its mode and owner, and failures name the `-o` target
//! (never the temporary file) with a hint.

#![allow(clippy::unwrap_used)]

use std::io::Write;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

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
    for keygen in [
        &["rsa", "keygen", "--bits", "2048"][..],
        &["ecdsa", "keygen"],
        &["ml-kem", "keygen"],
    ] {
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

/// Eight different inputs of 24 MiB (different in every byte), large
/// enough that eight runs over them overlap: all are still writing when
/// the first one finishes.
fn race_inputs(dir: &Path) -> Vec<PathBuf> {
    (0..8usize)
        .map(|i| {
            let path = dir.join(format!("in{i}"));
            let bytes: Vec<u8> = (0..24usize << 20).map(|j| ((j + 37 * i) % 251) as u8).collect();
            std::fs::write(&path, bytes).unwrap();
            path
        })
        .collect()
}

/// Runs the eight commands at once and waits for them all.
fn race(commands: &[Vec<String>]) -> Vec<std::process::Output> {
    let children: Vec<_> = commands
        .iter()
        .map(|args| {
            Command::new(bin())
                .args(args)
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    children
        .into_iter()
        .map(|c| c.wait_with_output().unwrap())
        .collect()
}

fn statuses(outs: &[std::process::Output]) -> Vec<(Option<i32>, String)> {
    outs.iter().map(|o| (o.status.code(), stderr(o))).collect()
}

/// The temporary files parcrypt left in `dir`.
fn temporaries(dir: &Path) -> Vec<String> {
    entries(dir)
        .into_iter()
        .filter(|e| e.starts_with(".parcrypt-"))
        .collect()
}

/// What a race of replacing writers must leave: the output is one of the
/// inputs whole, and no temporary file remains in `dir`.
fn one_whole_output_left(inputs: &[PathBuf], plain: &[u8], dir: &Path) {
    assert!(
        inputs.iter().any(|i| std::fs::read(i).unwrap() == plain),
        "not one whole output"
    );
    assert!(temporaries(dir).is_empty(), "{:?}", temporaries(dir));
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| (*s).to_owned()).collect()
}

#[test]
fn eight_racing_replacing_writers_all_succeed_and_leave_one_whole_output() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = race_inputs(dir.path());
    let target = dir.path().join("same.ctr");
    let commands: Vec<_> = inputs
        .iter()
        .map(|input| ctr(&["-i", p(input), "-o", p(&target)]))
        .collect();
    let outs = race(&commands);
    assert!(outs.iter().all(|o| o.status.success()), "{:?}", statuses(&outs));
    // CTR decryption is encryption: what remains is one input's, whole.
    let mut back = ctr(&["-i", p(&target)]);
    back[1] = "decrypt".to_owned();
    let plain = ok(&parcrypt(
        &back.iter().map(String::as_str).collect::<Vec<_>>(),
        b"",
    ))
    .stdout
    .clone();
    one_whole_output_left(&inputs, &plain, dir.path());
}

#[test]
fn eight_racing_forced_writers_all_succeed_and_leave_one_whole_output() {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("key");
    std::fs::write(&key, [7u8; 32]).unwrap();
    let inputs = race_inputs(dir.path());
    let streams: Vec<PathBuf> = inputs
        .iter()
        .map(|input| {
            let stream = input.with_extension("pc");
            ok(&parcrypt(
                &["encrypt", "--key-file", p(&key), "-i", p(input), "-o", p(&stream)],
                b"",
            ));
            stream
        })
        .collect();
    let target = dir.path().join("same.plain");
    let commands: Vec<_> = streams
        .iter()
        .map(|s| {
            strings(&[
                "decrypt",
                "--force",
                "--key-file",
                p(&key),
                "-i",
                p(s),
                "-o",
                p(&target),
            ])
        })
        .collect();
    let outs = race(&commands);
    assert!(outs.iter().all(|o| o.status.success()), "{:?}", statuses(&outs));
    let plain = std::fs::read(&target).unwrap();
    one_whole_output_left(&inputs, &plain, dir.path());
    // And the same for encrypt --force: the survivor decrypts to one input.
    let target = dir.path().join("same.pc");
    let commands: Vec<_> = inputs
        .iter()
        .map(|i| {
            strings(&[
                "encrypt",
                "--force",
                "--key-file",
                p(&key),
                "-i",
                p(i),
                "-o",
                p(&target),
            ])
        })
        .collect();
    let outs = race(&commands);
    assert!(outs.iter().all(|o| o.status.success()), "{:?}", statuses(&outs));
    let plain = ok(&parcrypt(
        &["decrypt", "--key-file", p(&key), "-i", p(&target)],
        b"",
    ))
    .stdout
    .clone();
    one_whole_output_left(&inputs, &plain, dir.path());
}

#[test]
fn eight_racing_refusing_writers_leave_exactly_one_winner() {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("key");
    std::fs::write(&key, [8u8; 32]).unwrap();
    let inputs = race_inputs(dir.path());
    let target = dir.path().join("same.pc");
    let commands: Vec<_> = inputs
        .iter()
        .map(|i| strings(&["encrypt", "--key-file", p(&key), "-i", p(i), "-o", p(&target)]))
        .collect();
    let outs = race(&commands);
    let winners: Vec<usize> = (0..8).filter(|&i| outs[i].status.success()).collect();
    assert_eq!(winners.len(), 1, "{:?}", statuses(&outs));
    for (i, out) in outs.iter().enumerate() {
        if i != winners[0] {
            fails_in(&format!("writer {i}"), out, 1, "exists");
            assert!(stderr(out).contains("--force"), "writer {i}: {}", stderr(out));
        }
    }
    let plain = ok(&parcrypt(
        &["decrypt", "--key-file", p(&key), "-i", p(&target)],
        b"",
    ))
    .stdout
    .clone();
    assert_eq!(plain, std::fs::read(&inputs[winners[0]]).unwrap());
    assert!(
        temporaries(dir.path()).is_empty(),
        "{:?}",
        temporaries(dir.path())
    );
}

/// Starts `args` reading a pipe, waits until it has created its temporary
/// output, puts a file at `target` (as another program would), then gives
/// it `input` and the end of its input.
fn with_a_file_appearing(args: &[&str], input: &[u8], dir: &Path, target: &Path) -> std::process::Output {
    let mut child = Command::new(bin())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A guard against a hang (not a speed goal): give up after 6,000 polls
    // of 10 ms.
    let mut polls = 0;
    while temporaries(dir).is_empty() {
        polls += 1;
        if polls > 6000 {
            panic!("{args:?} made no temporary output within a minute");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    std::fs::write(target, b"appeared meanwhile").unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input).unwrap();
    drop(stdin);
    child.wait_with_output().unwrap()
}

#[test]
fn a_file_appearing_during_the_run_is_replaced_or_refused_by_the_command_alone() {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("key");
    std::fs::write(&key, [6u8; 32]).unwrap();
    let plain = data(100_000);
    let stream = ok(&parcrypt(&["encrypt", "--key-file", p(&key)], &plain))
        .stdout
        .clone();
    let target = dir.path().join("out");
    let aes = ctr(&["-o", p(&target)]);
    let aes: Vec<&str> = aes.iter().map(String::as_str).collect();
    let (t, k) = (p(&target), p(&key));
    let replacing: [(&[&str], &[u8]); 5] = [
        (&aes, &plain),
        (&["rc4", "--hazmat", "--key", "0102030405", "-o", t], &plain),
        (&["parc4", "--hazmat", "--key", K, "--nonce", IV, "-o", t], &plain),
        (&["encrypt", "--force", "--key-file", k, "-o", t], &plain),
        (&["decrypt", "--force", "--key-file", k, "-o", t], &stream),
    ];
    for (args, input) in replacing {
        let out = with_a_file_appearing(args, input, dir.path(), &target);
        ok_in(args[0], &out);
        assert_ne!(std::fs::read(&target).unwrap(), b"appeared meanwhile", "{args:?}");
        assert!(temporaries(dir.path()).is_empty(), "{args:?}");
        std::fs::remove_file(&target).unwrap();
    }
    let refusing: [(&[&str], &[u8]); 2] = [
        (&["encrypt", "--key-file", k, "-o", t], &plain),
        (&["decrypt", "--key-file", k, "-o", t], &stream),
    ];
    for (args, input) in refusing {
        let out = with_a_file_appearing(args, input, dir.path(), &target);
        fails_in(args[0], &out, 1, "exists");
        assert!(stderr(&out).contains("--force"), "{args:?}: {}", stderr(&out));
        assert_eq!(std::fs::read(&target).unwrap(), b"appeared meanwhile", "{args:?}");
        assert!(temporaries(dir.path()).is_empty(), "{args:?}");
        std::fs::remove_file(&target).unwrap();
    }
}

/// Runs `args` under `umask MASK` in `dir`, as a shell would.
fn with_umask(mask: &str, args: &[&str], dir: &Path) -> std::process::Output {
    let script = format!("umask {mask}; exec \"$P\" \"$@\"");
    Command::new("sh")
        .args(["-c", &script, "sh"])
        .args(args)
        .env("P", bin())
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

#[test]
fn a_private_key_is_0600_whatever_it_replaces_and_whatever_the_umask() {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("k.pem");
    let root = std::fs::metadata("/proc/self").unwrap().uid() == 0;
    for keygen in [&["rsa", "keygen", "--bits", "2048"][..], &["ecdsa", "keygen"]] {
        let case = keygen[0];
        // Replacing a 0644 file (another user's, as root) under umask 000.
        std::fs::write(&key, b"an old, readable key").unwrap();
        std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o644)).unwrap();
        if root {
            std::os::unix::fs::chown(&key, Some(4321), Some(4321)).unwrap();
        }
        let before = std::fs::metadata(&key).unwrap();
        let out = with_umask("000", &[keygen, &["--force", "-o", p(&key)]].concat(), dir.path());
        ok_in(case, &out);
        let after = std::fs::metadata(&key).unwrap();
        assert!(
            std::fs::read_to_string(&key).unwrap().contains("PRIVATE KEY"),
            "{case}"
        );
        assert_eq!(after.mode() & 0o7777, 0o600, "{case}: replaced under umask 000");
        assert_eq!((after.uid(), after.gid()), (before.uid(), before.gid()), "{case}");
        // New, under a umask that allows everything or takes the owner's bits.
        for mask in ["000", "277"] {
            std::fs::remove_file(&key).unwrap();
            ok_in(
                case,
                &with_umask(mask, &[keygen, &["-o", p(&key)]].concat(), dir.path()),
            );
            let mode = std::fs::metadata(&key).unwrap().mode() & 0o7777;
            assert_eq!(mode, 0o600, "{case}: new under umask {mask}");
        }
        std::fs::remove_file(&key).unwrap();
    }
    // Other outputs keep today's rule: a replaced file keeps its mode.
    let target = dir.path().join("sig");
    std::fs::write(&target, b"old").unwrap();
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o644)).unwrap();
    let aes = ctr(&["-i", "/dev/null", "-o", p(&target)]);
    let aes: Vec<&str> = aes.iter().map(String::as_str).collect();
    ok(&with_umask("000", &aes, dir.path()));
    assert_eq!(std::fs::metadata(&target).unwrap().mode() & 0o7777, 0o644);
    assert!(temporaries(dir.path()).is_empty());
}
