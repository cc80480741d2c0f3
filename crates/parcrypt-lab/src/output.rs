//! results.csv, results.json, machine.json, and the summary printed at the end.

use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Serialize;

use crate::workloads::{Unit, Workload};
use crate::{LabConfig, LabError, Machine, Row};

/// The CSV columns, in order (the first twelve are the contract). `unit`
/// says what `size_bytes` counts: `bytes`, `operation` (one operation of a
/// nominal size in bytes) or an item noun such as `signatures` (a batch of
/// that many; `ops_per_s` is then items per second).
pub const CSV_HEADER: &str = "workload,impl,threads,size_bytes,repeats,median_s,mean_s,stddev_s,ci95_low_s,ci95_high_s,throughput_Bps,speedup,efficiency,min_s,batch,speedup_ci95_low,speedup_ci95_high,karp_flatt,outliers,peer,items,ops_per_s,p90_s,unit";

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
    pub analysis: Vec<crate::analysis::Analysis>,
    /// Wall time of the whole run, seconds.
    pub wall_s: f64,
    /// Warnings about the measurement (a busy machine, …).
    pub notes: Vec<String>,
    /// Which peers ran and which are absent (and why).
    pub peers: Vec<crate::peers::PeerStatus>,
    /// Files written.
    pub files: Vec<PathBuf>,
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

impl Summary {
    pub(crate) fn new(
        config: &LabConfig,
        machine: &Machine,
        workloads: &[Workload],
        rows: Vec<Row>,
        wall: Duration,
    ) -> Summary {
        let mut notes = Vec::new();
        if let Some(load) = machine.load_before.filter(|l| *l > 0.5) {
            notes.push(format!(
                "the 1-minute load average was {load:.2} before the run: other work may have disturbed the timings"
            ));
        }
        let imprecise = rows
            .iter()
            .filter(|r| {
                !r.peer && (r.stats.ci95_high - r.stats.ci95_low) / 2.0 > crate::TARGET_REL_CI * r.stats.mean
            })
            .count();
        if imprecise > 0 {
            notes.push(format!(
                "{imprecise} of {} cells did not reach a ±{:.0}% CI within their share of the time budget (see ci95_* in results.csv)",
                rows.iter().filter(|r| !r.peer).count(),
                crate::TARGET_REL_CI * 100.0
            ));
        }
        // Load during the run is not judged: the lab's own oversubscribed
        // cells (4, 8 threads on fewer cores) raise it.
        Summary {
            machine: machine.clone(),
            config: ConfigRecord {
                quick: config.quick,
                workloads: workloads.iter().map(|w| w.name).collect(),
                threads: config.threads(),
                sizes: config.sizes.clone(),
                repeats: config.repeats,
            },
            analysis: crate::analysis::analyse(&rows, machine.cores),
            rows,
            wall_s: wall.as_secs_f64(),
            notes,
            peers: Vec::new(),
            files: Vec::new(),
        }
    }

    /// Writes results.csv, machine.json and results.json into `dir` and
    /// records their paths.
    pub(crate) fn write(&mut self, dir: &Path) -> Result<(), LabError> {
        let (csv, machine, results, markdown) = (
            dir.join("results.csv"),
            dir.join("machine.json"),
            dir.join("results.json"),
            dir.join("summary.md"),
        );
        self.files = vec![csv.clone(), machine.clone(), results.clone(), markdown.clone()];
        write_file(&csv, self.csv().as_bytes())?;
        write_file(&markdown, self.markdown().as_bytes())?;
        let report = self.write_report(dir)?;
        self.files.extend(report);
        write_file(&machine, &json(&self.machine))?;
        write_file(&results, &json(self))
    }

    /// What `workload`'s sizes count ([`Unit::Bytes`] if it has no rows).
    pub(crate) fn unit(&self, workload: &str) -> Unit {
        self.rows
            .iter()
            .find(|r| r.workload == workload)
            .map_or(Unit::Bytes, |r| r.unit)
    }

