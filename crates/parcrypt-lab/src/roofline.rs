//! Each workload's limit on this machine, and what it would do on more
//! cores: the cost models a workload declares ([`Model`], one field of its
//! registry entry), evaluated against the machine's [`Ceilings`] and the
//! run's own one-core (`seq`) cells.
//!
//! A model says what one unit of the workload (a byte, an operation, an
//! item) costs on one core, as a sum of [`Stage`]s — the workload's own
//! `seq` cell, another workload's (its kernel), a one-thread ceiling such
//! as a page-cache read — how many threads can share that work
//! ([`Width`]), and which ceiling caps it on all threads ([`Cap`]). The
//! limit on `p` threads is then `p / cost`, capped; `of_limit` is the
//! achieved rate over it. docs/LAB.md gives every model's assumptions.

use crate::ceilings::{Ceiling, Ceilings};
use crate::model::{Analysis, ModelRecord, PredictedAt, Prediction, Row, RowLimit, Unit};
use crate::stats::amdahl;

/// The core counts [`predict`] predicts for.
pub const PREDICTED_CORES: [usize; 4] = [4, 8, 16, 64];

/// A workload's cost model.
#[derive(Debug, Clone, Copy)]
pub enum Model {
    /// No model, and why not.
    None(&'static str),
    /// One unit's cost on one core is the sum of `stages`, shared by up to
    /// `width` threads, capped by `cap`.
    Cost {
        /// What one unit costs on one core, summed.
        stages: &'static [Stage],
        /// How many threads can share the work.
        width: Width,
        /// The ceiling that caps the rate on all threads, if any.
        cap: Option<Cap>,
        /// Whether, on one thread, the input is read on a thread of its own
        /// (the file pipeline's reader thread reading ahead) while the
        /// calling thread does the rest: on two cores or more the
        /// one-thread limit is then the slower of the [`Stage::Ceiling`]
        /// stages and the others, not their sum.
        read_ahead: bool,
    },
}

/// Part of a unit's one-core cost.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Stage {
    /// The workload's own `seq` cell at the same size: everything it does.
    Own,
    /// Another workload's `seq` cell (the kernel doing this one's
    /// computation): at the same size where measured, else at its largest.
    /// Where the kernel was not measured in this run, the workload's own
    /// `seq` cell stands in for the whole cost (and the model says so).
    Kernel(&'static str),
    /// A one-thread machine ceiling: the input read out of the page cache.
    Ceiling(Ceiling),
    /// `calls` calls of one primitive (a SHA-256 compression, a Keccak
    /// permutation), counted from the algorithm, at the fastest one-core
    /// rate any of the primitive's kernel workloads reached in this run.
    /// Where none of them was measured, the workload's own `seq` cell
    /// stands in for the whole cost (and the model says so).
    Calls {
        /// Calls per unit (an expectation where the count depends on the
        /// data, e.g. the steps of a WOTS+ signature's chains).
        calls: f64,
        /// The primitive and the workloads that measure its rate.
        primitive: Primitive,
    },
}

/// A primitive the models count calls of, and the kernel workloads whose
/// `seq` cells give its one-core rate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Primitive {
    /// Its name in the model's description: `SHA-256 compressions`.
    pub name: &'static str,
    /// The kernel workloads measuring it, each with the calls one byte of
    /// its input costs (a 4 KiB leaf hashed with its prefix byte is 65
    /// SHA-256 compressions: 65/4096 a byte); the fastest measured counts.
    pub kernels: &'static [(&'static str, f64)],
}

/// How many threads can share a run's work.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Width {
    /// Any number.
    Any,
    /// At most this many (the two CRT halves, the two products of a split
    /// ECDSA verification).
    AtMost(usize),
    /// Two for `static` (p ∥ q), any for `steal` (all threads race for a
    /// prime): RSA key generation.
    PrimePair,
    /// One per item (a batch of n signatures, n files).
    Items,
    /// One per chunk of this many bytes (chunked RSA).
    Chunks(usize),
    /// One below this many bytes (one call on the calling thread), any from it.
    From(usize),
}

/// A ceiling that caps the limit on all threads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cap {
    /// Which.
    pub ceiling: Ceiling,
    /// Whether it applies only to inputs at least as large as the
    /// ceiling's own working set (memory bandwidth: `Ceilings::bounds`),
    /// or at every size (a page-cache read).
    pub large_inputs_only: bool,
}

