//! The runner: which workloads, implementations, sizes and thread counts a
//! study measures, how each cell is sampled (warm-up, batches, adaptive
//! repeats within a time budget), and the statistics of the samples.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use parcrypt::par::{Parallelism, Strategy};

use crate::analysis;
use crate::ceilings;
use crate::error::LabError;
use crate::machine::Machine;
use crate::model::{ConfigRecord, Impl, OneCore, Row, Summary, Unit};
use crate::pattern;
use crate::peers;
use crate::roofline;
use crate::stats::{self, Stats};
use crate::workloads::{self, Operation, Workload};

/// What to measure and where to write it.
#[derive(Debug, Clone)]
pub struct LabConfig {
    /// A short study: the same grid with fewer repeats and shorter samples
    /// (under 2 minutes on 2 cores).
    pub quick: bool,
    /// Where results.csv, results.json and machine.json go (created if
    /// missing) [default: [`default_out_dir`]].
    pub out_dir: PathBuf,
    /// Only workloads matching this pattern (comma-separated alternatives,
    /// each a substring or a `*` glob).
    pub only: Option<String>,
    /// Thread counts to sweep [default: [`default_threads`]].
    pub threads_list: Option<Vec<usize>>,
    /// Input sizes in bytes [default: 10 B … 1 MB, 16 MiB, 64 MiB]; for
    /// byte workloads only (an operation such as key generation keeps its
    /// own nominal size, a batch its own counts of items).
    pub sizes: Option<Vec<usize>>,
    /// A fixed number of timed samples per cell after warm-up. Without it
    /// the count adapts: at least 10 (quick: 5), then more until the 95% CI
    /// is within ±3%, up to 50 (quick: 15) or the cell's share of `budget`.
    pub repeats: Option<usize>,
    /// Seconds the run may spend sampling, shared by its cells [default:
    /// 600; quick: 40].
    pub budget: Option<f64>,
    /// Draw a progress bar with ETA on stderr.
    pub progress: bool,
    /// Measure peers (`openssl speed`, `openssl enc`, `age`) in the same run.
    pub peers: bool,
    /// The command line, recorded in machine.json.
    pub command_line: String,
    /// Where the machine's ceilings are cached between runs
    /// [default: [`ceilings::default_cache`]]; `None`: measured every run.
    pub ceilings_cache: Option<PathBuf>,
    /// Measure the ceilings again even where the cache has them.
    pub remeasure: bool,
}

impl Default for LabConfig {
    fn default() -> Self {
        LabConfig {
            quick: false,
            out_dir: default_out_dir(),
            only: None,
            threads_list: None,
            sizes: None,
            repeats: None,
            budget: None,
            progress: false,
            peers: true,
            command_line: String::new(),
            ceilings_cache: ceilings::default_cache(),
            remeasure: false,
        }
    }
}

/// Sampling stops once the 95% CI of the mean is within ±3%.
pub const TARGET_REL_CI: f64 = 0.03;
/// The time a whole run aims to spend sampling, in seconds, shared equally by
/// its cells (a cell whose minimum samples take longer still takes them).
pub const DEFAULT_BUDGET: f64 = 600.0;
/// As [`DEFAULT_BUDGET`], for `--quick`.
pub const DEFAULT_QUICK_BUDGET: f64 = 40.0;
/// Thread counts swept by default: these, up to twice the cores (at least
/// 8), so the sweep oversubscribes as the papers' Hyper-Threading runs did
/// (1, 2, 3, 4, 6, 8 on 2 cores).
pub const THREAD_STEPS: [usize; 12] = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64];

/// Where a run writes unless told otherwise: `lab-out/<UTC timestamp>`
/// (see [`default_out_dir`]), for the library and the CLI alike.
pub const DEFAULT_OUT_DIR: &str = "lab-out";

/// A fresh directory under [`DEFAULT_OUT_DIR`] named by the time now
/// (`lab-out/20261122-113057`), so runs do not overwrite each other.
pub fn default_out_dir() -> PathBuf {
    Path::new(DEFAULT_OUT_DIR).join(crate::machine::timestamp_compact())
}

