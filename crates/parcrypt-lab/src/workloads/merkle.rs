//! Merkle tree workloads: every format on the engine (block-parallel, no
//! barrier per level), the ParalCrypto paper's level-by-level method on the
//! same trees for comparison, and plain SHA-256 as the serial baseline. The
//! OpenSSL peers hash the same bytes with plain SHA-256 (`openssl speed
//! sha256`, `openssl dgst -sha256`): a tree costs ~2% more hashing than that.

use std::hint::black_box;

use parcrypt::digest::Backend;
use parcrypt::merkle::{self, BitTorrentV2, Chunks, Format, Glacier, Rfc6962};

use super::id;
use super::{
    Input, Model, OpensslPeer, Operation, READS_MEMORY, READS_PAGE_CACHE, SEQUENTIAL, SpeedRate, Stage, Unit,
    Width, Workload, adaptive, input, own,
};
use crate::ceilings::Ceiling;
use crate::peers::FileSet;

const SHA256_PEER: OpensslPeer = OpensslPeer {
    speed: &["-evp", "sha256"],
    rate: SpeedRate::Bytes,
    enc: None,
    dgst: Some(&["-sha256"]),
};

/// The tree formats, which `b3sum` (BLAKE3's own tree) stands beside on a
/// file of the largest size measured.
pub(super) const BESIDE_B3SUM: [&str; 3] = [
    id::MERKLE_RFC6962_4KIB,
    id::MERKLE_BITTORRENT_V2,
    id::MERKLE_GLACIER,
];

pub(super) fn register(all: &mut Vec<Workload>) {
    let w = |name, description, setup, parallel| Workload {
        name,
        family: "merkle",
        description,
        setup,
        parallel,
        sizes: Some(sizes),
        unit: Unit::Bytes,
        samples: adaptive,
        openssl: Some(SHA256_PEER),
        input: Input::Memory,
        missing: super::runs_anywhere,
        age: None,
        model: if parallel {
            own(Width::Any, READS_MEMORY)
        } else {
            SEQUENTIAL
        },
    };
    let small = |mut w: Workload| {
        w.sizes = Some(small_leaf_sizes);
        w
    };
    all.extend([
        w(
            id::SHA256,
            "plain SHA-256 (Merkle–Damgård: serial by nature)",
            sha256,
            false,
        ),
        many::<0>(id::SHA256_MANY_SHA2),
        many::<1>(id::SHA256_MANY_SHANI_X2),
        many::<2>(id::SHA256_MANY_SHANI_X4),
        many::<3>(id::SHA256_MANY_AVX2_X8),
        many::<4>(id::SHA256_MANY_AVX512_X16),
        w(
            id::MERKLE_RFC6962_4KIB,
            "RFC 6962 tree head, 4 KiB leaves",
            |n| rfc6962(n, 4096),
            true,
        ),
        small(w(
            id::MERKLE_RFC6962_32B,
            "RFC 6962 tree head, the ParalCrypto paper's 32-byte leaves",
            |n| rfc6962(n, 32),
            true,
        )),
        w(
            id::MERKLE_PER_LEVEL_4KIB,
            "the paper's level-by-level method (barrier per level), RFC 6962, 4 KiB leaves",
            |n| per_level(n, 4096),
            true,
        ),
        small(w(
            id::MERKLE_PER_LEVEL_32B,
            "the paper's level-by-level method, RFC 6962, 32-byte leaves",
            |n| per_level(n, 32),
            true,
        )),
        w(
            id::MERKLE_BITTORRENT_V2,
            "BEP 52 pieces root (16 KiB blocks)",
            bittorrent,
            true,
        ),
        w(
            id::MERKLE_GLACIER,
            "Glacier tree hash (1 MiB chunks)",
            glacier,
            true,
        ),
        Workload {
            name: id::MERKLE_RFC6962_FILE,
            family: "merkle",
            description: "`parcrypt hash --format rfc6962 FILE`: the RFC 6962 tree head (4 KiB leaves) of a file in the page cache, read with positional reads by the threads",
            setup: rfc6962_file,
            parallel: true,
            sizes: Some(file_sizes),
            unit: Unit::Bytes,
            samples: super::aead_samples,
            // Its peers (`openssl dgst`, `b3sum`) stand beside the tree of
            // memory, on a file already.
            openssl: None,
            input: Input::File,
            missing: super::runs_anywhere,
            age: None,
            model: Model::Cost {
                stages: &[
                    Stage::Ceiling(Ceiling::PageCacheRead),
                    Stage::Kernel(id::MERKLE_RFC6962_4KIB),
                ],
                width: Width::Any,
                cap: READS_PAGE_CACHE,
                // One thread: a reader thread reads ahead (`pipe::run_file`).
                read_ahead: true,
            },
        },
        Workload {
            name: id::HASH_MANY_FILES,
            family: "hash",
            description: "`parcrypt hash FILE…`: SHA-256 of many 4 KiB files, several files per thread, results in order",
            setup: many_files,
            parallel: true,
            sizes: Some(|quick| vec![if quick { 1_000 } else { 10_000 }]),
            unit: Unit::Items("file"),
            samples: adaptive,
            openssl: None,
            input: Input::ManyFiles {
                file_size: MANY_FILES_SIZE,
            },
            missing: super::runs_anywhere,
            age: None,
            model: own(Width::Items, None),
        },
    ]);
}