/// The cap of an in-place transformation of memory: memory copy bandwidth
/// (each byte read and written once), for inputs at least as large as
/// its measurement's two buffers.
pub const IN_PLACE: Option<Cap> = Some(Cap {
    ceiling: Ceiling::MemoryCopy,
    large_inputs_only: true,
});
/// The cap of a hash of memory: memory read bandwidth, for inputs at
/// least as large as its measurement's buffer.
pub const READS_MEMORY: Option<Cap> = Some(Cap {
    ceiling: Ceiling::MemoryRead,
    large_inputs_only: true,
});
/// The cap of a workload reading a file in the page cache: the page-cache
/// read on all threads, at every size.
pub const READS_PAGE_CACHE: Option<Cap> = Some(Cap {
    ceiling: Ceiling::PageCacheRead,
    large_inputs_only: false,
});

/// The model of a workload whose whole cost is its own `seq` cell, shared
/// by `width` threads, capped by `cap`.
pub const fn own(width: Width, cap: Option<Cap>) -> Model {
    Model::Cost {
        stages: &[Stage::Own],
        width,
        cap,
        read_ahead: false,
    }
}

/// The model of a sequential-only workload: its limit is its own `seq`
/// cell (`of_limit` 1 by definition); it is there so that every workload
/// has a line, and a prediction (flat).
pub const SEQUENTIAL: Model = own(Width::AtMost(1), None);

impl Model {
    /// The model in words, for summary.md and results.json.
    pub fn describe(&self) -> String {
        match self {
            Model::None(why) => format!("no model: {why}"),
            Model::Cost {
                stages,
                width,
                cap,
                read_ahead,
            } => {
                let stages: Vec<String> = stages
                    .iter()
                    .map(|s| match s {
                        Stage::Own => "its own seq cell".to_owned(),
                        Stage::Kernel(w) => format!("{w}'s seq cell"),
                        Stage::Ceiling(c) => format!("{} on one thread", c.name()),
                        Stage::Calls { calls, primitive } => format!(
                            "{calls:.0} {} at the fastest one-core rate of {}",
                            primitive.name,
                            primitive
                                .kernels
                                .iter()
                                .map(|(k, _)| *k)
                                .collect::<Vec<_>>()
                                .join("/")
                        ),
                    })
                    .collect();
                let width = match width {
                    Width::Any => "on every thread".to_owned(),
                    Width::AtMost(1) => "on one thread".to_owned(),
                    Width::AtMost(n) => format!("on at most {n} threads"),
                    Width::PrimePair => "on 2 threads for static (p ∥ q), every thread for steal".to_owned(),
                    Width::Items => "one item per thread".to_owned(),
                    Width::Chunks(n) => format!("one {n}-byte chunk per thread"),
                    Width::From(n) => format!("on one thread below {n} bytes, every thread from there"),
                };
                let cap = cap.map_or(String::new(), |c| {
                    format!(
                        ", capped by {} on those threads{}",
                        c.ceiling.name(),
                        if c.large_inputs_only {
                            " for inputs as large as its measurement"
                        } else {
                            ""
                        }
                    )
                });
                let ahead = if *read_ahead {
                    "; on one thread a reader thread reads ahead, so the read and the rest overlap on two cores"
                } else {
                    ""
                };
                format!("one unit costs {} {width}{cap}{ahead}", stages.join(" + "))
            }
        }
    }
}

/// A row's rate in its own unit: bytes per second, else operations
/// (items) per second.
pub fn achieved(r: &Row) -> f64 {
    match r.unit {
        Unit::Bytes => r.throughput_bps,
        Unit::Operation | Unit::Items(_) => r.ops_per_s,
    }
}

/// What the models read: the run's rows (parcrypt's `seq` cells are the
/// one-core rates) and the machine's ceilings, where measured.
struct Context<'a> {
    rows: &'a [Row],
    ceilings: Option<&'a Ceilings>,
}

