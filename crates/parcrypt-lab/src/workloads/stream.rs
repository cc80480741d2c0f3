//! The `stream` format's workloads: what `parcrypt encrypt -i FILE` and
//! `parcrypt decrypt -i FILE` do, in process. The input is a file of the
//! size in the page cache (written and synced in setup, so no writeback runs
//! during the timing), read through [`stream::encrypt_file`] /
//! [`stream::decrypt_file`]'s positional reads by the workers; the output goes to
//! [`std::io::sink`], as the peers' goes to `/dev/null`. The recipient is a
//! raw 32-byte key, so no scrypt runs in the timed region; the header (a
//! random salt, HKDF, the key wrapped and the header MAC'd) is made on every
//! run. Rates are plaintext bytes per second.
//!
//! Peers on a file of the same size: `openssl enc -aes-256-ctr`
//! (unauthenticated, one core: the fastest thing a user can run today) and
//! `age`/`rage` (ChaCha20-Poly1305 in 64 KiB chunks, one core), when
//! installed.

use std::fs::File;
use std::hint::black_box;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use parcrypt::par::Parallelism;
use parcrypt::secret::SecretKey;
use parcrypt::stream::{self, DecryptOptions, Identity, Options, Recipient};

use super::aes::{IV_HEX, KEY256_HEX};
use super::id;
use super::{
    AgePeer, Input, Model, OpensslPeer, Operation, READS_PAGE_CACHE, SpeedRate, Stage, Unit, Width, Workload,
    aead_samples, aead_sizes, write_input,
};
use crate::ceilings::Ceiling;

pub(super) fn register(all: &mut Vec<Workload>) {
    // No `openssl speed` peer: the stream workloads stand beside tools that
    // encrypt files, and `aes-256-gcm-seal` already has `openssl speed`.
    let w = |name, description, setup, enc, age, kernel: &'static [Stage], read_ahead| Workload {
        model: Model::Cost {
            stages: kernel,
            width: Width::Any,
            cap: READS_PAGE_CACHE,
            read_ahead,
        },
        name,
        family: "stream",
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
        age: Some(age),
    };
    all.extend([
        w(
            id::STREAM_ENCRYPT,
            "the stream format (parcrypt encrypt -i FILE): a file in the page cache sealed in 1 MiB AES-256-GCM segments to a sink, raw-key recipient",
            encrypt,
            &["-aes-256-ctr", "-K", KEY256_HEX, "-iv", IV_HEX],
            AgePeer::Encrypt,
            &[Stage::Ceiling(Ceiling::PageCacheRead), Stage::Kernel(id::AES_256_GCM_SEAL)],
            // One worker: a reader thread reads ahead (`stream/file.rs`).
            true,
        ),
        w(
            id::STREAM_DECRYPT,
            "the stream format (parcrypt decrypt -i FILE): a sealed file in the page cache opened segment by segment to a sink, raw key",
            decrypt,
            &["-d", "-aes-256-ctr", "-K", KEY256_HEX, "-iv", IV_HEX],
            AgePeer::Decrypt,
            &[Stage::Ceiling(Ceiling::PageCacheRead), Stage::Kernel(id::AES_256_GCM_OPEN)],
            // Each worker reads the segments it opens, one worker too.
            false,
        ),
    ]);
}

const KEY: [u8; 32] = [0x42; 32];

fn key() -> SecretKey<32> {
    SecretKey::from_slice(&KEY).expect("32 bytes")
}

fn encrypt(size: usize) -> Operation {
    let file = unlinked(&temp_path(id::STREAM_ENCRYPT, size), |f| write_input(f, size));
    let recipients = [Recipient::Key(key())];
    Box::new(move |par, _random| {
        let n = stream::encrypt_file(&recipients, &file, io::sink(), &Options::default(), par, |_| {})
            .expect("encrypting a file to a sink");
        black_box(n);
    })
}

fn decrypt(size: usize) -> Operation {
    let file = sealed_input(id::STREAM_DECRYPT, size, |plain, out| {
        stream::encrypt_file(
            &[Recipient::Key(key())],
            plain,
            out,
            &Options::default(),
            &Parallelism::default(),
            |_| {},
        )
        .map_err(io::Error::other)
    });
    let identity = Identity::Key(key());
    Box::new(move |par, _to_a_sink| {
        let opts = DecryptOptions::default();
        let n = stream::decrypt_file(
            std::slice::from_ref(&identity),
            &file,
            io::sink(),
            &opts,
            par,
            |_| {},
        )
        .expect("an authentic stream");
        black_box(n);
    })
}

/// A decryption workload's input: `size` bytes of [`write_input`]'s data
/// in a file of their own, encrypted by `seal` into an [`unlinked`] file.
pub(super) fn sealed_input(
    workload: &str,
    size: usize,
    seal: impl FnOnce(&File, &mut BufWriter<&mut File>) -> io::Result<u64>,
) -> File {
    let plain = unlinked(&temp_path(&format!("{workload}-plain"), size), |f| {
        write_input(f, size)
    });
    unlinked(&temp_path(workload, size), |f| {
        let mut out = BufWriter::new(f);
        seal(&plain, &mut out)?;
        out.flush()
    })
}

/// A fresh path in the temp directory for `workload`'s file of `size` bytes.
pub(super) fn temp_path(workload: &str, size: usize) -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!(
        "parcrypt-lab-{}-{workload}-{size}-{n}.bin",
        std::process::id()
    ))
}

/// Creates `path`, fills it with `fill`, syncs it, and opens it read-only
/// as the CLI does; the name is removed at once, so the file lives as long
/// as the returned handle and nothing is left behind, however the lab ends.
/// Its pages stay in the page cache.
///
/// # Panics
/// If the file cannot be written: a workload's setup has no way to fail.
pub(super) fn unlinked(path: &Path, fill: impl FnOnce(&mut File) -> io::Result<()>) -> File {
    let written = File::create(path)
        .and_then(|mut f| {
            fill(&mut f)?;
            f.sync_all()
        })
        .and_then(|()| File::open(path));
    let _ = std::fs::remove_file(path);
    written.unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::io::Read;

    use super::{temp_path, unlinked};
    use crate::workloads::{input, write_input};

    #[test]
    fn input_files_hold_the_input_and_leave_no_name_behind() {
        for size in [0, 1, 250, 251, 252, 3 << 20] {
            let path = temp_path("test", size);
            let mut file = unlinked(&path, |f| write_input(f, size));
            assert!(!path.exists(), "{} left behind", path.display());
            let mut back = Vec::new();
            file.read_to_end(&mut back).unwrap();
            assert!(back == input(size), "{size} bytes differ from the input");
        }
    }
}
