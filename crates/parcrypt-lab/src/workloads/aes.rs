//! AES workloads: the parallel modes, each over an in-place buffer, and
//! one-message AES-256-GCM (`aes-256-gcm-seal`, `aes-256-gcm-open`): the
//! whole buffer is one GCM message, its CTR keystream and GHASH computed in
//! parallel chunks; under 2 MiB it is one AWS-LC call on the calling thread,
//! so `seq` at any size is the backend's one-shot GCM.

use std::hint::black_box;

use parcrypt::aes::{Cbc, Ctr, GCM_TAG, Gcm};
use parcrypt::hazmat::Ecb;
use parcrypt::par::Parallelism;

use super::id;
use super::{
    IN_PLACE, Input, OpensslPeer, Operation, SpeedRate, Unit, Width, Workload, adaptive, aead_samples,
    aead_sizes, input, own,
};

/// One-message GCM is one AWS-LC call on the calling thread below 2 MiB.
const GCM_PARALLEL_FROM: usize = 2 << 20;

pub(super) fn register(all: &mut Vec<Workload>) {
    all.extend([
        Workload {
            name: id::AES_128_CTR,
            family: "aes",
            description: "AES-128-CTR keystream XOR, counter seeked per part",
            setup: |size| ctr(16, size),
            parallel: true,
            sizes: Some(aes_sizes),
            unit: Unit::Bytes,
            samples: adaptive,
            openssl: Some(OpensslPeer {
                speed: &["-evp", "aes-128-ctr"],
                rate: SpeedRate::Bytes,
                enc: Some(&["-aes-128-ctr", "-K", KEY128_HEX, "-iv", IV_HEX]),
                dgst: None,
            }),
            input: Input::Memory,
            missing: super::runs_anywhere,
            age: None,
            model: own(Width::Any, IN_PLACE),
        },
        Workload {
            name: id::AES_256_CTR,
            family: "aes",
            description: "AES-256-CTR keystream XOR, counter seeked per part",
            setup: |size| ctr(32, size),
            parallel: true,
            sizes: Some(aes_sizes),
            unit: Unit::Bytes,
            samples: adaptive,
            openssl: Some(OpensslPeer {
                speed: &["-evp", "aes-256-ctr"],
                rate: SpeedRate::Bytes,
                enc: Some(&["-aes-256-ctr", "-K", KEY256_HEX, "-iv", IV_HEX]),
                dgst: None,
            }),
            input: Input::Memory,
            missing: super::runs_anywhere,
            age: None,
            model: own(Width::Any, IN_PLACE),
        },
        Workload {
            name: id::AES_256_CBC_DEC,
            family: "aes",
            description: "AES-256-CBC decryption in place, PKCS#7 check",
            setup: cbc_dec,
            parallel: true,
            sizes: Some(aes_sizes),
            unit: Unit::Bytes,
            samples: adaptive,
            openssl: Some(OpensslPeer {
                speed: &["-decrypt", "-evp", "aes-256-cbc"],
                rate: SpeedRate::Bytes,
                enc: None,
                dgst: None,
            }),
            input: Input::Memory,
            missing: super::runs_anywhere,
            age: None,
            model: own(Width::Any, IN_PLACE),
        },
        Workload {
            name: id::AES_256_ECB_ENC,
            family: "aes",
            description: "AES-256-ECB encryption of whole blocks (hazmat)",
            setup: |size| ecb(size, true),
            parallel: true,
            sizes: Some(aes_sizes),
            unit: Unit::Bytes,
            samples: adaptive,
            openssl: Some(OpensslPeer {
                speed: &["-evp", "aes-256-ecb"],
                rate: SpeedRate::Bytes,
                enc: Some(&["-aes-256-ecb", "-nopad", "-K", KEY256_HEX]),
                dgst: None,
            }),
            input: Input::Memory,
            missing: super::runs_anywhere,
            age: None,
            model: own(Width::Any, IN_PLACE),
        },
        Workload {
            name: id::AES_256_ECB_DEC,
            family: "aes",
            description: "AES-256-ECB decryption of whole blocks (hazmat)",
            setup: |size| ecb(size, false),
            parallel: true,
            sizes: Some(aes_sizes),
            unit: Unit::Bytes,
            samples: adaptive,
            openssl: Some(OpensslPeer {
                speed: &["-decrypt", "-evp", "aes-256-ecb"],
                rate: SpeedRate::Bytes,
                enc: None,
                dgst: None,
            }),
            input: Input::Memory,
            missing: super::runs_anywhere,
            age: None,
            model: own(Width::Any, IN_PLACE),
        },
        // `openssl enc` has no AEAD modes (it refuses GCM), so the GCM
        // workloads have `openssl speed` alone; the stream workloads, which
        // seal files with GCM, stand beside `openssl enc -aes-256-ctr` and age.
        Workload {
            name: id::AES_256_GCM_SEAL,
            family: "aes",
            description: "one-message AES-256-GCM encryption in place (16 B of AAD): CTR and GHASH in parallel chunks",
            setup: gcm_seal,
            parallel: true,
            sizes: Some(aead_sizes),
            unit: Unit::Bytes,
            samples: aead_samples,
            openssl: Some(OpensslPeer {
                speed: &["-evp", "aes-256-gcm"],
                rate: SpeedRate::Bytes,
                enc: None,
                dgst: None,
            }),
            input: Input::Memory,
            missing: super::runs_anywhere,
            age: None,
            model: own(Width::From(GCM_PARALLEL_FROM), IN_PLACE),
        },
        Workload {
            name: id::AES_256_GCM_OPEN,
            family: "aes",
            description: "one-message AES-256-GCM decryption in place: GHASH in parallel chunks, the tag checked, then CTR",
            setup: gcm_open,
            parallel: true,
            sizes: Some(aead_sizes),
            unit: Unit::Bytes,
            samples: aead_samples,
            openssl: Some(OpensslPeer {
                speed: &["-decrypt", "-evp", "aes-256-gcm"],
                rate: SpeedRate::Bytes,
                enc: None,
                dgst: None,
            }),
            input: Input::Memory,
            missing: super::runs_anywhere,
            age: None,
            model: own(Width::From(GCM_PARALLEL_FROM), IN_PLACE),
        },
    ]);
}

