//! Which SHA-256 backend hashes Merkle leaves and nodes fastest here?
//! `cargo run --release -p parcrypt --example sha_backends [ROUNDS [MIB]]`
//!
//! Part 1, single buffer: RustCrypto `sha2` against AWS-LC, one message at
//! a time (the choice recorded in `src/digest/mod.rs`).
//! Part 2, many messages at once: every many-message backend this CPU can
//! run (`parcrypt::digest::Backend`), one thread, on 4 MiB (or MIB) of leaves of
//! 64 B, 1 KiB and 4 KiB (each with RFC 6962's `0x00` prefix byte) and on
//! 65-byte node pairs. The choice is recorded in `src/digest/README.md`.
//! Part 3, SLH-DSA-SHA2's shapes: `ADRSc ‖ M` (22 + 16 and 22 + 32 bytes)
//! hashed on from a cached `PK.seed` midstate (`sha256_many_from_into`), in
//! batches of 35 (a WOTS+ chain step of the 128 sets) and of 4096 (FORS
//! leaves), beside `sha2` hashing the whole `PK.seed` block every time.
//!
//! Contestants run alternately, round after round, so that load from other
//! processes on a shared machine falls on all alike; each is timed by the
//! CPU time of this thread (`CLOCK_THREAD_CPUTIME_ID`), so time the thread
//! spends descheduled does not count (a busy SMT sibling still does); each
//! cell gives the median and the best of the rounds.
use std::hint::black_box;

use parcrypt::digest::{Backend, Midstate};
use sha2::Digest as _;

