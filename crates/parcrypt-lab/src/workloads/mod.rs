//! The workload registry. Each algorithm family registers its workloads in a
//! module of its own; the runner discovers them through [`registry`].

mod aes;
mod merkle;
mod rc4;

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
    /// gives none; `None` means the lab's default grid.
    pub sizes: Option<fn(quick: bool) -> Vec<usize>>,
    /// How OpenSSL does the same job, measured as a peer in the same run.
    pub openssl: Option<OpensslPeer>,
}

/// The same operation in the `openssl` CLI.
#[derive(Debug, Clone, Copy)]
pub struct OpensslPeer {
    /// Arguments to `openssl speed -mr -elapsed` naming the cipher, e.g.
    /// `["-evp", "aes-128-ctr"]` or `["-decrypt", "-evp", "aes-256-cbc"]`.
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
    all
}

/// The same deterministic input for every implementation: `i % 251`.
pub fn input(size: usize) -> Vec<u8> {
    (0..size).map(|i| (i % 251) as u8).collect()
}