/// The default thread counts for a machine with `cores` cores.
pub fn default_threads(cores: usize) -> Vec<usize> {
    let max = (2 * cores).max(8);
    THREAD_STEPS.into_iter().filter(|&t| t <= max).collect()
}

/// How long to measure, by mode.
#[derive(Debug, Clone, Copy)]
struct Timing {
    /// Samples always taken.
    repeats: usize,
    /// Upper bound on samples when adapting (equal to `repeats`: fixed count).
    max_repeats: usize,
    /// Samples enough for a cell that has spent its budget (quick: 3, where
    /// `repeats` is 5; else `repeats`): on a CPU where a slow workload's
    /// samples are long (PARC4 with 32-byte blocks, 32-byte Merkle leaves
    /// without AVX-512), the minimum samples of its cells are what makes
    /// the run long.
    floor: usize,
    /// Stop adding samples once the 95% CI of the mean is within ± this fraction.
    target_rel_ci: f64,
    /// Stop adding samples once a cell has taken this long.
    cell_budget: Duration,
    /// Aim for samples at least this long (small inputs are batched).
    sample: Duration,
    /// Warm up for at least this long before sampling.
    warmup: Duration,
}

impl LabConfig {
    /// Sampling settings. `cells` is the number of cells in the run, over
    /// which the time budget is shared.
    fn timing(&self, cells: u64) -> Timing {
        let (min, max, sample, warmup) = if self.quick {
            (5, 15, 2, 10)
        } else {
            (10, 50, 10, 100)
        };
        let budget = self.budget.unwrap_or(if self.quick {
            DEFAULT_QUICK_BUDGET
        } else {
            DEFAULT_BUDGET
        });
        let (repeats, max_repeats) = match self.repeats {
            Some(n) => (n.max(1), n.max(1)),
            None => (min, max),
        };
        let floor = if self.quick && self.repeats.is_none() {
            3
        } else {
            repeats
        };
        Timing {
            repeats,
            max_repeats,
            floor,
            target_rel_ci: TARGET_REL_CI,
            cell_budget: Duration::from_secs_f64(budget / cells.max(1) as f64),
            sample: Duration::from_millis(sample),
            warmup: Duration::from_millis(warmup),
        }
    }

    /// The sizes to measure `w` at: the configuration's, else the
    /// workload's own grid, else the default grid. An operation's size is
    /// nominal and an item workload's is a count: they always have their own
    /// grid.
    fn sizes_for(&self, w: &Workload) -> Vec<usize> {
        match (&self.sizes, w.sizes) {
            (Some(s), _) if w.unit == Unit::Bytes => s.clone(),
            (_, Some(grid)) => grid(self.quick),
            (_, None) => workloads::DEFAULT_SIZES.to_vec(),
        }
    }

    /// Sampling for `w` at `size`: the run's, or the workload's fixed count
    /// where it has one and `--repeats` is not given.
    fn timing_for(&self, timing: Timing, w: &Workload, size: usize) -> Timing {
        match (self.repeats, (w.samples)(self.quick, size)) {
            (None, Some(n)) => Timing {
                repeats: n.max(1),
                max_repeats: n.max(1),
                floor: n.max(1),
                ..timing
            },
            _ => timing,
        }
    }

    fn threads(&self) -> Vec<usize> {
        self.threads_list
            .clone()
            .unwrap_or_else(|| default_threads(parcrypt::par::available_threads()))
    }

    fn workloads(&self) -> Result<Vec<Workload>, LabError> {
        let all = workloads::registry();
        let Some(pattern) = &self.only else { return Ok(all) };
        let chosen: Vec<Workload> = all
            .iter()
            .copied()
            .filter(|w| pattern::matches(pattern, w.name))
            .collect();
        if chosen.is_empty() {
            return Err(LabError::NoMatch {
                pattern: pattern.clone(),
                available: all.iter().map(|w| w.name).collect::<Vec<_>>().join(", "),
            });
        }
        Ok(chosen)
    }
}

