//! Cobblestone's workloads: what `parcrypt encrypt --format cobblestone-128
//! -i FILE` and `parcrypt decrypt --format cobblestone-128 -i FILE` do, in
//! process. As for the stream and age workloads, the input is a file of the
//! size in the page cache (written and synced in setup) and the output goes
//! to [`std::io::sink`], as the peers' goes to `/dev/null`. The key is a raw
//! 16-byte key and the context a short string; the header (a random salt,
//! HKDF-SHA-512, the key commitment) is made or checked on every run. Rates
//! are plaintext bytes per second.
//!
//! Peers on a file of the same size, in the same run: pyca/cryptography's
//! own Cobblestone (`cryptography.cobblestone`, the format's reference
//! users have; one core) where `python3` has it, and `openssl enc
//! -aes-128-ctr` (the same cipher without GHASH or chunks, one core).

use std::hint::black_box;
use std::io;

use parcrypt::cobblestone::Scheme;
use parcrypt::par::Parallelism;

use super::aes::{IV_HEX, KEY128_HEX};
use super::id;
use super::stream::{sealed_input, temp_path, unlinked};
use super::{
    Input, OpensslPeer, Operation, READS_PAGE_CACHE, SpeedRate, Unit, Width, Workload, aead_samples,
    aead_sizes, own, write_input,
};
use crate::peers::{PycaOp, PycaPeer};

/// The key, as [`KEY128_HEX`] (`openssl enc`'s) says it.
const KEY: [u8; 16] = [0x42; 16];
/// The context every run seals under (pyca's too).
const CONTEXT: &[u8] = b"parcrypt lab";

pub(super) fn register(all: &mut Vec<Workload>) {
    let w = |name, description, setup, enc| Workload {
        model: own(Width::Any, READS_PAGE_CACHE),
        name,
        family: "cobblestone",
        description,
        setup,
        parallel: true,
        sizes: Some(aead_sizes),
        unit: Unit::Bytes,
        samples: aead_samples,
        openssl: Some(OpensslPeer {
            speed: &[],
            rate: SpeedRate::Bytes,
            enc: Some(enc),
            dgst: None,
        }),
        input: Input::File,
        missing: super::runs_anywhere,
        age: None,
    };
    all.extend([
        w(
            id::COBBLESTONE_ENCRYPT,
            "Cobblestone-128 (parcrypt encrypt --format cobblestone-128 -i FILE): a file in the page cache sealed in 16 KiB AES-128-GCM chunks to a sink",
            encrypt,
            &["-aes-128-ctr", "-K", KEY128_HEX, "-iv", IV_HEX],
        ),
        w(
            id::COBBLESTONE_DECRYPT,
            "Cobblestone-128 (parcrypt decrypt --format cobblestone-128 -i FILE): a sealed file in the page cache opened chunk by chunk to a sink",
            decrypt,
            &["-d", "-aes-128-ctr", "-K", KEY128_HEX, "-iv", IV_HEX],
        ),
    ]);
}

/// pyca beside the workload `name`, if it is one of these.
pub(super) fn pyca_peer(name: &str) -> Option<PycaPeer> {
    let op = match name {
        id::COBBLESTONE_ENCRYPT => PycaOp::Encrypt,
        id::COBBLESTONE_DECRYPT => PycaOp::Decrypt,
        _ => return None,
    };
    Some(PycaPeer {
        op,
        key: KEY,
        context: CONTEXT,
    })
}

fn encrypt(size: usize) -> Operation {
    let file = unlinked(&temp_path(id::COBBLESTONE_ENCRYPT, size), |f| {
        write_input(f, size)
    });
    Box::new(move |par, _random| {
        let sealer = Scheme::COBBLESTONE_128
            .sealer(&KEY, CONTEXT)
            .expect("a 16-byte key");
        let n = sealer
            .encrypt_file(&file, io::sink(), par, |_| {})
            .expect("encrypting a file to a sink");
        black_box(n);
    })
}

fn decrypt(size: usize) -> Operation {
    let file = sealed_input(id::COBBLESTONE_DECRYPT, size, |plain, out| {
        let sealer = Scheme::COBBLESTONE_128
            .sealer(&KEY, CONTEXT)
            .map_err(io::Error::other)?;
        sealer
            .encrypt_file(plain, out, &Parallelism::default(), |_| {})
            .map_err(io::Error::other)
    });
    Box::new(move |par, _to_a_sink| {
        let n = Scheme::COBBLESTONE_128
            .decrypt_file(&KEY, CONTEXT, &file, io::sink(), par, |_| {})
            .expect("an authentic message");
        black_box(n);
    })
}