/// The leaf size of the `sha256-many-*` workloads.
const MANY_LEAF: usize = 4096;

/// `sha256-many-<backend>`: RFC 6962 leaf hashes (`0x00 ‖ 4 KiB`) of the
/// whole input, all handed to the many-message SHA-256 backend
/// `Backend::ALL[B]` at once, on one thread (the kernel's rate per core, to
/// set beside `openssl speed -evp sha256`, one message at a time). A
/// backend this CPU cannot run has an empty size grid, so the study leaves
/// it out instead of timing a fallback under its name.
fn many<const B: usize>(name: &'static str) -> Workload {
    Workload {
        name,
        family: "sha256",
        description: "RFC 6962 leaf hashes of 4 KiB leaves through one many-message SHA-256 backend, one thread",
        setup: many_setup::<B>,
        parallel: false,
        sizes: Some(many_sizes::<B>),
        unit: Unit::Bytes,
        samples: adaptive,
        openssl: Some(SHA256_PEER),
        input: Input::Memory,
        missing: many_missing::<B>,
        age: None,
        model: SEQUENTIAL,
    }
}

/// What the CPU lacks (or `PARCRYPT_CPU_MASK` masks) to run backend `B`.
fn many_missing<const B: usize>() -> Option<String> {
    Backend::ALL[B].missing()
}

fn many_sizes<const B: usize>(quick: bool) -> Vec<usize> {
    if quick {
        vec![16 << 20]
    } else {
        vec![1 << 20, 16 << 20, 64 << 20]
    }
}

fn many_setup<const B: usize>(size: usize) -> Operation {
    let backend = Backend::ALL[B];
    let data = input(size);
    Box::new(move |_par, output| {
        let leaves: Vec<&[u8]> = black_box(&data).chunks(MANY_LEAF).collect();
        let mut hashes = vec![[0u8; 32]; leaves.len()];
        // The runner never sets up a workload that is `missing`, so this
        // always hashes.
        if backend
            .sha256_many_prefixed_into(&[0], &leaves, &mut hashes)
            .is_ok()
        {
            output(black_box(hashes.as_flattened()));
        }
    })
}

/// The size of each file of [`id::HASH_MANY_FILES`].
const MANY_FILES_SIZE: usize = 4096;

/// `parcrypt hash` over `count` files of 4 KiB in the page cache (written
/// once, in setup; removed with the operation), each hash handed on in
/// order as the CLI prints it.
fn many_files(count: usize) -> Operation {
    let set = FileSet::create(&std::env::temp_dir(), id::HASH_MANY_FILES, count, MANY_FILES_SIZE);
    // (The lab has no error path out of an operation: files that could not
    // be written are not hashed, and their hashes are missing from the output.)
    let paths = set.as_ref().map(FileSet::paths).unwrap_or_default();
    Box::new(move |par, output| {
        let _files = &set; // removed with the operation
        let inputs = paths.iter().map(merkle::Input::File);
        let _ = merkle::hash_files(Format::Sha256, inputs, std::io::empty(), par, |r| {
            if let Some(r) = r
                && let Ok(Some(hash)) = r.hash
            {
                output(black_box(&hash));
            }
            Ok::<(), ()>(())
        });
    })
}

/// The lab's grid plus ParalCrypto's image and text (Table 5); a quick study
/// keeps the paper's inputs and one throughput size.
fn sizes(quick: bool) -> Vec<usize> {
    use super::{PARALCRYPTO_IMAGE, PARALCRYPTO_TEXT};
    let mut v = if quick {
        vec![16 << 20]
    } else {
        super::DEFAULT_SIZES.to_vec()
    };
    v.extend([PARALCRYPTO_TEXT, PARALCRYPTO_IMAGE]);
    v.sort_unstable();
    v
}

/// 32-byte leaves cost ~0.2 µs each: stop at 16 MiB (half a million leaves).
fn small_leaf_sizes(quick: bool) -> Vec<usize> {
    sizes(quick).into_iter().filter(|&n| n <= 16 << 20).collect()
}

