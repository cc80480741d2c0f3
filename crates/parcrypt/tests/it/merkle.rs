//! Merkle trees against the transparency-dev/merkle test data (RFC 6962 /
//! RFC 9162), the independent reference's BEP 52 / Glacier / RFC 6962
//! vectors, and sequential == parallel.

#![allow(clippy::unwrap_used)]

use std::io::Read;
use std::path::Path;

use crate::common::{data, emulated, every_parallelism, unhex};
use crate::vectors::rows;
use base64::Engine as _;
use parcrypt::digest::Digest;
use parcrypt::merkle::{self, BitTorrentV2, Chunks, Error, Format, Glacier, Rfc6962};
use parcrypt::par::{Parallelism, Strategy};
use serde_json::Value;

fn tv_dir() -> &'static Path {
    Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/transparency-dev"
    ))
}

fn standard_leaves() -> (Vec<Vec<u8>>, Vec<Digest>) {
    let text = std::fs::read_to_string(tv_dir().join("leaves_roots.txt")).unwrap();
    let (mut leaves, mut roots) = (Vec::new(), Vec::new());
    for (line, f) in rows(&text) {
        let bytes = if f[2] == "-" { vec![] } else { unhex(f[2]) };
        match f[0] {
            "leaf" => leaves.push(bytes),
            "root" => roots.push(bytes.try_into().unwrap()),
            _ => panic!("bad line {line}"),
        }
    }
    assert_eq!((leaves.len(), roots.len()), (8, 9));
    (leaves, roots)
}

#[test]
fn rfc6962_roots_of_the_standard_leaves() {
    check_standard_roots();
}

/// The body of [`rfc6962_roots_of_the_standard_leaves`], also run under every SHA-256 backend
/// (`sha_many.rs`).
pub(crate) fn check_standard_roots() {
    let (leaves, roots) = standard_leaves();
    for par in every_parallelism() {
        for (size, want) in roots.iter().enumerate() {
            assert_eq!(&Rfc6962::root(&leaves[..size], &par), want, "size {size} {par:?}");
            assert_eq!(&merkle::per_level::rfc6962(&leaves[..size], &par), want);
        }
    }
    assert_eq!(Rfc6962::empty_root(), roots[0]);
}

/// Every JSON case under a directory, recursively.
fn cases(sub: &str) -> Vec<(String, Value)> {
    fn walk(dir: &Path, out: &mut Vec<(String, Value)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|e| e == "json") {
                let v = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
                out.push((p.display().to_string(), v));
            }
        }
    }
    let mut out = Vec::new();
    walk(&tv_dir().join(sub), &mut out);
    out
}

fn b64(v: &Value) -> Vec<u8> {
    base64::engine::general_purpose::STANDARD
        .decode(v.as_str().unwrap_or(""))
        .unwrap()
}

fn b64_list(v: &Value) -> Vec<Vec<u8>> {
    v.as_array()
        .map(|a| a.iter().map(b64).collect())
        .unwrap_or_default()
}

/// A hash field as our typed API takes it; None if it is not 32 bytes (the
/// API cannot even be called with it, which is a rejection).
fn hash32(b: &[u8]) -> Option<Digest> {
    b.try_into().ok()
}

#[test]
fn transparency_dev_inclusion_cases() {
    check_transparency_dev_inclusion();
}

/// The body of [`transparency_dev_inclusion_cases`], also run under every SHA-256 backend
/// (`sha_many.rs`).
pub(crate) fn check_transparency_dev_inclusion() {
    let all = cases("inclusion");
    assert!(all.len() > 90, "inclusion test data missing");
    let (leaves, _) = standard_leaves();
    let mut generated = 0;
    for (name, c) in &all {
        let want_err = c["wantErr"].as_bool().unwrap();
        let index = c["leafIdx"].as_u64().unwrap();
        let size = c["treeSize"].as_u64().unwrap();
        let path: Option<Vec<Digest>> = b64_list(&c["proof"]).iter().map(|h| hash32(h)).collect();
        let result = match (hash32(&b64(&c["leafHash"])), hash32(&b64(&c["root"])), path) {
            (Some(leaf), Some(root), Some(path)) => {
                let r = Rfc6962::verify_inclusion(&leaf, index, size, &path, &root);
                // Happy paths over the standard leaves: our prover makes the same proof.
                if !want_err && size <= 8 && leaf == Rfc6962::leaf_hash(&leaves[index as usize]) {
                    let par = Parallelism::new(3, Strategy::WorkStealing);
                    let ours = Rfc6962::inclusion_proof(&leaves[..size as usize], index, &par).unwrap();
                    assert_eq!(ours, path, "{name}");
                    generated += 1;
                }
                r.is_ok()
            }
            _ => false,
        };
        assert_eq!(result, !want_err, "{name}");
    }
    assert!(generated >= 4, "only {generated} proofs regenerated");
}

