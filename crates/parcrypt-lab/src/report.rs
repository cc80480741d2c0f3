//! summary.md: the tables a person pastes into a paper, with each paper's
//! published numbers next to ours.

use std::fmt::Write as _;

use crate::Row;
use crate::output::{Summary, human_size};
use crate::papers;

impl Summary {
    fn find(&self, workload: &str, implementation: &str, threads: usize, size: usize) -> Option<&Row> {
        self.rows.iter().find(|r| {
            r.workload == workload
                && r.implementation == implementation
                && r.threads == threads
                && r.size_bytes == size
        })
    }

    /// The fastest parcrypt row (any strategy and thread count) at `size`.
    fn best(&self, workload: &str, size: usize) -> Option<&Row> {
        self.rows
            .iter()
            .filter(|r| r.workload == workload && r.size_bytes == size && !r.peer)
            .min_by(|a, b| a.stats.median.total_cmp(&b.stats.median))
    }

    /// The whole summary as Markdown.
    pub fn markdown(&self) -> String {
        let mut md = String::new();
        let m = &self.machine;
        let _ = writeln!(md, "# parcrypt lab summary\n");
        let _ = writeln!(
            md,
            "{} · {} threads · {} · {} · parcrypt {} ({}) · {} · `{}` · {:.0} s\n",
            m.cpu_model.as_deref().unwrap_or("unknown CPU"),
            m.cores,
            if m.virtualized {
                "virtual machine"
            } else {
                "bare metal"
            },
            m.os.as_deref().unwrap_or("unknown OS"),
            m.parcrypt_version,
            m.git_commit
                .as_deref()
                .map_or("no git", |c| &c[..c.len().min(10)]),
            m.started_utc,
            m.command_line,
            self.wall_s
        );
        for n in &self.notes {
            let _ = writeln!(md, "> note: {n}\n");
        }
        self.section_scaling(&mut md);
        self.section_peers(&mut md);
        self.section_parc4(&mut md);
        self.section_paralcrypto(&mut md);
        let _ = writeln!(
            md,
            "## JCE paper (RSA key generation, RSA-CRT, ECDSA verification)\n"
        );
        let _ = writeln!(
            md,
            "Not available: the RSA and ECDSA workloads are not implemented yet.\n"
        );
        let _ = writeln!(md, "## RSA research application (chunked RSA, threads × sizes)\n");
        let _ = writeln!(
            md,
            "Not available: the RSA bulk workload is not implemented yet.\n"
        );
        let _ = writeln!(
            md,
            "## Method\n\nEach cell: warm-up, then {} timed samples; small inputs are timed in batches long enough to measure and divided. \
             Times are medians; CIs are Student-t for the mean time and a 2000-resample bootstrap for the speed-up (ratio of medians to `seq` at the same size). \
             Karp–Flatt e = (1/S − 1/p)/(1 − 1/p). Amdahl's serial fraction is a least-squares fit of 1/S = s + (1 − s)/p over thread counts up to the cores. \
             \"Pays from\" is the smallest size from which the speed-up's CI stays above 1. Peers run in the same session: `openssl speed -mr` (16 KiB buffers, one core) \
             and `openssl enc` on a file (process start and file I/O included, so it is the CLI-to-CLI comparison). Inputs are `i % 251`, identical for every implementation.",
            match self.config.repeats {
                Some(n) => format!("{n}"),
                None => format!(
                    "at least 5–10 (quick/full) and, until the 95% CI of the mean is within ±{:.0}% or the cell's share of the time budget is spent, more",
                    crate::TARGET_REL_CI * 100.0
                ),
            }
        );
        md
    }

    fn section_scaling(&self, md: &mut String) {
        let _ = writeln!(md, "## Where parallelism pays\n");
        let _ = writeln!(
            md,
            "| workload | size | seq | best | speed-up [95% CI] | pays from | Amdahl s |"
        );
        let _ = writeln!(md, "|---|---|---|---|---|---|---|");
        for w in &self.config.workloads {
            let Some(size) = self.largest_size(w) else {
                continue;
            };
            let (Some(seq), Some(best)) = (self.find(w, "seq", 1, size), self.best(w, size)) else {
                continue;
            };
            let analysis = self
                .analysis
                .iter()
                .find(|a| a.workload == *w && a.implementation == best.implementation);
            let _ = writeln!(
                md,
                "| {w} | {} | {} | {} ×{}: {} | {:.2}× [{:.2}, {:.2}] | {} | {} |",
                human_size(size),
                rate(seq),
                best.implementation,
                best.threads,
                rate(best),
                best.speedup,
                best.speedup_ci95.0,
                best.speedup_ci95.1,
                analysis
                    .and_then(|a| a.crossover_bytes)
                    .map_or("—".to_owned(), human_size),
                analysis
                    .and_then(|a| a.amdahl_serial_fraction)
                    .map_or("—".to_owned(), |s| format!("{s:.3}")),
            );
        }
        md.push('\n');
    }

