//! Which SHA-256 backend hashes Merkle leaves and nodes fastest here?
//! `cargo run --release -p parcrypt --example sha_backends`
use std::hint::black_box;
use std::time::Instant;

use sha2::Digest as _;

fn time(label: &str, bytes: usize, mut f: impl FnMut()) {
    let mut best = f64::MAX;
    for _ in 0..7 {
        let t = Instant::now();
        f();
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "{label:40} {:8.3} ms  {:6.2} GB/s",
        best * 1e3,
        bytes as f64 / best / 1e9
    );
}

fn main() {
    let data: Vec<u8> = (0..64usize << 20).map(|i| (i % 251) as u8).collect();
    for leaf in [4096usize, 16384, 1 << 20] {
        time(
            &format!("sha2 0.11, {leaf}-byte leaves + prefix"),
            data.len(),
            || {
                for c in data.chunks(leaf) {
                    let mut h = sha2::Sha256::new();
                    h.update([0u8]);
                    h.update(c);
                    black_box(h.finalize());
                }
            },
        );
        time(
            &format!("aws-lc-rs, {leaf}-byte leaves + prefix"),
            data.len(),
            || {
                for c in data.chunks(leaf) {
                    let mut h = aws_lc_rs::digest::Context::new(&aws_lc_rs::digest::SHA256);
                    h.update(&[0u8]);
                    h.update(c);
                    black_box(h.finish());
                }
            },
        );
    }
    let nodes = 1_000_000;
    let pair = [7u8; 65];
    time("sha2 0.11, 65-byte node x1e6", nodes * 65, || {
        for _ in 0..nodes {
            black_box(sha2::Sha256::digest(black_box(&pair)));
        }
    });
    time("aws-lc-rs, 65-byte node x1e6", nodes * 65, || {
        for _ in 0..nodes {
            black_box(aws_lc_rs::digest::digest(
                &aws_lc_rs::digest::SHA256,
                black_box(&pair),
            ));
        }
    });
}
