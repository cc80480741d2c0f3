//! SLH-DSA key generation, signing and verification per parameter set at
//! 1 and 2 threads (or `--threads LIST`), medians of wall-clock and CPU
//! time, in process. With `--peer NODE` (a Node.js >= 24, e.g.
//! `$PARCRYPT_NODE_OPENSSL35`) each round of parcrypt's runs is followed by
//! a round of OpenSSL 3.5's (`scripts/slhdsa_peer.js`, in the node's own
//! process, one core), so both see the same machine load and the ratio
//! comes from one run. "ratio" is OpenSSL's median wall-clock time over
//! parcrypt's; "cpu" the same of CPU time (what a loaded machine changes
//! least; at 2 threads it counts both cores' time, so it is no speed-up):
//!
//! ```text
//! cargo run --release -p parcrypt --example slhdsa_bench -- \
//!     --peer "$PARCRYPT_NODE_OPENSSL35" SLH-DSA-SHA2-128s SLH-DSA-SHAKE-128f
//! ```
//!
//! `--kernels` instead times the multi-buffer kernels on SLH-DSA's own
//! shape of input (F of the 128-bit sets: SHA-256 of a 38-byte body after
//! the cached `PK.seed` block; SHAKE256 of 64 bytes), every backend this
//! CPU has, interleaved rounds, CPU nanoseconds per hash.
//!
//! Options: `--ops keygen,sign,verify`, `--threads 1,2`, `--rounds R`
//! (default 5), `--count N` (operations per round, default: about 0.3 s of
//! work), `--len BYTES` (message length, default 1000). Without set names:
//! SHA2-128s, SHA2-128f, SHAKE-128f. `all` names the twelve sets.
#![allow(clippy::unwrap_used)]

use std::process::Command;
use std::time::{Duration, Instant};

use parcrypt::digest::{Backend, Midstate, Shake256Backend};
use parcrypt::par::{Parallelism, Strategy};
use parcrypt::slhdsa::{Message, ParameterSet, PrivateKey};

const PEER: &str = include_str!("../../../scripts/slhdsa_peer.js");

/// This process's CPU time (all threads), from `CLOCK_PROCESS_CPUTIME_ID`.
fn cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the clock exists on Linux.
    #[allow(unsafe_code)]
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

struct Args {
    sets: Vec<ParameterSet>,
    ops: Vec<String>,
    threads: Vec<usize>,
    rounds: usize,
    count: Option<usize>,
    len: usize,
    peer: Option<String>,
    kernels: bool,
}

const USAGE: &str = "usage: slhdsa_bench [--ops keygen,sign,verify] [--threads 1,2] [--rounds R] \
[--count N] [--len BYTES] [--peer NODE] [--kernels] [SET ... | all]";

fn args() -> Args {
    let mut a = Args {
        sets: Vec::new(),
        ops: ["keygen", "sign", "verify"].map(String::from).to_vec(),
        threads: vec![1, 2],
        rounds: 5,
        count: None,
        len: 1000,
        peer: None,
        kernels: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = || it.next().expect("a value after the option");
        match arg.as_str() {
            "--ops" => a.ops = value().split(',').map(String::from).collect(),
            "--threads" => a.threads = value().split(',').map(|t| t.parse().unwrap()).collect(),
            "--rounds" => a.rounds = value().parse().unwrap(),
            "--count" => a.count = Some(value().parse().unwrap()),
            "--len" => a.len = value().parse().unwrap(),
            "--peer" => a.peer = Some(value()),
            "--kernels" => a.kernels = true,
            "all" => a.sets.extend(ParameterSet::ALL),
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            name => match name.parse() {
                Ok(set) => a.sets.push(set),
                Err(e) => {
                    eprintln!("slhdsa_bench: {e}\n{USAGE}");
                    std::process::exit(2);
                }
            },
        }
    }
    if a.sets.is_empty() {
        a.sets = vec![
            ParameterSet::Sha2_128s,
            ParameterSet::Sha2_128f,
            ParameterSet::Shake128f,
        ];
    }
    a
}

