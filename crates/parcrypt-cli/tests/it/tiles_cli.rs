//! `parcrypt merkle tiles verify|rebuild` on logs written by independent
//! implementations: a committed log from Go's `golang.org/x/mod/sumdb/tlog`
//! (`tests/data/tiles/log-1000`), 70,000-entry logs generated on the spot by
//! the same Go program and by a Python/hashlib one (`tests/tools/`), and
//! hand-damaged copies, each of which must fail naming the exact place.
#![allow(clippy::unwrap_used)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use super::common::{parcrypt, require, stderr};

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/tiles/log-1000");
const TOOLS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/tools");
/// The root of the fixture as the Go generator printed it.
const FIXTURE_ROOT: &str = "4676945bb2985cb388f95741f8c9136082bdd932cc61dee6a5a40ac52b5feb44";
const FIXTURE_ROOT_B64: &str = "RnaUW7KYXLOI+VdB+MkTYIK92TLMYd7mpaQKxStf60Q=";

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A scratch copy of the fixture.
fn fixture_copy() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("log");
    copy_dir(Path::new(FIXTURE), &dir);
    (tmp, dir)
}

fn tiles(args: &[&str], dir: &Path) -> Output {
    let mut all = vec!["merkle", "tiles"];
    all.extend_from_slice(args);
    all.push(dir.to_str().unwrap());
    parcrypt(&all, b"")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Asserts that `verify` fails with exit 1 and a message containing every
/// one of `needles`, and a hint.
fn fails_naming(dir: &Path, needles: &[&str]) {
    let out = tiles(&["verify"], dir);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(out.stdout.is_empty(), "{}", stdout(&out));
    assert!(err.starts_with("parcrypt: ") && err.contains("hint: "), "{err}");
    for needle in needles {
        assert!(err.contains(needle), "stderr lacks {needle:?}:\n{err}");
    }
}

/// The byte offset of entry `k`'s data in a bundle, and its length.
fn entry_at(bundle: &[u8], k: usize) -> (usize, usize) {
    let mut at = 0;
    for _ in 0..k {
        at += 2 + usize::from(u16::from_be_bytes([bundle[at], bundle[at + 1]]));
    }
    (
        at + 2,
        usize::from(u16::from_be_bytes([bundle[at], bundle[at + 1]])),
    )
}

/// Every file under `dir`, as paths relative to it.
fn files(dir: &Path) -> Vec<PathBuf> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                out.push(path.strip_prefix(root).unwrap().to_owned());
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// Deletes the tiles of `log`, rebuilds them from the bundles and checks
/// that every tile of the tree of `size` entries (`expect`, the full tiles
/// and the current partial ones) is byte-for-byte the original, and that
/// the root printed is `root`.
fn rebuild_matches(log: &Path, size: u64, root: &str, expect: &[&str]) {
    let tmp = tempfile::tempdir().unwrap();
    let copy = tmp.path().join("copy");
    copy_dir(log, &copy);
    for level in fs::read_dir(copy.join("tile")).unwrap() {
        let level = level.unwrap().path();
        if level.file_name().unwrap() != "entries" {
            fs::remove_dir_all(level).unwrap();
        }
    }
    let out = tiles(&["rebuild"], &copy);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with(&format!("rebuilt {size} entries, root {root} (")),
        "{}",
        stdout(&out)
    );
    let rebuilt: Vec<PathBuf> = files(&copy.join("tile"))
        .into_iter()
        .filter(|p| !p.starts_with("entries"))
        .collect();
    let expect: Vec<PathBuf> = expect.iter().map(PathBuf::from).collect();
    assert_eq!(rebuilt, expect, "the tiles written");
    for rel in &expect {
        let ours = fs::read(copy.join("tile").join(rel)).unwrap();
        let theirs = fs::read(log.join("tile").join(rel)).unwrap();
        assert!(ours == theirs, "tile/{} differs from the original", rel.display());
    }
    // Nothing left of the staging directory, and the result verifies.
    assert!(
        fs::read_dir(copy.join("tile")).unwrap().all(|e| !e
            .unwrap()
            .file_name()
            .to_string_lossy()
            .starts_with('.')),
        "a staging directory was left behind"
    );
    let out = tiles(&["verify"], &copy);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn go_fixture_verifies_on_every_strategy_and_thread_count() {
    let want = format!("verified 1000 entries, root {FIXTURE_ROOT} ({FIXTURE_ROOT_B64})\n");
    for strategy in ["seq", "static", "steal"] {
        for threads in ["1", "2", "3"] {
            let dir = Path::new(FIXTURE).to_str().unwrap();
            let args = [
                "--threads",
                threads,
                "--strategy",
                strategy,
                "merkle",
                "tiles",
                "verify",
                dir,
            ];
            let out = parcrypt(&args, b"");
            assert!(out.status.success(), "{strategy} ×{threads}: {}", stderr(&out));
            assert_eq!(stdout(&out), want, "{strategy} ×{threads}");
            // Signatures are not checked, and the output says so.
            assert!(stderr(&out).contains("not checked"), "{}", stderr(&out));
        }
    }
}

#[test]
fn rebuild_reproduces_the_go_tiles_byte_for_byte() {
    let expect = ["0/000", "0/001", "0/002", "0/003.p/232", "1/000.p/3"];
    rebuild_matches(Path::new(FIXTURE), 1000, FIXTURE_ROOT, &expect);
}

#[test]
fn rebuild_of_an_older_size_reproduces_that_sizes_partial_tiles() {
    // The fixture keeps the partial tiles of its size-300 checkpoint.
    let (_tmp, dir) = fixture_copy();
    for level in ["0", "1"] {
        fs::rename(dir.join("tile").join(level), dir.join(format!("orig-{level}"))).unwrap();
    }
    let out = tiles(&["rebuild", "--size", "300"], &dir);
    assert!(out.status.success(), "{}", stderr(&out));
    // The checkpoint is for 1000 entries; rebuild says it left it alone.
    assert!(stderr(&out).contains("not 300"), "{}", stderr(&out));
    for (rebuilt, original) in [
        ("0/000", "orig-0/000"),
        ("0/001.p/44", "orig-0/001.p/44"),
        ("1/000.p/1", "orig-1/000.p/1"),
    ] {
        let ours = fs::read(dir.join("tile").join(rebuilt)).unwrap();
        assert_eq!(ours, fs::read(dir.join(original)).unwrap(), "{rebuilt}");
    }
}

#[test]
fn rebuild_refuses_existing_tiles_unless_forced() {
    let (_tmp, dir) = fixture_copy();
    let before = fs::read(dir.join("tile/0/000")).unwrap();
    fs::write(dir.join("tile/0/000"), b"junk").unwrap();
    let out = tiles(&["rebuild"], &dir);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("tile/0 already exists") && stderr(&out).contains("--force"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        fs::read(dir.join("tile/0/000")).unwrap(),
        b"junk",
        "refused, yet changed"
    );

    let out = tiles(&["rebuild", "--force"], &dir);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(fs::read(dir.join("tile/0/000")).unwrap(), before);
    // --force replaces the levels whole: the old size-300 partials are gone.
    assert!(!dir.join("tile/0/001.p").exists());
    assert!(tiles(&["verify"], &dir).status.success());
}

#[test]
fn rebuild_that_fails_leaves_the_log_as_it_was() {
    let (_tmp, dir) = fixture_copy();
    let listing = files(&dir);
    // Entry bundle 002 cut short: rebuild --force must fail and change nothing.
    let bundle = dir.join("tile/entries/002");
    let len = fs::metadata(&bundle).unwrap().len();
    fs::OpenOptions::new()
        .write(true)
        .open(&bundle)
        .unwrap()
        .set_len(len - 3)
        .unwrap();
    let out = tiles(&["rebuild", "--force"], &dir);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("tile/entries/002"), "{}", stderr(&out));
    assert_eq!(files(&dir), listing, "files appeared or vanished");
    assert_eq!(
        fs::read(dir.join("tile/0/000")).unwrap(),
        fs::read(Path::new(FIXTURE).join("tile/0/000")).unwrap()
    );
}

