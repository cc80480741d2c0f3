//! The charts of a run, as SVG documents drawn by [`super::svg`]: per
//! workload speed-up, time and throughput; parcrypt against its peers; and
//! the overview that opens the report.

use super::svg::{Bars, Chart, Overview, OverviewRow, Series};
use super::{size_beside_peer, times_faster};
use crate::model::{Row, Summary, Unit};
use crate::stats::amdahl;

/// Every chart of the run, named `<workload>-<kind>`.
pub fn charts(summary: &Summary) -> Vec<(String, Chart)> {
    let mut out = Vec::new();
    for w in &summary.config.workloads {
        let Some(largest) = summary.largest_size(w) else {
            continue;
        };
        let parallel = summary.rows.iter().any(|r| r.workload == *w && r.threads > 1);
        // An operation (key generation, a signature) has one nominal size
        // and no throughput; items (a batch of signatures) have a rate in
        // items per second over their counts.
        let unit = summary.unit(w);
        let operation = unit == Unit::Operation;
        let mut threads: Vec<usize> = summary
            .rows
            .iter()
            .filter(|r| r.workload == *w)
            .map(|r| r.threads)
            .collect();
        threads.sort_unstable();
        threads.dedup();
        if parallel {
            // Speed-up vs threads at the largest size, with the ideal and the fitted Amdahl curve.
            let mut series = Vec::new();
            for imp in ["static", "steal"] {
                let mut rows: Vec<&Row> = summary
                    .rows_of(w, imp)
                    .filter(|r| r.size_bytes == largest)
                    .collect();
                rows.sort_by_key(|r| r.threads);
                series.push(Series {
                    name: imp.to_owned(),
                    points: rows.iter().map(|r| (r.threads as f64, r.speedup)).collect(),
                    ci: Some(rows.iter().map(|r| r.speedup_ci95).collect()),
                    reference: false,
                });
            }
            // More threads than cores cannot beat the cores: both model
            // lines are capped at the machine's core count.
            let cores = summary.machine.cores.max(1);
            let capped = |t: usize| t.min(cores);
            series.push(Series {
                name: format!("ideal ({cores} cores)"),
                points: threads.iter().map(|&t| (t as f64, capped(t) as f64)).collect(),
                ci: None,
                reference: true,
            });
            let fit = summary
                .analysis
                .iter()
                .filter(|a| a.workload == *w)
                .find_map(|a| a.amdahl_serial_fraction);
            if let Some(s) = fit {
                series.push(Series {
                    name: format!("Amdahl s={s:.3}"),
                    points: threads
                        .iter()
                        .map(|&t| (t as f64, amdahl(s, capped(t))))
                        .collect(),
                    ci: None,
                    reference: true,
                });
            }
            out.push((
                format!("{w}-speedup"),
                Chart {
                    title: if operation {
                        format!("{w}: speed-up")
                    } else {
                        format!("{w}: speed-up at {}", unit.label(largest))
                    },
                    x_label: "threads".into(),
                    y_label: "speed-up vs seq".into(),
                    x_log: false,
                    y_log: false,
                    series,
                },
            ));
            // Time vs threads, one line per size (steal).
            let mut sizes: Vec<usize> = summary.rows_of(w, "steal").map(|r| r.size_bytes).collect();
            sizes.sort_unstable();
            sizes.dedup();
            let series = sizes
                .iter()
                .map(|&size| {
                    let mut rows: Vec<&Row> = summary
                        .rows_of(w, "steal")
                        .filter(|r| r.size_bytes == size)
                        .collect();
                    rows.sort_by_key(|r| r.threads);
                    Series {
                        name: if operation {
                            "median".to_owned()
                        } else {
                            unit.label(size)
                        },
                        points: rows.iter().map(|r| (r.threads as f64, r.stats.median)).collect(),
                        ci: None,
                        reference: false,
                    }
                })
                .collect();
            out.push((
                format!("{w}-time"),
                Chart {
                    title: format!("{w}: time vs threads (steal)"),
                    x_label: "threads".into(),
                    y_label: "seconds (median)".into(),
                    x_log: false,
                    y_log: true,
                    series,
                },
            ));
        }
        // Throughput vs size: seq and each strategy at its best thread
        // count; peers as points. Not for operations (no throughput; one
        // nominal size); items per second over counts for items.
        let (value, title, x_label, y_label): (fn(&Row) -> f64, _, _, _) = match unit {
            Unit::Operation => continue,
            Unit::Bytes => (
                |r| r.throughput_bps,
                format!("{w}: throughput vs size"),
                "input bytes".to_owned(),
                "bytes / second".to_owned(),
            ),
            Unit::Items(noun) => (
                |r| r.ops_per_s,
                format!("{w}: {noun}s per second vs {noun}s per run"),
                format!("{noun}s per run"),
                format!("{noun}s / second"),
            ),
        };
        let mut series = Vec::new();
        for imp in ["seq", "static", "steal"] {
            let mut sizes: Vec<usize> = summary.rows_of(w, imp).map(|r| r.size_bytes).collect();
            sizes.sort_unstable();
            sizes.dedup();
            let points: Vec<(f64, f64)> = sizes
                .iter()
                .filter_map(|&size| {
                    summary
                        .rows_of(w, imp)
                        .filter(|r| r.size_bytes == size)
                        .map(value)
                        .fold(None, |best: Option<f64>, t| Some(best.map_or(t, |b| b.max(t))))
                        .map(|t| (size as f64, t))
                })
                .collect();
            if !points.is_empty() {
                let name = if imp == "seq" {
                    "seq".to_owned()
                } else {
                    format!("{imp} (best threads)")
                };
                series.push(Series {
                    name,
                    points,
                    ci: None,
                    reference: false,
                });
            }
        }
        for r in summary.rows.iter().filter(|r| r.workload == *w && r.peer) {
            series.push(Series {
                name: r.implementation.to_owned(),
                points: vec![(r.size_bytes as f64, value(r))],
                ci: None,
                reference: false,
            });
        }
        out.push((
            format!("{w}-throughput"),
            Chart {
                title,
                x_label,
                y_label,
                x_log: true,
                y_log: true,
                series,
            },
        ));
    }
    out
}

