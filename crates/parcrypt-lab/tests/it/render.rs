//! The HTML report renders in a real browser: headless Chromium opens it
//! offline and takes a screenshot. Skipped, with a message, where Chromium is
//! not installed; a failure instead with `PARCRYPT_REQUIRE_TOOLS=1` (`.ci/run`
//! sets it and installs Debian's `chromium`).

use std::process::Command;

use parcrypt_lab::{LabConfig, run};

use crate::common;

#[test]
fn the_report_renders_in_headless_chromium() {
    if !common::require_tool("chromium") {
        return;
    }
    let browser = common::chromium().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let config = LabConfig {
        out_dir: dir.path().to_path_buf(),
        only: Some("aes-128-ctr,parc4-4kib".into()),
        sizes: Some(vec![1000, 100_000]),
        threads_list: Some(vec![1, 2]),
        repeats: Some(3),
        quick: true,
        peers: false,
        ceilings_cache: Some(common::ceilings_cache()),
        ..Default::default()
    };
    run(&config).unwrap();
    let report = dir.path().join("report.html");
    let shot = dir.path().join("report.png");
    let profile = dir.path().join("profile");
    // The flags keep Chromium off the (closed) network and out of any shared profile.
    let out = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--window-size=1200,3000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!("file://{}", report.display()))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "chromium failed: {stderr}");
    let png = std::fs::read(&shot).unwrap_or_else(|e| panic!("no screenshot ({e}): {stderr}"));
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    // A blank page compresses to a few KB; tables and charts do not.
    assert!(png.len() > 20_000, "screenshot is only {} bytes", png.len());
}
