//! summary.md: the tables a person pastes into a paper, with each paper's
//! published numbers next to ours.

mod jce;

use std::fmt::Write as _;

use super::{limit_cells, rate, rate_in, size_beside_peer, times_faster};
use crate::model::{PeerStatus, Row, Summary};
use crate::papers;
use crate::peers::PYCA;
use crate::runner::TARGET_REL_CI;
use crate::units::{human_size, secs};
use crate::workloads::id;

/// The whole summary as Markdown: summary.md.
pub fn markdown(summary: &Summary) -> String {
    let mut md = String::new();
    let m = &summary.machine;
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
        summary.wall_s
    );
    for n in &summary.notes {
        let _ = writeln!(md, "> note: {n}\n");
    }
    section_scaling(summary, &mut md);
    section_limits(summary, &mut md);
    section_peers(summary, &mut md);
    section_aead(summary, &mut md);
    section_parc4(summary, &mut md);
    section_paralcrypto(summary, &mut md);
    jce::section_jce(summary, &mut md);
    section_rsa_app(summary, &mut md);
    let _ = writeln!(
        md,
        "## Method\n\nEach cell: warm-up, then {} timed samples; small inputs are timed in batches long enough to measure and divided. \
         Times are medians (results.csv also gives the 90th percentile, `p90_s`); CIs are Student-t for the mean time and a 2000-resample bootstrap for the speed-up (ratio of medians to `seq` at the same size). \
         Karp–Flatt e = (1/S − 1/p)/(1 − 1/p). Amdahl's serial fraction is a least-squares fit of 1/S = s + (1 − s)/p over thread counts up to the cores. \
         \"Pays from\" is the smallest size from which the speed-up's CI stays above 1. Operations (key generation, one signature made or verified) have one nominal size \
         (the RSA modulus or the P-256 scalar in bytes) and a rate in op/s instead of a throughput; a batch's size is its number of signatures and its rate signatures verified per second. \
         Ratios between workloads (split vs joint, a batch vs one joint verification) use the same bootstrap on the two cells' samples. \
         Peers run in the same session: `openssl speed -mr` (16 KiB buffers, one core; for RSA its signatures per second, for ECDSA its verifications per second), \
         `openssl enc` or `dgst` on a file (process start and file I/O included, so it is the CLI-to-CLI comparison; the file is the largest size measured, capped at 64 MiB \
         beside in-memory workloads and not capped beside the stream format's, which read files themselves), beside the stream format age or rage on the same file, \
         and beside the tree formats (RFC 6962 4 KiB leaves, BitTorrent v2, Glacier) `b3sum` (BLAKE3's tree, all cores) on a file of the largest size measured, not capped. \
         Inputs are `i % 251`, identical for every implementation.",
        match summary.config.repeats {
            Some(n) => format!("{n}"),
            None => format!(
                "at least 5–10 (quick/full) and, until the 95% CI of the mean is within ±{:.0}% or the cell's share of the time budget is spent, more \
                 (key generation and the bulk decryptions of 100 kB and more take a fixed number: `repeats` in results.csv)",
                TARGET_REL_CI * 100.0
            ),
        }
    );
    md
}

fn section_scaling(summary: &Summary, md: &mut String) {
    let _ = writeln!(md, "## Where parallelism pays\n");
    let _ = writeln!(
        md,
        "| workload | size | seq | best | speed-up [95% CI] | limit (bound) | of limit | pays from | Amdahl s |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|---|---|---|");
    for w in &summary.config.workloads {
        let Some(size) = summary.largest_size(w) else {
            continue;
        };
        let (Some(seq), Some(best)) = (summary.find(w, "seq", 1, size), summary.best(w, size)) else {
            continue;
        };
        let analysis = summary
            .analysis
            .iter()
            .find(|a| a.workload == *w && a.implementation == best.implementation);
        let (limit, of_limit) = limit_cells(best);
        let _ = writeln!(
            md,
            "| {w} | {} | {} | {} | {} | {limit} | {of_limit} | {} | {} |",
            summary.size_label(w, size),
            rate(seq),
            best_cell(best),
            speedup_cell(best),
            analysis
                .and_then(|a| a.crossover_bytes)
                .map_or("—".to_owned(), |b| summary.size_label(w, b)),
            analysis
                .and_then(|a| a.amdahl_serial_fraction)
                .map_or("—".to_owned(), |s| format!("{s:.3}")),
        );
    }
    md.push('\n');
}

