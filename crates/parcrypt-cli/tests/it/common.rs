//! Running the real `parcrypt` binary and the `openssl` CLI.
#![allow(dead_code, clippy::unwrap_used)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The `parcrypt` binary under test, as a program to run.
///
/// Natively, the binary cargo built. When cargo runs the tests through a
/// runner for their target (`CARGO_TARGET_<TRIPLE>_RUNNER`, e.g.
/// `qemu-aarch64 -L /usr/aarch64-linux-gnu` for aarch64 tests on an x86-64
/// machine: `scripts/test-aarch64.sh`), a two-line shell script beside the
/// tests' scratch files that `exec`s the same runner with the binary: every
/// test then runs the binary as cargo runs the tests, also those that hand
/// it to `sh -c` or `ulimit … && exec`, and signals sent to the child reach
/// the binary (qemu passes them on).
pub fn bin() -> &'static str {
    static PROGRAM: OnceLock<String> = OnceLock::new();
    PROGRAM.get_or_init(|| {
        let binary = env!("CARGO_BIN_EXE_parcrypt");
        let Some((var, runner)) = runner() else {
            return binary.to_owned();
        };
        // Cargo splits an environment runner on whitespace; so does this.
        let quote = |word: &str| format!("'{}'", word.replace('\'', r"'\''"));
        let words: Vec<String> = runner.split_whitespace().chain([binary]).map(quote).collect();
        let script = format!("#!/bin/sh\nexec {} \"$@\"\n", words.join(" "));
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
        let path = dir.join("parcrypt-via-runner");
        // Written under a name of this process, then renamed: test binaries
        // running side by side never see a half-written script.
        let part = dir.join(format!("parcrypt-via-runner.{}", std::process::id()));
        write_executable(&part, &script);
        std::fs::rename(&part, &path).unwrap();
        eprintln!("parcrypt under test: {binary} through {var}={runner}");
        path.to_str().unwrap().to_owned()
    })
}

/// Cargo's runner for the target these tests were built for, when set in
/// the environment: (`CARGO_TARGET_<TRIPLE>_RUNNER`, its value).
fn runner() -> Option<(String, String)> {
    let target = env!("PARCRYPT_CLI_TARGET");
    let var = format!(
        "CARGO_TARGET_{}_RUNNER",
        target.to_ascii_uppercase().replace(['-', '.'], "_")
    );
    let value = std::env::var(&var).ok()?;
    (!value.trim().is_empty()).then_some((var, value))
}

