//! filippo.io/age v1.3.2's own programs and the test plugin
//! `age-plugin-ptest` (`tests/tools/age-go`, written with
//! filippo.io/age/plugin), built once per test binary into one directory
//! for `PATH`: `age`, `age-inspect`, `age-plugin-batchpass`, `age-plugin-tagtest` (it holds
//! the keys of two fixed tagged recipients), `age-plugin-ptest`. Shared by
//! the library's tests and the CLI's (which include this file by path).

#![allow(clippy::unwrap_used, dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

const AGE_GO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../parcrypt/tests/tools/age-go");

/// The directory holding the programs, after `go` is required (`None`:
/// no Go here, and `PARCRYPT_REQUIRE_TOOLS` is not set; the test skips).
pub fn go_programs() -> Option<&'static Path> {
    static BUILT: OnceLock<Option<(tempfile::TempDir, PathBuf)>> = OnceLock::new();
    let present = Command::new("go")
        .arg("version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !crate::tools::require("go", present) {
        return None;
    }
    BUILT
        .get_or_init(|| {
            let dir = tempfile::tempdir().unwrap();
            let bin = dir.path().join("bin");
            std::fs::create_dir(&bin).unwrap();
            let out = Command::new("go")
                .args(["build", "-o"])
                .arg(format!("{}/", bin.display()))
                .args([
                    "./age-plugin-ptest",
                    "filippo.io/age/cmd/age",
                    "filippo.io/age/cmd/age-inspect",
                    "filippo.io/age/cmd/age-plugin-batchpass",
                    "filippo.io/age/tag/internal/age-plugin-tagtest",
                ])
                .current_dir(AGE_GO)
                .env("GOTOOLCHAIN", "local")
                .env("GOFLAGS", "-mod=readonly")
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "go build: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            Some((dir, bin))
        })
        .as_ref()
        .map(|(_, bin)| bin.as_path())
}

/// `PATH` with `dir` first.
pub fn path_with(dir: &Path) -> std::ffi::OsString {
    let mut dirs = vec![dir.to_path_buf()];
    dirs.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    std::env::join_paths(dirs).unwrap()
}

/// A new `age-plugin-ptest` key pair whose plugin does `mode` before it
/// wraps or unwraps (see the plugin's source): `(recipient, identity)`.
pub fn ptest_keygen(programs: &Path, mode: &str) -> (String, String) {
    let out = Command::new(programs.join("age-plugin-ptest"))
        .args(["-keygen", "-mode", mode])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    let recipient = lines.next().unwrap().to_owned();
    let identity = lines.next().unwrap().to_owned();
    assert!(
        recipient.starts_with("age1ptest1") && identity.starts_with("AGE-PLUGIN-PTEST-1"),
        "{text}"
    );
    (recipient, identity)
}
