//! SLH-DSA (FIPS 205): key generation, signing and verification for each of
//! the twelve parameter sets, one workload per set and operation
//! (`slh-dsa-sign-sha2-128s`, …; `--only slh-dsa-sign` picks every set's
//! signing). A quick study keeps SLH-DSA-SHA2-128s and -128f.
//!
//! - `slh-dsa-keygen-<set>`: a key from fixed seeds (`PrivateKey::from_seeds`:
//!   `generate` less reading 3n random bytes), its top XMSS tree built on the
//!   threads; nominal size 32;
//! - `slh-dsa-sign-<set>`: a deterministic signature of a 32-byte message (the
//!   cost of a hedged one: only `opt_rand` differs), every FORS and XMSS tree
//!   built on the threads; nominal size 32;
//! - `slh-dsa-verify-<set>`: a batch of 1 (one verification, on one thread:
//!   a verification is a path, not a tree), 16 or 64 signatures (and 1,024
//!   for SHA2-128s in a full study) through `verify_batch`, spread over the
//!   threads; sizes count signatures.
//!
//! Peers, one core each, in the same run: OpenSSL ≥ 3.5 through Node.js and
//! RustCrypto's `slh-dsa` in this process, on the same message (see
//! `peers::signers`).
//!
//! Each workload's cost model counts the hash calls FIPS 205 makes for the
//! operation (SHA-256 and SHA-512 compressions with the `PK.seed` block
//! cached, Keccak-f\[1600\] permutations for the SHAKE sets) at the fastest
//! one-core rate of the kernels the lab measures: `sha256-many-*` and
//! `sha256`, and here `sha512` and `shake256` (RustCrypto's `sha2` and
//! `sha3`, what SLH-DSA's SHA-512 and SHAKE run on).

use std::hint::black_box;
use std::sync::OnceLock;

use parcrypt::par::Parallelism;
use parcrypt::slhdsa::{self, BatchItem, Message, ParameterSet, PrivateKey};

use super::id;
use super::{Input, Model, Operation, SEQUENTIAL, Stage, Unit, Width, Workload, adaptive, input};
use crate::peers::{InProcess, SignOp, SignPeer};
use crate::roofline::Primitive;

/// `[f::<0>, …, f::<11>]`: one function per parameter set, in
/// [`ParameterSet::ALL`]'s order (a workload's `setup`, `sizes` and
/// `samples` are plain `fn`s, so the set is a const parameter).
macro_rules! per_set {
    ($f:ident) => {
        [
            $f::<0>, $f::<1>, $f::<2>, $f::<3>, $f::<4>, $f::<5>, $f::<6>, $f::<7>, $f::<8>, $f::<9>,
            $f::<10>, $f::<11>,
        ]
    };
}

/// A workload's `setup`, `sizes` and `samples`, and a peer's run, per set.
type Setup = fn(usize) -> Operation;
type Sizes = fn(bool) -> Vec<usize>;
type Samples = fn(bool, usize) -> Option<usize>;
type PeerRun = fn(SignOp, usize) -> Box<dyn FnMut()>;
/// Messages and their signatures.
type Signed = (Vec<parcrypt::digest::Digest>, Vec<Vec<u8>>);

/// The 32-byte message signed and verified (by the peers too: a digest).
fn message(i: usize) -> parcrypt::digest::Digest {
    parcrypt::digest::sha256(format!("parcrypt lab message {i}").as_bytes())
}

/// The distinct signatures a verification batch cycles through (signing
/// 1,024 SHAKE-256s messages would take minutes of setup; the cost of a
/// verification does not depend on which message).
const DISTINCT: usize = 4;