/// The one-core cost of one unit of `workload` at `size` (seconds per
/// unit): of its [`Stage::Ceiling`] stages (the read) and of the others,
/// and whether a kernel had to be replaced by the workload's own cell;
/// `None` where no `seq` cell gives it.
fn unit_cost(
    stages: &[Stage],
    ctx: &Context<'_>,
    workload: &str,
    unit: Unit,
    size: usize,
) -> Option<((f64, f64), bool)> {
    let seq_of = |w: &str, exact: bool| -> Option<&Row> {
        let seq = ctx
            .rows
            .iter()
            .filter(|r| !r.peer && r.workload == w && r.implementation == "seq");
        let at = seq.clone().find(|r| r.size_bytes == size);
        if exact {
            at
        } else {
            at.or_else(|| seq.max_by_key(|r| r.size_bytes))
        }
    };
    let own = || seq_of(workload, true).map(achieved).filter(|r| *r > 0.0);
    let (mut read, mut rest) = (0.0, 0.0);
    for stage in stages {
        let rate = match stage {
            Stage::Own => own()?,
            Stage::Kernel(k) => match seq_of(k, false).map(achieved).filter(|r| *r > 0.0) {
                Some(rate) => rate,
                // The kernel was not measured: the workload's own cell is the
                // whole cost (and replaces every other stage).
                None => return own().map(|rate| ((0.0, 1.0 / rate), true)),
            },
            Stage::Ceiling(c) if unit == Unit::Bytes => {
                match ctx
                    .ceilings
                    .map(|ce| ce.rate(*c, 1, size))
                    .filter(|r| r.is_finite() && *r > 0.0)
                {
                    Some(rate) => {
                        read += 1.0 / rate;
                        continue;
                    }
                    None => return own().map(|rate| ((0.0, 1.0 / rate), true)),
                }
            }
            Stage::Ceiling(_) => continue,
            Stage::Calls { calls, .. } if *calls <= 0.0 => continue,
            Stage::Calls { calls, primitive } => {
                let fastest = primitive
                    .kernels
                    .iter()
                    .filter_map(|(k, per_byte)| {
                        seq_of(k, false)
                            .map(|r| achieved(r) * per_byte)
                            .filter(|r| *r > 0.0)
                    })
                    .fold(f64::NAN, f64::max);
                if fastest.is_nan() {
                    return own().map(|rate| ((0.0, 1.0 / rate), true));
                }
                fastest / calls
            }
        };
        rest += 1.0 / rate;
    }
    (read + rest > 0.0).then_some(((read, rest), false))
}

/// How many of `threads` threads can share a run of `size` under `width`.
fn share(width: Width, implementation: &str, threads: usize, size: usize) -> usize {
    let p = threads.max(1);
    match width {
        Width::Any => p,
        Width::AtMost(n) => p.min(n.max(1)),
        Width::PrimePair if implementation == "static" => p.min(2),
        Width::PrimePair => p,
        Width::Items => p.min(size.max(1)),
        Width::Chunks(n) => p.min(size.div_ceil(n.max(1)).max(1)),
        Width::From(n) if size < n => 1,
        Width::From(_) => p,
    }
}

/// What binds a limit.
pub mod bound {
    /// The one-core cost over the threads that share it.
    pub const CORES: &str = "cores";
    /// Fewer threads can share the work than run (two CRT halves, a small
    /// batch, one call below a threshold).
    pub const WIDTH: &str = "width";
    /// Amdahl's serial fraction from this run's fit.
    pub const AMDAHL: &str = "amdahl";
    /// No model.
    pub const NONE: &str = "no-model";
}

/// The rate limit of `threads` threads on `size` (in the unit's rate) and
/// what binds it, from `model`; `None` where the model has no basis.
fn limit_at(
    model: &Model,
    ctx: &Context<'_>,
    (workload, unit, implementation): (&str, Unit, &str),
    size: usize,
    threads: usize,
    cap_threads: impl Fn(Ceiling, &Ceilings, usize, usize) -> f64,
    cores: usize,
) -> Option<(f64, &'static str)> {
    let Model::Cost {
        stages,
        width,
        cap,
        read_ahead,
    } = model
    else {
        return None;
    };
    let ((read, rest), _) = unit_cost(stages, ctx, workload, unit, size)?;
    let p = share(*width, implementation, threads, size);
    // One thread with a reader thread beside it, and a core for each.
    let overlapped = *read_ahead && p == 1 && cores >= 2;
    let cost = if overlapped { read.max(rest) } else { read + rest };
    let mut limit = (
        p as f64 / cost,
        if p < threads { bound::WIDTH } else { bound::CORES },
    );
    if let (Some(cap), Some(ce), Unit::Bytes) = (cap, ctx.ceilings, unit)
        && (!cap.large_inputs_only || ce.bounds(cap.ceiling, size))
    {
        let rate = cap_threads(cap.ceiling, ce, threads.max(1), size);
        if rate.is_finite() && rate > 0.0 && rate < limit.0 {
            limit = (rate, cap.ceiling.name());
        }
    }
    Some(limit)
}

