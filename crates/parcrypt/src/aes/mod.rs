//! AES in ECB, CBC and CTR modes, parallel where the mode allows it.
//!
//! - [`Ctr`]: every 16-byte block has its own counter value, so any part of
//!   the input can be processed by seeking the 128-bit big-endian counter.
//! - [`Gcm`]: standard AES-GCM of one message, CTR and GHASH both split
//!   across threads (see `gcm/mod.rs` for how the parts' GHASH values combine).
//! - [`Cbc`]: decryption of block *i* needs only ciphertext blocks *i* and
//!   *i − 1*, both known up front, so it parallelizes; encryption needs the
//!   previous *ciphertext* block, which does not exist until it is computed, so
//!   it is serial by nature (see `README.md` beside this file).
//! - ECB lives in [`crate::hazmat`]: equal plaintext blocks give equal
//!   ciphertext blocks.
//!
//! [`Crypter`] streams any of them over readers and writers in bounded memory,
//! byte-compatible with `openssl enc -K … -iv …` (no salt header).
//! [`PasswordKey`] derives the key and IV `openssl enc -pass …` derives
//! (PBKDF2 or the legacy `EVP_BytesToKey`), for files that start with the
//! `Salted__` header ([`salt_header`], [`salt_from_header`]).
//!
//! The block cipher itself is AWS-LC's (AES-NI/VAES, constant-time), through
//! `aws-lc-rs` for CBC and CTR.
//!
//! This module imports nothing from `hazmat` (a layering test checks it):
//! hazmat's ECB reaches [`Crypter`] as a kernel (the crate-private
//! `BlockMode` trait) handed to a crate-private constructor.

mod cbc;
mod crypter;
mod ctr;
mod gcm;
pub(crate) mod padding;
mod password;

pub use cbc::Cbc;
pub(crate) use crypter::BlockMode;
pub use crypter::{Crypter, DEFAULT_BUFFER, buffer_for};
pub use ctr::{Ctr, CtrKernel};
pub use gcm::{Gcm, GcmOpen, NONCE as GCM_NONCE, TAG as GCM_TAG};
pub use password::{
    KdfDigest, MAX_ITERATIONS, PBKDF2_DEFAULT_ITERATIONS, PasswordKdf, PasswordKey, SALT_LEN, SALT_MAGIC,
    salt_from_header, salt_header,
};

use crate::par::Grain;

/// The AES block size in bytes.
pub const BLOCK: usize = 16;

/// How AES work is cut across threads: parts of at least 1 MiB, so inputs
/// under 2 MiB stay on the calling thread, and 1 MiB work-stealing tasks.
///
/// Measured with `examples/grain.rs` (AES-128-CTR, 2 threads, medians of 101
/// runs, on the 2-vCPU KVM machine this was developed on): one thread does
/// 1 MiB in 128 µs. Forcing parallelism below 2 MiB wins in some runs and
/// loses badly in others (512 KiB: 39 µs in one run, 111 µs in another,
/// against 63 µs sequential) because waking the second vCPU costs tens of
/// µs, unpredictably. From 2 MiB it wins every time: 2 MiB 1.3×, 4 MiB 1.7×,
/// 16 MiB 1.9×. The parallel path must never lose more than 5% to
/// `Sequential` (docs/ARCHITECTURE.md §4), hence the conservative threshold.
pub const GRAIN: Grain = Grain {
    unit: BLOCK,
    min_part: 1 << 20,
    task: 1 << 20,
};

/// What can go wrong with AES.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The key is not 16, 24 or 32 bytes.
    #[error("AES key must be 16, 24 or 32 bytes (AES-128/192/256), got {0} bytes")]
    KeyLength(usize),
    /// The IV or initial counter block is not 16 bytes.
    #[error("IV must be 16 bytes, got {0} bytes")]
    IvLength(usize),
    /// Input that must be whole blocks is not.
    #[error("input is not a whole number of 16-byte blocks")]
    NotBlockAligned,
    /// Decryption failed: wrong key, IV, or damaged ciphertext. Deliberately
    /// says nothing more (no padding oracle).
    #[error("decryption failed (wrong key or IV, or corrupted ciphertext)")]
    Decrypt,
    /// GCM: the tag does not match (wrong key, nonce or AAD, or modified
    /// data or tag). No plaintext was produced.
    #[error("authentication failed (wrong key, nonce or AAD, or the data or tag was modified)")]
    Authentication,
    /// [`Crypter::update_into`]: the output buffer cannot hold the output
    /// ready ([`Crypter::update_len`] bytes).
    #[error("output buffer of {have} bytes is too small: {need} bytes are ready")]
    OutputTooSmall {
        /// Bytes of output ready.
        need: usize,
        /// Bytes the buffer holds.
        have: usize,
    },
    /// A password derivation's iteration count is 0 or over
    /// [`MAX_ITERATIONS`].
    #[error("the iteration count must be from 1 to 2147483647, got {0}")]
    Iterations(u32),
    /// Reading input or writing output failed (the `io::Error` is the source).
    #[error("I/O error")]
    Io(#[from] std::io::Error),
}

/// Checks an AES key length.
pub(crate) fn check_key(key: &[u8]) -> Result<&'static aws_lc_rs::cipher::Algorithm, Error> {
    use aws_lc_rs::cipher::{AES_128, AES_192, AES_256};
    match key.len() {
        16 => Ok(&AES_128),
        24 => Ok(&AES_192),
        32 => Ok(&AES_256),
        n => Err(Error::KeyLength(n)),
    }
}

/// Reads a 16-byte IV or counter block.
pub(crate) fn iv16(iv: &[u8]) -> Result<[u8; BLOCK], Error> {
    iv.try_into().map_err(|_| Error::IvLength(iv.len()))
}

fn unbound(key: &[u8]) -> Result<aws_lc_rs::cipher::UnboundCipherKey, Error> {
    let alg = check_key(key)?;
    aws_lc_rs::cipher::UnboundCipherKey::new(alg, key).map_err(|_| Error::KeyLength(key.len()))
}
