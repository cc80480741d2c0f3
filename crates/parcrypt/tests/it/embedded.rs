//! What a long-running process embedding the library (the Python and Java
//! bindings) relies on: a file truncated while it is hashed is an error,
//! never a signal that kills the process; refused keys leave nothing
//! allocated behind. (The bindings' own tests run the same races through
//! the installed packages.)

#![allow(clippy::unwrap_used)]

use std::io::Write;
use std::process::Command;
use std::time::Duration;

use parcrypt::ecdsa;
use parcrypt::keys::{SigningKey as _, VerifyingKey as _};
use parcrypt::merkle::{self, Format};
use parcrypt::par::{Parallelism, Strategy};
use parcrypt::rsa;

/// Runs the test `name` alone in a child process of this test binary (so
/// that its measurement of the process sees nothing of other tests), unless
/// this is that child; returns whether the caller is the child.
fn alone(name: &str) -> bool {
    const CHILD: &str = "PARCRYPT_TEST_ALONE";
    if std::env::var_os(CHILD).is_some_and(|v| v == name) {
        return true;
    }
    let out = Command::new(std::env::current_exe().unwrap())
        .args([name, "--exact", "--test-threads=1", "--nocapture"])
        .env(CHILD, name)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    println!("{text}");
    assert!(
        out.status.success(),
        "{name} in a child process: {}\n{text}",
        out.status
    );
    assert!(
        text.contains("1 passed"),
        "{name} did not run in the child:\n{text}"
    );
    false
}

/// Under emulation (`scripts/test-aarch64.sh`) a tenth of the races: the
/// same code paths, 10–30× slower.
fn scaled(n: usize) -> usize {
    if crate::common::emulated() {
        (n / 10).max(1)
    } else {
        n
    }
}

/// The resident set of this process, in bytes (`/proc/self/statm`).
fn rss() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap();
    let pages: u64 = statm.split_whitespace().nth(1).unwrap().parse().unwrap();
    pages * 4096
}

/// How much the resident set grows over `n` calls of `f` (after 1,000 to
/// warm up allocators and caches).
fn growth(n: usize, mut f: impl FnMut()) -> u64 {
    for _ in 0..scaled(1000) {
        f();
    }
    let before = rss();
    for _ in 0..n {
        f();
    }
    rss().saturating_sub(before)
}

/// 20,000 loads of each key form with a byte after the DER (which AWS-LC
/// parses, then parcrypt refuses): before every parsed object was owned
/// from the moment it existed, the refused RSA key leaked (41.7 MB per
/// 20,000 loads from Python); now the resident set stays flat. PEM goes
/// through the same DER parsers.
#[test]
fn refused_keys_with_trailing_bytes_leave_nothing_allocated() {
    if crate::common::emulated() {
        // Under qemu-user the resident set is the emulator's (its code
        // cache grows as it translates), and the test binary cannot re-run
        // itself without the runner; the paths measured are the same Rust
        // and C as natively, where this runs.
        println!("not measured under emulation: the resident set would be qemu's");
        return;
    }
    if !alone("embedded::refused_keys_with_trailing_bytes_leave_nothing_allocated") {
        return;
    }
    let par = Parallelism::new(1, Strategy::Sequential);
    let rsa_key = rsa::PrivateKey::generate(2048, &par).unwrap();
    let ec_key = ecdsa::PrivateKey::generate().unwrap();
    let trailing = |der: &[u8]| [der, &[0u8][..]].concat();
    let rsa_pkcs8 = trailing(rsa_key.to_pkcs8_der().unwrap().expose());
    let rsa_pkcs1 = trailing(rsa_key.to_pkcs1_der().unwrap().expose());
    let rsa_spki = trailing(&rsa_key.public_key().to_spki_der().unwrap());
    let ec_pkcs8 = trailing(ec_key.to_pkcs8_der().unwrap().expose());
    let ec_sec1 = trailing(ec_key.to_sec1_der().unwrap().expose());
    let ec_spki = trailing(&ec_key.public_key().to_spki_der().unwrap());
    let n = scaled(20_000);
    // 41.7 MB leaked per 20,000 RSA keys before (2 KB a load); a flat
    // process stays well under this (allocator noise).
    let bound: u64 = (4 << 20) * n as u64 / 20_000;
    type Load<'a> = Box<dyn Fn() -> bool + 'a>;
    let forms: [(&str, Load); 6] = [
        (
            "RSA PKCS#8",
            Box::new(|| rsa::PrivateKey::from_pkcs8_der(&rsa_pkcs8, &Parallelism::sequential()).is_err()),
        ),
        (
            "RSA PKCS#1",
            Box::new(|| rsa::PrivateKey::from_pkcs1_der(&rsa_pkcs1).is_err()),
        ),
        (
            "RSA SPKI",
            Box::new(|| rsa::PublicKey::from_spki_der(&rsa_spki).is_err()),
        ),
        (
            "EC PKCS#8",
            Box::new(|| ecdsa::PrivateKey::from_pkcs8_der(&ec_pkcs8, &Parallelism::sequential()).is_err()),
        ),
        (
            "EC SEC1",
            Box::new(|| ecdsa::PrivateKey::from_sec1_der(&ec_sec1).is_err()),
        ),
        (
            "EC SPKI",
            Box::new(|| ecdsa::PublicKey::from_spki_der(&ec_spki).is_err()),
        ),
    ];
    for (name, load) in forms {
        let grew = growth(n, || assert!(load(), "{name} with a trailing byte was accepted"));
        println!("{name}: resident set grew {grew} bytes over {n} refused loads");
        assert!(
            grew < bound,
            "{name}: {grew} bytes more resident after {n} refused loads"
        );
    }
}

