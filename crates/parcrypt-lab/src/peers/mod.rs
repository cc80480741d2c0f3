//! Peers: the same jobs done by other tools on this machine, in the same run.
//! A peer that cannot run is listed as absent, with the reason.

mod age;
mod files;
mod openssl;
mod pyca;
mod signers;

use std::path::Path;
use std::process::{Command, Stdio};

use self::age::no_age;
pub use self::age::{AgeTool, age_public_key, find_age, find_ages, measure_age};
use self::files::{FileCommand, time_file_command};
pub use self::files::{FileSet, measure_sha256sum};
pub use self::openssl::{parse_speed, parse_speed_sign, parse_speed_verify};
pub use self::pyca::{PYCA, PycaOp, PycaPeer, measure_pyca};
pub use self::signers::{InProcess, NODE_ENV, OPENSSL35, SignOp, SignPeer, find_node, parse_seconds};
pub use crate::model::PeerStatus;
use crate::model::{Row, RowLimit, Unit};
use crate::stats::{self, Stats};

/// A workload as its peers see it: its name and unit, what it reads, and
/// the peers it declares.
#[derive(Debug, Clone, Copy)]
pub struct Beside {
    /// The workload's name.
    pub workload: &'static str,
    /// What the workload's size counts.
    pub unit: Unit,
    /// What the workload reads, which decides how large the peers' files are.
    pub input: Input,
    /// How OpenSSL does the same job.
    pub openssl: Option<OpensslPeer>,
    /// `age` (or `rage`) doing the same job on a file.
    pub age: Option<AgePeer>,
    /// Whether every age implementation installed stands beside the
    /// workload (the age workloads), or only the first found (`age`, else
    /// `rage`: the stream workloads).
    pub every_age: bool,
    /// `b3sum` (BLAKE3's tree, on all cores) hashing a file of the largest
    /// size measured, not capped (1 GiB in a full study): beside the
    /// SHA-256 tree formats, the fastest file hasher to set them against.
    pub b3sum: bool,
    /// pyca/cryptography's Cobblestone (from `python3`) doing the same job
    /// on a file: beside the Cobblestone workloads.
    pub pyca: Option<PycaPeer>,
    /// Other implementations of a post-quantum signature operation (OpenSSL
    /// ≥ 3.5 through Node.js, pyca, RustCrypto in this process): beside the
    /// ML-DSA and SLH-DSA workloads.
    pub signer: Option<SignPeer>,
}

/// What a workload's operation reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input {
    /// A buffer made in setup. Its file peers (`openssl enc`, `openssl
    /// dgst`) process a file of the largest size measured, capped at 64 MiB:
    /// they stand beside an in-memory loop, so their throughput, not their
    /// size, is what matters.
    Memory,
    /// A file of the size in the page cache, as `parcrypt encrypt -i FILE`
    /// reads it. Its file peers process a file of the largest size measured,
    /// however large (1 GiB in a full study), so that a ratio at that size
    /// compares two tools doing the same job on the same file.
    File,
    /// `size` files of `file_size` bytes each, in the page cache, as
    /// `parcrypt hash FILE…` reads them. Its peer is `sha256sum` over the same
    /// number of files of the same bytes, in the same run.
    ManyFiles {
        /// The bytes in each file.
        file_size: usize,
    },
}

/// What `age` does beside a workload: encrypt a file to an X25519
/// recipient, or decrypt one with the identity. Either way the output goes
/// to `/dev/null`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AgePeer {
    /// `age -r RECIPIENT -o /dev/null FILE`.
    Encrypt,
    /// `age -d -i IDENTITY -o /dev/null FILE.age` (encrypted before timing).
    Decrypt,
}

/// The same operation in the `openssl` CLI.
#[derive(Debug, Clone, Copy)]
pub struct OpensslPeer {
    /// Arguments to `openssl speed -mr -elapsed` naming the cipher, e.g.
    /// `["-evp", "aes-128-ctr"]` or `["-decrypt", "-evp", "aes-256-cbc"]`,
    /// or the public-key algorithm, e.g. `["rsa2048"]`, `["ecdsap256"]`;
    /// empty for no `openssl speed` peer (the stream workloads, which stand
    /// beside tools that encrypt files).
    pub speed: &'static [&'static str],
    /// Which of the rates `openssl speed` prints stands beside the workload.
    pub rate: SpeedRate,
    /// Arguments to `openssl enc` that do the same to a file (`-in`/`-out`
    /// are added), when `enc` can.
    pub enc: Option<&'static [&'static str]>,
    /// Arguments to `openssl dgst` that hash a file the same way (the file
    /// and `-out /dev/null` are added), for hash workloads.
    pub dgst: Option<&'static [&'static str]>,
}

