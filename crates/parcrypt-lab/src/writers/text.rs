//! The summary printed at the end of a run (`Display` for [`Summary`]):
//! per workload the best parallel speed-up, where parallelism pays, the
//! peers, notes, and the files written.

use std::fmt;
use std::path::PathBuf;

use super::{limit_cells, rate, times_faster};
use crate::model::{Row, Summary};

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
        if let Some(c) = &self.machine.ceilings {
            let gb = |v: f64| v / 1e9;
            writeln!(
                f,
                "ceilings (GB/s, 1/{} threads; {}): memory copy {:.1}/{:.1}, memory read {:.1}/{:.1}, page-cache read {:.1}/{:.1} (small file {:.1}/{:.1}), through cat {:.1}, write /dev/null {:.1}, write file {:.1}",
                c.threads,
                if c.cached_in.is_some() {
                    format!("cached, measured {}", c.measured_utc)
                } else {
                    format!("measured now in {:.1} s", c.seconds)
                },
                gb(c.memory_copy.one),
                gb(c.memory_copy.all),
                gb(c.memory_read.one),
                gb(c.memory_read.all),
                gb(c.page_cache_read.one),
                gb(c.page_cache_read.all),
                gb(c.page_cache_read_small.one),
                gb(c.page_cache_read_small.all),
                gb(c.pipe),
                gb(c.write_dev_null),
                gb(c.write_file)
            )?;
        }
        writeln!(
            f,
            "{:<18} {:>10} {:>12} {:>17} {:>12} {:>8} {:>24} {:>8}",
            "workload", "size", "seq", "best parallel", "rate", "speedup", "limit (bound)", "of limit"
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
            let (limit, of_limit) = limit_cells(best.unwrap_or(seq));
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
                "{:<18} {:>10} {:>12} {:>17} {:>12} {:>8} {:>24} {:>8}",
                w,
                self.size_label(w, size),
                rate(seq),
                who,
                best_rate,
                speedup,
                limit,
                of_limit
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
