//! The batch driver: messages `prefix ‖ body` as padded blocks, run on a backend's kernel.

use super::Digest;
use super::Midstate;
#[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
use super::avx512;
use super::backend::{Backend, Unavailable};
#[cfg(target_arch = "x86_64")]
use super::{avx2, shani};

/// Hashing a batch on one backend (the backend itself, and which one runs,
/// are in `backend.rs`).
impl Backend {
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
    pub fn sha256_many_into(self, messages: &[&[u8]], out: &mut [Digest]) -> Result<(), Unavailable> {
        self.sha256_many_prefixed_into(&[], messages, out)
    }

    /// `out[i]` = SHA-256(`prefix ‖ messages[i]`), without copying the
    /// messages (RFC 6962 leaves: `prefix = [0]`).
    ///
    /// # Errors
    /// [`Unavailable`] if this CPU cannot run this backend.
    ///
    /// # Panics
    /// If `out.len() != messages.len()`.
    pub fn sha256_many_prefixed_into(
        self,
        prefix: &[u8],
        messages: &[&[u8]],
        out: &mut [Digest],
    ) -> Result<(), Unavailable> {
        assert_eq!(out.len(), messages.len(), "one output per message");
        self.run(&Batch::new(prefix, messages), out)
    }

    /// `out[i]` = SHA-256(the blocks of `mid` ‖ `prefix ‖ messages[i]`): each
    /// message starts from the cached state instead of hashing the shared
    /// blocks again (SLH-DSA-SHA2: `mid` holds `PK.seed ‖ 0^(64−n)`, the
    /// prefix or the message `ADRSc ‖ M`). The padding's length field
    /// counts the midstate's blocks.
    ///
    /// # Errors
    /// [`Unavailable`] if this CPU cannot run this backend; `out` is
    /// untouched then.
    ///
    /// # Panics
    /// If `out.len() != messages.len()`.
    pub fn sha256_many_from_into(
        self,
        mid: &Midstate,
        prefix: &[u8],
        messages: &[&[u8]],
        out: &mut [Digest],
    ) -> Result<(), Unavailable> {
        assert_eq!(out.len(), messages.len(), "one output per message");
        self.run(&Batch::from_midstate(mid, prefix, messages), out)
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
    pub fn sha256_pairs_into(
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
            self.kernel(&batch.with_bodies(&Sub(batch.bodies, 0, main)), head);
            let narrower = self.narrower();
            narrower.kernel(&batch.with_bodies(&Sub(batch.bodies, main, tail)), rest);
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
pub(super) struct Pairs<'a>(pub(super) &'a [Digest]);

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
pub(super) const BLOCK: usize = 64;

/// A block of zeros: what idle lanes hash.
#[cfg(target_arch = "x86_64")]
static IDLE: [u8; BLOCK] = [0; BLOCK];

/// Messages `prefix ‖ body(i)`, each hashed on from `mid` (the initial
/// state for plain SHA-256).
pub(super) struct Batch<'a, B: ?Sized> {
    mid: &'a Midstate,
    prefix: &'a [u8],
    bodies: &'a B,
}

impl<'a, B: Bodies + ?Sized> Batch<'a, B> {
    pub(super) fn new(prefix: &'a [u8], bodies: &'a B) -> Self {
        Batch::from_midstate(&Midstate::INITIAL, prefix, bodies)
    }

    pub(super) fn from_midstate(mid: &'a Midstate, prefix: &'a [u8], bodies: &'a B) -> Self {
        Batch { mid, prefix, bodies }
    }

    /// The same midstate and prefix before other bodies.
    fn with_bodies<'b, C: Bodies + ?Sized>(&self, bodies: &'b C) -> Batch<'b, C>
    where
        'a: 'b,
    {
        Batch::from_midstate(self.mid, self.prefix, bodies)
    }

