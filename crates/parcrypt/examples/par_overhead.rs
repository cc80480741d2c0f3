//! What one parallel call costs on this machine, beyond the work itself:
//! back-to-back empty calls (workers still spinning), and two 400 µs parts
//! (the calling thread sleeps while the pool works and must be woken).
//!
//! `cargo run --release -p parcrypt --example par_overhead`
use std::hint::black_box;
use std::time::Instant;

use parcrypt::par::{Grain, Parallelism, Strategy};

fn percentiles(mut v: Vec<f64>) -> (f64, f64) {
    v.sort_by(f64::total_cmp);
    (v[v.len() / 2], v[v.len() * 9 / 10])
}

fn main() {
    let grain = Grain {
        unit: 1,
        min_part: 1,
        task: 1,
    };
    let data = [0u8; 2];
    let spin = |_: usize, _: usize, _: &[u8]| {
        let t = Instant::now();
        while t.elapsed().as_micros() < 400 {}
    };
    for strategy in [Strategy::Static, Strategy::WorkStealing] {
        let par = Parallelism::new(2, strategy);
        let time = |f: &dyn Fn()| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e6
        };
        let empty: Vec<f64> = (0..3000)
            .map(|_| time(&|| drop(black_box(par.map(&data, &grain, |_, _, p| p.len())))))
            .collect();
        let busy: Vec<f64> = (0..300)
            .map(|_| time(&|| drop(black_box(par.map(&data, &grain, spin)))))
            .collect();
        let ((e50, e90), (b50, b90)) = (percentiles(empty), percentiles(busy));
        println!(
            "{strategy:?}: empty call median {e50:.1} µs (p90 {e90:.1}); 2 × 400 µs parts median {b50:.1} µs (p90 {b90:.1})"
        );
    }
}