pub(super) fn register(all: &mut Vec<Workload>) {
    all.extend([
        kernel(
            id::SHA512,
            "SHA-512 of the buffer through RustCrypto sha2 (SLH-DSA's SHA-512), one thread: the SHA-512 compression rate",
            sha512_setup,
        ),
        kernel(
            id::SHAKE256,
            "SHAKE256 of the buffer through RustCrypto sha3 (SLH-DSA's SHAKE), one thread: the Keccak-f[1600] rate",
            shake256_setup,
        ),
    ]);
    let setups: [[Setup; 12]; 3] = [
        per_set!(keygen_setup),
        per_set!(sign_setup),
        per_set!(verify_setup),
    ];
    let sizes: [[Sizes; 12]; 3] = [per_set!(op_sizes), per_set!(op_sizes), per_set!(verify_sizes)];
    let samples: [[Samples; 12]; 3] = [
        per_set!(op_samples),
        per_set!(op_samples),
        per_set!(verify_samples),
    ];
    for op in [Op::Sign, Op::Verify, Op::Keygen] {
        let o = op as usize;
        for s in 0..ParameterSet::ALL.len() {
            let (name, unit, description) = match op {
                Op::Keygen => (
                    id::SLH_DSA_KEYGEN[s],
                    Unit::Operation,
                    "SLH-DSA key generation from fixed seeds, the top XMSS tree built on the threads (the set is in the name)",
                ),
                Op::Sign => (
                    id::SLH_DSA_SIGN[s],
                    Unit::Operation,
                    "an SLH-DSA deterministic signature of a 32-byte message, every FORS and XMSS tree built on the threads (the set is in the name)",
                ),
                Op::Verify => (
                    id::SLH_DSA_VERIFY[s],
                    Unit::Items("signature"),
                    "SLH-DSA verify_batch: signatures of 32-byte messages, one per thread (the set is in the name)",
                ),
            };
            all.push(Workload {
                name,
                family: "slh-dsa",
                description,
                setup: setups[o][s],
                parallel: true,
                sizes: Some(sizes[o][s]),
                unit,
                samples: samples[o][s],
                openssl: None,
                input: Input::Memory,
                missing: super::runs_anywhere,
                age: None,
                model: Model::Cost {
                    stages: stages(op, s),
                    width: if op == Op::Verify {
                        Width::Items
                    } else {
                        Width::Any
                    },
                    cap: None,
                    read_ahead: false,
                },
            });
        }
    }
}

/// The peers beside the workload `name`, if it is one of these.
pub(super) fn signer(name: &str) -> Option<SignPeer> {
    let rustcrypto: [PeerRun; 12] = per_set!(rc_run);
    [Op::Keygen, Op::Sign, Op::Verify].into_iter().find_map(|op| {
        let names = match op {
            Op::Keygen => &id::SLH_DSA_KEYGEN,
            Op::Sign => &id::SLH_DSA_SIGN,
            Op::Verify => &id::SLH_DSA_VERIFY,
        };
        let s = names.iter().position(|n| *n == name)?;
        Some(SignPeer {
            algorithm: OPENSSL_NAMES[s],
            op: match op {
                Op::Keygen => SignOp::Keygen,
                Op::Sign => SignOp::Sign,
                Op::Verify => SignOp::Verify,
            },
            pyca: None,
            in_process: Some(InProcess {
                name: "rustcrypto",
                detail: "RustCrypto slh-dsa 0.2 (deterministic signatures)",
                setup: rustcrypto[s],
            }),
        })
    })
}

/// The sets as OpenSSL and Node.js name their keys, in [`ParameterSet::ALL`]'s order.
const OPENSSL_NAMES: [&str; 12] = [
    "slh-dsa-sha2-128s",
    "slh-dsa-shake-128s",
    "slh-dsa-sha2-128f",
    "slh-dsa-shake-128f",
    "slh-dsa-sha2-192s",
    "slh-dsa-shake-192s",
    "slh-dsa-sha2-192f",
    "slh-dsa-shake-192f",
    "slh-dsa-sha2-256s",
    "slh-dsa-shake-256s",
    "slh-dsa-sha2-256f",
    "slh-dsa-shake-256f",
];

/// An operation of the scheme.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Keygen = 0,
    Sign = 1,
    Verify = 2,
}

/// Whether set `S` is measured in a quick study: SHA2-128s and -128f.
fn in_quick(s: usize) -> bool {
    matches!(
        ParameterSet::ALL[s],
        ParameterSet::Sha2_128s | ParameterSet::Sha2_128f
    )
}

/// One nominal size (the message's 32 bytes); none for the sets a quick
/// study leaves out.
fn op_sizes<const S: usize>(quick: bool) -> Vec<usize> {
    if quick && !in_quick(S) {
        Vec::new()
    } else {
        vec![32]
    }
}

