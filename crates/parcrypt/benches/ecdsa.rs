//! ECDSA P-256 verification of a SHA-256 digest: one signature by each
//! strategy (AWS-LC's joint multiplication; the JCE paper's baseline, u1·G
//! then u2·Q on one thread; the paper's split, one product on each of two
//! threads, static and work-stealing), and batches of 64 and 1024 signatures
//! (each under its own key, each verified jointly) on one thread against two.
//!
//! The split is expected to lose to the joint multiplication (u2·Q alone costs
//! nearly as much); batches are where a second thread pays. The lab
//! (`parcrypt lab --only 'ecdsa*'`) sweeps more thread counts and batch sizes
//! and sets the numbers beside the paper's Table 5 and `openssl speed`.
//!
//! `cargo bench -p parcrypt --bench ecdsa`

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use parcrypt::digest;
use parcrypt::ecdsa::{self, DigestItem, PrivateKey, Signature, VerifyStrategy};
use parcrypt::keys::SigningKey as _;
use parcrypt::par::{Parallelism, Strategy};

/// Keys, digests and signatures, one key per signature.
fn signed(n: usize) -> (Vec<PrivateKey>, Vec<digest::Digest>, Vec<Signature>) {
    let keys: Vec<PrivateKey> = (0..n)
        .map(|_| PrivateKey::generate().expect("ECDSA key generation"))
        .collect();
    let digests: Vec<digest::Digest> = (0..n)
        .map(|i| digest::sha256(format!("parcrypt bench message {i}").as_bytes()))
        .collect();
    let signatures = keys
        .iter()
        .zip(&digests)
        .map(|(key, digest)| key.sign_digest(digest).expect("ECDSA signature"))
        .collect();
    (keys, digests, signatures)
}

fn verify(c: &mut Criterion) {
    let (keys, digests, signatures) = signed(1);
    let (key, digest, signature) = (keys[0].public_key(), &digests[0], &signatures[0]);
    let mut group = c.benchmark_group("ecdsa-verify");
    group
        .warm_up_time(Duration::from_secs(1))
        .sample_size(50)
        .measurement_time(Duration::from_secs(3));
    let strategies = [
        ("joint-1t", VerifyStrategy::Joint, Parallelism::sequential()),
        ("separate-1t", VerifyStrategy::Split, Parallelism::sequential()),
        (
            "split-static-2t",
            VerifyStrategy::Split,
            Parallelism::new(2, Strategy::Static),
        ),
        (
            "split-steal-2t",
            VerifyStrategy::Split,
            Parallelism::new(2, Strategy::WorkStealing),
        ),
    ];
    for (label, strategy, par) in strategies {
        group.bench_with_input(BenchmarkId::from_parameter(label), &par, |b, par| {
            b.iter(|| {
                key.verify_digest_vartime(black_box(digest), signature, strategy, par)
                    .expect("valid signature");
            });
        });
    }
    group.finish();
}

fn batch(c: &mut Criterion) {
    const SIZES: [usize; 2] = [64, 1024];
    let (keys, digests, signatures) = signed(SIZES[1]);
    let mut group = c.benchmark_group("ecdsa-verify-batch");
    group.warm_up_time(Duration::from_secs(1));
    for size in SIZES {
        let items: Vec<DigestItem<'_>> = (0..size)
            .map(|i| DigestItem {
                key: keys[i].public_key(),
                digest: &digests[i],
                signature: &signatures[i],
            })
            .collect();
        // Elements are signatures: criterion reports verifications per second.
        group.throughput(Throughput::Elements(size as u64));
        if size >= 1024 {
            // ~60 ms per batch on one thread.
            group.sample_size(20).measurement_time(Duration::from_secs(4));
        } else {
            group.sample_size(50).measurement_time(Duration::from_secs(3));
        }
        for (label, par) in [
            ("seq-1t", Parallelism::sequential()),
            ("static-2t", Parallelism::new(2, Strategy::Static)),
            ("steal-2t", Parallelism::new(2, Strategy::WorkStealing)),
        ] {
            group.bench_with_input(BenchmarkId::new(label, size), &par, |b, par| {
                b.iter(|| {
                    let ok = ecdsa::verify_batch_digests_vartime(black_box(&items), par);
                    assert!(ok.iter().all(|&v| v), "a valid signature failed to verify");
                });
            });
        }
    }
    group.finish();
}

criterion_group!(benches, verify, batch);
criterion_main!(benches);
