//! Many-message SHA-256: every backend this CPU can run against RustCrypto
//! `sha2` (one message at a time), and the Merkle vectors under each backend.
//!
//! `PARCRYPT_REQUIRE_SHA256_BACKENDS=shani,avx2` (a comma list of backend
//! names) makes [`backends_under_test`] fail when one of them cannot run
//! here, so CI proves the paths its machine has were exercised; every test
//! prints the backends it ran.

#![allow(clippy::unwrap_used)]

use std::sync::{Mutex, MutexGuard};

use parcrypt::digest::{self, Backend, Midstate, Unavailable};
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

/// SHA-256 of `parts` concatenated, one-shot, from AWS-LC: independent of
/// RustCrypto `sha2`, whose compression function builds [`Midstate`]s and
/// whose hasher is the `sha2` backend.
fn one_shot(parts: &[&[u8]]) -> [u8; 32] {
    let digest = aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, &parts.concat());
    digest.as_ref().try_into().unwrap()
}

/// Hashes `messages` from the midstate of `blocks` with `backend` and checks
/// every digest against [`one_shot`].
fn check_from(backend: Backend, blocks: &[u8], prefix: &[u8], messages: &[&[u8]], what: &str) {
    let mid = Midstate::new(blocks);
    assert_eq!(mid.blocks(), (blocks.len() / 64) as u64);
    let mut out = vec![[0xEEu8; 32]; messages.len()];
    backend
        .sha256_many_from_into(&mid, prefix, messages, &mut out)
        .unwrap_or_else(|e| panic!("{e}"));
    for (i, (m, got)) in messages.iter().zip(&out).enumerate() {
        assert_eq!(
            *got,
            one_shot(&[blocks, prefix, m]),
            "{backend}: {what}: message {i} of {} ({} bytes) after {} midstate blocks and a {}-byte prefix",
            messages.len(),
            m.len(),
            blocks.len() / 64,
            prefix.len()
        );
    }
}

/// Midstates of 0, 1 and 2 random blocks; every prefix length 0..=64
/// crossed with every message length 0..=200 (1 to 5 blocks after the
/// midstate: every padding case across the boundaries), on every backend.
/// Each (midstate, prefix) is one batch of the 201 lengths, rotated so that
/// lanes of a pass hold different mixtures of lengths and every backend
/// runs full passes and a tail; messages start unaligned. Under emulation
/// (`sha2` alone) prefix lengths in steps of 3 and the boundaries.
#[test]
fn midstate_every_prefix_and_message_length_on_every_backend() {
    let mut rng = Rng(5);
    let blocks = rng.bytes(128);
    let prefixes = rng.bytes(64);
    let data = rng.bytes(201 + 300);
    let prefix_lens: Vec<usize> = (0..=64)
        .filter(|p| !crate::common::emulated() || p % 3 == 0 || [1, 22, 55, 56, 63, 64].contains(p))
        .collect();
    for backend in backends_under_test("midstate_every_prefix_and_message_length_on_every_backend") {
        for mid_blocks in 0..=2 {
            for &p in &prefix_lens {
                let messages: Vec<&[u8]> = (0..=200)
                    .map(|i| {
                        let len = (i + 7 * p + 50 * mid_blocks) % 201;
                        &data[1 + (i * 3) % 300..][..len]
                    })
                    .collect();
                check_from(
                    backend,
                    &blocks[..64 * mid_blocks],
                    &prefixes[..p],
                    &messages,
                    "every length",
                );
            }
        }
    }
}