/// The implementations measured: `seq` once (1 thread), `static` and `steal`
/// at every thread count.
fn impls(threads: &[usize]) -> Vec<Impl> {
    let mut v = vec![Impl {
        name: Strategy::Sequential.name(),
        threads: 1,
        par: Parallelism::sequential(),
    }];
    for strategy in [Strategy::Static, Strategy::WorkStealing] {
        for &t in threads {
            v.push(Impl {
                name: strategy.name(),
                threads: t,
                par: Parallelism::new(t, strategy),
            });
        }
    }
    v
}

/// Runs the configured study: checks the configuration, creates the output
/// directory (so that a bad one fails before the measuring), measures every
/// cell and its peers, and summarizes them. Writes nothing else: the
/// writers do, over the [`Summary`].
///
/// # Errors
/// [`LabError::NoMatch`] for a pattern matching nothing, [`LabError::Config`]
/// for empty or zero thread/size lists, [`LabError::Io`] if the output
/// directory cannot be created.
pub fn measure_all(config: &LabConfig) -> Result<Summary, LabError> {
    // Workloads this machine cannot run (a kernel for a CPU feature it
    // lacks or `PARCRYPT_CPU_MASK` masks) are left out, and the report says so.
    let (workloads, left_out): (Vec<Workload>, Vec<String>) = {
        let mut runnable = Vec::new();
        let mut left_out = Vec::new();
        for w in config.workloads()? {
            match (w.missing)() {
                Some(why) => left_out.push(format!("{} left out: this machine lacks {why}", w.name)),
                None => runnable.push(w),
            }
        }
        (runnable, left_out)
    };
    let threads = config.threads();
    if threads.is_empty() || threads.contains(&0) {
        return Err(LabError::Config("thread counts must be at least 1".into()));
    }
    if config
        .sizes
        .as_ref()
        .is_some_and(|s| s.is_empty() || s.contains(&0))
    {
        return Err(LabError::Config("sizes must be at least 1 byte".into()));
    }
    std::fs::create_dir_all(&config.out_dir).map_err(|source| LabError::Io {
        path: config.out_dir.clone(),
        source,
    })?;
    let mut machine = Machine::probe(&config.command_line);
    // The ceilings first, before the workloads warm the machine (and so
    // that a cached run spends nothing on them).
    bar_message(
        config.progress,
        "the machine's ceilings (measured once per machine, then cached)",
    );
    let (ceilings, ceilings_note) = ceilings::load_or_measure(
        config.ceilings_cache.as_deref(),
        &machine.ceilings_key(),
        config.remeasure,
        machine.cores,
        &std::env::temp_dir(),
        &machine.started_utc,
    );
    machine.ceilings = Some(ceilings);
    let all_impls = impls(&threads);
    let impls_for = |w: &Workload| {
        if w.parallel {
            &all_impls[..]
        } else {
            &all_impls[..1]
        }
    };
    let cells: u64 = workloads
        .iter()
        .map(|w| (config.sizes_for(w).len() * impls_for(w).len()) as u64)
        .sum();
    let timing = config.timing(cells);
    let bar = progress_bar(config.progress, cells);
    let started = Instant::now();
    let mut rows = Vec::with_capacity(cells as usize);
    let mut peer_status = Vec::new();
    for w in &workloads {
        for size in config.sizes_for(w) {
            let timing = config.timing_for(timing, w, size);
            let mut op = (w.setup)(size);
            let mut seq_samples: Option<Vec<f64>> = None;
            for imp in impls_for(w) {
                bar.set_message(format!(
                    "{} {} {}×{}",
                    w.name,
                    w.unit.label(size),
                    imp.name,
                    imp.threads
                ));
                let (samples, batch) = measure(&mut op, &imp.par, &timing);
                let seq = seq_samples.get_or_insert_with(|| samples.clone());
                rows.push(cell_row(w, imp, size, batch, &samples, seq));
                bar.inc(1);
            }
        }
        if config.peers {
            bar.set_message(format!("{} peers", w.name));
            let (peer_rows, status) = measure_peers(config, w, &timing, &rows);
            rows.extend(peer_rows);
            peer_status.extend(status);
        }
    }
    bar.finish_and_clear();
    let mut summary = summarize(config, &machine, &workloads, rows, started.elapsed());
    summary.notes.extend(ceilings_note);
    summary.notes.extend(left_out);
    summary.peers = peer_status;
    Ok(summary)
}