/// Signatures per verification batch: one (a verification alone), and
/// enough to spread over every thread of the sweep; 1,024 for SHA2-128s in a
/// full study (issue #50's batch line; the other sets' verifications take
/// too long for a grid of that size).
fn verify_sizes<const S: usize>(quick: bool) -> Vec<usize> {
    match (quick, in_quick(S), ParameterSet::ALL[S]) {
        (true, false, _) => Vec::new(),
        (true, true, _) => vec![1, 16],
        (false, _, ParameterSet::Sha2_128s) => vec![1, 64, 1024],
        (false, _, _) => vec![1, 64],
    }
}

/// Key generation and signing: a few runs of a small set's ~0.1 s; a `s`
/// set's signatures take seconds on one core for SHAKE, so five runs a cell
/// in a full study; `f` sets adapt there.
fn op_samples<const S: usize>(quick: bool, _size: usize) -> Option<usize> {
    if quick {
        Some(3)
    } else if ParameterSet::ALL[S].is_fast() {
        None
    } else {
        Some(5)
    }
}

/// Verification: five samples in a quick study, adaptive in a full one;
/// three of the 1,024-signature batches (a few tenths of a second each).
fn verify_samples<const S: usize>(quick: bool, size: usize) -> Option<usize> {
    if size >= 1024 { Some(3) } else { quick.then_some(5) }
}

/// The key of set `s`, from fixed seeds, made once per process on every
/// core (a SHAKE-256s key takes a second on one).
fn key(s: usize) -> &'static PrivateKey {
    static KEYS: [OnceLock<PrivateKey>; 12] = [const { OnceLock::new() }; 12];
    KEYS[s].get_or_init(|| {
        let set = ParameterSet::ALL[s];
        let (sk_seed, sk_prf, pk_seed) = seeds(set);
        PrivateKey::from_seeds(set, &sk_seed, &sk_prf, &pk_seed, &Parallelism::default())
            .expect("n-byte seeds")
    })
}

/// The [`DISTINCT`] messages of set `s`'s verifications and their
/// signatures, made once per process on every core.
fn signed(s: usize) -> &'static Signed {
    static SIGNED: [OnceLock<Signed>; 12] = [const { OnceLock::new() }; 12];
    SIGNED[s].get_or_init(|| {
        let digests: Vec<parcrypt::digest::Digest> = (0..DISTINCT).map(message).collect();
        let signatures = digests
            .iter()
            .map(|d| {
                let msg = Message::pure(d, b"").expect("an empty context");
                key(s).sign_deterministic(&msg, &Parallelism::default())
            })
            .collect();
        (digests, signatures)
    })
}

/// `SK.seed`, `SK.prf`, `PK.seed` of `set`: n bytes each of the lab's input.
fn seeds(set: ParameterSet) -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    let bytes = input(3 * set.n());
    let (a, rest) = bytes.split_at(set.n());
    let (b, c) = rest.split_at(set.n());
    (a.to_vec(), b.to_vec(), c.to_vec())
}

fn keygen_setup<const S: usize>(_size: usize) -> Operation {
    let set = ParameterSet::ALL[S];
    let (sk_seed, sk_prf, pk_seed) = seeds(set);
    Box::new(move |par, output| {
        let key =
            PrivateKey::from_seeds(set, black_box(&sk_seed), &sk_prf, &pk_seed, par).expect("n-byte seeds");
        output(key.public_key().as_bytes());
    })
}

fn sign_setup<const S: usize>(_size: usize) -> Operation {
    let key = key(S);
    let digest = message(0);
    Box::new(move |par, output| {
        let msg = Message::pure(black_box(&digest), b"").expect("an empty context");
        output(&key.sign_deterministic(&msg, par));
    })
}

