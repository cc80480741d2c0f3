//! Structured fuzzing of the CLI's own parsers of untrusted files, through
//! the real binary: Merkle proof JSON (`merkle verify --proof`) and
//! signature lists (`ecdsa verify-batch --list`). The library's parsers are
//! fuzzed in-process by `crates/parcrypt/tests/fuzz_parsers.rs`.
//!
//! Every run must end in exit 0, 1 or 2 (never a panic's 101 or an abort's
//! 134), with a `parcrypt:` message and a hint on failure, and succeed only
//! for input that is really valid. Memory is bounded by running each command
//! with two threads in an address space of [`ADDRESS_SPACE`] (`RLIMIT_AS`):
//! an allocation beyond it aborts the run, which fails the test. (Peak
//! resident memory of a child cannot be read reliably: Linux counts the
//! parent's pages in it.) Each property runs 48 cases, one process each;
//! `PROPTEST_CASES=5000 cargo test -p parcrypt-cli --test it fuzz_cli` runs
//! long.

#![allow(clippy::unwrap_used)]

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::common::{bin, emulator_address_space_var, p, stderr};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::{Value, json};

/// The address space each run gets: the binary, its libraries, two worker
/// threads and two malloc arenas fit in under 64 MiB, so a run that
/// allocates more than about 64 MiB for an input of a few KiB aborts.
const ADDRESS_SPACE: u64 = 128 << 20;

/// Cases per property: `PROPTEST_CASES`, else 48.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(48)
}

fn fuzz<S: Strategy>(name: &str, strategy: S, test: impl Fn(S::Value))
where
    S::Value: Clone + std::fmt::Debug,
{
    let config = Config {
        cases: cases(),
        failure_persistence: Some(Box::new(
            proptest::test_runner::FileFailurePersistence::WithSource("proptest-regressions"),
        )),
        source_file: Some(file!()),
        ..Config::default()
    };
    let result = TestRunner::new(config).run(&strategy, |input| {
        test(input);
        Ok(())
    });
    if let Err(e) = result {
        panic!("{name}: {e}");
    }
}

/// Runs parcrypt with two threads in [`ADDRESS_SPACE`].
fn run(args: &[&str]) -> Output {
    let mut cmd = Command::new(bin());
    cmd.args(["--threads", "2"])
        .args(args)
        .env("MALLOC_ARENA_MAX", "2")
        .stdin(Stdio::null());
    if let Some(var) = emulator_address_space_var() {
        // Under qemu-user: the same bound, as the guest's address space.
        cmd.env(var, ADDRESS_SPACE.to_string());
        return cmd.output().unwrap();
    }
    // SAFETY: the closure runs in the child between fork and exec and only
    // calls setrlimit, which is async-signal-safe, on a local value.
    #[allow(unsafe_code)]
    unsafe {
        cmd.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: ADDRESS_SPACE,
                rlim_max: ADDRESS_SPACE,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        });
    }
    cmd.output().unwrap()
}

/// Exit 0, 1 or 2; on failure a `parcrypt:` message with a hint, no panic.
fn clean(out: &Output) -> i32 {
    let err = stderr(out);
    let code = out.status.code();
    assert!(matches!(code, Some(0..=2)), "exit {:?}: {err}", out.status);
    assert!(!err.contains("panicked"), "{err}");
    if code != Some(0) {
        assert!(err.starts_with("parcrypt: "), "{err}");
        assert!(err.contains("hint: "), "{err}");
    }
    code.unwrap()
}

fn stdout_of(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// JSON values that are wrong in every way a field can be.
fn hostile_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        Just(json!(u64::MAX)),
        Just(json!(-1)),
        Just(json!(0.5)),
        Just(json!(1e300)),
        "[0-9a-f]{0,70}".prop_map(Value::from),
        "[0-9a-fA-FxyZ ]{64}".prop_map(Value::from),
        ".{0,40}".prop_map(Value::from),
        (0usize..3000).prop_map(|n| Value::from("ab".repeat(n))),
    ];
    leaf.prop_recursive(3, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::from),
            prop::collection::btree_map("[a-z_]{1,8}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// A change to a valid proof: a field replaced, removed or added, or one
/// path element replaced.
#[derive(Clone, Debug)]
enum Edit {
    Replace(usize, Value),
    Remove(usize),
    Add(String, Value),
    PathElement(usize, Value),
    /// Kept as is: must verify.
    None,
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        4 => (any::<usize>(), hostile_value()).prop_map(|(i, v)| Edit::Replace(i, v)),
        1 => any::<usize>().prop_map(Edit::Remove),
        1 => ("[a-z_]{1,10}", hostile_value()).prop_map(|(k, v)| Edit::Add(k, v)),
        2 => (any::<usize>(), hostile_value()).prop_map(|(i, v)| Edit::PathElement(i, v)),
        1 => Just(Edit::None),
    ]
}

