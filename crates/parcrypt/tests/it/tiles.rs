//! `merkle::tiles`: every strategy and thread count writes the same tiles
//! and finds the same first problem as `Sequential`; the root equals the
//! engine's `Rfc6962::root` of the entries at tile boundaries; hostile logs
//! fail with typed errors. (Interop with independently written logs: the
//! CLI's `tiles_cli` tests.)
#![allow(clippy::unwrap_used)]

use std::fs;
use std::path::{Path, PathBuf};

use parcrypt::merkle::Error;
use parcrypt::merkle::Rfc6962;
use parcrypt::merkle::tiles::{self, Checkpoint, RebuildOptions, base64_hash, index_path};
use parcrypt::par::{Parallelism, Strategy};

fn pars() -> Vec<Parallelism> {
    if crate::common::emulated() {
        // The emulated cross-section (sequential, static on 3, work
        // stealing on 8): the rebuild over 11 sizes was the emulated run's
        // second slowest test on all seven.
        return crate::common::every_parallelism();
    }
    let mut all = vec![Parallelism::sequential()];
    for strategy in [Strategy::Static, Strategy::WorkStealing] {
        all.extend([2, 3, 8].map(|t| Parallelism::new(t, strategy)));
    }
    all
}

fn entry(i: usize) -> Vec<u8> {
    (0..(i * 7) % 90).map(|j| (i + j) as u8).collect()
}

fn name(n: usize, width: usize) -> String {
    let n = index_path(n as u64);
    if width == 256 { n } else { format!("{n}.p/{width}") }
}

/// A log directory with the entry bundles of `size` entries (no tiles) and
/// a checkpoint of `size` and `root`.
fn bundles(dir: &Path, size: usize) -> Vec<Vec<u8>> {
    let entries: Vec<Vec<u8>> = (0..size).map(entry).collect();
    for (n, chunk) in entries.chunks(256).enumerate() {
        let mut bundle = Vec::new();
        for e in chunk {
            bundle.extend_from_slice(&(e.len() as u16).to_be_bytes());
            bundle.extend_from_slice(e);
        }
        let path = dir.join("tile/entries").join(name(n, chunk.len()));
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, bundle).unwrap();
    }
    fs::create_dir_all(dir.join("tile/entries")).unwrap();
    let root = Rfc6962::root(&entries[..], &Parallelism::sequential());
    let checkpoint = format!("test.example/log\n{size}\n{}\n", base64_hash(&root));
    fs::write(dir.join("checkpoint"), checkpoint).unwrap();
    entries
}