fn verify_setup<const S: usize>(size: usize) -> Operation {
    let public = key(S).public_key();
    let (digests, signatures) = signed(S);
    let messages: Vec<Message<'static>> = digests
        .iter()
        .map(|d| Message::pure(d, b"").expect("an empty context"))
        .collect();
    Box::new(move |par, output| {
        let items: Vec<BatchItem<'_>> = (0..size)
            .map(|i| BatchItem {
                key: public,
                message: &messages[i % DISTINCT],
                signature: &signatures[i % DISTINCT],
            })
            .collect();
        let ok = slhdsa::verify_batch(black_box(&items), par);
        assert!(
            ok.iter().all(|&v| v),
            "a valid SLH-DSA signature failed to verify"
        );
        output(&[u8::from(ok.len() == items.len())]);
    })
}

/// A one-thread hash kernel of SLH-DSA's cost model, over the lab's input
/// (1 and 16 MiB; not in a quick study, whose sets hash with SHA-256 only).
fn kernel(name: &'static str, description: &'static str, setup: fn(usize) -> Operation) -> Workload {
    Workload {
        name,
        family: "hash",
        description,
        setup,
        parallel: false,
        sizes: Some(|quick| {
            if quick {
                Vec::new()
            } else {
                vec![1 << 20, 16 << 20]
            }
        }),
        unit: Unit::Bytes,
        samples: adaptive,
        openssl: None,
        input: Input::Memory,
        missing: super::runs_anywhere,
        age: None,
        model: SEQUENTIAL,
    }
}

fn sha512_setup(size: usize) -> Operation {
    use sha2::Digest as _;
    let data = input(size);
    Box::new(move |_par, output| output(sha2::Sha512::digest(black_box(&data)).as_slice()))
}

fn shake256_setup(size: usize) -> Operation {
    use sha3::digest::{ExtendableOutput as _, Update as _, XofReader as _};
    let data = input(size);
    Box::new(move |_par, output| {
        let mut xof = sha3::Shake256::default();
        xof.update(black_box(&data));
        let mut out = [0u8; 32];
        xof.finalize_xof().read(&mut out);
        output(&out);
    })
}

fn rc_run<const S: usize>(op: SignOp, items: usize) -> Box<dyn FnMut()> {
    rustcrypto(S, op, items)
}

/// RustCrypto's `slh-dsa` doing `op` `items` times a run, on set `s`'s seeds
/// and messages.
fn rustcrypto(s: usize, op: SignOp, items: usize) -> Box<dyn FnMut()> {
    use ParameterSet as P;
    match ParameterSet::ALL[s] {
        P::Sha2_128s => rc::<slh_dsa::Sha2_128s>(s, op, items),
        P::Shake128s => rc::<slh_dsa::Shake128s>(s, op, items),
        P::Sha2_128f => rc::<slh_dsa::Sha2_128f>(s, op, items),
        P::Shake128f => rc::<slh_dsa::Shake128f>(s, op, items),
        P::Sha2_192s => rc::<slh_dsa::Sha2_192s>(s, op, items),
        P::Shake192s => rc::<slh_dsa::Shake192s>(s, op, items),
        P::Sha2_192f => rc::<slh_dsa::Sha2_192f>(s, op, items),
        P::Shake192f => rc::<slh_dsa::Shake192f>(s, op, items),
        P::Sha2_256s => rc::<slh_dsa::Sha2_256s>(s, op, items),
        P::Shake256s => rc::<slh_dsa::Shake256s>(s, op, items),
        P::Sha2_256f => rc::<slh_dsa::Sha2_256f>(s, op, items),
        P::Shake256f => rc::<slh_dsa::Shake256f>(s, op, items),
    }
}

fn rc<P: slh_dsa::ParameterSet + 'static>(s: usize, op: SignOp, items: usize) -> Box<dyn FnMut()> {
    let (sk_seed, sk_prf, pk_seed) = seeds(ParameterSet::ALL[s]);
    let key = slh_dsa::SigningKey::<P>::slh_keygen_internal(&sk_seed, &sk_prf, &pk_seed);
    let digests: Vec<parcrypt::digest::Digest> = (0..DISTINCT).map(message).collect();
    match op {
        SignOp::Keygen => Box::new(move || {
            for _ in 0..items {
                black_box(slh_dsa::SigningKey::<P>::slh_keygen_internal(
                    black_box(&sk_seed),
                    &sk_prf,
                    &pk_seed,
                ));
            }
        }),
        SignOp::Sign => Box::new(move || {
            for _ in 0..items {
                black_box(key.try_sign_with_context(black_box(&digests[0]), b"", None))
                    .expect("an empty context");
            }
        }),
        SignOp::Verify => {
            let signatures: Vec<slh_dsa::Signature<P>> = digests
                .iter()
                .map(|d| key.try_sign_with_context(d, b"", None).expect("an empty context"))
                .collect();
            let public = AsRef::<slh_dsa::VerifyingKey<P>>::as_ref(&key).clone();
            Box::new(move || {
                for i in 0..items {
                    let ok = public.try_verify_with_context(
                        &digests[i % DISTINCT],
                        b"",
                        &signatures[i % DISTINCT],
                    );
                    assert!(ok.is_ok(), "RustCrypto refused a valid signature");
                }
            })
        }
    }
}

