//! RC4 and PARC4 throughput at the sizes of the PARC4 paper's table, to set
//! against `openssl speed -evp rc4` and the paper's 3 MB timings.
//!
//! `cargo run --release -p parcrypt --example rc4_speed`

use std::time::Instant;

use parcrypt::hazmat::{Parc4, Rc4};
use parcrypt::par::{Parallelism, Strategy};

fn median_s(mut f: impl FnMut(), runs: usize) -> f64 {
    f();
    let mut v: Vec<f64> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .collect();
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    for size in [3_000_000usize, 64 << 20] {
        let mut buf = vec![0u8; size];
        let runs = if size > 10_000_000 { 9 } else { 31 };
        let rc4 = median_s(
            || {
                Rc4::new(&[7; 16])
                    .expect("key")
                    .apply_keystream_in_place(&mut buf)
            },
            runs,
        );
        println!(
            "{size:>9} B  rc4 seq          {:8.3} ms  {:6.0} MB/s",
            rc4 * 1e3,
            size as f64 / rc4 / 1e6
        );
        for block in [32usize, 4096, 65536, 1 << 20] {
            if block == 32 && size > 10_000_000 {
                continue;
            }
            let parc4 = Parc4::new(&[7; 32], &[1; 16], block).expect("parameters");
            for (label, par) in [
                ("seq", Parallelism::sequential()),
                ("static×2", Parallelism::new(2, Strategy::Static)),
                ("steal×2", Parallelism::new(2, Strategy::WorkStealing)),
            ] {
                let t = median_s(|| parc4.apply_keystream_in_place(0, &mut buf, &par), runs);
                println!(
                    "{size:>9} B  parc4 {block:>7} B {label:<9} {:8.3} ms  {:6.0} MB/s",
                    t * 1e3,
                    size as f64 / t / 1e6
                );
            }
        }
    }
}
