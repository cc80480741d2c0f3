//! A tiny real run: files exist, the CSV has the contract columns, and the
//! numbers hang together.

use parcrypt_lab::{LabConfig, LabError, run};

use crate::common;

const REQUIRED: [&str; 12] = [
    "workload",
    "impl",
    "threads",
    "size_bytes",
    "repeats",
    "median_s",
    "mean_s",
    "stddev_s",
    "ci95_low_s",
    "ci95_high_s",
    "throughput_Bps",
    "speedup",
];

fn tiny(dir: &std::path::Path, only: &str) -> LabConfig {
    LabConfig {
        out_dir: dir.to_path_buf(),
        only: Some(only.to_owned()),
        sizes: Some(vec![10, 200_000]),
        threads_list: Some(vec![1, 2]),
        repeats: Some(3),
        quick: true,
        peers: false,
        ceilings_cache: Some(common::ceilings_cache()),
        ..Default::default()
    }
}

#[test]
fn a_tiny_run_writes_consistent_results() {
    let dir = tempfile::tempdir().unwrap();
    let summary = run(&tiny(dir.path(), "aes-128-ctr")).unwrap();
    // seq + static×{1,2} + steal×{1,2}, at two sizes.
    assert_eq!(summary.rows.len(), 10);

    let csv = std::fs::read_to_string(dir.path().join("results.csv")).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(&header[..12], &REQUIRED);
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 10);
    for r in &rows {
        assert_eq!(r.len(), header.len());
        let num = |i: usize| r[i].parse::<f64>().unwrap();
        let (median, low, high, mean) = (num(5), num(8), num(9), num(6));
        assert!(median > 0.0 && low <= mean && mean <= high);
        assert_eq!(r[4], "3");
        let throughput = num(10);
        let size = num(3);
        assert!((throughput - size / median).abs() <= 1e-6 * throughput);
        if r[1] == "seq" {
            assert_eq!(r[2], "1");
            assert_eq!(num(11), 1.0);
        }
    }

    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("results.json")).unwrap()).unwrap();
    assert_eq!(json["rows"].as_array().unwrap().len(), 10);
    assert_eq!(json["config"]["workloads"][0], "aes-128-ctr");
    let machine: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("machine.json")).unwrap()).unwrap();
    assert!(machine["cores"].as_u64().unwrap() >= 1);
    limits_hang_together(&header, &rows, &json, &machine);
    assert!(summary.to_string().contains("aes-128-ctr"));

    let md = std::fs::read_to_string(dir.path().join("summary.md")).unwrap();
    for section in [
        "## Where parallelism pays",
        "## Ceilings, limits and predicted scaling",
        "## Authenticated encryption",
        "## PARC4 paper",
        "## ParalCrypto",
        "## JCE paper",
        "## Method",
    ] {
        assert!(md.contains(section), "{section} missing");
    }
    // Studies not measured say so instead of showing zeros.
    assert!(md.contains("Not available"));
    assert!(md.contains("| 3.0 MB | paper | 0.03957"));

    // Plots: valid SVG (XML), each embedded in the self-contained report.
    let html = std::fs::read_to_string(dir.path().join("report.html")).unwrap();
    let files: Vec<_> = std::fs::read_dir(dir.path().join("plots"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    let with_ext = |ext: &str| -> Vec<std::path::PathBuf> {
        files
            .iter()
            .filter(|p| p.extension().is_some_and(|e| e == ext))
            .cloned()
            .collect()
    };
    let plots = with_ext("svg");
    assert_eq!(
        plots.len(),
        5,
        "the overview, speed-up, time and throughput for the one workload, and its family's roofline"
    );
    assert!(dir.path().join("plots/roofline-aes.svg").exists());
    // Each SVG has a PNG twin.
    let pngs = with_ext("png");
    assert_eq!(pngs.len(), 5);
    for png in &pngs {
        let bytes = std::fs::read(png).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{}", png.display());
    }
    for plot in &plots {
        let svg = std::fs::read_to_string(plot).unwrap();
        let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{}: {e}", plot.display()));
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        let name = plot.file_stem().unwrap().to_str().unwrap();
        assert!(
            html.contains(&format!("id=\"{name}\"")),
            "{name} not in report.html"
        );
    }
    assert!(!html.contains("src=\"http"), "the report must open offline");

    // The report opens with the overview figure, before the first table:
    // the workload's best speed-up at its largest size, with its CI.
    let overview = html
        .find("<figure id=\"overview\">")
        .expect("the overview figure");
    let table = html.find("<table").expect("a table");
    assert!(overview < table, "the overview comes after the first table");
    assert_eq!(html.matches("<figure id=\"overview\">").count(), 1);
    let svg = std::fs::read_to_string(dir.path().join("plots/overview.svg")).unwrap();
    assert!(svg.contains(">aes-128-ctr, 200 kB<"), "{svg}");
    assert!(svg.contains("speed-up over seq at the largest size, 95% CI"));
    assert!(dir.path().join("plots/overview.png").exists());
}

/// The limit columns (appended after the contract's and the older ones),
/// results.json's limits and predictions, and machine.json's ceilings agree
/// with each other and with the cost model (in-place AES-CTR: its own
/// one-core cell on every core the cell uses, capped by memory copy beyond
/// the cache). Identities between the files, never timing thresholds.
fn limits_hang_together(
    header: &[&str],
    rows: &[Vec<&str>],
    json: &serde_json::Value,
    machine: &serde_json::Value,
) {
    assert_eq!(
        header[header.len() - 4..],
        ["limit_Bps", "limit_ops_per_s", "of_limit", "limit_by"]
    );
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let cores = machine["cores"].as_u64().unwrap() as f64;
    for r in rows {
        let num = |name: &str| r[col(name)].parse::<f64>().unwrap();
        let (limit, of_limit) = (num("limit_Bps"), num("of_limit"));
        assert!(limit > 0.0 && of_limit > 0.0 && of_limit.is_finite(), "{r:?}");
        assert!((num("limit_ops_per_s") - limit / num("size_bytes")).abs() <= 1e-5 * num("limit_ops_per_s"));
        // of_limit is achieved / limit, in the CSV's rounding.
        assert!((of_limit - num("throughput_Bps") / limit).abs() < 1e-3, "{r:?}");
        assert!(["cores", "memory-copy"].contains(&r[col("limit_by")]), "{r:?}");
        if r[1] == "seq" && r[col("limit_by")] == "cores" {
            assert_eq!(r[col("of_limit")], "1.0000", "seq is its own one-core limit");
        }
    }
    for r in json["rows"].as_array().unwrap() {
        // Bound by the cores, the fraction of the limit is the speed-up
        // over the threads the cell could use: an identity, not a timing.
        if r["limit_by"] == "cores" {
            let used = (r["threads"].as_f64().unwrap()).min(cores);
            let want = r["speedup"].as_f64().unwrap() / used;
            assert!(
                (r["of_limit"].as_f64().unwrap() - want).abs() < 1e-9 * want.max(1.0),
                "{r}"
            );
        }
    }
    // The ceilings, measured or from the cache, and the one-core rates.
    let c = &machine["ceilings"];
    for k in ["memory_copy", "memory_read", "page_cache_read"] {
        for n in ["one", "all"] {
            assert!(c[k][n].as_f64().unwrap() > 0.0, "{k}.{n}: {c}");
        }
    }
    for k in ["pipe", "write_dev_null", "write_file"] {
        assert!(c[k].as_f64().unwrap() > 0.0, "{k}: {c}");
    }
    assert_eq!(machine["one_core"][0]["workload"], "aes-128-ctr");
    let one_core = machine["one_core"][0]["rate"].as_f64().unwrap();
    // Predictions: 4, 8, 16, 64 cores, each at most the cores × the one-core rate.
    let p = &json["predictions"][0];
    assert_eq!(p["workload"], "aes-128-ctr");
    let at = p["at"].as_array().unwrap();
    assert_eq!(
        at.iter()
            .map(|a| a["cores"].as_u64().unwrap())
            .collect::<Vec<_>>(),
        [4, 8, 16, 64]
    );
    for a in at {
        let rate = a["rate"].as_f64().unwrap();
        let n = a["cores"].as_f64().unwrap();
        assert!(rate > 0.0 && rate <= n * one_core * (1.0 + 1e-9), "{a}");
        assert!(
            ["cores", "amdahl", "memory-copy"].contains(&a["bound"].as_str().unwrap()),
            "{a}"
        );
    }
    assert!(
        json["models"][0]["model"]
            .as_str()
            .unwrap()
            .contains("own seq cell")
    );
}

#[test]
fn a_pattern_that_matches_nothing_lists_the_workloads() {
    let dir = tempfile::tempdir().unwrap();
    match run(&tiny(dir.path(), "nosuch-*")) {
        Err(LabError::NoMatch { available, .. }) => assert!(available.contains("aes-256-cbc-dec")),
        other => panic!("expected NoMatch, got {other:?}"),
    }
    // Nothing written for a failed configuration.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn zero_threads_is_a_configuration_error() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = tiny(dir.path(), "aes-128-ctr");
    config.threads_list = Some(vec![0, 2]);
    assert!(matches!(run(&config), Err(LabError::Config(_))));
}

#[test]
fn every_aes_workload_is_registered() {
    let names: Vec<_> = parcrypt_lab::workloads::registry()
        .iter()
        .map(|w| w.name)
        .collect();
    for w in [
        "aes-128-ctr",
        "aes-256-ctr",
        "aes-256-cbc-dec",
        "aes-256-ecb-enc",
        "aes-256-ecb-dec",
    ] {
        assert!(names.contains(&w), "{w} missing");
    }
}

#[test]
fn sequential_only_workloads_measure_seq_alone() {
    let dir = tempfile::tempdir().unwrap();
    // A glob is anchored: `rc4*` is RC4 alone, where the substring `rc4` would
    // also match every parc4-* workload.
    let mut config = tiny(dir.path(), "rc4*,parc4-4kib");
    config.sizes = Some(vec![5000]);
    let summary = run(&config).unwrap();
    let rc4: Vec<_> = summary.rows.iter().filter(|r| r.workload == "rc4").collect();
    assert_eq!(rc4.len(), 1);
    assert_eq!(rc4[0].implementation, "seq");
    // parc4-4kib: seq + static×{1,2} + steal×{1,2}.
    assert_eq!(
        summary.rows.iter().filter(|r| r.workload == "parc4-4kib").count(),
        5
    );
    assert!(summary.to_string().contains("(sequential only)"));
}

#[test]
fn peers_are_measured_or_listed_as_absent() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = tiny(dir.path(), "aes-128-ctr");
    config.peers = true;
    config.sizes = Some(vec![100_000]);
    let summary = run(&config).unwrap();
    // Both OpenSSL peers of aes-128-ctr are accounted for: measured where
    // openssl is on PATH, else listed as absent with the reason.
    let openssl = common::require_tool("openssl");
    for peer in ["openssl-speed", "openssl-enc"] {
        let status = summary
            .peers
            .iter()
            .find(|p| p.peer == peer)
            .expect("peer listed");
        let row = summary.rows.iter().find(|r| r.peer && r.implementation == peer);
        assert_eq!(status.available, openssl, "{peer}: {}", status.detail);
        assert_eq!(row.is_some(), openssl, "{peer}: {}", status.detail);
        if let Some(r) = row {
            assert!(r.throughput_bps > 0.0);
        } else {
            assert!(status.detail.contains("openssl"), "{peer}: {}", status.detail);
        }
    }
    let csv = std::fs::read_to_string(dir.path().join("results.csv")).unwrap();
    assert!(!csv.contains("NaN"), "{csv}");
    // With any peer measured, the ours-vs-OpenSSL bar chart exists and is valid SVG.
    let bars = dir.path().join("plots/peers.svg");
    assert_eq!(bars.exists(), openssl);
    if bars.exists() {
        let svg = std::fs::read_to_string(&bars).unwrap();
        roxmltree::Document::parse(&svg).unwrap();
        assert!(svg.contains("parcrypt best") && svg.contains("openssl-speed"));
    }
    // The overview sets parcrypt against each peer measured, as a ratio.
    let overview = std::fs::read_to_string(dir.path().join("plots/overview.svg")).unwrap();
    for peer in ["openssl-speed", "openssl-enc"] {
        assert_eq!(
            overview.contains(&format!("× vs {peer}<")),
            openssl,
            "{peer}: {overview}"
        );
    }
}