// ---- The cost model: hash calls per operation, counted from FIPS 205. ----

/// FIPS 205 Table 2 per set, in [`ParameterSet::ALL`]'s order: n, h, d,
/// a, k, m (w = 16 for all). The library keeps its table private; a test
/// holds this one to the library's key and signature lengths.
const TABLE: [[u64; 6]; 12] = [
    [16, 63, 7, 12, 14, 30],
    [16, 63, 7, 12, 14, 30],
    [16, 66, 22, 6, 33, 34],
    [16, 66, 22, 6, 33, 34],
    [24, 63, 7, 14, 17, 39],
    [24, 63, 7, 14, 17, 39],
    [24, 66, 22, 8, 33, 42],
    [24, 66, 22, 8, 33, 42],
    [32, 64, 8, 14, 22, 47],
    [32, 64, 8, 14, 22, 47],
    [32, 68, 17, 9, 35, 49],
    [32, 68, 17, 9, 35, 49],
];

/// The SHA2 sets are the even ones in [`ParameterSet::ALL`]'s order.
const fn is_sha2(s: usize) -> bool {
    s % 2 == 0
}

/// Bytes of M′ = 0 ‖ 0 ‖ M for the 32-byte message and no context.
const MESSAGE_PRIME: u64 = 2 + 32;

/// Primitive calls of one kind of each primitive.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Calls {
    pub(crate) sha256: f64,
    pub(crate) sha512: f64,
    pub(crate) keccak: f64,
}

impl Calls {
    const ZERO: Calls = Calls {
        sha256: 0.0,
        sha512: 0.0,
        keccak: 0.0,
    };

    const fn plus(self, o: Calls) -> Calls {
        Calls {
            sha256: self.sha256 + o.sha256,
            sha512: self.sha512 + o.sha512,
            keccak: self.keccak + o.keccak,
        }
    }

    const fn times(self, f: f64) -> Calls {
        Calls {
            sha256: self.sha256 * f,
            sha512: self.sha512 * f,
            keccak: self.keccak * f,
        }
    }
}

/// Blocks of a Merkle–Damgård hash of `len` bytes: the message, the 0x80
/// byte and the length field, in blocks of `block` bytes.
const fn md_blocks(len: u64, block: u64, length_field: u64) -> u64 {
    (len + 1 + length_field).div_ceil(block)
}

/// SHA-256 compressions of `len` bytes.
const fn sha256(len: u64) -> Calls {
    Calls {
        sha256: md_blocks(len, 64, 8) as f64,
        ..Calls::ZERO
    }
}

/// SHA-512 compressions of `len` bytes.
const fn sha512(len: u64) -> Calls {
    Calls {
        sha512: md_blocks(len, 128, 16) as f64,
        ..Calls::ZERO
    }
}

/// Keccak-f\[1600\] permutations of SHAKE256 absorbing `len` bytes (rate 136,
/// at least one byte of padding) and squeezing `out`.
const fn shake256(len: u64, out: u64) -> Calls {
    Calls {
        keccak: ((len + 1).div_ceil(136) + out.div_ceil(136) - 1) as f64,
        ..Calls::ZERO
    }
}

