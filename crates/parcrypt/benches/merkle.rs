//! Merkle trees: RFC 6962 (4 KiB and the paper's 32-byte leaves), BitTorrent
//! v2 and Glacier, 1 thread vs 2 threads per strategy, from below the
//! parallel threshold (256 KiB) to 64 MiB; the paper's level-by-level
//! method beside the block engine; plain SHA-256 as the per-core ceiling.
//!
//! `cargo bench -p parcrypt --bench merkle`

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use parcrypt::merkle::{self, BitTorrentV2, Chunks, Glacier, Rfc6962};
use parcrypt::par::{Parallelism, Strategy};

fn impls() -> [(&'static str, Parallelism); 3] {
    [
        ("seq-1t", Parallelism::sequential()),
        ("static-2t", Parallelism::new(2, Strategy::Static)),
        ("steal-2t", Parallelism::new(2, Strategy::WorkStealing)),
    ]
}

fn data(size: usize) -> Vec<u8> {
    (0..size).map(|i| (i % 251) as u8).collect()
}

fn trees(c: &mut Criterion) {
    type Tree = fn(&Parallelism, &[u8]) -> [u8; 32];
    let formats: [(&str, Tree, &[usize]); 5] = [
        (
            "rfc6962-4kib",
            |p, d| Rfc6962::root(&Chunks::new(d, 4096), p),
            &[256 << 10, 1 << 20, 64 << 20],
        ),
        (
            "rfc6962-32b",
            |p, d| Rfc6962::root(&Chunks::new(d, 32), p),
            &[1 << 20],
        ),
        (
            "per-level-32b",
            |p, d| merkle::per_level::rfc6962(&Chunks::new(d, 32), p),
            &[1 << 20],
        ),
        (
            "bittorrent-v2",
            |p, d| BitTorrentV2::root(d, p),
            &[1 << 20, 64 << 20],
        ),
        ("glacier", |p, d| Glacier::root(d, p), &[64 << 20]),
    ];
    for (name, tree, sizes) in formats {
        let mut group = c.benchmark_group(format!("merkle-{name}"));
        group.sample_size(20).measurement_time(Duration::from_secs(4));
        for &size in sizes {
            let input = data(size);
            group.throughput(Throughput::Bytes(size as u64));
            for (label, par) in &impls() {
                group.bench_function(BenchmarkId::new(*label, size), |b| {
                    b.iter(|| tree(par, black_box(&input)));
                });
            }
        }
        group.finish();
    }
    let mut group = c.benchmark_group("sha256");
    group.sample_size(20).measurement_time(Duration::from_secs(4));
    let input = data(64 << 20);
    group.throughput(Throughput::Bytes(input.len() as u64));
    group.bench_function("plain-1t", |b| {
        b.iter(|| parcrypt::digest::sha256(black_box(&input)))
    });
    group.finish();
}

criterion_group!(benches, trees);
criterion_main!(benches);