    /// `size` of `workload` for people: `64 KiB`, `64 signatures`.
    pub(crate) fn size_label(&self, workload: &str, size: usize) -> String {
        self.unit(workload).label(size)
    }

    /// The largest size parcrypt measured `workload` at (peers excluded).
    pub(crate) fn largest_size(&self, workload: &str) -> Option<usize> {
        self.rows
            .iter()
            .filter(|r| r.workload == workload && !r.peer)
            .map(|r| r.size_bytes)
            .max()
    }

    /// The results as CSV (header + one line per cell).
    pub fn csv(&self) -> String {
        let mut out = String::from(CSV_HEADER);
        out.push('\n');
        for r in &self.rows {
            let s = &r.stats;
            out.push_str(&format!(
                "{},{},{},{},{},{:e},{:e},{:e},{:e},{:e},{},{},{},{:e},{},{},{},{},{},{},{},{:.6e},{:e},{}\n",
                r.workload,
                r.implementation,
                r.threads,
                r.size_bytes,
                s.n,
                s.median,
                s.mean,
                s.stddev,
                s.ci95_low,
                s.ci95_high,
                Sci(r.throughput_bps),
                Num(r.speedup),
                Num(r.efficiency),
                s.min,
                r.batch,
                Num(r.speedup_ci95.0),
                Num(r.speedup_ci95.1),
                r.karp_flatt.map_or(String::new(), |e| format!("{e:.4}")),
                r.outliers,
                r.peer,
                r.items,
                r.ops_per_s,
                s.p90,
                r.unit.name()
            ));
        }
        out
    }
}

/// A number for the CSV: 4 decimals, or empty where it does not apply (NaN).
struct Num(f64);

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_finite() {
            write!(f, "{:.4}", self.0)
        } else {
            Ok(())
        }
    }
}

/// As [`Num`], in scientific notation (a throughput).
struct Sci(f64);

impl fmt::Display for Sci {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_finite() {
            write!(f, "{:.6e}", self.0)
        } else {
            Ok(())
        }
    }
}