/// The rate read from `openssl speed -mr` output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpeedRate {
    /// A cipher's or hash's bytes per second over 16 KiB buffers (`+F:`),
    /// for a [`Unit::Bytes`] workload.
    Bytes,
    /// A public-key algorithm's private operations (signatures) per second.
    Sign,
    /// A public-key algorithm's public operations (verifications) per
    /// second.
    Verify,
}

/// Largest file the `openssl enc`/`dgst` peers process for an in-memory
/// workload ([`Input::Memory`]); a file workload's peers take its largest size.
const ENC_MAX: usize = 64 << 20;

/// Measures the peers of `w`: OpenSSL's, and age's, b3sum's, pyca's and
/// the signature peers where `w` has them.
/// `seconds` is `openssl speed`'s time per cipher; `repeats` the number of
/// timed runs of a peer on a file (after one warm-up run); `size` the
/// largest size measured for `w`. The file the file peers process is that
/// size, capped at 64 MiB for an in-memory workload (except b3sum's, which
/// is never capped: its ratio is the point of the tree workloads at 1 GiB);
/// an operation's peer row
/// takes that size, so that it lines up with `seq`, and an item workload's
/// peer row is the time `openssl speed`'s rate gives for that many items.
pub fn measure(
    w: &Beside,
    seconds: u32,
    repeats: usize,
    size: usize,
    tmp: &Path,
) -> (Vec<Row>, Vec<PeerStatus>) {
    let mut rows = Vec::new();
    let mut status = Vec::new();
    let file_size = file_size(w.input, size);
    if let Some(peer) = w.openssl {
        for (row, st) in openssl::measure(w, peer, seconds, size, file_size, repeats, tmp) {
            rows.extend(row);
            status.push(st);
        }
    }
    if let Input::ManyFiles { file_size } = w.input {
        let (row, st) = measure_sha256sum(w, size, file_size, repeats, tmp);
        rows.extend(row);
        status.push(st);
    }
    if w.b3sum {
        let (row, st) = time_file_command(
            w,
            "b3sum",
            FileCommand {
                program: Path::new("b3sum"),
                args: &|file| vec![file.to_owned()],
                prepare: &|file| Ok(file.to_path_buf()),
                hide: &[],
            },
            size,
            repeats,
            tmp,
        );
        rows.extend(row);
        status.push(st);
    }
    if let Some(op) = w.age {
        // The stream workloads stand beside one age; the age workloads beside
        // every implementation there is (they do the same job).
        let path = std::env::var_os("PATH");
        let tools: Vec<Result<AgeTool, String>> = match find_ages(path.as_deref()) {
            found if found.is_empty() => vec![Err(no_age())],
            found if w.every_age => found.into_iter().map(Ok).collect(),
            found => found.into_iter().take(1).map(Ok).collect(),
        };
        for tool in tools {
            let (row, st) = measure_age(w, op, tool, file_size, repeats, tmp);
            rows.extend(row);
            status.push(st);
        }
    }
    if let Some(peer) = w.pyca {
        let (row, st) = measure_pyca(w, peer, file_size, repeats, tmp);
        rows.extend(row);
        status.push(st);
    }
    if let Some(peer) = w.signer {
        for (row, st) in signers::measure(w, peer, size, repeats) {
            rows.extend(row);
            status.push(st);
        }
    }
    (rows, status)
}

/// The size of the file the file peers process beside a workload reading
/// `input` whose largest size measured is `largest`.
pub fn file_size(input: Input, largest: usize) -> usize {
    match input {
        Input::Memory => largest.min(ENC_MAX),
        Input::File | Input::ManyFiles { .. } => largest,
    }
}

/// What a peer gives the run: its row and the command shown, or nothing
/// and the command with why it failed.
fn outcome(
    w: &Beside,
    peer: &'static str,
    command: String,
    row: Result<Row, String>,
) -> (Option<Row>, PeerStatus) {
    match row {
        Ok(row) => (
            Some(row),
            PeerStatus {
                peer,
                workload: w.workload,
                available: true,
                detail: command,
            },
        ),
        Err(why) => absent(w, peer, format!("{command}: {why}")),
    }
}

/// A peer that could not run, and why.
fn absent(w: &Beside, peer: &'static str, why: String) -> (Option<Row>, PeerStatus) {
    (
        None,
        PeerStatus {
            peer,
            workload: w.workload,
            available: false,
            detail: why,
        },
    )
}

