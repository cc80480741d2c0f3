//! OpenSSL beside a workload: the rates of `openssl speed`, and `openssl enc`/`dgst` on a file.

use std::path::Path;

use super::files::{FileCommand, time_file_command};
use super::{Beside, OpensslPeer, SpeedRate, outcome, peer_row, run_program};
use crate::model::{PeerStatus, Row, Unit};

/// `openssl speed` buffer size: large enough to be throughput-bound.
const SPEED_BLOCK: usize = 16384;

/// The OpenSSL peers of `w`, in order: `openssl speed` (where `peer` names
/// an algorithm), then `openssl enc` and `openssl dgst` on a file of
/// `file_size` bytes (where `peer` has their arguments); see
/// [`measure`](super::measure) for the sizes.
pub(super) fn measure(
    w: &Beside,
    peer: OpensslPeer,
    seconds: u32,
    size: usize,
    file_size: usize,
    repeats: usize,
    tmp: &Path,
) -> Vec<(Option<Row>, PeerStatus)> {
    let mut peers = Vec::new();
    if !peer.speed.is_empty() {
        peers.push(measure_speed(w, peer.speed, peer.rate, seconds, size));
    }
    let openssl = Path::new("openssl");
    let file_commands = [
        ("openssl-enc", "enc", peer.enc, false),
        ("openssl-dgst", "dgst", peer.dgst, true),
    ];
    for (name, command, args, dgst) in file_commands {
        let Some(args) = args else { continue };
        let file_args = |file: &str| -> Vec<String> {
            let io: Vec<&str> = if dgst {
                vec!["-out", "/dev/null", file]
            } else {
                vec!["-in", file, "-out", "/dev/null"]
            };
            std::iter::once(command)
                .chain(args.iter().copied())
                .chain(io)
                .map(String::from)
                .collect()
        };
        peers.push(time_file_command(
            w,
            name,
            FileCommand {
                program: openssl,
                args: &file_args,
                prepare: &|file| Ok(file.to_path_buf()),
                hide: &[],
            },
            file_size,
            repeats,
            tmp,
        ));
    }
    peers
}

/// `openssl speed -mr -elapsed -seconds S [-bytes 16384] ARGS…`, as a row
/// of `w` (see [`measure`](super::measure) for its size).
fn measure_speed(
    w: &Beside,
    speed: &[&str],
    rate: SpeedRate,
    seconds: u32,
    size: usize,
) -> (Option<Row>, PeerStatus) {
    let mut args = vec!["speed", "-mr", "-elapsed", "-seconds"];
    let secs = seconds.to_string();
    args.push(&secs);
    let bytes = SPEED_BLOCK.to_string();
    if rate == SpeedRate::Bytes {
        args.extend(["-bytes", &bytes]);
    }
    args.extend(speed);
    let command = format!("openssl {}", args.join(" "));
    // (size, seconds per run of the workload at that size)
    let timed = super::once(&command, || run(&args)).and_then(|out| {
        let per_s = match rate {
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
    let row = timed.map(|(size, seconds_per_op)| peer_row(w, "openssl-speed", size, &[seconds_per_op]));
    outcome(w, "openssl-speed", command, row)
}

fn run(args: &[&str]) -> Result<String, String> {
    run_program(Path::new("openssl"), args)
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
    #![allow(clippy::unwrap_used)]
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
