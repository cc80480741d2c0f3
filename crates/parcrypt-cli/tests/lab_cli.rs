//! `parcrypt lab` as a user runs it: the real binary writes every output file.

#![allow(clippy::unwrap_used)]

mod common;

use common::{parcrypt, stderr};

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
    let run = parcrypt(&args, b"");
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
