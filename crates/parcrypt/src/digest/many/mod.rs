//! Many SHA-256s at once: independent messages hashed side by side.
//!
//! One SHA-256 is a chain of 64 dependent rounds per block, so a single
//! message keeps the CPU's SHA unit (or vector units) waiting on latency.
//! Independent messages — the leaves of a Merkle tree, the node pairs of a
//! level — have no such chain between them: several can be interleaved on
//! one core. The [`Backend`]s are the ways to do it on x86-64:
//!
//! | backend | how | needs |
//! |---|---|---|
//! | `sha2` | one message at a time, RustCrypto `sha2` (SHA-NI when present) | nothing |
//! | `shani-x2` | SHA-NI, 2 messages' rounds interleaved | SHA, SSSE3, SSE4.1 |
//! | `shani-x4` | SHA-NI, 4 messages interleaved | SHA, SSSE3, SSE4.1 |
//! | `avx2-x8` | 8 messages, one per 32-bit lane of a 256-bit register | AVX2 |
//! | `avx512-x16` | 16 messages, one per lane of a 512-bit register (two such groups interleaved) | AVX-512 F and BW |
//!
//! Every backend hashes the same messages to the same digests (proved
//! against `sha2` for every length 0..=1100 and random lengths up to 1 MiB,
//! and from midstates against AWS-LC, in `tests/it/sha_many.rs`). Which one runs is chosen once per process
//! (`README.md` beside this file has the measurements behind the choice),
//! can be forced with the environment variable `PARCRYPT_SHA256_BACKEND`,
//! and can be switched at run time with [`Backend::force`]. No backend ever
//! runs on a CPU that lacks its instructions: each call checks. An idle
//! lane costs as much as a busy one, so a wide backend hands a batch's tail
//! shorter than half a pass to a narrower one (SHA-NI ×4, else AVX2, else
//! `sha2`).
//!
//! Messages are `prefix ‖ body`: the prefix (RFC 6962's `0x00` leaf byte,
//! `0x01` node byte) is never copied in front of the body; blocks that lie
//! inside a body are read where they are, only the first and the padding
//! blocks are assembled on the stack. Messages that share whole first
//! blocks (SLH-DSA-SHA2's `PK.seed` block) start from a cached
//! [`Midstate`] instead of the initial state.
#![allow(unsafe_code)]
#![allow(clippy::needless_range_loop)] // lane loops read best indexed

#[cfg(target_arch = "x86_64")]
mod avx2;
// AVX-512 intrinsics are stable from Rust 1.89; `build.rs` sets the cfg then.
#[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
mod avx512;
mod backend;
mod driver;
mod midstate;
#[cfg(target_arch = "x86_64")]
mod shani;

pub use self::backend::{BACKEND_ENV, Backend, EnvError, Unavailable};
use self::driver::{Batch, Pairs, single};
pub use self::midstate::Midstate;
// What the kernels share with the driver (`super::…` in each kernel).
#[cfg(target_arch = "x86_64")]
use self::driver::{BLOCK, Bodies, K, finish_lanes, gather, lanes};

/// A SHA-256 digest.
pub type Digest = [u8; 32];

/// `out[i]` = SHA-256(`messages[i]`) on the [active](Backend::active) backend.
///
/// # Panics
/// If `out.len() != messages.len()`.
pub fn sha256_many_into(messages: &[&[u8]], out: &mut [Digest]) {
    sha256_many_prefixed_into(&[], messages, out);
}

/// `out[i]` = SHA-256(`prefix ‖ messages[i]`) on the active backend.
///
/// # Panics
/// If `out.len() != messages.len()`.
pub fn sha256_many_prefixed_into(prefix: &[u8], messages: &[&[u8]], out: &mut [Digest]) {
    let backend = Backend::active();
    if backend.sha256_many_prefixed_into(prefix, messages, out).is_err() {
        // Unreachable: `active` only returns available backends.
        single(&Batch::new(prefix, messages), out);
    }
}

/// `out[i]` = SHA-256(the blocks of `mid` ‖ `prefix ‖ messages[i]`) on the
/// active backend: messages that share their first blocks (SLH-DSA-SHA2's
/// `PK.seed ‖ 0^(64−n)`) hash on from the cached state, one compression per
/// 64 bytes of the rest (`ADRSc ‖ M` of 22 + 16 or 22 + 32 bytes: one).
///
/// # Panics
/// If `out.len() != messages.len()`.
pub fn sha256_many_from_into(mid: &Midstate, prefix: &[u8], messages: &[&[u8]], out: &mut [Digest]) {
    let backend = Backend::active();
    if backend.sha256_many_from_into(mid, prefix, messages, out).is_err() {
        // Unreachable: `active` only returns available backends.
        single(&Batch::from_midstate(mid, prefix, messages), out);
    }
}

/// `out[i]` = SHA-256(`prefix ‖ nodes[2i] ‖ nodes[2i + 1]`) on the active
/// backend.
///
/// # Panics
/// If `nodes.len() != 2 * out.len()`.
pub fn sha256_pairs_into(prefix: &[u8], nodes: &[Digest], out: &mut [Digest]) {
    let backend = Backend::active();
    if backend.sha256_pairs_into(prefix, nodes, out).is_err() {
        single(&Batch::new(prefix, &Pairs(nodes)), out);
    }
}

/// SHA-256(`prefix ‖ message`) with the single-buffer backend: the reference
/// the many-message backends are compared with.
pub fn sha256_prefixed(prefix: &[u8], message: &[u8]) -> Digest {
    super::sha256_parts(&[prefix, message])
}
