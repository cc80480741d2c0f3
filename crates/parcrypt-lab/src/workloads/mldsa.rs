//! ML-DSA-65 (FIPS 204) in batches, where its parallelism is: one signature
//! is fast and serial (AWS-LC), so `SigningKey::sign_batch` and
//! `VerifyingKey::verify_batch` spread many over the threads.
//!
//! - `ml-dsa-sign-batch`: one key signs a batch of 32-byte messages (a
//!   release's artifacts' digests), hedged as by default;
//! - `ml-dsa-verify-batch`: a batch of valid signatures by that key
//!   verified (a repository's packages).
//!
//! Sizes are the number of signatures ([`Unit::Items`]), rates signatures
//! per second. Peers in the same run, one core each: pyca/cryptography 50's
//! `mldsa.MLDSA65PrivateKey` (a loop over `sign`/`verify` in one Python
//! process) and OpenSSL ≥ 3.5 through Node.js (`crypto.sign`/`verify` in one
//! node process), both timed inside their process on the same count.

use std::hint::black_box;
use std::sync::OnceLock;

use parcrypt::keys::{BatchItem, SigningKey as _, VerifyingKey as _};
use parcrypt::mldsa::{ParameterSet, PrivateKey, PublicKey, SignatureOptions};

use super::id;
use super::{Input, Operation, Unit, Width, Workload, own};
use crate::peers::{SignOp, SignPeer};

/// The largest batch measured.
const MAX_BATCH: usize = 1024;

pub(super) fn register(all: &mut Vec<Workload>) {
    let w = |name, description, setup| Workload {
        name,
        family: "ml-dsa",
        description,
        setup,
        parallel: true,
        sizes: Some(batch_sizes),
        unit: Unit::Items("signature"),
        samples,
        openssl: None,
        input: Input::Memory,
        missing: super::runs_anywhere,
        age: None,
        // Its own one-thread cell per signature, as ecdsa-verify-batch: a
        // batch costs its count × one operation, one per thread; the lab
        // measures no ML-DSA kernel below the operation (AWS-LC's NTT,
        // SHAKE) to count from.
        model: own(Width::Items, None),
    };
    all.extend([
        w(
            id::ML_DSA_SIGN_BATCH,
            "ML-DSA-65 sign_batch: one key signs a batch of 32-byte messages (hedged), spread over the threads",
            sign_batch,
        ),
        w(
            id::ML_DSA_VERIFY_BATCH,
            "ML-DSA-65 verify_batch: a batch of signatures by one key verified, spread over the threads",
            verify_batch,
        ),
    ]);
}

/// The peers beside the workload `name`, if it is one of these.
pub(super) fn signer(name: &str) -> Option<SignPeer> {
    let op = match name {
        id::ML_DSA_SIGN_BATCH => SignOp::Sign,
        id::ML_DSA_VERIFY_BATCH => SignOp::Verify,
        _ => return None,
    };
    Some(SignPeer {
        algorithm: "ml-dsa-65",
        op,
        pyca: Some("MLDSA65PrivateKey"),
        in_process: None,
    })
}

/// Batches in signatures; a quick study keeps one that spreads over every
/// thread of the sweep (~0.3 ms a signature: ~20 ms a run).
fn batch_sizes(quick: bool) -> Vec<usize> {
    if quick {
        vec![64]
    } else {
        vec![1, 8, 64, MAX_BATCH]
    }
}

/// As ecdsa's: quick cells take a fixed five samples (short runs, many
/// cells); a full study adapts.
fn samples(quick: bool, _size: usize) -> Option<usize> {
    quick.then_some(5)
}

/// One key, its messages and their signatures, made once per process
/// outside any timed region.
struct Signed {
    key: PrivateKey,
    messages: Vec<parcrypt::digest::Digest>,
    signatures: Vec<Vec<u8>>,
}

fn signed() -> &'static Signed {
    static SIGNED: OnceLock<Signed> = OnceLock::new();
    SIGNED.get_or_init(|| {
        let key = PrivateKey::generate(ParameterSet::MlDsa65).expect("ML-DSA key generation");
        let messages: Vec<parcrypt::digest::Digest> = (0..MAX_BATCH)
            .map(|i| parcrypt::digest::sha256(format!("parcrypt lab message {i}").as_bytes()))
            .collect();
        let signatures = messages
            .iter()
            .map(|m| key.sign(m.as_ref(), b"").expect("ML-DSA signature"))
            .collect();
        Signed {
            key,
            messages,
            signatures,
        }
    })
}

fn messages(size: usize) -> Vec<&'static [u8]> {
    let s = signed();
    (0..size).map(|i| s.messages[i % MAX_BATCH].as_ref()).collect()
}

fn sign_batch(size: usize) -> Operation {
    let s = signed();
    let messages = messages(size);
    let options = SignatureOptions::default();
    // Hedged signatures differ run to run: nothing to hand on but the count.
    Box::new(move |par, output| {
        let signed = s.key.sign_batch(black_box(&messages), &options, par);
        assert!(signed.iter().all(Result::is_ok), "an ML-DSA signature failed");
        output(&[u8::from(signed.len() == messages.len())]);
    })
}

fn verify_batch(size: usize) -> Operation {
    let s = signed();
    let key: &PublicKey = s.key.public_key();
    let items: Vec<BatchItem<'static, PublicKey>> = (0..size)
        .map(|i| i % MAX_BATCH)
        .map(|i| BatchItem {
            key,
            message: s.messages[i].as_ref(),
            signature: &s.signatures[i],
        })
        .collect();
    let options = SignatureOptions::default();
    Box::new(move |par, output| {
        let ok = PublicKey::verify_batch(black_box(&items), &options, par);
        assert!(
            ok.iter().all(Result::is_ok),
            "a valid ML-DSA signature failed to verify"
        );
        output(&[u8::from(ok.len() == items.len())]);
    })
}
