//! RSA workloads, reproducing both RSA papers:
//!
//! - the JCE paper's key generation (p ∥ q) and private operation (CRT halves
//!   in parallel): `rsa-keygen-{1024,2048,4096}`; `rsa-sign-{2048,4096}` as
//!   parcrypt signs by default ([`CrtMode::Auto`]: on AVX-512 IFMA CPUs both
//!   halves at once in SIMD lanes on one core, which beats two threads, so
//!   more threads change nothing there), with `openssl speed rsaN` beside it;
//!   and `rsa-sign-{2048,4096}-threads`, the paper's method forced
//!   ([`CrtMode::Threads`]: `seq` is the same one-core computation, `static`
//!   and `steal` put one half on each of two threads);
//! - the research application's chunked encryption of long messages, blocks
//!   spread over threads, on its grid of 10 B … 1 MB: `rsa-bulk-enc` and
//!   `rsa-bulk-dec`.
//!
//! The size axis is bytes. Key generation and signing are
//! [`Unit::Operation`] workloads with one nominal size: the modulus length
//! k in bytes (128, 256, 512), which is also the length of the message
//! signed; the key size is in the workload's name. Their rates are operations
//! per second; throughput does not apply. Bulk sizes are the message's bytes.
//!
//! Key generation is heavy-tailed (2048 bits: 22–219 ms here, by how far the
//! next prime is), so its cells take a fixed, larger number of samples and
//! the report gives the p90 beside the median.

use std::hint::black_box;
use std::sync::OnceLock;

use parcrypt::digest::Algorithm;
use parcrypt::hazmat::{rsa_bulk_decrypt, rsa_bulk_encrypt};
use parcrypt::par::Parallelism;
use parcrypt::rsa::{CrtMode, PrivateKey, Scheme};

use super::id;
use super::{Input, Model, OpensslPeer, Operation, SpeedRate, Unit, Width, Workload, adaptive, input, own};
use parcrypt::keys::SigningKey as _;

/// The default CRT mode picks, by CPU, two threads or one core's SIMD lanes
/// for the two halves: no one cost model fits both.
const AUTO_CRT: Model = Model::None(
    "CrtMode::Auto runs the CRT halves on two threads or in one core's AVX-512 IFMA lanes by CPU; rsa-sign-*-threads has the two-thread model",
);

pub(super) fn register(all: &mut Vec<Workload>) {
    let keygen = |name, description, setup, sizes, samples| Workload {
        model: own(Width::PrimePair, None),
        name,
        family: "rsa",
        description,
        setup,
        parallel: true,
        sizes: Some(sizes),
        unit: Unit::Operation,
        samples,
        openssl: None,
        input: Input::Memory,
        missing: super::runs_anywhere,
        age: None,
    };
    let sign = |name, description, setup, sizes, speed: Option<&'static [&'static str]>, model| Workload {
        model,
        name,
        family: "rsa",
        description,
        setup,
        parallel: true,
        sizes: Some(sizes),
        unit: Unit::Operation,
        samples: adaptive,
        openssl: speed.map(|speed| OpensslPeer {
            speed,
            rate: SpeedRate::Sign,
            enc: None,
            dgst: None,
        }),
        input: Input::Memory,
        missing: super::runs_anywhere,
        age: None,
    };
    all.extend([
        keygen(
            id::RSA_KEYGEN_1024,
            "RSA-1024 key generation, the papers' size (seq: p then q; static: p ∥ q; steal: all threads race)",
            |_| keygen_op(1024),
            |_| vec![128],
            |quick, _| Some(if quick { 15 } else { 60 }),
        ),
        keygen(
            id::RSA_KEYGEN_2048,
            "RSA-2048 key generation (seq: p then q; static: p ∥ q; steal: all threads race)",
            |_| keygen_op(2048),
            |quick| if quick { Vec::new() } else { vec![256] },
            |_, _| Some(50),
        ),
        keygen(
            id::RSA_KEYGEN_4096,
            "RSA-4096 key generation (seq: p then q; static: p ∥ q; steal: all threads race)",
            |_| keygen_op(4096),
            |quick| if quick { Vec::new() } else { vec![512] },
            |_, _| Some(12),
        ),
        sign(
            id::RSA_SIGN_2048,
            "RSASSA-PSS SHA-256 signature, RSA-2048, CRT as parcrypt does by default (auto)",
            |_| sign_op(2048, CrtMode::Auto),
            |_| vec![256],
            Some(&["rsa2048"]),
            AUTO_CRT,
        ),
        sign(
            id::RSA_SIGN_2048_THREADS,
            "RSASSA-PSS SHA-256 signature, RSA-2048, the JCE paper's CRT halves on two threads",
            |_| sign_op(2048, CrtMode::Threads),
            |_| vec![256],
            None,
            own(Width::AtMost(2), None),
        ),
        sign(
            id::RSA_SIGN_4096,
            "RSASSA-PSS SHA-256 signature, RSA-4096, CRT as parcrypt does by default (auto)",
            |_| sign_op(4096, CrtMode::Auto),
            |quick| if quick { Vec::new() } else { vec![512] },
            Some(&["rsa4096"]),
            AUTO_CRT,
        ),
        sign(
            id::RSA_SIGN_4096_THREADS,
            "RSASSA-PSS SHA-256 signature, RSA-4096, the JCE paper's CRT halves on two threads",
            |_| sign_op(4096, CrtMode::Threads),
            |quick| if quick { Vec::new() } else { vec![512] },
            None,
            own(Width::AtMost(2), None),
        ),
        Workload {
            name: id::RSA_BULK_ENC,
            family: "rsa",
            description: "the research paper's chunked RSA-2048 OAEP encryption (190-byte chunks), chunks across threads",
            setup: bulk_encrypt,
            parallel: true,
            sizes: Some(bulk_sizes),
            unit: Unit::Bytes,
            samples: adaptive,
            openssl: None,
            input: Input::Memory,
            missing: super::runs_anywhere,
            age: None,
            // 190 bytes of message per OAEP block of RSA-2048.
            model: own(Width::Chunks(190), None),
        },
        Workload {
            name: id::RSA_BULK_DEC,
            family: "rsa",
            description: "the research paper's chunked RSA-2048 OAEP decryption, blocks across threads",
            setup: bulk_decrypt,
            parallel: true,
            sizes: Some(bulk_sizes),
            unit: Unit::Bytes,
            samples: bulk_decrypt_samples,
            openssl: None,
            input: Input::Memory,
            missing: super::runs_anywhere,
            age: None,
            // The size is the plaintext's: 190 bytes per block decrypted.
            model: own(Width::Chunks(190), None),
        },
    ]);
}

