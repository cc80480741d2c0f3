//! `parcrypt age` and `parcrypt age keygen` run as a binary: round trips
//! for every recipient type on 1 and 4 threads, through files and pipes,
//! binary and armored; interop both ways with the `age` / `age-keygen` CLIs
//! (X25519, SSH Ed25519 and RSA keys, passphrases typed on a pseudo-terminal
//! by `tests/tools/pty_drive.py`); age's flag rules and exit status; keygen's
//! format and file mode; hostile files (cut, flipped, extended) failing with
//! exit 1 and no output file; `--range`; `parcrypt decrypt` naming age
//! files. Tools missing: the interop tests skip, or fail under
//! `PARCRYPT_REQUIRE_TOOLS=1`.

#![allow(clippy::unwrap_used)]

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::{bin, data, entries, fails_in, ok, ok_in, p, parcrypt, require_tool, run, stderr};

const CHUNK: usize = 64 << 10;
const SIZES: [usize; 6] = [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK + 5];
const PTY_DRIVE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/tools/pty_drive.py");

/// A scratch directory: keys at the top, outputs in `out/` (so that "nothing
/// left behind" is `out/` holding exactly what it held).
pub(crate) struct Dir {
    dir: tempfile::TempDir,
}

impl Dir {
    pub(crate) fn new() -> Dir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("out")).unwrap();
        Dir { dir }
    }

    pub(crate) fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    pub(crate) fn out(&self, name: &str) -> PathBuf {
        self.dir.path().join("out").join(name)
    }

    pub(crate) fn write(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let path = self.path(name);
        std::fs::write(&path, bytes).unwrap();
        path
    }

    pub(crate) fn out_entries(&self) -> Vec<String> {
        entries(&self.dir.path().join("out"))
    }
}

/// A new key file from `parcrypt age keygen` and its public key.
pub(crate) fn keygen(dir: &Dir, name: &str, pq: bool) -> (PathBuf, String) {
    let path = dir.path(name);
    let mut args = vec!["age", "keygen", "-o", p(&path)];
    if pq {
        args.push("--pq");
    }
    let out = parcrypt(&args, b"");
    ok(&out);
    let public = stderr(&out)
        .trim()
        .strip_prefix("Public key: ")
        .unwrap()
        .to_owned();
    (path, public)
}

/// `parcrypt age ARGS` with `stdin`; its stdout, after checking it succeeded quietly.
fn age_ok(case: &str, args: &[&str], stdin: &[u8]) -> Vec<u8> {
    let argv = [&["age"][..], args].concat();
    let out = parcrypt(&argv, stdin);
    ok_in(case, &out);
    assert!(out.stderr.is_empty(), "{case}: {}", stderr(&out));
    out.stdout
}

/// Runs `program args` with `stdin`.
fn tool(program: &str, args: &[&str], stdin: &[u8]) -> Output {
    run(Command::new(program).args(args), stdin)
}

