//! Which SHA-256 backend hashes Merkle leaves and nodes fastest here?
//! `cargo run --release -p parcrypt --example sha_backends`
//!
//! The two backends run alternately, round after round, so that load from
//! other processes on a shared machine falls on both alike; each line gives
//! the median and the best of the rounds. `crate::digest` records the result.
use std::hint::black_box;
use std::time::Instant;

use sha2::Digest as _;

const ROUNDS: usize = 21;

/// Seconds per call of each closure: (median, best) over the rounds.
fn race(mut a: impl FnMut(), mut b: impl FnMut()) -> [(f64, f64); 2] {
    let (mut ta, mut tb) = (Vec::new(), Vec::new());
    a();
    b();
    for _ in 0..ROUNDS {
        let t = Instant::now();
        a();
        ta.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        b();
        tb.push(t.elapsed().as_secs_f64());
    }
    [ta, tb].map(|mut t| {
        t.sort_by(f64::total_cmp);
        (t[t.len() / 2], t[0])
    })
}

fn main() {
    let data: Vec<u8> = (0..16usize << 20).map(|i| (i % 251) as u8).collect();
    println!("{:34} {:>22} {:>22}", "SHA-256 of", "sha2 0.11", "aws-lc-rs 1.19");
    println!(
        "{:34} {:>22} {:>22}",
        "", "median (best) GB/s", "median (best) GB/s"
    );
    for leaf in [4096usize, 16384, 1 << 20] {
        let [s, a] = race(
            || {
                for c in data.chunks(leaf) {
                    let mut h = sha2::Sha256::new();
                    h.update([0u8]);
                    h.update(c);
                    black_box(h.finalize());
                }
            },
            || {
                for c in data.chunks(leaf) {
                    let mut h = aws_lc_rs::digest::Context::new(&aws_lc_rs::digest::SHA256);
                    h.update(&[0u8]);
                    h.update(c);
                    black_box(h.finish());
                }
            },
        );
        let gbs = |t: f64| data.len() as f64 / t / 1e9;
        println!(
            "{:34} {:>12.2} ({:>5.2}) {:>15.2} ({:>5.2})",
            format!("{leaf}-byte leaves + prefix byte"),
            gbs(s.0),
            gbs(s.1),
            gbs(a.0),
            gbs(a.1)
        );
    }
    let nodes = 200_000;
    let pair = [7u8; 65];
    let [s, a] = race(
        || {
            for _ in 0..nodes {
                black_box(sha2::Sha256::digest(black_box(&pair)));
            }
        },
        || {
            for _ in 0..nodes {
                black_box(aws_lc_rs::digest::digest(
                    &aws_lc_rs::digest::SHA256,
                    black_box(&pair),
                ));
            }
        },
    );
    let ns = |t: f64| t / nodes as f64 * 1e9;
    println!(
        "{:34} {:>9.1} ({:>5.1}) ns {:>12.1} ({:>5.1}) ns",
        "65-byte node, per hash",
        ns(s.0),
        ns(s.1),
        ns(a.0),
        ns(a.1)
    );
}