#[test]
fn sample_counts_adapt_within_bounds() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = tiny(dir.path(), "aes-128-ctr");
    config.repeats = None;
    config.budget = Some(1.0);
    let summary = run(&config).unwrap();
    for r in &summary.rows {
        // quick: at least 5, at most 15 samples.
        assert!((5..=15).contains(&r.stats.n), "{} samples", r.stats.n);
    }
}

#[test]
fn compare_flags_only_changes_beyond_the_intervals() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a");
    let summary = run(&tiny(&a, "aes-128-ctr")).unwrap();
    // A': the run with one cell's interval pinned to ±1% (three samples on a
    // busy machine can give an interval wider than 3×, which would make the
    // check below depend on the load); B: that cell made 3× slower, its
    // interval moved with it.
    let text = std::fs::read_to_string(a.join("results.json")).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let stats = &mut json["rows"][0]["stats"];
    let median = stats["median"].as_f64().unwrap();
    stats["mean"] = serde_json::json!(median);
    stats["ci95_low"] = serde_json::json!(median * 0.99);
    stats["ci95_high"] = serde_json::json!(median * 1.01);
    let pinned = dir.path().join("a.json");
    std::fs::write(&pinned, serde_json::to_string(&json).unwrap()).unwrap();
    let stats = &mut json["rows"][0]["stats"];
    for field in ["median", "mean", "ci95_low", "ci95_high"] {
        stats[field] = serde_json::json!(stats[field].as_f64().unwrap() * 3.0);
    }
    let b = dir.path().join("b.json");
    std::fs::write(&b, serde_json::to_string(&json).unwrap()).unwrap();

    let same = parcrypt_lab::compare::compare(&a, &a).unwrap();
    assert_eq!(
        same.changes.len(),
        summary.rows.iter().filter(|r| !r.peer).count()
    );
    assert_eq!(same.regressions().count(), 0);
    let changed = parcrypt_lab::compare::compare(&pinned, &b).unwrap();
    let regressions: Vec<_> = changed.regressions().collect();
    assert_eq!(regressions.len(), 1);
    assert!((regressions[0].ratio() - 3.0).abs() < 1e-9);
    assert!(changed.to_string().contains("REGRESSION"));
    assert!(parcrypt_lab::compare::compare(&a, &dir.path().join("missing.json")).is_err());
}