/// A tweakable hash (F, H, T_l, PRF) of `payload` bytes after PK.seed and
/// ADRS, for set `s`: SHA2 sets hash `PK.seed ‖ 0…` (one block, cached: not
/// counted) ‖ ADRS^c (22 bytes) ‖ payload, with SHA-256 for F and PRF and for
/// every function of the n = 16 sets, else SHA-512 (`wide`: H and T_l);
/// SHAKE sets hash PK.seed ‖ ADRS (32 bytes) ‖ payload into n bytes.
const fn tweak(s: usize, payload: u64, wide: bool) -> Calls {
    let n = TABLE[s][0];
    if !is_sha2(s) {
        shake256(n + 32 + payload, n)
    } else if wide && n > 16 {
        let c = sha512(128 + 22 + payload);
        Calls {
            sha512: c.sha512 - 1.0,
            ..c
        }
    } else {
        let c = sha256(64 + 22 + payload);
        Calls {
            sha256: c.sha256 - 1.0,
            ..c
        }
    }
}

/// PRF_msg (HMAC of opt_rand ‖ M′ under SK.prf, or SHAKE256) and H_msg (the
/// MGF1 of a hash of R ‖ PK.seed ‖ PK.root ‖ M′ into m bytes, or SHAKE256).
const fn message_hashes(s: usize, sign: bool) -> Calls {
    let [n, _, _, _, _, m] = TABLE[s];
    if !is_sha2(s) {
        let h_msg = shake256(3 * n + MESSAGE_PRIME, m);
        return if sign {
            h_msg.plus(shake256(2 * n + MESSAGE_PRIME, n))
        } else {
            h_msg
        };
    }
    let (block, out) = if n == 16 { (64, 32) } else { (128, 64) };
    let mgf1 = md_hash(n, 2 * n + out + 4).times(m.div_ceil(out) as f64);
    let h_msg = md_hash(n, 3 * n + MESSAGE_PRIME).plus(mgf1);
    if sign {
        // HMAC: the inner hash over the key block, opt_rand ‖ M′; the outer
        // over the key block and the inner digest.
        h_msg
            .plus(md_hash(n, block + n + MESSAGE_PRIME))
            .plus(md_hash(n, block + out))
    } else {
        h_msg
    }
}

/// The message hash of a SHA2 set of security parameter `n`: SHA-256 for
/// n = 16, SHA-512 above.
const fn md_hash(n: u64, len: u64) -> Calls {
    if n == 16 { sha256(len) } else { sha512(len) }
}

/// The hash calls of `op` on set `s` (FIPS 205 §5–§10, as the library
/// builds them): a WOTS+ key is len PRFs, len chains of w − 1 = 15 F steps
/// and T_len; an XMSS tree 2^h′ keys and 2^h′ − 1 H; a FORS tree 2^a
/// leaves of PRF + F and 2^a − 1 H. Signing builds the k FORS trees and the
/// d − 1 lower XMSS trees whole and climbs the top one from the leaves the
/// key keeps, reveals k FORS secrets (PRF), hashes the roots (T_k), and
/// signs d WOTS+ messages (len PRFs and, expected, 7.5 F steps
/// a chain); verification climbs k FORS paths (F + a H each), T_k, and per
/// layer the rest of the chains (7.5 F each, expected), T_len and h′ H;
/// key generation builds the top XMSS tree.
const fn hash_calls(op: Op, s: usize) -> Calls {
    let [n, h, d, a, k, _] = TABLE[s];
    let len = 2 * n + 3;
    let hp = h / d;
    let (f, hh, prf) = (tweak(s, n, false), tweak(s, 2 * n, true), tweak(s, n, false));
    let t_len = tweak(s, len * n, true);
    let t_k = tweak(s, k * n, true);
    let chains = len as f64;
    let wots_key = prf.times(chains).plus(f.times(15.0 * chains)).plus(t_len);
    let leaves = (1u64 << hp) as f64;
    let xmss_tree = wots_key.times(leaves).plus(hh.times(leaves - 1.0));
    let t = (1u64 << a) as f64;
    let fors_tree = prf.plus(f).times(t).plus(hh.times(t - 1.0));
    let (k, d) = (k as f64, d as f64);
    match op {
        Op::Keygen => xmss_tree,
        Op::Sign => {
            let wots_sign = prf.times(chains).plus(f.times(7.5 * chains));
            // The top layer's tree is climbed from the leaves the key keeps
            // (its 2^h′ − 1 H), not rebuilt.
            let top = hh.times(leaves - 1.0);
            message_hashes(s, true)
                .plus(fors_tree.times(k))
                .plus(prf.times(k))
                .plus(t_k)
                .plus(xmss_tree.times(d - 1.0))
                .plus(top)
                .plus(wots_sign.times(d))
        }
        Op::Verify => {
            let layer = f.times(7.5 * chains).plus(t_len).plus(hh.times(hp as f64));
            message_hashes(s, false)
                .plus(f.plus(hh.times(a as f64)).times(k))
                .plus(t_k)
                .plus(layer.times(d))
        }
    }
}

