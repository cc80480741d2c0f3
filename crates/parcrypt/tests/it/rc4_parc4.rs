//! RC4 against RFC 6229; PARC4 against the independent reference's vectors
//! and the properties a per-block-keyed parallel stream cipher must have.

#![allow(clippy::unwrap_used)]

use crate::common::{data, every_parallelism, unhex};
use crate::vectors::records;
use parcrypt::hazmat::{PARC4_MAX_BLOCK_SIZE, Parc4, Rc4, Rc4Error};
use parcrypt::par::Parallelism;

#[test]
fn rc4_rfc6229_every_key_and_offset() {
    let text = include_str!("../data/rfc6229.txt");
    let (mut keys, mut checked) = (0, 0);
    for record in records(text) {
        let (k, v) = &record.fields[0];
        assert_eq!(k, "KEY", "a record starts with its key");
        // The keystream is RC4 over zeros; produce it in uneven pieces so
        // the state carries across calls.
        let mut rc4 = Rc4::new(&unhex(v)).unwrap();
        let mut keystream = vec![0u8; 4112];
        let mut at = 0;
        for piece in [1usize, 15, 240, 1000, 4112].iter().cycle() {
            let end = (at + piece).min(keystream.len());
            rc4.apply_keystream_in_place(&mut keystream[at..end]);
            at = end;
            if at == keystream.len() {
                break;
            }
        }
        keys += 1;
        for (k, v) in &record.fields[1..] {
            let offset: usize = k.parse().unwrap();
            assert_eq!(keystream[offset..offset + 16], unhex(v)[..], "offset {offset}");
            checked += 1;
        }
    }
    assert_eq!((keys, checked), (14, 252));
}

struct Vector {
    key: Vec<u8>,
    nonce: Vec<u8>,
    block: usize,
    len: usize,
    ciphertext: Option<Vec<u8>>,
    head: Option<Vec<u8>>,
    sha256: Option<Vec<u8>>,
}

fn parc4_vectors() -> Vec<Vector> {
    let mut out: Vec<Vector> = Vec::new();
    for record in records(include_str!("../data/parc4_vectors.txt")) {
        let (k, v) = &record.fields[0];
        assert_eq!(k, "KEY", "a record starts with its key");
        let mut cur = Vector {
            key: unhex(v),
            nonce: vec![],
            block: 0,
            len: 0,
            ciphertext: None,
            head: None,
            sha256: None,
        };
        for (k, v) in &record.fields[1..] {
            match k.as_str() {
                "NONCE" => cur.nonce = unhex(v),
                "BLOCK" => cur.block = v.parse().unwrap(),
                "LEN" => cur.len = v.parse().unwrap(),
                "CIPHERTEXT" => cur.ciphertext = Some(unhex(v)),
                "HEAD" => cur.head = Some(unhex(v)),
                "SHA256" => cur.sha256 = Some(unhex(v)),
                other => panic!("unknown field {other}"),
            }
        }
        out.push(cur);
    }
    out
}

fn sha256(data: &[u8]) -> Vec<u8> {
    aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, data)
        .as_ref()
        .to_vec()
}

fn check(v: &Vector, got: &[u8], what: &str) {
    let id = format!("block {} len {} {what}", v.block, v.len);
    assert_eq!(got.len(), v.len, "{id}");
    if let Some(ct) = &v.ciphertext {
        assert!(got == &ct[..], "{id}");
    } else {
        assert_eq!(&got[..64], &v.head.as_ref().unwrap()[..], "{id}");
        assert_eq!(sha256(got), *v.sha256.as_ref().unwrap(), "{id}");
    }
}

#[test]
fn parc4_reference_vectors_every_strategy_and_thread_count() {
    let vectors = parc4_vectors();
    assert_eq!(vectors.len(), 16);
    for v in &vectors {
        let parc4 = Parc4::new(&v.key, &v.nonce, v.block).unwrap();
        for par in every_parallelism() {
            let mut got = data(v.len);
            parc4.apply_keystream_in_place(0, &mut got, &par);
            check(v, &got, &format!("{par:?}"));
        }
        // Streamed through the pipeline with a buffer that is not a block
        // multiple of the input, and in arbitrary pieces through the offset API.
        let mut streamed = Vec::new();
        parc4
            .process_with(
                &data(v.len)[..],
                &mut streamed,
                3 * v.block / 2 + 1,
                &Parallelism::default(),
                |_| {},
            )
            .unwrap();
        check(v, &streamed, "streamed");
        let mut pieces = data(v.len);
        let mut at = 0;
        for step in [7usize, 1, 100, 5000].iter().cycle() {
            let end = (at + step).min(pieces.len());
            parc4.apply_keystream_in_place(at as u64, &mut pieces[at..end], &Parallelism::sequential());
            at = end;
            if at == pieces.len() {
                break;
            }
        }
        check(v, &pieces, "pieces");
    }
}