/// The research paper's grid; a quick study keeps three sizes around the
/// paper's crossover (multithreading hurt below 100–1 000 characters).
fn bulk_sizes(quick: bool) -> Vec<usize> {
    if quick {
        vec![10, 1_000, 10_000]
    } else {
        super::RSA_APP_SIZES.to_vec()
    }
}

/// From 100 kB on, one decryption is ≥ 527 private operations (0.2 s on one
/// core here; 1 MB: 5264 of them, 2.4 s): five samples pin the median, and
/// the adaptive minimum of ten would add minutes to a full study for nothing.
fn bulk_decrypt_samples(_quick: bool, size: usize) -> Option<usize> {
    (size >= 100_000).then_some(5)
}

/// One key per size for the whole process, made outside any timed region
/// (generating a 4096-bit key takes about a second); the `Threads` key is the
/// same key with the other CRT mode.
fn key(bits: usize, mode: CrtMode) -> &'static PrivateKey {
    static KEYS: [OnceLock<PrivateKey>; 2] = [OnceLock::new(), OnceLock::new()];
    static THREADS: [OnceLock<PrivateKey>; 2] = [OnceLock::new(), OnceLock::new()];
    let i = usize::from(bits == 4096);
    let auto = KEYS[i]
        .get_or_init(|| PrivateKey::generate(bits, &Parallelism::default()).expect("RSA key generation"));
    match mode {
        CrtMode::Threads => THREADS[i].get_or_init(|| {
            let der = auto.to_pkcs8_der().expect("PKCS#8 encoding");
            PrivateKey::from_pkcs8_der(der.expose(), &Parallelism::sequential())
                .expect("PKCS#8 decoding")
                .with_crt_mode(CrtMode::Threads)
        }),
        _ => auto,
    }
}

fn keygen_op(bits: usize) -> Operation {
    Box::new(move |par, _random| {
        black_box(PrivateKey::generate(bits, par).expect("RSA key generation"));
    })
}

/// Signs a k-byte message: the hash is negligible, the private operation is all.
fn sign_op(bits: usize, mode: CrtMode) -> Operation {
    let key = key(bits, mode);
    let msg = input(key.size());
    Box::new(move |par, _random| {
        black_box(
            key.sign(Scheme::Pss, Algorithm::Sha256, black_box(&msg), par)
                .expect("RSA signature"),
        );
    })
}

fn bulk_encrypt(size: usize) -> Operation {
    let public = key(2048, CrtMode::Auto).public_key();
    let msg = input(size);
    Box::new(move |par, _random| {
        black_box(rsa_bulk_encrypt(public, black_box(&msg), par).expect("RSA encryption"));
    })
}

fn bulk_decrypt(size: usize) -> Operation {
    let key = key(2048, CrtMode::Auto);
    let ciphertext =
        rsa_bulk_encrypt(key.public_key(), &input(size), &Parallelism::default()).expect("RSA encryption");
    Box::new(move |par, output| {
        let plain = rsa_bulk_decrypt(key, black_box(&ciphertext), par).expect("RSA decryption");
        output(black_box(plain.expose()));
    })
}
