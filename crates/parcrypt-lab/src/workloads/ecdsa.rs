//! ECDSA P-256 / SHA-256 verification, reproducing the JCE paper's Table 5
//! and showing where threads do pay:
//!
//! - one signature, three ways ([`Unit::Operation`], nominal size 32: the
//!   bytes of a P-256 scalar and of the SHA-256 digest verified):
//!   `ecdsa-verify-separate`, the paper's baseline (u1·G, then u2·Q, then
//!   the sum; one thread whatever the strategy); `ecdsa-verify-split`, the
//!   paper's method (`seq`: the same two products one after the other on one
//!   thread, so its speed-up is the paper's comparison; `static`/`steal`: one
//!   product on each of two threads); and `ecdsa-verify-joint`, AWS-LC's
//!   joint multiplication u1·G + u2·Q (one thread whatever the strategy),
//!   with `openssl speed ecdsap256`'s verifications per second beside it;
//! - many signatures: `ecdsa-verify-batch` verifies a batch of 1, 2, 8, 64 or
//!   1024 signatures (each by its own key), spread over the threads, each
//!   verified jointly. Its size is the number of signatures
//!   ([`Unit::Items`]), its rate verifications per second; the report sets
//!   it against one joint verification at a time on one thread.
//!
//! Digests are computed outside the timed region, as `openssl speed` does
//! (hashing 32 bytes costs ~0.1 µs of a ~60 µs verification).

use std::hint::black_box;
use std::sync::OnceLock;

use parcrypt::ecdsa::{self, DigestItem, PrivateKey, Signature, VerifyStrategy};

use super::id;
use super::{Input, OpensslPeer, Operation, SEQUENTIAL, SpeedRate, Unit, Width, Workload, own};
use parcrypt::keys::SigningKey as _;

/// The nominal size of a single verification: a P-256 scalar, the digest.
const NOMINAL: usize = 32;
/// The largest batch measured.
const MAX_BATCH: usize = 1024;

pub(super) fn register(all: &mut Vec<Workload>) {
    let single = |name, description, setup, parallel, sizes, openssl| Workload {
        model: if parallel {
            own(Width::AtMost(2), None)
        } else {
            SEQUENTIAL
        },
        name,
        family: "ecdsa",
        description,
        setup,
        parallel,
        sizes: Some(sizes),
        unit: Unit::Operation,
        samples,
        openssl,
        input: Input::Memory,
        missing: super::runs_anywhere,
        age: None,
    };
    all.extend([
        single(
            id::ECDSA_VERIFY_JOINT,
            "ECDSA P-256 verification as AWS-LC does it: one joint multiplication u1·G + u2·Q, one thread",
            |_| verify_op(VerifyStrategy::Joint),
            false,
            |_| vec![NOMINAL],
            Some(OpensslPeer {
                speed: &["ecdsap256"],
                rate: SpeedRate::Verify,
                enc: None,
                dgst: None,
            }),
        ),
        single(
            id::ECDSA_VERIFY_SEPARATE,
            "ECDSA P-256 verification, the JCE paper's baseline: u1·G, then u2·Q, then their sum, one thread",
            // Not parallel: run under `Parallelism::sequential()` only, where
            // Split is the two products one after the other.
            |_| verify_op(VerifyStrategy::Split),
            false,
            |quick| if quick { Vec::new() } else { vec![NOMINAL] },
            None,
        ),
        single(
            id::ECDSA_VERIFY_SPLIT,
            "ECDSA P-256 verification, the JCE paper's method: u1·G and u2·Q on two threads (seq: one after the other)",
            |_| verify_op(VerifyStrategy::Split),
            true,
            |_| vec![NOMINAL],
            None,
        ),
        Workload {
            name: id::ECDSA_VERIFY_BATCH,
            family: "ecdsa",
            description: "a batch of ECDSA P-256 signatures (one key each) spread over the threads, each verified jointly",
            setup: batch_op,
            parallel: true,
            sizes: Some(batch_sizes),
            unit: Unit::Items("signature"),
            samples,
            openssl: None,
            input: Input::Memory,
            missing: super::runs_anywhere,
            age: None,
            // Its own one-thread cell per signature, not `ecdsa-verify-joint`'s:
            // a batch verified 23,838 signatures/s on one thread where one
            // joint verification at a time did 9,757/s (`lab --quick`, 2 vCPUs).
            model: own(Width::Items, None),
        },
    ]);
}

/// A quick study's cells are short (2 ms samples of a ~65 µs operation), and
/// the tables set cells of different workloads against each other, so one
/// burst of foreign load in a cell of five samples would move a ratio: quick
/// cells take fifteen (the quick maximum; ~30–70 ms a cell). A full study
/// adapts as usual.
fn samples(quick: bool, _size: usize) -> Option<usize> {
    quick.then_some(15)
}

/// Batch sizes in signatures; a quick study keeps one that cannot use a
/// second thread and one that can.
fn batch_sizes(quick: bool) -> Vec<usize> {
    if quick {
        vec![1, 64]
    } else {
        vec![1, 2, 8, 64, MAX_BATCH]
    }
}

/// Signed digests, each under its own key, made once per process outside any
/// timed region.
struct Signed {
    keys: Vec<PrivateKey>,
    digests: Vec<parcrypt::digest::Digest>,
    signatures: Vec<Signature>,
}

fn signed() -> &'static Signed {
    static SIGNED: OnceLock<Signed> = OnceLock::new();
    SIGNED.get_or_init(|| {
        let keys: Vec<PrivateKey> = (0..MAX_BATCH)
            .map(|_| PrivateKey::generate().expect("ECDSA key generation"))
            .collect();
        let digests: Vec<parcrypt::digest::Digest> = (0..MAX_BATCH)
            .map(|i| parcrypt::digest::sha256(format!("parcrypt lab message {i}").as_bytes()))
            .collect();
        let signatures = keys
            .iter()
            .zip(&digests)
            .map(|(key, digest)| key.sign_digest(digest).expect("ECDSA signature"))
            .collect();
        Signed {
            keys,
            digests,
            signatures,
        }
    })
}

fn verify_op(strategy: VerifyStrategy) -> Operation {
    let s = signed();
    let (key, digest, signature) = (s.keys[0].public_key(), &s.digests[0], &s.signatures[0]);
    Box::new(move |par, output| {
        key.verify_digest_vartime(black_box(digest), signature, strategy, par)
            .expect("valid signature");
        output(&[1]);
    })
}

fn batch_op(size: usize) -> Operation {
    let s = signed();
    // Sizes come from the workload's own grid (at most MAX_BATCH); a larger
    // one would reuse the signatures in turn.
    let items: Vec<DigestItem<'static>> = (0..size)
        .map(|i| i % MAX_BATCH)
        .map(|i| DigestItem {
            key: s.keys[i].public_key(),
            digest: &s.digests[i],
            signature: &s.signatures[i],
        })
        .collect();
    Box::new(move |par, output| {
        let ok = ecdsa::verify_batch_digests_vartime(black_box(&items), par);
        assert!(ok.iter().all(|&v| v), "a valid signature failed to verify");
        output(&[u8::from(ok.len() == items.len())]);
    })
}
