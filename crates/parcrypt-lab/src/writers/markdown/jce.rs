//! summary.md's JCE paper section: RSA keygen, RSA-CRT and ECDSA verify in two tasks, beside ours.

use std::fmt::Write as _;

use super::{median_p90, per_item_speedup, where_threads_pay};
use crate::model::{Row, Summary};
use crate::papers;
use crate::units::secs;
use crate::workloads::id;
use crate::writers::rate;

pub(super) fn section_jce(summary: &Summary, md: &mut String) {
    let _ = writeln!(
        md,
        "## JCE paper (RSA key generation, RSA-CRT, ECDSA verification)\n"
    );
    let _ = writeln!(
        md,
        "The paper split each operation into two tasks (Java, IAIK JCE; Executors = P I, ForkJoin = P II) on 2-core machines: \
         key generation searched p ∥ q, the private operation ran its two CRT exponentiations in parallel, \
         ECDSA verification computed u1·G ∥ u2·Q and added them. Its speed-ups over the sequential JCE:\n"
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
    // Tables 3 and 4 (RSA) share one table of ours; Table 5 (ECDSA) has its own.
    let (rsa, ecdsa) = papers::JCE.split_at(2);
    let measured: Vec<&str> = rsa
        .iter()
        .flat_map(|t| t.ours.iter().copied())
        .filter(|w| summary.largest_size(w).is_some())
        .collect();
    if !measured.is_empty() {
        let ifma = summary
            .machine
            .cpu_features_used
            .contains(&parcrypt::cpu::Feature::Avx512Ifma.name());
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
                "no AVX-512 IFMA (or masked), so both workloads use two threads"
            }
        );
        let _ = writeln!(
            md,
            "| workload | seq | static ×2 | speed-up | steal ×2 | speed-up | best | openssl speed |"
        );
        let _ = writeln!(md, "|---|---|---|---|---|---|---|---|");
        for w in measured {
            let Some(size) = summary.largest_size(w) else {
                continue;
            };
            let cell = |imp: &str, t: usize| {
                summary
                    .find(w, imp, t, size)
                    .map_or(("—".to_owned(), "—".to_owned()), |r| {
                        (median_p90(r), format!("{:.2}×", r.speedup))
                    })
            };
            let (seq, _) = cell("seq", 1);
            let (st, st_speedup) = cell("static", 2);
            let (sl, sl_speedup) = cell("steal", 2);
            let best = summary.best(w, size).map_or("—".to_owned(), |b| {
                format!(
                    "{} ×{}: {}, {:.2}×",
                    b.implementation,
                    b.threads,
                    secs(b.stats.median),
                    b.speedup
                )
            });
            let peer = summary
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
    jce_ecdsa(summary, md, &ecdsa[0]);
    for t in papers::JCE {
        if t.ours.iter().all(|w| summary.largest_size(w).is_none()) {
            let why = if t.ours.is_empty() {
                "the lab has no workload for it yet".to_owned()
            } else {
                format!("none of {} was measured in this run", t.ours.join(", "))
            };
            let _ = writeln!(md, "Not available for {} ({}): {why}.\n", t.table, t.operation);
        }
    }
}

/// Table 5 next to ours: the split against its sequential baseline (the
/// paper's comparison) and against the joint multiplication; single
/// verification times; and batches, where threads do pay.
fn jce_ecdsa(summary: &Summary, md: &mut String, table: &papers::JceTable) {
    const JOINT: &str = id::ECDSA_VERIFY_JOINT;
    const SPLIT: &str = id::ECDSA_VERIFY_SPLIT;
    const SEPARATE: &str = id::ECDSA_VERIFY_SEPARATE;
    const BATCH: &str = id::ECDSA_VERIFY_BATCH;
    let single = |w: &str, imp: &str, t: usize| summary.find(w, imp, t, summary.largest_size(w)?);
    let joint = single(JOINT, "seq", 1);
    // The split on two threads against a reference (time ratio, 95% CI).
    let vs_split =
        |reference: Option<&Row>, imp: &str| Some(per_item_speedup(reference?, single(SPLIT, imp, 2)?));
    let peer = summary
        .rows
        .iter()
        .find(|r| r.peer && r.workload == JOINT && r.implementation == "openssl-speed");
    if table.ours.iter().any(|w| summary.largest_size(w).is_some()) {
        let _ = writeln!(
            md,
            "{}, ours: P-256 with a SHA-256 digest (the paper does not name its curve), AWS-LC's arithmetic. `{SPLIT}` is the paper's method: its `seq` computes u1·G, then u2·Q, on one thread \
             (the paper's sequential baseline; a full study also measures it alone as `{SEPARATE}`), `static`/`steal` ×2 put one product on each of two threads. \
             `{JOINT}` is how AWS-LC (and OpenSSL) verify: one joint multiplication u1·G + u2·Q sharing the doublings, with a precomputed table for G, \
             which the paper's JCE did not have. Ratio = time of the reference / time of the split (above 1: the split is faster), median with the 95% bootstrap CI.\n",
            table.table
        );
        let paper = table
            .speedups
            .iter()
            .zip(papers::JCE_ENVIRONMENTS)
            .map(|((a, b), (me, _))| format!("{me}: {a:.2}× / {b:.2}×"))
            .collect::<Vec<_>>()
            .join(", ");
        let _ = writeln!(
            md,
            "| comparison | paper (P I / P II) | ours: split static ×2 | ours: split steal ×2 |"
        );
        let _ = writeln!(md, "|---|---|---|---|");
        let vs = |reference: Option<&Row>, imp: &str| {
            vs_split(reference, imp).map_or("—".to_owned(), |(ratio, (low, high))| {
                format!("{ratio:.2}× [{low:.2}, {high:.2}]")
            })
        };
        let split_seq = single(SPLIT, "seq", 1);
        let _ = writeln!(
            md,
            "| split vs sequential separate (the paper's comparison) | {paper} | {} | {} |",
            vs(split_seq, "static"),
            vs(split_seq, "steal")
        );
        let _ = writeln!(
            md,
            "| split vs joint (a modern library's verification) | not measured (its JCE had no joint multiplication) | {} | {} |",
            vs(joint, "static"),
            vs(joint, "steal")
        );
        md.push('\n');
        let fastest = ["static", "steal"]
            .into_iter()
            .filter_map(|imp| Some((imp, vs_split(joint, imp)?)))
            .max_by(|a, b| a.1.0.total_cmp(&b.1.0));
        if let Some((imp, (ratio, (low, high)))) = fastest {
            let verdict = if high < 1.0 {
                "threads do not pay: even the faster of the two splits is slower than the joint multiplication, \
                 because it only races u2·Q, which alone costs nearly as much as the joint product"
            } else if low > 1.0 {
                "the split on two threads beat the joint multiplication on this machine"
            } else {
                "two threads gain nothing measurable over the joint multiplication"
            };
            let _ = writeln!(
                md,
                "For one signature {verdict} (split `{imp}` ×2 vs joint: {ratio:.2}× [{low:.2}, {high:.2}]).\n"
            );
        }
        let _ = writeln!(md, "| one verification | seq | static ×2 | steal ×2 | seq rate |");
        let _ = writeln!(md, "|---|---|---|---|---|");
        for w in [JOINT, SEPARATE, SPLIT] {
            let Some(seq) = single(w, "seq", 1) else {
                continue;
            };
            let cell = |imp| single(w, imp, 2).map_or("—".to_owned(), |r| secs(r.stats.median));
            let _ = writeln!(
                md,
                "| {w} | {} | {} | {} | {} |",
                secs(seq.stats.median),
                cell("static"),
                cell("steal"),
                rate(seq)
            );
        }
        if let Some(p) = peer {
            let _ = writeln!(
                md,
                "| openssl speed ecdsap256 (verify, one core) | {} | | | {} |",
                secs(p.stats.median),
                rate(p)
            );
        }
        md.push('\n');
    }
    let Some(largest) = summary.largest_size(BATCH) else {
        return;
    };
    let _ = writeln!(
        md,
        "Where threads do pay: many signatures. `{BATCH}` verifies a batch of signatures, each under its own key, spread over the threads, \
         each verified jointly. Signatures verified per second; in brackets the speed-up over one joint verification at a time on one thread \
         (`{JOINT}` `seq`{}), with its 95% CI in the last column.\n",
        joint.map_or(", not measured in this run".to_owned(), |j| format!(
            ": {} per signature, {}",
            secs(j.stats.median),
            rate(j)
        ))
    );
    let _ = writeln!(
        md,
        "| batch | seq (1 thread) | static ×2 | steal ×2 | best | best vs one joint verification |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|");
    let mut sizes: Vec<usize> = summary.rows_of_workload(BATCH).map(|r| r.size_bytes).collect();
    sizes.sort_unstable();
    sizes.dedup();
    let vs_joint = |r: &Row| joint.map(|j| per_item_speedup(j, r));
    let cell = |r: Option<&Row>| {
        r.map_or("—".to_owned(), |r| match vs_joint(r) {
            Some((s, _)) => format!("{:.0}/s ({s:.2}×)", r.ops_per_s),
            None => format!("{:.0}/s", r.ops_per_s),
        })
    };
    for &size in &sizes {
        let best = summary.best(BATCH, size);
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} |",
            summary.size_label(BATCH, size),
            cell(summary.find(BATCH, "seq", 1, size)),
            cell(summary.find(BATCH, "static", 2, size)),
            cell(summary.find(BATCH, "steal", 2, size)),
            best.map_or("—".to_owned(), |b| format!(
                "{} ×{}: {}",
                b.implementation,
                b.threads,
                cell(Some(b))
            )),
            best.and_then(vs_joint)
                .map_or("—".to_owned(), |(s, (low, high))| format!(
                    "{s:.2}× [{low:.2}, {high:.2}]"
                )),
        );
    }
    if let Some(p) = peer {
        let _ = writeln!(
            md,
            "| openssl speed ecdsap256 (one core, one at a time) | {:.0}/s ({:.2}×) | | | | |",
            p.ops_per_s,
            joint.map_or(f64::NAN, |j| j.stats.median / p.stats.median)
        );
    }
    md.push('\n');
    let pays = where_threads_pay(summary, BATCH, "no measured batch");
    let best = summary
        .best(BATCH, largest)
        .and_then(|b| vs_joint(b).map(|(s, ci)| (b, s, ci)))
        .map_or(String::new(), |(b, s, (low, high))| {
            format!(
                "; at {} the best, `{}` ×{}, verifies {s:.2}× [{low:.2}, {high:.2}] as many signatures per second as one joint verification at a time",
                summary.size_label(BATCH, largest),
                b.implementation,
                b.threads
            )
        });
    let _ = writeln!(
        md,
        "Where threads pay: batches, by the lab's test (speed-up CI over the batch's own `seq` above 1 at that batch and every larger one) {}{best}. \
         A batch of one runs on the calling thread whatever the threads, so a difference there is noise between cells.\n",
        pays
    );
}