#[test]
fn transparency_dev_consistency_cases() {
    check_transparency_dev_consistency();
}

/// The body of [`transparency_dev_consistency_cases`], also run under every SHA-256 backend
/// (`sha_many.rs`).
pub(crate) fn check_transparency_dev_consistency() {
    let all = cases("consistency");
    assert!(all.len() > 90, "consistency test data missing");
    let (leaves, _) = standard_leaves();
    let mut generated = 0;
    for (name, c) in &all {
        let want_err = c["wantErr"].as_bool().unwrap();
        let (m, n) = (c["size1"].as_u64().unwrap(), c["size2"].as_u64().unwrap());
        let (r1, r2) = (b64(&c["root1"]), b64(&c["root2"]));
        let path: Option<Vec<Digest>> = b64_list(&c["proof"]).iter().map(|h| hash32(h)).collect();
        // Some "sizes equal" cases use short placeholder roots and only test
        // equality; map them to 32 bytes preserving (in)equality.
        let as_hash = |b: &[u8]| hash32(b).unwrap_or_else(|| sha256(b));
        let result = match path {
            Some(path) => {
                let r = Rfc6962::verify_consistency(m, n, &as_hash(&r1), &as_hash(&r2), &path);
                if !want_err
                    && 0 < m
                    && n <= 8
                    && r1 == Rfc6962::root(&leaves[..m as usize], &Parallelism::sequential())
                {
                    let par = Parallelism::new(2, Strategy::Static);
                    assert_eq!(
                        Rfc6962::consistency_proof(&leaves[..], m, n, &par).unwrap(),
                        path,
                        "{name}"
                    );
                    generated += 1;
                }
                r.is_ok()
            }
            None => false,
        };
        assert_eq!(result, !want_err, "{name}");
    }
    assert!(generated >= 4, "only {generated} proofs regenerated");
}

#[test]
fn proofs_verify_for_every_index_and_size_up_to_64() {
    let leaves: Vec<Vec<u8>> = (0..64u32)
        .map(|i| i.to_be_bytes().repeat(i as usize % 5))
        .collect();
    let par = Parallelism::new(2, Strategy::WorkStealing);
    let roots: Vec<Digest> = (0..=64).map(|n| Rfc6962::root(&leaves[..n], &par)).collect();
    for n in 1..=64usize {
        let tree = &leaves[..n];
        for i in 0..n as u64 {
            let leaf = Rfc6962::leaf_hash(&leaves[i as usize]);
            let proof = Rfc6962::inclusion_proof(tree, i, &par).unwrap();
            Rfc6962::verify_inclusion(&leaf, i, n as u64, &proof, &roots[n]).unwrap();
            // The same proof fails for a neighbour's index and for another
            // root. (Another size can share the path's shape: the size is
            // bound by the signed tree head, not by the path.)
            assert!(Rfc6962::verify_inclusion(&leaf, i ^ 1, n as u64, &proof, &roots[n]).is_err() || n == 1);
            assert!(Rfc6962::verify_inclusion(&leaf, i, n as u64, &proof, &roots[n - 1]).is_err());
            if let Some((_, shorter)) = proof.split_last() {
                assert!(Rfc6962::verify_inclusion(&leaf, i, n as u64, shorter, &roots[n]).is_err());
            }
        }
        assert!(matches!(
            Rfc6962::inclusion_proof(tree, n as u64, &par),
            Err(Error::Index { .. })
        ));
        for m in 1..=n {
            let proof = Rfc6962::consistency_proof(tree, m as u64, n as u64, &par).unwrap();
            Rfc6962::verify_consistency(m as u64, n as u64, &roots[m], &roots[n], &proof).unwrap();
            if m < n {
                assert!(
                    Rfc6962::verify_consistency(m as u64, n as u64, &roots[m - 1], &roots[n], &proof)
                        .is_err()
                );
                let mut longer = proof.clone();
                longer.push(roots[n]);
                assert!(
                    Rfc6962::verify_consistency(m as u64, n as u64, &roots[m], &roots[n], &longer).is_err()
                );
            }
        }
    }
    assert!(Rfc6962::consistency_proof(&leaves[..], 0, 5, &par).is_err());
    assert!(Rfc6962::consistency_proof(&leaves[..], 6, 5, &par).is_err());
    assert!(Rfc6962::consistency_proof(&leaves[..], 5, 65, &par).is_err());
}