/// SHA-256 compressions, from the lab's SHA-256 kernels: a `sha256-many-*`
/// leaf is a prefix byte and 4,096 bytes, 65 compressions; plain `sha256`
/// one per 64 bytes.
const SHA256_COMPRESSIONS: Primitive = Primitive {
    name: "SHA-256 compressions",
    kernels: &[
        (id::SHA256_MANY_SHA2, 65.0 / 4096.0),
        (id::SHA256_MANY_SHANI_X2, 65.0 / 4096.0),
        (id::SHA256_MANY_SHANI_X4, 65.0 / 4096.0),
        (id::SHA256_MANY_AVX2_X8, 65.0 / 4096.0),
        (id::SHA256_MANY_AVX512_X16, 65.0 / 4096.0),
        (id::SHA256, 1.0 / 64.0),
    ],
};
/// SHA-512 compressions: one per 128 bytes of `sha512`.
const SHA512_COMPRESSIONS: Primitive = Primitive {
    name: "SHA-512 compressions",
    kernels: &[(id::SHA512, 1.0 / 128.0)],
};
/// Keccak-f\[1600\] permutations: one per 136 bytes (SHAKE256's rate) of `shake256`.
const KECCAK_PERMUTATIONS: Primitive = Primitive {
    name: "Keccak-f[1600] permutations",
    kernels: &[(id::SHAKE256, 1.0 / 136.0)],
};

/// Every model's stages, [op][set]: SHA-256 then SHA-512 compressions for
/// the SHA2 sets (none of the latter for n = 16), permutations for SHAKE.
static STAGES: [[[Stage; 2]; 12]; 3] = {
    let mut all = [[[Stage::Own; 2]; 12]; 3];
    let ops = [Op::Keygen, Op::Sign, Op::Verify];
    let mut o = 0;
    while o < 3 {
        let mut s = 0;
        while s < 12 {
            let c = hash_calls(ops[o], s);
            all[o][s] = if is_sha2(s) {
                [
                    Stage::Calls {
                        calls: c.sha256,
                        primitive: SHA256_COMPRESSIONS,
                    },
                    Stage::Calls {
                        calls: c.sha512,
                        primitive: SHA512_COMPRESSIONS,
                    },
                ]
            } else {
                [
                    Stage::Calls {
                        calls: c.keccak,
                        primitive: KECCAK_PERMUTATIONS,
                    },
                    Stage::Calls {
                        calls: 0.0,
                        primitive: SHA512_COMPRESSIONS,
                    },
                ]
            };
            s += 1;
        }
        o += 1;
    }
    all
};

