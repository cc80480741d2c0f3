//! `parcrypt hash` against sha256sum / openssl dgst and the reference
//! vectors; `parcrypt merkle` proofs round-trip and bad input is refused
//! cleanly.

#![allow(clippy::unwrap_used)]

use std::ffi::{OsStr, OsString};
use std::fs::{File, OpenOptions};
use std::io::{BufRead, Read, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use crate::common::{bin, data, parcrypt, require_tool, run, stderr};
use crate::vectors::rows;

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

fn no_panic(out: &std::process::Output) {
    let err = stderr(out);
    assert!(
        !err.contains("panicked") && !err.contains("RUST_BACKTRACE"),
        "{err}"
    );
}

#[test]
fn sha256_equals_sha256sum_and_openssl_dgst() {
    let dir = tempfile::tempdir().unwrap();
    let sizes = [0, 1, 63, 64, 1000, (1 << 20) + 3, 3 << 20];
    let files: Vec<String> = sizes
        .iter()
        .map(|&n| {
            write(dir.path(), &format!("f{n}"), &data(n))
                .display()
                .to_string()
        })
        .collect();
    let args: Vec<&str> = files.iter().map(String::as_str).collect();
    let ours = parcrypt(&[&["hash"][..], &args].concat(), b"");
    assert!(ours.status.success(), "{}", stderr(&ours));
    if !require_tool("sha256sum") {
        return;
    }
    let theirs = Command::new("sha256sum").args(&args).output().unwrap();
    assert_eq!(stdout(&ours), stdout(&theirs));
    // Through stdin, with threads and strategies that change nothing (0:
    // every available core, as the library's `Parallelism::new` takes it).
    for t in ["0", "1", "2", "5"] {
        let out = parcrypt(&["--threads", t, "hash", "-"], &data(3 << 20));
        assert_eq!(
            stdout(&out).split(' ').next(),
            stdout(&theirs).lines().last().unwrap().split(' ').next()
        );
    }
    if require_tool("openssl") {
        let dgst = Command::new("openssl")
            .args(["dgst", "-sha256", "-r"])
            .args(&args)
            .output()
            .unwrap();
        let dgst = stdout(&dgst);
        let want: Vec<&str> = dgst.lines().map(|l| l.split(' ').next().unwrap()).collect();
        let got: Vec<String> = stdout(&ours)
            .lines()
            .map(|l| l.split(' ').next().unwrap().to_string())
            .collect();
        assert_eq!(got, want);
    }
}

#[test]
fn tree_formats_match_the_reference_vectors() {
    let vectors = include_str!("../../../parcrypt/tests/data/merkle_vectors.txt");
    let dir = tempfile::tempdir().unwrap();
    let mut checked = 0;
    for (line, f) in rows(vectors) {
        let size: usize = f[1].parse().unwrap();
        let args: Vec<String> = match f[0] {
            "bittorrent-v2" if f[2] == "16384" && size > 0 => vec!["--format".into(), "bittorrent-v2".into()],
            "glacier" => vec!["--format".into(), "glacier".into()],
            "rfc6962" if f[2] != "1" => vec![
                "--format".into(),
                "rfc6962".into(),
                "--leaf-size".into(),
                f[2].into(),
            ],
            _ => continue,
        };
        let path = write(dir.path(), "input", &data(size));
        let path = path.display().to_string();
        for global in [
            &["--threads", "1"][..],
            &["--threads", "2", "--strategy", "static"],
            &["--threads", "3"],
        ] {
            let mut all: Vec<&str> = global.to_vec();
            all.push("hash");
            all.extend(args.iter().map(String::as_str));
            all.push(&path);
            let out = parcrypt(&all, b"");
            assert!(out.status.success(), "{line}: {}", stderr(&out));
            assert_eq!(
                stdout(&out),
                format!("{}  {path}\n", f[3]),
                "{line:.50} {global:?}"
            );
        }
        checked += 1;
    }
    assert!(checked >= 25, "{checked}");
}

#[test]
fn unreadable_files_are_reported_and_the_rest_hashed() {
    let dir = tempfile::tempdir().unwrap();
    let a = write(dir.path(), "a", b"abc").display().to_string();
    let missing = dir.path().join("missing").display().to_string();
    let empty = write(dir.path(), "empty", b"").display().to_string();
    let out = parcrypt(&["hash", &missing, &a, dir.path().to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        format!("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  {a}\n")
    );
    let err = stderr(&out);
    assert!(
        err.starts_with(&format!("parcrypt: {missing}: No such file or directory\n"))
            && err.contains(&format!("parcrypt: {}: Is a directory\n", dir.path().display()))
            && err.contains("hint:"),
        "{err}"
    );
    assert!(err.contains("2 of 3 files could not be hashed"), "{err}");
    no_panic(&out);
    // BEP 52 gives an empty file no root.
    let out = parcrypt(&["hash", "--format", "bittorrent-v2", &empty, &a], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("no pieces root"), "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().count(), 1);
    // Leaf sizes only where they mean something.
    for bad in [
        &["hash", "--format", "glacier", "--leaf-size", "4KiB", &a][..],
        &["hash", "--format", "rfc6962", "--leaf-size", "0", &a],
    ] {
        let out = parcrypt(bad, b"");
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(stderr(&out).starts_with("parcrypt: "));
    }
}

/// The transparency-dev standard leaves as hex lines.
const STANDARD: &str = "\n00\n10\n2021\n3031\n40414243\n5051525354555657\n606162636465666768696a6b6c6d6e6f\n";
const ROOT8: &str = "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328";

fn leaf_files(dir: &Path) -> Vec<String> {
    STANDARD
        .lines()
        .enumerate()
        .map(|(i, h)| {
            write(dir, &format!("leaf{i}"), &hex::decode(h).unwrap())
                .display()
                .to_string()
        })
        .collect()
}

#[test]
fn merkle_root_prove_verify_consistency() {
    let dir = tempfile::tempdir().unwrap();
    let leaves = leaf_files(dir.path());
    let out = parcrypt(&["merkle", "root", "--hex-lines"], STANDARD.as_bytes());
    assert_eq!(stdout(&out), format!("{ROOT8}\n"));
    let mut args = vec!["merkle", "root", "--leaves"];
    args.extend(leaves.iter().map(String::as_str));
    assert_eq!(stdout(&parcrypt(&args, b"")), format!("{ROOT8}\n"));

    for i in 0..8 {
        let proof = dir.path().join(format!("p{i}.json"));
        let out = parcrypt(
            &[
                "merkle",
                "prove",
                "--index",
                &i.to_string(),
                "--hex-lines",
                "-o",
                proof.to_str().unwrap(),
            ],
            STANDARD.as_bytes(),
        );
        assert!(out.status.success(), "{}", stderr(&out));
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&proof).unwrap()).unwrap();
        assert_eq!(
            (
                json["index"].as_u64(),
                json["size"].as_u64(),
                json["root"].as_str()
            ),
            (Some(i), Some(8), Some(ROOT8))
        );
        let p = proof.to_str().unwrap();
        let ok = parcrypt(
            &[
                "merkle",
                "verify",
                "--proof",
                p,
                "--leaf-file",
                &leaves[i as usize],
                "--root",
                ROOT8,
            ],
            b"",
        );
        assert_eq!(ok.status.code(), Some(0), "{}", stderr(&ok));
        assert!(stdout(&ok).starts_with("Verified OK"));
        // Another leaf is not at this index.
        let other = &leaves[(i as usize + 1) % 8];
        let bad = parcrypt(&["merkle", "verify", "--proof", p, "--leaf-file", other], b"");
        assert_eq!(bad.status.code(), Some(1));
        assert!(stderr(&bad).contains("does not verify"), "{}", stderr(&bad));
    }

    let cons = dir.path().join("c.json");
    let out = parcrypt(
        &[
            "merkle",
            "consistency",
            "--old-size",
            "3",
            "--hex-lines",
            "-o",
            cons.to_str().unwrap(),
        ],
        STANDARD.as_bytes(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let c = cons.to_str().unwrap();
    assert_eq!(
        parcrypt(&["merkle", "verify", "--proof", c], b"").status.code(),
        Some(0)
    );
    assert_eq!(
        parcrypt(&["merkle", "verify", "--proof", c, "--new-root", ROOT8], b"")
            .status
            .code(),
        Some(0)
    );
    let wrong = "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e78";
    assert_eq!(
        parcrypt(&["merkle", "verify", "--proof", c, "--old-root", wrong], b"")
            .status
            .code(),
        Some(1)
    );
    // Old size 0 or beyond the leaves: a usage error.
    for old in ["0", "9"] {
        let out = parcrypt(
            &["merkle", "consistency", "--old-size", old, "--hex-lines"],
            STANDARD.as_bytes(),
        );
        assert_eq!(out.status.code(), Some(2), "{old}");
    }
}

#[test]
fn bad_proofs_and_leaves_are_refused_without_panic() {
    let dir = tempfile::tempdir().unwrap();
    let leaves = leaf_files(dir.path());
    let out = parcrypt(
        &["merkle", "prove", "--index", "5", "--hex-lines"],
        STANDARD.as_bytes(),
    );
    let good: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let leaf5 = leaves[5].as_str();
    let variants: Vec<(&str, String)> = vec![
        ("not json", "{\"index\": 5,".into()),
        ("neither kind", "{\"foo\": 1}".into()),
        (
            "wrong index",
            good.to_string().replace("\"index\":5", "\"index\":4"),
        ),
        (
            "index past size",
            good.to_string().replace("\"index\":5", "\"index\":8"),
        ),
        // (Size 7 would still verify: a path does not bind the size; the signed
        // tree head does, hence --root.)
        (
            "size changed",
            good.to_string().replace("\"size\":8", "\"size\":6"),
        ),
        (
            "flipped path hash",
            good.to_string().replace("bc1a0643", "bc1a0644"),
        ),
        ("short hash", good.to_string().replace("bc1a0643", "bc1a06")),
        ("non-hex hash", good.to_string().replace("bc1a0643", "bc1a064z")),
        (
            "path not a list",
            good.to_string()
                .replace("\"path\":[", "\"path\":{\"a\":[")
                .replace("]}", "]}}"),
        ),
        (
            "negative size",
            good.to_string().replace("\"size\":8", "\"size\":-8"),
        ),
        (
            "missing root",
            serde_json::json!({"index": 5, "size": 8, "path": []}).to_string(),
        ),
    ];
    assert!(good.to_string().contains("\"index\":5") && good.to_string().contains("bc1a0643"));
    let p = write(dir.path(), "good.json", good.to_string().as_bytes());
    let verify = |proof: &Path| {
        parcrypt(
            &[
                "merkle",
                "verify",
                "--proof",
                proof.to_str().unwrap(),
                "--leaf-file",
                leaf5,
            ],
            b"",
        )
    };
    let ok = verify(&p);
    assert_eq!(
        ok.status.code(),
        Some(0),
        "the unmodified proof must verify: {}",
        stderr(&ok)
    );
    for (what, text) in &variants {
        let p = write(dir.path(), "bad.json", text.as_bytes());
        let out = verify(&p);
        assert_eq!(out.status.code(), Some(1), "{what}: {}", stderr(&out));
        assert!(stderr(&out).starts_with("parcrypt: "), "{what}");
        no_panic(&out);
    }
    // A correct proof checked against another tree's root.
    let other_root = "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c";
    let out = parcrypt(
        &[
            "merkle",
            "verify",
            "--proof",
            p.to_str().unwrap(),
            "--leaf-file",
            leaf5,
            "--root",
            other_root,
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    // Missing files, missing --leaf-file, non-hex lines, index out of range.
    let cases: Vec<(Vec<&str>, &str, i32)> = vec![
        (
            vec![
                "merkle",
                "verify",
                "--proof",
                "/nonexistent.json",
                "--leaf-file",
                leaf5,
            ],
            "",
            1,
        ),
        (
            vec![
                "merkle",
                "verify",
                "--proof",
                p.to_str().unwrap(),
                "--leaf-file",
                "/nonexistent",
            ],
            "",
            1,
        ),
        (vec!["merkle", "verify", "--proof", p.to_str().unwrap()], "", 2),
        (vec!["merkle", "root", "--leaves", leaf5, "/nonexistent"], "", 1),
        (vec!["merkle", "root", "--hex-lines"], "00\nxyz\n", 1),
        (
            vec!["merkle", "prove", "--index", "8", "--hex-lines"],
            STANDARD,
            1,
        ),
        (vec!["merkle", "root"], "", 2),
    ];
    for (args, input, code) in cases {
        let out = parcrypt(&args, input.as_bytes());
        assert_eq!(out.status.code(), Some(code), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).starts_with("parcrypt: "), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        no_panic(&out);
    }
}

/// Runs `program args…` with `stdin`, arguments as raw bytes.
fn run_os(program: &str, args: &[OsString], stdin: &[u8]) -> Output {
    run(Command::new(program).args(args), stdin)
}

/// `--threads T --strategy S` for every count and strategy worth checking.
fn schedules() -> Vec<Vec<OsString>> {
    let mut v = vec![vec!["--strategy".into(), "seq".into()]];
    for t in ["1", "2", "3", "8"] {
        for s in ["static", "steal"] {
            v.push(vec!["--threads".into(), t.into(), "--strategy".into(), s.into()]);
        }
    }
    v
}

/// Files of every awkward size and name, a missing one and stdin among
/// them, and 1100 small ones after (more than are ever held at once).
fn awkward_files(dir: &Path) -> Vec<OsString> {
    let large = parcrypt::merkle::ALL_THREADS_FROM as usize;
    let named: Vec<(Vec<u8>, usize)> = vec![
        (b"empty".to_vec(), 0),
        (b"one".to_vec(), 1),
        (b"with space".to_vec(), 4096),
        (b"back\\slash".to_vec(), 100),
        (b"new\nline".to_vec(), 5000),
        (b"carriage\rreturn".to_vec(), 7),
        (b"latin1-\xe9".to_vec(), 33),
        (b"large".to_vec(), large + 1),
        (b"mib".to_vec(), (1 << 20) + 1),
    ];
    let mut args = Vec::new();
    for (i, (name, size)) in named.into_iter().enumerate() {
        let path = dir.join(OsStr::from_bytes(&name));
        std::fs::write(&path, data(size)).unwrap();
        args.push(path.into_os_string());
        if i == 3 {
            args.push(dir.join("missing").into_os_string());
            args.push("-".into());
        }
    }
    for i in 0..1100 {
        let path = dir.join(format!("s{i}"));
        std::fs::write(&path, data(i % 300)).unwrap();
        args.push(path.into_os_string());
    }
    args
}

#[test]
fn many_files_are_byte_identical_to_sha256sum_under_every_schedule() {
    if !require_tool("sha256sum") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let files = awkward_files(dir.path());
    let theirs = run_os("sha256sum", &files, b"from stdin");
    assert_eq!(theirs.status.code(), Some(1));
    let their_err = String::from_utf8(theirs.stderr.clone()).unwrap();
    for schedule in schedules() {
        let mut args = schedule.clone();
        args.push("hash".into());
        args.extend(files.iter().cloned());
        let ours = run_os(bin(), &args, b"from stdin");
        assert_eq!(ours.status.code(), Some(1), "{schedule:?}");
        assert!(
            ours.stdout == theirs.stdout,
            "{schedule:?}: stdout differs from sha256sum's"
        );
        // The same report, in parcrypt's words, then the count and a hint.
        let err = stderr(&ours);
        assert_eq!(
            err.lines().next(),
            their_err
                .lines()
                .next()
                .map(|l| l.replacen("sha256sum: ", "parcrypt: ", 1))
                .as_deref(),
            "{schedule:?}"
        );
        assert!(
            err.contains(&format!(
                "parcrypt: 1 of {} files could not be hashed\n  hint: ",
                files.len()
            )),
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
    // The escaped lines are there (so the comparison above covered them).
    let text = String::from_utf8_lossy(&theirs.stdout);
    assert!(
        text.contains("back\\\\slash\n")
            && text.contains("new\\nline\n")
            && text.contains("carriage\\rreturn\n")
    );
}

/// `hash --format F` of each file alone, at one thread, one line each.
fn each_alone(format: &str, files: &[OsString]) -> (Vec<u8>, usize) {
    let (mut all, mut failed) = (Vec::new(), 0);
    for f in files {
        let args: Vec<OsString> = ["--threads", "1", "hash", "--format", format]
            .iter()
            .map(OsString::from)
            .chain([f.clone()])
            .collect();
        let out = run_os(bin(), &args, b"");
        failed += usize::from(!out.status.success());
        all.extend(out.stdout);
    }
    (all, failed)
}

#[test]
fn format_applies_to_each_file_under_every_schedule() {
    let dir = tempfile::tempdir().unwrap();
    let large = parcrypt::merkle::ALL_THREADS_FROM as usize;
    let sizes = [
        0,
        1,
        16384,
        16385,
        large - 1,
        large,
        large + 3 * 16384 + 5,
        70_000,
        (1 << 20) + 7,
    ];
    let files: Vec<OsString> = sizes
        .iter()
        .enumerate()
        .map(|(i, &n)| write(dir.path(), &format!("f{i}"), &data(n)).into_os_string())
        .chain((0..40).map(|i| write(dir.path(), &format!("s{i}"), &data(i * 37)).into_os_string()))
        .collect();
    for format in ["rfc6962", "bittorrent-v2", "glacier"] {
        let (want, failed) = each_alone(format, &files);
        // BEP 52 gives the two empty files no root: reported in their place.
        assert_eq!(failed, if format == "bittorrent-v2" { 2 } else { 0 }, "{format}");
        for schedule in schedules() {
            let mut args = schedule.clone();
            args.extend(["hash".into(), "--format".into(), format.into()]);
            args.extend(files.iter().cloned());
            let out = run_os(bin(), &args, b"");
            assert_eq!(
                out.status.code(),
                Some(if failed > 0 { 1 } else { 0 }),
                "{format} {schedule:?}"
            );
            assert!(
                out.stdout == want,
                "{format} {schedule:?}: differs from each file alone"
            );
            if failed > 0 {
                assert_eq!(
                    stderr(&out).matches("no pieces root").count(),
                    2,
                    "{}",
                    stderr(&out)
                );
            }
        }
    }
}

#[test]
fn lines_stream_out_before_later_files_are_ready() {
    // A FIFO with no writer yet: the line of the file before it must come
    // out while parcrypt waits for the FIFO.
    if !require_tool("mkfifo") || !require_tool("sha256sum") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let a = write(dir.path(), "a", b"first");
    let fifo = dir.path().join("fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    for threads in ["1", "2", "3"] {
        let mut child = Command::new(bin())
            .args(["--threads", threads, "hash"])
            .args([&a, &fifo, &a])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        let lines = child.stdout.take().unwrap();
        let reader = std::thread::spawn(move || {
            for line in std::io::BufReader::new(lines).lines() {
                let _ = tx.send(line.unwrap());
            }
        });
        // A generous bound on liveness, not a timing measurement.
        let first = rx.recv_timeout(Duration::from_secs(60));
        let mut writer = open_fifo_writer(&fifo, &mut child, Duration::from_secs(300));
        writer.write_all(b"late").unwrap();
        drop(writer);
        let mut rest = Vec::new();
        loop {
            match rx.recv_timeout(Duration::from_secs(300)) {
                Ok(line) => rest.push(line),
                Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => {
                    let _ = child.kill();
                    panic!(
                        "threads {threads}: no end of output within 300 s after the FIFO was written: {rest:?}"
                    );
                }
            }
        }
        reader.join().unwrap();
        assert!(child.wait().unwrap().success());
        let want = stdout(&Command::new("sha256sum").arg(&a).output().unwrap());
        assert_eq!(first.ok(), Some(want.trim_end().to_owned()), "threads {threads}");
        assert_eq!(rest.len(), 2, "{rest:?}");
        assert!(rest[0].starts_with("089001a3"), "sha256(\"late\"): {rest:?}");
        assert_eq!(rest[1], want.trim_end());
    }
}

/// Opens `fifo` for writing once `child` has opened it for reading. A plain
/// open would block for ever if the child died first (or hung before
/// getting there, as a process forked under an emulator can): that fails
/// the test here instead, with the child's status and stderr.
fn open_fifo_writer(fifo: &Path, child: &mut Child, within: Duration) -> File {
    let deadline = Instant::now() + within;
    let failed = |child: &mut Child, why: String| -> ! {
        let _ = child.kill();
        let status = child.wait().unwrap();
        let mut err = String::new();
        if let Some(mut e) = child.stderr.take() {
            let _ = e.read_to_string(&mut err);
        }
        panic!("{why}; parcrypt {status}, stderr: {err}");
    };
    loop {
        // O_NONBLOCK: ENXIO at once while no reader has the FIFO open.
        match OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(fifo)
        {
            Ok(file) => return file,
            Err(e) if e.raw_os_error() == Some(libc::ENXIO) => {
                if let Some(status) = child.try_wait().unwrap() {
                    failed(
                        child,
                        format!("parcrypt ended ({status}) without opening the FIFO"),
                    );
                }
                if Instant::now() > deadline {
                    failed(child, format!("parcrypt did not open the FIFO within {within:?}"));
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(e) => failed(child, format!("opening the FIFO for writing: {e}")),
        }
    }
}

/// `hash --format bittorrent-v2 --piece-length P --layers FILE…`.
fn layers(piece: &str, files: &[&str], stdin: &[u8]) -> Output {
    let args = [
        &[
            "--threads",
            "3",
            "hash",
            "--format",
            "bittorrent-v2",
            "--piece-length",
            piece,
            "--layers",
        ][..],
        files,
    ]
    .concat();
    parcrypt(&args, stdin)
}

#[test]
fn piece_layers_match_the_reference_vectors() {
    // Rows: SIZE PIECE_LENGTH ROOT|none LAYER(comma-separated)|-, from the
    // Python reference (tests/merkle_reference.py, written from BEP 52).
    let vectors = include_str!("../../../parcrypt/tests/data/merkle_vectors.txt");
    let dir = tempfile::tempdir().unwrap();
    let (mut with_layer, mut without) = (0, 0);
    for (line, f) in rows(vectors) {
        if f[0] != "bittorrent-v2" || f[3] == "none" {
            continue;
        }
        let size: usize = f[1].parse().unwrap();
        let path = write(dir.path(), "input", &data(size)).display().to_string();
        // The root line, then one line per piece; a file of at most one
        // piece has no layer (BEP 52 omits it), so only the root line.
        let mut want = format!("{}  {path}\n", f[3]);
        if f[4] == "-" {
            assert!(size as u64 <= f[2].parse::<u64>().unwrap(), "{line}");
            without += 1;
        } else {
            with_layer += 1;
            for h in f[4].split(',') {
                want.push_str(h);
                want.push('\n');
            }
        }
        let out = layers(f[2], &[&path], b"");
        assert!(out.status.success(), "{line}: {}", stderr(&out));
        assert_eq!(stdout(&out), want, "{line:.60}");
        // From stdin too.
        let out = layers(f[2], &["-"], &data(size));
        assert_eq!(stdout(&out), want.replace(&path, "-"), "{line:.60}");
    }
    assert!(with_layer >= 8 && without >= 8, "{with_layer} {without}");
}

#[test]
fn piece_layers_match_python_hashlib() {
    if !require_tool("python3") {
        return;
    }
    // Several files in one run: 3 MiB + 5 (a ragged last piece), exactly 4
    // pieces, one piece (no layer), and an empty file (no root: an error in
    // its place, the others still printed).
    let dir = tempfile::tempdir().unwrap();
    let sizes = [(3 << 20) + 5, 4 * 65536, 65536, 0, 100];
    let files: Vec<String> = sizes
        .iter()
        .enumerate()
        .map(|(i, &n)| {
            write(dir.path(), &format!("f{i}"), &data(n))
                .display()
                .to_string()
        })
        .collect();
    let args: Vec<&str> = files.iter().map(String::as_str).collect();
    let ours = layers("64KiB", &args, b"");
    assert_eq!(ours.status.code(), Some(1));
    assert!(
        stderr(&ours).contains("f3: empty, and BEP 52 gives an empty file no pieces root"),
        "{}",
        stderr(&ours)
    );
    let script = r#"
import hashlib, sys
H = lambda b: hashlib.sha256(b).digest()
piece = int(sys.argv[1])
for name in sys.argv[2:]:
    blob = open(name, "rb").read()
    if not blob:
        continue
    layer = [H(blob[i:i + 16384]) for i in range(0, len(blob), 16384)]
    width = 1 << (len(layer) - 1).bit_length()
    layer += [bytes(32)] * (width - len(layer))
    covered, pieces = 16384, None
    while True:
        if covered == piece:
            pieces = layer
        if len(layer) == 1:
            break
        layer = [H(layer[i] + layer[i + 1]) for i in range(0, len(layer), 2)]
        covered *= 2
    print(layer[0].hex() + "  " + name)
    if len(blob) > piece:
        need = -(-len(blob) // piece)
        for h in pieces[:need]:
            print(h.hex())
"#;
    let theirs = Command::new("python3")
        .args(["-c", script, "65536"])
        .args(&args)
        .output()
        .unwrap();
    assert!(theirs.status.success(), "{}", stderr(&theirs));
    assert_eq!(stdout(&ours), stdout(&theirs));
    // (1 + 49 pieces) + (1 + 4) + 1 + (none) + 1
    assert_eq!(stdout(&ours).lines().count(), 50 + 5 + 1 + 1);
}

#[test]
fn piece_layer_flags_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    let a = write(dir.path(), "a", b"abc").display().to_string();
    for (bad, needle) in [
        (
            &["hash", "--format", "bittorrent-v2", "--layers", &a][..],
            "--piece-length",
        ),
        (
            &["hash", "--format", "bittorrent-v2", "--piece-length", "64KiB", &a],
            "--layers",
        ),
        (
            &["hash", "--piece-length", "64KiB", "--layers", &a],
            "bittorrent-v2",
        ),
        (
            &[
                "hash",
                "--format",
                "bittorrent-v2",
                "--piece-length",
                "1000",
                "--layers",
                &a,
            ],
            "power of two",
        ),
        (
            &[
                "hash",
                "--format",
                "bittorrent-v2",
                "--piece-length",
                "8KiB",
                "--layers",
                &a,
            ],
            "power of two",
        ),
    ] {
        let out = parcrypt(bad, b"");
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {}", stderr(&out));
        assert!(
            stderr(&out).starts_with("parcrypt: ") && stderr(&out).contains(needle),
            "{bad:?}: {}",
            stderr(&out)
        );
        assert!(out.stdout.is_empty());
        no_panic(&out);
    }
}