/// A reader that hands out at most `step` bytes per call.
struct Trickle<'a> {
    data: &'a [u8],
    step: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(self.step).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

#[test]
fn reference_vectors_bep52_glacier_rfc6962() {
    check_reference_vectors();
}

/// The body of [`reference_vectors_bep52_glacier_rfc6962`], also run under every SHA-256 backend
/// (`sha_many.rs`).
pub(crate) fn check_reference_vectors() {
    let text = include_str!("../data/merkle_vectors.txt");
    let mut pars = vec![
        Parallelism::sequential(),
        Parallelism::new(2, Strategy::Static),
        Parallelism::new(3, Strategy::WorkStealing),
        Parallelism::new(8, Strategy::Static),
    ];
    if emulated() {
        // Under qemu (each SHA-256 backend's run too, `sha_many.rs`):
        // sequential and one uneven parallel split check the aarch64
        // backends on every vector; the native run every schedule.
        pars.retain(|p| !p.is_parallel() || p.threads().get() == 3);
    }
    let mut checked = 0;
    for (line, f) in rows(text) {
        let size: usize = f[1].parse().unwrap();
        let input = data(size);
        for par in &pars {
            let reader = || Trickle {
                data: &input,
                step: 100_003,
            };
            match f[0] {
                "bittorrent-v2" => {
                    let piece: u64 = f[2].parse().unwrap();
                    let root = (f[3] != "none").then(|| unhex(f[3]));
                    let layer: Vec<Vec<u8>> = if f[4] == "-" {
                        vec![]
                    } else {
                        f[4].split(',').map(unhex).collect()
                    };
                    for got in [
                        BitTorrentV2::hashes(&input, piece, par).unwrap(),
                        BitTorrentV2::hashes_reader(reader(), piece, par, |_| {}).unwrap(),
                    ] {
                        assert_eq!(got.size, size as u64);
                        assert_eq!(got.pieces_root.map(|h| h.to_vec()), root, "{line:.60} {par:?}");
                        assert_eq!(
                            got.piece_layer.iter().map(|h| h.to_vec()).collect::<Vec<_>>(),
                            layer,
                            "{line:.60}"
                        );
                    }
                    // BEP 52 lists an empty file without a root; the root
                    // functions give SHA-256 of nothing for it, as every format.
                    let want_root = root.clone().unwrap_or_else(|| sha256(b"").to_vec());
                    assert_eq!(BitTorrentV2::root(&input, par).to_vec(), want_root);
                    assert_eq!(
                        BitTorrentV2::root_reader(reader(), par, |_| {}).unwrap().to_vec(),
                        want_root
                    );
                    let per_level =
                        merkle::per_level::bittorrent_v2(&Chunks::new(&input, BitTorrentV2::BLOCK), par);
                    assert_eq!(per_level.to_vec(), want_root);
                    let via_format =
                        merkle::hash_reader(Format::BitTorrentV2, reader(), par, |_| {}).unwrap();
                    assert_eq!(via_format.map(|h| h.to_vec()), root);
                }
                "glacier" => {
                    let want = unhex(f[3]);
                    assert_eq!(Glacier::root(&input, par).to_vec(), want, "{line} {par:?}");
                    assert_eq!(
                        Glacier::root_reader(reader(), par, |_| {}).unwrap().to_vec(),
                        want
                    );
                    let per_level = merkle::per_level::glacier(&Chunks::new(&input, Glacier::CHUNK), par);
                    assert_eq!(per_level.to_vec(), want);
                }
                "rfc6962" => {
                    let leaf: usize = f[2].parse().unwrap();
                    let want = unhex(f[3]);
                    assert_eq!(
                        Rfc6962::root(&Chunks::new(&input, leaf), par).to_vec(),
                        want,
                        "{line} {par:?}"
                    );
                    assert_eq!(
                        Rfc6962::root_reader(reader(), leaf, par, |_| {})
                            .unwrap()
                            .to_vec(),
                        want
                    );
                    let fmt = Format::Rfc6962 { leaf_size: leaf };
                    assert_eq!(
                        merkle::hash_reader(fmt, reader(), par, |_| {})
                            .unwrap()
                            .unwrap()
                            .to_vec(),
                        want
                    );
                }
                other => panic!("unknown format {other}"),
            }
        }
        checked += 1;
    }
    assert!(checked > 50, "only {checked} vectors checked");
}

