//! The workload registry. Each algorithm family registers its workloads in a
//! module of its own; the runner discovers them through [`registry`].

mod aes;
mod age;
mod cobblestone;
mod ecdsa;
pub mod id;
mod merkle;
mod mldsa;
mod rc4;
mod rsa;
mod slhdsa;
mod stream;
mod tiles;

use parcrypt::par::Parallelism;

pub use crate::inputs::input;
pub(crate) use crate::inputs::write_input;
pub use crate::model::Unit;
use crate::peers::Beside;
pub use crate::peers::{AgePeer, Input, OpensslPeer, SpeedRate};
pub use crate::roofline::{IN_PLACE, Model, READS_MEMORY, READS_PAGE_CACHE, SEQUENTIAL, Stage, Width, own};

/// The RSA paper's grid of message sizes, plus two sizes for throughput:
/// the grid of a byte workload that has none of its own.
pub const DEFAULT_SIZES: [usize; 9] = [
    10,
    100,
    1_000,
    10_000,
    50_000,
    100_000,
    1_000_000,
    16 << 20,
    64 << 20,
];

/// ParalCrypto's image input, a 512×512 RGB image: in the AES and Merkle
/// grids so that its tables can be re-measured (the report sets the paper's
/// times beside ours).
pub const PARALCRYPTO_IMAGE: usize = 512 * 512 * 3;
/// ParalCrypto's text input, ~300 bytes; see [`PARALCRYPTO_IMAGE`].
pub const PARALCRYPTO_TEXT: usize = 300;
/// The RSA research application's message sizes in characters (one byte
/// each here): the grid of the chunked RSA workloads.
pub const RSA_APP_SIZES: [usize; 7] = [10, 100, 1_000, 10_000, 50_000, 100_000, 1_000_000];

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
    /// What this machine lacks to run the workload (a CPU feature, for the
    /// kernels written for one), or `None` where it runs: a study leaves it
    /// out and says why ([`runs_anywhere`] for most).
    pub missing: fn() -> Option<String>,
    /// `age` (or `rage`) doing the same job on a file, measured as a peer in
    /// the same run when either is installed.
    pub age: Option<AgePeer>,
    /// What limits the workload on this machine (its cost model, evaluated
    /// against the machine's ceilings and the run's one-core cells), or
    /// why it has none. docs/LAB.md gives each model's assumptions.
    pub model: Model,
}

impl Workload {
    /// The workload as its peers see it.
    pub fn peers(&self) -> Beside {
        Beside {
            workload: self.name,
            unit: self.unit,
            input: self.input,
            openssl: self.openssl,
            age: self.age,
            every_age: self.family == "age",
            b3sum: merkle::BESIDE_B3SUM.contains(&self.name),
            pyca: cobblestone::pyca_peer(self.name),
            signer: mldsa::signer(self.name).or_else(|| slhdsa::signer(self.name)),
        }
    }
}

/// Every workload, in report order.
pub fn registry() -> Vec<Workload> {
    let mut all = Vec::new();
    aes::register(&mut all);
    rc4::register(&mut all);
    merkle::register(&mut all);
    tiles::register(&mut all);
    rsa::register(&mut all);
    ecdsa::register(&mut all);
    stream::register(&mut all);
    age::register(&mut all);
    cobblestone::register(&mut all);
    mldsa::register(&mut all);
    slhdsa::register(&mut all);
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

/// [`Workload::missing`] for a workload that runs on any machine.
pub fn runs_anywhere() -> Option<String> {
    None
}

/// [`Workload::samples`] for the lab's adaptive count.
pub fn adaptive(_quick: bool, _size: usize) -> Option<usize> {
    None
}