/// The machine's ceilings, each workload's model, and its predicted rate
/// on more cores.
fn section_limits(summary: &Summary, md: &mut String) {
    let _ = writeln!(md, "## Ceilings, limits and predicted scaling\n");
    let Some(c) = &summary.machine.ceilings else {
        let _ = writeln!(md, "The machine's ceilings were not measured in this run.\n");
        return;
    };
    let gb = |v: f64| {
        if v.is_finite() {
            format!("{:.2} GB/s", v / 1e9)
        } else {
            "not measured".to_owned()
        }
    };
    let _ = writeln!(
        md,
        "What this machine moves without cryptography ({}; buffers of {}, last-level cache {}; the best of three runs each; `--remeasure` measures again):\n",
        match &c.cached_in {
            Some(path) => format!(
                "measured {} and read from the cache `{}`",
                c.measured_utc,
                path.display()
            ),
            None => format!("measured at the start of this run, in {:.1} s", c.seconds),
        },
        human_size(c.buffer_bytes),
        c.llc_bytes.map_or("unknown".to_owned(), |b| human_size(
            usize::try_from(b).unwrap_or(usize::MAX)
        ))
    );
    let _ = writeln!(md, "| ceiling | 1 thread | {} threads |", c.threads);
    let _ = writeln!(md, "|---|---|---|");
    for (name, s) in [
        ("memory copy", c.memory_copy),
        ("memory read", c.memory_read),
        ("page-cache read, 1 MiB preads", c.page_cache_read),
        (
            "page-cache read of a small file, again and again",
            c.page_cache_read_small,
        ),
    ] {
        let _ = writeln!(md, "| {name} | {} | {} |", gb(s.one), gb(s.all));
    }
    for (name, v) in [
        ("through `cat` (two pipes and a process), 128 KiB", c.pipe),
        ("write to /dev/null, 1 MiB", c.write_dev_null),
        ("write to a file (page cache, no sync), 1 MiB", c.write_file),
    ] {
        let _ = writeln!(md, "| {name} | {} | |", gb(v));
    }
    md.push('\n');
    let _ = writeln!(
        md,
        "Each workload's limit comes from its cost model (docs/LAB.md): what one unit costs on one core (its own `seq` cell, or a kernel's and the page-cache read's), \
         divided over the threads that can share it, capped by a ceiling on those threads; `of limit` = achieved / limit (distinct from the efficiency, speed-up ÷ threads). \
         The prediction for P cores is that limit on P cores (each core assumed to get the ceilings' per-core share measured here), lowered to Amdahl's law with the serial fraction \
         fitted in this run where that is lower; the bound says which binds. The best cell at the largest size:\n"
    );
    let heads: Vec<String> = crate::roofline::PREDICTED_CORES
        .iter()
        .map(|p| format!("{p} cores"))
        .collect();
    let _ = writeln!(
        md,
        "| workload | size | best | limit (bound) | of limit | {} |",
        heads.join(" | ")
    );
    let _ = writeln!(md, "|---|---|---|---|---|{}", "---|".repeat(heads.len()));
    for w in &summary.config.workloads {
        let Some(size) = summary.largest_size(w) else {
            continue;
        };
        let Some(best) = summary.best(w, size) else {
            continue;
        };
        let (limit, of_limit) = limit_cells(best);
        let predicted: Vec<String> = summary
            .predictions
            .iter()
            .find(|p| p.workload == *w)
            .map(|p| {
                p.at.iter()
                    .map(|a| format!("{} ({})", rate_in(p.unit, a.rate), a.bound))
                    .collect()
            })
            .unwrap_or_else(|| vec!["—".to_owned(); heads.len()]);
        let _ = writeln!(
            md,
            "| {w} | {} | {} | {limit} | {of_limit} | {} |",
            summary.size_label(w, size),
            best_cell(best),
            predicted.join(" | ")
        );
    }
    md.push('\n');
    let _ = writeln!(md, "| workload | cost model |");
    let _ = writeln!(md, "|---|---|");
    for m in &summary.models {
        let _ = writeln!(
            md,
            "| {} | {}{} |",
            m.workload,
            m.model.replace('|', "/"),
            if m.own_cell_stood_in {
                " (a kernel it names was not measured in this run: its own seq cell stood in)"
            } else {
                ""
            }
        );
    }
    md.push('\n');
}

