//! AES-256-CTR on one thread, on its two kernels: `Ctr` on AWS-LC's CTR
//! (`CtrKernel::Ctr`) against `Ctr` sending parts of 16 KiB and more through
//! AWS-LC's stitched GCM code (`CtrKernel::Gcm`, once a key has been given
//! 1 MiB); in place, and from one buffer into another (AWS-LC's CTR: a
//! copy, then in place; the GCM kernel: one pass). Medians of interleaved
//! runs, per size. Prints which kernel `Ctr::new` picks on this CPU (under
//! `PARCRYPT_CPU_MASK`, which also masks AWS-LC: `PARCRYPT_CPU_MASK=x86-64-v3`
//! shows what a CPU without VAES/AVX-512 runs).
//!
//! ```text
//! cargo run --release -p parcrypt --example ctr_timing -- [rounds]
//! ```
#![allow(clippy::unwrap_used)]

use std::time::{Duration, Instant};

use parcrypt::aes::{Ctr, CtrKernel};
use parcrypt::par::Parallelism;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let rounds: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(15);
    let key = [7u8; 32];
    let counter = [3u8; 16];
    let evp = Ctr::with_kernel(&key, CtrKernel::Ctr).unwrap();
    let ctr = Ctr::with_kernel(&key, CtrKernel::Gcm).unwrap();
    let seq = Parallelism::sequential();
    println!("{}", parcrypt::cpu::report());
    println!(
        "Ctr::new picks the {} kernel here",
        Ctr::new(&key).unwrap().kernel().name()
    );
    println!(
        "{:>10} | in place: {:>11} {:>11} {:>7} | into another buffer: {:>11} {:>11} {:>7}",
        "bytes", "ctr kernel", "gcm kernel", "gcm/ctr", "ctr kernel", "gcm kernel", "gcm/ctr"
    );
    for size in [1usize << 10, 4 << 10, 16 << 10, 64 << 10, 1 << 20, 64 << 20] {
        let input = vec![5u8; size];
        let mut data = vec![5u8; size];
        // Enough calls per sample for ~10 ms of work.
        let calls = ((10 << 20) / size).max(1);
        let mut t: [Vec<Duration>; 4] = Default::default();
        for _ in 0..rounds {
            let start = Instant::now();
            for _ in 0..calls {
                evp.apply_keystream_in_place(&counter, &mut data, &seq);
            }
            t[0].push(start.elapsed() / calls as u32);
            let start = Instant::now();
            for _ in 0..calls {
                ctr.apply_keystream_in_place(&counter, &mut data, &seq);
            }
            t[1].push(start.elapsed() / calls as u32);
            let start = Instant::now();
            for _ in 0..calls {
                evp.apply_keystream_into(&counter, &input, &mut data, &seq);
            }
            t[2].push(start.elapsed() / calls as u32);
            let start = Instant::now();
            for _ in 0..calls {
                ctr.apply_keystream_into(&counter, &input, &mut data, &seq);
            }
            t[3].push(start.elapsed() / calls as u32);
        }
        let [a, b, c, d] = t.map(median);
        let gbps = |x: Duration| size as f64 / x.as_secs_f64() / 1e9;
        let ratio = |x: Duration, y: Duration| x.as_secs_f64() / y.as_secs_f64();
        println!(
            "{size:>10} | {:>6.2} GB/s {:>6.2} GB/s {:>6.2}× | {:>16.2} GB/s {:>6.2} GB/s {:>6.2}×",
            gbps(a),
            gbps(b),
            ratio(a, b),
            gbps(c),
            gbps(d),
            ratio(c, d)
        );
    }
}