fn apply(proof: &Value, e: &Edit) -> Value {
    let mut v = proof.clone();
    let map = v.as_object_mut().unwrap();
    let keys: Vec<String> = map.keys().cloned().collect();
    match e {
        Edit::Replace(i, x) => {
            map.insert(keys[i % keys.len()].clone(), x.clone());
        }
        Edit::Remove(i) => {
            map.remove(&keys[i % keys.len()]);
        }
        Edit::Add(k, x) => {
            map.entry(k.clone()).or_insert_with(|| x.clone());
        }
        Edit::PathElement(i, x) => {
            let path = map["path"].as_array_mut().unwrap();
            let n = path.len();
            path[i % n] = x.clone();
        }
        Edit::None => {}
    }
    v
}

/// A temporary directory with seven leaves, a proof of leaf 5 and a
/// consistency proof from 3 to 7.
struct Proofs {
    dir: tempfile::TempDir,
    inclusion: Value,
    consistency: Value,
}

impl Proofs {
    fn new() -> Proofs {
        let dir = tempfile::tempdir().unwrap();
        let leaves = b"00\n01\n02\n03\n04\n05\n06\n";
        let json = |args: &[&str]| -> Value {
            let out = crate::common::parcrypt(args, leaves);
            assert!(out.status.success(), "{}", stderr(&out));
            serde_json::from_slice(&out.stdout).unwrap()
        };
        let inclusion = json(&["merkle", "prove", "--index", "5", "--hex-lines"]);
        let consistency = json(&[
            "merkle",
            "consistency",
            "--old-size",
            "3",
            "--new-size",
            "7",
            "--hex-lines",
        ]);
        std::fs::write(dir.path().join("leaf"), [5u8]).unwrap();
        Proofs {
            dir,
            inclusion,
            consistency,
        }
    }

    fn verify(&self, proof: &[u8]) -> Output {
        let path = self.dir.path().join("proof.json");
        std::fs::write(&path, proof).unwrap();
        let leaf = self.dir.path().join("leaf");
        run(&["merkle", "verify", "--proof", p(&path), "--leaf-file", p(&leaf)])
    }
}

#[test]
fn merkle_proof_json_never_crashes_and_verifies_only_unchanged() {
    let proofs = Proofs::new();
    // Both valid proofs verify.
    for valid in [&proofs.inclusion, &proofs.consistency] {
        let out = proofs.verify(valid.to_string().as_bytes());
        assert_eq!(clean(&out), 0, "{}", stderr(&out));
    }
    let inputs = prop_oneof![
        1 => prop::collection::vec(any::<u8>(), 0..2048).prop_map(|b| (b, None)),
        // Deep nesting: serde_json refuses past 128 levels.
        1 => (1usize..400).prop_map(|d| (format!("{}{}", "[".repeat(d), "]".repeat(d)).into_bytes(), None)),
        6 => (any::<bool>(), edit()).prop_map({
            let (inc, con) = (proofs.inclusion.clone(), proofs.consistency.clone());
            move |(which, e)| {
                let valid = if which { &inc } else { &con };
                let v = apply(valid, &e);
                // Unknown fields are ignored; adding a known one to the
                // other kind of proof has an outcome not predicted here.
                let unchanged = match &e {
                    Edit::Add(key, _) if valid.get(key).is_none() => {
                        let known = ["index", "size", "root", "path", "old_size", "new_size", "old_root", "new_root"];
                        (!known.contains(&key.as_str())).then_some(true)
                    }
                    _ => Some(v == *valid),
                };
                (v.to_string().into_bytes(), unchanged)
            }
        }),
    ];
    fuzz("merkle verify", inputs, |(proof, unchanged)| {
        let out = proofs.verify(&proof);
        let code = clean(&out);
        if code == 0 {
            assert_ne!(
                unchanged,
                Some(false),
                "a changed proof verified: {}",
                String::from_utf8_lossy(&proof)
            );
            assert!(stdout_of(&out).starts_with("Verified OK"));
        } else if unchanged == Some(true) {
            panic!("the valid proof failed: {}", stderr(&out));
        }
    });
}

/// A key, and messages and signatures a list can name.
struct Batch {
    dir: tempfile::TempDir,
    public: PathBuf,
    names: Names,
}

/// What a list can name.
#[derive(Clone, Debug)]
struct Names {
    /// (message, its signature) pairs that verify.
    good: Vec<(PathBuf, PathBuf)>,
    /// Files that are no signature of anything here, and paths that are not files.
    other: Vec<PathBuf>,
}