/// One roofline per workload family (and unit, where a family mixes
/// bytes with operations or items), named `roofline-<family>[-<unit>]`:
/// per workload at its largest size, the best rate reached at each thread
/// count (solid) and the limit its cost model gives there (dashed), on a
/// log axis. Workloads without a model have no limit line.
pub fn rooflines(summary: &Summary) -> Vec<(String, Chart)> {
    let mut groups: Vec<((&str, String), Vec<&str>)> = Vec::new();
    for m in &summary.models {
        if summary.largest_size(m.workload).is_none() {
            continue;
        }
        let key = (m.family, summary.unit(m.workload).name());
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, ws)) => ws.push(m.workload),
            None => groups.push((key, vec![m.workload])),
        }
    }
    let mixed = |family: &str| groups.iter().filter(|((f, _), _)| *f == family).count() > 1;
    let mut out = Vec::new();
    for ((family, unit_name), workloads) in &groups {
        let mut series = Vec::new();
        let mut y_label = String::new();
        for w in workloads {
            let Some(size) = summary.largest_size(w) else {
                continue;
            };
            let unit = summary.unit(w);
            y_label = match unit {
                Unit::Bytes => "bytes / second".to_owned(),
                Unit::Operation => "operations / second".to_owned(),
                Unit::Items(noun) => format!("{noun}s / second"),
            };
            let mut threads: Vec<usize> = summary.rows_of_workload(w).map(|r| r.threads).collect();
            threads.sort_unstable();
            threads.dedup();
            let best_at = |t: usize| {
                summary
                    .rows_of_workload(w)
                    .filter(|r| r.size_bytes == size && r.threads == t)
                    .max_by(|a, b| crate::roofline::achieved(a).total_cmp(&crate::roofline::achieved(b)))
            };
            let bests: Vec<&Row> = threads.iter().filter_map(|&t| best_at(t)).collect();
            series.push(Series {
                // The legend is narrow: the size is each workload's largest (the title says so).
                name: (*w).to_owned(),
                points: bests
                    .iter()
                    .map(|r| (r.threads as f64, crate::roofline::achieved(r)))
                    .collect(),
                ci: None,
                reference: false,
            });
            let limit = |r: &Row| match unit {
                Unit::Bytes => r.limit.limit_bps,
                Unit::Operation | Unit::Items(_) => r.limit.limit_ops_per_s,
            };
            let points: Vec<(f64, f64)> = bests
                .iter()
                .map(|r| (r.threads as f64, limit(r)))
                .filter(|p| p.1.is_finite())
                .collect();
            if !points.is_empty() {
                series.push(Series {
                    name: format!("{w}: limit"),
                    points,
                    ci: None,
                    reference: true,
                });
            }
        }
        let name = if mixed(family) {
            format!("roofline-{family}-{unit_name}")
        } else {
            format!("roofline-{family}")
        };
        out.push((
            name,
            Chart {
                title: format!("{family}: achieved (solid) vs limit (dashed), largest size"),
                x_label: "threads".into(),
                y_label,
                x_log: false,
                y_log: true,
                series,
            },
        ));
    }
    out
}

