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
//! in `tests/it/sha_many.rs`). Which one runs is chosen once per process
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
//! blocks are assembled on the stack.
#![allow(unsafe_code)]
#![allow(clippy::needless_range_loop)] // lane loops read best indexed

#[cfg(target_arch = "x86_64")]
mod avx2;
// AVX-512 intrinsics are stable from Rust 1.89; `build.rs` sets the cfg then.
#[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
mod avx512;
#[cfg(target_arch = "x86_64")]
mod shani;

use std::str::FromStr;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU8, Ordering};

/// A SHA-256 digest.
pub type Digest = [u8; 32];

/// The environment variable that forces a backend for the whole process
/// (read once, at the first multi-message hash).
pub const BACKEND_ENV: &str = "PARCRYPT_SHA256_BACKEND";

/// An implementation of many-message SHA-256.
///
/// Parsed from its [`name`](Backend::name) (`sha2`, `shani-x2`, `shani-x4`,
/// `avx2-x8`, `avx512-x16`, plus the short forms `shani` = `shani-x4`,
/// `avx2`, `avx512`).
///
/// # Examples
/// ```
/// use parcrypt::digest::{self, Backend};
///
/// let leaves: [&[u8]; 3] = [b"a", b"bc", b"def"];
/// let mut out = [[0u8; 32]; 3];
/// for backend in Backend::available() {
///     backend.sha256_many_prefixed(&[0], &leaves, &mut out)?;
///     assert_eq!(out[1], digest::sha256_many_one(&[0], b"bc"));
/// }
/// assert!(Backend::active().is_available());
/// # Ok::<(), parcrypt::digest::Unavailable>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Backend {
    /// One message at a time with RustCrypto `sha2` (itself SHA-NI when the
    /// CPU has it): the reference, available everywhere.
    Sha2,
    /// Two messages interleaved on the SHA extensions.
    ShaNiX2,
    /// Four messages interleaved on the SHA extensions.
    ShaNiX4,
    /// Eight messages in the lanes of AVX2 registers.
    Avx2X8,
    /// Sixteen messages in the lanes of AVX-512 registers.
    Avx512X16,
}

/// A backend the CPU cannot run (or, for [`Backend::force`] by name, no
/// backend at all).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("SHA-256 backend {} needs CPU features this machine lacks", .0.name())]
pub struct Unavailable(pub Backend);

impl Backend {
    /// Every backend, available here or not.
    pub const ALL: [Backend; 5] = [
        Backend::Sha2,
        Backend::ShaNiX2,
        Backend::ShaNiX4,
        Backend::Avx2X8,
        Backend::Avx512X16,
    ];

