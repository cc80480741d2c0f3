//! Many-message SHAKE256: every backend this CPU can run against RustCrypto
//! `sha3` one message at a time — every message length 0..=700 (up to six
//! 136-byte blocks, every padding position) in groups of every size up to
//! two passes of the widest kernel, outputs of 0 to 300 bytes (more than
//! one squeezed block), groups of unequal lengths. Each test prints the
//! backends it ran (CI shows them, unmasked and as an x86-64-v3 CPU).

#![allow(clippy::unwrap_used)]

use parcrypt::digest::{self, Shake256Backend, Shake256Unavailable};
use sha3::digest::{ExtendableOutput, Update};

fn backends_under_test(test: &str) -> Vec<Shake256Backend> {
    let available = Shake256Backend::available();
    let names: Vec<&str> = available.iter().map(|b| b.name()).collect();
    eprintln!(
        "{test}: SHAKE256 backends run: {} ({})",
        names.join(", "),
        parcrypt::cpu::report()
    );
    available
}

fn reference(message: &[u8], out_len: usize) -> Vec<u8> {
    let mut out = vec![0u8; out_len];
    sha3::Shake256::default()
        .chain(message)
        .finalize_xof_into(&mut out);
    out
}

fn check(backend: Shake256Backend, messages: &[&[u8]], out_len: usize, what: &str) {
    let mut out = vec![0xEEu8; messages.len() * out_len];
    backend.shake256_many_into(messages, &mut out).unwrap();
    for (i, m) in messages.iter().enumerate() {
        assert_eq!(
            out[i * out_len..][..out_len],
            reference(m, out_len)[..],
            "{backend}: {what}, message {i} of {} ({} bytes), {out_len}-byte output",
            messages.len(),
            m.len()
        );
    }
}

/// Distinct bytes per message, so a lane that reads another's data fails.
fn data(count: usize, len: usize) -> Vec<Vec<u8>> {
    (0..count)
        .map(|i| (0..len).map(|j| (j * 7 + i * 131 + len) as u8).collect())
        .collect()
}

#[test]
fn every_length_and_group_size_equals_sha3() {
    for backend in backends_under_test("every_length_and_group_size_equals_sha3") {
        for len in 0..=700 {
            for count in [1, 2, 3, 4, 5, 7, 8, 9, 16, 17] {
                let msgs = data(count, len);
                let refs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
                check(backend, &refs, 32, "equal lengths");
            }
        }
    }
}

#[test]
fn every_output_length_equals_sha3() {
    for backend in backends_under_test("every_output_length_equals_sha3") {
        for len in [0, 1, 64, 134, 135, 136, 137, 271, 272, 608] {
            let msgs = data(9, len);
            let refs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
            for out_len in 0..=300 {
                check(backend, &refs[..1 + out_len % 9], out_len, "output length");
            }
        }
    }
}

#[test]
fn unequal_lengths_and_the_active_backend_equal_sha3() {
    for backend in backends_under_test("unequal_lengths_and_the_active_backend_equal_sha3") {
        let msgs: Vec<Vec<u8>> = (0..40).map(|i| data(1, (i * 37) % 420).remove(0)).collect();
        let refs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
        for count in 0..=refs.len() {
            check(backend, &refs[..count], 16, "unequal lengths");
        }
    }
    let msgs = data(21, 80);
    let refs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
    let mut out = vec![0u8; 21 * 24];
    digest::shake256_many_into(&refs, &mut out);
    assert_eq!(out[20 * 24..], reference(refs[20], 24)[..]);
    assert!(Shake256Backend::active().is_available());
}

#[test]
fn unavailable_backends_are_refused() {
    for backend in Shake256Backend::ALL {
        let mut out = [0u8; 32];
        let got = backend.shake256_many_into(&[b"x"], &mut out);
        if backend.is_available() {
            assert_eq!(got, Ok(()));
            assert_eq!(out[..], reference(b"x", 32)[..]);
        } else {
            assert_eq!(got, Err(Shake256Unavailable(backend)));
            assert_eq!(
                Shake256Backend::force(Some(backend)),
                Err(Shake256Unavailable(backend))
            );
        }
    }
    assert_eq!(Shake256Backend::force(None), Ok(()));
}