#[test]
fn default_threads_oversubscribe_to_twice_the_cores() {
    assert_eq!(parcrypt_lab::default_threads(2), vec![1, 2, 3, 4, 6, 8]);
    assert_eq!(parcrypt_lab::default_threads(1), vec![1, 2, 3, 4, 6, 8]);
    assert_eq!(
        parcrypt_lab::default_threads(16),
        vec![1, 2, 3, 4, 6, 8, 12, 16, 24, 32]
    );
}

#[test]
fn rsa_operations_report_rates_and_tails_not_throughput() {
    let dir = tempfile::tempdir().unwrap();
    // --sizes applies to byte workloads only: key generation and signing keep
    // their nominal size (the modulus length in bytes).
    let mut config = tiny(dir.path(), "rsa-keygen-1024,rsa-sign-2048*,rsa-bulk-dec");
    config.sizes = Some(vec![10, 1000]);
    config.peers = true;
    let summary = run(&config).unwrap();
    let of = |w: &str| {
        summary
            .rows
            .iter()
            .filter(|r| r.workload == w && !r.peer)
            .collect::<Vec<_>>()
    };
    for (w, k) in [
        ("rsa-keygen-1024", 128),
        ("rsa-sign-2048", 256),
        ("rsa-sign-2048-threads", 256),
    ] {
        let rows = of(w);
        assert_eq!(rows.len(), 5, "{w}: seq + static×{{1,2}} + steal×{{1,2}}");
        for r in rows {
            assert_eq!(r.size_bytes, k);
            assert!(r.throughput_bps.is_nan(), "{w}: throughput does not apply");
            assert!(r.ops_per_s > 0.0 && r.stats.p90 >= r.stats.median);
        }
    }
    assert_eq!(of("rsa-bulk-dec").len(), 10);
    assert!(of("rsa-bulk-dec").iter().all(|r| r.throughput_bps > 0.0));

    // The openssl speed peer for the signature: measured in op/s at the
    // workload's size, or listed as absent.
    let openssl = common::require_tool("openssl");
    let status = summary
        .peers
        .iter()
        .find(|p| p.workload == "rsa-sign-2048")
        .expect("peer listed");
    // One openssl run per key size: the forced-threads variant has none.
    assert!(
        !summary
            .peers
            .iter()
            .any(|p| p.workload == "rsa-sign-2048-threads")
    );
    let peer = summary
        .rows
        .iter()
        .find(|r| r.peer && r.workload == "rsa-sign-2048");
    assert_eq!(status.available, openssl, "{}", status.detail);
    assert_eq!(peer.is_some(), openssl, "{}", status.detail);
    if let Some(p) = peer {
        assert_eq!(p.size_bytes, 256);
        assert!(p.ops_per_s > 0.0 && p.speedup > 0.0);
        assert!(dir.path().join("plots/peers-ops.svg").exists());
    }

    let csv = std::fs::read_to_string(dir.path().join("results.csv")).unwrap();
    assert!(!csv.contains("NaN"), "{csv}");
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    for line in lines {
        let r: Vec<&str> = line.split(',').collect();
        assert_eq!(r.len(), header.len());
        let bulk = r[0] == "rsa-bulk-dec";
        assert_eq!(r[col("throughput_Bps")].is_empty(), !bulk, "{line}");
        let p90: f64 = r[col("p90_s")].parse().unwrap();
        assert!(p90 >= r[col("min_s")].parse::<f64>().unwrap());
    }

    let md = std::fs::read_to_string(dir.path().join("summary.md")).unwrap();
    assert!(md.contains("| Table 3 | RSA-1024 key-pair generation | 1.39× / 1.35× |"));
    assert!(md.contains("| rsa-keygen-1024 |") && md.contains("(p90 "));
    assert!(md.contains("| rsa-sign-2048-threads |"));
    assert!(md.contains("Not available for Table 5 (ECDSA signature verification)"));
    assert!(md.contains("| rsa-bulk-dec | seq | static ×2 |"));
    assert!(md.contains("op/s"));
    // No throughput-vs-size plot for operations; speed-up and time plots exist.
    let plots = dir.path().join("plots");
    assert!(!plots.join("rsa-keygen-1024-throughput.svg").exists());
    assert!(plots.join("rsa-keygen-1024-speedup.svg").exists());
    assert!(plots.join("rsa-bulk-dec-throughput.svg").exists());
}

