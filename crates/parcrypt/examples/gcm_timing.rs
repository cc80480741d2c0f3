//! One-message AES-256-GCM on 256 MiB: the backend's one-shot seal against
//! parcrypt's parallel seal, open in one pass (`GcmOpen::OnePass`, the
//! default) and verify-then-decrypt (`GcmOpen::VerifyThenDecrypt`), in place
//! and into a second buffer, and `open_private_into`; medians of interleaved runs.
//! `PARCRYPT_CPU_MASK=x86-64-v3` shows what a CPU without VAES/AVX-512 runs.
//!
//! ```text
//! cargo run --release -p parcrypt --example gcm_timing -- [MiB]
//! ```
#![allow(clippy::unwrap_used)]

use std::time::{Duration, Instant};

use aws_lc_rs::aead::{AES_256_GCM, Aad, LessSafeKey, Nonce, UnboundKey};
use parcrypt::aes::{Gcm, GcmOpen};
use parcrypt::par::{Parallelism, Strategy};

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let mib: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(256);
    let key = [7u8; 32];
    let nonce = [3u8; 12];
    let mut data: Vec<u8> = (0..mib << 20).map(|i| (i % 251) as u8).collect();
    let backend = LessSafeKey::new(UnboundKey::new(&AES_256_GCM, &key).unwrap());
    let gcm = Gcm::new(&key).unwrap();
    let two_pass = Gcm::with_open(&key, GcmOpen::VerifyThenDecrypt).unwrap();
    println!("{}", parcrypt::cpu::report());
    let schedules = [
        ("seq x1", Parallelism::sequential()),
        ("static x2", Parallelism::new(2, Strategy::Static)),
        ("steal x2", Parallelism::new(2, Strategy::WorkStealing)),
    ];
    let mut one_shot = Vec::new();
    let mut seal: Vec<Vec<Duration>> = vec![Vec::new(); 3];
    let mut open: Vec<Vec<Duration>> = vec![Vec::new(); 3];
    let mut open_into: Vec<Vec<Duration>> = vec![Vec::new(); 3];
    let mut one_pass: Vec<Vec<Duration>> = vec![Vec::new(); 3];
    let mut open2: Vec<Vec<Duration>> = vec![Vec::new(); 3];
    let mut open2_into: Vec<Vec<Duration>> = vec![Vec::new(); 3];
    let mut seal_into: Vec<Vec<Duration>> = vec![Vec::new(); 3];
    let mut sealed = vec![0u8; data.len()];
    let mut plain = vec![0u8; data.len()];
    for _ in 0..9 {
        let t = Instant::now();
        let _tag = backend
            .seal_in_place_separate_tag(Nonce::assume_unique_for_key(nonce), Aad::empty(), &mut data)
            .unwrap();
        one_shot.push(t.elapsed());
        for (i, (_, par)) in schedules.iter().enumerate() {
            let t = Instant::now();
            let tag = gcm.seal_in_place(&nonce, b"", &mut data, par);
            seal[i].push(t.elapsed());
            let t = Instant::now();
            gcm.open_in_place(&nonce, b"", &mut data, &tag, par).unwrap();
            open[i].push(t.elapsed());
            let t = Instant::now();
            let _ = gcm.seal_into(&nonce, b"", &data, &mut sealed, par);
            seal_into[i].push(t.elapsed());
            let tag = gcm.seal_in_place(&nonce, b"", &mut data, par);
            let t = Instant::now();
            gcm.open_into(&nonce, b"", &data, &tag, &mut plain, par).unwrap();
            open_into[i].push(t.elapsed());
            let t = Instant::now();
            gcm.open_private_into(&nonce, b"", &data, &tag, &mut plain, par)
                .unwrap();
            one_pass[i].push(t.elapsed());
            let t = Instant::now();
            two_pass
                .open_into(&nonce, b"", &data, &tag, &mut plain, par)
                .unwrap();
            open2_into[i].push(t.elapsed());
            let t = Instant::now();
            two_pass.open_in_place(&nonce, b"", &mut data, &tag, par).unwrap();
            open2[i].push(t.elapsed());
        }
    }
    let gbs = |d: Duration| (mib << 20) as f64 / d.as_secs_f64() / 1e9;
    let base = median(one_shot);
    println!("{mib} MiB AES-256-GCM, medians of 9");
    println!("aws-lc-rs one-shot seal: {:.2} GB/s", gbs(base));
    for (i, (name, _)) in schedules.iter().enumerate() {
        let (s, o) = (median(seal[i].clone()), median(open[i].clone()));
        let (oi, p) = (median(open_into[i].clone()), median(one_pass[i].clone()));
        let (o2, o2i) = (median(open2[i].clone()), median(open2_into[i].clone()));
        let si = median(seal_into[i].clone());
        println!(
            "parcrypt {name}: seal {:.2} GB/s ({:.2}× one-shot); open in place {:.2} GB/s one pass \
             ({:.2}× seal), {:.2} verify-then-decrypt; into a second buffer: seal {:.2} GB/s, open {:.2} \
             one pass ({:.2}× seal), {:.2} verify-then-decrypt, open_private {:.2} GB/s ({:.2}× seal)",
            gbs(s),
            base.as_secs_f64() / s.as_secs_f64(),
            gbs(o),
            s.as_secs_f64() / o.as_secs_f64(),
            gbs(o2),
            gbs(si),
            gbs(oi),
            si.as_secs_f64() / oi.as_secs_f64(),
            gbs(o2i),
            gbs(p),
            si.as_secs_f64() / p.as_secs_f64()
        );
    }
}