fn section_peers(summary: &Summary, md: &mut String) {
    let _ = writeln!(md, "## Against OpenSSL and age (same run)\n");
    if summary.peers.is_empty() {
        let _ = writeln!(md, "Peers were not measured in this run (`--no-peers`).\n");
        return;
    }
    let _ = writeln!(
        md,
        "| workload | peer | peer | parcrypt, same size: seq | best | best / peer |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|");
    for p in &summary.peers {
        let row = summary
            .rows
            .iter()
            .find(|r| r.peer && r.workload == p.workload && r.implementation == p.peer);
        match row {
            Some(r) if p.available => {
                // openssl speed uses 16 KiB buffers, which the grid may not have: compare with the closest size ≥ 16 KiB.
                let size = size_beside_peer(summary, r);
                let seq = size.and_then(|s| summary.find(p.workload, "seq", 1, s));
                let best = size.and_then(|s| summary.best(p.workload, s));
                let _ = writeln!(
                    md,
                    "| {} | {} ({}) | {} | {} | {} | {} |",
                    p.workload,
                    p.peer,
                    summary.size_label(p.workload, r.size_bytes),
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

/// One-message GCM's speed-up, and the stream format next to `openssl
/// enc` and age on the same file.
fn section_aead(summary: &Summary, md: &mut String) {
    const GCM: [&str; 2] = [id::AES_256_GCM_SEAL, id::AES_256_GCM_OPEN];
    const STREAM: [&str; 6] = [
        id::STREAM_ENCRYPT,
        id::STREAM_DECRYPT,
        id::AGE_ENCRYPT,
        id::AGE_DECRYPT,
        id::COBBLESTONE_ENCRYPT,
        id::COBBLESTONE_DECRYPT,
    ];
    let _ = writeln!(
        md,
        "## Authenticated encryption: one-message GCM, the stream format, age and Cobblestone\n"
    );
    let measured = |ws: &[&'static str]| -> Vec<&'static str> {
        ws.iter()
            .copied()
            .filter(|w| summary.largest_size(w).is_some())
            .collect()
    };
    let (gcm, stream) = (measured(&GCM), measured(&STREAM));
    if gcm.is_empty() && stream.is_empty() {
        let _ = writeln!(
            md,
            "Not available in this run: no `aes-256-gcm-*`, `stream-*`, `age-*` or `cobblestone-*` workload was measured.\n"
        );
        return;
    }
    if !gcm.is_empty() {
        let _ = writeln!(
            md,
            "One message, sealed or opened in place: CTR and GHASH in parallel chunks, the partial GHASHes combined (under 2 MiB, one AWS-LC call, \
             so `seq` is the backend's one-shot GCM). Speed-up = `seq` median / median, with its 95% bootstrap CI; `openssl speed` is one core on 16 KiB messages.\n"
        );
        let _ = writeln!(
            md,
            "| workload | size | seq | best | speed-up [95% CI] | openssl speed |"
        );
        let _ = writeln!(md, "|---|---|---|---|---|---|");
        for w in gcm {
            let peer = summary
                .rows
                .iter()
                .find(|r| r.peer && r.workload == w && r.implementation == "openssl-speed")
                .map_or("—".to_owned(), rate);
            for size in summary.sizes_of(w).into_iter().filter(|&s| s >= 1 << 20) {
                let (Some(seq), Some(best)) = (summary.find(w, "seq", 1, size), summary.best(w, size)) else {
                    continue;
                };
                let _ = writeln!(
                    md,
                    "| {w} | {} | {} | {} | {} | {peer} |",
                    human_size(size),
                    rate(seq),
                    best_cell(best),
                    speedup_cell(best),
                );
            }
        }
        md.push('\n');
    }
    if stream.is_empty() {
        return;
    }
    let _ = writeln!(
        md,
        "`stream-encrypt`/`stream-decrypt` time what `parcrypt encrypt -i FILE` / `parcrypt decrypt -i FILE` do, in process: a file in the page cache, \
         memory-mapped, sealed or opened in 1 MiB AES-256-GCM segments and written to a sink, for a raw-key recipient (no scrypt), the header made or checked on every run. \
         The peers are processes on a file of the same size in the page cache, writing to /dev/null: `openssl enc -aes-256-ctr` (no authentication, one core) \
         and age or rage (ChaCha20-Poly1305, one core). Rates are plaintext bytes per second at the largest size measured, where the peers ran; \
         ratio = the peer's median time / parcrypt's best (above 1: parcrypt is faster), with its 95% bootstrap CI. \
         `age-encrypt`/`age-decrypt` do the same with the age format (`parcrypt age -r R FILE` / `parcrypt age -d -i KEY FILE`: an X25519 recipient, \
         64 KiB ChaCha20-Poly1305 chunks sealed on all cores); their peers are `openssl enc -chacha20` (the same cipher, no authentication, one core) \
         and every age implementation installed (age, rage: one row each). \
         `cobblestone-encrypt`/`cobblestone-decrypt` do the same with Cobblestone-128 (`parcrypt encrypt|decrypt --format cobblestone-128 -i FILE`: \
         16 KiB AES-128-GCM chunks on all cores); their peers are `openssl enc -aes-128-ctr` (one core) and pyca/cryptography's own Cobblestone \
         from `python3` (`update_into` over the file in 1 MiB blocks, one core) in the age column.\n"
    );
    let _ = writeln!(
        md,
        "| workload | size | parcrypt seq | parcrypt best | openssl enc | best vs openssl enc | age (or pyca) | best vs age (or pyca) |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|---|---|");
    let mut absent = Vec::new();
    for w in stream {
        let enc = summary
            .peers
            .iter()
            .find(|p| p.workload == w && p.peer == "openssl-enc");
        let mut ages: Vec<Option<&PeerStatus>> = summary
            .peers
            .iter()
            .filter(|p| p.workload == w && ["age", "rage", PYCA].contains(&p.peer))
            .map(Some)
            .collect();
        if ages.is_empty() {
            ages.push(None);
        }
        for age in ages {
            let peers: Vec<(Option<&Row>, Option<&PeerStatus>)> = [enc, age]
                .into_iter()
                .map(|st| {
                    let row = st.filter(|p| p.available).and_then(|p| {
                        summary
                            .rows
                            .iter()
                            .find(|r| r.peer && r.workload == w && r.implementation == p.peer)
                    });
                    (row, st)
                })
                .collect();
            // The peers' size: the largest measured; parcrypt's rows there.
            let size = peers
                .iter()
                .find_map(|(r, _)| r.map(|r| r.size_bytes))
                .or_else(|| summary.largest_size(w));
            let Some(size) = size else { continue };
            let (seq, best) = (summary.find(w, "seq", 1, size), summary.best(w, size));
            let mut cells = vec![
                human_size(size),
                seq.map_or("—".to_owned(), rate),
                best.map_or("—".to_owned(), best_cell),
            ];
            for (row, st) in peers {
                match (row, st) {
                    (Some(r), _) => {
                        // Which of age and rage ran is worth saying; openssl is openssl.
                        cells.push(if r.implementation == "openssl-enc" {
                            rate(r)
                        } else {
                            format!("{}: {}", r.implementation, rate(r))
                        });
                        cells.push(best.filter(|b| b.size_bytes == r.size_bytes).map_or(
                            "—".to_owned(),
                            |b| {
                                let (ratio, (low, high)) = per_item_speedup(r, b);
                                format!("{ratio:.2}× [{low:.2}, {high:.2}]")
                            },
                        ));
                    }
                    (None, Some(st)) => {
                        cells.push(format!("{}: absent", st.peer));
                        cells.push("—".to_owned());
                        absent.push(format!("{} beside {w}: {}", st.peer, st.detail));
                    }
                    (None, None) => {
                        cells.push("not run".to_owned());
                        cells.push("—".to_owned());
                    }
                }
            }
            let _ = writeln!(md, "| {w} | {} |", cells.join(" | "));
        }
    }
    md.push('\n');
    absent.sort();
    absent.dedup();
    for a in absent {
        let _ = writeln!(md, "Absent peer: {}\n", a.replace('|', "/"));
    }
}

fn section_parc4(summary: &Summary, md: &mut String) {
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
        for w in [id::PARC4_32B, id::PARC4_64KIB] {
            let cells: Vec<String> = threads
                .iter()
                .map(|&t| {
                    let row = if t == 1 {
                        summary.find(w, "seq", 1, size)
                    } else {
                        summary.find(w, "steal", t, size)
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

fn section_paralcrypto(summary: &Summary, md: &mut String) {
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
            let (ours_seq, ours_best) = (summary.find(w, "seq", 1, size), summary.best(w, size));
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

fn section_rsa_app(summary: &Summary, md: &mut String) {
    let _ = writeln!(md, "## RSA research application (chunked RSA, threads × sizes)\n");
    let _ = writeln!(
        md,
        "The paper (Java, 1024-bit keys, 4 cores with Hyper-Threading, 1–8 threads, mean of 100 runs) cut each message into one run of chunks \
         per thread and publishes its times only as figures. In its words: \"{}\" \"{}\"\n",
        papers::RSA_APP_QUOTES[0],
        papers::RSA_APP_QUOTES[1]
    );
    let workloads = [id::RSA_BULK_ENC, id::RSA_BULK_DEC];
    if workloads.iter().all(|w| summary.largest_size(w).is_none()) {
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
        let mut sizes: Vec<usize> = summary.rows_of_workload(w).map(|r| r.size_bytes).collect();
        sizes.sort_unstable();
        sizes.dedup();
        let mut threads: Vec<usize> = summary
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
            let Some(seq) = summary.find(w, "seq", 1, size) else {
                continue;
            };
            let cells: Vec<String> = threads
                .iter()
                .map(|&t| {
                    summary.find(w, "static", t, size).map_or("—".to_owned(), |r| {
                        format!(
                            "{} [{:.0}%]",
                            secs(r.stats.median),
                            (1.0 - 1.0 / r.speedup) * 100.0
                        )
                    })
                })
                .collect();
            let best = summary.best(w, size).map_or("—".to_owned(), |b| {
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
        let pays = where_threads_pay(summary, w, "no measured size");
        let _ = writeln!(
            md,
            "{w}: parallel pays (speed-up CI above 1 at that size and every larger one): {}{paper}.\n",
            pays
        );
    }
}

/// Where threads pay for `w`, per implementation: "`steal` on 2
/// threads from 64 KiB", joined by commas; `none` stands for a size
/// where no measured size qualified.
fn where_threads_pay(summary: &Summary, w: &str, none: &str) -> String {
    let pays: Vec<String> = summary
        .analysis
        .iter()
        .filter(|a| a.workload == w)
        .map(|a| {
            format!(
                "`{}` on {} threads from {}",
                a.implementation,
                a.crossover_threads,
                a.crossover_bytes
                    .map_or(none.to_owned(), |n| summary.size_label(w, n))
            )
        })
        .collect();
    pays.join(", ")
}

/// How many times faster `r` does one item (one operation) than `reference`:
/// the ratio of medians per item, with a 95% bootstrap interval over the two
/// cells' samples (for a cross-workload comparison such as split vs joint, or
/// a batch of n against single verifications).
fn per_item_speedup(reference: &Row, r: &Row) -> (f64, (f64, f64)) {
    let per_item = |row: &Row| -> Vec<f64> { row.samples.iter().map(|t| t / row.items as f64).collect() };
    let (a, b) = (per_item(reference), per_item(r));
    let ratio = (reference.stats.median / reference.items as f64) / (r.stats.median / r.items as f64);
    if a.is_empty() || b.is_empty() {
        return (ratio, (f64::NAN, f64::NAN));
    }
    (ratio, crate::stats::speedup_ci95(&a, &b))
}

/// A row's median with its p90: `45.6 ms (p90 80.1 ms)`.
fn median_p90(r: &Row) -> String {
    format!("{} (p90 {})", secs(r.stats.median), secs(r.stats.p90))
}

/// The best implementation's cell: "steal ×2: 9.81 GB/s".
fn best_cell(best: &Row) -> String {
    format!("{} ×{}: {}", best.implementation, best.threads, rate(best))
}

/// A row's speed-up over `seq` with its 95% CI: "1.95× [1.90, 1.99]".
fn speedup_cell(r: &Row) -> String {
    format!(
        "{:.2}× [{:.2}, {:.2}]",
        r.speedup, r.speedup_ci95.0, r.speedup_ci95.1
    )
}