/// The shapes SLH-DSA-SHA2 hashes after its `PK.seed` block, in batches of
/// 1 to 40 (every lane count and tail of every backend, the AVX-512 pair of
/// groups included): `ADRSc ‖ M` with M of n = 16, 24, 32 bytes (F, PRF),
/// 2n (H), and len·n (T_l: 35·16, 67·32); the 22-byte ADRSc as the prefix
/// and as part of the message; ragged batches of all of them.
#[test]
fn midstate_slh_dsa_shapes_in_batches_of_1_to_40_on_every_backend() {
    let mut rng = Rng(6);
    let data = rng.bytes(40 * (22 + 67 * 32) + 64);
    let adrs = rng.bytes(22);
    let shapes = [16, 24, 32, 48, 64, 35 * 16, 67 * 32];
    for backend in backends_under_test("midstate_slh_dsa_shapes_in_batches_of_1_to_40_on_every_backend") {
        for n in [16usize, 24, 32] {
            let mut seed_block = rng.bytes(n);
            seed_block.resize(64, 0);
            for count in 1..=40 {
                for m in shapes {
                    let stride = 22 + m + 1;
                    let whole: Vec<&[u8]> = (0..count).map(|i| &data[i * stride + 1..][..22 + m]).collect();
                    check_from(
                        backend,
                        &seed_block,
                        &[],
                        &whole,
                        &format!("{count} × ADRSc ‖ {m} bytes"),
                    );
                    let bodies: Vec<&[u8]> = (0..count).map(|i| &data[i * stride..][..m]).collect();
                    check_from(
                        backend,
                        &seed_block,
                        &adrs,
                        &bodies,
                        &format!("{count} × {m} bytes"),
                    );
                }
                let ragged: Vec<&[u8]> = (0..count)
                    .map(|_| {
                        let len = 22 + shapes[rng.below(shapes.len())];
                        let start = rng.below(data.len() - len);
                        &data[start..start + len]
                    })
                    .collect();
                check_from(backend, &seed_block, &[], &ragged, &format!("{count} ragged"));
            }
        }
    }
}

/// Random midstates (0 to 3 blocks), prefixes (0 to 100 bytes) and message
/// lengths up to 4 KiB, in batches of two passes and one message.
#[test]
fn midstate_random_lengths_to_4_kib_on_every_backend() {
    let mut rng = Rng(7);
    let data = rng.bytes(4096 + 64);
    for backend in backends_under_test("midstate_random_lengths_to_4_kib_on_every_backend") {
        for round in 0..8 {
            let (mid_blocks, prefix_len) = (rng.below(4), rng.below(101));
            let blocks = rng.bytes(64 * mid_blocks);
            let prefix = rng.bytes(prefix_len);
            let count = 2 * backend.lanes() + 1;
            let messages: Vec<&[u8]> = (0..count)
                .map(|_| {
                    let (start, len) = (rng.below(64), rng.below(4097));
                    &data[start..][..len]
                })
                .collect();
            check_from(backend, &blocks, &prefix, &messages, &format!("round {round}"));
        }
    }
}

/// The midstate's blocks and the hashed bytes split anywhere between them
/// give SHA-256 of the whole; an empty batch writes nothing.
#[test]
fn midstate_splits_and_empty_batches() {
    let data = Rng(8).bytes(64 * 3 + 100);
    for backend in backends_under_test("midstate_splits_and_empty_batches") {
        let want = one_shot(&[&data]);
        for mid_blocks in 0..=3 {
            let (blocks, rest) = data.split_at(64 * mid_blocks);
            let mid = Midstate::new(blocks);
            for cut in 0..=rest.len() {
                let mut out = [[0u8; 32]; 1];
                backend
                    .sha256_many_from_into(&mid, &rest[..cut], &[&rest[cut..]], &mut out)
                    .unwrap();
                assert_eq!(out[0], want, "{backend}: {mid_blocks} blocks, cut at {cut}");
            }
        }
        backend
            .sha256_many_from_into(&Midstate::new(&data[..64]), b"x", &[], &mut [])
            .unwrap();
    }
    assert_eq!(Midstate::new(&[]), Midstate::new(&[]));
    assert_ne!(Midstate::new(&data[..64]), Midstate::new(&data[64..128]));
}

/// A midstate of a partial block is refused.
#[test]
#[should_panic(expected = "whole 64-byte blocks")]
fn midstate_of_a_partial_block_panics() {
    let _ = Midstate::new(&[0; 63]);
}

/// The free function follows the forced backend; a midstate of no blocks
/// is plain SHA-256, as `sha256_many_prefixed_into` hashes.
#[test]
fn midstate_free_function_follows_the_forced_backend() {
    let data = Rng(9).bytes(64 + 40 * 60);
    let mid = Midstate::new(&data[..64]);
    let messages: Vec<&[u8]> = (0..40).map(|i| &data[64 + i * 60..][..38 + i % 20]).collect();
    under_every_backend("midstate_free_function_follows_the_forced_backend", || {
        let mut out = vec![[0u8; 32]; 40];
        digest::sha256_many_from_into(&mid, &[], &messages, &mut out);
        for (m, got) in messages.iter().zip(&out) {
            assert_eq!(*got, one_shot(&[&data[..64], m]));
        }
        let mut plain = vec![[0u8; 32]; 40];
        digest::sha256_many_from_into(&Midstate::new(&[]), &[0], &messages, &mut out);
        digest::sha256_many_prefixed_into(&[0], &messages, &mut plain);
        assert_eq!(out, plain);
    });
}

