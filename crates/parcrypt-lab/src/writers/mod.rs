//! The writers: functions over a [`Summary`] that produce the run's files —
//! results.csv ([`csv`]), results.json and machine.json ([`json`]),
//! summary.md ([`markdown`]), report.html ([`html`]) with its plots
//! ([`plots`], drawn by [`svg`], rasterized by [`png`]) — and the summary
//! printed at the end ([`text`]). The top layer: nothing else in the lab
//! depends on them but the crate's [`run`](crate::run).

pub mod csv;
pub mod html;
pub mod json;
pub mod markdown;
pub mod plots;
pub mod png;
pub mod svg;
pub mod text;

use std::io::Write;
use std::path::Path;

use crate::error::LabError;
use crate::model::{Row, Summary, Unit};

/// Writes results.csv, summary.md, report.html with its plots,
/// machine.json and results.json into `dir`, and records their paths in
/// `summary.files` (which results.json, written last, lists).
///
/// # Errors
/// [`LabError::Io`] if a file cannot be written.
pub fn write_all(summary: &mut Summary, dir: &Path) -> Result<(), LabError> {
    let (csv, machine, results, markdown) = (
        dir.join("results.csv"),
        dir.join("machine.json"),
        dir.join("results.json"),
        dir.join("summary.md"),
    );
    summary.files = vec![csv.clone(), machine.clone(), results.clone(), markdown.clone()];
    write_file(&csv, csv::csv(summary).as_bytes())?;
    write_file(&markdown, markdown::markdown(summary).as_bytes())?;
    let report = html::report(summary, dir)?;
    summary.files.extend(report);
    write_file(&machine, &json::machine(summary))?;
    write_file(&results, &json::results(summary))
}

/// Writes `bytes` to `path` and syncs it.
pub(crate) fn write_file(path: &Path, bytes: &[u8]) -> Result<(), LabError> {
    let io = |source| LabError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut f = std::fs::File::create(path).map_err(io)?;
    f.write_all(bytes).map_err(io)?;
    f.sync_all().map_err(io)
}

/// A row's rate in its own unit: GB/s or MB/s for bytes, op/s for an
/// operation, items/s for items (whose throughput in bytes does not apply).
pub(crate) fn rate(r: &Row) -> String {
    rate_in(
        r.unit,
        match r.unit {
            Unit::Bytes => r.throughput_bps,
            Unit::Operation | Unit::Items(_) => r.ops_per_s,
        },
    )
}

/// A rate in `unit`'s terms (bytes per second for bytes, else operations
/// or items per second), as [`rate`] writes a row's; "—" for NaN.
pub(crate) fn rate_in(unit: Unit, value: f64) -> String {
    let gbps = value / 1e9;
    match unit {
        _ if !value.is_finite() => "—".to_owned(),
        Unit::Items(noun) => format!("{value:.0} {noun}s/s"),
        Unit::Operation => format!("{value:.1} op/s"),
        Unit::Bytes if gbps >= 0.1 => format!("{gbps:.2} GB/s"),
        Unit::Bytes => format!("{:.1} MB/s", value / 1e6),
    }
}

/// A row's limit and the fraction of it reached: `"10.2 GB/s"`, `"87%"`;
/// where it has none, what binds it (`no-model`) or "—".
pub(crate) fn limit_cells(r: &Row) -> (String, String) {
    let l = &r.limit;
    let limit = match r.unit {
        Unit::Bytes => l.limit_bps,
        Unit::Operation | Unit::Items(_) => l.limit_ops_per_s,
    };
    if limit.is_finite() {
        (
            format!("{} ({})", rate_in(r.unit, limit), l.limit_by.unwrap_or("")),
            format!("{:.0}%", l.of_limit * 100.0),
        )
    } else {
        (l.limit_by.unwrap_or("—").to_owned(), "—".to_owned())
    }
}

/// How many times faster `a` is than `b`: the ratio of throughputs, or of
/// times for operations (which the caller compares at the same size).
pub(crate) fn times_faster(a: &Row, b: &Row) -> f64 {
    if a.throughput_bps.is_finite() && b.throughput_bps.is_finite() {
        a.throughput_bps / b.throughput_bps
    } else {
        b.stats.median / a.stats.median
    }
}

/// The size parcrypt is set against a peer's row at: the smallest size
/// measured at or above the peer's (`openssl speed` uses 16 KiB buffers,
/// which the grid may not have).
pub(crate) fn size_beside_peer(summary: &Summary, peer: &Row) -> Option<usize> {
    summary
        .rows_of_workload(peer.workload)
        .map(|s| s.size_bytes)
        .filter(|&s| s >= peer.size_bytes)
        .min()
}
