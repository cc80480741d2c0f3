//! `PARCRYPT_SHA256_BACKEND` in a real process: every backend the CPU has
//! gives the same tree hashes as the single-buffer one, and a name that is
//! not a backend (or one the CPU lacks) is ignored, never a crash.
#![allow(clippy::unwrap_used)]

use std::process::{Command, Stdio};

use parcrypt::digest::Backend;

use crate::common::{bin, data, ok};

/// The RFC 6962, BitTorrent v2 and Glacier hashes of `file` with
/// `PARCRYPT_SHA256_BACKEND=backend`.
fn hash_with(backend: &str, file: &str) -> String {
    let mut all = String::new();
    for format in ["rfc6962", "bittorrent-v2", "glacier"] {
        let out = Command::new(bin())
            .env("PARCRYPT_SHA256_BACKEND", backend)
            .args(["hash", "--threads", "2", "--format", format, file])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        ok(&out);
        all.push_str(&String::from_utf8(out.stdout).unwrap());
    }
    all
}

#[test]
fn every_backend_forced_by_the_environment_hashes_alike() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("input");
    // Over 1 MiB, so the file is mapped and hashed in parallel parts.
    std::fs::write(&path, data((3 << 20) + 12_345)).unwrap();
    let file = path.to_str().unwrap();
    let want = hash_with("sha2", file);
    assert!(!want.is_empty());
    let mut ran = Vec::new();
    for backend in Backend::available() {
        assert_eq!(hash_with(backend.name(), file), want, "{backend}");
        ran.push(backend.name());
    }
    eprintln!("PARCRYPT_SHA256_BACKEND forced: {}", ran.join(", "));
    for b in Backend::ALL.iter().filter(|b| !b.is_available()) {
        assert_eq!(hash_with(b.name(), file), want, "{b} (unavailable: ignored)");
    }
    for junk in ["", "auto", "md5", "AVX512-X16x", "\u{e9}"] {
        assert_eq!(hash_with(junk, file), want, "{junk:?}");
    }
}

#[test]
fn an_ignored_backend_name_is_said_once_on_stderr() {
    let run = |value: &str| {
        let out = Command::new(bin())
            .env("PARCRYPT_SHA256_BACKEND", value)
            .args(["hash", "-"])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        ok(&out);
        String::from_utf8(out.stderr).unwrap()
    };
    for quiet in ["", "auto", "sha2"] {
        assert_eq!(run(quiet), "", "{quiet:?}");
    }
    let said = run("md5");
    assert!(
        said.contains("PARCRYPT_SHA256_BACKEND") && said.contains("md5"),
        "{said}"
    );
    assert_eq!(said.matches("PARCRYPT_SHA256_BACKEND").count(), 1, "{said}");
    if let Some(b) = Backend::ALL.iter().find(|b| !b.is_available()) {
        assert!(run(b.name()).contains(b.name()));
    }
}
