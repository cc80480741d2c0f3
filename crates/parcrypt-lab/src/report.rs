//! summary.md: the tables a person pastes into a paper, with each paper's
//! published numbers next to ours.

use std::fmt::Write as _;

use crate::Row;
use crate::output::{Summary, human_size, rate, times_faster};
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
        self.section_jce(&mut md);
        self.section_rsa_app(&mut md);
        let _ = writeln!(
            md,
            "## Method\n\nEach cell: warm-up, then {} timed samples; small inputs are timed in batches long enough to measure and divided. \
             Times are medians (results.csv also gives the 90th percentile, `p90_s`); CIs are Student-t for the mean time and a 2000-resample bootstrap for the speed-up (ratio of medians to `seq` at the same size). \
             Karp–Flatt e = (1/S − 1/p)/(1 − 1/p). Amdahl's serial fraction is a least-squares fit of 1/S = s + (1 − s)/p over thread counts up to the cores. \
             \"Pays from\" is the smallest size from which the speed-up's CI stays above 1. Operations (key generation, signatures) have one nominal size, the modulus in bytes, \
             and a rate in op/s instead of a throughput. Peers run in the same session: `openssl speed -mr` (16 KiB buffers, one core; for RSA its signatures per second) \
             and `openssl enc` on a file (process start and file I/O included, so it is the CLI-to-CLI comparison). Inputs are `i % 251`, identical for every implementation.",
            match self.config.repeats {
                Some(n) => format!("{n}"),
                None => format!(
                    "at least 5–10 (quick/full) and, until the 95% CI of the mean is within ±{:.0}% or the cell's share of the time budget is spent, more \
                     (key generation and the bulk decryptions of 100 kB and more take a fixed number: `repeats` in results.csv)",
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
                        best.map_or("—".to_owned(), |b| format!("{:.2}×", times_faster(b, r))),
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

    fn section_jce(&self, md: &mut String) {
        let _ = writeln!(
            md,
            "## JCE paper (RSA key generation, RSA-CRT, ECDSA verification)\n"
        );
        let _ = writeln!(
            md,
            "The paper split each operation into two tasks (Java, IAIK JCE; Executors = P I, ForkJoin = P II) on 2-core machines: \
             key generation searched p ∥ q, the private operation ran its two CRT exponentiations in parallel. Its speed-ups over the sequential JCE:\n"
        );
        let _ = writeln!(
            md,
            "| table | operation | {} |",
            papers::JCE_ENVIRONMENTS
                .map(|(me, what)| format!("{me}: {what}, P I / P II"))
                .join(" | ")
        );
        let _ = writeln!(md, "|---|---|---|---|---|");
        for t in papers::JCE {
            let cells: Vec<String> = t
                .speedups
                .iter()
                .map(|(a, b)| format!("{a:.2}× / {b:.2}×"))
                .collect();
            let _ = writeln!(md, "| {} | {} | {} |", t.table, t.operation, cells.join(" | "));
        }
        md.push('\n');
        let measured: Vec<&str> = papers::JCE
            .iter()
            .flat_map(|t| t.ours.iter().copied())
            .filter(|w| self.largest_size(w).is_some())
            .collect();
        if !measured.is_empty() {
            let ifma = self.machine.cpu_flags.iter().any(|f| f == "avx512ifma");
            let _ = writeln!(
                md,
                "Ours, at 2 threads (the paper's cores). Key generation: `static` is the paper's split (a p team and a q team), \
                 `steal` races every thread for whichever prime is still missing. Signing: `rsa-sign-*-threads` is the paper's method \
                 (`static`/`steal`: one CRT half on each of two threads); `rsa-sign-*` is parcrypt's default, which on CPUs with AVX-512 IFMA \
                 computes both halves at once in SIMD lanes on one core and then ignores the threads (this CPU: {}). `seq` is one core either way. \
                 Median with p90 (key generation's time is heavy-tailed: it depends on how far the next prime lies); speed-up = `seq` median / median. \
                 Signatures are RSASSA-PSS SHA-256; `openssl speed` signs PKCS#1 v1.5 (the padding costs microseconds, the exponentiations milliseconds).\n",
                if ifma {
                    "AVX-512 IFMA present"
                } else {
                    "no AVX-512 IFMA, so both workloads use two threads"
                }
            );
            let _ = writeln!(
                md,
                "| workload | seq | static ×2 | speed-up | steal ×2 | speed-up | best | openssl speed |"
            );
            let _ = writeln!(md, "|---|---|---|---|---|---|---|---|");
            for w in measured {
                let Some(size) = self.largest_size(w) else {
                    continue;
                };
                let cell = |imp: &str, t: usize| {
                    self.find(w, imp, t, size)
                        .map_or(("—".to_owned(), "—".to_owned()), |r| {
                            (median_p90(r), format!("{:.2}×", r.speedup))
                        })
                };
                let (seq, _) = cell("seq", 1);
                let (st, st_speedup) = cell("static", 2);
                let (sl, sl_speedup) = cell("steal", 2);
                let best = self.best(w, size).map_or("—".to_owned(), |b| {
                    format!(
                        "{} ×{}: {}, {:.2}×",
                        b.implementation,
                        b.threads,
                        secs(b.stats.median),
                        b.speedup
                    )
                });
                let peer = self
                    .rows
                    .iter()
                    .find(|r| r.peer && r.workload == w && r.implementation == "openssl-speed")
                    .map_or("—".to_owned(), |r| {
                        format!("{} ({})", secs(r.stats.median), rate(r))
                    });
                let _ = writeln!(
                    md,
                    "| {w} | {seq} | {st} | {st_speedup} | {sl} | {sl_speedup} | {best} | {peer} |"
                );
            }
            md.push('\n');
        }
        for t in papers::JCE {
            if t.ours.iter().all(|w| self.largest_size(w).is_none()) {
                let why = if t.ours.is_empty() {
                    "the lab has no workload for it yet".to_owned()
                } else {
                    format!("none of {} was measured in this run", t.ours.join(", "))
                };
                let _ = writeln!(md, "Not available for {} ({}): {why}.\n", t.table, t.operation);
            }
        }
    }

    fn section_rsa_app(&self, md: &mut String) {
        let _ = writeln!(md, "## RSA research application (chunked RSA, threads × sizes)\n");
        let _ = writeln!(
            md,
            "The paper (Java, 1024-bit keys, 4 cores with Hyper-Threading, 1–8 threads, mean of 100 runs) cut each message into one run of chunks \
             per thread and publishes its times only as figures. In its words: \"{}\" \"{}\"\n",
            papers::RSA_APP_QUOTES[0],
            papers::RSA_APP_QUOTES[1]
        );
        let workloads = ["rsa-bulk-enc", "rsa-bulk-dec"];
        if workloads.iter().all(|w| self.largest_size(w).is_none()) {
            let _ = writeln!(
                md,
                "Not available in this run: no `rsa-bulk-*` workload was measured.\n"
            );
            return;
        }
        let _ = writeln!(
            md,
            "Ours: RSA-2048 with OAEP-SHA-256, 190-byte chunks (a 1024-bit key holds 62), the paper's split (`static`); median time and, in brackets, the time saved against `seq` (negative: slower).\n"
        );
        for w in workloads {
            let mut sizes: Vec<usize> = self.rows_of_workload(w).map(|r| r.size_bytes).collect();
            sizes.sort_unstable();
            sizes.dedup();
            let mut threads: Vec<usize> = self
                .rows_of_workload(w)
                .filter(|r| r.implementation == "static" && r.threads > 1)
                .map(|r| r.threads)
                .collect();
            threads.sort_unstable();
            threads.dedup();
            if sizes.is_empty() {
                continue;
            }
            let heads: Vec<String> = threads.iter().map(|t| format!("static ×{t}")).collect();
            let _ = writeln!(md, "| {w} | seq | {} | best |", heads.join(" | "));
            let _ = writeln!(md, "|---|---|{}---|", "---|".repeat(threads.len()));
            let paper: Vec<String> = threads
                .iter()
                .map(|t| {
                    papers::RSA_APP_REDUCTION
                        .iter()
                        .find(|(p, _)| p == t)
                        .map_or(String::new(), |(_, f)| format!("[{:.0}%]", f * 100.0))
                })
                .collect();
            let _ = writeln!(md, "| paper (large inputs) | | {} | |", paper.join(" | "));
            for size in sizes {
                let Some(seq) = self.find(w, "seq", 1, size) else {
                    continue;
                };
                let cells: Vec<String> = threads
                    .iter()
                    .map(|&t| {
                        self.find(w, "static", t, size).map_or("—".to_owned(), |r| {
                            format!(
                                "{} [{:.0}%]",
                                secs(r.stats.median),
                                (1.0 - 1.0 / r.speedup) * 100.0
                            )
                        })
                    })
                    .collect();
                let best = self.best(w, size).map_or("—".to_owned(), |b| {
                    format!(
                        "{} ×{}: {} [{:.0}%]",
                        b.implementation,
                        b.threads,
                        secs(b.stats.median),
                        (1.0 - 1.0 / b.speedup) * 100.0
                    )
                });
                let _ = writeln!(
                    md,
                    "| {} | {} | {} | {best} |",
                    human_size(size),
                    secs(seq.stats.median),
                    cells.join(" | ")
                );
            }
            md.push('\n');
            let paper = papers::RSA_APP_SLOWER_BELOW
                .iter()
                .find(|(_, pw, _)| *pw == w)
                .map_or(String::new(), |(what, _, n)| {
                    format!(" (the paper: threads slowed {what} below {n} characters)")
                });
            let pays: Vec<String> = self
                .analysis
                .iter()
                .filter(|a| a.workload == w)
                .map(|a| {
                    format!(
                        "`{}` on {} threads from {}",
                        a.implementation,
                        a.crossover_threads,
                        a.crossover_bytes
                            .map_or("no measured size".to_owned(), human_size)
                    )
                })
                .collect();
            let _ = writeln!(
                md,
                "{w}: parallel pays (speed-up CI above 1 at that size and every larger one): {}{paper}.\n",
                pays.join(", ")
            );
        }
    }

    fn rows_of_workload<'a>(&'a self, w: &'a str) -> impl Iterator<Item = &'a Row> + 'a {
        self.rows.iter().filter(move |r| r.workload == w && !r.peer)
    }
}

/// Seconds in the unit that reads best: `1.23 s`, `45.6 ms`, `789 µs`.
fn secs(t: f64) -> String {
    if t >= 1.0 {
        format!("{t:.2} s")
    } else if t >= 1e-3 {
        format!("{:.1} ms", t * 1e3)
    } else {
        format!("{:.0} µs", t * 1e6)
    }
}

/// A row's median with its p90: `45.6 ms (p90 80.1 ms)`.
fn median_p90(r: &Row) -> String {
    format!("{} (p90 {})", secs(r.stats.median), secs(r.stats.p90))
}
