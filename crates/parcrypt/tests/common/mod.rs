//! Helpers shared by the integration tests.
#![allow(dead_code)]

use parcrypt::par::{Parallelism, Strategy};

/// Every strategy at every thread count from 1 to 8.
pub fn every_parallelism() -> Vec<Parallelism> {
    let mut all = vec![Parallelism::sequential()];
    for strategy in [Strategy::Static, Strategy::WorkStealing] {
        all.extend((1..=8).map(|t| Parallelism::new(t, strategy)));
    }
    all
}

/// `i % 251` for `len` bytes (251 is prime, so blocks never repeat).
pub fn data(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i % 251) as u8).collect()
}

pub fn unhex(s: &str) -> Vec<u8> {
    hex::decode(s.trim()).expect("hex in test data")
}

/// Whether the openssl CLI can be run; prints a note when it cannot.
pub fn have_openssl() -> bool {
    let ok = std::process::Command::new("openssl")
        .arg("version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("note: openssl CLI not found: skipping the comparison with it");
    }
    ok
}

/// Runs `openssl enc <args>` on `input` and returns its output.
pub fn openssl_enc(args: &[&str], input: &[u8]) -> Vec<u8> {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new("openssl")
        .arg("enc")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn openssl");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().expect("openssl output");
    writer.join().expect("writer").expect("write to openssl");
    assert!(out.status.success(), "openssl enc {args:?} failed");
    out.stdout
}