/// Writes `text` to `path`, mode 0755, through a child `sh`: this process
/// never opens an executable for writing, so no child another test forks
/// meanwhile holds that descriptor when the file is started ("Text file
/// busy", ETXTBSY, seen once in CI with the library's plugin scripts).
pub fn write_executable(path: &Path, text: &str) {
    let mut sh = Command::new("sh")
        .args(["-c", r#"cat > "$1" && chmod 755 "$1""#, "sh"])
        .arg(path)
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    sh.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
    assert!(sh.wait().unwrap().success(), "writing {}", path.display());
}

/// Whether the tests run under emulation: `scripts/test-aarch64.sh` sets
/// `PARCRYPT_EMULATED=1` for its runs under qemu-user, where every start of
/// the binary is translated anew (about half a second). Tests whose cost is
/// the number of runs of the binary take a cross-section there (each says
/// which); the native run does them in full.
pub fn emulated() -> bool {
    std::env::var_os("PARCRYPT_EMULATED").is_some()
}

/// How to bound the address space of the `parcrypt` that [`bin`] runs, when
/// `RLIMIT_AS` cannot: `Some(variable)` under qemu-user, which ignores a
/// guest's own memory limits (they would bound the emulator's allocations
/// too) and itself needs about 300 MiB of address space before the guest
/// runs, so a `ulimit -v` of a few hundred MiB stops qemu, not parcrypt.
/// qemu's `QEMU_RESERVED_VA=BYTES` (its `-R`) instead gives the guest an
/// address space of exactly that size, holding what `RLIMIT_AS` counts
/// natively: the binary, its libraries, stacks, heap and every map.
/// `None` natively (and under any other runner): set `RLIMIT_AS`.
pub fn emulator_address_space_var() -> Option<&'static str> {
    let (_, runner) = runner()?;
    runner
        .split_whitespace()
        .any(|word| {
            Path::new(word)
                .file_name()
                .is_some_and(|f| f.to_string_lossy().starts_with("qemu-"))
        })
        .then_some("QEMU_RESERVED_VA")
}

/// The smallest whole lab run: one workload, one size, one thread, one
/// repeat, no peers (add `--out DIR` or run it in a scratch directory).
pub const LAB_TINY: [&str; 10] = [
    "lab",
    "--only",
    "aes-128-ctr",
    "--sizes",
    "1000",
    "--threads-list",
    "1",
    "--repeats",
    "1",
    "--no-peers",
];

/// Runs parcrypt with `args`, feeding `stdin`.
pub fn parcrypt(args: &[&str], stdin: &[u8]) -> Output {
    run(Command::new(bin()).args(args), stdin)
}

/// Runs `openssl enc <args>`, feeding `stdin`.
pub fn openssl_enc(args: &[&str], stdin: &[u8]) -> Output {
    run(Command::new("openssl").arg("enc").args(args), stdin)
}

/// Runs `cmd`, feeding `stdin`, and collects both output streams.
pub fn run(cmd: &mut Command, stdin: &[u8]) -> Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    // A writer thread, so a child that exits early (or fills stdout) cannot deadlock us.
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

/// Whether the external tool an interop test needs is here: `openssl`,
/// `python3-cryptography`, `/dev/full`, or any program that answers
/// `--version`.
///
/// Missing, the test skips (returns early on `false`) with a `SKIPPED` line
/// on stderr; with `PARCRYPT_REQUIRE_TOOLS=1` (as `.ci/run` sets) it fails
/// instead, so CI proves every interop test ran. See [`require`].
pub fn require_tool(tool: &str) -> bool {
    let probe: &[&str] = match tool {
        "openssl" => &["openssl", "version"],
        "python3-cryptography" => &[
            "python3",
            "-c",
            "import cryptography.hazmat.primitives.ciphers.aead",
        ],
        "python3-cryptography-mldsa" => &[
            "python3",
            "-c",
            "from cryptography.hazmat.primitives.asymmetric.mldsa import MLDSA65PrivateKey",
        ],
        "/dev/full" => &["test", "-c", "/dev/full"],
        // dash, Debian's sh, has no --version.
        "sh" => &["sh", "-c", "true"],
        program => &[program, "--version"],
    };
    let present = Command::new(probe[0])
        .args(&probe[1..])
        .stdin(Stdio::null())
        .output()
        .is_ok_and(|o| o.status.success());
    require(tool, present)
}

pub use crate::tools::require;

/// Runs `script` in the Node.js whose `crypto` is OpenSSL 3.5
/// ([`crate::tools::node_openssl35`]) with `args` (its
/// `process.argv.slice(1)`), and asserts that it succeeded.
pub fn node_script(node: &str, script: &str, args: &[&str]) {
    let out = Command::new(node)
        .args(["-e", script])
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "node {args:?}: {:?} {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}

/// OpenSSL's key pair (`ossl.pem`, `ossl.pub` in `dir`) read by `parcrypt
/// FAMILY`: `pubkey` of the private key is OpenSSL's public key, and
/// `convert` writes OpenSSL's private key back, byte for byte.
pub fn reads_openssl_keys_back(family: &str, dir: &Path) {
    let d = |n: &str| dir.join(n);
    ok(&parcrypt(
        &[
            family,
            "pubkey",
            "-i",
            p(&d("ossl.pem")),
            "-o",
            p(&d("again.pub")),
        ],
        b"",
    ));
    assert_eq!(
        std::fs::read(d("again.pub")).unwrap(),
        std::fs::read(d("ossl.pub")).unwrap(),
        "{family} pubkey"
    );
    ok(&parcrypt(
        &[
            family,
            "convert",
            "-i",
            p(&d("ossl.pem")),
            "-o",
            p(&d("conv.pem")),
        ],
        b"",
    ));
    assert_eq!(
        std::fs::read(d("conv.pem")).unwrap(),
        std::fs::read(d("ossl.pem")).unwrap(),
        "{family} convert"
    );
}

/// Writes `count` messages `m0`, `m1` … in `dir` (message i: `i * step`
/// bytes of value i) and a `--list` file `list` of `MSGFILE SIGFILE` lines
/// naming them with signature files `s0`, `s1` …; returns the list.
pub fn batch_list(dir: &Path, count: usize, step: usize) -> std::path::PathBuf {
    let mut list = String::new();
    for i in 0..count {
        let msg = dir.join(format!("m{i}"));
        std::fs::write(&msg, vec![i as u8; i * step]).unwrap();
        list.push_str(&format!("{} {}\n", p(&msg), p(&dir.join(format!("s{i}")))));
    }
    let path = dir.join("list");
    std::fs::write(&path, list).unwrap();
    path
}

/// A batch command's stdout: one line per list entry, in list order, each
/// ending `: OK` but those at `failing`, which end `: FAIL`.
pub fn batch_lines(out: &Output, count: usize, failing: &[usize]) {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), count, "{stdout}");
    for (i, line) in lines.iter().enumerate() {
        let want = if failing.contains(&i) { ": FAIL" } else { ": OK" };
        assert!(line.ends_with(want), "entry {i}: {line}");
    }
}