fn tool_ok(case: &str, program: &str, args: &[&str], stdin: &[u8]) -> Vec<u8> {
    let out = tool(program, args, stdin);
    assert!(
        out.status.success(),
        "{case}: {program} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
fn age_round_trips_every_recipient_type_on_1_and_4_threads() {
    let dir = Dir::new();
    let (x_key, x_pub) = keygen(&dir, "x.txt", false);
    let (pq_key, pq_pub) = keygen(&dir, "pq.txt", true);
    let (other_key, other_pub) = keygen(&dir, "other.txt", false);
    let recipients = dir.write(
        "recipients.txt",
        format!("# team\n{x_pub}\n\n{other_pub}\n").as_bytes(),
    );
    for len in SIZES {
        let plain = data(len);
        for threads in ["1", "4"] {
            let t = ["--threads", threads];
            let cases: [(&str, Vec<&str>, &Path); 4] = [
                ("-r x25519", vec!["-r", &x_pub], &x_key),
                ("-r pq", vec!["-r", &pq_pub], &pq_key),
                ("-R file", vec!["-R", p(&recipients)], &other_key),
                ("-e -i", vec!["-e", "-i", p(&x_key)], &x_key),
            ];
            for (name, enc, key) in cases {
                for armor in [false, true] {
                    let case = format!("{name} armor={armor} len={len} threads={threads}");
                    let mut args = [&t[..], &enc].concat();
                    if armor {
                        args.push("-a");
                    }
                    let sealed = age_ok(&case, &args, &plain);
                    assert_eq!(
                        sealed.starts_with(b"-----BEGIN AGE ENCRYPTED FILE-----"),
                        armor,
                        "{case}"
                    );
                    let opened = age_ok(&case, &[&t[..], &["-d", "-i", p(key)]].concat(), &sealed);
                    assert!(opened == plain, "{case}");
                }
            }
        }
    }
}

#[test]
fn age_files_in_and_out_with_identity_files_from_stdin_and_comments() {
    let dir = Dir::new();
    let (key, public) = keygen(&dir, "key.txt", false);
    let plain = data(3 * CHUNK + 1);
    let input = dir.write("plain", &plain);
    let sealed = dir.out("sealed.age");
    ok(&parcrypt(
        &["age", "-r", &public, "-o", p(&sealed), p(&input)],
        b"",
    ));
    // Identity files: several keys, comments, CRLF, from stdin with `-i -`.
    let (second, _) = keygen(&dir, "second.txt", true);
    let text = std::fs::read_to_string(&second).unwrap()
        + "\r\n# mine\r\n"
        + &std::fs::read_to_string(&key).unwrap();
    let opened = age_ok("-i -", &["-d", "-i", "-", p(&sealed)], text.as_bytes());
    assert!(opened == plain);
    // `-o` a file, `-` for stdin, `-o -` for stdout.
    let restored = dir.out("restored");
    ok(&parcrypt(
        &["age", "-d", "-i", p(&key), "-o", p(&restored), "-"],
        &std::fs::read(&sealed).unwrap(),
    ));
    assert!(std::fs::read(&restored).unwrap() == plain);
    let opened = age_ok("-o -", &["-d", "-i", p(&key), "-o", "-", p(&sealed)], b"");
    assert!(opened == plain);
    // stdin for two things at once is refused, as age does.
    let out = parcrypt(&["age", "-d", "-i", "-"], b"");
    fails_in(
        "stdin twice",
        &out,
        1,
        "standard input is used for multiple purposes",
    );
    // An existing output is kept unless --force.
    let out = parcrypt(&["age", "-d", "-i", p(&key), "-o", p(&restored), p(&sealed)], b"");
    fails_in("exists", &out, 1, "exists");
    ok(&parcrypt(
        &[
            "age",
            "-d",
            "-i",
            p(&key),
            "--force",
            "-o",
            p(&restored),
            p(&sealed),
        ],
        b"",
    ));
    assert_eq!(dir.out_entries(), ["restored", "sealed.age"]);
}

#[test]
fn age_keygen_writes_age_keygens_format_mode_0600_and_never_replaces_silently() {
    let dir = Dir::new();
    for pq in [false, true] {
        let name = if pq { "pq.txt" } else { "x.txt" };
        let (path, public) = keygen(&dir, name, pq);
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{name}");
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        assert!(
            lines[0].starts_with("# created: 20") && lines[0].ends_with('Z'),
            "{text}"
        );
        assert_eq!(lines[1], format!("# public key: {public}"));
        let (prefix, secret) = if pq {
            ("age1pq1", "AGE-SECRET-KEY-PQ-1")
        } else {
            ("age1", "AGE-SECRET-KEY-1")
        };
        assert!(
            public.starts_with(prefix) && lines[2].starts_with(secret),
            "{text}"
        );
        // -y: from the file, and from stdin.
        let y = age_ok("-y FILE", &["keygen", "-y", p(&path)], b"");
        assert_eq!(String::from_utf8(y).unwrap(), format!("{public}\n"));
        let y = age_ok("-y stdin", &["keygen", "-y"], text.as_bytes());
        assert_eq!(String::from_utf8(y).unwrap(), format!("{public}\n"));
        // Never replaced without --force, as age-keygen.
        let out = parcrypt(&["age", "keygen", "-o", p(&path)], b"");
        fails_in(name, &out, 1, "exists");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        ok(&parcrypt(&["age", "keygen", "--force", "-o", p(&path)], b""));
        assert_ne!(std::fs::read_to_string(&path).unwrap(), text);
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{name} replaced");
    }
    // To a pipe: the key on stdout, the public key also on stderr (age-keygen).
    let out = parcrypt(&["age", "keygen"], b"");
    ok(&out);
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    let public = stderr(&out)
        .trim()
        .strip_prefix("Public key: ")
        .unwrap()
        .to_owned();
    assert!(text.contains(&format!("# public key: {public}\n")), "{text}");
    // age-keygen's refusals.
    fails_in(
        "-pq -y",
        &parcrypt(&["age", "keygen", "--pq", "-y"], b""),
        1,
        "--pq cannot be used with -y",
    );
    fails_in(
        "input",
        &parcrypt(&["age", "keygen", "file"], b""),
        1,
        "too many arguments",
    );
    let bad = parcrypt(&["age", "keygen", "-y"], b"age1notakey\n");
    fails_in("-y recipient", &bad, 1, "failed to parse input");
}

#[test]
fn age_flag_rules_are_ages_with_exit_status_1() {
    let dir = Dir::new();
    let (key, public) = keygen(&dir, "key.txt", false);
    let k = p(&key);
    let cases: [(&[&str], &str); 14] = [
        (&["-d", "-e"], "-e/--encrypt can't be used with -d/--decrypt"),
        (
            &["-d", "-a", "-i", k],
            "-a/--armor can't be used with -d/--decrypt",
        ),
        (&["-d", "-p"], "-p/--passphrase can't be used with -d/--decrypt"),
        (
            &["-d", "-r", &public],
            "-r/--recipient can't be used with -d/--decrypt",
        ),
        (
            &["-d", "-R", k],
            "-R/--recipients-file can't be used with -d/--decrypt",
        ),
        (
            &["-i", k],
            "-i/--identity and -j can't be used in encryption mode",
        ),
        (
            &["-j", "batchpass"],
            "-i/--identity and -j can't be used in encryption mode",
        ),
        (
            &["-p", "-e", "-j", "batchpass"],
            "-p/--passphrase can't be combined with -i/--identity and -j",
        ),
        (&[], "missing recipients"),
        (
            &["-p", "-r", &public],
            "-p/--passphrase can't be combined with -r/--recipient",
        ),
        (
            &["-p", "-e", "-i", k],
            "-p/--passphrase can't be combined with -i/--identity",
        ),
        (&["-r", &public, "a", "b"], "too many INPUT arguments"),
        (&["-r", "age1notakey"], "age1notakey"),
        (
            &["-r", &public, "--range", "0:1"],
            "--range can only be used with -d/--decrypt",
        ),
    ];
    for (args, needle) in cases {
        let argv = [&["age"][..], args].concat();
        let out = parcrypt(&argv, b"");
        fails_in(&format!("{args:?}"), &out, 1, needle);
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    // A recipients file holding a secret key names the line, never the key.
    let out = parcrypt(&["age", "-R", k], b"");
    fails_in("-R secret", &out, 1, "apparent identity");
    assert!(!stderr(&out).contains("AGE-SECRET-KEY-1"), "{}", stderr(&out));
    // Unknown flags are clap's usage errors (age's flag package exits 2 too).
    let out = parcrypt(&["age", "--no-such-flag"], b"");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    // Mixing post-quantum and classic recipients is refused, as age refuses it.
    let (_, pq) = keygen(&dir, "pq.txt", true);
    fails_in(
        "mixed",
        &parcrypt(&["age", "-r", &public, "-r", &pq], b""),
        1,
        "can't be mixed",
    );
    // A file encrypted to others.
    let (_, other) = keygen(&dir, "other.txt", false);
    let sealed = age_ok("other", &["-r", &other], b"secret");
    fails_in(
        "no match",
        &parcrypt(&["age", "-d", "-i", k], &sealed),
        1,
        "no identity matched",
    );
    // Not an age file.
    fails_in(
        "not age",
        &parcrypt(&["age", "-d", "-i", k], b"hello world"),
        1,
        "not an age file",
    );
}

#[test]
fn age_hostile_files_fail_with_exit_1_and_leave_no_output() {
    let dir = Dir::new();
    let (key, public) = keygen(&dir, "key.txt", false);
    let plain = data(3 * CHUNK + 100);
    let sealed = age_ok("seal", &["-r", &public], &plain);
    let header = sealed.windows(4).position(|w| w == b"\n---").unwrap() + 1;
    let header = header + sealed[header..].iter().position(|&b| b == b'\n').unwrap() + 1;
    let payload = header + 16;
    let mut cases: Vec<(String, Vec<u8>, &str)> = Vec::new();
    for cut in [
        10,
        header - 3,
        header,
        payload,
        payload + 100,
        payload + CHUNK + 16,
        sealed.len() - 1,
    ] {
        let needle = if cut < payload { "header" } else { "" };
        cases.push((format!("cut at {cut}"), sealed[..cut].to_vec(), needle));
    }
    for at in [
        5,
        header - 10,
        payload + 3,
        payload + CHUNK + 16 + 7,
        sealed.len() - 3,
    ] {
        let mut flipped = sealed.clone();
        flipped[at] ^= 0x20;
        cases.push((format!("flip at {at}"), flipped, ""));
    }
    let mut extended = sealed.clone();
    extended.extend_from_slice(b"trailing");
    // The last chunk, longer: it no longer verifies (as age reports it).
    cases.push(("trailing data".into(), extended, "chunk"));
    let mut swapped = sealed.clone();
    let (a, b) = (payload, payload + CHUNK + 16);
    let first = sealed[a..b].to_vec();
    swapped.copy_within(b..b + CHUNK + 16, a);
    swapped[b..b + CHUNK + 16].copy_from_slice(&first);
    cases.push(("swapped chunks".into(), swapped, "chunk"));
    for (case, file, needle) in &cases {
        let input = dir.write("hostile.age", file);
        let target = dir.out("plain");
        for threads in ["1", "4"] {
            let out = parcrypt(
                &[
                    "--threads",
                    threads,
                    "age",
                    "-d",
                    "-i",
                    p(&key),
                    "-o",
                    p(&target),
                    p(&input),
                ],
                b"",
            );
            fails_in(case, &out, 1, needle);
            assert!(out.stdout.is_empty(), "{case}");
            assert!(dir.out_entries().is_empty(), "{case}: {:?}", dir.out_entries());
        }
    }
    // An armored file with one character changed.
    let armored = age_ok("armor", &["-a", "-r", &public], &plain);
    let mut bad = armored.clone();
    let at = armored.len() / 2;
    bad[at] = if bad[at] == b'A' { b'B' } else { b'A' };
    let input = dir.write("bad.asc", &bad);
    let out = parcrypt(
        &["age", "-d", "-i", p(&key), "-o", p(&dir.out("plain")), p(&input)],
        b"",
    );
    fails_in("armor flip", &out, 1, "");
    assert!(dir.out_entries().is_empty());
}

#[test]
fn age_range_decrypts_only_the_bytes_asked_for() {
    let dir = Dir::new();
    let (key, public) = keygen(&dir, "key.txt", false);
    let plain = data(5 * CHUNK + 17);
    let input = dir.write("plain", &plain);
    for armor in [false, true] {
        let sealed = dir.path(if armor { "f.asc" } else { "f.age" });
        let mut args = vec!["age", "-r", &public, "-o", p(&sealed), p(&input)];
        if armor {
            args.push("-a");
        }
        ok(&parcrypt(&args, b""));
        let n = plain.len() as u64;
        for (start, len) in [
            (0, 0),
            (0, 1),
            (CHUNK as u64 - 1, 2),
            (CHUNK as u64, CHUNK as u64),
            (100, 4 * CHUNK as u64),
            (n - 1, 1),
            (0, n),
        ] {
            let range = format!("{start}:{len}");
            let case = format!("armor={armor} {range}");
            let got = age_ok(&case, &["-d", "-i", p(&key), "--range", &range, p(&sealed)], b"");
            assert!(got == plain[start as usize..(start + len) as usize], "{case}");
        }
        let beyond = format!("{}:2", n - 1);
        let out = parcrypt(
            &[
                "age",
                "-d",
                "-i",
                p(&key),
                "--range",
                &beyond,
                "-o",
                p(&dir.out("x")),
                p(&sealed),
            ],
            b"",
        );
        fails_in("beyond", &out, 1, "beyond the end");
        assert!(dir.out_entries().is_empty());
    }
    // From a pipe there is nothing to seek: a usage error.
    let sealed = std::fs::read(dir.path("f.age")).unwrap();
    let out = parcrypt(&["age", "-d", "-i", p(&key), "--range", "0:1"], &sealed);
    fails_in("stdin", &out, 2, "seekable");
}

#[test]
fn decrypt_of_an_age_file_says_to_use_parcrypt_age() {
    let dir = Dir::new();
    let (_, public) = keygen(&dir, "key.txt", false);
    let key = dir.write("stream.key", &[7u8; 32]);
    for armor in [false, true] {
        let mut args = vec!["-r", &public];
        if armor {
            args.push("-a");
        }
        let sealed = age_ok("seal", &args, b"hello");
        let file = dir.write("f.age", &sealed);
        for (case, out) in [
            (
                "file",
                parcrypt(&["decrypt", "--key-file", p(&key), "-i", p(&file)], b""),
            ),
            ("pipe", parcrypt(&["decrypt", "--key-file", p(&key)], &sealed)),
        ] {
            fails_in(&format!("{case} armor={armor}"), &out, 1, "");
            assert!(
                stderr(&out).contains("parcrypt age -d"),
                "{case}: {}",
                stderr(&out)
            );
        }
    }
}

/// The `age` CLI's own keys and files, read and written by us both ways.
#[test]
fn age_cli_interop_x25519_both_ways_binary_and_armored() {
    if !require_tool("age") || !require_tool("age-keygen") {
        return;
    }
    let dir = Dir::new();
    let theirs = dir.path("theirs.txt");
    tool_ok("age-keygen", "age-keygen", &["-o", p(&theirs)], b"");
    let their_pub = String::from_utf8(tool_ok("-y", "age-keygen", &["-y", p(&theirs)], b"")).unwrap();
    let their_pub = their_pub.trim();
    // Our -y agrees with theirs; their -y reads our key file.
    let ours_y = age_ok("our -y", &["keygen", "-y", p(&theirs)], b"");
    assert_eq!(String::from_utf8(ours_y).unwrap().trim(), their_pub);
    let (ours, our_pub) = keygen(&dir, "ours.txt", false);
    let y = tool_ok("age-keygen -y ours", "age-keygen", &["-y", p(&ours)], b"");
    assert_eq!(String::from_utf8(y).unwrap().trim(), our_pub);
    let recipients = dir.write(
        "both.txt",
        format!("{our_pub}\n# theirs\n{their_pub}\n").as_bytes(),
    );
    for len in [0, 1, CHUNK, CHUNK + 1, (2 << 20) + 3] {
        let plain = data(len);
        for armor in [false, true] {
            let case = format!("len={len} armor={armor}");
            let a: &[&str] = if armor { &["-a"] } else { &[] };
            // Ours → age, with their key and with ours.
            let sealed = age_ok(&case, &[a, &["-R", p(&recipients)]].concat(), &plain);
            for key in [&theirs, &ours] {
                assert!(
                    tool_ok(&case, "age", &["-d", "-i", p(key)], &sealed) == plain,
                    "{case}"
                );
            }
            // age → ours.
            let sealed = tool_ok(&case, "age", &[a, &["-R", p(&recipients)]].concat(), &plain);
            for key in [&theirs, &ours] {
                assert!(age_ok(&case, &["-d", "-i", p(key)], &sealed) == plain, "{case}");
            }
        }
    }
    // age reads our -e -i files (encrypt to self).
    let sealed = age_ok("-e -i", &["-e", "-i", p(&theirs)], b"to myself");
    assert_eq!(
        tool_ok("-e -i", "age", &["-d", "-i", p(&theirs)], &sealed),
        b"to myself"
    );
}

/// SSH keys made by ssh-keygen: Ed25519 and RSA, both ways with `age`.
#[test]
fn age_cli_interop_ssh_ed25519_and_rsa_both_ways() {
    if !require_tool("age") || !require("ssh-keygen", ssh_keygen_present()) {
        return;
    }
    let dir = Dir::new();
    for (kind, bits) in [("ed25519", None), ("rsa", Some("2048"))] {
        let key = dir.path(&format!("id_{kind}"));
        let mut args = vec!["-q", "-t", kind, "-N", "", "-C", "test@parcrypt", "-f", p(&key)];
        if let Some(bits) = bits {
            args.extend(["-b", bits]);
        }
        tool_ok(kind, "ssh-keygen", &args, b"");
        let public = std::fs::read_to_string(key.with_extension("pub")).unwrap();
        let public = public.trim();
        let pub_file = PathBuf::from(format!("{}.pub", key.display()));
        for len in [0, CHUNK + 1] {
            let plain = data(len);
            let case = format!("{kind} len={len}");
            let sealed = age_ok(&case, &["-r", public], &plain);
            assert!(
                tool_ok(&case, "age", &["-d", "-i", p(&key)], &sealed) == plain,
                "{case}"
            );
            let sealed = tool_ok(&case, "age", &["-R", p(&pub_file)], &plain);
            assert!(age_ok(&case, &["-d", "-i", p(&key)], &sealed) == plain, "{case}");
            // -R with the .pub file, and -e -i with the private key.
            let sealed = age_ok(&case, &["-R", p(&pub_file), "-a"], &plain);
            assert!(
                tool_ok(&case, "age", &["-d", "-i", p(&key)], &sealed) == plain,
                "{case}"
            );
            let sealed = age_ok(&case, &["-e", "-i", p(&key)], &plain);
            assert!(
                tool_ok(&case, "age", &["-d", "-i", p(&key)], &sealed) == plain,
                "{case}"
            );
        }
    }
}

pub(crate) fn ssh_keygen_present() -> bool {
    // ssh-keygen has no --version: ask for help (exit 1) and look for its usage text.
    Command::new("ssh-keygen")
        .arg("-?")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stderr).contains("ssh-keygen"))
}

use crate::tools::require;

/// Runs `program args` on a new pseudo-terminal (its controlling terminal),
/// answering `dialogue`'s prompts there; returns its result and what it
/// wrote to the terminal.
pub(crate) fn on_pty(
    dialogue: &[(&str, &str)],
    stdout_tty: bool,
    program: &str,
    args: &[&str],
    stdin: &[u8],
) -> (Output, String) {
    let transcript = tempfile::NamedTempFile::new().unwrap();
    let mut cmd = Command::new("python3");
    cmd.arg(PTY_DRIVE).arg(transcript.path());
    // Under qemu (scrypt emulated takes tens of seconds) the hang guard is
    // 10 minutes instead of 30 s.
    if crate::common::emulator_address_space_var().is_some() {
        cmd.env("PTY_DRIVE_TIMEOUT", "600");
    }
    if stdout_tty {
        cmd.arg("--stdout-tty");
    }
    for (expect, send) in dialogue {
        cmd.args([expect, send]);
    }
    cmd.arg("--").arg(program).args(args);
    let out = run(&mut cmd, stdin);
    let text = String::from_utf8_lossy(&std::fs::read(transcript.path()).unwrap()).into_owned();
    (out, text)
}

pub(crate) fn pty_present() -> bool {
    Command::new("python3")
        .args(["-c", "import pty, termios, fcntl; pty.openpty()"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Passphrases typed on a terminal, both ways with `age`; the generated
/// passphrase; a wrong one; a passphrase-protected identity file; binary
/// refused on a terminal.
#[test]
fn age_cli_interop_passphrases_typed_on_a_terminal() {
    if !require_tool("age") || !require("python3 pty", pty_present()) {
        return;
    }
    let dir = Dir::new();
    let plain = data(CHUNK + 7);
    let input = dir.write("plain", &plain);
    let twice = [
        ("Enter passphrase", "correct horse\\n"),
        ("Confirm passphrase", "correct horse\\n"),
    ];
    let once = [("Enter passphrase", "correct horse\\n")];
    // Ours → age.
    let sealed = dir.path("ours.age");
    let (out, tty) = on_pty(
        &twice,
        false,
        bin(),
        &["age", "-p", "-o", p(&sealed), p(&input)],
        b"",
    );
    // Under qemu-user too, which has no TCGETS2 for aarch64 guests: the
    // prompt falls back to TCGETS there (src/tty.rs), and a prompt that
    // fails fails the test.
    ok_in(&tty, &out);
    let (out, tty) = on_pty(&once, false, "age", &["-d", p(&sealed)], b"");
    assert!(
        out.status.success() && out.stdout == plain,
        "age -d: {tty} {}",
        stderr(&out)
    );
    // age → ours (armored), and a wrong passphrase.
    let sealed = dir.path("theirs.age");
    let (out, tty) = on_pty(
        &twice,
        false,
        "age",
        &["-p", "-a", "-o", p(&sealed), p(&input)],
        b"",
    );
    assert!(out.status.success(), "age -p: {tty}");
    let (out, tty) = on_pty(&once, false, bin(), &["age", "-d", p(&sealed)], b"");
    ok_in(&tty, &out);
    assert!(out.stdout == plain);
    let (out, _) = on_pty(
        &[("Enter passphrase", "wrong\\n")],
        false,
        bin(),
        &["age", "-d", p(&sealed)],
        b"",
    );
    fails_in("wrong passphrase", &out, 1, "incorrect passphrase");
    // Passphrases that differ.
    let twice_wrong = [("Enter passphrase", "one\\n"), ("Confirm passphrase", "two\\n")];
    let (out, _) = on_pty(
        &twice_wrong,
        false,
        bin(),
        &["age", "-p", "-o", p(&dir.out("x")), p(&input)],
        b"",
    );
    fails_in("mismatch", &out, 1, "passphrases didn't match");
    assert!(dir.out_entries().is_empty());
    // An empty passphrase: one is generated and shown on the terminal; age opens the file with it.
    let sealed = dir.path("generated.age");
    let (out, tty) = on_pty(
        &[("Enter passphrase", "\\n")],
        false,
        bin(),
        &["age", "-p", "-o", p(&sealed), p(&input)],
        b"",
    );
    ok_in(&tty, &out);
    let shown = tty.split("using autogenerated passphrase \"").nth(1).unwrap();
    let phrase = shown.split('"').next().unwrap();
    assert_eq!(phrase.split('-').count(), 10, "{phrase}");
    let answer = format!("{phrase}\\n");
    let (out, tty) = on_pty(
        &[("Enter passphrase", &answer)],
        false,
        "age",
        &["-d", p(&sealed)],
        b"",
    );
    assert!(
        out.status.success() && out.stdout == plain,
        "age -d generated: {tty}"
    );
    // The passphrase prompts go to the terminal, never to stdout or stderr.
    assert!(!stderr(&out).contains("passphrase"), "{}", stderr(&out));
    // An identity file encrypted with a passphrase by age.
    let (key, public) = keygen(&dir, "key.txt", false);
    let key_age = dir.path("key.txt.age");
    let (out, tty) = on_pty(
        &twice,
        false,
        "age",
        &["-p", "-a", "-o", p(&key_age), p(&key)],
        b"",
    );
    assert!(out.status.success(), "age -p key: {tty}");
    let sealed = age_ok("to key", &["-r", &public], &plain);
    let (out, tty) = on_pty(
        &[("Enter passphrase for identity file", "correct horse\\n")],
        false,
        bin(),
        &["age", "-d", "-i", p(&key_age)],
        &sealed,
    );
    ok_in(&tty, &out);
    assert!(out.stdout == plain);
    // Identities given for a passphrase file, as age refuses them (before any prompt).
    let out = parcrypt(&["age", "-d", "-i", p(&key), p(&dir.path("theirs.age"))], b"");
    fails_in(
        "-i for passphrase",
        &out,
        1,
        "file is passphrase-encrypted but identities were specified",
    );
    // Binary output to a terminal is refused; armor is fine.
    let (out, _) = on_pty(&[], true, bin(), &["age", "-r", &public, p(&input)], b"");
    fails_in(
        "binary to tty",
        &out,
        1,
        "refusing to output binary to the terminal",
    );
    let (out, tty) = on_pty(&[], true, bin(), &["age", "-a", "-r", &public], b"hi");
    ok_in("armor to tty", &out);
    assert!(tty.contains("-----BEGIN AGE ENCRYPTED FILE-----"), "{tty}");
}
