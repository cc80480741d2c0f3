//! `parcrypt lab` as a user runs it: the real binary writes every output
//! file. Built without the default feature `lab`
//! (`cargo test -p parcrypt-cli --no-default-features --test it lab_cli`, as
//! `.ci/run` does), the binary has no lab and says so.

#![allow(clippy::unwrap_used)]

use crate::common::{parcrypt, stderr};

#[cfg(feature = "lab")]
#[test]
fn a_short_lab_run_writes_every_output() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let args = [
        "lab",
        "--only",
        "aes-128-ctr",
        "--sizes",
        "1000,200KiB",
        "--threads-list",
        "1,2",
        "--repeats",
        "3",
        "--no-peers",
        "--out",
        out.to_str().unwrap(),
    ];
    // The ceilings cache in the test's directory, not the user's.
    let run = crate::common::run(
        std::process::Command::new(crate::common::bin())
            .args(args)
            .env("XDG_CACHE_HOME", dir.path()),
        b"",
    );
    assert!(run.status.success(), "{}", stderr(&run));
    let summary = String::from_utf8_lossy(&run.stdout);
    assert!(
        summary.contains("aes-128-ctr") && summary.contains("wrote"),
        "{summary}"
    );
    for file in [
        "results.csv",
        "results.json",
        "machine.json",
        "summary.md",
        "report.html",
    ] {
        assert!(out.join(file).metadata().unwrap().len() > 0, "{file}");
    }
    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    assert!(csv.starts_with("workload,impl,threads,size_bytes,repeats,median_s,mean_s,stddev_s,ci95_low_s,ci95_high_s,throughput_Bps,speedup"));
    assert_eq!(csv.lines().count(), 1 + 2 * 5);
    // Comparing a run with itself finds nothing to flag.
    let same = parcrypt(
        &["lab", "compare", out.to_str().unwrap(), out.to_str().unwrap()],
        b"",
    );
    assert!(same.status.success(), "{}", stderr(&same));
}

#[cfg(feature = "lab")]
#[test]
fn lab_usage_errors() {
    for args in [
        &["lab", "--only", "no-such-workload*", "--sizes", "10"][..],
        &["lab", "--threads-list", "0,2", "--sizes", "10"],
        &["lab", "--budget", "-1", "--sizes", "10"],
        &["lab", "--sizes", "ten"],
    ] {
        let out = parcrypt(args, b"");
        assert_ne!(out.status.code(), Some(0), "{args:?}");
        assert!(
            stderr(&out).starts_with("parcrypt: "),
            "{args:?}: {}",
            stderr(&out)
        );
    }
}

#[cfg(feature = "lab")]
#[test]
fn the_default_build_has_the_lab_and_writes_to_lab_out() {
    let help = parcrypt(&["--help"], b"");
    assert!(
        String::from_utf8_lossy(&help.stdout).contains("\n  lab "),
        "{}",
        String::from_utf8_lossy(&help.stdout)
    );
    // Without --out: lab-out/<UTC timestamp>/ in the working directory, the
    // lab library's default too.
    let dir = tempfile::tempdir().unwrap();
    let run = std::process::Command::new(crate::common::bin())
        .args(crate::common::LAB_TINY)
        .current_dir(dir.path())
        .env("XDG_CACHE_HOME", dir.path().join("cache"))
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", stderr(&run));
    let runs: Vec<_> = std::fs::read_dir(dir.path().join(parcrypt_lab::DEFAULT_OUT_DIR))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(runs.len(), 1, "{runs:?}");
    assert!(runs[0].join("results.csv").exists());
}

/// The ceilings are measured on the first run on a machine and cached
/// (`$XDG_CACHE_HOME/parcrypt/lab-ceilings.json`), read back on the next,
/// and measured again with `--remeasure`; each run's machine.json has them,
/// and results.csv the limit columns after the older ones.
#[cfg(feature = "lab")]
#[test]
fn the_ceilings_are_cached_per_machine_and_remeasure_refreshes_them() {
    let dir = tempfile::tempdir().unwrap();
    let cache_home = dir.path().join("cache");
    let cache = cache_home.join("parcrypt/lab-ceilings.json");
    let run = |name: &str, extra: &[&str]| -> serde_json::Value {
        let out = dir.path().join(name);
        let lab = std::process::Command::new(crate::common::bin())
            .args(crate::common::LAB_TINY)
            .args(extra)
            .arg("--out")
            .arg(&out)
            .env("XDG_CACHE_HOME", &cache_home)
            .output()
            .unwrap();
        assert!(lab.status.success(), "{}", stderr(&lab));
        let stdout = String::from_utf8_lossy(&lab.stdout);
        assert!(
            stdout.contains("ceilings (GB/s") && stdout.contains("of limit"),
            "{stdout}"
        );
        let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
        let header = csv.lines().next().unwrap();
        assert!(
            header.ends_with(",unit,limit_Bps,limit_ops_per_s,of_limit,limit_by"),
            "{header}"
        );
        let row: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
        assert!(row[24].parse::<f64>().unwrap() > 0.0, "{row:?}");
        assert_eq!(
            (row[26], row[27]),
            ("1.0000", "cores"),
            "seq is its own one-core limit"
        );
        serde_json::from_str(&std::fs::read_to_string(out.join("machine.json")).unwrap()).unwrap()
    };
    let first = run("first", &[]);
    assert!(cache.exists(), "{}", cache.display());
    assert!(first["ceilings"]["cached_in"].is_null(), "{}", first["ceilings"]);
    assert!(first["ceilings"]["memory_copy"]["all"].as_f64().unwrap() > 0.0);
    let second = run("second", &[]);
    assert_eq!(second["ceilings"]["cached_in"], cache.to_str().unwrap());
    assert_eq!(
        second["ceilings"]["measured_utc"],
        first["ceilings"]["measured_utc"]
    );
    assert_eq!(second["ceilings"]["pipe"], first["ceilings"]["pipe"]);
    let fresh = run("fresh", &["--remeasure"]);
    assert!(fresh["ceilings"]["cached_in"].is_null(), "{}", fresh["ceilings"]);
    // The cache now holds the fresh figures.
    let cached: serde_json::Value = serde_json::from_slice(&std::fs::read(&cache).unwrap()).unwrap();
    let key = cached.as_object().unwrap().keys().next().unwrap().clone();
    assert_eq!(cached[&key]["pipe"], fresh["ceilings"]["pipe"]);
    assert!(key.contains("threads") && key.contains("kernel"), "{key}");
}