/// This thread's CPU time, in seconds.
fn thread_time() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the clock exists on Linux.
    #[allow(unsafe_code)]
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime");
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// Seconds per call of each closure: (median, best) over the rounds.
fn race(rounds: usize, contestants: &mut [Box<dyn FnMut() + '_>]) -> Vec<(f64, f64)> {
    let mut times = vec![Vec::new(); contestants.len()];
    for c in contestants.iter_mut() {
        c();
    }
    for _ in 0..rounds {
        for (c, t) in contestants.iter_mut().zip(&mut times) {
            let start = thread_time();
            c();
            t.push(thread_time() - start);
        }
    }
    times
        .into_iter()
        .map(|mut t| {
            t.sort_by(f64::total_cmp);
            (t[t.len() / 2], t[0])
        })
        .collect()
}

fn single_buffer(rounds: usize, data: &[u8]) {
    println!("single buffer, one message at a time");
    println!("{:34} {:>22} {:>22}", "SHA-256 of", "sha2 0.11", "aws-lc-rs 1.19");
    println!(
        "{:34} {:>22} {:>22}",
        "", "median (best) GB/s", "median (best) GB/s"
    );
    for leaf in [4096usize, 16384, 1 << 20] {
        let r = race(
            rounds,
            &mut [
                Box::new(|| {
                    for c in data.chunks(leaf) {
                        let mut h = sha2::Sha256::new();
                        h.update([0u8]);
                        h.update(c);
                        black_box(h.finalize());
                    }
                }),
                Box::new(|| {
                    for c in data.chunks(leaf) {
                        let mut h = aws_lc_rs::digest::Context::new(&aws_lc_rs::digest::SHA256);
                        h.update(&[0u8]);
                        h.update(c);
                        black_box(h.finish());
                    }
                }),
            ],
        );
        let gbs = |t: f64| data.len() as f64 / t / 1e9;
        println!(
            "{:34} {:>12.2} ({:>5.2}) {:>15.2} ({:>5.2})",
            format!("{leaf}-byte leaves + prefix byte"),
            gbs(r[0].0),
            gbs(r[0].1),
            gbs(r[1].0),
            gbs(r[1].1)
        );
    }
}

fn many(rounds: usize, data: &[u8]) {
    let backends = Backend::available();
    println!();
    println!(
        "many messages at once, one thread; default here: {} (active: {})",
        Backend::detected(),
        Backend::active()
    );
    print!("{:26}", "GB/s median (best)");
    for b in &backends {
        print!(" {:>17}", b.name());
    }
    println!();
    for leaf in [64usize, 1024, 4096] {
        let messages: Vec<&[u8]> = data.chunks_exact(leaf).collect();
        let mut outs: Vec<Vec<[u8; 32]>> = backends.iter().map(|_| vec![[0; 32]; messages.len()]).collect();
        let mut contestants: Vec<Box<dyn FnMut() + '_>> = Vec::new();
        for (b, out) in backends.iter().zip(&mut outs) {
            let messages = &messages;
            contestants.push(Box::new(move || {
                b.sha256_many_prefixed_into(&[0], messages, out)
                    .expect("available");
                black_box(&out);
            }));
        }
        let r = race(rounds, &mut contestants);
        drop(contestants);
        assert!(outs.windows(2).all(|w| w[0] == w[1]), "backends disagree");
        print!("{:26}", format!("{leaf}-byte leaves + 0x00"));
        for (median, best) in r {
            let gbs = |t: f64| data.len() as f64 / t / 1e9;
            print!(" {:>9.2} ({:>5.2})", gbs(median), gbs(best));
        }
        println!();
    }
    let nodes: Vec<[u8; 32]> = data.chunks_exact(32).map(|c| c.try_into().expect("32")).collect();
    for (label, prefix) in [("node pairs 0x01‖l‖r", &[1u8][..]), ("node pairs l‖r", &[][..])] {
        let mut outs: Vec<Vec<[u8; 32]>> = backends.iter().map(|_| vec![[0; 32]; nodes.len() / 2]).collect();
        let mut contestants: Vec<Box<dyn FnMut() + '_>> = Vec::new();
        for (b, out) in backends.iter().zip(&mut outs) {
            let nodes = &nodes;
            contestants.push(Box::new(move || {
                b.sha256_pairs_into(prefix, nodes, out).expect("available");
                black_box(&out);
            }));
        }
        let r = race(rounds, &mut contestants);
        drop(contestants);
        assert!(outs.windows(2).all(|w| w[0] == w[1]), "backends disagree");
        print!("{:26}", format!("{label}, ns/node"));
        for (median, best) in r {
            let ns = |t: f64| t / (nodes.len() / 2) as f64 * 1e9;
            print!(" {:>9.1} ({:>5.1})", ns(median), ns(best));
        }
        println!();
    }
}

/// SLH-DSA-SHA2's F/PRF/H calls: `SHA-256(PK.seed ‖ 0^(64−n) ‖ ADRSc ‖ M)`,
/// ns per hash.
fn slh_dsa_shapes(rounds: usize, data: &[u8]) {
    let backends = Backend::available();
    println!();
    println!("SLH-DSA-SHA2 shapes after a PK.seed midstate, one thread");
    print!("{:26} {:>17}", "ns/hash median (best)", "sha2 whole");
    for b in &backends {
        print!(" {:>17}", b.name());
    }
    println!();
    let mut seed_block = data[..16].to_vec();
    seed_block.resize(64, 0);
    let mid = Midstate::new(&seed_block);
    for (len, count) in [(38usize, 35usize), (38, 4096), (54, 35), (54, 4096)] {
        let messages: Vec<&[u8]> = data.chunks_exact(len).take(count).collect();
        // Enough calls per round to be timed: about 64k hashes.
        let repeat = (65_536 / count).max(1);
        let mut outs: Vec<Vec<[u8; 32]>> = (0..=backends.len()).map(|_| vec![[0; 32]; count]).collect();
        let (whole, rest) = outs.split_first_mut().expect("one per contestant");
        let mut contestants: Vec<Box<dyn FnMut() + '_>> = Vec::new();
        let (messages, seed_block) = (&messages, &seed_block);
        contestants.push(Box::new(move || {
            for _ in 0..repeat {
                for (m, o) in messages.iter().zip(whole.iter_mut()) {
                    let mut h = sha2::Sha256::new();
                    h.update(seed_block);
                    h.update(m);
                    *o = h.finalize().into();
                }
            }
            black_box(&whole);
        }));
        for (b, out) in backends.iter().zip(rest.iter_mut()) {
            let mid = &mid;
            contestants.push(Box::new(move || {
                for _ in 0..repeat {
                    b.sha256_many_from_into(mid, &[], messages, out)
                        .expect("available");
                }
                black_box(&out);
            }));
        }
        let r = race(rounds, &mut contestants);
        drop(contestants);
        assert!(outs.windows(2).all(|w| w[0] == w[1]), "backends disagree");
        print!("{:26}", format!("{len} bytes, batches of {count}"));
        for (median, best) in r {
            let ns = |t: f64| t / (repeat * count) as f64 * 1e9;
            print!(" {:>9.1} ({:>5.1})", ns(median), ns(best));
        }
        println!();
    }
}

fn main() {
    let rounds: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(21);
    // A second argument: MiB of messages per round (default 4, in cache;
    // 256 or more measures streaming from memory).
    let mib: usize = std::env::args().nth(2).and_then(|a| a.parse().ok()).unwrap_or(4);
    let data: Vec<u8> = (0..mib << 20).map(|i| (i % 251) as u8).collect();
    single_buffer(rounds, &data);
    many(rounds, &data);
    slh_dsa_shapes(rounds, &data);
}