    /// The name [`FromStr`] and `PARCRYPT_SHA256_BACKEND` accept.
    pub const fn name(self) -> &'static str {
        match self {
            Backend::Sha2 => "sha2",
            Backend::ShaNiX2 => "shani-x2",
            Backend::ShaNiX4 => "shani-x4",
            Backend::Avx2X8 => "avx2-x8",
            Backend::Avx512X16 => "avx512-x16",
        }
    }

    /// How many messages one pass hashes side by side (AVX-512 interleaves
    /// two passes when a batch has 32 messages left).
    pub const fn lanes(self) -> usize {
        match self {
            Backend::Sha2 => 1,
            Backend::ShaNiX2 => 2,
            Backend::ShaNiX4 => 4,
            Backend::Avx2X8 => 8,
            Backend::Avx512X16 => 16,
        }
    }

    /// Whether this CPU has the instructions the backend needs and
    /// `PARCRYPT_CPU_MASK` does not mask them ([`crate::cpu::has`]).
    pub fn is_available(self) -> bool {
        use crate::cpu::{Feature, has};
        match self {
            Backend::Sha2 => true,
            #[cfg(target_arch = "x86_64")]
            Backend::ShaNiX2 | Backend::ShaNiX4 => has(Feature::ShaNi),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2X8 => has(Feature::Avx2),
            #[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
            Backend::Avx512X16 => has(Feature::Avx512),
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }

    /// What this backend needs that this CPU lacks or the mask takes away,
    /// for a skipped test or workload to say (`None`: available).
    pub fn missing(self) -> Option<String> {
        use crate::cpu::Feature;
        if self.is_available() {
            return None;
        }
        let needs = match self {
            Backend::Sha2 => return None,
            Backend::ShaNiX2 | Backend::ShaNiX4 => Feature::ShaNi,
            Backend::Avx2X8 => Feature::Avx2,
            Backend::Avx512X16 => Feature::Avx512,
        };
        Some(if !cfg!(target_arch = "x86_64") {
            format!("{needs} (an x86-64 feature; this is {})", std::env::consts::ARCH)
        } else if self == Backend::Avx512X16 && !cfg!(parcrypt_avx512) {
            "a compiler with AVX-512 intrinsics (Rust 1.89 or later)".to_owned()
        } else if needs.detected() {
            format!("{needs} (masked by {})", crate::cpu::MASK_ENV)
        } else {
            format!("{needs} (not on this CPU)")
        })
    }

    /// The backends this CPU can run, in [`Backend::ALL`] order.
    pub fn available() -> Vec<Backend> {
        Backend::ALL.into_iter().filter(|b| b.is_available()).collect()
    }

    /// The fastest backend for this CPU, ignoring any override: AVX-512
    /// where present except on AMD family 19h (Zen 3/4, whose 512-bit
    /// operations are issued as two 256-bit halves), then SHA-NI ×4, then
    /// AVX2, then `sha2` (measurements: `README.md`).
    pub fn detected() -> Backend {
        static DETECTED: OnceLock<Backend> = OnceLock::new();
        *DETECTED.get_or_init(|| {
            if Backend::Avx512X16.is_available() && !amd_family_19h() {
                Backend::Avx512X16
            } else if Backend::ShaNiX4.is_available() {
                Backend::ShaNiX4
            } else if Backend::Avx2X8.is_available() {
                Backend::Avx2X8
            } else {
                Backend::Sha2
            }
        })
    }

    /// What `PARCRYPT_SHA256_BACKEND` asks for: `Ok(None)` when it is unset,
    /// empty or `auto`; an error for a name that is not a backend or a
    /// backend this CPU cannot run. (Read once per process.)
    ///
    /// # Errors
    /// [`EnvError`] naming the value and why it was not used.
    pub fn from_env() -> Result<Option<Backend>, EnvError> {
        static FROM_ENV: OnceLock<Result<Option<Backend>, EnvError>> = OnceLock::new();
        FROM_ENV
            .get_or_init(|| Backend::parse_env(std::env::var_os(BACKEND_ENV).as_deref()))
            .clone()
    }

    /// What an environment value asks for (see [`Backend::from_env`]).
    fn parse_env(value: Option<&std::ffi::OsStr>) -> Result<Option<Backend>, EnvError> {
        let Some(value) = value else {
            return Ok(None);
        };
        let value = value.to_string_lossy();
        if value.is_empty() || value.eq_ignore_ascii_case("auto") {
            return Ok(None);
        }
        match value.parse::<Backend>() {
            Ok(b) if b.is_available() => Ok(Some(b)),
            Ok(b) => Err(EnvError::Unavailable(Unavailable(b))),
            Err(e) => Err(EnvError::Unknown(e)),
        }
    }

    /// The backend [`sha256_many`] and the Merkle trees use now: the one
    /// given to [`Backend::force`] if any, else a valid
    /// `PARCRYPT_SHA256_BACKEND`, else [`Backend::detected`]. An invalid
    /// environment value is ignored (never a crash, never an instruction
    /// the CPU lacks); [`Backend::from_env`] says why, for a caller to
    /// report.
    pub fn active() -> Backend {
        match FORCED.load(Ordering::Relaxed) {
            0 => Backend::from_env()
                .ok()
                .flatten()
                .unwrap_or_else(Backend::detected),
            n => Backend::ALL[usize::from(n) - 1],
        }
    }

    /// Makes `choice` the process-wide backend (`None`: back to the
    /// environment or detection). For tests and benchmarks that compare
    /// backends; every backend gives the same digests, so other threads
    /// hashing meanwhile only change speed.
    ///
    /// # Errors
    /// [`Unavailable`] if this CPU cannot run `choice`; nothing changes then.
    pub fn force(choice: Option<Backend>) -> Result<(), Unavailable> {
        let code = match choice {
            None => 0,
            Some(b) if b.is_available() => Backend::ALL.iter().position(|x| *x == b).map_or(0, |i| i + 1),
            Some(b) => return Err(Unavailable(b)),
        };
        FORCED.store(code as u8, Ordering::Relaxed);
        Ok(())
    }

    /// `out[i]` = SHA-256(`messages[i]`), messages of any lengths (equal
    /// lengths fill every lane; unequal ones leave lanes idle while the
    /// longest finishes).
    ///
    /// # Errors
    /// [`Unavailable`] if this CPU cannot run this backend; `out` is
    /// untouched then.
    ///
    /// # Panics
    /// If `out.len() != messages.len()`.
    pub fn sha256_many(self, messages: &[&[u8]], out: &mut [Digest]) -> Result<(), Unavailable> {
        self.sha256_many_prefixed(&[], messages, out)
    }

    /// `out[i]` = SHA-256(`prefix ‖ messages[i]`), without copying the
    /// messages (RFC 6962 leaves: `prefix = [0]`).
    ///
    /// # Errors
    /// [`Unavailable`] if this CPU cannot run this backend.
    ///
    /// # Panics
    /// If `out.len() != messages.len()`.
    pub fn sha256_many_prefixed(
        self,
        prefix: &[u8],
        messages: &[&[u8]],
        out: &mut [Digest],
    ) -> Result<(), Unavailable> {
        assert_eq!(out.len(), messages.len(), "one output per message");
        self.run(&Batch::new(prefix, messages), out)
    }

    /// `out[i]` = SHA-256(`prefix ‖ nodes[2i] ‖ nodes[2i + 1]`): a level of
    /// a Merkle tree (`prefix = [1]` for RFC 6962, empty for BEP 52 and
    /// Glacier).
    ///
    /// # Errors
    /// [`Unavailable`] if this CPU cannot run this backend.
    ///
    /// # Panics
    /// If `nodes.len() != 2 * out.len()`.
    pub fn sha256_pairs(
        self,
        prefix: &[u8],
        nodes: &[Digest],
        out: &mut [Digest],
    ) -> Result<(), Unavailable> {
        assert_eq!(nodes.len(), 2 * out.len(), "two nodes per output");
        self.run(&Batch::new(prefix, &Pairs(nodes)), out)
    }

    /// The backend that hashes a short tail of a batch for this one: the
    /// first available of SHA-NI ×4, AVX2 ×8 and `sha2` narrower than it.
    fn narrower(self) -> Backend {
        [Backend::ShaNiX4, Backend::Avx2X8]
            .into_iter()
            .find(|b| b.lanes() < self.lanes() && b.is_available())
            .unwrap_or(Backend::Sha2)
    }

    /// Full passes (and a tail of at least half the lanes) on this
    /// backend's kernel; a shorter tail on a narrower backend, since an
    /// idle lane costs as much as a busy one (one 1 MiB Glacier chunk alone
    /// on AVX-512 would take sixteen chunks' time).
    fn run<B: Bodies + ?Sized>(self, batch: &Batch<'_, B>, out: &mut [Digest]) -> Result<(), Unavailable> {
        if !self.is_available() {
            return Err(Unavailable(self));
        }
        let (n, lanes) = (batch.count(), self.lanes());
        let tail = n % lanes;
        if lanes > 4 && tail != 0 && tail < lanes / 2 {
            let main = n - tail;
            let (head, rest) = out.split_at_mut(main);
            self.kernel(&Batch::new(batch.prefix, &Sub(batch.bodies, 0, main)), head);
            let narrower = self.narrower();
            narrower.kernel(&Batch::new(batch.prefix, &Sub(batch.bodies, main, tail)), rest);
        } else {
            self.kernel(batch, out);
        }
        Ok(())
    }

    /// This backend's kernel over the whole batch (the caller has checked
    /// that it is available).
    fn kernel<B: Bodies + ?Sized>(self, batch: &Batch<'_, B>, out: &mut [Digest]) {
        debug_assert!(self.is_available());
        if !self.is_available() {
            // Never reached (`run` checked), but never run an instruction
            // the CPU lacks either.
            return single(batch, out);
        }
        match self {
            Backend::Sha2 => single(batch, out),
            // SAFETY: `is_available` above detected SHA, SSE2, SSSE3 and
            // SSE4.1, the features the SHA-NI kernels are compiled for.
            #[cfg(target_arch = "x86_64")]
            Backend::ShaNiX2 => unsafe { shani::hash::<B, 2>(batch, out) },
            // SAFETY: as above.
            #[cfg(target_arch = "x86_64")]
            Backend::ShaNiX4 => unsafe { shani::hash::<B, 4>(batch, out) },
            // SAFETY: `is_available` above detected AVX2.
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2X8 => unsafe { avx2::hash(batch, out) },
            // SAFETY: `is_available` above detected AVX-512 F and BW.
            #[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
            Backend::Avx512X16 => unsafe { avx512::hash(batch, out) },
            #[allow(unreachable_patterns)]
            _ => single(batch, out),
        }
    }
}