fn files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
        for e in fs::read_dir(dir).unwrap() {
            let path = e.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                out.push((
                    path.strip_prefix(root).unwrap().to_owned(),
                    fs::read(&path).unwrap(),
                ));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

#[test]
fn every_strategy_writes_the_same_tiles_and_the_engines_root() {
    for size in [0, 1, 255, 256, 257, 511, 512, 1025, 65_535, 65_536, 65_793] {
        let tmp = tempfile::tempdir().unwrap();
        let entries = bundles(tmp.path(), size);
        let want = Rfc6962::root(&entries[..], &Parallelism::sequential());
        let mut reference = None;
        for par in pars() {
            let mut progress = 0;
            let options = RebuildOptions {
                size: None,
                force: true,
            };
            let rebuilt = tiles::rebuild(tmp.path(), &options, &par, |n| progress += n).unwrap();
            assert_eq!(
                (rebuilt.size, rebuilt.root),
                (size as u64, want),
                "{size} entries, {par:?}"
            );
            assert_eq!(progress, size as u64, "{size} entries, {par:?}");
            let written = files(&tmp.path().join("tile"));
            match &reference {
                None => reference = Some(written),
                Some(r) => assert!(r == &written, "{size} entries: {par:?} wrote other tiles"),
            }
            let mut progress = 0;
            let verified = tiles::verify(tmp.path(), &par, |n| progress += n).unwrap();
            assert_eq!((verified.checkpoint.size, progress), (size as u64, size as u64));
        }
        // Tile count: level l has ⌈s / 256^(l+1)⌉… as the spec's formula gives.
        let tiles_written = reference
            .unwrap()
            .iter()
            .filter(|(p, _)| !p.starts_with("entries"))
            .count();
        let mut expect = 0;
        let mut below = size;
        while below > 0 {
            expect += below / 256 + usize::from(below % 256 > 0);
            below /= 256;
        }
        assert_eq!(tiles_written, expect, "{size} entries");
    }
}

#[test]
fn the_first_problem_in_log_order_is_reported_whatever_the_schedule() {
    let tmp = tempfile::tempdir().unwrap();
    bundles(tmp.path(), 300 * 256 + 9);
    let options = RebuildOptions::default();
    tiles::rebuild(tmp.path(), &options, &Parallelism::sequential(), |_| {}).unwrap();
    // Three problems: a later tile truncated, a later bundle gone, and the
    // earliest — a stored hash changed in tile 40.
    let tile = |n: usize| tmp.path().join("tile/0").join(name(n, 256));
    fs::write(tile(250), b"short").unwrap();
    fs::remove_file(tmp.path().join("tile/entries").join(name(120, 256))).unwrap();
    let mut t40 = fs::read(tile(40)).unwrap();
    t40[77 * 32] ^= 1;
    fs::write(tile(40), t40).unwrap();
    for par in pars() {
        match tiles::verify(tmp.path(), &par, |_| {}) {
            Err(Error::TileHash {
                path,
                level: 0,
                index: 77,
                tile_index: 40,
                ..
            }) => assert!(path.ends_with("tile/0/040"), "{path:?}"),
            other => panic!("{par:?}: {other:?}"),
        }
    }
}

#[test]
fn a_higher_level_tile_is_checked_against_the_full_tiles_below() {
    let tmp = tempfile::tempdir().unwrap();
    bundles(tmp.path(), 256 * 256 + 256 * 3);
    tiles::rebuild(
        tmp.path(),
        &RebuildOptions::default(),
        &Parallelism::sequential(),
        |_| {},
    )
    .unwrap();
    for (rel, index) in [("tile/1/000", 200), ("tile/1/001.p/3", 1), ("tile/2/000.p/1", 0)] {
        let path = tmp.path().join(rel);
        let original = fs::read(&path).unwrap();
        let mut damaged = original.clone();
        damaged[index * 32 + 31] ^= 0x40;
        fs::write(&path, &damaged).unwrap();
        for par in pars() {
            match tiles::verify(tmp.path(), &par, |_| {}) {
                Err(Error::TileHash {
                    path: p, index: i, ..
                }) => {
                    assert!(p.ends_with(rel) && i == index, "{rel}: {p:?} {i}")
                }
                other => panic!("{rel}, {par:?}: {other:?}"),
            }
        }
        fs::write(&path, original).unwrap();
    }
    assert!(tiles::verify(tmp.path(), &Parallelism::default(), |_| {}).is_ok());
}

#[test]
fn hostile_logs_fail_with_typed_errors() {
    let par = Parallelism::new(2, Strategy::WorkStealing);
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    bundles(dir, 600);
    tiles::rebuild(dir, &RebuildOptions::default(), &par, |_| {}).unwrap();

    // A bundle far larger than 256 entries can be is refused after reading
    // at most one byte more than the largest possible bundle.
    let b0 = dir.join("tile/entries/000");
    let saved = fs::read(&b0).unwrap();
    fs::write(&b0, vec![0xff; 256 * 65_537 + 4096]).unwrap();
    assert!(matches!(
        tiles::verify(dir, &par, |_| {}),
        Err(Error::Bundle { .. })
    ));
    // A bundle that is a directory.
    fs::remove_file(&b0).unwrap();
    fs::create_dir(&b0).unwrap();
    assert!(matches!(
        tiles::verify(dir, &par, |_| {}),
        Err(Error::File { .. })
    ));
    fs::remove_dir(&b0).unwrap();
    fs::write(&b0, saved).unwrap();
    assert!(tiles::verify(dir, &par, |_| {}).is_ok());

    // A checkpoint of a megabyte and more is not read whole.
    let cp = dir.join("checkpoint");
    let saved = fs::read(&cp).unwrap();
    fs::write(&cp, vec![b'a'; (1 << 20) + 1]).unwrap();
    assert!(matches!(
        tiles::verify(dir, &par, |_| {}),
        Err(Error::Checkpoint { .. })
    ));
    // An absurd tree size: the first bundle past the log is missing.
    let text = String::from_utf8(saved.clone())
        .unwrap()
        .replace("\n600\n", &format!("\n{}\n", u64::MAX));
    fs::write(&cp, text).unwrap();
    match tiles::verify(dir, &par, |_| {}) {
        Err(Error::Missing {
            path,
            size: Some(u64::MAX),
        }) => assert!(path.ends_with("tile/entries/002")),
        other => panic!("{other:?}"),
    }
    fs::write(&cp, &saved).unwrap();
    assert_eq!(Checkpoint::read(dir).unwrap().size, 600);

    // rebuild: existing tiles without force; a size the bundles do not hold.
    assert!(matches!(
        tiles::rebuild(dir, &RebuildOptions::default(), &par, |_| {}),
        Err(Error::Exists { .. })
    ));
    let options = RebuildOptions {
        size: Some(601),
        force: true,
    };
    assert!(matches!(
        tiles::rebuild(dir, &options, &par, |_| {}),
        Err(Error::Missing { .. })
    ));
    assert!(
        tiles::verify(dir, &par, |_| {}).is_ok(),
        "a failed rebuild changed the log"
    );
    // Not a log at all.
    let empty = tempfile::tempdir().unwrap();
    assert!(matches!(
        tiles::rebuild(empty.path(), &RebuildOptions::default(), &par, |_| {}),
        Err(Error::Layout { .. })
    ));
}