#[test]
fn a_flipped_entry_byte_is_reported_at_its_tile_and_index() {
    let (_tmp, dir) = fixture_copy();
    // Entry 700 = bundle 002, position 188.
    let path = dir.join("tile/entries/002");
    let mut bundle = fs::read(&path).unwrap();
    let (at, len) = entry_at(&bundle, 700 - 512);
    assert!(len > 0);
    bundle[at + len / 2] ^= 0x01;
    fs::write(&path, bundle).unwrap();
    fails_naming(&dir, &["tile/0/002: hash 188 is", "entry 700"]);
}

#[test]
fn swapped_tile_hashes_are_reported_at_the_first() {
    let (_tmp, dir) = fixture_copy();
    let path = dir.join("tile/0/001");
    let mut tile = fs::read(&path).unwrap();
    let (a, b) = tile.split_at_mut(11 * 32);
    a[10 * 32..].swap_with_slice(&mut b[..32]);
    fs::write(&path, tile).unwrap();
    fails_naming(&dir, &["tile/0/001: hash 10 is", "entry 266"]);
}

#[test]
fn a_damaged_level_1_hash_is_reported_there() {
    let (_tmp, dir) = fixture_copy();
    let path = dir.join("tile/1/000.p/3");
    let mut tile = fs::read(&path).unwrap();
    tile[2 * 32 + 5] ^= 0x80;
    fs::write(&path, tile).unwrap();
    fails_naming(&dir, &["tile/1/000.p/3: hash 2 is", "the root of tile/0/002"]);
}