/// The stages of `op` on set `s`, without a stage of no calls.
fn stages(op: Op, s: usize) -> &'static [Stage] {
    let both = &STAGES[op as usize][s];
    match both[1] {
        Stage::Calls { calls, .. } if calls > 0.0 => both,
        _ => &both[..1],
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn the_table_is_fips_205s_as_the_library_sizes_it() {
        for (s, set) in ParameterSet::ALL.into_iter().enumerate() {
            let [n, h, d, a, k, _] = TABLE[s].map(|v| v as usize);
            let len = 2 * n + 3;
            assert_eq!((n, is_sha2(s)), (set.n(), set.is_sha2()), "{set}");
            assert_eq!(n * (1 + k * (1 + a) + h + d * len), set.signature_len(), "{set}");
            assert_eq!(set.is_fast(), d > 8, "{set}");
            assert_eq!(OPENSSL_NAMES[s], set.name().to_lowercase(), "{set}");
            assert!(id::SLH_DSA_SIGN[s].ends_with(&set.name()["SLH-DSA-".len()..].to_lowercase()));
        }
    }

    #[test]
    fn hash_calls_count_the_trees() {
        // SHA2-128s: n = 16, every call one SHA-256 compression after the
        // cached PK.seed block but T_len (22 + 35·16 bytes: 10) and T_k
        // (22 + 14·16: 4). Key generation: 512 WOTS+ keys of 35 PRF, 525 F
        // and T_len, and 511 H.
        let keygen = hash_calls(Op::Keygen, 0);
        assert_eq!(keygen.sha256, 512.0 * (35.0 + 525.0 + 10.0) + 511.0);
        assert_eq!((keygen.sha512, keygen.keccak), (0.0, 0.0));
        // Signing: 14 FORS trees of 4,096 leaves, 6 XMSS trees built and
        // the key's top tree climbed from its kept leaves (511 H), 7 WOTS+
        // signatures, the rest.
        let fors = 14.0 * (4096.0 * 2.0 + 4095.0) + 14.0 + 4.0;
        let ht = 6.0 * keygen.sha256 + 511.0 + 7.0 * (35.0 + 7.5 * 35.0);
        // PRF_msg: HMAC's inner (64 + 16 + 34: 2) and outer (64 + 32: 2);
        // H_msg: 48 + 34 bytes (2) and one MGF1 block (68: 2).
        assert_eq!(hash_calls(Op::Sign, 0).sha256, fors + ht + 8.0);
        // About 1.9 M compressions, as issue #50 estimates (~2 M).
        assert!((1.8e6..2.0e6).contains(&hash_calls(Op::Sign, 0).sha256));
        // The 192/256 SHA2 sets hash H and T with SHA-512; SHAKE only Keccak.
        let sign_192s = hash_calls(Op::Sign, 4);
        assert!(sign_192s.sha256 > 0.0 && sign_192s.sha512 > 0.0);
        let shake = hash_calls(Op::Verify, 1);
        assert!(shake.keccak > 0.0 && shake.sha256 == 0.0 && shake.sha512 == 0.0);
        // Verification is a path: thousands, not millions.
        for s in 0..12 {
            let v = hash_calls(Op::Verify, s);
            let total = v.sha256 + v.sha512 + v.keccak;
            assert!((1e3..2e4).contains(&total), "{s}: {total}");
        }
        assert_eq!(stages(Op::Sign, 0).len(), 1);
        assert_eq!(stages(Op::Sign, 4).len(), 2);
        assert_eq!(stages(Op::Sign, 1).len(), 1);
    }

    #[test]
    fn every_schedule_signs_and_generates_the_same_bytes() {
        // SHA2-128f (a quick set): the workloads' outputs on every strategy
        // equal the sequential ones.
        let s = 2;
        for setup in [keygen_setup::<2> as fn(usize) -> Operation, sign_setup::<2>] {
            let mut op = setup(32);
            let run = |op: &mut Operation, par: &Parallelism| {
                let mut out = Vec::new();
                op(par, &mut |b| out.extend_from_slice(b));
                out
            };
            let reference = run(&mut op, &Parallelism::sequential());
            assert!(!reference.is_empty());
            for par in [
                Parallelism::new(2, parcrypt::par::Strategy::Static),
                Parallelism::new(3, parcrypt::par::Strategy::WorkStealing),
            ] {
                assert_eq!(run(&mut op, &par), reference, "{s}");
            }
        }
        let mut verify = verify_setup::<2>(5);
        verify(
            &Parallelism::new(2, parcrypt::par::Strategy::WorkStealing),
            &mut |b| {
                assert_eq!(b, [1]);
            },
        );
    }

    #[test]
    fn rustcrypto_runs_each_operation() {
        let s = 2; // SHA2-128f
        for op in [SignOp::Keygen, SignOp::Sign, SignOp::Verify] {
            let mut run = rustcrypto(s, op, 1);
            run();
        }
        let peer = signer(id::SLH_DSA_VERIFY[s]).unwrap();
        assert_eq!((peer.algorithm, peer.op), ("slh-dsa-sha2-128f", SignOp::Verify));
        assert!(signer(id::ML_DSA_SIGN_BATCH).is_none());
    }
}