/// The summary of a run: its rows, their analysis, and notes on how far
/// to trust them.
fn summarize(
    config: &LabConfig,
    machine: &Machine,
    workloads: &[Workload],
    rows: Vec<Row>,
    wall: Duration,
) -> Summary {
    let mut notes = Vec::new();
    if let Some(mask) = &machine.cpu_mask {
        notes.push(format!("CPU features masked for this run: {mask}"));
    }
    if let Some(load) = machine.load_before.filter(|l| *l > 0.5) {
        notes.push(format!(
            "the 1-minute load average was {load:.2} before the run: other work may have disturbed the timings"
        ));
    }
    let imprecise = rows
        .iter()
        .filter(|r| !r.peer && (r.stats.ci95_high - r.stats.ci95_low) / 2.0 > TARGET_REL_CI * r.stats.mean)
        .count();
    if imprecise > 0 {
        notes.push(format!(
            "{imprecise} of {} cells did not reach a ±{:.0}% CI within their share of the time budget (see ci95_* in results.csv)",
            rows.iter().filter(|r| !r.peer).count(),
            TARGET_REL_CI * 100.0
        ));
    }
    // Load during the run is not judged: the lab's own oversubscribed
    // cells (4, 8 threads on fewer cores) raise it.
    let analysis = analysis::analyse(&rows, machine.cores);
    let model_of = |name: &str| workloads.iter().find(|w| w.name == name).map(|w| w.model);
    let ceilings = machine.ceilings.as_ref();
    let limits = roofline::limits(&rows, ceilings, machine.cores, model_of);
    let mut rows = rows;
    for (r, limit) in rows.iter_mut().zip(limits) {
        r.limit = limit;
    }
    let one_core = workloads
        .iter()
        .filter_map(|w| {
            let seq = rows
                .iter()
                .filter(|r| !r.peer && r.workload == w.name && r.implementation == "seq")
                .max_by_key(|r| r.size_bytes)?;
            Some(OneCore {
                workload: w.name,
                size_bytes: seq.size_bytes,
                unit: seq.unit,
                rate: roofline::achieved(seq),
            })
        })
        .collect();
    let models = workloads
        .iter()
        .map(|w| roofline::record((w.name, w.family), &w.model, &rows, ceilings))
        .collect();
    let predictions = workloads
        .iter()
        .filter_map(|w| roofline::predict(w.name, &w.model, &rows, &analysis, ceilings, machine.cores))
        .collect();
    Summary {
        machine: machine.clone(),
        config: ConfigRecord {
            quick: config.quick,
            workloads: workloads.iter().map(|w| w.name).collect(),
            threads: config.threads(),
            sizes: config.sizes.clone(),
            repeats: config.repeats,
        },
        analysis,
        rows,
        wall_s: wall.as_secs_f64(),
        notes,
        peers: Vec::new(),
        files: Vec::new(),
        one_core,
        models,
        predictions,
    }
}

/// The row for one measured cell; `seq` holds the samples of `seq` at the same size.
fn cell_row(w: &Workload, imp: &Impl, size: usize, batch: u64, samples: &[f64], seq: &[f64]) -> Row {
    let stats = Stats::of(samples);
    let speedup = Stats::of(seq).median / stats.median;
    let items = match w.unit {
        Unit::Items(_) => size as u64,
        Unit::Bytes | Unit::Operation => 1,
    };
    Row {
        workload: w.name,
        implementation: imp.name,
        threads: imp.threads,
        size_bytes: size,
        unit: w.unit,
        batch,
        stats,
        throughput_bps: match w.unit {
            Unit::Bytes => size as f64 / stats.median,
            Unit::Operation | Unit::Items(_) => f64::NAN,
        },
        speedup,
        efficiency: speedup / imp.threads as f64,
        speedup_ci95: stats::speedup_ci95(seq, samples),
        karp_flatt: stats::karp_flatt(speedup, imp.threads),
        outliers: stats::outliers(samples),
        peer: false,
        items,
        ops_per_s: items as f64 / stats.median,
        samples: samples.to_vec(),
        limit: crate::model::RowLimit::NONE,
    }
}