/// The post-quantum workloads from the command line: their cells and
/// limits in results.csv and results.json, RustCrypto beside SLH-DSA, and
/// OpenSSL 3.5 listed absent with why when the Node.js named has none.
#[cfg(feature = "lab")]
#[test]
fn post_quantum_workloads_run_beside_their_peers_or_say_why_not() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let missing_node = dir.path().join("no-such-node");
    let lab = std::process::Command::new(crate::common::bin())
        .args([
            "lab",
            "--quick",
            "--only",
            "slh-dsa-sign-sha2-128f,slh-dsa-verify-sha2-128f,ml-dsa-verify-batch",
            "--threads-list",
            "1,2",
            "--repeats",
            "3",
            "--out",
        ])
        .arg(&out)
        .env("XDG_CACHE_HOME", dir.path().join("cache"))
        .env("PARCRYPT_NODE_OPENSSL35", &missing_node)
        .output()
        .unwrap();
    assert!(lab.status.success(), "{}", stderr(&lab));
    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let mut cells = std::collections::BTreeMap::<&str, usize>::new();
    for line in lines {
        let r: Vec<&str> = line.split(',').collect();
        if r[col("peer")] == "true" {
            continue;
        }
        *cells.entry(r[0]).or_default() += 1;
        assert!(r[col("limit_ops_per_s")].parse::<f64>().unwrap() > 0.0, "{line}");
        assert!(r[col("of_limit")].parse::<f64>().unwrap() > 0.0, "{line}");
        let unit = if r[0].starts_with("slh-dsa-sign") {
            "operation"
        } else {
            "signatures"
        };
        assert_eq!(r[col("unit")], unit, "{line}");
    }
    // seq + static×{1,2} + steal×{1,2}; verification at 1 and 16 signatures.
    let expected = [
        ("ml-dsa-verify-batch", 5),
        ("slh-dsa-sign-sha2-128f", 5),
        ("slh-dsa-verify-sha2-128f", 10),
    ];
    assert_eq!(cells.into_iter().collect::<Vec<_>>(), expected, "{csv}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    let peers = json["peers"].as_array().unwrap();
    let status = |workload: &str, peer: &str| {
        peers
            .iter()
            .find(|p| p["workload"] == workload && p["peer"] == peer)
            .unwrap_or_else(|| panic!("{workload} {peer}: {peers:?}"))
    };
    for w in [
        "slh-dsa-sign-sha2-128f",
        "slh-dsa-verify-sha2-128f",
        "ml-dsa-verify-batch",
    ] {
        let openssl = status(w, "openssl-3.5");
        assert_eq!(openssl["available"], false, "{openssl}");
        let why = openssl["detail"].as_str().unwrap();
        assert!(
            why.contains("no Node.js") && why.contains("no-such-node"),
            "{why}"
        );
    }
    for w in ["slh-dsa-sign-sha2-128f", "slh-dsa-verify-sha2-128f"] {
        assert_eq!(status(w, "rustcrypto")["available"], true);
    }
    let pyca = status("ml-dsa-verify-batch", "pyca");
    assert_eq!(
        pyca["available"],
        crate::common::require_tool("python3-cryptography-mldsa"),
        "{pyca}"
    );
    let md = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(
        md.contains("| slh-dsa-sign-sha2-128f | rustcrypto (32 B) |"),
        "{md}"
    );
    assert!(
        md.contains("| slh-dsa-sign-sha2-128f | openssl-3.5 | absent: no Node.js"),
        "{md}"
    );
}

#[cfg(not(feature = "lab"))]
#[test]
fn without_the_lab_feature_lab_is_a_usage_error_that_says_why() {
    for args in [&["lab", "--quick"][..], &["lab", "compare", "a", "b"]] {
        let out = parcrypt(args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.starts_with("parcrypt: this parcrypt was built without the lab") && err.contains("hint: "),
            "{args:?}: {err}"
        );
        assert!(out.stdout.is_empty());
    }
    // Not offered in the help.
    let help = parcrypt(&["--help"], b"");
    assert!(help.status.success());
    assert!(
        !String::from_utf8_lossy(&help.stdout).contains("\n  lab "),
        "{}",
        String::from_utf8_lossy(&help.stdout)
    );
}