/// 0 = not forced, else the index in [`Backend::ALL`] plus one.
static FORCED: AtomicU8 = AtomicU8::new(0);

/// AMD family 19h (Zen 3 and Zen 4): AVX-512 (Zen 4) runs as two 256-bit
/// halves there, and SHA-NI ×4 is the faster backend.
fn amd_family_19h() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: CPUID leaves 0 and 1 exist on every x86-64 CPU. (A safe
        // function from Rust 1.87 on, unsafe before: the block stays for
        // the crate's minimum Rust version.)
        #[allow(unused_unsafe)]
        let (vendor, version) = unsafe {
            let v = std::arch::x86_64::__cpuid(0);
            (v, std::arch::x86_64::__cpuid(1).eax)
        };
        let amd = (vendor.ebx, vendor.edx, vendor.ecx) == (0x6874_7541, 0x6974_6e65, 0x444d_4163);
        let family = ((version >> 8) & 0xf) + ((version >> 20) & 0xff);
        amd && family == 0x19
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

impl std::fmt::Display for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Backend {
    type Err = crate::name::UnknownName;

    /// Case-insensitive; `shani`, `avx2` and `avx512` name the widest
    /// backend of that family.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lower = s.to_ascii_lowercase();
        let alias = match lower.as_str() {
            "shani" => "shani-x4",
            "avx2" => "avx2-x8",
            "avx512" => "avx512-x16",
            other => other,
        };
        Backend::ALL
            .into_iter()
            .find(|b| b.name() == alias)
            .ok_or_else(|| {
                crate::name::UnknownName::new(
                    "SHA-256 backend",
                    s,
                    "sha2, shani-x2, shani-x4, avx2-x8 or avx512-x16",
                )
            })
    }
}