#[test]
fn every_rsa_workload_is_registered_and_quick_keeps_a_subset() {
    let all = parcrypt_lab::workloads::registry();
    let rsa: Vec<_> = all.iter().filter(|w| w.family == "rsa").collect();
    let names: Vec<_> = rsa.iter().map(|w| w.name).collect();
    assert_eq!(
        names,
        [
            "rsa-keygen-1024",
            "rsa-keygen-2048",
            "rsa-keygen-4096",
            "rsa-sign-2048",
            "rsa-sign-2048-threads",
            "rsa-sign-4096",
            "rsa-sign-4096-threads",
            "rsa-bulk-enc",
            "rsa-bulk-dec"
        ]
    );
    let grid = |name: &str, quick: bool| {
        let w = rsa.iter().find(|w| w.name == name).unwrap();
        (w.sizes.unwrap())(quick)
    };
    // The research paper's grid, in full.
    assert_eq!(
        grid("rsa-bulk-dec", false),
        [10, 100, 1_000, 10_000, 50_000, 100_000, 1_000_000]
    );
    // A quick study leaves out the slow key sizes.
    assert!(grid("rsa-keygen-2048", true).is_empty());
    assert!(grid("rsa-keygen-4096", true).is_empty());
    assert!(grid("rsa-sign-4096", true).is_empty());
    assert!(grid("rsa-sign-4096-threads", true).is_empty());
    assert_eq!(grid("rsa-sign-2048-threads", true), [256]);
    assert_eq!(grid("rsa-keygen-1024", true), [128]);
}

#[test]
fn ecdsa_batches_count_signatures_and_table_5_sits_beside_the_paper() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = tiny(dir.path(), "ecdsa*");
    config.peers = true;
    let summary = run(&config).unwrap();
    let of = |w: &str| {
        summary
            .rows
            .iter()
            .filter(|r| r.workload == w && !r.peer)
            .collect::<Vec<_>>()
    };
    // Single verifications: one nominal size; joint is one thread whatever
    // the strategy, so it is measured as seq alone; a quick study leaves the
    // separate baseline to the split's own seq.
    assert_eq!(of("ecdsa-verify-joint").len(), 1);
    assert!(of("ecdsa-verify-separate").is_empty());
    assert_eq!(of("ecdsa-verify-split").len(), 5);
    for r in of("ecdsa-verify-joint")
        .into_iter()
        .chain(of("ecdsa-verify-split"))
    {
        assert_eq!((r.size_bytes, r.items), (32, 1));
        assert!(r.throughput_bps.is_nan());
    }
    // Batches: --sizes does not apply; the size counts signatures and the
    // rate is signatures per second.
    let batch = of("ecdsa-verify-batch");
    assert_eq!(
        batch.len(),
        10,
        "two batch sizes × (seq + static×{{1,2}} + steal×{{1,2}})"
    );
    for r in &batch {
        assert!([1, 64].contains(&r.size_bytes));
        assert_eq!(r.items, r.size_bytes as u64);
        assert!(r.throughput_bps.is_nan());
        let per_s = r.items as f64 / r.stats.median;
        assert!((r.ops_per_s - per_s).abs() <= 1e-9 * per_s);
    }

    // The verify rate of openssl speed, at the single verification's size.
    let openssl = common::require_tool("openssl");
    let status = summary
        .peers
        .iter()
        .find(|p| p.workload == "ecdsa-verify-joint")
        .expect("peer listed");
    assert!(status.detail.contains("ecdsap256"), "{}", status.detail);
    let peer = summary
        .rows
        .iter()
        .find(|r| r.peer && r.workload == "ecdsa-verify-joint");
    assert_eq!(status.available, openssl, "{}", status.detail);
    assert_eq!(peer.is_some(), openssl, "{}", status.detail);
    if let Some(p) = peer {
        assert_eq!(p.size_bytes, 32);
        assert!(p.ops_per_s > 0.0);
    }

    let csv = std::fs::read_to_string(dir.path().join("results.csv")).unwrap();
    assert!(!csv.contains("NaN"), "{csv}");
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let unit = header.iter().position(|h| *h == "unit").unwrap();
    for line in lines {
        let r: Vec<&str> = line.split(',').collect();
        let expected = if r[0] == "ecdsa-verify-batch" {
            "signatures"
        } else {
            "operation"
        };
        assert_eq!(r[unit], expected, "{line}");
    }

    let md = std::fs::read_to_string(dir.path().join("summary.md")).unwrap();
    assert!(md.contains(
        "| Table 5 | ECDSA signature verification | 1.67× / 1.67× | 1.73× / 1.72× | 1.76× / 1.78× |"
    ));
    assert!(!md.contains("Not available for Table 5"));
    assert!(md.contains("| split vs sequential separate (the paper's comparison) |"));
    assert!(md.contains("| split vs joint"));
    assert!(md.contains("| 64 signatures |") && md.contains("| 1 signature |"));
    assert!(md.contains("Where threads pay: batches"));
    assert!(md.contains("For one signature "));
    assert!(md.contains("| ecdsa-verify-batch | 64 signatures |"));
    // Items per second over batch sizes, not bytes.
    let plot = std::fs::read_to_string(dir.path().join("plots/ecdsa-verify-batch-throughput.svg")).unwrap();
    assert!(plot.contains("signatures / second"));
}

