//! The workload registry. Each algorithm family registers its workloads in a
//! module of its own; the runner discovers them through [`registry`].

mod aes;
mod ecdsa;
mod merkle;
mod rc4;
mod rsa;
mod stream;

use parcrypt::par::Parallelism;

/// One timed operation, built for one input size: keys, buffers and inputs
/// are made outside the timed region, and each call runs the operation once.
///
/// Each call hands what it computed to the [`Output`] sink (the buffer it
/// transformed, the hash or verdicts it produced), so that a test can check
/// every strategy computes the same bytes; the lab passes a sink that does
/// nothing. Operations whose output is random (key generation, PSS
/// signatures, OAEP and stream encryption) or goes to a file sink
/// (stream decryption) hand nothing.
pub type Operation = Box<dyn FnMut(&Parallelism, Output<'_>)>;

/// Where an [`Operation`] hands its output.
pub type Output<'a> = &'a mut dyn FnMut(&[u8]);

/// Something the lab can measure.
#[derive(Debug, Clone, Copy)]
pub struct Workload {
    /// Unique name, `family-…`, e.g. `aes-128-ctr`.
    pub name: &'static str,
    /// The algorithm family, e.g. `aes`.
    pub family: &'static str,
    /// One line for reports.
    pub description: &'static str,
    /// Builds the operation over `size` bytes of input.
    pub setup: fn(size: usize) -> Operation,
    /// Whether the operation uses its `Parallelism` at all; a sequential-only
    /// workload (RC4) is measured as `seq` alone.
    pub parallel: bool,
    /// The workload's own size grid (`quick` → sizes) when the configuration
    /// gives none; `None` means the lab's default grid. An empty grid leaves
    /// the workload out of that mode (RSA-4096 key generation in a quick study).
    pub sizes: Option<fn(quick: bool) -> Vec<usize>>,
    /// What one run processes, which decides the rate the lab reports.
    pub unit: Unit,
    /// Samples per cell at a size: [`adaptive`] (`None`) for the lab's
    /// adaptive count, or a fixed number where that does not suit: key
    /// generation's heavy tail needs many samples for its p90; a multi-second
    /// bulk cell, whose every run already averages hundreds of blocks, needs
    /// few. `--repeats` overrides both.
    pub samples: fn(quick: bool, size: usize) -> Option<usize>,
    /// How OpenSSL does the same job, measured as a peer in the same run.
    pub openssl: Option<OpensslPeer>,
    /// What the operation reads, which decides how large the peers' files
    /// are.
    pub input: Input,
    /// `age` (or `rage`) doing the same job on a file, measured as a peer in
    /// the same run when either is installed.
    pub age: Option<AgePeer>,
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

/// What one run of a workload processes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// `size` bytes of input: rates are bytes per second, and `--sizes`
    /// applies.
    Bytes,
    /// One operation (a key generated, a signature made) whose size is
    /// nominal: its own grid, usually one size, always (`--sizes` does not
    /// apply); rates are operations per second, and throughput in bytes per
    /// second does not apply (empty in results.csv, `null` in results.json).
    Operation,
    /// `size` independent items in one run (signatures verified as a batch),
    /// named by the singular noun given (`"signature"`; the plural adds an
    /// s). The size axis counts items, not bytes, so `--sizes` does not
    /// apply and the workload keeps its own grid; rates are items per second
    /// (`ops_per_s`: one operation per item, `items` = `size`), and throughput
    /// in bytes per second does not apply.
    Items(&'static str),
}

impl Unit {
    /// What a row's size counts, as results.csv and results.json name it:
    /// `bytes`, `operation` (a nominal size in bytes, rates in op/s), or the
    /// items' plural noun (`signatures`).
    pub fn name(self) -> String {
        match self {
            Unit::Bytes => "bytes".to_owned(),
            Unit::Operation => "operation".to_owned(),
            Unit::Items(noun) => format!("{noun}s"),
        }
    }

    /// A size for people: `64 KiB`, `256 B` for an operation's nominal size,
    /// `1 signature`, `64 signatures`.
    pub fn label(self, size: usize) -> String {
        match self {
            Unit::Bytes | Unit::Operation => crate::output::human_size(size),
            Unit::Items(noun) if size == 1 => format!("1 {noun}"),
            Unit::Items(noun) => format!("{size} {noun}s"),
        }
    }
}

impl serde::Serialize for Unit {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.name())
    }
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

/// Every workload, in report order.
pub fn registry() -> Vec<Workload> {
    let mut all = Vec::new();
    aes::register(&mut all);
    rc4::register(&mut all);
    merkle::register(&mut all);
    rsa::register(&mut all);
    ecdsa::register(&mut all);
    stream::register(&mut all);
    all
}

/// The authenticated-encryption grid (one-message GCM, the stream format):
/// 1 KiB … 1 GiB, where the last sizes are what people encrypt files of; a
/// quick study keeps 1 MiB (below GCM's parallel threshold of 2 MiB, one
/// segment of a stream) and 16 MiB.
pub(crate) fn aead_sizes(quick: bool) -> Vec<usize> {
    if quick {
        vec![1 << 20, 16 << 20]
    } else {
        vec![1 << 10, 64 << 10, 1 << 20, 16 << 20, 256 << 20, 1 << 30]
    }
}

/// Samples for [`aead_sizes`]: a run of 256 MiB or 1 GiB takes 0.1–1 s and
/// already averages thousands of segments, so five samples pin its median
/// (adapting would take at least ten, 13 implementations × 10 s a workload
/// at 1 GiB); smaller sizes adapt.
pub(crate) fn aead_samples(_quick: bool, size: usize) -> Option<usize> {
    (size >= 256 << 20).then_some(5)
}

/// The lab's adaptive sample count, for [`Workload::samples`].
pub fn adaptive(_quick: bool, _size: usize) -> Option<usize> {
    None
}

/// The same deterministic input for every implementation: `i % 251`.
pub fn input(size: usize) -> Vec<u8> {
    (0..size).map(|i| (i % 251) as u8).collect()
}

/// Writes [`input`]`(size)` to `out` a megabyte at a time, so a 1 GiB file
/// needs no 1 GiB buffer.
pub(crate) fn write_input(out: &mut impl std::io::Write, size: usize) -> std::io::Result<()> {
    // A whole number of periods, so every chunk starts at 0.
    let chunk = input(251 * 4096);
    let mut left = size;
    while left > 0 {
        let n = left.min(chunk.len());
        out.write_all(&chunk[..n])?;
        left -= n;
    }
    Ok(())
}