#[test]
fn parc4_any_schedule_equals_sequential_at_boundaries() {
    for block in [1usize, 32, 4096, 65536] {
        let parc4 = Parc4::new(&[9; 32], &[3; 16], block).unwrap();
        // Every block costs a key schedule and 3072 dropped bytes (~5 µs):
        // keep each case to a few thousand blocks, but always past the
        // parallel threshold (64 KiB parts) so every strategy really splits.
        let big = (256 * 1024).max(4 * block) + 17;
        let lengths = [0, 1, block - 1, block, block + 1, 5 * block + 3, big];
        for len in lengths.into_iter().filter(|&n| n / block <= 8192) {
            let mut reference = data(len);
            parc4.apply_keystream_in_place(0, &mut reference, &Parallelism::sequential());
            for par in every_parallelism() {
                let mut got = data(len);
                parc4.apply_keystream_in_place(0, &mut got, &par);
                assert!(got == reference, "block {block} len {len} {par:?}");
                parc4.apply_keystream_in_place(0, &mut got, &par);
                assert!(got == data(len), "decrypt: block {block} len {len} {par:?}");
            }
        }
    }
}

#[test]
fn parc4_nonces_and_blocks_never_share_keystream() {
    let len = 8 * 4096;
    let zeros = vec![0u8; len];
    let par = Parallelism::default();
    let mut a = zeros.clone();
    Parc4::new(&[1; 16], &[2; 8], 4096)
        .unwrap()
        .apply_keystream_in_place(0, &mut a, &par);
    let mut b = zeros.clone();
    Parc4::new(&[1; 16], &[3; 8], 4096)
        .unwrap()
        .apply_keystream_in_place(0, &mut b, &par);
    assert_ne!(a, b, "a different nonce must change the keystream");
    // Equal plaintext blocks (all zero) encrypt to different ciphertext
    // blocks: the paper's construction would repeat the block here.
    let blocks: Vec<&[u8]> = a.chunks(4096).collect();
    for i in 0..blocks.len() {
        for j in i + 1..blocks.len() {
            assert_ne!(blocks[i], blocks[j], "blocks {i} and {j} share keystream");
        }
    }
    // And the keystream is not RC4's: block 0 is not plain RC4 under the key.
    let mut rc4 = vec![0u8; 4096];
    Rc4::new(&[1; 16]).unwrap().apply_keystream_in_place(&mut rc4);
    assert_ne!(&a[..4096], &rc4[..]);
}

#[test]
fn bad_parameters_are_rejected() {
    for n in [0usize, 4, 257] {
        assert!(matches!(Rc4::new(&vec![1; n]), Err(Rc4Error::KeyLength(m)) if m == n));
    }
    for n in [0usize, 15, 257] {
        assert!(matches!(
            Parc4::new(&vec![1; n], &[0; 16], 64),
            Err(Rc4Error::KeyLength(_))
        ));
    }
    for n in [0usize, 7, 65] {
        assert!(matches!(
            Parc4::new(&[1; 16], &vec![0; n], 64),
            Err(Rc4Error::NonceLength(_))
        ));
    }
    assert!(matches!(
        Parc4::new(&[1; 16], &[0; 16], 0),
        Err(Rc4Error::BlockSize)
    ));
    assert!(Rc4::new(&[1; 5]).is_ok() && Rc4::new(&[1; 256]).is_ok());
}

/// Block sizes past the limit are refused before any buffer is sized (they
/// used to overflow, or abort allocating); the largest one works.
#[test]
fn huge_block_sizes_are_errors() {
    for size in [0, PARC4_MAX_BLOCK_SIZE + 1, 1 << 63, usize::MAX] {
        assert!(
            matches!(Parc4::new(&[1; 16], &[2; 16], size), Err(Rc4Error::BlockSize)),
            "{size}"
        );
    }
    let mut out = Vec::new();
    let parc4 = Parc4::new(&[1; 16], &[2; 16], PARC4_MAX_BLOCK_SIZE).expect("the largest block");
    assert_eq!(
        parc4.process(&b"abc"[..], &mut out, &Parallelism::default()).ok(),
        Some(3)
    );
}

#[test]
fn files_read_positionally_equal_the_reader_path() {
    use std::io::Write;
    let buffer = 4096;
    for len in [0, 1, buffer, buffer + 1, 5 * buffer + 3] {
        let input = data(len);
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(&input).unwrap();
        let mut want = input.clone();
        Rc4::new(b"Key01").unwrap().apply_keystream_in_place(&mut want);
        let mut got = Vec::new();
        Rc4::new(b"Key01")
            .unwrap()
            .process_file_with(&file, &mut got, buffer, |_| {})
            .unwrap();
        assert!(got == want, "rc4 len {len}");
        let parc4 = Parc4::new(&[7; 16], &[9; 16], 1000).unwrap();
        let mut want = input.clone();
        parc4.apply_keystream_in_place(0, &mut want, &Parallelism::sequential());
        for par in every_parallelism() {
            let mut got = Vec::new();
            parc4
                .process_file_with(&file, &mut got, buffer, &par, |_| {})
                .unwrap();
            assert!(got == want, "parc4 len {len} {par:?}");
        }
    }
}
