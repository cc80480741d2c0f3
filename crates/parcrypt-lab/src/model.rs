//! The lab's data: a measured cell ([`Row`]), the implementation it ran
//! ([`Impl`]), what its size counts ([`Unit`]), and everything a run
//! produced ([`Summary`]). Plain data with queries; the runner fills it in,
//! the writers turn it into files.

use std::path::PathBuf;

use parcrypt::par::Parallelism;
use serde::Serialize;

use crate::machine::Machine;
use crate::stats::Stats;

/// How one implementation runs: its name in reports and its parallelism.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Impl {
    /// `seq`, `static` or `steal`.
    pub name: &'static str,
    /// Threads used.
    pub threads: usize,
    #[serde(skip)]
    pub(crate) par: Parallelism,
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
            Unit::Bytes | Unit::Operation => crate::units::human_size(size),
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

/// One measured cell.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    /// Workload name.
    pub workload: &'static str,
    /// Implementation name.
    #[serde(rename = "impl")]
    pub implementation: &'static str,
    /// Threads.
    pub threads: usize,
    /// Input size: bytes, an operation's nominal bytes, or the items of an
    /// item workload (see `unit`).
    pub size_bytes: usize,
    /// What `size_bytes` counts and which rate applies.
    pub unit: Unit,
    /// Runs timed per sample (small inputs are batched).
    pub batch: u64,
    /// Seconds per run: one operation, or all `items` of an item workload.
    pub stats: Stats,
    /// Bytes per second at the median; NaN where it does not apply (a
    /// [`Unit::Operation`] or [`Unit::Items`] workload: see `ops_per_s`).
    pub throughput_bps: f64,
    /// Median of `seq` at this size over this cell's median.
    pub speedup: f64,
    /// Speed-up per thread.
    pub efficiency: f64,
    /// 95% bootstrap interval of the speed-up (low, high).
    pub speedup_ci95: (f64, f64),
    /// Karp–Flatt serial fraction (none at 1 thread).
    pub karp_flatt: Option<f64>,
    /// Samples outside Tukey's fences (flagged, kept).
    pub outliers: usize,
    /// Whether this row measures another tool (a peer), not parcrypt.
    pub peer: bool,
    /// Operations per run: `size_bytes` for an item workload, else 1.
    pub items: u64,
    /// Operations (items) per second at the median.
    pub ops_per_s: f64,
    /// The samples themselves, seconds per run: kept for ratios between
    /// cells of different workloads (bootstrap intervals), not written.
    #[serde(skip)]
    pub samples: Vec<f64>,
    /// The workload's limit on this cell's threads and the fraction of it
    /// reached (`roofline`); empty for peers and where there is no model.
    #[serde(flatten)]
    pub limit: RowLimit,
}

/// A cell's limit: the rate its workload's cost model allows on its
/// threads (on at most the cores), in the workload's unit, and the
/// fraction of it the cell reached. Distinct from `efficiency`, which is
/// the speed-up per thread.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct RowLimit {
    /// The limit in bytes per second; NaN where the unit is not bytes or
    /// there is no limit.
    #[serde(rename = "limit_Bps")]
    pub limit_bps: f64,
    /// The limit in operations (items) per second (for bytes: runs of this
    /// size per second); NaN where there is no limit.
    pub limit_ops_per_s: f64,
    /// The achieved rate over the limit; NaN where there is no limit.
    pub of_limit: f64,
    /// What binds the limit (`cores`, `width`, `memory-copy`,
    /// `page-cache-read`, …), `no-model`, or `None` (a peer).
    pub limit_by: Option<&'static str>,
}

impl RowLimit {
    /// No limit (a peer's row, or before the models ran).
    pub const NONE: RowLimit = RowLimit {
        limit_bps: f64::NAN,
        limit_ops_per_s: f64::NAN,
        of_limit: f64::NAN,
        limit_by: None,
    };