/// One round of OpenSSL's: `count` wall-clock and CPU times of `op`, in
/// milliseconds.
fn peer_round(
    node: &str,
    set: ParameterSet,
    op: &str,
    count: usize,
    len: usize,
) -> (String, Vec<f64>, Vec<f64>) {
    let input = format!(
        r#"{{"set":"{}","op":"{op}","count":{count},"len":{len}}}"#,
        set.name()
    );
    let out = Command::new(node).args(["-e", PEER, &input]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let line = String::from_utf8(out.stdout).unwrap();
    // {"openssl":"3.5.8","ms":[1.2,3.4],"cpu":[1.1,3.3]}: read without a
    // JSON parser.
    let version = line.split('"').nth(3).unwrap_or("?").to_string();
    let list = |i: usize| -> Vec<f64> {
        let inside = line
            .split('[')
            .nth(i)
            .and_then(|s| s.split(']').next())
            .unwrap_or("");
        inside.split(',').filter_map(|x| x.parse().ok()).collect()
    };
    (version, list(1), list(2))
}

/// CPU nanoseconds per hash of each backend, medians of `rounds`
/// interleaved rounds of 64 batches of 1,024 messages.
fn kernels(rounds: usize) {
    let bodies: Vec<[u8; 38]> = (0..1024u32).map(|i| [i as u8; 38]).collect();
    let sha_msgs: Vec<&[u8]> = bodies.iter().map(|b| &b[..]).collect();
    let inputs: Vec<[u8; 64]> = (0..1024u32).map(|i| [i as u8; 64]).collect();
    let shake_msgs: Vec<&[u8]> = inputs.iter().map(|b| &b[..]).collect();
    let mid = Midstate::new(&[7; 64]);
    let mut contestants: Vec<(String, Box<dyn FnMut()>)> = Vec::new();
    for b in Backend::available() {
        let msgs = sha_msgs.clone();
        contestants.push((
            format!("sha256 {}", b.name()),
            Box::new(move || {
                let mut d = vec![[0u8; 32]; msgs.len()];
                b.sha256_many_from_into(&mid, &[], &msgs, &mut d).unwrap();
            }),
        ));
    }
    for b in Shake256Backend::available() {
        let msgs = shake_msgs.clone();
        contestants.push((
            format!("shake256 {}", b.name()),
            Box::new(move || {
                let mut o = vec![0u8; msgs.len() * 16];
                b.shake256_many_into(&msgs, &mut o).unwrap();
            }),
        ));
    }
    let mut ns = vec![Vec::new(); contestants.len()];
    for _ in 0..rounds {
        for (i, (_, run)) in contestants.iter_mut().enumerate() {
            let c = cpu_time();
            for _ in 0..64 {
                run();
            }
            ns[i].push((cpu_time() - c).as_secs_f64() * 1e9 / (64.0 * 1024.0));
        }
    }
    for ((name, _), ns) in contestants.iter().zip(ns) {
        println!("{name:<24} {:>8.1} ns/hash", median(ns));
    }
}

fn main() {
    let a = args();
    if a.kernels {
        return kernels(a.rounds);
    }
    let msg_bytes = vec![0x61u8; a.len];
    let msg = Message::pure(&msg_bytes, b"").unwrap();
    println!(
        "{:<20} {:<6} {:>3} {:>11} {:>9} {:>11} {:>9} {:>7} {:>7}",
        "set", "op", "thr", "parcrypt ms", "(cpu ms)", "openssl ms", "(cpu ms)", "ratio", "cpu"
    );
    for &set in &a.sets {
        let key = PrivateKey::generate(set, &Parallelism::default()).unwrap();
        let sig = key.sign(&msg, &Parallelism::default()).unwrap();
        for op in &a.ops {
            let run = |par: &Parallelism| match op.as_str() {
                "keygen" => drop(PrivateKey::generate(set, par).unwrap()),
                "sign" => drop(key.sign(&msg, par).unwrap()),
                "verify" => key.public_key().verify(&msg, &sig).unwrap(),
                other => panic!("unknown op {other}"),
            };
            // About 0.3 s of single-threaded work per round.
            let count = a.count.unwrap_or_else(|| {
                let t = Instant::now();
                run(&Parallelism::sequential());
                (0.3 / t.elapsed().as_secs_f64()).clamp(1.0, 2000.0) as usize
            });
            let pars: Vec<Parallelism> = a
                .threads
                .iter()
                .map(|&t| Parallelism::new(t, Strategy::WorkStealing))
                .collect();
            let mut wall = vec![Vec::new(); pars.len()];
            let mut cpu = vec![Vec::new(); pars.len()];
            let mut peer = Vec::new();
            let mut peer_cpu = Vec::new();
            let mut version = String::new();
            for _ in 0..a.rounds {
                for (i, par) in pars.iter().enumerate() {
                    run(par);
                    for _ in 0..count {
                        let (t, c) = (Instant::now(), cpu_time());
                        run(par);
                        wall[i].push(t.elapsed().as_secs_f64() * 1e3);
                        cpu[i].push((cpu_time() - c).as_secs_f64() * 1e3);
                    }
                }
                if let Some(node) = &a.peer {
                    let (v, ms, cpu) = peer_round(node, set, op, count, a.len);
                    version = v;
                    peer.extend(ms);
                    peer_cpu.extend(cpu);
                }
            }
            let theirs = (!peer.is_empty()).then(|| (median(peer), median(peer_cpu)));
            for (i, threads) in a.threads.iter().enumerate() {
                let ours = median(std::mem::take(&mut wall[i]));
                let ours_cpu = median(std::mem::take(&mut cpu[i]));
                let (their, their_cpu, ratio, cpu_ratio) = match theirs {
                    Some((m, c)) => (
                        format!("{m:.3}"),
                        format!("{c:.3}"),
                        format!("{:.2}x", m / ours),
                        format!("{:.2}x", c / ours_cpu),
                    ),
                    None => ("-".into(), "-".into(), "-".into(), "-".into()),
                };
                println!(
                    "{:<20} {:<6} {:>3} {:>11.3} {:>9.3} {:>11} {:>9} {:>7} {:>7}",
                    set.name(),
                    op,
                    threads,
                    ours,
                    ours_cpu,
                    their,
                    their_cpu,
                    ratio,
                    cpu_ratio
                );
            }
            if !version.is_empty() {
                eprintln!(
                    "  ({op} {}: OpenSSL {version}, {count} ops x {} rounds)",
                    set.name(),
                    a.rounds
                );
            }
        }
    }
}
