//! `merkle::hash_files`: many files at once give, in order, exactly what
//! `merkle::hash_file` gives for each file alone, under every strategy and
//! thread count, with unreadable files reported in their place.

#![allow(clippy::unwrap_used)]

use std::fs::File;
use std::path::PathBuf;

use crate::common::data;
use parcrypt::merkle::{self, ALL_THREADS_FROM, Format, Input, hash_files};
use parcrypt::par::{Parallelism, Strategy};

const FORMATS: [Format; 4] = [
    Format::Sha256,
    Format::Rfc6962 { leaf_size: 4096 },
    Format::BitTorrentV2,
    Format::Glacier,
];

/// What `hash_file` says for `path`, or the error's kind.
fn alone(format: Format, path: &PathBuf) -> Result<Option<parcrypt::digest::Digest>, String> {
    let file = File::open(path).map_err(|e| format!("{:?}", e.kind()))?;
    merkle::hash_file(format, &file, &Parallelism::sequential(), |_| {}).map_err(|e| match e {
        merkle::Error::Io(e) => format!("{:?}", e.kind()),
        e => e.to_string(),
    })
}

/// `hash_files` over `paths`: each outcome as `alone` words it, and how
/// often the sink was told to flush.
fn together(
    format: Format,
    paths: &[PathBuf],
    par: &Parallelism,
) -> (Vec<Result<Option<parcrypt::digest::Digest>, String>>, usize) {
    let (mut got, mut flushes) = (Vec::new(), 0);
    hash_files(
        format,
        paths.iter().map(Input::File),
        std::io::empty(),
        par,
        |r| {
            match r {
                None => flushes += 1,
                Some(r) => {
                    assert_eq!(r.input, Input::File(&paths[got.len()]), "out of order");
                    got.push(r.hash.map_err(|e| match e {
                        merkle::Error::Io(e) => format!("{:?}", e.kind()),
                        e => e.to_string(),
                    }));
                }
            }
            Ok::<(), ()>(())
        },
    )
    .unwrap();
    (got, flushes)
}

/// Sequential, and 1, 2, 3 and 8 threads under both parallel strategies
/// (the files around [`ALL_THREADS_FROM`] make every one cost ~50 MiB of
/// hashing per format).
fn schedules() -> Vec<Parallelism> {
    if crate::common::emulated() {
        // Under qemu, the cross-section every sweep runs there.
        return crate::common::every_parallelism();
    }
    let mut v = vec![Parallelism::sequential()];
    for threads in [1, 2, 3, 8] {
        v.extend([Strategy::Static, Strategy::WorkStealing].map(|s| Parallelism::new(threads, s)));
    }
    v
}

#[test]
fn many_files_equal_each_file_alone_under_every_parallelism() {
    let dir = tempfile::tempdir().unwrap();
    let large = ALL_THREADS_FROM as usize;
    let sizes = [
        0,
        1,
        4095,
        4096,
        (1 << 20) - 1,
        1 << 20,
        (1 << 20) + 1,
        large - 1,
        large,
        large + 16385,
        3,
    ];
    let mut paths: Vec<PathBuf> = Vec::new();
    for (i, &n) in sizes.iter().enumerate() {
        let p = dir.path().join(format!("f{i}"));
        std::fs::write(&p, data(n)).unwrap();
        paths.push(p);
        if i == 2 {
            paths.push(dir.path().join("missing"));
        }
        if i == 8 {
            paths.push(dir.path().to_path_buf()); // a directory: an error in its place
        }
    }
    for format in FORMATS {
        let want: Vec<_> = paths.iter().map(|p| alone(format, p)).collect();
        assert!(want[3].is_err() && want[10].is_err(), "{want:?}");
        for par in schedules() {
            let (got, flushes) = together(format, &paths, &par);
            assert_eq!(got, want, "{format:?} {par:?}");
            assert!(flushes >= 1);
        }
    }
}

#[test]
fn thousands_of_small_files_stream_in_order() {
    // More files than are ever held at once (about a thousand).
    let dir = tempfile::tempdir().unwrap();
    let paths: Vec<PathBuf> = (0..2500)
        .map(|i| {
            let p = dir.path().join(format!("s{i}"));
            std::fs::write(&p, data(i % 97 + i / 1000 * 5000)).unwrap();
            p
        })
        .collect();
    let want: Vec<_> = paths.iter().map(|p| alone(Format::Sha256, p)).collect();
    for par in [
        Parallelism::sequential(),
        Parallelism::new(2, Strategy::Static),
        Parallelism::new(3, Strategy::WorkStealing),
    ] {
        assert_eq!(together(Format::Sha256, &paths, &par).0, want, "{par:?}");
    }
    let rfc = Format::Rfc6962 { leaf_size: 64 };
    let want: Vec<_> = paths.iter().map(|p| alone(rfc, p)).collect();
    assert_eq!(
        together(rfc, &paths, &Parallelism::new(4, Strategy::WorkStealing)).0,
        want
    );
}