    /// The limit `rate` (in `r`'s unit: bytes or operations per second),
    /// bound by `by`, for the row `r`.
    pub fn new(r: &Row, rate: f64, by: &'static str) -> RowLimit {
        let (limit_bps, limit_ops_per_s, achieved) = match r.unit {
            Unit::Bytes => (rate, rate / r.size_bytes.max(1) as f64, r.throughput_bps),
            Unit::Operation | Unit::Items(_) => (f64::NAN, rate, r.ops_per_s),
        };
        RowLimit {
            limit_bps,
            limit_ops_per_s,
            of_limit: achieved / rate,
            limit_by: Some(by),
        }
    }
}

/// One workload's rate on one core: its `seq` cell at the largest size
/// measured (machine.json lists these beside the ceilings: the kernels'
/// one-core rates the cost models use).
#[derive(Debug, Clone, Serialize)]
pub struct OneCore {
    /// Workload name.
    pub workload: &'static str,
    /// The size.
    pub size_bytes: usize,
    /// What the size counts.
    pub unit: Unit,
    /// Bytes per second (bytes), else operations (items) per second.
    pub rate: f64,
}

/// Conclusions for one workload × parallel implementation.
#[derive(Debug, Clone, Serialize)]
pub struct Analysis {
    /// Workload name.
    pub workload: &'static str,
    /// Implementation (`static`, `steal`, …).
    #[serde(rename = "impl")]
    pub implementation: &'static str,
    /// The size the fit uses: the largest measured.
    pub size_bytes: usize,
    /// Serial fraction of Amdahl's law fitted (least squares) to the speed-ups
    /// at that size over thread counts up to the machine's cores; oversubscribed
    /// counts measure the scheduler, not the algorithm, and are left out.
    pub amdahl_serial_fraction: Option<f64>,
    /// Thread count used for the crossover: the cores, or the largest measured below.
    pub crossover_threads: usize,
    /// The smallest size from which this implementation beats `seq` with 95%
    /// confidence at every larger measured size (`None`: it never does); for
    /// an item workload, a number of items.
    pub crossover_bytes: Option<usize>,
}

/// Whether a peer ran, and if not, why.
#[derive(Debug, Clone, Serialize)]
pub struct PeerStatus {
    /// The peer, e.g. `openssl-speed`, `age`, `rage`.
    pub peer: &'static str,
    /// The workload it stands beside.
    pub workload: &'static str,
    /// Whether it produced a measurement.
    pub available: bool,
    /// The command run, or why it could not be.
    pub detail: String,
}

/// Everything a run produced.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// The machine and build.
    pub machine: Machine,
    /// Settings the run used.
    pub config: ConfigRecord,
    /// Every measured cell.
    pub rows: Vec<Row>,
    /// Amdahl fits and crossover sizes per workload × implementation.
    pub analysis: Vec<Analysis>,
    /// Wall time of the whole run, seconds.
    pub wall_s: f64,
    /// Warnings about the measurement (a busy machine, …).
    pub notes: Vec<String>,
    /// Which peers ran and which are absent (and why).
    pub peers: Vec<PeerStatus>,
    /// Files written.
    pub files: Vec<PathBuf>,
    /// Each workload's one-core rate (its `seq` cell at the largest size).
    pub one_core: Vec<OneCore>,
    /// Each workload's cost model, in words.
    pub models: Vec<ModelRecord>,
    /// Each workload's predicted rate at 4, 8, 16 and 64 cores.
    pub predictions: Vec<Prediction>,
}

/// The configuration as recorded in results.json.
#[derive(Debug, Clone, Serialize)]
pub struct ConfigRecord {
    /// Quick mode.
    pub quick: bool,
    /// Workloads measured.
    pub workloads: Vec<&'static str>,
    /// Thread counts.
    pub threads: Vec<usize>,
    /// Sizes in bytes (`None`: each workload's own grid, recorded per row).
    pub sizes: Option<Vec<usize>>,
    /// Fixed samples per cell, if set (otherwise adaptive: see each row).
    pub repeats: Option<usize>,
}

/// Queries over the rows, shared by the writers.
impl Summary {
    /// What `workload`'s sizes count ([`Unit::Bytes`] if it has no rows).
    pub fn unit(&self, workload: &str) -> Unit {
        self.rows
            .iter()
            .find(|r| r.workload == workload)
            .map_or(Unit::Bytes, |r| r.unit)
    }

