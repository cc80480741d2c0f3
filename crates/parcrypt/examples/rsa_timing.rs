//! Medians of the RSA private operation and key generation per strategy, for
//! the README and the issue notes (criterion benches and the lab do the
//! careful version). Run next to `openssl speed -seconds 3 rsa2048 rsa4096`:
//!
//! ```text
//! cargo run --release -p parcrypt --example rsa_timing -- [keys-per-strategy]
//! ```
#![allow(clippy::unwrap_used)]

use std::time::{Duration, Instant};

use parcrypt::digest::Algorithm;
use parcrypt::keys::SigningKey as _;
use parcrypt::par::{Parallelism, Strategy};
use parcrypt::rsa::{CrtMode, PrivateKey, Scheme};

fn quantile(v: &mut [Duration], q: f64) -> Duration {
    v.sort();
    v[((v.len() - 1) as f64 * q).round() as usize]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let keys: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(40);
    let schedules = [
        Parallelism::sequential(),
        Parallelism::new(2, Strategy::Static),
        Parallelism::new(2, Strategy::WorkStealing),
    ];
    for bits in [2048, 3072, 4096] {
        let key = PrivateKey::generate(bits, &Parallelism::default()).unwrap();
        let der = key.to_pkcs8_der().unwrap();
        let digest = parcrypt::digest::sha256(b"x");
        let cases = [
            (CrtMode::Auto, Parallelism::sequential()),
            (CrtMode::Auto, Parallelism::new(2, Strategy::WorkStealing)),
            (CrtMode::Threads, Parallelism::new(2, Strategy::Static)),
            (CrtMode::Threads, Parallelism::new(2, Strategy::WorkStealing)),
        ];
        for (mode, par) in &cases {
            let key = PrivateKey::from_pkcs8_der(der.expose(), &Parallelism::sequential())
                .unwrap()
                .with_crt_mode(*mode);
            // Warm-up, then samples.
            for _ in 0..50 {
                key.sign_digest(Scheme::Pkcs1v15, Algorithm::Sha256, &digest, par)
                    .unwrap();
            }
            let mut samples: Vec<Duration> = (0..400)
                .map(|_| {
                    let t = Instant::now();
                    key.sign_digest(Scheme::Pkcs1v15, Algorithm::Sha256, &digest, par)
                        .unwrap();
                    t.elapsed()
                })
                .collect();
            println!(
                "rsa{bits} private op {mode:?} {:>6} x{} (dual SIMD {}): median {:.3} ms  p10 {:.3}  p90 {:.3}",
                par.strategy().name(),
                par.threads(),
                key.uses_dual_simd(),
                ms(quantile(&mut samples, 0.5)),
                ms(quantile(&mut samples, 0.1)),
                ms(quantile(&mut samples, 0.9)),
            );
        }
    }
    if keys == 0 {
        return;
    }
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); schedules.len()];
    // Round-robin over strategies so that load changes hit all alike.
    for _ in 0..keys {
        for (i, par) in schedules.iter().enumerate() {
            let t = Instant::now();
            PrivateKey::generate(2048, par).unwrap();
            times[i].push(t.elapsed());
        }
    }
    for (par, t) in schedules.iter().zip(&mut times) {
        println!(
            "rsa2048 keygen {:>6} x{} over {keys} keys: median {:.1} ms  p90 {:.1} ms  mean {:.1} ms",
            par.strategy().name(),
            par.threads(),
            ms(quantile(t, 0.5)),
            ms(quantile(t, 0.9)),
            ms(t.iter().sum::<Duration>() / t.len() as u32),
        );
    }
}