/// The lab's grid plus ParalCrypto's two inputs (a 512×512 RGB image and a
/// ~300-byte text), so its tables can be re-measured, and 256 MiB for
/// throughput beyond the caches (not in a quick study).
fn aes_sizes(quick: bool) -> Vec<usize> {
    let mut v = super::DEFAULT_SIZES.to_vec();
    v.extend([super::PARALCRYPTO_TEXT, super::PARALCRYPTO_IMAGE]);
    if !quick {
        v.push(256 << 20);
    }
    v.sort_unstable();
    v
}

const KEY: [u8; 32] = [0x42; 32];
/// The same key and IV in hex, for the `openssl enc` peer.
pub(super) const KEY128_HEX: &str = "42424242424242424242424242424242";
pub(super) const KEY256_HEX: &str = "4242424242424242424242424242424242424242424242424242424242424242";
pub(super) const IV_HEX: &str = "00000000000000000000000000000000";

fn ctr(key_len: usize, size: usize) -> Operation {
    let ctr = Ctr::new(&KEY[..key_len]).expect("valid AES key");
    let mut buf = input(size);
    Box::new(move |par, output| {
        ctr.apply_keystream_in_place(&[0; 16], black_box(&mut buf), par);
        output(&buf);
    })
}

/// CBC and ECB need whole blocks: sizes are rounded up to the next 16 bytes
/// (10 B is measured as 16 B; the reported size stays the requested one).
fn whole_blocks(size: usize) -> Vec<u8> {
    input(size.div_ceil(16).max(1) * 16)
}

fn cbc_dec(size: usize) -> Operation {
    let cbc = Cbc::new(&KEY).expect("valid AES key");
    let iv = [7u8; 16];
    // Real ciphertext, so the padding check passes. Decrypting in place turns
    // the buffer into plaintext; restoring it would time a copy too, and AES
    // takes the same time on any bytes, so later runs decrypt whatever is
    // there and the (now failing) padding check is ignored.
    let mut buf = cbc.encrypt(&iv, &input(whole_blocks(size).len() - 16));
    Box::new(move |par, output| {
        let _ = black_box(cbc.decrypt_in_place(&iv, black_box(&mut buf), par));
        output(&buf);
    })
}

fn ecb(size: usize, encrypt: bool) -> Operation {
    let ecb = Ecb::new(&KEY).expect("valid AES key");
    let mut buf = whole_blocks(size);
    Box::new(move |par, output| {
        let done = if encrypt {
            ecb.encrypt_blocks_in_place(black_box(&mut buf), par)
        } else {
            ecb.decrypt_blocks_in_place(black_box(&mut buf), par)
        };
        done.expect("whole blocks");
        output(&buf);
    })
}

const NONCE: [u8; 12] = [9; 12];
const AAD: [u8; 16] = [5; 16];

fn gcm_seal(size: usize) -> Operation {
    let gcm = Gcm::new(&KEY).expect("valid AES key");
    let mut buf = input(size);
    // Sealing the buffer again seals the previous ciphertext: AES-GCM takes
    // the same time on any bytes, and nonce reuse does not matter here.
    Box::new(move |par, output| {
        let tag = gcm.seal_in_place(&NONCE, &AAD, black_box(&mut buf), par);
        output(&buf);
        output(black_box(&tag));
    })
}

/// Opening in place turns the ciphertext into plaintext, and a failed tag
/// check would skip the decryption and time GHASH alone. So the operation
/// alternates between two authentic messages: C = P ⊕ K with the tag of C,
/// and P = C ⊕ K with the tag of P as a ciphertext. Opening one leaves the
/// other in the buffer, so every run verifies and decrypts.
fn gcm_open(size: usize) -> Operation {
    let gcm = Gcm::new(&KEY).expect("valid AES key");
    let setup = Parallelism::default();
    let mut buf = input(size);
    // Each seal XORs the same keystream: P → C (tag of C), C → P (tag of P).
    let tag_c = gcm.seal_in_place(&NONCE, &AAD, &mut buf, &setup);
    let tag_p = gcm.seal_in_place(&NONCE, &AAD, &mut buf, &setup);
    gcm.seal_in_place(&NONCE, &AAD, &mut buf, &setup);
    let tags: [[u8; GCM_TAG]; 2] = [tag_c, tag_p];
    let mut next = 0;
    Box::new(move |par, output| {
        gcm.open_in_place(&NONCE, &AAD, black_box(&mut buf), &tags[next], par)
            .expect("an authentic message");
        output(&buf);
        next ^= 1;
    })
}