/// Why `PARCRYPT_SHA256_BACKEND` was not used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EnvError {
    /// Not a backend's name.
    #[error("PARCRYPT_SHA256_BACKEND: {0}")]
    Unknown(crate::name::UnknownName),
    /// A backend this CPU cannot run.
    #[error("PARCRYPT_SHA256_BACKEND: {0}")]
    Unavailable(Unavailable),
}

/// `out[i]` = SHA-256(`messages[i]`) on the [active](Backend::active) backend.
///
/// # Panics
/// If `out.len() != messages.len()`.
pub fn sha256_many(messages: &[&[u8]], out: &mut [Digest]) {
    sha256_many_prefixed(&[], messages, out);
}

/// `out[i]` = SHA-256(`prefix ‖ messages[i]`) on the active backend.
///
/// # Panics
/// If `out.len() != messages.len()`.
pub fn sha256_many_prefixed(prefix: &[u8], messages: &[&[u8]], out: &mut [Digest]) {
    let backend = Backend::active();
    if backend.sha256_many_prefixed(prefix, messages, out).is_err() {
        // Unreachable: `active` only returns available backends.
        single(&Batch::new(prefix, messages), out);
    }
}

/// `out[i]` = SHA-256(`prefix ‖ nodes[2i] ‖ nodes[2i + 1]`) on the active
/// backend.
///
/// # Panics
/// If `nodes.len() != 2 * out.len()`.
pub fn sha256_pairs(prefix: &[u8], nodes: &[Digest], out: &mut [Digest]) {
    let backend = Backend::active();
    if backend.sha256_pairs(prefix, nodes, out).is_err() {
        single(&Batch::new(prefix, &Pairs(nodes)), out);
    }
}