    fn section_peers(&self, md: &mut String) {
        let _ = writeln!(md, "## Against OpenSSL (same run)\n");
        if self.peers.is_empty() {
            let _ = writeln!(md, "Peers were not measured in this run (`--no-peers`).\n");
            return;
        }
        let _ = writeln!(
            md,
            "| workload | peer | peer | parcrypt, same size: seq | best | best / peer |"
        );
        let _ = writeln!(md, "|---|---|---|---|---|---|");
        for p in &self.peers {
            let row = self
                .rows
                .iter()
                .find(|r| r.peer && r.workload == p.workload && r.implementation == p.peer);
            match row {
                Some(r) if p.available => {
                    // openssl speed uses 16 KiB buffers, which the grid may not have: compare with the closest size ≥ 16 KiB.
                    let size = self
                        .rows
                        .iter()
                        .filter(|s| s.workload == p.workload && !s.peer && s.size_bytes >= r.size_bytes)
                        .map(|s| s.size_bytes)
                        .min();
                    let seq = size.and_then(|s| self.find(p.workload, "seq", 1, s));
                    let best = size.and_then(|s| self.best(p.workload, s));
                    let _ = writeln!(
                        md,
                        "| {} | {} ({}) | {} | {} | {} | {} |",
                        p.workload,
                        p.peer,
                        human_size(r.size_bytes),
                        rate(r),
                        seq.map_or("—".to_owned(), rate),
                        best.map_or("—".to_owned(), |b| format!(
                            "{} ({} ×{})",
                            rate(b),
                            b.implementation,
                            b.threads
                        )),
                        best.map_or("—".to_owned(), |b| format!(
                            "{:.2}×",
                            b.throughput_bps / r.throughput_bps
                        )),
                    );
                }
                _ => {
                    let _ = writeln!(
                        md,
                        "| {} | {} | absent: {} | | | |",
                        p.workload,
                        p.peer,
                        p.detail.replace('|', "/")
                    );
                }
            }
        }
        md.push('\n');
    }

    fn section_parc4(&self, md: &mut String) {
        let _ = writeln!(md, "## PARC4 paper, Table 2 (seconds)\n");
        let _ = writeln!(
            md,
            "The paper keys every block with the same key (so blocks share keystream); parcrypt's PARC4 derives a key per block. \
             Ours: median seconds, `steal` at each thread count; \"—\" = not measured in this run.\n"
        );
        let threads = [1usize, 2, 4, 6, 8];
        let _ = writeln!(md, "| size | who | 1 | 2 | 4 | 6 | 8 |");
        let _ = writeln!(md, "|---|---|---|---|---|---|---|");
        for (size, label, paper) in papers::PARC4_TABLE2 {
            let cells: Vec<String> = paper.iter().map(|t| format!("{t:.5}")).collect();
            let _ = writeln!(md, "| {label} | paper | {} |", cells.join(" | "));
            for w in ["parc4-32b", "parc4-64kib"] {
                let cells: Vec<String> = threads
                    .iter()
                    .map(|&t| {
                        let row = if t == 1 {
                            self.find(w, "seq", 1, size)
                        } else {
                            self.find(w, "steal", t, size)
                        };
                        row.map_or("—".to_owned(), |r| format!("{:.5}", r.stats.median))
                    })
                    .collect();
                let _ = writeln!(md, "| {label} | {w} | {} |", cells.join(" | "));
            }
        }
        let _ = writeln!(
            md,
            "\nThe paper's 2..8-core columns are for cores {:?}.\n",
            papers::PARC4_CORES
        );
    }

    fn section_paralcrypto(&self, md: &mut String) {
        let _ = writeln!(md, "## ParalCrypto (Python), Tables 1, 3, 4, 5 (seconds)\n");
        let _ = writeln!(
            md,
            "Image = 512×512×3 = {} B, text = {} B. Speed-up = sequential / parallel.\n",
            papers::PARALCRYPTO_IMAGE,
            papers::PARALCRYPTO_TEXT
        );
        let _ = writeln!(
            md,
            "| operation | data | paper seq | paper parallel | paper speed-up | ours seq | ours best | ours speed-up |"
        );
        let _ = writeln!(md, "|---|---|---|---|---|---|---|---|");
        for (what, w, img_seq, img_par, txt_seq, txt_par) in papers::PARALCRYPTO {
            for (data, size, pseq, ppar) in [
                ("image", papers::PARALCRYPTO_IMAGE, img_seq, img_par),
                ("text", papers::PARALCRYPTO_TEXT, txt_seq, txt_par),
            ] {
                let (ours_seq, ours_best) = (self.find(w, "seq", 1, size), self.best(w, size));
                let _ = writeln!(
                    md,
                    "| {what} | {data} | {pseq} | {ppar} | {:.2}× | {} | {} | {} |",
                    pseq / ppar,
                    ours_seq.map_or("—".to_owned(), |r| format!("{:.3e}", r.stats.median)),
                    ours_best.map_or("—".to_owned(), |r| format!(
                        "{:.3e} ({} ×{})",
                        r.stats.median, r.implementation, r.threads
                    )),
                    ours_best.map_or("—".to_owned(), |r| format!("{:.2}×", r.speedup)),
                );
            }
        }
        md.push('\n');
    }
}

/// Throughput of a row in GB/s, or MB/s when small.
fn rate(r: &Row) -> String {
    let gbps = r.throughput_bps / 1e9;
    if gbps >= 0.1 {
        format!("{gbps:.2} GB/s")
    } else {
        format!("{:.1} MB/s", r.throughput_bps / 1e6)
    }
}
