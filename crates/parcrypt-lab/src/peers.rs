//! Peers: the same jobs done by other tools on this machine, in the same run.
//! A peer that cannot run is listed as absent, with the reason.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use serde::Serialize;

use crate::Row;
use crate::stats::{self, Stats};
use crate::workloads::{SpeedRate, Unit, Workload, input};

/// Whether a peer ran, and if not, why.
#[derive(Debug, Clone, Serialize)]
pub struct PeerStatus {
    /// The peer, e.g. `openssl-speed`.
    pub peer: &'static str,
    /// The workload it stands beside.
    pub workload: &'static str,
    /// Whether it produced a measurement.
    pub available: bool,
    /// The command run, or why it could not be.
    pub detail: String,
}

/// `openssl speed` buffer size: large enough to be throughput-bound.
const SPEED_BLOCK: usize = 16384;
/// Largest file the `openssl enc` peer encrypts.
const ENC_MAX: usize = 64 << 20;

/// Measures the OpenSSL peers of `w`. `seconds` is `openssl speed`'s time per
/// cipher; `repeats` the number of `openssl enc` runs; `size` the largest size
/// measured for `w` (the file `enc` encrypts is that, capped at 64 MiB; an
/// operation's peer row takes that size, so that it lines up with `seq`, and
/// an item workload's peer row is the time `openssl speed`'s rate gives for
/// that many items).
pub fn measure(
    w: &Workload,
    seconds: u32,
    repeats: usize,
    size: usize,
    tmp: &Path,
) -> (Vec<Row>, Vec<PeerStatus>) {
    let Some(peer) = w.openssl else {
        return (Vec::new(), Vec::new());
    };
    let mut rows = Vec::new();
    let mut status = Vec::new();

    let mut args = vec!["speed", "-mr", "-elapsed", "-seconds"];
    let secs = seconds.to_string();
    args.push(&secs);
    let bytes = SPEED_BLOCK.to_string();
    if peer.rate == SpeedRate::Bytes {
        args.extend(["-bytes", &bytes]);
    }
    args.extend(peer.speed);
    let command = format!("openssl {}", args.join(" "));
    // (size, seconds per run of the workload at that size)
    let timed = run(&args).and_then(|out| {
        let per_s = match peer.rate {
            SpeedRate::Bytes => parse_speed(&out).ok_or("no +F: line in the output"),
            SpeedRate::Sign => parse_speed_sign(&out).ok_or("no +F2:/+F3:/+F4: sign rate in the output"),
            SpeedRate::Verify => {
                parse_speed_verify(&out).ok_or("no +F2:/+F3:/+F4: verify rate in the output")
            }
        }?;
        Ok(match w.unit {
            Unit::Bytes => (SPEED_BLOCK, SPEED_BLOCK as f64 / per_s),
            Unit::Operation => (size, 1.0 / per_s),
            Unit::Items(_) => (size, size as f64 / per_s),
        })
    });
    match timed {
        Ok((size, seconds_per_op)) => {
            rows.push(peer_row(w, "openssl-speed", size, &[seconds_per_op]));
            status.push(PeerStatus {
                peer: "openssl-speed",
                workload: w.name,
                available: true,
                detail: command,
            });
        }
        Err(why) => status.push(PeerStatus {
            peer: "openssl-speed",
            workload: w.name,
            available: false,
            detail: format!("{command}: {why}"),
        }),
    }

    let size = size.min(ENC_MAX);
    if let Some(enc) = peer.enc {
        let (row, st) = time_file_command(w, "openssl-enc", "enc", enc, size, repeats, tmp, |file| {
            vec!["-in".into(), file.into(), "-out".into(), "/dev/null".into()]
        });
        rows.extend(row);
        status.push(st);
    }
    if let Some(dgst) = peer.dgst {
        let (row, st) = time_file_command(w, "openssl-dgst", "dgst", dgst, size, repeats, tmp, |file| {
            vec!["-out".into(), "/dev/null".into(), file.into()]
        });
        rows.extend(row);
        status.push(st);
    }
    (rows, status)
}

/// Times `openssl <command> <args> <file args>` on a file of `size` bytes of
/// the lab's input, `repeats` times after one warm-up run.
#[allow(clippy::too_many_arguments)]
fn time_file_command(
    w: &Workload,
    peer: &'static str,
    command: &str,
    args: &[&str],
    size: usize,
    repeats: usize,
    tmp: &Path,
    file_args: impl Fn(&str) -> Vec<String>,
) -> (Option<Row>, PeerStatus) {
    let file = tmp.join(format!("parcrypt-lab-{}-{size}.bin", w.name));
    let path = file.to_string_lossy().into_owned();
    let mut all: Vec<String> = std::iter::once(command)
        .chain(args.iter().copied())
        .map(String::from)
        .collect();
    all.extend(file_args(&path));
    let detail = format!(
        "openssl {}",
        all.join(" ").replace(&path, &format!("FILE({size} B)"))
    );
    let timed = std::fs::write(&file, input(size))
        .map_err(|e| e.to_string())
        .and_then(|()| {
            let all: Vec<&str> = all.iter().map(String::as_str).collect();
            run(&all)?; // warm-up, and a check that the algorithm exists
            (0..repeats.max(1))
                .map(|_| {
                    let t = Instant::now();
                    run(&all).map(|_| t.elapsed().as_secs_f64())
                })
                .collect::<Result<Vec<f64>, String>>()
        });
    let _ = std::fs::remove_file(&file);
    match timed {
        Ok(samples) => (
            Some(peer_row(w, peer, size, &samples)),
            PeerStatus {
                peer,
                workload: w.name,
                available: true,
                detail,
            },
        ),
        Err(why) => (
            None,
            PeerStatus {
                peer,
                workload: w.name,
                available: false,
                detail: format!("{detail}: {why}"),
            },
        ),
    }
}

