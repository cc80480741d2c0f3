//! SIGINT, SIGTERM and SIGHUP in the middle of writing `-o FILE`: the
//! hidden temporary file (for `decrypt`, verified plaintext) is removed and
//! the process ends as the signal ends it (status 128 + the signal).

#![allow(clippy::unwrap_used)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::common::{bin, data, entries, ok, p, parcrypt, stderr};

const K: &str = "000102030405060708090a0b0c0d0e0f";

fn temps(dir: &Path) -> Vec<String> {
    entries(dir)
        .into_iter()
        .filter(|e| e.starts_with(".parcrypt-"))
        .collect()
}

/// Starts `args` writing `-o DIR/out`, feeds it `head` on stdin and keeps
/// stdin open so it waits for more; once its temporary file exists, sends
/// `signal` and checks how it ended and what it left.
fn interrupt(args: &[&str], head: &[u8], signal: (&str, i32)) {
    use std::os::unix::process::ExitStatusExt;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let mut child = Command::new(bin())
        .args(args)
        .args(["-o", p(&out)])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(head).unwrap();
    // The command has started writing (or at least made its temporary file).
    // Polled, not timed: give up (rather than hang) after 1500 looks.
    let mut looks = 0;
    while temps(dir.path()).is_empty() {
        looks += 1;
        assert!(looks < 1500, "{args:?}: no temporary file appeared");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(100));
    let (name, number) = signal;
    let kill = Command::new("kill")
        .args(["-s", name, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let waited = child.wait_with_output().unwrap();
    drop(stdin);
    let status = waited.status;
    assert!(
        status.signal() == Some(number) || status.code() == Some(128 + number),
        "{args:?} {name}: {status:?}\n{}",
        stderr(&waited)
    );
    assert!(
        temps(dir.path()).is_empty(),
        "{args:?} {name}: left {:?}",
        temps(dir.path())
    );
    assert!(!out.exists(), "{args:?} {name}: a partial output");
}

const SIGNALS: [(&str, i32); 3] = [("INT", 2), ("TERM", 15), ("HUP", 1)];

#[test]
fn signals_remove_the_temporary_output_of_every_writer() {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("key");
    std::fs::write(&key, [4u8; 32]).unwrap();
    let plain = data(4 << 20);
    let stream = ok(&parcrypt(
        &["encrypt", "--key-file", p(&key), "--segment-size", "64KiB"],
        &plain,
    ))
    .stdout
    .clone();
    let key = p(&key);
    let cases: [(&[&str], &[u8]); 6] = [
        (
            &["encrypt", "--key-file", key, "--segment-size", "64KiB"],
            &plain[..1 << 20],
        ),
        // Verified plaintext of the first segments is in the temporary file.
        (&["decrypt", "--key-file", key], &stream[..2 << 20]),
        (
            &["aes", "encrypt", "--mode", "ctr", "--key", K, "--iv", K],
            &plain[..1 << 20],
        ),
        (
            &["aes", "decrypt", "--mode", "cbc", "--key", K, "--iv", K],
            &plain[..1 << 20],
        ),
        (&["rc4", "--hazmat", "--key", "0102030405"], &plain[..1 << 20]),
        (
            &["parc4", "--hazmat", "--key", K, "--nonce", K],
            &plain[..1 << 20],
        ),
    ];
    for (args, head) in cases {
        for signal in SIGNALS {
            interrupt(args, head, signal);
        }
    }
}

#[test]
fn signals_remove_the_temporary_output_of_age() {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("key.txt");
    let made = ok(&parcrypt(&["age", "keygen", "-o", p(&key)], b""))
        .stderr
        .clone();
    let public = String::from_utf8(made).unwrap();
    let public = public.trim().strip_prefix("Public key: ").unwrap().to_owned();
    let plain = data(4 << 20);
    let sealed = ok(&parcrypt(&["age", "-r", &public], &plain)).stdout.clone();
    let key = p(&key);
    let cases: [(&[&str], &[u8]); 2] = [
        (&["age", "-r", &public], &plain[..1 << 20]),
        // Verified plaintext of the first chunks is in the temporary file.
        (&["age", "-d", "-i", key], &sealed[..2 << 20]),
    ];
    for (args, head) in cases {
        for signal in SIGNALS {
            interrupt(args, head, signal);
        }
    }
}