#[test]
fn every_workload_computes_the_same_output_on_every_strategy() {
    use parcrypt::par::{Parallelism, Strategy};
    use parcrypt_lab::workloads::Unit;
    let strategies = [
        Parallelism::sequential(),
        Parallelism::new(2, Strategy::Static),
        Parallelism::new(2, Strategy::WorkStealing),
    ];
    // Random output (key generation, PSS signatures, OAEP, stream and
    // Cobblestone encryption) or output written to a sink (their
    // decryption): handed to no one. Every other workload must hand its output.
    let silent = |name: &str| {
        name.starts_with("rsa-keygen")
            || name.starts_with("rsa-sign")
            || name == "rsa-bulk-enc"
            || name.starts_with("stream-")
            || name.starts_with("age-")
            || name.starts_with("cobblestone-")
    };
    let mut compared = 0;
    let mut skipped = Vec::new();
    for w in parcrypt_lab::workloads::registry() {
        // A kernel for a CPU feature this machine lacks (or that
        // PARCRYPT_CPU_MASK masks) is not run, and the test says so; CI's
        // PARCRYPT_REQUIRE_SHA256_BACKENDS still fails when a kernel it
        // requires is missing.
        if let Some(why) = (w.missing)() {
            assert!(
                !required_sha256_workloads().contains(&w.name.to_owned()),
                "{}: required by PARCRYPT_REQUIRE_SHA256_BACKENDS, but this machine lacks {why}",
                w.name
            );
            skipped.push(format!("{} ({why})", w.name));
            continue;
        }
        // Bytes: a size every grid could hold; operations and items keep
        // their own (a quick study's smallest; none: too slow for a test).
        let size = match w.unit {
            Unit::Bytes => 1000,
            Unit::Operation | Unit::Items(_) => match w.sizes.and_then(|grid| grid(true).first().copied()) {
                Some(size) => size,
                None => continue,
            },
        };
        // Per strategy, a fresh operation (in-place ones change their
        // buffer) run twice: the bytes it handed out.
        let outputs: Vec<Vec<u8>> = strategies
            .iter()
            .map(|par| {
                let mut op = (w.setup)(size);
                let mut seen = Vec::new();
                for _ in 0..2 {
                    op(par, &mut |bytes| seen.extend_from_slice(bytes));
                }
                seen
            })
            .collect();
        if silent(w.name) {
            assert!(outputs.iter().all(Vec::is_empty), "{}", w.name);
            continue;
        }
        assert!(!outputs[0].is_empty(), "{}: no output", w.name);
        for (par, out) in strategies.iter().zip(&outputs).skip(1) {
            assert!(*out == outputs[0], "{}: {par:?} differs from seq", w.name);
        }
        compared += 1;
    }
    eprintln!(
        "every_workload_computes_the_same_output_on_every_strategy: {compared} workloads compared; skipped for this CPU: {}; {}",
        if skipped.is_empty() {
            "none".to_owned()
        } else {
            skipped.join(", ")
        },
        parcrypt::cpu::report()
    );
    assert!(compared >= 15, "only {compared} workloads compared");
}

/// The `sha256-many-*` workloads of the backends CI requires
/// (`PARCRYPT_REQUIRE_SHA256_BACKENDS`, a comma list of backend names).
fn required_sha256_workloads() -> Vec<String> {
    let Ok(required) = std::env::var("PARCRYPT_REQUIRE_SHA256_BACKENDS") else {
        return Vec::new();
    };
    required
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(|n| {
            let backend: parcrypt::digest::Backend = n
                .parse()
                .unwrap_or_else(|e| panic!("PARCRYPT_REQUIRE_SHA256_BACKENDS: {e}"));
            format!("sha256-many-{}", backend.name())
        })
        .collect()
}

#[test]
fn gcm_and_stream_workloads_run_across_their_parallel_thresholds() {
    use parcrypt::par::{Parallelism, Strategy};
    let all = parcrypt_lab::workloads::registry();
    let names = [
        "aes-256-gcm-seal",
        "aes-256-gcm-open",
        "stream-encrypt",
        "stream-decrypt",
        "age-encrypt",
        "age-decrypt",
    ];
    for name in names {
        let w = all
            .iter()
            .find(|w| w.name == name)
            .unwrap_or_else(|| panic!("{name} missing"));
        assert_eq!((w.unit, w.parallel), (parcrypt_lab::workloads::Unit::Bytes, true));
        // Full study: 1 KiB … 1 GiB, few samples for the big ones; quick: two sizes.
        let grid = w.sizes.unwrap();
        assert_eq!((grid(false)[0], *grid(false).last().unwrap()), (1 << 10, 1 << 30));
        let quick: &[usize] = if name.starts_with("age-") {
            &[16 << 20]
        } else {
            &[1 << 20, 16 << 20]
        };
        assert_eq!(grid(true), quick);
        assert_eq!((w.samples)(false, 1 << 30), Some(5));
        // Empty, one byte, and more than GCM's 2 MiB threshold and several
        // 1 MiB segments; each run three times, so opening in place meets
        // both of its alternating messages more than once.
        for size in [0, 1, (3 << 20) + 5] {
            let mut op = (w.setup)(size);
            for par in [
                Parallelism::sequential(),
                Parallelism::new(3, Strategy::WorkStealing),
            ] {
                for _ in 0..3 {
                    op(&par, &mut |_| {});
                }
            }
        }
    }
}

