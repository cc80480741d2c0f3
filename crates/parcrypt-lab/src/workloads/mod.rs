//! The workload registry. Each algorithm family registers its workloads in a
//! module of its own; the runner discovers them through [`registry`].

mod aes;
mod merkle;
mod rc4;
mod rsa;

use parcrypt::par::Parallelism;

/// One timed operation, built for one input size: keys, buffers and inputs
/// are made outside the timed region, and each call runs the operation once.
pub type Operation = Box<dyn FnMut(&Parallelism)>;

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
}

/// The same operation in the `openssl` CLI.
#[derive(Debug, Clone, Copy)]
pub struct OpensslPeer {
    /// Arguments to `openssl speed -mr -elapsed` naming the cipher, e.g.
    /// `["-evp", "aes-128-ctr"]` or `["-decrypt", "-evp", "aes-256-cbc"]`;
    /// for a [`Unit::Operation`] workload, the public-key algorithm whose
    /// private operation (sign) is timed, e.g. `["rsa2048"]`.
    pub speed: &'static [&'static str],
    /// Arguments to `openssl enc` that do the same to a file (`-in`/`-out`
    /// are added), when `enc` can.
    pub enc: Option<&'static [&'static str]>,
    /// Arguments to `openssl dgst` that hash a file the same way (the file
    /// and `-out /dev/null` are added), for hash workloads.
    pub dgst: Option<&'static [&'static str]>,
}

/// Every workload, in report order.
pub fn registry() -> Vec<Workload> {
    let mut all = Vec::new();
    aes::register(&mut all);
    rc4::register(&mut all);
    merkle::register(&mut all);
    rsa::register(&mut all);
    all
}

/// The lab's adaptive sample count, for [`Workload::samples`].
pub fn adaptive(_quick: bool, _size: usize) -> Option<usize> {
    None
}

/// The same deterministic input for every implementation: `i % 251`.
pub fn input(size: usize) -> Vec<u8> {
    (0..size).map(|i| (i % 251) as u8).collect()
}