/// `parcrypt FAMILY sign-batch` of a [`batch_list`] of `count` messages
/// with `key`, then, message 7 changed, `verify-batch` with `public` on
/// each of `threads`: every entry is signed, and every signature but
/// message 7's verifies, in list order. `options` go to both commands.
pub fn sign_and_verify_batch(
    family: &str,
    (key, public): (&Path, &Path),
    (count, step): (usize, usize),
    options: &[&str],
    threads: &[&str],
) {
    let dir = key.parent().unwrap();
    let list = batch_list(dir, count, step);
    let sign = [
        &[family, "sign-batch", "--key", p(key), "--list", p(&list)][..],
        options,
    ]
    .concat();
    let out = parcrypt(&sign, b"");
    ok(&out);
    batch_lines(&out, count, &[]);
    std::fs::write(dir.join("m7"), b"changed").unwrap();
    for threads in threads {
        let verify = [
            &[
                "--threads",
                threads,
                family,
                "verify-batch",
                "--pub",
                p(public),
                "--list",
                p(&list),
            ][..],
            options,
        ]
        .concat();
        let out = parcrypt(&verify, b"");
        fails(&out, 1, &format!("1 of {count} signatures did not verify"));
        batch_lines(&out, count, &[7]);
    }
}

pub fn data(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i % 251) as u8).collect()
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Names of the entries of `dir`.
pub fn entries(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// A path as a command-line argument.
pub fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Runs `openssl <args>`.
pub fn openssl(args: &[&str]) -> Output {
    Command::new("openssl").args(args).output().unwrap()
}

/// `case: ` before an assertion message, so that a failing row of a table
/// of cases names itself; nothing for a test of one case.
fn named(case: &str) -> String {
    if case.is_empty() {
        String::new()
    } else {
        format!("{case}: ")
    }
}

/// Asserts success, showing both streams otherwise.
pub fn ok(out: &Output) -> &Output {
    ok_in("", out)
}

/// [`ok`], naming `case` (a row of a table) when it fails.
pub fn ok_in<'a>(case: &str, out: &'a Output) -> &'a Output {
    assert!(
        out.status.success(),
        "{}status {:?}\nstdout: {}\nstderr: {}",
        named(case),
        out.status,
        String::from_utf8_lossy(&out.stdout),
        stderr(out)
    );
    out
}

/// [`ok`], and nothing on standard error: for the commands that print no
/// progress, warning or note when they succeed (`encrypt`, `decrypt`).
pub fn ok_quietly(out: &Output) -> &Output {
    ok_quietly_in("", out)
}

/// [`ok_quietly`], naming `case` when it fails.
pub fn ok_quietly_in<'a>(case: &str, out: &'a Output) -> &'a Output {
    ok_in(case, out);
    assert!(out.stderr.is_empty(), "{}{}", named(case), stderr(out));
    out
}

/// Asserts a clean failure: `status`, a `parcrypt:` message holding
/// `needle`, a `  hint:` line under it, no panic.
pub fn fails(out: &Output, status: i32, needle: &str) {
    fails_in("", out, status, needle);
}

/// [`fails`], naming `case` (a row of a table) when it does not hold.
pub fn fails_in(case: &str, out: &Output, status: i32, needle: &str) {
    let err = stderr(out);
    let case = named(case);
    assert_eq!(out.status.code(), Some(status), "{case}{err}");
    assert!(err.starts_with("parcrypt: "), "{case}{err}");
    assert!(err.contains(needle), "{case}wanted {needle:?} in {err}");
    assert!(err.contains("\n  hint: "), "{case}no hint in {err}");
    assert!(!err.contains("panicked"), "{case}{err}");
}

/// [`fails`], and nothing on standard output: for failures found before
/// any output is due.
pub fn fails_with_no_output(out: &Output, status: i32, needle: &str) {
    fails_with_no_output_in("", out, status, needle);
}

/// [`fails_with_no_output`], naming `case` when it does not hold.
pub fn fails_with_no_output_in(case: &str, out: &Output, status: i32, needle: &str) {
    fails_in(case, out, status, needle);
    let len = out.stdout.len();
    assert!(out.stdout.is_empty(), "{}{len} bytes on stdout", named(case));
}

/// A usage error (exit 2), found by the argument parser or by the command
/// (only the command's come with a hint; see [`fails`]): a `parcrypt:`
/// message holding `needle`, no panic, nothing on standard output.
pub fn usage(out: &Output, needle: &str) {
    usage_in("", out, needle);
}

/// [`usage`], naming `case` (a row of a table) when it does not hold.
pub fn usage_in(case: &str, out: &Output, needle: &str) {
    let err = stderr(out);
    let case = named(case);
    assert_eq!(out.status.code(), Some(2), "{case}{err}");
    assert!(err.starts_with("parcrypt: "), "{case}{err}");
    assert!(err.contains(needle), "{case}wanted {needle:?} in {err}");
    assert!(!err.contains("panicked"), "{case}{err}");
    assert!(out.stdout.is_empty(), "{case}output on stdout");
}

/// Runs `cmd` without input, as [`answer_within`].
pub fn within(cmd: &mut Command, secs: u64) -> Output {
    let child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    answer_within(child, secs)
}

/// Waits for `child`: a hang watchdog, not a speed goal — after `secs`
/// (far above any normal run, emulated ones included) the child is killed
/// and the test fails, instead of waiting for ever.
pub fn answer_within(mut child: std::process::Child, secs: u64) -> Output {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(secs) {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!("no answer within {secs} s; stderr: {}", stderr(&out));
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    child.wait_with_output().unwrap()
}
