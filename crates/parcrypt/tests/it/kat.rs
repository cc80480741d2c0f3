//! NIST SP 800-38A Appendix F known answers (tests/data/nist_sp800_38a.txt),
//! for every strategy and thread count, in both directions, one-shot and
//! streamed in odd-sized pieces.

#![allow(clippy::unwrap_used)]

use crate::common::{every_parallelism, unhex};
use crate::vectors::records;
use parcrypt::aes::{Crypter, Ctr};
use parcrypt::hazmat::{self, Ecb};
use parcrypt::par::Parallelism;

#[derive(Debug)]
struct Vector {
    name: String,
    mode: String,
    key: Vec<u8>,
    iv: Vec<u8>,
    pt: Vec<u8>,
    ct: Vec<u8>,
}

fn vectors() -> Vec<Vector> {
    let mut out = Vec::new();
    for record in records(include_str!("../data/nist_sp800_38a.txt")) {
        let mut v_ = Vector {
            name: record.header.expect("record header first"),
            mode: String::new(),
            key: vec![],
            iv: vec![],
            pt: vec![],
            ct: vec![],
        };
        for (k, v) in &record.fields {
            match k.as_str() {
                "MODE" => v_.mode = v.clone(),
                "KEY" => v_.key = unhex(v),
                "IV" => v_.iv = unhex(v),
                "PLAINTEXT" => v_.pt = unhex(v),
                "CIPHERTEXT" => v_.ct = unhex(v),
                other => panic!("unknown field {other}"),
            }
        }
        out.push(v_);
    }
    out
}

/// Unpadded crypter for a vector, as `openssl enc -nopad` would run it.
fn crypter(v: &Vector, encrypt: bool) -> Crypter {
    match v.mode.as_str() {
        "ECB" if encrypt => hazmat::ecb_encrypter_no_padding(&v.key),
        "ECB" => hazmat::ecb_decrypter_no_padding(&v.key),
        "CBC" if encrypt => hazmat::cbc_encrypter_no_padding(&v.key, &v.iv),
        "CBC" => hazmat::cbc_decrypter_no_padding(&v.key, &v.iv),
        "CTR" => Crypter::ctr(&v.key, &v.iv),
        m => panic!("unknown mode {m}"),
    }
    .expect("valid key and IV")
}

/// One-shot, through the mode's own API.
fn one_shot(v: &Vector, encrypt: bool, input: &[u8], par: &Parallelism) -> Vec<u8> {
    let mut buf = input.to_vec();
    match v.mode.as_str() {
        "ECB" => {
            let ecb = Ecb::new(&v.key).unwrap();
            if encrypt {
                ecb.encrypt_blocks_in_place(&mut buf, par).unwrap();
            } else {
                ecb.decrypt_blocks_in_place(&mut buf, par).unwrap();
            }
        }
        "CTR" => Ctr::new(&v.key).unwrap().apply_keystream_in_place(
            &v.iv.clone().try_into().unwrap(),
            &mut buf,
            par,
        ),
        "CBC" => {
            let mut c = crypter(v, encrypt);
            buf = c.update(input, par);
            buf.extend(c.finish().unwrap());
        }
        m => panic!("unknown mode {m}"),
    }
    buf
}

/// Fed to a crypter in pieces of 1, 2, 3, … bytes.
fn streamed(v: &Vector, encrypt: bool, input: &[u8], par: &Parallelism) -> Vec<u8> {
    let mut c = crypter(v, encrypt);
    let mut out = Vec::new();
    let (mut at, mut step) = (0, 1);
    while at < input.len() {
        let end = (at + step).min(input.len());
        out.extend(c.update(&input[at..end], par));
        at = end;
        step += 1;
    }
    out.extend(c.finish().unwrap());
    out
}

#[test]
fn the_file_has_every_record() {
    let v = vectors();
    assert_eq!(v.len(), 9);
    assert!(v.iter().all(|v| v.pt.len() == 64 && v.ct.len() == 64));
}

#[test]
fn nist_sp800_38a_every_strategy_and_thread_count() {
    for v in vectors() {
        for par in every_parallelism() {
            assert_eq!(
                one_shot(&v, true, &v.pt, &par),
                v.ct,
                "{} encrypt {par:?}",
                v.name
            );
            assert_eq!(
                one_shot(&v, false, &v.ct, &par),
                v.pt,
                "{} decrypt {par:?}",
                v.name
            );
            assert_eq!(
                streamed(&v, true, &v.pt, &par),
                v.ct,
                "{} streamed encrypt {par:?}",
                v.name
            );
            assert_eq!(
                streamed(&v, false, &v.ct, &par),
                v.pt,
                "{} streamed decrypt {par:?}",
                v.name
            );
        }
    }
}

#[test]
fn nist_vectors_through_process_with_tiny_buffers() {
    for v in vectors() {
        let par = Parallelism::default();
        let mut out = Vec::new();
        crypter(&v, true)
            .process_with(&v.pt[..], &mut out, 32, &par, |_| {})
            .unwrap();
        assert_eq!(out, v.ct, "{}", v.name);
    }
}