#[test]
fn stream_workloads_stand_beside_openssl_enc_and_age_on_the_same_file() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = tiny(dir.path(), "stream*");
    config.peers = true;
    config.sizes = Some(vec![1000, 1 << 20]);
    let summary = run(&config).unwrap();
    let openssl = common::require_tool("openssl");
    let age = common::require_tool("age");
    for w in ["stream-encrypt", "stream-decrypt"] {
        let ours: Vec<_> = summary
            .rows
            .iter()
            .filter(|r| r.workload == w && !r.peer)
            .collect();
        assert_eq!(
            ours.len(),
            10,
            "{w}: seq + static×{{1,2}} + steal×{{1,2}} at two sizes"
        );
        assert!(ours.iter().all(|r| r.throughput_bps > 0.0));
        // No openssl speed beside a file format: openssl enc, and age (or
        // rage), each measured at the largest size or listed as absent.
        let status: Vec<_> = summary.peers.iter().filter(|p| p.workload == w).collect();
        let names: Vec<_> = status.iter().map(|p| p.peer).collect();
        assert_eq!(names.len(), 2, "{names:?}");
        assert_eq!(names[0], "openssl-enc");
        assert!(["age", "rage"].contains(&names[1]), "{names:?}");
        for p in status {
            let row = summary
                .rows
                .iter()
                .find(|r| r.peer && r.workload == w && r.implementation == p.peer);
            let on_path = if p.peer == "openssl-enc" { openssl } else { age };
            assert_eq!(p.available, on_path, "{}: {}", p.peer, p.detail);
            assert_eq!(row.is_some(), on_path, "{}: {}", p.peer, p.detail);
            if let Some(r) = row {
                assert_eq!(r.size_bytes, 1 << 20);
                assert!(r.throughput_bps > 0.0 && r.speedup > 0.0);
                assert!(p.detail.contains("FILE(1048576 B)"), "{}", p.detail);
            } else {
                assert!(!p.detail.is_empty());
            }
        }
    }
    let decrypt = summary
        .peers
        .iter()
        .find(|p| p.workload == "stream-decrypt" && p.peer.ends_with("age"))
        .unwrap();
    assert_eq!(decrypt.available, age, "{}", decrypt.detail);
    if decrypt.available {
        assert!(
            decrypt
                .detail
                .contains("-d -i IDENTITY -o /dev/null FILE(1048576 B).age"),
            "{}",
            decrypt.detail
        );
    }
    let md = std::fs::read_to_string(dir.path().join("summary.md")).unwrap();
    // The stream table: at the peers' size (the largest), beside both peers.
    let section = md
        .split("## Authenticated encryption")
        .nth(1)
        .expect("the section");
    assert!(section.contains("| stream-decrypt | 1 MiB |"), "{md}");
    // The ratio to each peer that ran, with its interval.
    let enc_ran = summary
        .peers
        .iter()
        .any(|p| p.workload == "stream-encrypt" && p.peer == "openssl-enc" && p.available);
    let age_ran = summary
        .peers
        .iter()
        .find(|p| p.workload == "stream-encrypt" && p.peer.ends_with("age"))
        .filter(|p| p.available);
    assert_eq!((enc_ran, age_ran.is_some()), (openssl, age));
    let line = section
        .lines()
        .find(|l| l.starts_with("| stream-encrypt | 1 MiB |"))
        .unwrap();
    let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
    assert_eq!(cells.len(), 8, "{line}");
    for (ran, rate, ratio) in [
        (enc_ran, cells[4], cells[5]),
        (age_ran.is_some(), cells[6], cells[7]),
    ] {
        if ran {
            assert!(rate.ends_with("GB/s") || rate.ends_with("MB/s"), "{line}");
            assert!(ratio.ends_with(']') && ratio.contains("× ["), "{line}");
        } else {
            assert!(rate.contains("absent") && ratio == "—", "{line}");
        }
    }
    if let Some(age) = age_ran {
        assert!(cells[6].starts_with(&format!("{}: ", age.peer)), "{line}");
    }
    let csv = std::fs::read_to_string(dir.path().join("results.csv")).unwrap();
    assert!(!csv.contains("NaN"), "{csv}");
    // The peers' files and age's key directory are gone.
    let tmp = std::env::temp_dir();
    let pid = std::process::id();
    for w in ["stream-encrypt", "stream-decrypt"] {
        for name in [
            format!("parcrypt-lab-{pid}-{w}-{}.bin", 1 << 20),
            format!("parcrypt-lab-{pid}-{w}-{}.age", 1 << 20),
            format!("parcrypt-lab-{pid}-{w}-age"),
            format!("parcrypt-lab-{pid}-{w}-rage"),
        ] {
            assert!(!tmp.join(&name).exists(), "{name} left behind");
        }
    }
}