#[test]
fn a_bad_leaf_size_is_an_error_per_file() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("a");
    std::fs::write(&p, b"abc").unwrap();
    for leaf_size in [0, merkle::MAX_LEAF_SIZE + 1] {
        let (got, _) = together(
            Format::Rfc6962 { leaf_size },
            std::slice::from_ref(&p),
            &Parallelism::default(),
        );
        assert_eq!(
            got,
            [Err(format!("leaf size {leaf_size} is outside 1 byte to 16 MiB"))]
        );
    }
}

#[test]
fn a_fifo_writer_that_is_waiting_before_hashing_starts_is_read_whole() {
    // The writer blocks in its open until hash_files opens the FIFO, then
    // writes and closes at once, long before the FIFO's turn (it is behind
    // a 1 MiB file). Reading the FIFO through another descriptor than the
    // one that let the writer in would lose those bytes (and wait for ever
    // for a writer that has gone); the whole wait here is bounded.
    let dir = tempfile::tempdir().unwrap();
    let before = dir.path().join("before");
    std::fs::write(&before, data(1 << 20)).unwrap();
    let fifo = dir.path().join("fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let paths = vec![before.clone(), fifo.clone()];
    let want = parcrypt::digest::sha256(b"written before its turn");
    for par in [
        Parallelism::sequential(),
        Parallelism::new(2, Strategy::WorkStealing),
    ] {
        let writer = std::thread::spawn({
            let fifo = fifo.clone();
            move || std::fs::write(fifo, b"written before its turn")
        });
        let (tx, rx) = std::sync::mpsc::channel();
        let hashing = std::thread::spawn({
            let paths = paths.clone();
            move || tx.send(together(Format::Sha256, &paths, &par).0)
        });
        let got = rx
            .recv_timeout(std::time::Duration::from_secs(120))
            .expect("hash_files did not finish within 120 s: the FIFO's bytes were lost");
        hashing.join().unwrap().unwrap();
        writer.join().unwrap().unwrap();
        assert_eq!(got[1], Ok(Some(want)));
        assert_eq!(got[0], alone(Format::Sha256, &before));
    }
}

/// `CompactRange::from_file_range` (a Dask worker's part, read through the
/// pipeline) is `from_bytes_at` of the same bytes, for every format and
/// schedule, across pipeline buffers (the file is past two 8 MiB buffers),
/// starting at leaf 0 or not and ending in a short last leaf or inside the
/// file; a range past the file's end is `UnexpectedEof`, a misaligned
/// offset `InvalidInput`.
#[test]
fn a_file_range_is_the_range_of_its_bytes_under_every_parallelism() {
    use parcrypt::merkle::compact::{CompactRange, Tree};

    let size: usize = (19 << 20) + 12_345;
    // Not periodic in the leaf size: a leaf read from the wrong offset shows.
    let bytes: Vec<u8> = (0..size as u64)
        .map(|i| (i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as u8)
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f");
    std::fs::write(&path, &bytes).unwrap();
    let file = File::open(&path).unwrap();
    for (tree, leaf) in [
        (Tree::Rfc6962, 4096usize),
        (Tree::Rfc6962, 1000),
        (Tree::BitTorrentV2, 16 << 10),
        (Tree::Glacier, 1 << 20),
    ] {
        let leaves = size.div_ceil(leaf);
        let last = leaf * (leaves - 1);
        for (offset, len) in [
            (0, size),
            (3 * leaf, 9 * leaf + 17),
            (leaf * (leaves / 2), size - leaf * (leaves / 2)),
            (last, size - last),
            (7 * leaf, 0),
        ] {
            let want = CompactRange::from_bytes_at(
                tree,
                leaf,
                offset as u64,
                &bytes[offset..offset + len],
                &Parallelism::sequential(),
            );
            for par in schedules() {
                let got = CompactRange::from_file_range(tree, leaf, &file, offset as u64, len as u64, &par)
                    .unwrap();
                assert_eq!(got, want, "{tree} leaf {leaf}, {offset} + {len}, {par:?}");
            }
        }
        let par = Parallelism::default();
        let past = CompactRange::from_file_range(tree, leaf, &file, last as u64, leaf as u64 + 1, &par);
        assert!(
            matches!(&past, Err(merkle::Error::Io(e)) if e.kind() == std::io::ErrorKind::UnexpectedEof),
            "{past:?}"
        );
        let odd = CompactRange::from_file_range(tree, leaf, &file, leaf as u64 / 2, 1, &par);
        assert!(
            matches!(&odd, Err(merkle::Error::Io(e)) if e.kind() == std::io::ErrorKind::InvalidInput),
            "{odd:?}"
        );
    }
}