/// Every row's limit and `of_limit` from its workload's model
/// (`model_of`), on at most `cores` threads, in the order of `rows`
/// ([`RowLimit::NONE`] for peers and workloads `model_of` does not know).
pub fn limits(
    rows: &[Row],
    ceilings: Option<&Ceilings>,
    cores: usize,
    model_of: impl Fn(&str) -> Option<Model>,
) -> Vec<RowLimit> {
    let ctx = Context { rows, ceilings };
    rows.iter()
        .map(|r| {
            let Some(model) = model_of(r.workload).filter(|_| !r.peer) else {
                return RowLimit::NONE;
            };
            let threads = r.threads.min(cores.max(1));
            let found = limit_at(
                &model,
                &ctx,
                (r.workload, r.unit, r.implementation),
                r.size_bytes,
                threads,
                |c, ce, p, size| ce.rate(c, p, size),
                cores,
            );
            match found {
                Some((rate, by)) => RowLimit::new(r, rate, by),
                None => RowLimit {
                    limit_by: Some(bound::NONE),
                    ..RowLimit::NONE
                },
            }
        })
        .collect()
}

/// Predicts `workload`'s rate at [`PREDICTED_CORES`]: the model's limit on
/// that many cores (ceilings scaled per core: each of P cores is assumed
/// to get what each of this machine's got on all of them), lowered to
/// Amdahl's law with this run's fitted serial fraction (the best parallel
/// implementation's at the largest size) where that is lower.
pub fn predict(
    workload: &'static str,
    model: &Model,
    rows: &[Row],
    analysis: &[Analysis],
    ceilings: Option<&Ceilings>,
    cores: usize,
) -> Option<Prediction> {
    let ctx = Context { rows, ceilings };
    let size = rows
        .iter()
        .filter(|r| !r.peer && r.workload == workload)
        .map(|r| r.size_bytes)
        .max()?;
    let seq = rows
        .iter()
        .find(|r| !r.peer && r.workload == workload && r.implementation == "seq" && r.size_bytes == size)?;
    let best = rows
        .iter()
        .filter(|r| !r.peer && r.workload == workload && r.size_bytes == size && r.implementation != "seq")
        .filter(|r| r.threads <= cores.max(1))
        .max_by(|a, b| achieved(a).total_cmp(&achieved(b)));
    let implementation = best.map_or("seq", |b| b.implementation);
    let s = analysis
        .iter()
        .find(|a| a.workload == workload && a.implementation == implementation)
        .and_then(|a| a.amdahl_serial_fraction);
    let seq_rate = achieved(seq);
    let at = PREDICTED_CORES
        .iter()
        .map(|&p| {
            let per_core = |c: Ceiling, ce: &Ceilings, p: usize, size: usize| {
                let on_all = ce.rate(c, ce.threads, size);
                if p <= ce.threads {
                    ce.rate(c, p, size)
                } else {
                    on_all / ce.threads.max(1) as f64 * p as f64
                }
            };
            let limit = if implementation == "seq" {
                // Sequential only: one core whatever the machine.
                limit_at(model, &ctx, (workload, seq.unit, "seq"), size, 1, per_core, p)
            } else {
                limit_at(
                    model,
                    &ctx,
                    (workload, seq.unit, implementation),
                    size,
                    p,
                    per_core,
                    p,
                )
            };
            let (mut rate, mut bound) = limit.unwrap_or((f64::NAN, bound::NONE));
            if let Some(s) = s {
                let by_amdahl = seq_rate * amdahl(s, p);
                if by_amdahl < rate || rate.is_nan() {
                    (rate, bound) = (by_amdahl, bound::AMDAHL);
                }
            }
            PredictedAt {
                cores: p,
                rate,
                bound,
            }
        })
        .collect();
    Some(Prediction {
        workload,
        implementation,
        size_bytes: size,
        unit: seq.unit,
        seq_rate,
        amdahl_serial_fraction: s,
        at,
    })
}