#[test]
fn every_strategy_equals_sequential_for_0_to_70_leaves() {
    // 20 KiB leaves: blocks of 4 leaves, parallel from 32 leaves, so the
    // range covers inline, few-block and many-block trees. Under emulation
    // the counts up to 9 and around each power of two and block edge (a
    // quarter of the hashing; every count natively).
    let leaf = 20 * 1024;
    let input = data(70 * leaf + 1);
    let seq = Parallelism::sequential();
    let counts: Vec<usize> = if emulated() {
        vec![
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 31, 32, 33, 35, 36, 37, 63, 64, 65, 70,
        ]
    } else {
        (0..=70).collect()
    };
    for n in counts {
        let bytes = &input[..(n * leaf).saturating_sub(n % 3)];
        let chunks = Chunks::new(bytes, leaf);
        let list: Vec<&[u8]> = (0..chunks_count(bytes.len(), leaf))
            .map(|i| &bytes[i * leaf..((i + 1) * leaf).min(bytes.len())])
            .collect();
        let want = Rfc6962::root(&chunks, &seq);
        let want_bt = BitTorrentV2::hashes(bytes, 32 * 1024, &seq).unwrap();
        let want_gl = Glacier::root(bytes, &seq);
        for par in every_parallelism() {
            assert_eq!(Rfc6962::root(&chunks, &par), want, "n={n} {par:?}");
            assert_eq!(Rfc6962::root(&list[..], &par), want, "n={n} {par:?} list");
            assert_eq!(
                BitTorrentV2::hashes(bytes, 32 * 1024, &par).unwrap(),
                want_bt,
                "n={n} {par:?}"
            );
            assert_eq!(Glacier::root(bytes, &par), want_gl);
        }
    }
}

fn sha256(b: &[u8]) -> Digest {
    aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, b)
        .as_ref()
        .try_into()
        .unwrap()
}

fn chunks_count(len: usize, leaf: usize) -> usize {
    len.div_ceil(leaf)
}

#[test]
fn large_trees_equal_sequential() {
    let input = data((33 << 20) + 12_345);
    let seq = Parallelism::sequential();
    let want = Rfc6962::root(&Chunks::new(&input, 4096), &seq);
    let want_small = Rfc6962::root(&Chunks::new(&input[..3 << 20], 32), &seq);
    let want_bt = BitTorrentV2::hashes(&input, 1 << 20, &seq).unwrap();
    for par in [
        Parallelism::new(2, Strategy::Static),
        Parallelism::new(5, Strategy::WorkStealing),
        Parallelism::new(8, Strategy::Static),
    ] {
        assert_eq!(Rfc6962::root(&Chunks::new(&input, 4096), &par), want);
        assert_eq!(
            Rfc6962::root_reader(&input[..], 4096, &par, |_| {}).unwrap(),
            want
        );
        assert_eq!(
            Rfc6962::root(&Chunks::new(&input[..3 << 20], 32), &par),
            want_small
        );
        assert_eq!(BitTorrentV2::hashes(&input, 1 << 20, &par).unwrap(), want_bt);
        assert_eq!(
            BitTorrentV2::hashes_reader(&input[..], 1 << 20, &par, |_| {}).unwrap(),
            want_bt
        );
    }
    assert_eq!(want_bt.piece_layer.len(), 34);
}

#[test]
fn plain_sha256_and_bad_parameters() {
    let input = data(20 << 20);
    let got = merkle::hash_reader(Format::Sha256, &input[..], &Parallelism::default(), |_| {}).unwrap();
    let want = sha256(&input);
    assert_eq!(got, Some(want));
    let par = Parallelism::default();
    assert!(matches!(
        Rfc6962::root_reader(&b"x"[..], 0, &par, |_| {}),
        Err(Error::LeafSize(0))
    ));
    for bad in [0, 1, 8192, 16385, 3 << 14] {
        assert!(
            matches!(BitTorrentV2::hashes(b"x", bad, &par), Err(Error::PieceLength(_))),
            "{bad}"
        );
    }
    // Progress reports every byte.
    let mut seen = 0;
    Glacier::root_reader(&input[..], &par, |n| seen += n).unwrap();
    assert_eq!(seen, input.len() as u64);
}

