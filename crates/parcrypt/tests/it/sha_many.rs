//! Many-message SHA-256: every backend this CPU can run against RustCrypto
//! `sha2` (one message at a time), and the Merkle vectors under each backend.
//!
//! `PARCRYPT_REQUIRE_SHA256_BACKENDS=shani,avx2` (a comma list of backend
//! names) makes [`backends_under_test`] fail when one of them cannot run
//! here, so CI proves the paths its machine has were exercised; every test
//! prints the backends it ran.

#![allow(clippy::unwrap_used)]

use std::sync::{Mutex, MutexGuard};

use parcrypt::digest::{self, Backend, Unavailable};
use sha2::Digest as _;

/// The available backends, after checking `PARCRYPT_REQUIRE_SHA256_BACKENDS`.
fn backends_under_test(test: &str) -> Vec<Backend> {
    let available = Backend::available();
    if let Ok(required) = std::env::var("PARCRYPT_REQUIRE_SHA256_BACKENDS") {
        for name in required.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let backend: Backend = name
                .parse()
                .unwrap_or_else(|e| panic!("PARCRYPT_REQUIRE_SHA256_BACKENDS: {e}"));
            assert!(
                available.contains(&backend),
                "PARCRYPT_REQUIRE_SHA256_BACKENDS names {backend}, which this CPU cannot run \
                 (available: {available:?})"
            );
        }
    }
    let names: Vec<&str> = available.iter().map(|b| b.name()).collect();
    let missing: Vec<String> = Backend::ALL
        .iter()
        .filter_map(|b| b.missing().map(|why| format!("{} needs {why}", b.name())))
        .collect();
    eprintln!(
        "{test}: SHA-256 backends run: {} (skipped: {}; {})",
        names.join(", "),
        if missing.is_empty() {
            "none".to_owned()
        } else {
            missing.join(", ")
        },
        parcrypt::cpu::report()
    );
    available
}