/// SHA-256(`prefix ‖ message`) with the single-buffer backend: the reference
/// the many-message backends are compared with.
pub fn sha256_many_one(prefix: &[u8], message: &[u8]) -> Digest {
    super::sha256_parts(&[prefix, message])
}

/// The bodies of a batch's messages.
pub(crate) trait Bodies: Sync {
    fn count(&self) -> usize;
    fn body(&self, i: usize) -> &[u8];
}

impl Bodies for [&[u8]] {
    #[inline(always)]
    fn count(&self) -> usize {
        self.len()
    }
    #[inline(always)]
    fn body(&self, i: usize) -> &[u8] {
        self[i]
    }
}

/// Node pairs: body `i` is `nodes[2i] ‖ nodes[2i + 1]`, 64 contiguous bytes.
struct Pairs<'a>(&'a [Digest]);

impl Bodies for Pairs<'_> {
    #[inline(always)]
    fn count(&self) -> usize {
        self.0.len() / 2
    }
    #[inline(always)]
    fn body(&self, i: usize) -> &[u8] {
        self.0[2 * i..2 * i + 2].as_flattened()
    }
}

/// Bodies `start..start + count` of another list.
struct Sub<'a, B: ?Sized>(&'a B, usize, usize);

impl<B: Bodies + ?Sized> Bodies for Sub<'_, B> {
    #[inline(always)]
    fn count(&self) -> usize {
        self.2
    }
    #[inline(always)]
    fn body(&self, i: usize) -> &[u8] {
        self.0.body(self.1 + i)
    }
}

/// SHA-256 processes 64-byte blocks.
#[cfg(target_arch = "x86_64")]
const BLOCK: usize = 64;

/// A block of zeros: what idle lanes hash.
#[cfg(target_arch = "x86_64")]
static IDLE: [u8; BLOCK] = [0; BLOCK];

/// Messages `prefix ‖ body(i)`.
struct Batch<'a, B: ?Sized> {
    prefix: &'a [u8],
    bodies: &'a B,
}

impl<'a, B: Bodies + ?Sized> Batch<'a, B> {
    fn new(prefix: &'a [u8], bodies: &'a B) -> Self {
        Batch { prefix, bodies }
    }

    fn count(&self) -> usize {
        self.bodies.count()
    }

