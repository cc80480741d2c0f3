//! AES throughput: the sequential reference at 1 thread against Static and
//! WorkStealing at 2 threads, at 4 KiB (small: the parallel path must not
//! lose) and 64 MiB (large: it must nearly double). A 2-thread memcpy of the
//! same size runs in the same benchmark as the memory-bandwidth ceiling.
//!
//! `cargo bench -p parcrypt --bench aes`

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use parcrypt::aes::{Cbc, Ctr, GRAIN};
use parcrypt::hazmat::Ecb;
use parcrypt::par::{Parallelism, Strategy};
use std::hint::black_box;
use std::time::Duration;

const SIZES: [usize; 2] = [4 << 10, 64 << 20];

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

fn bench_workload(c: &mut Criterion, name: &str, mut op: impl FnMut(&mut [u8], &Parallelism)) {
    let mut group = c.benchmark_group(name);
    for size in SIZES {
        group.throughput(Throughput::Bytes(size as u64));
        if size >= 1 << 20 {
            group.sample_size(20).measurement_time(Duration::from_secs(4));
        } else {
            group.sample_size(100).measurement_time(Duration::from_secs(2));
        }
        let mut buf = data(size);
        for (label, par) in impls() {
            group.bench_with_input(BenchmarkId::new(label, size), &par, |b, par| {
                b.iter(|| op(black_box(&mut buf), par));
            });
        }
    }
    group.finish();
}

fn aes(c: &mut Criterion) {
    let ctr128 = Ctr::new(&[1; 16]).expect("key");
    bench_workload(c, "aes-128-ctr", |d, p| {
        ctr128.apply_keystream_in_place(&[0; 16], d, p)
    });
    let ctr256 = Ctr::new(&[1; 32]).expect("key");
    bench_workload(c, "aes-256-ctr", |d, p| {
        ctr256.apply_keystream_in_place(&[0; 16], d, p)
    });
    // In place, so the benchmark measures AES and not a 64 MiB allocation.
    // Decrypting garbage is as costly as decrypting ciphertext; the padding
    // check fails at the end, which the benchmark ignores.
    let cbc = Cbc::new(&[1; 32]).expect("key");
    bench_workload(c, "aes-256-cbc-dec", |d, p| {
        let _ = black_box(cbc.decrypt_in_place(&[0; 16], d, p));
    });
    let ecb = Ecb::new(&[1; 32]).expect("key");
    bench_workload(c, "aes-256-ecb-enc", |d, p| {
        ecb.encrypt_blocks_in_place(d, p).expect("whole blocks");
    });
    bench_workload(c, "aes-256-ecb-dec", |d, p| {
        ecb.decrypt_blocks_in_place(d, p).expect("whole blocks");
    });
}

/// The ceiling: copying the same bytes from one buffer to another on 1 and 2
/// threads (bytes copied per second).
fn memcpy(c: &mut Criterion) {
    let mut group = c.benchmark_group("memcpy");
    let size = 64 << 20;
    group.throughput(Throughput::Bytes(size as u64));
    group.sample_size(20).measurement_time(Duration::from_secs(4));
    let src = data(size);
    let mut dst = vec![0u8; size];
    for threads in [1, 2] {
        let par = Parallelism::new(threads, Strategy::Static);
        group.bench_function(BenchmarkId::new(format!("{threads}t"), size), |b| {
            b.iter(|| {
                par.for_each_mut(black_box(&mut dst), &GRAIN, |_, offset, part| {
                    part.copy_from_slice(&src[offset..offset + part.len()]);
                });
            });
        });
    }
    group.finish();
}

criterion_group!(benches, aes, memcpy);
criterion_main!(benches);