fn reference(prefix: &[u8], message: &[u8]) -> [u8; 32] {
    let mut h = sha2::Sha256::new();
    h.update(prefix);
    h.update(message);
    h.finalize().into()
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

/// Hashes `messages` with `backend` (with and without prefixes) and checks
/// every digest against `sha2`.
fn check(backend: Backend, messages: &[&[u8]], what: &str) {
    for prefix in [&[][..], &[0], &[1], b"domain separation tag"] {
        let mut out = vec![[0xEEu8; 32]; messages.len()];
        backend
            .sha256_many_prefixed_into(prefix, messages, &mut out)
            .unwrap_or_else(|e| panic!("{e}"));
        for (i, (m, got)) in messages.iter().zip(&out).enumerate() {
            assert_eq!(
                *got,
                reference(prefix, m),
                "{backend}: {what}, message {i} of {} ({} bytes), prefix {prefix:?}",
                messages.len(),
                m.len()
            );
        }
    }
}

/// Every length from 0 to 1100 (all padding cases, 0 to 18 blocks), each in
/// a batch of `2 × lanes + 1` equal-length messages (two full passes, which
/// AVX-512 runs interleaved, and a one-message tail) read at odd offsets, so
/// no message starts aligned.
#[test]
fn every_length_to_1100_on_every_backend() {
    let data = Rng(1).bytes(34 * 1200);
    for backend in backends_under_test("every_length_to_1100_on_every_backend") {
        let count = 2 * backend.lanes() + 1;
        for len in 0..=1100 {
            let messages: Vec<&[u8]> = (0..count).map(|i| &data[i * 1103 + 1 + i % 7..][..len]).collect();
            check(backend, &messages, &format!("length {len}"));
        }
    }
}

/// Counts 0 to 33 (past two passes of the widest backend; tails shorter
/// than half a pass go to a narrower backend, longer ones run with idle
/// lanes), messages of unequal lengths in one batch (lanes finish at
/// different blocks), unaligned.
#[test]
fn ragged_batches_on_every_backend() {
    let mut rng = Rng(2);
    let data = rng.bytes(40_000);
    for backend in backends_under_test("ragged_batches_on_every_backend") {
        for count in 0..=33 {
            for round in 0..12 {
                let messages: Vec<&[u8]> = (0..count)
                    .map(|_| {
                        let len = if round % 2 == 0 {
                            rng.below(300)
                        } else {
                            rng.below(3000)
                        };
                        let start = rng.below(data.len() - len);
                        &data[start..start + len]
                    })
                    .collect();
                check(backend, &messages, &format!("{count} ragged messages"));
            }
        }
    }
}

/// Random lengths up to 1 MiB.
#[test]
fn random_lengths_to_1_mib_on_every_backend() {
    let mut rng = Rng(3);
    let data = rng.bytes((1 << 20) + 64);
    for backend in backends_under_test("random_lengths_to_1_mib_on_every_backend") {
        let count = 2 * backend.lanes() + 1;
        let lens: Vec<usize> = (0..count).map(|_| rng.below((1 << 20) + 1)).collect();
        let messages: Vec<&[u8]> = lens.iter().map(|&len| &data[rng.below(64)..][..len]).collect();
        check(backend, &messages, "random lengths up to 1 MiB");
        // And equal lengths, the shape Merkle leaves have.
        let len = rng.below((1 << 20) + 1);
        let equal: Vec<&[u8]> = (0..count).map(|i| &data[i..][..len]).collect();
        check(backend, &equal, &format!("{count} messages of {len} bytes"));
    }
}

/// Node pairs `prefix ‖ left ‖ right`, for every count to 2 × 16 + 1.
#[test]
fn node_pairs_on_every_backend() {
    let mut rng = Rng(4);
    for backend in backends_under_test("node_pairs_on_every_backend") {
        for count in 0..=33 {
            let nodes: Vec<[u8; 32]> = (0..2 * count)
                .map(|_| rng.bytes(32).try_into().unwrap())
                .collect();
            for prefix in [&[][..], &[1]] {
                let mut out = vec![[0u8; 32]; count];
                backend.sha256_pairs_into(prefix, &nodes, &mut out).unwrap();
                for (i, got) in out.iter().enumerate() {
                    let want = reference(prefix, &[nodes[2 * i], nodes[2 * i + 1]].concat());
                    assert_eq!(*got, want, "{backend}: pair {i} of {count}, prefix {prefix:?}");
                }
            }
        }
    }
}

/// Backends the CPU lacks are refused, never run; names parse.
#[test]
fn unavailable_backends_are_refused() {
    let mut out = [[0u8; 32]; 1];
    for backend in Backend::ALL {
        assert_eq!(backend.name().parse::<Backend>(), Ok(backend));
        let got = backend.sha256_many_into(&[b"abc"], &mut out);
        if backend.is_available() {
            assert_eq!(got, Ok(()));
            assert_eq!(out[0], reference(b"", b"abc"));
        } else {
            assert_eq!(got, Err(Unavailable(backend)));
        }
    }
    assert!("sha3".parse::<Backend>().is_err());
    assert!(Backend::active().is_available());
    assert!(Backend::detected().is_available());
    // The environment, if set here, names a backend this CPU can run.
    if let Err(e) = Backend::from_env() {
        panic!("{e}");
    }
}

/// Serializes the tests that switch the process-wide backend (others may
/// run meanwhile; every backend hashes alike, so they only change speed).
pub fn forcing() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs `check` with each available backend forced for the whole process.
pub fn under_every_backend(test: &str, check: impl Fn()) {
    let _guard = forcing();
    for backend in backends_under_test(test) {
        Backend::force(Some(backend)).unwrap();
        assert_eq!(Backend::active(), backend);
        check();
    }
    Backend::force(None).unwrap();
}

/// The free functions follow the forced backend.
#[test]
fn free_functions_follow_the_forced_backend() {
    let messages: Vec<Vec<u8>> = (0..40).map(|i| vec![i as u8; 100 + i]).collect();
    let refs: Vec<&[u8]> = messages.iter().map(Vec::as_slice).collect();
    let nodes: Vec<[u8; 32]> = (0..40).map(|i| [i as u8; 32]).collect();
    under_every_backend("free_functions_follow_the_forced_backend", || {
        let mut out = vec![[0u8; 32]; 40];
        digest::sha256_many_into(&refs, &mut out);
        for (m, got) in refs.iter().zip(&out) {
            assert_eq!(*got, reference(b"", m));
        }
        digest::sha256_many_prefixed_into(&[0], &refs, &mut out);
        for (m, got) in refs.iter().zip(&out) {
            assert_eq!(*got, reference(&[0], m));
        }
        let mut pairs = vec![[0u8; 32]; 20];
        digest::sha256_pairs_into(&[1], &nodes, &mut pairs);
        for (i, got) in pairs.iter().enumerate() {
            assert_eq!(*got, reference(&[1], &[nodes[2 * i], nodes[2 * i + 1]].concat()));
        }
    });
}

/// Every Merkle vector of `merkle.rs` (transparency-dev roots, inclusion
/// and consistency cases, BEP 52, Glacier and the RFC 6962 reference
/// vectors) under each backend.
#[test]
fn merkle_vectors_under_every_backend() {
    under_every_backend("merkle_vectors_under_every_backend", || {
        crate::merkle::check_standard_roots();
        crate::merkle::check_transparency_dev_inclusion();
        crate::merkle::check_transparency_dev_consistency();
        crate::merkle::check_reference_vectors();
    });
}