impl Batch {
    fn new() -> Batch {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let key = d.join("key.pem");
        let public = d.join("pub.pem");
        for out in [
            run(&["ecdsa", "keygen", "-o", p(&key)]),
            run(&["ecdsa", "pubkey", "-i", p(&key), "-o", p(&public)]),
        ] {
            assert!(out.status.success(), "{}", stderr(&out));
        }
        let mut good = Vec::new();
        for i in 0..3 {
            let msg = d.join(format!("msg {i}").replace(' ', "_"));
            let sig = d.join(format!("sig{i}"));
            std::fs::write(&msg, vec![i as u8; 100 * i]).unwrap();
            let out = run(&["ecdsa", "sign", "--key", p(&key), "-i", p(&msg), "-o", p(&sig)]);
            assert!(out.status.success(), "{}", stderr(&out));
            good.push((msg, sig));
        }
        let garbage = d.join("garbage");
        std::fs::write(&garbage, [0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01]).unwrap();
        let other = vec![garbage, d.join("missing"), d.to_path_buf(), public.clone()];
        Batch {
            dir,
            public,
            names: Names { good, other },
        }
    }

    fn verify(&self, list: &[u8]) -> Output {
        let path = self.dir.path().join("list");
        std::fs::write(&path, list).unwrap();
        run(&[
            "ecdsa",
            "verify-batch",
            "--pub",
            p(&self.public),
            "--list",
            p(&path),
        ])
    }
}

/// One line of a list: a good pair, a pair that fails, or something else.
#[derive(Clone, Debug)]
enum Line {
    Good(usize),
    Swapped(usize, usize),
    Other(usize, usize),
    Comment,
    Blank,
    Fields(Vec<String>),
    Bytes(Vec<u8>),
}

fn line() -> impl Strategy<Value = Line> {
    prop_oneof![
        4 => any::<usize>().prop_map(Line::Good),
        2 => (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Line::Swapped(a, b)),
        2 => (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Line::Other(a, b)),
        1 => Just(Line::Comment),
        1 => Just(Line::Blank),
        1 => prop::collection::vec("[ -~]{0,30}", 0..5).prop_map(Line::Fields),
        1 => prop::collection::vec(any::<u8>(), 0..200).prop_map(Line::Bytes),
    ]
}

impl Names {
    /// The list's bytes, and whether every entry must verify (`None`: the
    /// list holds lines whose outcome the test does not predict).
    fn list(&self, lines: &[Line], crlf: bool) -> (Vec<u8>, Option<bool>) {
        let (n, m) = (self.good.len(), self.other.len());
        let s = |path: &Path| p(path).to_owned();
        let mut out = Vec::new();
        let mut all_good = Some(true);
        let mut entries = 0;
        for l in lines {
            let text: Vec<u8> = match l {
                Line::Good(i) => {
                    entries += 1;
                    let (msg, sig) = &self.good[i % n];
                    format!("{} {}", s(msg), s(sig)).into_bytes()
                }
                Line::Swapped(a, b) => {
                    let (a, b) = (a % n, b % n);
                    entries += 1;
                    if a != b {
                        all_good = all_good.map(|_| false);
                    }
                    format!("{}\t {}", s(&self.good[a].0), s(&self.good[b].1)).into_bytes()
                }
                Line::Other(a, b) => {
                    entries += 1;
                    all_good = all_good.map(|_| false);
                    format!("{} {}", s(&self.good[a % n].0), s(&self.other[b % m])).into_bytes()
                }
                Line::Comment => b"# a comment".to_vec(),
                Line::Blank => b"   ".to_vec(),
                Line::Fields(f) => {
                    all_good = None;
                    f.join(" ").into_bytes()
                }
                Line::Bytes(b) => {
                    all_good = None;
                    b.clone()
                }
            };
            out.extend_from_slice(&text);
            out.extend_from_slice(if crlf { b"\r\n" } else { b"\n" });
        }
        if entries == 0 {
            all_good = all_good.map(|_| false);
        }
        (out, all_good)
    }
}

#[test]
fn verify_batch_lists_never_crash_and_pass_only_when_every_entry_verifies() {
    let batch = Batch::new();
    let inputs = prop_oneof![
        1 => prop::collection::vec(any::<u8>(), 0..2048).prop_map(|b| (b, None)),
        5 => (prop::collection::vec(line(), 0..40), any::<bool>()).prop_map({
            let names = batch.names.clone();
            move |(lines, crlf)| names.list(&lines, crlf)
        }),
    ];
    fuzz("verify-batch", inputs, |(list, all_good)| {
        let out = batch.verify(&list);
        let code = clean(&out);
        let stdout = stdout_of(&out);
        if code == 0 {
            assert_ne!(all_good, Some(false), "a failing list passed:\n{stdout}");
            assert!(stdout.lines().all(|l| l.ends_with(": OK")), "{stdout}");
            assert!(!stdout.is_empty());
        } else if all_good == Some(true) {
            panic!("a list of good pairs failed: {}\n{stdout}", stderr(&out));
        }
        assert!(
            stdout
                .lines()
                .all(|l| l.ends_with(": OK") || l.ends_with(": FAIL")),
            "{stdout}"
        );
    });
}