    /// The number of blocks of message `i` once padded (at least one).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn blocks(&self, i: usize) -> usize {
        (self.prefix.len() + self.bodies.body(i).len() + 9).div_ceil(BLOCK)
    }

    /// Block `b` of message `i`'s padded form: a pointer into the body when
    /// the block lies inside it, else assembled in `buf`. The pointer is
    /// valid for 64 bytes while `self` and `buf` are.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn block(&self, i: usize, b: usize, buf: &mut [u8; BLOCK]) -> *const u8 {
        let body = self.bodies.body(i);
        let p = self.prefix.len();
        let start = b * BLOCK;
        if start >= p && start - p + BLOCK <= body.len() {
            return body[start - p..].as_ptr();
        }
        if p == 1 && start == 0 && body.len() >= BLOCK - 1 {
            // The first block behind a one-byte prefix (RFC 6962 leaves and
            // nodes): copies of a fixed size, inlined.
            buf[0] = self.prefix[0];
            buf[1..].copy_from_slice(&body[..BLOCK - 1]);
            return buf.as_ptr();
        }
        self.assemble(body, start, buf);
        buf.as_ptr()
    }

    /// Bytes `[start, start + 64)` of `prefix ‖ body ‖ padding` into `buf`.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn assemble(&self, body: &[u8], start: usize, buf: &mut [u8; BLOCK]) {
        let p = self.prefix.len();
        let len = p + body.len();
        *buf = [0; BLOCK];
        let mut at = 0;
        // The part of the prefix, then of the body, inside this block.
        if start < p {
            let piece = &self.prefix[start..p.min(start + BLOCK)];
            buf[..piece.len()].copy_from_slice(piece);
            at = piece.len();
        }
        let from = (start + at).saturating_sub(p).min(body.len());
        let piece = &body[from..body.len().min(from + BLOCK - at)];
        if piece.len() <= 8 {
            // Node tails are 0 or 1 byte: cheaper than a call to memcpy.
            for (d, s) in buf[at..].iter_mut().zip(piece) {
                *d = *s;
            }
        } else {
            buf[at..at + piece.len()].copy_from_slice(piece);
        }
        at += piece.len();
        // The 0x80 marker right after the message, and the bit length in the
        // last 8 bytes of the last block.
        if start + at == len && at < BLOCK {
            buf[at] = 0x80;
        }
        if start + BLOCK == (len + 9).div_ceil(BLOCK) * BLOCK {
            buf[BLOCK - 8..].copy_from_slice(&((len as u64) * 8).to_be_bytes());
        }
    }
}

/// The one-at-a-time backend.
fn single<B: Bodies + ?Sized>(batch: &Batch<'_, B>, out: &mut [Digest]) {
    for (i, o) in out.iter_mut().enumerate() {
        *o = super::sha256_parts(&[batch.prefix, batch.bodies.body(i)]);
    }
}

/// The SHA-256 round constants.
#[cfg(target_arch = "x86_64")]
const K: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

/// The SHA-256 initial state.
#[cfg(target_arch = "x86_64")]
const H0: [u32; 8] = [
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

/// The lanes of one pass of an `N`-lane kernel over messages
/// `first..first + N` (fewer at the end of the batch): each lane's block
/// count (0 for an idle lane) and the number of steps (the largest count).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn lanes<B: Bodies + ?Sized, const N: usize>(batch: &Batch<'_, B>, first: usize) -> ([usize; N], usize) {
    let active = batch.count().saturating_sub(first).min(N);
    let mut blocks = [0; N];
    for (l, n) in blocks.iter_mut().enumerate().take(active) {
        *n = batch.blocks(first + l);
    }
    let steps = blocks.iter().copied().max().unwrap_or(0);
    (blocks, steps)
}

/// Block `b` of each lane (the idle block for lanes with fewer blocks).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn gather<B: Bodies + ?Sized, const N: usize>(
    batch: &Batch<'_, B>,
    first: usize,
    blocks: &[usize; N],
    b: usize,
    bufs: &mut [[u8; BLOCK]; N],
) -> [*const u8; N] {
    let mut ptrs = [IDLE.as_ptr(); N];
    for l in 0..N {
        if b < blocks[l] {
            ptrs[l] = batch.block(first + l, b, &mut bufs[l]);
        }
    }
    ptrs
}