    /// `size` of `workload` for people: `64 KiB`, `64 signatures`.
    pub fn size_label(&self, workload: &str, size: usize) -> String {
        self.unit(workload).label(size)
    }

    /// The largest size parcrypt measured `workload` at (peers excluded).
    pub fn largest_size(&self, workload: &str) -> Option<usize> {
        self.rows
            .iter()
            .filter(|r| r.workload == workload && !r.peer)
            .map(|r| r.size_bytes)
            .max()
    }

    /// parcrypt's cell of `workload` × `implementation` × `threads` at `size`.
    pub fn find(&self, workload: &str, implementation: &str, threads: usize, size: usize) -> Option<&Row> {
        self.rows.iter().find(|r| {
            r.workload == workload
                && r.implementation == implementation
                && r.threads == threads
                && r.size_bytes == size
        })
    }

    /// The fastest parcrypt row (any strategy and thread count) at `size`.
    pub fn best(&self, workload: &str, size: usize) -> Option<&Row> {
        self.rows
            .iter()
            .filter(|r| r.workload == workload && r.size_bytes == size && !r.peer)
            .min_by(|a, b| a.stats.median.total_cmp(&b.stats.median))
    }

    /// parcrypt's rows of `w` (peers excluded).
    pub fn rows_of_workload<'a>(&'a self, w: &'a str) -> impl Iterator<Item = &'a Row> + 'a {
        self.rows.iter().filter(move |r| r.workload == w && !r.peer)
    }

    /// parcrypt's rows of `w` by `implementation`.
    pub fn rows_of<'a>(&'a self, w: &'a str, implementation: &'a str) -> impl Iterator<Item = &'a Row> + 'a {
        self.rows_of_workload(w)
            .filter(move |r| r.implementation == implementation)
    }

    /// The sizes parcrypt measured `w` at, ascending.
    pub fn sizes_of(&self, w: &str) -> Vec<usize> {
        let mut sizes: Vec<usize> = self.rows_of_workload(w).map(|r| r.size_bytes).collect();
        sizes.sort_unstable();
        sizes.dedup();
        sizes
    }

    /// The row of `peer` beside `workload`, where it was measured.
    pub fn peer_row(&self, workload: &str, peer: &str) -> Option<&Row> {
        self.rows
            .iter()
            .find(|r| r.peer && r.workload == workload && r.implementation == peer)
    }
}

/// One workload's predicted rate at 4, 8, 16 and 64 cores (`roofline::PREDICTED_CORES`).
#[derive(Debug, Clone, Serialize)]
pub struct Prediction {
    /// Workload name.
    pub workload: &'static str,
    /// The implementation predicted (the best parallel one at the largest size).
    #[serde(rename = "impl")]
    pub implementation: &'static str,
    /// The size predicted for: the largest measured.
    pub size_bytes: usize,
    /// What `size_bytes` counts.
    pub unit: Unit,
    /// The `seq` rate measured here, in the unit's rate.
    pub seq_rate: f64,
    /// The Amdahl serial fraction fitted here, if any.
    pub amdahl_serial_fraction: Option<f64>,
    /// Per core count: the rate, and what binds it.
    pub at: Vec<PredictedAt>,
}

/// A predicted rate.
#[derive(Debug, Clone, Serialize)]
pub struct PredictedAt {
    /// Cores.
    pub cores: usize,
    /// The predicted rate (bytes or operations per second).
    pub rate: f64,
    /// What binds it: `cores`, `width`, `amdahl`, or a ceiling's name.
    pub bound: &'static str,
}

/// A workload's model as results.json records it.
#[derive(Debug, Clone, Serialize)]
pub struct ModelRecord {
    /// Workload name.
    pub workload: &'static str,
    /// Its family (`aes`, `merkle`, …): the report draws one roofline per family.
    pub family: &'static str,
    /// The model in words (`roofline::Model::describe`), or `no model: why`.
    pub model: String,
    /// Whether a kernel or ceiling the model names was missing in this
    /// run, so that the workload's own `seq` cell stood in for its cost.
    pub own_cell_stood_in: bool,
}