/// The record of `workload`'s model in this run.
pub fn record(
    (workload, family): (&'static str, &'static str),
    model: &Model,
    rows: &[Row],
    ceilings: Option<&Ceilings>,
) -> ModelRecord {
    let ctx = Context { rows, ceilings };
    let stood_in = match model {
        Model::Cost { stages, .. } => rows
            .iter()
            .filter(|r| !r.peer && r.workload == workload && r.implementation == "seq")
            .max_by_key(|r| r.size_bytes)
            .and_then(|r| unit_cost(stages, &ctx, workload, r.unit, r.size_bytes))
            .is_some_and(|(_, stood_in)| stood_in),
        Model::None(_) => false,
    };
    ModelRecord {
        workload,
        family,
        model: model.describe(),
        own_cell_stood_in: stood_in,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ceilings::Scaling;
    use crate::stats::Stats;

    /// A row of `workload` × `implementation` × `threads` at `size` bytes
    /// (or items) that took `seconds`.
    fn row(
        workload: &'static str,
        implementation: &'static str,
        threads: usize,
        size: usize,
        unit: Unit,
        seconds: f64,
    ) -> Row {
        let items = match unit {
            Unit::Items(_) => size as u64,
            _ => 1,
        };
        Row {
            workload,
            implementation,
            threads,
            size_bytes: size,
            unit,
            batch: 1,
            stats: Stats::of(&[seconds]),
            throughput_bps: if unit == Unit::Bytes {
                size as f64 / seconds
            } else {
                f64::NAN
            },
            speedup: 1.0,
            efficiency: 1.0,
            speedup_ci95: (1.0, 1.0),
            karp_flatt: None,
            outliers: 0,
            peer: false,
            items,
            ops_per_s: items as f64 / seconds,
            samples: vec![seconds],
            limit: RowLimit::NONE,
        }
    }

    /// Ceilings measured over buffers of `buffer` bytes (copy: two of them).
    fn ceilings(buffer: u64) -> Ceilings {
        let s = |one: f64, all: f64| Scaling { one, all };
        Ceilings {
            key: "test".into(),
            measured_utc: String::new(),
            threads: 2,
            llc_bytes: Some(buffer / 2),
            buffer_bytes: usize::try_from(buffer).unwrap(),
            memory_copy: s(10e9, 15e9),
            memory_read: s(20e9, 30e9),
            page_cache_read: s(8e9, 12e9),
            small_file_bytes: 1 << 20,
            page_cache_read_small: s(f64::NAN, f64::NAN),
            pipe: 3e9,
            write_dev_null: 100e9,
            write_file: 4e9,
            seconds: 1.0,
            cached_in: None,
        }
    }

    const MIB: usize = 1 << 20;

    #[test]
    fn limits_divide_the_one_core_cost_and_stop_at_the_ceilings() {
        // 64 MiB at 5 GB/s on one core; twice as fast on two threads.
        let size = 64 * MIB;
        let t1 = size as f64 / 5e9;
        let rows = vec![
            row("ctr", "seq", 1, size, Unit::Bytes, t1),
            row("ctr", "steal", 2, size, Unit::Bytes, t1 / 1.8),
            row("ctr", "steal", 4, size, Unit::Bytes, t1 / 1.7),
            row("ctr", "seq", 1, MIB, Unit::Bytes, t1 / 64.0),
            row("ctr", "steal", 2, MIB, Unit::Bytes, t1 / 64.0 / 1.9),
        ];
        let model = |_: &str| Some(own(Width::Any, IN_PLACE));
        // As large as the copy's two 32 MiB buffers: 2 × 5 = 10 GB/s, under the 15 GB/s copy.
        let ce = ceilings(32 * MIB as u64);
        let l = limits(&rows, Some(&ce), 2, model);
        assert_eq!(l[0].of_limit, 1.0, "seq is its own limit");
        assert_eq!((l[0].limit_bps, l[0].limit_by), (5e9, Some(bound::CORES)));
        assert!((l[1].limit_bps - 10e9).abs() < 1.0 && (l[1].of_limit - 0.9).abs() < 1e-9);
        // Four threads on two cores: still two cores' worth.
        assert!((l[2].limit_bps - 10e9).abs() < 1.0);
        assert!((l[2].limit_ops_per_s - 10e9 / size as f64).abs() < 1e-6);
        // A slow memory caps inputs as large as its measurement, not smaller ones.
        let mut slow = ce.clone();
        slow.memory_copy = Scaling { one: 4e9, all: 6e9 };
        let l = limits(&rows, Some(&slow), 2, model);
        assert_eq!((l[1].limit_bps, l[1].limit_by), (6e9, Some("memory-copy")));
        assert_eq!(l[0].limit_by, Some("memory-copy"), "one thread copies 4 GB/s < 5");
        assert_eq!(l[4].limit_by, Some(bound::CORES), "1 MiB sits in the cache");
        // Without ceilings the cores bind.
        let l = limits(&rows, None, 2, model);
        assert_eq!(l[1].limit_by, Some(bound::CORES));
    }

    #[test]
    fn a_file_workload_pays_the_read_and_the_kernel_and_a_batch_its_items() {
        let size = 16 * MIB;
        let rows = vec![
            row("gcm", "seq", 1, size, Unit::Bytes, size as f64 / 4e9),
            row("file", "seq", 1, size, Unit::Bytes, size as f64 / 2e9),
            row("file", "steal", 2, size, Unit::Bytes, size as f64 / 3e9),
            row("joint", "seq", 1, 32, Unit::Operation, 1.0 / 10_000.0),
            row("batch", "seq", 1, 1, Unit::Items("signature"), 1.0 / 9_000.0),
            row("batch", "steal", 2, 1, Unit::Items("signature"), 1.0 / 9_000.0),
            row("batch", "steal", 2, 64, Unit::Items("signature"), 64.0 / 19_000.0),
        ];
        let file = Model::Cost {
            stages: &[Stage::Ceiling(Ceiling::PageCacheRead), Stage::Kernel("gcm")],
            width: Width::Any,
            cap: READS_PAGE_CACHE,
            read_ahead: false,
        };
        let ahead = Model::Cost {
            stages: &[Stage::Ceiling(Ceiling::PageCacheRead), Stage::Kernel("gcm")],
            width: Width::Any,
            cap: READS_PAGE_CACHE,
            read_ahead: true,
        };
        let batch = Model::Cost {
            stages: &[Stage::Kernel("joint")],
            width: Width::Items,
            cap: None,
            read_ahead: false,
        };
        let model_of = |w: &str| match w {
            "file" => Some(file),
            "batch" => Some(batch),
            _ => Some(SEQUENTIAL),
        };
        let ce = ceilings(32 * MIB as u64);
        let l = limits(&rows, Some(&ce), 2, model_of);
        // One core: 1 / (1/8 + 1/4) GB/s = 2.67 GB/s; two: 5.33, under the 12 GB/s read.
        assert!((l[1].limit_bps - 8e9 / 3.0).abs() < 1e3, "{}", l[1].limit_bps);
        assert!((l[2].limit_bps - 16e9 / 3.0).abs() < 1e3);
        assert!((l[1].of_limit - 0.75).abs() < 1e-9);
        // A file smaller than the ceilings' buffer reads at the small file's rate.
        let mut cached = ce.clone();
        cached.page_cache_read_small = Scaling { one: 16e9, all: 24e9 };
        let l16 = limits(&rows, Some(&cached), 2, model_of);
        assert!(
            (l16[1].limit_bps - 16e9 / 5.0).abs() < 1e3,
            "{}",
            l16[1].limit_bps
        );
        // Reading ahead on a thread of its own, one thread is as fast as the
        // slower of the read (8 GB/s) and the kernel (4 GB/s) on two cores,
        // not on one; two threads share both.
        let with = |cores| limits(&rows, Some(&ce), cores, |w| (w == "file").then_some(ahead));
        assert!((with(2)[1].limit_bps - 4e9).abs() < 1e3);
        assert!((with(1)[1].limit_bps - 8e9 / 3.0).abs() < 1e3);
        assert!((with(2)[2].limit_bps - 16e9 / 3.0).abs() < 1e3);
        // A slow page cache caps the file at every size.
        let mut slow = ce.clone();
        slow.page_cache_read = Scaling { one: 8e9, all: 4e9 };
        assert_eq!(
            limits(&rows, Some(&slow), 2, model_of)[2].limit_by,
            Some("page-cache-read")
        );
        // One signature cannot use a second thread; 64 can.
        assert_eq!(
            (l[5].limit_ops_per_s, l[5].limit_by),
            (10_000.0, Some(bound::WIDTH))
        );
        assert_eq!(l[6].limit_ops_per_s, 20_000.0);
        assert!((l[6].of_limit - 0.95).abs() < 1e-9);
        // Without the kernel's cell, the workload's own stands in and the record says so.
        let no_kernel: Vec<Row> = rows.iter().filter(|r| r.workload != "gcm").cloned().collect();
        let l = limits(&no_kernel, Some(&ce), 2, model_of);
        assert_eq!(l[0].of_limit, 1.0);
        assert!(record(("file", "stream"), &file, &no_kernel, Some(&ce)).own_cell_stood_in);
        assert!(!record(("file", "stream"), &file, &rows, Some(&ce)).own_cell_stood_in);
    }

    #[test]
    fn counted_calls_cost_the_fastest_kernels_rate() {
        // Two kernels of one primitive: 64 calls per 4 KiB at 2 GB/s
        // (31.25 M calls/s) and one call per 64 bytes at 1 GB/s (15.6 M/s).
        const PRIMITIVE: Primitive = Primitive {
            name: "compressions",
            kernels: &[("lanes", 64.0 / 4096.0), ("one", 1.0 / 64.0)],
        };
        const MODEL: Model = Model::Cost {
            stages: &[Stage::Calls {
                calls: 1e6,
                primitive: PRIMITIVE,
            }],
            width: Width::Any,
            cap: None,
            read_ahead: false,
        };
        let size = 16 * MIB;
        let rows = vec![
            row("lanes", "seq", 1, size, Unit::Bytes, size as f64 / 2e9),
            row("one", "seq", 1, size, Unit::Bytes, size as f64 / 1e9),
            row("sign", "seq", 1, 32, Unit::Operation, 1.0 / 20.0),
            row("sign", "steal", 2, 32, Unit::Operation, 1.0 / 36.0),
        ];
        let model_of = |w: &str| Some(if w == "sign" { MODEL } else { SEQUENTIAL });
        let l = limits(&rows, None, 2, model_of);
        // 1 M calls at 31.25 M/s: 31.25 signatures/s a core.
        assert!((l[2].limit_ops_per_s - 31.25).abs() < 1e-9, "{:?}", l[2]);
        assert!((l[3].limit_ops_per_s - 62.5).abs() < 1e-9);
        assert!((l[3].of_limit - 36.0 / 62.5).abs() < 1e-9);
        assert!(!record(("sign", "slh-dsa"), &MODEL, &rows, None).own_cell_stood_in);
        assert!(
            MODEL
                .describe()
                .contains("1000000 compressions at the fastest one-core rate of lanes/one")
        );
        // Without a kernel's cell the workload's own stands in; a stage of
        // no calls needs no kernel.
        let alone = &rows[2..];
        assert_eq!(limits(alone, None, 2, model_of)[0].of_limit, 1.0);
        assert!(record(("sign", "slh-dsa"), &MODEL, alone, None).own_cell_stood_in);
        const NONE: Model = Model::Cost {
            stages: &[
                Stage::Calls {
                    calls: 1e6,
                    primitive: PRIMITIVE,
                },
                Stage::Calls {
                    calls: 0.0,
                    primitive: Primitive {
                        name: "unmeasured",
                        kernels: &[("nowhere", 1.0)],
                    },
                },
            ],
            width: Width::Any,
            cap: None,
            read_ahead: false,
        };
        let l = limits(&rows, None, 2, |w| {
            Some(if w == "sign" { NONE } else { SEQUENTIAL })
        });
        assert!((l[2].limit_ops_per_s - 31.25).abs() < 1e-9);
    }

    #[test]
    fn widths_and_no_model() {
        assert_eq!(share(Width::PrimePair, "static", 8, 128), 2);
        assert_eq!(share(Width::PrimePair, "steal", 8, 128), 8);
        assert_eq!(share(Width::Chunks(190), "steal", 8, 380), 2);
        assert_eq!(share(Width::From(2 * MIB), "steal", 8, MIB), 1);
        assert_eq!(share(Width::From(2 * MIB), "steal", 8, 2 * MIB), 8);
        assert_eq!(share(Width::AtMost(2), "steal", 8, 1), 2);
        let rows = vec![row("sign", "seq", 1, 256, Unit::Operation, 1e-3)];
        let l = limits(&rows, None, 2, |_| Some(Model::None("why")));
        assert_eq!(l[0].limit_by, Some(bound::NONE));
        assert!(l[0].of_limit.is_nan());
        assert_eq!(Model::None("why").describe(), "no model: why");
    }

    #[test]
    fn predictions_stop_at_the_model_and_at_amdahl() {
        let size = 64 * MIB;
        let t1 = size as f64 / 5e9;
        let rows = vec![
            row("ctr", "seq", 1, size, Unit::Bytes, t1),
            row("ctr", "steal", 2, size, Unit::Bytes, t1 / 1.8),
        ];
        let model = own(Width::Any, IN_PLACE);
        let fit = |s: Option<f64>| Analysis {
            workload: "ctr",
            implementation: "steal",
            size_bytes: size,
            amdahl_serial_fraction: s,
            crossover_threads: 2,
            crossover_bytes: None,
        };
        let ce = ceilings(32 * MIB as u64);
        // No serial part: 5 GB/s a core until the copy's per-core share,
        // 7.5 GB/s a core, which is never lower here.
        let p = predict("ctr", &model, &rows, &[fit(Some(0.0))], Some(&ce), 2).unwrap();
        assert_eq!(p.implementation, "steal");
        for a in &p.at {
            assert!((a.rate - 5e9 * a.cores as f64).abs() < 1.0, "{a:?}");
            assert_eq!(a.bound, bound::CORES);
            assert!(a.rate <= ce.memory_copy.all / 2.0 * a.cores as f64);
        }
        // A slow memory binds; a serial part binds where it is lower.
        let mut slow = ce.clone();
        slow.memory_copy = Scaling { one: 4e9, all: 6e9 };
        let p = predict("ctr", &model, &rows, &[fit(Some(0.1))], Some(&slow), 2).unwrap();
        for a in &p.at {
            let ceiling = 3e9 * a.cores as f64;
            let amdahl = 5e9 * amdahl(0.1, a.cores);
            assert!(a.rate <= ceiling + 1.0 && a.rate <= amdahl + 1.0, "{a:?}");
            assert_eq!(
                a.bound,
                if ceiling < amdahl {
                    "memory-copy"
                } else {
                    bound::AMDAHL
                }
            );
        }
        // Sequential only: flat.
        let seq_only = vec![rows[0].clone()];
        let p = predict("ctr", &SEQUENTIAL, &seq_only, &[], Some(&ce), 2).unwrap();
        assert!(p.at.iter().all(|a| a.rate == 5e9), "{p:?}");
    }

    #[test]
    fn every_registered_workload_has_a_model_or_says_why_not() {
        for w in crate::workloads::registry() {
            match w.model {
                Model::None(why) => assert!(why.len() > 20, "{}: {why:?}", w.name),
                Model::Cost { stages, width, .. } => {
                    assert!(!stages.is_empty(), "{}", w.name);
                    // A workload measured as `seq` alone has a width of one.
                    assert!(w.parallel || width == Width::AtMost(1), "{}", w.name);
                    for s in stages {
                        let kernels: Vec<&str> = match s {
                            Stage::Kernel(k) => vec![k],
                            Stage::Calls { primitive, .. } => {
                                primitive.kernels.iter().map(|(k, _)| *k).collect()
                            }
                            Stage::Own | Stage::Ceiling(_) => Vec::new(),
                        };
                        for k in kernels {
                            assert!(crate::workloads::id::ALL.contains(&k), "{}: kernel {k}", w.name);
                        }
                    }
                }
            }
        }
    }
}
