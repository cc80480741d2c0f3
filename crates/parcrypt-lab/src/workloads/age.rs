//! The age format's workloads: what `parcrypt age -r R -o /dev/null FILE`
//! and `parcrypt age -d -i KEY -o /dev/null FILE.age` do, in process. As for
//! the stream workloads, the input is a file of the size in the page cache
//! (written and synced in setup) and the output goes to [`std::io::sink`],
//! as the peers' goes to `/dev/null`. The recipient is X25519, so no scrypt
//! runs in the timed region; the header (the file key wrapped by an X25519
//! exchange, HKDF, the header MAC) is made or checked on every run. Rates
//! are plaintext bytes per second.
//!
//! Peers on a file of the same size, in the same run: `age` and `rage`
//! themselves (the same job, one core each), and `openssl enc -chacha20`
//! (the same cipher without Poly1305 or chunks, one core) for scale.

use std::hint::black_box;
use std::io::{self, Seek};

use parcrypt::age::{self, DecryptOptions, Encryptor, Identity, KeyKind, Options};
use parcrypt::par::Parallelism;

use super::aes::{IV_HEX, KEY256_HEX};
use super::id;
use super::stream::{sealed_input, temp_path, unlinked};
use super::{
    AgePeer, Input, OpensslPeer, Operation, READS_PAGE_CACHE, SpeedRate, Unit, Width, Workload, aead_samples,
    aead_sizes, own, write_input,
};

pub(super) fn register(all: &mut Vec<Workload>) {
    let w = |name, description, setup, age| Workload {
        model: own(Width::Any, READS_PAGE_CACHE),
        name,
        family: "age",
        description,
        setup,
        parallel: true,
        sizes: Some(age_sizes),
        unit: Unit::Bytes,
        samples: aead_samples,
        openssl: Some(OpensslPeer {
            speed: &[],
            rate: SpeedRate::Bytes,
            enc: Some(&["-chacha20", "-K", KEY256_HEX, "-iv", IV_HEX]),
            dgst: None,
        }),
        input: Input::File,
        missing: super::runs_anywhere,
        age: Some(age),
    };
    all.extend([
        w(
            id::AGE_ENCRYPT,
            "age (parcrypt age -r R FILE): a file in the page cache sealed in 64 KiB ChaCha20-Poly1305 chunks to a sink, X25519 recipient",
            encrypt,
            AgePeer::Encrypt,
        ),
        w(
            id::AGE_DECRYPT,
            "age (parcrypt age -d -i KEY FILE): an age file in the page cache opened chunk by chunk to a sink, X25519 identity",
            decrypt,
            AgePeer::Decrypt,
        ),
    ]);
}

/// The authenticated-encryption grid; a quick study keeps only 16 MiB (1 MiB
/// is a single part of 16 chunks, one thread's work, so it shows nothing a
/// quick study needs, and `lab --quick` must stay under 2 minutes).
fn age_sizes(quick: bool) -> Vec<usize> {
    if quick { vec![16 << 20] } else { aead_sizes(false) }
}

fn encrypt(size: usize) -> Operation {
    let file = unlinked(&temp_path(id::AGE_ENCRYPT, size), |f| write_input(f, size));
    let identity = Identity::generate(KeyKind::X25519);
    let recipients = [identity.to_recipient().expect("an X25519 key has a public key")];
    Box::new(move |par, _random| {
        let encryptor = Encryptor::new(&recipients).expect("an X25519 recipient");
        let n = encryptor
            .encrypt_file(&file, io::sink(), &Options::default(), par, |_| {})
            .expect("encrypting a file to a sink");
        black_box(n);
    })
}

fn decrypt(size: usize) -> Operation {
    let identity = Identity::generate(KeyKind::X25519);
    let recipients = [identity.to_recipient().expect("an X25519 key has a public key")];
    let file = sealed_input(id::AGE_DECRYPT, size, |plain, out| {
        Encryptor::new(&recipients)
            .and_then(|e| e.encrypt_file(plain, out, &Options::default(), &Parallelism::default(), |_| {}))
            .map_err(io::Error::other)
    });
    let identities = [identity];
    Box::new(move |par, _to_a_sink| {
        // From the start on every run, as the CLI reads the file it opens.
        (&file).rewind().expect("rewinding a file");
        let n = age::decrypt_stream(
            &identities,
            &file,
            io::sink(),
            &DecryptOptions::default(),
            par,
            |_| {},
        )
        .expect("an authentic age file");
        black_box(n);
    })
}
