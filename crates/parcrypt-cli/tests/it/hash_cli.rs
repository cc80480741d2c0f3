//! `parcrypt hash` against sha256sum / openssl dgst and the reference
//! vectors; `parcrypt merkle` proofs round-trip and bad input is refused
//! cleanly.

#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{data, parcrypt, require_tool, stderr};
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
    let theirs = Command::new("sha256sum").args(&args).output().unwrap();
    assert_eq!(stdout(&ours), stdout(&theirs));
    // Through stdin, with threads and strategies that change nothing.
    for t in ["1", "2", "5"] {
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
        err.contains(&format!("parcrypt: cannot read {missing}")) && err.contains("hint:"),
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
