//! The tlog-tiles workload: [`tiles::verify`] of a C2SP log of 64-byte
//! entries stored in a temporary directory (in the page cache after setup):
//! every entry bundle read and hashed, every level-0 tile compared, every
//! higher tile and the root recomputed. The size counts entries.

use std::hint::black_box;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use parcrypt::merkle::tiles::{self, RebuildOptions, base64_hash};
use parcrypt::par::Parallelism;

use super::id;
use super::{Input, Operation, Unit, Width, Workload, own};

/// Bytes per entry: the figure of merit is 64-byte entries.
const ENTRY: usize = 64;

pub(super) fn register(all: &mut Vec<Workload>) {
    all.push(Workload {
        name: id::MERKLE_TILES_VERIFY,
        family: "merkle",
        description: "verify a C2SP tlog-tiles log on disk of 64-byte entries (records): every entry, tile and the root",
        setup,
        parallel: true,
        sizes: Some(sizes),
        unit: Unit::Items("record"),
        // A 1M-entry run takes ~0.1–0.5 s and averages 3,907 tiles.
        samples: |_, size| (size >= 1_000_000).then_some(7),
        openssl: None,
        input: Input::Memory,
        missing: super::runs_anywhere,
        age: None,
        model: own(Width::Any, None),
    });
}

/// A million entries (3,906 full level-0 tiles, 15 full level-1 tiles and
/// partial tiles at levels 0–2); a quick study keeps 100,000.
fn sizes(quick: bool) -> Vec<usize> {
    if quick {
        vec![100_000]
    } else {
        vec![1_000, 100_000, 1_000_000]
    }
}

fn setup(size: usize) -> Operation {
    let log = Log::write(size);
    Box::new(move |par, output| {
        let verified = tiles::verify(&log.dir, par, |_| {}).expect("the log the lab wrote verifies");
        output(black_box(&verified.checkpoint.root));
    })
}

/// A log directory in the temp directory, removed on drop.
struct Log {
    dir: PathBuf,
}

impl Log {
    /// Writes the entry bundles of `size` entries, builds the tiles with
    /// [`tiles::rebuild`] and writes an unsigned checkpoint.
    ///
    /// # Panics
    /// If the files cannot be written: a workload's setup has no way to fail.
    fn write(size: usize) -> Log {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("parcrypt-lab-{}-tiles-{size}-{n}", std::process::id()));
        let log = Log { dir };
        let mut entry = [0u8; ENTRY];
        for (tile, start) in (0..size).step_by(256).enumerate() {
            let end = (start + 256).min(size);
            let mut bundle = Vec::with_capacity((end - start) * (2 + ENTRY));
            for i in start..end {
                entry[..8].copy_from_slice(&(i as u64).to_le_bytes());
                for (j, b) in entry[8..].iter_mut().enumerate() {
                    *b = ((i + j) % 251) as u8;
                }
                bundle.extend_from_slice(&(ENTRY as u16).to_be_bytes());
                bundle.extend_from_slice(&entry);
            }
            let mut name = tiles::index_path(tile as u64);
            if end - start < 256 {
                name = format!("{name}.p/{}", end - start);
            }
            let path = log.dir.join("tile/entries").join(name);
            let parent = path.parent().unwrap_or(&log.dir);
            std::fs::create_dir_all(parent).unwrap_or_else(|e| fail(&log.dir, e));
            std::fs::write(&path, &bundle).unwrap_or_else(|e| fail(&log.dir, e));
        }
        std::fs::create_dir_all(log.dir.join("tile/entries")).unwrap_or_else(|e| fail(&log.dir, e));
        let rebuilt = tiles::rebuild(
            &log.dir,
            &RebuildOptions::default(),
            &Parallelism::default(),
            |_| {},
        )
        .unwrap_or_else(|e| fail(&log.dir, e));
        let checkpoint = format!("parcrypt-lab/tiles\n{size}\n{}\n", base64_hash(&rebuilt.root));
        std::fs::write(log.dir.join("checkpoint"), checkpoint).unwrap_or_else(|e| fail(&log.dir, e));
        log
    }
}

fn fail<T>(dir: &std::path::Path, e: impl std::fmt::Display) -> T {
    panic!("cannot write the log {}: {e}", dir.display())
}

impl Drop for Log {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