/// A peer's row: one thread, its own samples; speed-up and Karp–Flatt do not
/// apply (speed-up is filled in against parcrypt's `seq` later where sizes match).
fn peer_row(w: &Beside, name: &'static str, size: usize, samples: &[f64]) -> Row {
    let stats = Stats::of(samples);
    let items = match w.unit {
        Unit::Items(_) => size as u64,
        Unit::Bytes | Unit::Operation => 1,
    };
    Row {
        workload: w.workload,
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
        limit: RowLimit::NONE,
    }
}

/// What a peer command gave the first time this process ran it, by its
/// command line: several workloads stand beside the same peer (eleven
/// SHA-256 workloads beside one `openssl speed -evp sha256` and one
/// `openssl dgst -sha256` of the same file), which is then measured once
/// and shown beside each. Halved `lab --quick`'s peer time.
fn once<T: Clone + Send + 'static>(key: &str, run: impl FnOnce() -> T) -> T {
    use std::any::Any;
    use std::collections::HashMap;
    use std::sync::Mutex;
    static SEEN: Mutex<Option<HashMap<String, Box<dyn Any + Send>>>> = Mutex::new(None);
    let known = SEEN
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .get_or_insert_with(HashMap::new)
        .get(key)
        .and_then(|v| v.downcast_ref::<T>().cloned());
    if let Some(v) = known {
        return v;
    }
    let v = run();
    SEEN.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .get_or_insert_with(HashMap::new)
        .insert(key.to_owned(), Box::new(v.clone()));
    v
}

/// Runs `program` to its end; its standard output, or why it failed.
/// Under `PARCRYPT_CPU_MASK` the peer gets the same mask as parcrypt's
/// AWS-LC (`OPENSSL_ia32cap`, read by OpenSSL and AWS-LC alike), so both
/// sides of a comparison run on the same CPU features; parcrypt never
/// writes its own environment, so the peer is told here.
fn run_program(program: &Path, args: &[&str]) -> Result<String, String> {
    let out = Command::new(program)
        .args(args)
        .envs(parcrypt::cpu::aws_lc_mask().map(|mask| ("OPENSSL_ia32cap", mask)))
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", program.display()))?;
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::{Input, file_size};
    use crate::workloads::registry;

    #[test]
    fn file_peers_match_a_file_workload_at_any_size() {
        // Beside an in-memory loop the file is capped; beside the stream
        // format it is the file parcrypt read, so the ratio lines up.
        assert_eq!(file_size(Input::Memory, 1 << 30), 64 << 20);
        assert_eq!(file_size(Input::Memory, 1000), 1000);
        assert_eq!(file_size(Input::File, 1 << 30), 1 << 30);
        let all = registry();
        for w in all.iter().filter(|w| w.family == "stream" || w.family == "age") {
            assert_eq!(w.input, Input::File, "{}", w.name);
            assert!(
                w.age.is_some() && w.openssl.is_some_and(|o| o.enc.is_some()),
                "{}",
                w.name
            );
        }
    }

    #[test]
    fn the_tree_formats_and_only_they_stand_beside_b3sum() {
        use crate::workloads::id;
        let beside: Vec<&str> = registry()
            .iter()
            .filter(|w| w.peers().b3sum)
            .map(|w| w.name)
            .collect();
        assert_eq!(
            beside,
            [
                id::MERKLE_RFC6962_4KIB,
                id::MERKLE_BITTORRENT_V2,
                id::MERKLE_GLACIER
            ]
        );
    }

    #[test]
    fn b3sum_is_timed_on_the_whole_file_or_listed_absent_with_why() {
        let w = super::Beside {
            workload: "b3sum-test",
            unit: crate::model::Unit::Bytes,
            input: Input::Memory,
            openssl: None,
            age: None,
            every_age: false,
            b3sum: true,
            pyca: None,
            signer: None,
        };
        // Above the 64 MiB cap of the other file peers of an in-memory workload.
        let size = (64 << 20) + 1;
        let (rows, status) = super::measure(&w, 1, 1, size, &std::env::temp_dir());
        assert_eq!(status.len(), 1);
        let st = &status[0];
        assert_eq!(st.peer, "b3sum");
        assert!(st.detail.contains(&format!("FILE({size} B)")), "{}", st.detail);
        if st.available {
            assert_eq!(rows.len(), 1);
            assert_eq!(rows[0].size_bytes, size);
        } else {
            assert!(rows.is_empty());
            assert!(st.detail.contains("b3sum"), "{}", st.detail);
        }
        // Whichever it was, the file is gone.
        let left = std::fs::read_dir(std::env::temp_dir())
            .unwrap()
            .filter_map(Result::ok)
            .any(|e| {
                e.file_name()
                    .to_string_lossy()
                    .contains(&format!("-b3sum-test-{size}"))
            });
        assert!(!left);
    }
}
