//! Peers: the same jobs done by other tools on this machine, in the same run.
//! A peer that cannot run is listed as absent, with the reason.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::inputs::write_input;
pub use crate::model::PeerStatus;
use crate::model::{Row, Unit};
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

/// `openssl speed` buffer size: large enough to be throughput-bound.
const SPEED_BLOCK: usize = 16384;
/// Largest file the `openssl enc`/`dgst` peers process for an in-memory
/// workload ([`Input::Memory`]); a file workload's peers take its largest size.
const ENC_MAX: usize = 64 << 20;

/// Measures the peers of `w`: OpenSSL's, and age's and b3sum's where `w`
/// has them.
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
        if !peer.speed.is_empty() {
            let (row, st) = measure_speed(w, peer.speed, peer.rate, seconds, size);
            rows.extend(row);
            status.push(st);
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
            let (row, st) = time_file_command(
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
            );
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

/// A directory of `count` files named `f000000`, `f000001`, … of
/// `file_size` bytes of the lab's input each, written and synced (so they are
/// in the page cache and no writeback runs while they are hashed); removed
/// with the value.
#[derive(Debug)]
pub struct FileSet {
    /// The directory.
    pub dir: PathBuf,
    /// The files' names in it, in order.
    pub names: Vec<String>,
}

impl FileSet {
    /// Writes the files into a new directory under `tmp` named after the
    /// process, `label` and a counter (so that sets made at once never share
    /// one).
    ///
    /// # Errors
    /// Creating or writing a file.
    pub fn create(tmp: &Path, label: &str, count: usize, file_size: usize) -> std::io::Result<Self> {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static MADE: AtomicUsize = AtomicUsize::new(0);
        let n = MADE.fetch_add(1, Ordering::Relaxed);
        let dir = tmp.join(format!("parcrypt-lab-{}-{label}-{n}", std::process::id()));
        std::fs::create_dir(&dir)?;
        let set = FileSet {
            names: (0..count).map(|i| format!("f{i:06}")).collect(),
            dir,
        };
        for name in &set.names {
            let mut f = std::fs::File::create(set.dir.join(name))?;
            write_input(&mut f, file_size)?;
            f.sync_all()?;
        }
        Ok(set)
    }

    /// The files' paths.
    pub fn paths(&self) -> Vec<PathBuf> {
        self.names.iter().map(|n| self.dir.join(n)).collect()
    }
}

impl Drop for FileSet {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Times `sha256sum f000000 f000001 … > /dev/null` (in the files'
/// directory, so argument lengths stay short) over `count` files of
/// `file_size` bytes, `repeats` times after one warm-up run; absent, with
/// the reason, where `sha256sum` does not run.
pub fn measure_sha256sum(
    w: &Beside,
    count: usize,
    file_size: usize,
    repeats: usize,
    tmp: &Path,
) -> (Option<Row>, PeerStatus) {
    let detail = format!("sha256sum FILE… ({count} files of {file_size} B) > /dev/null");
    if let Err(why) = run_program(Path::new("sha256sum"), &["--version"]) {
        return absent(w, "sha256sum", format!("{detail}: {why}"));
    }
    let label = format!("{}-sha256sum", w.workload);
    let timed = FileSet::create(tmp, &label, count, file_size)
        .map_err(|e| format!("cannot write the files: {e}"))
        .and_then(|set| {
            let once = || -> Result<f64, String> {
                let t = Instant::now();
                let status = Command::new("sha256sum")
                    .args(&set.names)
                    .current_dir(&set.dir)
                    .stdin(Stdio::null())
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .status()
                    .map_err(|e| format!("cannot run sha256sum: {e}"))?;
                let elapsed = t.elapsed().as_secs_f64();
                if status.success() {
                    Ok(elapsed)
                } else {
                    Err(format!("exit {status}"))
                }
            };
            once()?; // warm-up, and a check that it works
            (0..repeats.max(1))
                .map(|_| once())
                .collect::<Result<Vec<f64>, String>>()
        });
    let row = timed.map(|samples| peer_row(w, "sha256sum", count, &samples));
    outcome(w, "sha256sum", detail, row)
}

/// `openssl speed -mr -elapsed -seconds S [-bytes 16384] ARGS…`, as a row
/// of `w` (see [`measure`] for its size).
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
    let timed = run(&args).and_then(|out| {
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

/// An implementation of age found on `PATH`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgeTool {
    /// `age` or `rage`: the peer's name in results.
    pub name: &'static str,
    /// The program that encrypts and decrypts.
    pub program: PathBuf,
    /// Its key generator, `age-keygen` or `rage-keygen`.
    pub keygen: PathBuf,
}

/// Looks for `age` with `age-keygen`, then `rage` with `rage-keygen` (the
/// Rust implementation, same command line), in the directories of `path`
/// (a `PATH` value): the first found.
///
/// # Errors
/// Why neither pair is there, for the peer's absent status.
pub fn find_age(path: Option<&OsStr>) -> Result<AgeTool, String> {
    find_ages(path).into_iter().next().ok_or_else(no_age)
}

fn no_age() -> String {
    "neither age (with age-keygen) nor rage (with rage-keygen) is on PATH".to_owned()
}

/// Every implementation of age in the directories of `path`: `age` (with
/// `age-keygen`) and `rage` (with `rage-keygen`), in that order; the age
/// workloads measure all of them in the same run.
pub fn find_ages(path: Option<&OsStr>) -> Vec<AgeTool> {
    let dirs: Vec<PathBuf> = path
        .map(|p| {
            std::env::split_paths(p)
                .filter(|d| !d.as_os_str().is_empty())
                .collect()
        })
        .unwrap_or_default();
    let find = |name: &str| dirs.iter().map(|d| d.join(name)).find(|p| is_executable(p));
    [("age", "age-keygen"), ("rage", "rage-keygen")]
        .into_iter()
        .filter_map(|(name, keygen)| {
            let (program, keygen) = (find(name)?, find(keygen)?);
            Some(AgeTool {
                name,
                program,
                keygen,
            })
        })
        .collect()
}

fn is_executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        path.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        path.is_file()
    }
}

/// The recipient (`age1…`) of an identity file as `age-keygen -o FILE`
/// writes it: its `# public key: age1…` line.
pub fn age_public_key(key_file: &str) -> Option<&str> {
    key_file
        .lines()
        .find_map(|l| l.trim().strip_prefix("# public key:"))
        .map(str::trim)
        .filter(|k| k.starts_with("age1") && !k.contains(char::is_whitespace))
}

/// Times `tool` (or reports why it cannot run) doing what `w` does on a file
/// of `size` bytes: a fresh X25519 identity is made in a directory of its
/// own under `tmp`, then `age -r RECIPIENT -o /dev/null FILE` or, for a
/// decryption, `age -d -i IDENTITY -o /dev/null FILE.age` on a file
/// encrypted before the timing; one warm-up run, then `repeats` timed.
pub fn measure_age(
    w: &Beside,
    op: AgePeer,
    tool: Result<AgeTool, String>,
    size: usize,
    repeats: usize,
    tmp: &Path,
) -> (Option<Row>, PeerStatus) {
    let tool = match tool {
        Ok(tool) => tool,
        Err(why) => return absent(w, "age", why),
    };
    let dir = tmp.join(format!(
        "parcrypt-lab-{}-{}-{}",
        std::process::id(),
        w.workload,
        tool.name
    ));
    let identity = dir.join("key.txt");
    let keygen = format!("{} -o {}", tool.keygen.display(), identity.display());
    let recipient = std::fs::create_dir_all(&dir)
        .map_err(|e| e.to_string())
        .and_then(|()| {
            let key = identity.to_string_lossy();
            run_program(&tool.keygen, &["-o", &key])?;
            let text = std::fs::read_to_string(&identity).map_err(|e| e.to_string())?;
            age_public_key(&text)
                .map(str::to_owned)
                .ok_or_else(|| "no `# public key: age1…` line in the key file".to_owned())
        });
    let recipient = match recipient {
        Ok(r) => r,
        Err(why) => {
            let _ = std::fs::remove_dir_all(&dir);
            return absent(w, tool.name, format!("{keygen}: {why}"));
        }
    };
    let key = identity.to_string_lossy().into_owned();
    let args = |file: &str| -> Vec<String> {
        match op {
            AgePeer::Encrypt => vec!["-r", &recipient, "-o", "/dev/null", file],
            AgePeer::Decrypt => vec!["-d", "-i", &key, "-o", "/dev/null", file],
        }
        .into_iter()
        .map(String::from)
        .collect()
    };
    let prepare = |file: &Path| -> Result<PathBuf, String> {
        match op {
            AgePeer::Encrypt => Ok(file.to_path_buf()),
            AgePeer::Decrypt => {
                let sealed = file.with_extension("age");
                let (input, output) = (file.to_string_lossy(), sealed.to_string_lossy());
                run_program(&tool.program, &["-r", &recipient, "-o", &output, &input])?;
                let _ = std::fs::remove_file(file);
                Ok(sealed)
            }
        }
    };
    let hide = [(recipient.as_str(), "RECIPIENT"), (key.as_str(), "IDENTITY")];
    let timed = time_file_command(
        w,
        tool.name,
        FileCommand {
            program: &tool.program,
            args: &args,
            prepare: &prepare,
            hide: &hide,
        },
        size,
        repeats,
        &dir,
    );
    let _ = std::fs::remove_dir_all(&dir);
    timed
}

/// A command a file peer runs on a file.
struct FileCommand<'a> {
    /// The program; shown in the detail by its file name.
    program: &'a Path,
    /// Its arguments, given the path of the file it reads.
    args: &'a dyn Fn(&str) -> Vec<String>,
    /// Turns the file of input into the file the command reads (age's
    /// decryption encrypts it first), outside the timing.
    prepare: &'a dyn Fn(&Path) -> Result<PathBuf, String>,
    /// Long arguments shown by a placeholder in the detail (`RECIPIENT`).
    hide: &'a [(&'a str, &'a str)],
}

/// Times `command` on a file of `size` bytes of the lab's input (written and
/// synced first, so the file is in the page cache and no writeback runs
/// while it is timed), `repeats` times after one warm-up run.
fn time_file_command(
    w: &Beside,
    peer: &'static str,
    command: FileCommand<'_>,
    size: usize,
    repeats: usize,
    tmp: &Path,
) -> (Option<Row>, PeerStatus) {
    let file = tmp.join(format!(
        "parcrypt-lab-{}-{}-{size}.bin",
        std::process::id(),
        w.workload
    ));
    let program = command.program.file_name().unwrap_or(command.program.as_os_str());
    let detail = |read: &Path| {
        let path = read.to_string_lossy();
        let mut line = format!(
            "{} {}",
            program.to_string_lossy(),
            (command.args)(&path).join(" ")
        );
        // The file read, by its size in plaintext (`.age`: encrypted first).
        let suffix = match read.extension() {
            Some(ext) if read != file => format!(".{}", ext.to_string_lossy()),
            _ => String::new(),
        };
        line = line.replace(path.as_ref(), &format!("FILE({size} B){suffix}"));
        for (long, short) in command.hide {
            line = line.replace(long, short);
        }
        line
    };
    let written = std::fs::File::create(&file)
        .and_then(|mut f| {
            write_input(&mut f, size)?;
            f.sync_all()
        })
        .map_err(|e| e.to_string());
    let read = written.and_then(|()| (command.prepare)(&file));
    let timed = read.as_ref().map_err(Clone::clone).and_then(|read| {
        let args = (command.args)(&read.to_string_lossy());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        run_program(command.program, &args)?; // warm-up, and a check that it works
        (0..repeats.max(1))
            .map(|_| {
                let t = Instant::now();
                run_program(command.program, &args).map(|_| t.elapsed().as_secs_f64())
            })
            .collect::<Result<Vec<f64>, String>>()
    });
    let _ = std::fs::remove_file(&file);
    let shown = match &read {
        Ok(read) => {
            let shown = detail(read);
            let _ = std::fs::remove_file(read);
            shown
        }
        Err(_) => detail(&file),
    };
    let row = timed.map(|samples| peer_row(w, peer, size, &samples));
    outcome(w, peer, shown, row)
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
    }
}