/// Ours vs OpenSSL and age: for each byte workload with a peer, the
/// peers' throughput next to parcrypt's sequential and best throughput
/// at the largest size.
pub fn peer_bars(summary: &Summary) -> Option<Bars> {
    bars(summary, false, "parcrypt vs OpenSSL and age (same run)", "GB/s")
}

/// As [`peer_bars`], for operations (RSA signatures, ECDSA
/// verifications): operations per second.
pub fn peer_op_bars(summary: &Summary) -> Option<Bars> {
    bars(
        summary,
        true,
        "parcrypt vs OpenSSL, public-key operations (same run)",
        "operations / second",
    )
}

/// [`peer_bars`] (GB/s) or, with `ops`, [`peer_op_bars`]
/// (op/s); `None` without a peer of that kind.
fn bars(summary: &Summary, ops: bool, title: &str, y_label: &str) -> Option<Bars> {
    let value = |r: &Row| {
        if ops { r.ops_per_s } else { r.throughput_bps / 1e9 }
    };
    let mut groups = Vec::new();
    for w in &summary.config.workloads {
        let peers: Vec<&Row> = summary
            .rows
            .iter()
            .filter(|r| r.workload == *w && r.peer && r.throughput_bps.is_finite() != ops)
            .collect();
        if peers.is_empty() {
            continue;
        }
        let Some(largest) = summary.largest_size(w) else {
            continue;
        };
        let ours = |imp: Option<&str>| {
            summary
                .rows
                .iter()
                .filter(|r| r.workload == *w && !r.peer && r.size_bytes == largest)
                .filter(|r| imp.is_none_or(|i| r.implementation == i))
                .map(value)
                .fold(f64::NAN, f64::max)
        };
        let mut bars: Vec<(String, f64)> = peers
            .iter()
            .map(|r| (r.implementation.to_owned(), value(r)))
            .collect();
        bars.push(("parcrypt seq".into(), ours(Some("seq"))));
        bars.push(("parcrypt best".into(), ours(None)));
        groups.push(((*w).to_owned(), bars));
    }
    (!groups.is_empty()).then(|| Bars {
        title: title.into(),
        y_label: y_label.into(),
        groups,
    })
}

/// The overview's name: `plots/overview.svg`, `id="overview"` in the report.
pub const OVERVIEW: &str = "overview";

/// The overview that opens the report: per workload, the best parallel
/// speed-up at the largest size with its 95% CI, and parcrypt's best
/// against each peer measured beside it (at the size the summary's peer
/// table uses), as a ratio.
pub fn overview(summary: &Summary) -> Overview {
    let mut rows = Vec::new();
    for w in &summary.config.workloads {
        let Some(largest) = summary.largest_size(w) else {
            continue;
        };
        let speedup = summary
            .rows_of_workload(w)
            .filter(|r| r.size_bytes == largest && r.implementation != "seq")
            .max_by(|a, b| a.speedup.total_cmp(&b.speedup))
            .map(|r| {
                (
                    r.speedup,
                    r.speedup_ci95,
                    format!("{} ×{}", r.implementation, r.threads),
                )
            });
        let peers = summary
            .rows
            .iter()
            .filter(|r| r.peer && r.workload == *w)
            .filter_map(|peer| {
                let size = size_beside_peer(summary, peer)?;
                let best = summary.best(w, size)?;
                Some((peer.implementation.to_owned(), times_faster(best, peer)))
            })
            .collect();
        rows.push(OverviewRow {
            label: format!("{w}, {}", summary.size_label(w, largest)),
            speedup,
            peers,
        });
    }
    Overview {
        title: format!(
            "parcrypt at a glance: {} workloads, {} threads available",
            rows.len(),
            summary.machine.cores
        ),
        cores: summary.machine.cores,
        rows,
    }
}