#[test]
fn a_truncated_tile_is_reported_with_its_length() {
    let (_tmp, dir) = fixture_copy();
    let path = dir.join("tile/0/003.p/232");
    fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(100)
        .unwrap();
    fails_naming(
        &dir,
        &["tile/0/003.p/232 is 100 bytes", "232 hashes is 7424 bytes"],
    );
}

#[test]
fn a_truncated_bundle_entry_is_reported() {
    let (_tmp, dir) = fixture_copy();
    let path = dir.join("tile/entries/003.p/232");
    let len = fs::metadata(&path).unwrap().len();
    fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(len - 5)
        .unwrap();
    fails_naming(&dir, &["tile/entries/003.p/232", "entry 999", "cut short"]);
    // Trailing bytes after the last entry are as wrong as missing ones.
    let (_tmp2, dir) = fixture_copy();
    let path = dir.join("tile/entries/001");
    let mut bundle = fs::read(&path).unwrap();
    bundle.extend_from_slice(&[0, 1, 7]);
    fs::write(&path, bundle).unwrap();
    fails_naming(&dir, &["tile/entries/001", "3 bytes follow its 256 entries"]);
}

#[test]
fn a_missing_bundle_or_tile_is_named() {
    let (_tmp, dir) = fixture_copy();
    fs::remove_file(dir.join("tile/entries/001")).unwrap();
    fails_naming(&dir, &["tile/entries/001 is missing", "1000 entries"]);
    let (_tmp2, dir) = fixture_copy();
    fs::remove_file(dir.join("tile/0/002")).unwrap();
    fails_naming(&dir, &["tile/0/002 is missing"]);
}