#[test]
fn cobblestone_workloads_stand_beside_openssl_enc_and_pyca_on_the_same_file() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = tiny(dir.path(), "cobblestone-*");
    config.peers = true;
    config.sizes = Some(vec![1000, 1 << 20]);
    let summary = run(&config).unwrap();
    let openssl = common::require_tool("openssl");
    let pyca = common::require_tool("python3-cryptography-cobblestone");
    for w in ["cobblestone-encrypt", "cobblestone-decrypt"] {
        let ours = summary.rows.iter().filter(|r| r.workload == w && !r.peer).count();
        assert_eq!(ours, 10, "{w}: seq + static×{{1,2}} + steal×{{1,2}} at two sizes");
        // openssl enc -aes-128-ctr, then pyca: each measured at the largest
        // size or listed absent with why.
        let status: Vec<_> = summary.peers.iter().filter(|p| p.workload == w).collect();
        let names: Vec<_> = status.iter().map(|p| p.peer).collect();
        assert_eq!(names, ["openssl-enc", "pyca"], "{w}");
        for p in status {
            let on_path = if p.peer == "openssl-enc" { openssl } else { pyca };
            assert_eq!(p.available, on_path, "{}: {}", p.peer, p.detail);
            let row = summary
                .rows
                .iter()
                .find(|r| r.peer && r.workload == w && r.implementation == p.peer);
            assert_eq!(row.is_some(), on_path, "{}: {}", p.peer, p.detail);
            if let Some(r) = row {
                assert_eq!(r.size_bytes, 1 << 20);
                assert!(r.throughput_bps > 0.0 && r.speedup > 0.0);
            }
            if p.available {
                assert!(p.detail.contains("FILE(1048576 B)"), "{}", p.detail);
                let cipher = if p.peer == "pyca" { "KEY" } else { "-aes-128-ctr" };
                assert!(p.detail.contains(cipher), "{}", p.detail);
            }
        }
    }
    let md = std::fs::read_to_string(dir.path().join("summary.md")).unwrap();
    let section = md
        .split("## Authenticated encryption")
        .nth(1)
        .expect("the section");
    for w in ["cobblestone-encrypt", "cobblestone-decrypt"] {
        let line = section
            .lines()
            .find(|l| l.starts_with(&format!("| {w} | 1 MiB |")))
            .unwrap_or_else(|| panic!("no {w} row: {section}"));
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        assert_eq!(cells.len(), 8, "{line}");
        if pyca {
            assert!(cells[6].starts_with("pyca: "), "{line}");
            assert!(cells[7].contains("× ["), "{line}");
        }
    }
    // The peers' files (pyca's sealed copy too) are gone.
    let tmp = std::env::temp_dir();
    let pid = std::process::id();
    for w in ["cobblestone-encrypt", "cobblestone-decrypt"] {
        for ext in ["bin", "cob"] {
            let name = format!("parcrypt-lab-{pid}-{w}-{}.{ext}", 1 << 20);
            assert!(!tmp.join(&name).exists(), "{name} left behind");
        }
    }
}

#[test]
fn age_workloads_stand_beside_openssl_chacha20_and_every_age_installed() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = tiny(dir.path(), "age-*");
    config.peers = true;
    config.sizes = Some(vec![1000, 1 << 20]);
    let summary = run(&config).unwrap();
    let openssl = common::require_tool("openssl");
    common::require_tool("age");
    let installed: Vec<&str> = parcrypt_lab::peers::find_ages(std::env::var_os("PATH").as_deref())
        .iter()
        .map(|t| t.name)
        .collect();
    for w in ["age-encrypt", "age-decrypt"] {
        let ours = summary.rows.iter().filter(|r| r.workload == w && !r.peer).count();
        assert_eq!(ours, 10, "{w}: seq + static×{{1,2}} + steal×{{1,2}} at two sizes");
        // openssl enc -chacha20, then age and rage: each that is installed,
        // measured at the largest size (or one absent age if neither is).
        let status: Vec<_> = summary.peers.iter().filter(|p| p.workload == w).collect();
        let names: Vec<_> = status.iter().map(|p| p.peer).collect();
        let ages: Vec<&str> = if installed.is_empty() {
            vec!["age"]
        } else {
            installed.clone()
        };
        assert_eq!(names, [&["openssl-enc"][..], &ages].concat(), "{w}");
        for p in status {
            let on_path = if p.peer == "openssl-enc" {
                openssl
            } else {
                !installed.is_empty()
            };
            assert_eq!(p.available, on_path, "{}: {}", p.peer, p.detail);
            if p.peer == "openssl-enc" && p.available {
                assert!(p.detail.contains("-chacha20"), "{}", p.detail);
            }
            let row = summary
                .rows
                .iter()
                .find(|r| r.peer && r.workload == w && r.implementation == p.peer);
            assert_eq!(row.is_some(), on_path, "{}: {}", p.peer, p.detail);
            if let Some(r) = row {
                assert_eq!(r.size_bytes, 1 << 20);
            }
        }
    }
    let md = std::fs::read_to_string(dir.path().join("summary.md")).unwrap();
    let section = md
        .split("## Authenticated encryption")
        .nth(1)
        .expect("the section");
    for w in ["age-encrypt", "age-decrypt"] {
        let rows = section
            .lines()
            .filter(|l| l.starts_with(&format!("| {w} | 1 MiB |")))
            .count();
        assert_eq!(rows, installed.len().max(1), "{md}");
    }
}

#[test]
fn hash_many_files_runs_beside_sha256sum_in_files_per_second() {
    use parcrypt_lab::workloads::{Unit, id};
    let dir = tempfile::tempdir().unwrap();
    let mut config = tiny(dir.path(), id::HASH_MANY_FILES);
    config.peers = true;
    config.sizes = None; // its own grid: files, not bytes (quick: 1000)
    let summary = run(&config).unwrap();
    let ours: Vec<_> = summary.rows.iter().filter(|r| !r.peer).collect();
    // seq, then static and steal at 1 and 2 threads: 1000 files each.
    assert!(ours.len() >= 3, "{ours:?}");
    for r in &ours {
        assert_eq!((r.unit, r.size_bytes, r.items), (Unit::Items("file"), 1000, 1000));
        assert!(r.ops_per_s > 0.0 && r.throughput_bps.is_nan(), "{r:?}");
    }
    // sha256sum on the same number of the same files, or absent with the reason.
    let present = common::require_tool("sha256sum");
    let status = summary
        .peers
        .iter()
        .find(|p| p.peer == "sha256sum")
        .expect("peer listed");
    assert_eq!(status.available, present, "{}", status.detail);
    assert!(
        status
            .detail
            .starts_with("sha256sum FILE… (1000 files of 4096 B)"),
        "{}",
        status.detail
    );
    let row = summary
        .rows
        .iter()
        .find(|r| r.peer && r.implementation == "sha256sum");
    assert_eq!(row.is_some(), present);
    if let Some(r) = row {
        assert!(r.items == 1000 && r.ops_per_s > 0.0, "{r:?}");
    }
}