/// Set in the child processes of [`midstate_under_environment_and_mask`]:
/// `backend|mask` the child was started with.
const MIDSTATE_CHILD: &str = "PARCRYPT_TEST_MIDSTATE_CHILD";

/// `PARCRYPT_SHA256_BACKEND` and `PARCRYPT_CPU_MASK` in a real process (both
/// are read once per process): this test binary runs
/// [`midstate_child`] again with every available backend named in the
/// environment, and with masks that take kernels away; each child checks
/// that the active backend is the one asked for (or, masked, one that
/// remains) and hashes SLH-DSA-shaped batches through the free function.
#[test]
fn midstate_under_environment_and_mask() {
    if std::env::var_os(MIDSTATE_CHILD).is_some() {
        return;
    }
    if crate::common::emulated() {
        // Under qemu-user the test binary cannot re-run itself without the
        // runner; there `sha2` is the only backend, which the other
        // midstate tests run.
        println!("not run under emulation: the test binary cannot start itself");
        return;
    }
    let mut runs: Vec<(String, String)> = backends_under_test("midstate_under_environment_and_mask")
        .into_iter()
        .map(|b| (b.name().to_owned(), String::new()))
        .collect();
    if cfg!(target_arch = "x86_64") {
        for mask in ["avx512", "shani", "avx2,shani", "x86-64-v3"] {
            runs.push((String::new(), mask.to_owned()));
        }
    }
    for (backend, mask) in runs {
        let mut child = std::process::Command::new(std::env::current_exe().unwrap());
        child
            .args(["sha_many::midstate_child", "--exact", "--nocapture"])
            .env(MIDSTATE_CHILD, format!("{backend}|{mask}"));
        if mask.is_empty() {
            // This process's own mask, if any (CI's masked pass), stays.
            child.env("PARCRYPT_SHA256_BACKEND", &backend);
        } else {
            child
                .env("PARCRYPT_CPU_MASK", &mask)
                .env_remove("PARCRYPT_SHA256_BACKEND");
        }
        let out = child.output().unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.status.success() && text.contains("1 passed"),
            "backend {backend:?}, mask {mask:?}: {}\n{text}",
            out.status
        );
        eprintln!("midstate_under_environment_and_mask: backend {backend:?}, mask {mask:?}: passed");
    }
}

/// The child of [`midstate_under_environment_and_mask`] (does nothing in a
/// plain test run).
#[test]
fn midstate_child() {
    let Some(asked) = std::env::var_os(MIDSTATE_CHILD) else {
        return;
    };
    let asked = asked.to_string_lossy().into_owned();
    let (backend, mask) = asked.split_once('|').unwrap();
    let active = Backend::active();
    if backend.is_empty() {
        assert_eq!(active, Backend::detected());
    } else {
        assert_eq!(active, backend.parse::<Backend>().unwrap(), "{asked}");
    }
    for masked in mask.split(',').filter(|m| !m.is_empty()) {
        let gone: &[Backend] = match masked {
            "avx512" => &[Backend::Avx512X16],
            "shani" => &[Backend::ShaNiX2, Backend::ShaNiX4],
            "avx2" => &[Backend::Avx2X8, Backend::Avx512X16],
            "x86-64-v3" => &[Backend::Avx512X16, Backend::ShaNiX2, Backend::ShaNiX4],
            other => panic!("mask {other}"),
        };
        for b in gone {
            assert!(!b.is_available(), "{b} available under mask {mask}");
        }
    }
    eprintln!(
        "midstate child: {asked}: active {active}, available {:?}",
        Backend::available()
    );
    let mut rng = Rng(10);
    let data = rng.bytes(40 * 100 + 64);
    for mid_blocks in 0..=2 {
        let blocks = rng.bytes(64 * mid_blocks);
        let mid = Midstate::new(&blocks);
        for count in 1..=40 {
            for len in [38, 54, 86, 150] {
                let messages: Vec<&[u8]> = (0..count).map(|i| &data[i * 100 + 1..][..len]).collect();
                let mut out = vec![[0u8; 32]; count];
                digest::sha256_many_from_into(&mid, b"p", &messages, &mut out);
                for (m, got) in messages.iter().zip(&out) {
                    assert_eq!(*got, one_shot(&[&blocks, b"p", m]), "{asked}: {count} × {len}");
                }
            }
        }
    }
}
