//! Helpers shared by the lab's integration tests.
#![allow(dead_code)]

use std::process::{Command, Stdio};

/// Whether the external tool a test needs is here: `openssl`, `age` (age
/// with age-keygen, or rage with rage-keygen, as the lab looks for them),
/// `chromium` (or chromium-browser, google-chrome),
/// `python3-cryptography-cobblestone` (a `python3` whose `cryptography` has
/// `cobblestone`: pyca/cryptography 50 or later),
/// `python3-cryptography-mldsa` (one whose `cryptography` has
/// `hazmat.primitives.asymmetric.mldsa`: 50 or later), or any program that
/// answers `--version`.
///
/// Missing, the test skips or checks the tool is reported absent, with a
/// `SKIPPED` line on stderr; with `PARCRYPT_REQUIRE_TOOLS=1` (as `.ci/run`
/// sets) it fails instead, so CI proves every peer and interop test ran.
/// With `PARCRYPT_TOOLS_LOG=FILE`, appends `ran|skipped TOOL TEST` to FILE,
/// for CI's list of the tools that ran.
pub fn require_tool(tool: &str) -> bool {
    let present = match tool {
        "age" => parcrypt_lab::peers::find_age(std::env::var_os("PATH").as_deref()).is_ok(),
        "chromium" => chromium().is_some(),
        "openssl" => answers("openssl", &["version"]),
        "python3-cryptography-cobblestone" => answers("python3", &["-c", "import cryptography.cobblestone"]),
        "python3-cryptography-mldsa" => answers(
            "python3",
            &[
                "-c",
                "from cryptography.hazmat.primitives.asymmetric.mldsa import MLDSA65PrivateKey",
            ],
        ),
        program => answers(program, &["--version"]),
    };
    crate::tools::require(tool, present)
}

/// Whether `program args` runs and succeeds.
fn answers(program: &str, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The Chromium on PATH, by the names Debian, Ubuntu and Google give it.
pub fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|c| answers(c, &["--version"]))
}

/// The ceilings cache the lab's tests share (under cargo's temp directory
/// for integration tests, never the user's cache): measured by the first
/// test that runs the lab, reused by the others.
pub fn ceilings_cache() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("lab-ceilings.json")
}
