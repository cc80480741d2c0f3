//! Medians of ECDSA P-256 verification per strategy and batch throughput,
//! for the README and the issue notes (the lab and criterion do the careful
//! version). Run next to `openssl speed -seconds 3 ecdsap256`:
//!
//! ```text
//! cargo run --release -p parcrypt --example ecdsa_timing
//! ```
#![allow(clippy::unwrap_used)]

use std::time::{Duration, Instant};

use parcrypt::ecdsa::{self, BatchItem, PrivateKey, VerifyStrategy};
use parcrypt::keys::SigningKey as _;
use parcrypt::par::{Parallelism, Strategy};

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn main() {
    let key = PrivateKey::generate().unwrap();
    let public = key.public_key();
    let digest = parcrypt::digest::digest(parcrypt::digest::Algorithm::Sha256, b"message");
    let sig = key.sign_digest(&digest).unwrap();
    let cases = [
        ("joint", VerifyStrategy::Joint, Parallelism::sequential()),
        (
            "sequential-separate",
            VerifyStrategy::Split,
            Parallelism::sequential(),
        ),
        (
            "split static x2",
            VerifyStrategy::Split,
            Parallelism::new(2, Strategy::Static),
        ),
        (
            "split steal x2",
            VerifyStrategy::Split,
            Parallelism::new(2, Strategy::WorkStealing),
        ),
        ("auto", VerifyStrategy::Auto, Parallelism::default()),
    ];
    for (name, strategy, par) in &cases {
        for _ in 0..200 {
            public
                .verify_digest_vartime(&digest, &sig, *strategy, par)
                .unwrap();
        }
        let samples: Vec<Duration> = (0..2000)
            .map(|_| {
                let t = Instant::now();
                public
                    .verify_digest_vartime(&digest, &sig, *strategy, par)
                    .unwrap();
                t.elapsed()
            })
            .collect();
        println!("verify {name:<22} median {:.1} µs", us(median(samples)));
    }
    // The backend's own verification, key parsed once (aws-lc-rs), over the
    // same message and DER signature, against parcrypt's `verify_vartime`.
    let msg = b"message";
    let der = sig.to_der().unwrap();
    let point = public.to_sec1_point().unwrap();
    let parsed =
        aws_lc_rs::signature::ParsedPublicKey::new(&aws_lc_rs::signature::ECDSA_P256_SHA256_ASN1, &point)
            .unwrap();
    for round in 0..3 {
        let backend: Vec<Duration> = (0..2000)
            .map(|_| {
                let t = Instant::now();
                parsed.verify_sig(msg, &der).unwrap();
                t.elapsed()
            })
            .collect();
        let ours: Vec<Duration> = (0..2000)
            .map(|_| {
                let t = Instant::now();
                public.verify_vartime(msg, &sig).unwrap();
                t.elapsed()
            })
            .collect();
        let (b, o) = (median(backend), median(ours));
        println!(
            "round {round}: aws-lc-rs ParsedPublicKey::verify_sig {:.1} µs, parcrypt verify_vartime (auto) {:.1} µs: {:.3}×",
            us(b),
            us(o),
            o.as_secs_f64() / b.as_secs_f64()
        );
    }
    let messages: Vec<Vec<u8>> = (0..1024).map(|i| format!("message {i}").into_bytes()).collect();
    let sigs: Vec<_> = messages.iter().map(|m| key.sign(m).unwrap()).collect();
    for n in [1usize, 2, 8, 64, 1024] {
        let items: Vec<BatchItem<'_>> = (0..n)
            .map(|i| BatchItem {
                key: public,
                message: &messages[i],
                signature: &sigs[i],
            })
            .collect();
        let mut line = format!("batch {n:>5}:");
        for par in [
            Parallelism::sequential(),
            Parallelism::new(2, Strategy::Static),
            Parallelism::new(2, Strategy::WorkStealing),
        ] {
            let reps = (4096 / n).max(3);
            let samples: Vec<Duration> = (0..reps.min(400))
                .map(|_| {
                    let t = Instant::now();
                    assert!(ecdsa::verify_batch_vartime(&items, &par).iter().all(|&b| b));
                    t.elapsed()
                })
                .collect();
            let per = median(samples);
            line += &format!(
                "  {} x{}: {:.0} verifies/s",
                par.strategy().name(),
                par.threads(),
                n as f64 / per.as_secs_f64()
            );
        }
        println!("{line}");
    }
}
