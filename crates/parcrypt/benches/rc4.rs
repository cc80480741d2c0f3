//! RC4 (sequential) and PARC4 (1 thread vs 2 threads, each strategy) at the
//! PARC4 paper's largest size (3 MB) and 64 MiB, and the per-block key cost at
//! small blocks.
//!
//! `cargo bench -p parcrypt --bench rc4`

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use parcrypt::hazmat::{Parc4, Rc4};
use parcrypt::par::{Parallelism, Strategy};

fn rc4(c: &mut Criterion) {
    let mut group = c.benchmark_group("rc4");
    group.sample_size(10).measurement_time(Duration::from_secs(5));
    for size in [3_000_000usize, 64 << 20] {
        let mut buf = vec![0u8; size];
        group.throughput(Throughput::Bytes(size as u64));
        group.bench_function(BenchmarkId::new("seq-1t", size), |b| {
            b.iter(|| {
                Rc4::new(&[7; 16])
                    .expect("key")
                    .apply_keystream_in_place(black_box(&mut buf))
            });
        });
    }
    group.finish();
}

fn parc4(c: &mut Criterion) {
    let impls = [
        ("seq-1t", Parallelism::sequential()),
        ("static-2t", Parallelism::new(2, Strategy::Static)),
        ("steal-2t", Parallelism::new(2, Strategy::WorkStealing)),
    ];
    for (block, sizes) in [
        (64 * 1024, &[3_000_000usize, 64 << 20][..]),
        (32, &[256 * 1024][..]),
        (4096, &[3_000_000][..]),
    ] {
        let mut group = c.benchmark_group(format!("parc4-block-{block}"));
        group.sample_size(10).measurement_time(Duration::from_secs(5));
        let cipher = Parc4::new(&[7; 32], &[1; 16], block).expect("parameters");
        for &size in sizes {
            let mut buf = vec![0u8; size];
            group.throughput(Throughput::Bytes(size as u64));
            for (label, par) in &impls {
                group.bench_function(BenchmarkId::new(*label, size), |b| {
                    b.iter(|| cipher.apply_keystream_in_place(0, black_box(&mut buf), par));
                });
            }
        }
        group.finish();
    }
}

criterion_group!(benches, rc4, parc4);
criterion_main!(benches);