/// A file truncated by someone else while it is hashed: every format, on
/// one and two threads, gives a root or an error — the process is never
/// killed (it used to be, by SIGBUS, when large files were memory-mapped).
#[test]
fn a_file_truncated_while_it_is_hashed_is_an_error_not_a_signal() {
    let len = scaled(48 << 20);
    let data: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
    let formats = [
        Format::Sha256,
        Format::Rfc6962 { leaf_size: 4096 },
        Format::BitTorrentV2,
        Format::Glacier,
    ];
    let (mut errors, mut roots) = (0, 0);
    for (i, format) in formats.into_iter().enumerate() {
        for threads in [1, 2] {
            for delay_ms in [0u64, 2, 8] {
                let dir = tempfile::tempdir().unwrap();
                let path = dir.path().join("shrinking");
                std::fs::File::create(&path).unwrap().write_all(&data).unwrap();
                let file = std::fs::File::open(&path).unwrap();
                let par = Parallelism::new(threads, Strategy::WorkStealing);
                let truncate = std::thread::spawn({
                    let path = path.clone();
                    move || {
                        std::thread::sleep(Duration::from_millis(delay_ms + i as u64));
                        std::fs::OpenOptions::new()
                            .write(true)
                            .open(&path)
                            .unwrap()
                            .set_len(7)
                            .unwrap();
                    }
                });
                match merkle::hash_file(format, &file, &par, |_| {}) {
                    Ok(_) => roots += 1,
                    Err(merkle::Error::Io(e)) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
                        assert!(e.to_string().contains("truncated"), "{format:?}: {e}");
                        errors += 1;
                    }
                    Err(e) => panic!("{format:?}, {threads} threads: {e:?}"),
                }
                truncate.join().unwrap();
            }
        }
    }
    println!("{roots} roots (hashed before the truncation), {errors} errors");
}

/// The names of this process's parcrypt pool workers (`parcrypt-N-i`: the
/// pool of N helpers a call on N + 1 threads uses), from `/proc/self/task`.
fn pool_workers() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir("/proc/self/task")
        .unwrap()
        .filter_map(|task| std::fs::read_to_string(task.ok()?.path().join("comm")).ok())
        .map(|comm| comm.trim_end().to_owned())
        .filter(|comm| comm.starts_with("parcrypt-"))
        .collect();
    names.sort();
    names
}

/// What `parcrypt slh-dsa sign --threads 1`, Python's
/// `load_pem_private_key(..., threads=1)` and a provider made with one
/// thread rely on: reading an SLH-DSA private key (which rebuilds its top
/// tree) runs on the threads the reader is given, and one thread starts no
/// worker at all; every reader — the family's (plain, password-protected,
/// the public half of a private key) and `anykey`'s. Several threads do
/// start their pool, so the check can see one.
#[test]
fn an_slhdsa_key_is_read_on_the_threads_it_is_given() {
    if crate::common::emulated() || !std::path::Path::new("/proc/self/task").exists() {
        println!("not checked here: the pool's workers are counted in /proc/self/task (natively, on Linux)");
        return;
    }
    if !alone("embedded::an_slhdsa_key_is_read_on_the_threads_it_is_given") {
        return;
    }
    use parcrypt::anykey;
    use parcrypt::pkcs8;
    use parcrypt::slhdsa;
    let seq = Parallelism::sequential();
    // 128s: a top tree big enough to be spread over threads (128f's is not).
    let key = slhdsa::PrivateKey::from_seeds(
        slhdsa::ParameterSet::Sha2_128s,
        &[1; 16],
        &[2; 16],
        &[3; 16],
        &seq,
    )
    .unwrap();
    let pem = key.to_pkcs8_pem();
    let fast = pkcs8::Options {
        kdf: pkcs8::Kdf::Pbkdf2 {
            prf: pkcs8::Prf::HmacSha256,
            iterations: 1000,
        },
        ..pkcs8::Options::default()
    };
    let locked = key.to_pkcs8_encrypted_pem(b"pw", &fast).unwrap();
    assert_eq!(pool_workers(), Vec::<String>::new(), "before any read");
    let read_all = |par: &Parallelism| {
        let a =
            <slhdsa::PrivateKey as parcrypt::keys::SigningKey>::from_bytes(pem.expose_bytes(), par).unwrap();
        let b = slhdsa::PrivateKey::from_bytes_with_password(locked.as_bytes(), b"pw", par).unwrap();
        let c =
            <slhdsa::PublicKey as parcrypt::keys::VerifyingKey>::from_bytes(pem.expose_bytes(), par).unwrap();
        let d = anykey::read_private(pem.expose_bytes(), None, &pkcs8::KdfLimits::DEFAULT, par).unwrap();
        assert!(a.public_key() == key.public_key() && b.public_key() == key.public_key());
        assert!(&c == key.public_key());
        assert!(matches!(d, anykey::PrivateKey::SlhDsa(d) if d.public_key() == key.public_key()));
    };
    read_all(&Parallelism::new(1, Strategy::WorkStealing));
    assert_eq!(pool_workers(), Vec::<String>::new(), "read on 1 thread");
    read_all(&Parallelism::new(3, Strategy::WorkStealing));
    // The caller and the pool of 2 helpers (`parcrypt-2-i`).
    let workers = pool_workers();
    assert!(
        !workers.is_empty() && workers.iter().all(|w| w.starts_with("parcrypt-2-")),
        "read on 3 threads: {workers:?}"
    );
}