fn sha256(size: usize) -> Operation {
    let data = input(size);
    Box::new(move |_par, output| {
        output(black_box(&parcrypt::digest::sha256(black_box(&data))));
    })
}

fn rfc6962(size: usize, leaf: usize) -> Operation {
    let data = input(size);
    Box::new(move |par, output| {
        output(black_box(&Rfc6962::root(
            &Chunks::new(black_box(&data), leaf),
            par,
        )));
    })
}

/// [`id::MERKLE_RFC6962_FILE`]'s sizes: the tree of memory's largest
/// (16 MiB quick, 64 MiB), where its one-core cell is the kernel's, and the
/// 1 GiB file `scripts/bench.py` hashes with the CLI.
fn file_sizes(quick: bool) -> Vec<usize> {
    if quick {
        vec![16 << 20]
    } else {
        vec![16 << 20, 64 << 20, 1 << 30]
    }
}

/// What `parcrypt hash --format rfc6962 FILE` does (`merkle::hash_file`:
/// the crate's file pipeline) on a file of `size` bytes in the page cache.
fn rfc6962_file(size: usize) -> Operation {
    let file = super::stream::unlinked(&super::stream::temp_path(id::MERKLE_RFC6962_FILE, size), |f| {
        super::write_input(f, size)
    });
    Box::new(move |par, output| {
        let root = Rfc6962::root_file(&file, 4096, par, |_| {}).expect("hashing a file in the page cache");
        output(black_box(&root));
    })
}

fn per_level(size: usize, leaf: usize) -> Operation {
    let data = input(size);
    Box::new(move |par, output| {
        output(black_box(&merkle::per_level::rfc6962(
            &Chunks::new(black_box(&data), leaf),
            par,
        )));
    })
}

fn bittorrent(size: usize) -> Operation {
    let data = input(size);
    Box::new(move |par, output| {
        output(black_box(&BitTorrentV2::root(black_box(&data), par)));
    })
}

fn glacier(size: usize) -> Operation {
    let data = input(size);
    Box::new(move |par, output| {
        output(black_box(&Glacier::root(black_box(&data), par)));
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The file workload hashes what `parcrypt hash --format rfc6962` of
    /// the file would (the tree of the same bytes in memory), one buffer or
    /// several, on one thread and on several.
    #[test]
    fn the_file_tree_is_the_tree_of_the_same_bytes() {
        use parcrypt::par::{Parallelism, Strategy};
        let mut all = Vec::new();
        register(&mut all);
        let w = all.iter().find(|w| w.name == id::MERKLE_RFC6962_FILE).unwrap();
        assert_eq!((w.sizes.unwrap())(false).last(), Some(&(1 << 30)));
        for size in [0, 1, 4096, (9 << 20) + 5] {
            let want = Rfc6962::root(&Chunks::new(&input(size), 4096), &Parallelism::sequential());
            let mut op = (w.setup)(size);
            for par in [
                Parallelism::sequential(),
                Parallelism::new(3, Strategy::WorkStealing),
            ] {
                let mut got = Vec::new();
                op(&par, &mut |root| got = root.to_vec());
                assert_eq!(got, want.to_vec(), "{size} bytes");
            }
        }
    }

    #[test]
    fn each_sha256_many_workload_is_named_for_its_backend() {
        let mut all = Vec::new();
        register(&mut all);
        let many: Vec<&str> = all
            .iter()
            .map(|w| w.name)
            .filter(|n| n.starts_with("sha256-many-"))
            .collect();
        let want: Vec<String> = Backend::ALL
            .iter()
            .map(|b| format!("sha256-many-{}", b.name()))
            .collect();
        assert_eq!(many, want);
        // Each one hashes through its own backend: equal to the reference
        // where the CPU has it, `missing` (and left out of a study) where not.
        let data = input(3 * MANY_LEAF + 100);
        let want = Rfc6962::leaf_hash(&data[..MANY_LEAF]);
        for (w, backend) in all
            .iter()
            .filter(|w| w.name.starts_with("sha256-many-"))
            .zip(Backend::ALL)
        {
            assert_eq!((w.missing)(), backend.missing(), "{}", w.name);
            assert!(!(w.sizes.unwrap())(true).is_empty(), "{}", w.name);
            if let Some(why) = (w.missing)() {
                eprintln!("{}: skipped, this machine lacks {why}", w.name);
                continue;
            }
            let mut op = (w.setup)(3 * MANY_LEAF + 100);
            let mut seen = Vec::new();
            op(&parcrypt::par::Parallelism::sequential(), &mut |b: &[u8]| {
                seen.extend_from_slice(b)
            });
            assert_eq!(seen.len(), 4 * 32, "{}", w.name);
            assert_eq!(seen[..32], want, "{}", w.name);
        }
    }
}
