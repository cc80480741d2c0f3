//! Many SHAKE256s at once: independent messages hashed side by side, one
//! per 64-bit lane of a vector register (AVX2 ×4, AVX-512 ×8).
//!
//! SLH-DSA-SHAKE computes millions of SHAKE256 calls on short inputs
//! (`PK.seed ‖ ADRS ‖ M`, one or a few 136-byte blocks), each one
//! Keccak-f[1600] permutation or a few: a scalar permutation is a chain of
//! 24 dependent rounds, so the work of independent messages is laid side
//! by side in the lanes instead, as `many` does for SHA-256.
//!
//! | backend | how | needs |
//! |---|---|---|
//! | `sha3` | one message at a time, RustCrypto `sha3` (the reference) | nothing |
//! | `avx2-x4` | 4 messages, one per 64-bit lane of a 256-bit register | AVX2 |
//! | `avx512-x8` | 8 messages, one per lane of a 512-bit register; `vprolq` rotations, `vpternlogq` for θ's and χ's three-input functions | AVX-512 F |
//!
//! The kernels only lay out the sponge (absorb whole blocks, the SHAKE
//! padding `0x1F … 0x80`, squeeze); the permutation is FIPS 202's, written
//! once for both register widths (`x86.rs`). Every kernel gives the digests
//! `sha3` gives, for every message length 0..=700 and output length, with
//! partial groups (`tests/it/shake_many.rs`). A group of messages of
//! unequal lengths, or a tail too short to fill half the lanes, goes to a
//! narrower backend. Which one runs is chosen like the SHA-256 kernels:
//! the widest the CPU has and `PARCRYPT_CPU_MASK` leaves; [`Shake256Backend::force`]
//! picks one for tests and benchmarks. No kernel runs on a CPU that lacks
//! its instructions: each call checks.
#![allow(unsafe_code)]

use std::sync::atomic::{AtomicU8, Ordering};

use sha3::digest::{ExtendableOutput, Update};

#[cfg(target_arch = "x86_64")]
mod x86;

/// SHAKE256's rate: the bytes absorbed per permutation.
pub(crate) const RATE: usize = 136;

/// An implementation of many-message SHAKE256.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Shake256Backend {
    /// One message at a time with RustCrypto `sha3`: the reference,
    /// available everywhere.
    Sha3,
    /// Four messages in the lanes of AVX2 registers.
    Avx2X4,
    /// Eight messages in the lanes of AVX-512 registers.
    Avx512X8,
}

/// A backend this CPU cannot run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("SHAKE256 backend {} needs CPU features this machine lacks", .0.name())]
pub struct Shake256Unavailable(pub Shake256Backend);

/// 0 = not forced, else the index in [`Shake256Backend::ALL`] plus one.
static FORCED: AtomicU8 = AtomicU8::new(0);

impl Shake256Backend {
    /// Every backend, available here or not, narrowest first.
    pub const ALL: [Shake256Backend; 3] = [
        Shake256Backend::Sha3,
        Shake256Backend::Avx2X4,
        Shake256Backend::Avx512X8,
    ];