/// A peer's row: one thread, its own samples; speed-up and Karp–Flatt do not
/// apply (speed-up is filled in against parcrypt's `seq` later where sizes match).
fn peer_row(w: &Workload, name: &'static str, size: usize, samples: &[f64]) -> Row {
    let stats = Stats::of(samples);
    let items = match w.unit {
        Unit::Items(_) => size as u64,
        Unit::Bytes | Unit::Operation => 1,
    };
    Row {
        workload: w.name,
        implementation: name,
        threads: 1,
        size_bytes: size,
        unit: w.unit,
        batch: 1,
        stats,
        throughput_bps: match w.unit {
            Unit::Bytes => size as f64 / stats.median,
            Unit::Operation | Unit::Items(_) => f64::NAN,
        },
        speedup: f64::NAN,
        efficiency: f64::NAN,
        speedup_ci95: (f64::NAN, f64::NAN),
        karp_flatt: None,
        outliers: stats::outliers(samples),
        peer: true,
        items,
        ops_per_s: items as f64 / stats.median,
        samples: samples.to_vec(),
    }
}

fn run(args: &[&str]) -> Result<String, String> {
    let out = Command::new("openssl")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run openssl: {e}"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!(
            "exit {}: {}",
            out.status,
            err.lines().next().unwrap_or("").trim()
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The bytes per second of the last size in `openssl speed -mr` output
/// (`+F:<n>:<name>:<rate>…`).
pub fn parse_speed(out: &str) -> Option<f64> {
    out.lines()
        .rev()
        .find_map(|l| l.strip_prefix("+F:"))
        .and_then(|l| l.rsplit(':').next())
        .and_then(|rate| rate.trim().parse().ok())
        .filter(|r: &f64| *r > 0.0)
}

/// The private-key operations (signatures) per second of the last key in
/// `openssl speed -mr` output for RSA, DSA or ECDSA
/// (`+F2:<n>:<bits>:<sign/s>:<verify/s>…` for RSA, `+F3:` for DSA, `+F4:`
/// for ECDSA; OpenSSL 3.2 appends RSA's encrypt and decrypt rates; 1.0.2
/// printed seconds, not rates).
pub fn parse_speed_sign(out: &str) -> Option<f64> {
    parse_speed_pkey(out, 2)
}

/// The public-key operations (verifications) per second of the last key in
/// `openssl speed -mr` output for RSA, DSA or ECDSA: the field after
/// [`parse_speed_sign`]'s.
pub fn parse_speed_verify(out: &str) -> Option<f64> {
    parse_speed_pkey(out, 3)
}

/// Field `field` (0: the index, 1: the bits) of the last `+F2:`, `+F3:` or
/// `+F4:` line, as a positive rate.
fn parse_speed_pkey(out: &str, field: usize) -> Option<f64> {
    out.lines()
        .rev()
        .find_map(|l| ["+F2:", "+F3:", "+F4:"].iter().find_map(|p| l.strip_prefix(p)))
        .and_then(|l| l.split(':').nth(field))
        .and_then(|rate| rate.trim().parse().ok())
        .filter(|r: &f64| *r > 0.0)
}

#[cfg(test)]
mod tests {
    use super::{parse_speed, parse_speed_sign, parse_speed_verify};

    #[test]
    fn parses_machine_readable_speed_output() {
        let out = "+DT:AES-128-CTR:1:16384\n+R:499674:AES-128-CTR:1.000000\n+H:16384\n+F:25:AES-128-CTR:8186658816.00\n";
        assert_eq!(parse_speed(out), Some(8_186_658_816.0));
        assert_eq!(parse_speed("+H:16384\n"), None);
        assert_eq!(parse_speed("+F:25:RC4:0.00"), None);
    }

    #[test]
    fn parses_machine_readable_rsa_sign_rates() {
        // OpenSSL 3.0: sign/s then verify/s.
        let out = "+DTP:2048:private:rsa:1\n+R1:2616:2048:1.00\n+DTP:2048:public:rsa:1\n+R2:42553:2048:1.00\n+F2:2:2048:2616.000000:42553.000000\n";
        assert_eq!(parse_speed_sign(out), Some(2616.0));
        // Later versions add encrypt/decrypt (or encaps/decaps) rates after these.
        assert_eq!(
            parse_speed_sign("+F2:4:4096:167.3:11175.0:10900.0:160.1\n"),
            Some(167.3)
        );
        assert_eq!(parse_speed_sign("+F:25:AES-128-CTR:8186658816.00\n"), None);
        assert_eq!(parse_speed_sign("+F2:2:2048:0.000000:0.000000\n"), None);
    }

    #[test]
    fn parses_machine_readable_ecdsa_verify_rates() {
        // Captured from `openssl speed -mr -elapsed -seconds 1 ecdsap256`, OpenSSL 3.0.19.
        let out = "+DTP:256:sign:ecdsa:1\n+R5:31472:256:1.00\n+DTP:256:verify:ecdsa:1\n+R6:10132:256:1.00\n+F4:3:256:31472.000000:10132.000000\n";
        assert_eq!(parse_speed_verify(out), Some(10_132.0));
        assert_eq!(parse_speed_sign(out), Some(31_472.0));
        // RSA's verify rate is the same field, before 3.2's encrypt/decrypt rates.
        assert_eq!(
            parse_speed_verify("+F2:4:4096:167.3:11175.0:10900.0:160.1\n"),
            Some(11_175.0)
        );
        assert_eq!(parse_speed_verify("+F4:3:256:31472.000000\n"), None);
        assert_eq!(parse_speed_verify("+F:25:AES-128-CTR:8186658816.00\n"), None);
    }
}