    /// The state every message starts from.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) fn initial_state(&self) -> &[u32; 8] {
        &self.mid.state
    }

    pub(super) fn count(&self) -> usize {
        self.bodies.count()
    }

    /// The number of blocks of message `i` once padded (at least one).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) fn blocks(&self, i: usize) -> usize {
        (self.prefix.len() + self.bodies.body(i).len() + 9).div_ceil(BLOCK)
    }

    /// Block `b` of message `i`'s padded form: a pointer into the body when
    /// the block lies inside it, else assembled in `buf`. The pointer is
    /// valid for 64 bytes while `self` and `buf` are.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) fn block(&self, i: usize, b: usize, buf: &mut [u8; BLOCK]) -> *const u8 {
        let body = self.bodies.body(i);
        let p = self.prefix.len();
        let len = p + body.len();
        if len < BLOCK - 8 {
            // The whole padded message in one block (`b` is 0): SLH-DSA's
            // `ADRSc ‖ M` of 38 or 54 bytes after its `PK.seed` midstate,
            // most of its hashes; no block-boundary arithmetic.
            *buf = [0; BLOCK];
            buf[..p].copy_from_slice(self.prefix);
            buf[p..len].copy_from_slice(body);
            buf[len] = 0x80;
            buf[BLOCK - 8..].copy_from_slice(&self.bit_len(len).to_be_bytes());
            return buf.as_ptr();
        }
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

    /// Bytes `[start, start + 64)` of `prefix ‖ body ‖ padding` into `buf`
    /// (the length field counts the midstate's blocks too).
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
            buf[BLOCK - 8..].copy_from_slice(&self.bit_len(len).to_be_bytes());
        }
    }

    /// The padding's length field for a message of `len` bytes after the
    /// midstate: the midstate's bytes count too.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn bit_len(&self, len: usize) -> u64 {
        self.mid
            .blocks
            .wrapping_mul(64)
            .wrapping_add(len as u64)
            .wrapping_mul(8)
    }
}

/// The one-at-a-time backend: the crate's SHA-256 (`sha2`, or AWS-LC where
/// SHA-NI is missing or masked) for plain messages; RustCrypto `sha2`
/// resumed from the midstate otherwise (AWS-LC's API has no way in).
pub(super) fn single<B: Bodies + ?Sized>(batch: &Batch<'_, B>, out: &mut [Digest]) {
    if *batch.mid == Midstate::INITIAL {
        for (i, o) in out.iter_mut().enumerate() {
            *o = crate::digest::sha256_parts(&[batch.prefix, batch.bodies.body(i)]);
        }
        return;
    }
    use sha2::Digest as _;
    let start = batch.mid.sha2_hasher();
    for (i, o) in out.iter_mut().enumerate() {
        let mut h = start.clone();
        h.update(batch.prefix);
        h.update(batch.bodies.body(i));
        *o = h.finalize().into();
    }
}

/// The SHA-256 round constants.
#[cfg(target_arch = "x86_64")]
pub(super) const K: [u32; 64] = [
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
pub(super) const H0: [u32; 8] = [
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

/// The lanes of one pass of an `N`-lane kernel over messages
/// `first..first + N` (fewer at the end of the batch): each lane's block
/// count (0 for an idle lane) and the number of steps (the largest count).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) fn lanes<B: Bodies + ?Sized, const N: usize>(
    batch: &Batch<'_, B>,
    first: usize,
) -> ([usize; N], usize) {
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
pub(super) fn gather<B: Bodies + ?Sized, const N: usize>(
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
pub(super) fn finish_lanes<const N: usize>(
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
        // The length field counts a midstate's blocks.
        for (mid, before) in [(Midstate::INITIAL, 0), (Midstate::new(&data[..128]), 128)] {
            for prefix in [&[][..], &[0], &[1, 2, 3], &data[..22], &data[..64]] {
                for len in 0..200 {
                    let body = &data[..len];
                    let bodies: [&[u8]; 1] = [body];
                    let batch = Batch::from_midstate(&mid, prefix, &bodies[..]);
                    let total = before + prefix.len() + len;
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
                        // SAFETY: `block` returns a pointer to 64 readable
                        // bytes inside `body` or `buf`, both alive here.
                        got.extend_from_slice(unsafe { std::slice::from_raw_parts(ptr, 64) });
                    }
                    assert_eq!(got, want, "{before} bytes before, prefix {prefix:?}, len {len}");
                }
            }
        }
    }

    #[test]
    fn unavailable_backends_are_refused_not_run() {
        let mut out = [[7u8; 32]; 1];
        for b in Backend::ALL {
            let r = b.sha256_many_into(&[b"abc"], &mut out);
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
