//! Finds where parallel AES-CTR starts to beat one thread: times the
//! sequential reference against 2-thread Static and WorkStealing with the
//! minimum grain forced down to one block, at sizes from 4 KiB to 4 MiB.
//! Prints medians of many samples; this is how `aes::GRAIN` was chosen.
//!
//! `cargo run --release -p parcrypt --example grain`

use std::time::Instant;

use parcrypt::aes::{BLOCK, Ctr, GRAIN};
use parcrypt::par::{Grain, Parallelism, Strategy};

fn median_ns(mut f: impl FnMut()) -> f64 {
    for _ in 0..20 {
        f();
    }
    let mut samples: Vec<f64> = (0..101)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_nanos() as f64
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn main() {
    let ctr = Ctr::new(&[7u8; 16]).expect("key");
    let forced = Grain {
        unit: BLOCK,
        min_part: BLOCK,
        task: GRAIN.task,
    };
    println!(
        "{:>9} {:>10} {:>10} {:>10} {:>10}",
        "size", "seq µs", "static µs", "steal µs", "default µs"
    );
    for kib in [
        4usize, 64, 256, 512, 1024, 1536, 2048, 3072, 4096, 8192, 16384, 65536,
    ] {
        let mut data = vec![0u8; kib * 1024];
        let seq = median_ns(|| ctr.apply_keystream_in_place(&[0; 16], &mut data, &Parallelism::sequential()));
        let forced_run = |strategy| {
            let par = Parallelism::new(2, strategy);
            let mut data = vec![0u8; kib * 1024];
            median_ns(|| {
                par.for_each_mut(&mut data, &forced, |_, offset, part| {
                    let counter = (offset as u128 / BLOCK as u128).to_be_bytes();
                    ctr.apply_keystream_in_place(&counter, part, &Parallelism::sequential());
                })
            })
        };
        let st = forced_run(Strategy::Static);
        let ws = forced_run(Strategy::WorkStealing);
        let def = median_ns(|| ctr.apply_keystream_in_place(&[0; 16], &mut data, &Parallelism::default()));
        println!(
            "{:>6} KiB {:>10.2} {:>10.2} {:>10.2} {:>10.2}",
            kib,
            seq / 1e3,
            st / 1e3,
            ws / 1e3,
            def / 1e3
        );
    }
}