/// A row's rate in its own unit: GB/s or MB/s for bytes, op/s for an
/// operation, items/s for items (whose throughput in bytes does not apply).
pub(crate) fn rate(r: &Row) -> String {
    let gbps = r.throughput_bps / 1e9;
    match r.unit {
        Unit::Items(noun) => format!("{:.0} {noun}s/s", r.ops_per_s),
        Unit::Operation => format!("{:.1} op/s", r.ops_per_s),
        Unit::Bytes if gbps >= 0.1 => format!("{gbps:.2} GB/s"),
        Unit::Bytes => format!("{:.1} MB/s", r.throughput_bps / 1e6),
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

fn json<T: Serialize>(value: &T) -> Vec<u8> {
    let mut v = serde_json::to_vec_pretty(value).unwrap_or_default();
    v.push(b'\n');
    v
}

pub(crate) fn write_file(path: &Path, bytes: &[u8]) -> Result<(), LabError> {
    let io = |source| LabError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut f = std::fs::File::create(path).map_err(io)?;
    f.write_all(bytes).map_err(io)?;
    f.sync_all().map_err(io)
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "parcrypt lab: {} cells in {:.1} s on {} ({} threads available)",
            self.rows.len(),
            self.wall_s,
            self.machine.cpu_model.as_deref().unwrap_or("unknown CPU"),
            self.machine.cores
        )?;
        writeln!(
            f,
            "{:<18} {:>10} {:>12} {:>17} {:>12} {:>8}",
            "workload", "size", "seq", "best parallel", "rate", "speedup"
        )?;
        for w in &self.config.workloads {
            let Some(size) = self
                .rows
                .iter()
                .filter(|r| r.workload == *w)
                .map(|r| r.size_bytes)
                .max()
            else {
                continue;
            };
            let cell = |r: &&Row| r.workload == *w && r.size_bytes == size;
            let seq = self.rows.iter().filter(cell).find(|r| r.implementation == "seq");
            let best = self
                .rows
                .iter()
                .filter(cell)
                .filter(|r| r.implementation != "seq" && !r.peer)
                .max_by(|a, b| a.speedup.total_cmp(&b.speedup));
            let Some(seq) = seq else { continue };
            let (who, best_rate, speedup) = match best {
                Some(b) => (
                    format!("{} × {}", b.implementation, b.threads),
                    rate(b),
                    format!("{:.2}×", b.speedup),
                ),
                None => ("(sequential only)".to_owned(), "—".to_owned(), "—".to_owned()),
            };
            writeln!(
                f,
                "{:<18} {:>10} {:>12} {:>17} {:>12} {:>8}",
                w,
                self.size_label(w, size),
                rate(seq),
                who,
                best_rate,
                speedup
            )?;
        }
        writeln!(f)?;
        writeln!(
            f,
            "{:<18} {:>7} {:>22} {:>16}",
            "workload", "impl", "parallel pays from", "Amdahl serial s"
        )?;
        for a in &self.analysis {
            let from = match a.crossover_bytes {
                Some(b) => format!("{} ({} thr)", self.size_label(a.workload, b), a.crossover_threads),
                None => "never measured".to_owned(),
            };
            let s = a
                .amdahl_serial_fraction
                .map_or("—".to_owned(), |s| format!("{s:.3}"));
            writeln!(
                f,
                "{:<18} {:>7} {:>22} {:>16}",
                a.workload, a.implementation, from, s
            )?;
        }
        if !self.peers.is_empty() {
            writeln!(f)?;
            writeln!(
                f,
                "{:<18} {:>14} {:>12} {:>14}",
                "workload", "peer", "rate", "parcrypt seq"
            )?;
        }
        for p in &self.peers {
            let row = self
                .rows
                .iter()
                .find(|r| r.peer && r.workload == p.workload && r.implementation == p.peer);
            match row {
                Some(r) if p.available => {
                    let ratio = if r.throughput_bps.is_finite() {
                        let ours = self
                            .rows
                            .iter()
                            .filter(|s| {
                                s.workload == p.workload && s.implementation == "seq" && s.size_bytes >= 16384
                            })
                            .map(|s| s.throughput_bps)
                            .fold(f64::NAN, f64::max);
                        ours / r.throughput_bps
                    } else {
                        // An operation: parcrypt's seq at the peer's (nominal) size.
                        self.rows
                            .iter()
                            .find(|s| {
                                s.workload == p.workload
                                    && s.implementation == "seq"
                                    && s.size_bytes == r.size_bytes
                            })
                            .map_or(f64::NAN, |seq| times_faster(seq, r))
                    };
                    writeln!(
                        f,
                        "{:<18} {:>14} {:>12} {:>13.2}×",
                        p.workload,
                        p.peer,
                        rate(r),
                        ratio
                    )?;
                }
                _ => writeln!(f, "{:<18} {:>14} absent: {}", p.workload, p.peer, p.detail)?,
            }
        }
        for n in &self.notes {
            writeln!(f, "note: {n}")?;
        }
        let is_plot = |p: &&PathBuf| p.extension().is_some_and(|e| e == "svg" || e == "png");
        for p in self.files.iter().filter(|p| !is_plot(p)) {
            writeln!(f, "wrote {}", p.display())?;
        }
        let plots = self.files.iter().filter(is_plot).count();
        if plots > 0 {
            writeln!(
                f,
                "wrote {plots} plot files (SVG and PNG) under plots/; the SVGs are embedded in report.html"
            )?;
        }
        Ok(())
    }
}

/// `10 B`, `1.0 MB`, `64 MiB`: powers of two in binary units, others in decimal.
pub fn human_size(n: usize) -> String {
    match n {
        n if n >= 1 << 20 && n % (1 << 20) == 0 => format!("{} MiB", n >> 20),
        n if n >= 1 << 10 && n % (1 << 10) == 0 => format!("{} KiB", n >> 10),
        n if n >= 1_000_000 => format!("{} MB", n as f64 / 1e6),
        n if n >= 1_000 => format!("{} kB", n as f64 / 1e3),
        n => format!("{n} B"),
    }
}