#[test]
fn a_wrong_checkpoint_is_reported() {
    let checkpoint = fs::read_to_string(Path::new(FIXTURE).join("checkpoint")).unwrap();
    let with = |size: &str, root: &str| {
        let (tmp, dir) = fixture_copy();
        let text = checkpoint
            .replacen("\n1000\n", &format!("\n{size}\n"), 1)
            .replacen(FIXTURE_ROOT_B64, root, 1);
        fs::write(dir.join("checkpoint"), text).unwrap();
        (tmp, dir)
    };
    // Too small: the entries and tiles of 999 agree, but not with the root.
    let (_t, dir) = with("999", FIXTURE_ROOT_B64);
    fails_naming(
        &dir,
        &["the checkpoint says the root of 999 entries is", FIXTURE_ROOT_B64],
    );
    // Too large: the bundle that would hold entry 1000 is not there.
    let (_t, dir) = with("1001", FIXTURE_ROOT_B64);
    fails_naming(&dir, &["tile/entries/003.p/233 is missing", "1001 entries"]);
    // Absurd: the first bundle past the log is missing; nothing is allocated for the size.
    let (_t, dir) = with("18446744073709551615", FIXTURE_ROOT_B64);
    fails_naming(&dir, &["tile/entries/003 is missing"]);
    // Wrong root.
    let zero = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";
    let (_t, dir) = with("1000", zero);
    fails_naming(
        &dir,
        &[
            "the checkpoint says the root of 1000 entries is AAAA",
            FIXTURE_ROOT_B64,
        ],
    );
    // Not a checkpoint at all.
    for (size, root, why) in [
        ("1e3", FIXTURE_ROOT_B64, "tree size"),
        ("99999999999999999999", FIXTURE_ROOT_B64, "64 bits"),
        ("1000", "AAAA", "32 bytes"),
    ] {
        let (_t, dir) = with(size, root);
        fails_naming(&dir, &["checkpoint", why]);
    }
    let (_t, dir) = fixture_copy();
    fs::remove_file(dir.join("checkpoint")).unwrap();
    fails_naming(&dir, &["checkpoint is missing"]);
}

/// Verifies a freshly generated log of 70,000 entries (273 full level-0
/// tiles, a partial one of 112, a full and a partial level-1 tile, a
/// partial level-2 tile) and rebuilds its tiles byte for byte.
fn check_generated(dir: &Path, root: &str) {
    let out = tiles(&["verify"], dir);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with(&format!("verified 70000 entries, root {root} (")),
        "{}",
        stdout(&out)
    );
    let mut expect: Vec<String> = (0..273).map(|n| format!("0/{n:03}")).collect();
    expect.extend(["0/273.p/112", "1/000", "1/001.p/17", "2/000.p/1"].map(String::from));
    let expect: Vec<&str> = expect.iter().map(String::as_str).collect();
    rebuild_matches(dir, 70_000, root, &expect);
}

#[test]
fn a_70000_entry_log_from_go_x_mod_tlog() {
    let go = Command::new("go")
        .arg("version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !require("go", go) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("log");
    // The log grows through 65,536 (a full level-1 tile) to 70,000.
    let out = Command::new("go")
        .args([
            "run",
            ".",
            "-out",
            log.to_str().unwrap(),
            "-sizes",
            "1000,65536,70000",
        ])
        .current_dir(Path::new(TOOLS).join("tlog-gen"))
        .env("GOTOOLCHAIN", "local")
        .env("GOFLAGS", "-mod=readonly")
        .output()
        .unwrap();
    assert!(out.status.success(), "go run: {}", stderr(&out));
    let printed = stdout(&out);
    let (size, root) = printed.trim().split_once(' ').unwrap();
    assert_eq!(size, "70000");
    check_generated(&log, root);
}

#[test]
fn a_70000_entry_log_from_python_hashlib() {
    let python = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !require("python3", python) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("log");
    let out = Command::new("python3")
        .arg(Path::new(TOOLS).join("tlog_gen.py"))
        .args([log.to_str().unwrap(), "70000"])
        .output()
        .unwrap();
    assert!(out.status.success(), "tlog_gen.py: {}", stderr(&out));
    let printed = stdout(&out);
    let (size, root) = printed.trim().split_once(' ').unwrap();
    assert_eq!(size, "70000");
    check_generated(&log, root);
}