#[test]
fn files_hash_through_the_file_pipeline_like_memory() {
    let dir = std::env::temp_dir().join(format!("parcrypt-merkle-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // One pipeline buffer or less, at 1 MiB, and across many 8 MiB buffers
    // with a partial block at the end (under emulation five of them: this
    // test was a tenth of the emulated run at 130 MiB).
    let many = if crate::common::emulated() {
        40 << 20
    } else {
        130 << 20
    };
    for size in [1000, 1 << 20, many + 4097] {
        let input = data(size);
        let path = dir.join(format!("{size}.bin"));
        std::fs::write(&path, &input).unwrap();
        let file = std::fs::File::open(&path).unwrap();
        // Both strategies: each part of a buffer is read by the thread that
        // hashes it, in runs of blocks (`Builder::add_filled`), so parts
        // (and runs) start at other offsets on 3 static threads.
        for par in [
            Parallelism::new(2, Strategy::WorkStealing),
            Parallelism::new(3, Strategy::Static),
        ] {
            hashes_like_memory(&file, &input, &par);
        }
        std::fs::remove_file(&path).unwrap();
    }
    std::fs::remove_dir(&dir).unwrap();
}

/// Every format's hash of `file` under `par` is its hash of `input`, the
/// same bytes in memory.
fn hashes_like_memory(file: &std::fs::File, input: &[u8], par: &Parallelism) {
    let size = input.len();
    let formats = [
        Format::Sha256,
        Format::Rfc6962 { leaf_size: 4096 },
        Format::Rfc6962 { leaf_size: 1000 },
        Format::BitTorrentV2,
        Format::Glacier,
    ];
    for format in formats {
        let mut seen = 0;
        let got = merkle::hash_file(format, file, par, |n| seen += n).unwrap();
        let want = merkle::hash_reader(format, input, &Parallelism::sequential(), |_| {}).unwrap();
        assert_eq!(got, want, "{format:?} size {size} {par:?}");
        assert_eq!(seen, size as u64);
    }
    let want = BitTorrentV2::hashes(input, 4 << 20, &Parallelism::sequential()).unwrap();
    assert_eq!(
        BitTorrentV2::hashes_file(file, 4 << 20, par, |_| {}).unwrap(),
        want
    );
    // Every format's root_file gives its root of the bytes in memory.
    let one = Parallelism::sequential();
    let mut seen = 0;
    assert_eq!(
        Rfc6962::root_file(file, 1000, par, |n| seen += n).unwrap(),
        Rfc6962::root(&Chunks::new(input, 1000), &one)
    );
    assert_eq!(seen, size as u64);
    assert_eq!(
        BitTorrentV2::root_file(file, par, |_| {}).unwrap(),
        BitTorrentV2::root(input, &one)
    );
    assert_eq!(
        Glacier::root_file(file, par, |_| {}).unwrap(),
        Glacier::root(input, &one)
    );
}

/// The empty-input rule of `merkle`: every format's root of nothing is
/// SHA-256 of nothing; only the `Format`-level calls (what `parcrypt hash`
/// prints) give BitTorrent v2's empty file no root, as BEP 52 lists it.
#[test]
fn empty_input_has_one_rule() {
    let par = Parallelism::default();
    let empty = sha256(b"");
    let none: &[&[u8]] = &[];
    assert_eq!(Rfc6962::root(none, &par), empty);
    assert_eq!(Rfc6962::root_reader(&b""[..], 4096, &par, |_| {}).unwrap(), empty);
    assert_eq!(BitTorrentV2::root(b"", &par), empty);
    assert_eq!(BitTorrentV2::root_reader(&b""[..], &par, |_| {}).unwrap(), empty);
    assert_eq!(Glacier::root(b"", &par), empty);
    assert_eq!(Glacier::root_reader(&b""[..], &par, |_| {}).unwrap(), empty);
    assert_eq!(
        BitTorrentV2::hashes(b"", 1 << 14, &par).unwrap().pieces_root,
        None
    );
    for format in ["sha256", "rfc6962", "bittorrent-v2", "glacier"] {
        let format: Format = format.parse().unwrap();
        let got = merkle::hash_reader(format, &b""[..], &par, |_| {}).unwrap();
        let want = (format != Format::BitTorrentV2).then_some(empty);
        assert_eq!(got, want, "{format}");
    }
}

#[test]
fn formats_parse_from_the_cli_names() {
    for (name, format) in [
        ("sha256", Format::Sha256),
        ("rfc6962", Format::Rfc6962 { leaf_size: 4096 }),
        ("bittorrent-v2", Format::BitTorrentV2),
        ("glacier", Format::Glacier),
    ] {
        assert_eq!(name.parse::<Format>(), Ok(format));
        assert_eq!(format.to_string(), name);
    }
    assert_eq!(
        "rfc9162".parse::<Format>(),
        Ok(Format::Rfc6962 { leaf_size: 4096 })
    );
    assert_eq!(
        "rfc6962".parse::<Format>().unwrap().with_leaf_size(32),
        Format::Rfc6962 { leaf_size: 32 }
    );
    assert_eq!(Format::Sha256.with_leaf_size(32), Format::Sha256);
    assert_eq!("md5".parse::<Format>().unwrap_err().kind, "hash format");
}