#[test]
fn post_quantum_workloads_have_cells_limits_and_their_peers() {
    let dir = tempfile::tempdir().unwrap();
    // SLH-DSA-SHA2-128f's three operations, ML-DSA's batches, and the
    // SHA-256 kernels SLH-DSA's model counts compressions at.
    let mut config = tiny(dir.path(), "slh-dsa-*-sha2-128f,ml-dsa-*,sha256-many-*");
    config.peers = true;
    let summary = run(&config).unwrap();
    let ours = |w: &str| {
        summary
            .rows
            .iter()
            .filter(|r| r.workload == w && !r.peer)
            .collect::<Vec<_>>()
    };
    // seq + static×{1,2} + steal×{1,2}, at each size of the quick grid.
    for (w, sizes) in [
        ("slh-dsa-sign-sha2-128f", &[32][..]),
        ("slh-dsa-keygen-sha2-128f", &[32]),
        ("slh-dsa-verify-sha2-128f", &[1, 16]),
        ("ml-dsa-sign-batch", &[64]),
        ("ml-dsa-verify-batch", &[64]),
    ] {
        let rows = ours(w);
        assert_eq!(rows.len(), 5 * sizes.len(), "{w}");
        for r in rows {
            assert!(sizes.contains(&r.size_bytes), "{w}: {}", r.size_bytes);
            assert!(r.ops_per_s > 0.0 && r.throughput_bps.is_nan(), "{w}");
            // Every cell has its limit: SLH-DSA from the hash calls at the
            // SHA-256 kernels' rate, ML-DSA from its own seq cell.
            assert!(r.limit.limit_ops_per_s > 0.0, "{w}: {:?}", r.limit);
            assert!(r.limit.of_limit > 0.0, "{w}: {:?}", r.limit);
            let by = r.limit.limit_by.unwrap();
            assert!(["cores", "width"].contains(&by), "{w}: {by}");
            if r.threads == 1 || r.size_bytes == 1 {
                // One signature cannot use a second thread; one thread is one core.
                let expected = if r.threads > 1 { "width" } else { "cores" };
                assert_eq!(by, expected, "{w} {} {}", r.implementation, r.threads);
            }
        }
    }
    // Where the kernels ran, SLH-DSA's model used them (not its own cell).
    let kernels_ran = summary
        .rows
        .iter()
        .any(|r| r.workload.starts_with("sha256-many-"));
    assert!(kernels_ran, "the CPU has at least the portable sha2 backend");
    for m in summary
        .models
        .iter()
        .filter(|m| m.workload.starts_with("slh-dsa-"))
    {
        assert!(m.model.contains("SHA-256 compressions"), "{}", m.model);
        assert!(!m.own_cell_stood_in, "{}", m.workload);
    }
    // Peers: OpenSSL ≥ 3.5 (through Node.js) beside every workload, pyca
    // beside ML-DSA's, RustCrypto beside SLH-DSA's (always here: in-process).
    let node = crate::tools::node_openssl35().is_some();
    let pyca = common::require_tool("python3-cryptography-mldsa");
    for w in [
        "slh-dsa-sign-sha2-128f",
        "slh-dsa-keygen-sha2-128f",
        "slh-dsa-verify-sha2-128f",
        "ml-dsa-sign-batch",
        "ml-dsa-verify-batch",
    ] {
        let status: Vec<_> = summary.peers.iter().filter(|p| p.workload == w).collect();
        let names: Vec<_> = status.iter().map(|p| p.peer).collect();
        let (second, present) = if w.starts_with("ml-dsa") {
            ("pyca", pyca)
        } else {
            ("rustcrypto", true)
        };
        assert_eq!(names, ["openssl-3.5", second], "{w}");
        for (p, on_path) in status.iter().zip([node, present]) {
            assert_eq!(p.available, on_path, "{w} {}: {}", p.peer, p.detail);
            let row = summary.peer_row(w, p.peer);
            assert_eq!(row.is_some(), on_path, "{w} {}: {}", p.peer, p.detail);
            if let Some(r) = row {
                let largest = summary.largest_size(w).unwrap();
                assert_eq!(r.size_bytes, largest, "{w}");
                assert!(r.ops_per_s > 0.0 && r.speedup > 0.0, "{w} {}", p.peer);
            } else {
                assert!(
                    p.detail.contains("no Node.js") || p.detail.contains("python3"),
                    "{}",
                    p.detail
                );
            }
            if p.available && p.peer == "openssl-3.5" {
                assert!(
                    p.detail.contains("OpenSSL 3.") && p.detail.contains("timed inside"),
                    "{}",
                    p.detail
                );
            }
        }
    }
    // results.csv and results.json parse, with the new cells and their limits.
    let csv = std::fs::read_to_string(dir.path().join("results.csv")).unwrap();
    assert!(!csv.contains("NaN"), "{csv}");
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (unit, limit, of_limit) = (col("unit"), col("limit_ops_per_s"), col("of_limit"));
    let mut seen = 0;
    for line in lines {
        let r: Vec<&str> = line.split(',').collect();
        assert_eq!(r.len(), header.len(), "{line}");
        let expected = match r[0] {
            w if w.starts_with("slh-dsa-verify") || w.starts_with("ml-dsa") => "signatures",
            w if w.starts_with("slh-dsa") => "operation",
            _ => continue,
        };
        assert_eq!(r[unit], expected, "{line}");
        if r[col("peer")] == "false" {
            assert!(r[limit].parse::<f64>().unwrap() > 0.0, "{line}");
            assert!(r[of_limit].parse::<f64>().unwrap() > 0.0, "{line}");
            seen += 1;
        }
    }
    assert_eq!(seen, 5 * 6, "{csv}");
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("results.json")).unwrap()).unwrap();
    let rows = json["rows"].as_array().unwrap();
    assert!(
        rows.iter()
            .any(|r| r["workload"] == "slh-dsa-sign-sha2-128f" && r["limit_by"] == "cores")
    );
    let models = json["models"].as_array().unwrap();
    assert!(models.iter().any(|m| m["workload"] == "slh-dsa-verify-sha2-128f"
        && m["model"].as_str().unwrap().contains("SHA-256 compressions")));
}
