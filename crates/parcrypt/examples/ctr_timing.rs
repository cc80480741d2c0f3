//! AES-256-CTR on one thread: AWS-LC's CTR (what `Ctr` used for every size
//! before) against `Ctr`, which (once a key has been given 1 MiB) sends
//! parts of 16 KiB and more through AWS-LC's stitched GCM code; in place,
//! and from one buffer into another
//! (AWS-LC's CTR: a copy, then in place; `Ctr::apply_keystream_into`: one
//! pass). Medians of interleaved runs, per size.
//!
//! ```text
//! cargo run --release -p parcrypt --example ctr_timing -- [rounds]
//! ```
#![allow(clippy::unwrap_used)]

use std::time::{Duration, Instant};

use aws_lc_rs::cipher::{AES_256, EncryptingKey, EncryptionContext, UnboundCipherKey};
use parcrypt::aes::Ctr;
use parcrypt::par::Parallelism;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let rounds: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(15);
    let key = [7u8; 32];
    let counter = [3u8; 16];
    let evp = EncryptingKey::ctr(UnboundCipherKey::new(&AES_256, &key).unwrap()).unwrap();
    let ctr = Ctr::new(&key).unwrap();
    let seq = Parallelism::sequential();
    println!(
        "{:>10} | in place: {:>11} {:>11} {:>7} | into another buffer: {:>11} {:>11} {:>7}",
        "bytes", "AWS-LC CTR", "Ctr", "ratio", "AWS-LC CTR", "Ctr", "ratio"
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
                evp.less_safe_encrypt(&mut data, EncryptionContext::Iv128(counter.into()))
                    .unwrap();
            }
            t[0].push(start.elapsed() / calls as u32);
            let start = Instant::now();
            for _ in 0..calls {
                ctr.apply_keystream(&counter, &mut data, &seq);
            }
            t[1].push(start.elapsed() / calls as u32);
            let start = Instant::now();
            for _ in 0..calls {
                data.copy_from_slice(&input);
                evp.less_safe_encrypt(&mut data, EncryptionContext::Iv128(counter.into()))
                    .unwrap();
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
