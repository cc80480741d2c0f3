//! The one rule for tests that need an external tool, shared by every
//! crate's integration tests (the CLI's and the lab's include this file by
//! path).

use std::io::Write;

/// `present`, after reporting on it: a missing `tool` panics when
/// `PARCRYPT_REQUIRE_TOOLS` is set (to anything but `0`, as `.ci/run` sets
/// it), else prints which test skipped, past the harness's capture. With
/// `PARCRYPT_TOOLS_LOG=FILE`, appends `ran|skipped TOOL TEST` to FILE, for
/// CI's list of the interop tools that ran.
pub fn require(tool: &str, present: bool) -> bool {
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("?");
    let verdict = if present { "ran" } else { "skipped" };
    if let Some(log) = std::env::var_os("PARCRYPT_TOOLS_LOG") {
        let line = format!("{verdict}\t{tool}\t{test}\n");
        let _ = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)
            .and_then(|mut f| f.write_all(line.as_bytes()));
    }
    if !present {
        let required = std::env::var_os("PARCRYPT_REQUIRE_TOOLS").is_some_and(|v| !v.is_empty() && v != "0");
        assert!(
            !required,
            "{test}: {tool} is missing and PARCRYPT_REQUIRE_TOOLS is set (install it: see .ci/run)"
        );
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED {test}: {tool} is missing (PARCRYPT_REQUIRE_TOOLS=1 makes this a failure)"
        );
    }
    present
}