fn run(args: &[&str]) -> Result<String, String> {
    run_program(Path::new("openssl"), args)
}

/// Runs `program` to its end; its standard output, or why it failed.
fn run_program(program: &Path, args: &[&str]) -> Result<String, String> {
    let out = Command::new(program)
        .args(args)
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

    use std::path::Path;

    use super::{AgePeer, Input};
    use super::{
        age_public_key, file_size, find_age, measure_age, parse_speed, parse_speed_sign, parse_speed_verify,
    };
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

    #[test]
    fn reads_the_recipient_from_an_age_key_file() {
        // As rage-keygen 0.12 writes it (age-keygen writes the same lines).
        let file = "# created: 2026-11-23T10:44:31Z\n# public key: age1uzt4r7zac0szlah3saly6aa5q20cz7yvfefqd6jfmk247je0zupqwqtzec\nAGE-SECRET-KEY-1FG67PEMKRY00GU2EKHRCASPWE36HZRYZF4VUVQH375RRAHU5KN6Q3TU6Y7\n";
        assert_eq!(
            age_public_key(file),
            Some("age1uzt4r7zac0szlah3saly6aa5q20cz7yvfefqd6jfmk247je0zupqwqtzec")
        );
        // No such line, the secret key alone, or something that is not a recipient.
        assert_eq!(age_public_key("AGE-SECRET-KEY-1FG67PEMKRY00GU2EK\n"), None);
        assert_eq!(age_public_key("# public key: ssh-ed25519 AAAA\n"), None);
        assert_eq!(age_public_key("# public key: \n"), None);
    }

    /// An executable file called `name` in `dir`.
    fn fake_program(dir: &Path, name: &str) {
        use std::os::unix::fs::PermissionsExt;
        let path = dir.join(name);
        std::fs::write(&path, "#!/bin/sh\nexit 0\n").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    #[test]
    fn finds_age_then_rage_on_a_path_and_says_why_not() {
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let path = std::env::join_paths([a.path(), b.path()]).unwrap();
        let why = find_age(Some(&path)).unwrap_err();
        assert!(why.contains("age") && why.contains("rage"), "{why}");
        assert!(find_age(None).is_err());
        // A program without its key generator does not count, nor does a
        // file that cannot be run.
        fake_program(a.path(), "age");
        std::fs::write(b.path().join("rage-keygen"), "not executable").unwrap();
        fake_program(b.path(), "rage");
        assert!(find_age(Some(&path)).is_err());
        fake_program(b.path(), "rage-keygen");
        let rage = find_age(Some(&path)).unwrap();
        assert_eq!(rage.name, "rage");
        assert_eq!(rage.program, b.path().join("rage"));
        assert_eq!(rage.keygen, b.path().join("rage-keygen"));
        // age is preferred where both are installed.
        fake_program(b.path(), "age-keygen");
        let age = find_age(Some(&path)).unwrap();
        assert_eq!((age.name, age.program), ("age", a.path().join("age")));
    }

    #[test]
    fn a_missing_age_is_an_absent_peer_with_the_reason() {
        let all = registry();
        let w = &all
            .iter()
            .find(|w| w.name == crate::workloads::id::STREAM_DECRYPT)
            .unwrap()
            .peers();
        let tmp = tempfile::tempdir().unwrap();
        let (row, status) = measure_age(w, AgePeer::Decrypt, Err("not here".into()), 1000, 1, tmp.path());
        assert!(row.is_none());
        assert!(!status.available);
        assert_eq!((status.peer, status.workload), ("age", "stream-decrypt"));
        assert_eq!(status.detail, "not here");
        // A tool that runs but writes no key file is absent too, and says so.
        fake_program(tmp.path(), "age");
        fake_program(tmp.path(), "age-keygen");
        let tool = find_age(Some(tmp.path().as_os_str())).unwrap();
        let (row, status) = measure_age(w, AgePeer::Encrypt, Ok(tool), 1000, 1, tmp.path());
        assert!(row.is_none());
        assert!(!status.available && status.peer == "age");
        assert!(status.detail.contains("age-keygen -o "), "{}", status.detail);
        // Nothing is left in the temporary directory but the fake tools.
        let left: Vec<_> = std::fs::read_dir(tmp.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left.len(), 2, "{left:?}");
    }

    #[test]
    fn a_file_set_holds_its_files_until_dropped() {
        let tmp = tempfile::tempdir().unwrap();
        let (a, b) = (
            super::FileSet::create(tmp.path(), "x", 3, 5000).unwrap(),
            super::FileSet::create(tmp.path(), "x", 2, 1).unwrap(),
        );
        assert_ne!(a.dir, b.dir);
        let paths = a.paths();
        assert_eq!(paths.len(), 3);
        for p in &paths {
            assert_eq!(std::fs::read(p).unwrap(), crate::inputs::input(5000));
        }
        drop(a);
        assert!(!paths[0].exists() && b.paths()[1].exists());
        drop(b);
        assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0);
    }

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