/// Writes the digest of every lane whose last block was step `b`, from the
/// state words `state[word][lane]`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn finish_lanes<const N: usize>(
    state: &[[u32; N]; 8],
    blocks: &[usize; N],
    b: usize,
    out: &mut [Digest],
    first: usize,
) {
    for l in 0..N {
        if blocks[l] == b + 1 {
            let digest = &mut out[first + l];
            for (w, word) in state.iter().enumerate() {
                digest[4 * w..4 * w + 4].copy_from_slice(&word[l].to_be_bytes());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// The assembled blocks, concatenated, are the padded message (the
    /// kernels' input; they exist on x86-64 only).
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn blocks_are_the_padded_message() {
        let data: Vec<u8> = (0..300usize).map(|i| (i % 251) as u8).collect();
        for prefix in [&[][..], &[0], &[1, 2, 3]] {
            for len in 0..200 {
                let body = &data[..len];
                let bodies: [&[u8]; 1] = [body];
                let batch = Batch::new(prefix, &bodies[..]);
                let total = prefix.len() + len;
                let mut want = [prefix, body].concat();
                want.push(0x80);
                while want.len() % 64 != 56 {
                    want.push(0);
                }
                want.extend_from_slice(&(total as u64 * 8).to_be_bytes());
                assert_eq!(batch.blocks(0), want.len() / 64);
                let mut got = Vec::new();
                for b in 0..batch.blocks(0) {
                    let mut buf = [0xAA; 64];
                    let ptr = batch.block(0, b, &mut buf);
                    // SAFETY: `block` returns a pointer to 64 readable bytes
                    // inside `body` or `buf`, both alive here.
                    got.extend_from_slice(unsafe { std::slice::from_raw_parts(ptr, 64) });
                }
                assert_eq!(got, want, "prefix {prefix:?} len {len}");
            }
        }
    }

    #[test]
    fn names_parse_and_round_trip() {
        for b in Backend::ALL {
            assert_eq!(b.name().parse::<Backend>(), Ok(b));
            assert_eq!(b.to_string(), b.name());
        }
        assert_eq!("SHANI".parse::<Backend>(), Ok(Backend::ShaNiX4));
        assert_eq!("avx2".parse::<Backend>(), Ok(Backend::Avx2X8));
        assert_eq!("avx512".parse::<Backend>(), Ok(Backend::Avx512X16));
        let err = "md5".parse::<Backend>().unwrap_err();
        assert_eq!(err.kind, "SHA-256 backend");
        assert!(Backend::Sha2.is_available());
        assert!(Backend::detected().is_available());
        assert!(Backend::active().is_available());
    }

    #[test]
    fn environment_values_parse_or_say_why_not() {
        use std::ffi::OsStr;
        assert_eq!(Backend::parse_env(None), Ok(None));
        assert_eq!(Backend::parse_env(Some(OsStr::new(""))), Ok(None));
        assert_eq!(Backend::parse_env(Some(OsStr::new("AUTO"))), Ok(None));
        for b in Backend::ALL {
            let got = Backend::parse_env(Some(OsStr::new(b.name())));
            if b.is_available() {
                assert_eq!(got, Ok(Some(b)));
            } else {
                assert_eq!(got, Err(EnvError::Unavailable(Unavailable(b))));
            }
        }
        let err = Backend::parse_env(Some(OsStr::new("md5"))).unwrap_err();
        assert!(matches!(err, EnvError::Unknown(_)));
        assert_eq!(
            err.to_string(),
            "PARCRYPT_SHA256_BACKEND: unknown SHA-256 backend \"md5\" \
             (expected sha2, shani-x2, shani-x4, avx2-x8 or avx512-x16)"
        );
    }

    #[test]
    fn unavailable_backends_are_refused_not_run() {
        let mut out = [[7u8; 32]; 1];
        for b in Backend::ALL {
            let r = b.sha256_many(&[b"abc"], &mut out);
            if b.is_available() {
                assert_eq!(r, Ok(()));
                assert_eq!(out[0], crate::digest::sha256(b"abc"));
            } else {
                assert_eq!(r, Err(Unavailable(b)));
                assert_eq!(Backend::force(Some(b)), Err(Unavailable(b)));
            }
        }
    }
}
