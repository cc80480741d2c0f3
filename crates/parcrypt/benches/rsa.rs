//! RSA: the private operation (RSASSA-PSS SHA-256 signatures, 2048 and 4096
//! bits) on one thread against two, both as parcrypt signs by default
//! (`CrtMode::Auto`: on AVX-512 IFMA CPUs both CRT halves at once in SIMD
//! lanes on one core, whatever the threads) and with the JCE paper's halves
//! forced onto two threads (`CrtMode::Threads`, ids `*-crt-threads`); the
//! research paper's bulk decryption of 100 000 bytes (527 blocks) on one
//! thread against two; 2048-bit key generation, sequential (p then q) against
//! the JCE paper's p ∥ q (`static`) and all threads racing (`steal`).
//!
//! Key generation is heavy-tailed (22–219 ms at 2048 bits): each sample
//! averages ten or so keys, and the lab (`parcrypt lab --only 'rsa-keygen*'`)
//! gives the per-key median and p90. Takes about 2 minutes.
//!
//! `cargo bench -p parcrypt --bench rsa`

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use parcrypt::digest::Algorithm;
use parcrypt::hazmat::{rsa_bulk_decrypt, rsa_bulk_encrypt};
use parcrypt::keys::SigningKey as _;
use parcrypt::par::{Parallelism, Strategy};
use parcrypt::rsa::{CrtMode, PrivateKey, Scheme};

fn impls() -> [(&'static str, Parallelism); 3] {
    [
        ("seq-1t", Parallelism::sequential()),
        ("static-2t", Parallelism::new(2, Strategy::Static)),
        ("steal-2t", Parallelism::new(2, Strategy::WorkStealing)),
    ]
}

fn data(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i % 251) as u8).collect()
}

fn key(bits: usize) -> PrivateKey {
    PrivateKey::generate(bits, &Parallelism::default()).expect("RSA key generation")
}

fn sign(c: &mut Criterion) {
    for bits in [2048, 4096] {
        let key = key(bits);
        let msg = data(32);
        let mut group = c.benchmark_group(format!("rsa-sign-{bits}"));
        group.warm_up_time(Duration::from_secs(1));
        if bits >= 4096 {
            // 2–6 ms per signature on one thread (with or without the SIMD kernel).
            group
                .sampling_mode(SamplingMode::Flat)
                .sample_size(20)
                .measurement_time(Duration::from_secs(4));
        } else {
            group.sample_size(50).measurement_time(Duration::from_secs(3));
        }
        // The same key with the halves forced onto threads.
        let der = key.to_pkcs8_der().expect("PKCS#8 encoding");
        let threads = PrivateKey::from_pkcs8_der(der.expose(), &Parallelism::sequential())
            .expect("PKCS#8 decoding")
            .with_crt_mode(CrtMode::Threads);
        let variants = impls()
            .into_iter()
            .map(|(label, par)| (label.to_owned(), par, &key))
            .chain(
                impls()
                    .into_iter()
                    .skip(1)
                    .map(|(label, par)| (format!("{label}-crt-threads"), par, &threads)),
            );
        for (label, par, key) in variants {
            group.bench_with_input(BenchmarkId::from_parameter(label), &par, |b, par| {
                b.iter(|| {
                    key.sign(Scheme::Pss, Algorithm::Sha256, black_box(&msg), par)
                        .expect("RSA signature")
                });
            });
        }
        group.finish();
    }
}

fn bulk_decrypt(c: &mut Criterion) {
    const SIZE: usize = 100_000;
    let key = key(2048);
    let ciphertext =
        rsa_bulk_encrypt(key.public_key(), &data(SIZE), &Parallelism::default()).expect("RSA encryption");
    let mut group = c.benchmark_group("rsa-bulk-dec");
    // ~0.35 s per run on one thread: ten runs of each, no more.
    group
        .throughput(Throughput::Bytes(SIZE as u64))
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    for (label, par) in impls() {
        group.bench_with_input(BenchmarkId::new(label, SIZE), &par, |b, par| {
            b.iter(|| rsa_bulk_decrypt(&key, black_box(&ciphertext), par).expect("RSA decryption"));
        });
    }
    group.finish();
}

fn keygen(c: &mut Criterion) {
    let mut group = c.benchmark_group("rsa-keygen-2048");
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(10));
    for (label, par) in impls() {
        group.bench_with_input(BenchmarkId::from_parameter(label), &par, |b, par| {
            b.iter(|| PrivateKey::generate(2048, par).expect("RSA key generation"));
        });
    }
    group.finish();
}

criterion_group!(benches, sign, bulk_decrypt, keygen);
criterion_main!(benches);
