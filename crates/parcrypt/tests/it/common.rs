//! Helpers shared by the integration tests.
#![allow(dead_code)]

use parcrypt::par::{Parallelism, Strategy};

/// Whether the tests run under emulation: `scripts/test-aarch64.sh` sets
/// `PARCRYPT_EMULATED=1` for the aarch64 tests under qemu-user, where the
/// code runs 10–30× slower. The native run (x86-64, twice in CI) covers the
/// same schedule logic in full; the emulated run is there for the aarch64
/// backends (AWS-LC's assembly, the SHA-2, GHASH and ChaCha20 kernels), so
/// sweeps whose cost is in the number of schedules or of random cases run a
/// cross-section there (each such test says which).
pub fn emulated() -> bool {
    std::env::var_os("PARCRYPT_EMULATED").is_some()
}

/// Every strategy at every thread count from 1 to 8. Under emulation
/// ([`emulated`]) a cross-section: sequential, the static split on 3
/// threads (uneven parts) and work stealing on 8 (more parts than the
/// cores): the emulated run checks the aarch64 backends at every part
/// boundary, the native run every schedule.
pub fn every_parallelism() -> Vec<Parallelism> {
    if emulated() {
        return vec![
            Parallelism::sequential(),
            Parallelism::new(3, Strategy::Static),
            Parallelism::new(8, Strategy::WorkStealing),
        ];
    }
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

/// Whether the external tool a comparison needs is here: `openssl`, or any
/// program that answers `--version`.
///
/// Missing, the test skips (returns early on `false`) with a `SKIPPED` line
/// on stderr; with `PARCRYPT_REQUIRE_TOOLS=1` (as `.ci/run` sets) it fails
/// instead, so CI proves every interop test ran. With
/// `PARCRYPT_TOOLS_LOG=FILE`, appends `ran|skipped TOOL TEST` to FILE, for
/// CI's list of the interop tools that ran.
pub fn require_tool(tool: &str) -> bool {
    let probe: &[&str] = match tool {
        "openssl" => &["openssl", "version"],
        program => &[program, "--version"],
    };
    let present = std::process::Command::new(probe[0])
        .args(&probe[1..])
        .stdin(std::process::Stdio::null())
        .output()
        .is_ok_and(|o| o.status.success());
    crate::tools::require(tool, present)
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