    /// Its name: `sha3`, `avx2-x4`, `avx512-x8`.
    pub const fn name(self) -> &'static str {
        match self {
            Shake256Backend::Sha3 => "sha3",
            Shake256Backend::Avx2X4 => "avx2-x4",
            Shake256Backend::Avx512X8 => "avx512-x8",
        }
    }

    /// How many messages one pass hashes side by side.
    pub const fn lanes(self) -> usize {
        match self {
            Shake256Backend::Sha3 => 1,
            Shake256Backend::Avx2X4 => 4,
            Shake256Backend::Avx512X8 => 8,
        }
    }

    /// Whether this CPU has the instructions the backend needs and
    /// `PARCRYPT_CPU_MASK` does not mask them ([`crate::cpu::has`]).
    pub fn is_available(self) -> bool {
        #[cfg(target_arch = "x86_64")]
        use crate::cpu::{Feature, has};
        match self {
            Shake256Backend::Sha3 => true,
            #[cfg(target_arch = "x86_64")]
            Shake256Backend::Avx2X4 => has(Feature::Avx2),
            #[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
            Shake256Backend::Avx512X8 => has(Feature::Avx512),
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }

    /// The backends this CPU can run, in [`Shake256Backend::ALL`] order.
    pub fn available() -> Vec<Shake256Backend> {
        Shake256Backend::ALL
            .into_iter()
            .filter(|b| b.is_available())
            .collect()
    }

    /// The backend [`shake256_many_into`] uses now: the one given to
    /// [`Shake256Backend::force`] if any, else the widest available.
    pub fn active() -> Shake256Backend {
        match FORCED.load(Ordering::Relaxed) {
            0 => Shake256Backend::ALL
                .into_iter()
                .rev()
                .find(|b| b.is_available())
                .unwrap_or(Shake256Backend::Sha3),
            n => Shake256Backend::ALL[usize::from(n) - 1],
        }
    }

    /// Makes `choice` the process-wide backend (`None`: the widest
    /// available again). For tests and benchmarks; every backend gives the
    /// same digests.
    ///
    /// # Errors
    /// [`Shake256Unavailable`] if this CPU cannot run `choice`.
    pub fn force(choice: Option<Shake256Backend>) -> Result<(), Shake256Unavailable> {
        let code = match choice {
            None => 0,
            Some(b) if b.is_available() => Shake256Backend::ALL
                .iter()
                .position(|x| *x == b)
                .map_or(0, |i| i + 1),
            Some(b) => return Err(Shake256Unavailable(b)),
        };
        FORCED.store(code as u8, Ordering::Relaxed);
        Ok(())
    }

    /// `out` cut into `messages.len()` equal parts: part i =
    /// SHAKE256(`messages[i]`) of that length, on this backend.
    ///
    /// # Errors
    /// [`Shake256Unavailable`] if this CPU cannot run the backend.
    ///
    /// # Panics
    /// If `out.len()` is not a multiple of `messages.len()`.
    pub fn shake256_many_into(self, messages: &[&[u8]], out: &mut [u8]) -> Result<(), Shake256Unavailable> {
        if !self.is_available() {
            return Err(Shake256Unavailable(self));
        }
        let out_len = out.len().checked_div(messages.len()).unwrap_or(0);
        assert_eq!(
            out_len * messages.len(),
            out.len(),
            "SHAKE256 outputs of equal length"
        );
        let mut first = 0;
        let mut backend = self;
        while first < messages.len() {
            let left = messages.len() - first;
            // An idle lane costs as much as a busy one: a tail shorter
            // than half a pass goes to the next narrower backend.
            while backend.lanes() > 1 && left * 2 <= backend.lanes() {
                backend = backend.narrower();
            }
            let take = left.min(backend.lanes());
            let group = &messages[first..first + take];
            let dst = &mut out[first * out_len..(first + take) * out_len];
            let equal = group.iter().all(|m| m.len() == group[0].len());
            if equal {
                backend.group(group, dst);
            } else {
                Shake256Backend::Sha3.group(group, dst);
            }
            first += take;
        }
        Ok(())
    }

    /// The next narrower backend (AVX-512 ×8 → AVX2 ×4 → `sha3`); every
    /// CPU with AVX-512 has AVX2.
    fn narrower(self) -> Shake256Backend {
        match self {
            Shake256Backend::Avx512X8 if Shake256Backend::Avx2X4.is_available() => Shake256Backend::Avx2X4,
            _ => Shake256Backend::Sha3,
        }
    }

    /// One pass: up to [`lanes`](Self::lanes) messages of equal length.
    fn group(self, group: &[&[u8]], out: &mut [u8]) {
        let out_len = out.len() / group.len().max(1);
        match self {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the caller checked `is_available` (AVX2).
            Shake256Backend::Avx2X4 => unsafe { x86::avx2(group, out_len, out) },
            #[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
            // SAFETY: the caller checked `is_available` (AVX-512 F).
            Shake256Backend::Avx512X8 => unsafe { x86::avx512(group, out_len, out) },
            _ => {
                for (m, o) in group.iter().zip(out.chunks_exact_mut(out_len.max(1))) {
                    let mut h = sha3::Shake256::default();
                    h.update(m);
                    h.finalize_xof_into(o);
                }
            }
        }
    }
}

impl std::fmt::Display for Shake256Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// `out` cut into `messages.len()` equal parts: part i =
/// SHAKE256(`messages[i]`) of that length, on the
/// [active](Shake256Backend::active) backend.
///
/// # Panics
/// If `out.len()` is not a multiple of `messages.len()`.
///
/// # Examples
/// ```
/// use parcrypt::digest;
/// use sha3::digest::{ExtendableOutput, Update};
///
/// let messages: [&[u8]; 3] = [b"one", b"two", b"six"];
/// let mut out = [0u8; 3 * 16];
/// digest::shake256_many_into(&messages, &mut out);
/// let mut one = [0u8; 16];
/// sha3::Shake256::default().chain(b"six").finalize_xof_into(&mut one);
/// assert_eq!(out[32..], one);
/// ```
pub fn shake256_many_into(messages: &[&[u8]], out: &mut [u8]) {
    let backend = Shake256Backend::active();
    if backend.shake256_many_into(messages, out).is_err() {
        // Unreachable: `active` only returns available backends.
        Shake256Backend::Sha3.group(messages, out);
    }
}