/// Runs `w`'s peers (OpenSSL, age); their speed-up is against parcrypt's
/// `seq` at the same size, where `rows` has one.
fn measure_peers(
    config: &LabConfig,
    w: &Workload,
    timing: &Timing,
    rows: &[Row],
) -> (Vec<Row>, Vec<peers::PeerStatus>) {
    let Some(largest) = config.sizes_for(w).into_iter().max() else {
        return (Vec::new(), Vec::new()); // not measured in this mode
    };
    let (seconds, repeats) = if config.quick {
        (1, 3)
    } else {
        (3, timing.repeats.min(7))
    };
    let (mut peer_rows, status) =
        peers::measure(&w.peers(), seconds, repeats, largest, &std::env::temp_dir());
    for r in &mut peer_rows {
        let seq = rows
            .iter()
            .find(|s| s.workload == w.name && s.implementation == "seq" && s.size_bytes == r.size_bytes);
        if let Some(seq) = seq {
            r.speedup = seq.stats.median / r.stats.median;
        }
    }
    (peer_rows, status)
}

/// Times `op` under `par`: warm-up, then `repeats` samples, each a batch of
/// calls long enough to time reliably. Returns seconds per call, and the batch.
fn measure(op: &mut Operation, par: &Parallelism, timing: &Timing) -> (Vec<f64>, u64) {
    // Calibrate: double the batch until one batch takes a sample's length.
    let mut batch = 1u64;
    let warm_until = Instant::now() + timing.warmup;
    loop {
        let t = Instant::now();
        for _ in 0..batch {
            op(par, &mut |_| {});
        }
        let took = t.elapsed();
        if took >= timing.sample || batch >= 1 << 24 {
            if Instant::now() >= warm_until {
                break;
            }
        } else {
            batch *= 2;
        }
    }
    let started = Instant::now();
    let mut samples = Vec::with_capacity(timing.max_repeats);
    loop {
        let t = Instant::now();
        for _ in 0..batch {
            op(par, &mut |_| {});
        }
        samples.push(t.elapsed().as_secs_f64() / batch as f64);
        let n = samples.len();
        let spent = started.elapsed() >= timing.cell_budget;
        if n >= timing.max_repeats
            || (n >= timing.repeats && (precise_enough(&samples, timing) || spent))
            || (n >= timing.floor && spent)
        {
            break;
        }
    }
    (samples, batch)
}

/// Whether the 95% CI of the mean is within the target relative width.
fn precise_enough(samples: &[f64], timing: &Timing) -> bool {
    let s = Stats::of(samples);
    (s.ci95_high - s.ci95_low) / 2.0 <= timing.target_rel_ci * s.mean
}

/// A line on stderr before the progress bar starts, where one is drawn.
fn bar_message(show: bool, message: &str) {
    if show {
        eprintln!("parcrypt lab: {message}");
    }
}

fn progress_bar(show: bool, cells: u64) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let style = ProgressStyle::with_template(
        "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} cells, ETA {eta} {msg}",
    )
    .unwrap_or_else(|_| ProgressStyle::default_bar());
    ProgressBar::with_draw_target(Some(cells), ProgressDrawTarget::stderr()).with_style(style)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::{DEFAULT_OUT_DIR, LabConfig};

    #[test]
    fn the_default_output_directory_is_the_clis() {
        // `parcrypt lab` without --out writes to lab-out/<UTC timestamp>;
        // the library's default is the same place.
        assert_eq!(DEFAULT_OUT_DIR, "lab-out");
        let dir = LabConfig::default().out_dir;
        assert_eq!(
            dir.parent(),
            Some(Path::new(DEFAULT_OUT_DIR)),
            "{}",
            dir.display()
        );
        let stamp = dir.file_name().unwrap_or_default().to_string_lossy().into_owned();
        assert_eq!((stamp.len(), stamp.as_bytes()[8]), (15, b'-'), "{stamp}");
    }
}
