//! SHA-NI with `N` messages interleaved: the same instruction sequence as
//! the single-buffer kernel (Intel's reference, as in RustCrypto `sha2`),
//! each step issued for every message before the next step, so that one
//! message's `sha256rnds2` latency is hidden behind the others'.
//!
//! The state of each message is kept as the instructions want it, ABEF and
//! CDGH, from its first block to its last.
#![allow(clippy::cast_ptr_alignment)] // unaligned loads and stores throughout
#![allow(clippy::needless_range_loop)] // lane loops read best indexed

use std::arch::x86_64::*;

use super::{BLOCK, Batch, Bodies, Chains, Digest, K, chain_blocks, finish_lanes, gather, lanes};
use crate::secret::wipe;

/// Hashes every message of `batch` into `out`, `N` at a time; a remainder
/// of 1 or 2 messages runs 1 or 2 wide instead of leaving lanes idle.
///
/// # Safety
/// The CPU must support SHA, SSE2, SSSE3 and SSE4.1.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
pub(super) unsafe fn hash<B: Bodies + ?Sized, const N: usize>(batch: &Batch<'_, B>, out: &mut [Digest]) {
    let count = batch.count();
    let mut first = 0;
    // SAFETY: this function's caller guarantees the features `group` is
    // compiled for.
    unsafe {
        while first + N <= count {
            group::<B, N>(batch, first, out);
            first += N;
        }
        match count - first {
            0 => {}
            1 => group::<B, 1>(batch, first, out),
            2 => group::<B, 2>(batch, first, out),
            _ => group::<B, N>(batch, first, out),
        }
    }
}

/// Messages `first..first + W` (those that exist), `W` side by side.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
unsafe fn group<B: Bodies + ?Sized, const W: usize>(batch: &Batch<'_, B>, first: usize, out: &mut [Digest]) {
    let (blocks, steps) = lanes::<B, W>(batch, first);
    let mut bufs = [[0u8; BLOCK]; W];
    // SAFETY: the features are enabled (this function's contract); every
    // pointer `gather` returns is valid for 64 bytes while `batch` and
    // `bufs` live, which is the whole loop.
    unsafe {
        let (abef0, cdgh0) = to_abef_cdgh(batch.initial_state());
        let mut abef = [abef0; W];
        let mut cdgh = [cdgh0; W];
        for b in 0..steps {
            let ptrs = gather::<B, W>(batch, first, &blocks, b, &mut bufs);
            compress::<W>(&mut abef, &mut cdgh, &ptrs);
            if blocks.contains(&(b + 1)) {
                let mut state = [[0u32; W]; 8];
                for l in 0..W {
                    let words = from_abef_cdgh(abef[l], cdgh[l]);
                    for (w, word) in words.iter().enumerate() {
                        state[w][l] = *word;
                    }
                }
                finish_lanes::<W>(&state, &blocks, b, out, first);
            }
        }
    }
}

/// The state words a..h as the SHA instructions hold them.
#[inline(always)]
unsafe fn to_abef_cdgh(h: &[u32; 8]) -> (__m128i, __m128i) {
    // SAFETY: `h` is 32 readable bytes; SSE features per the callers.
    unsafe {
        let dcba = _mm_loadu_si128(h.as_ptr().cast());
        let hgfe = _mm_loadu_si128(h.as_ptr().add(4).cast());
        let cdab = _mm_shuffle_epi32(dcba, 0xB1);
        let efgh = _mm_shuffle_epi32(hgfe, 0x1B);
        (_mm_alignr_epi8(cdab, efgh, 8), _mm_blend_epi16(efgh, cdab, 0xF0))
    }
}

/// The words a..h back from ABEF and CDGH.
#[inline(always)]
unsafe fn from_abef_cdgh(abef: __m128i, cdgh: __m128i) -> [u32; 8] {
    let mut h = [0u32; 8];
    // SAFETY: `h` is 32 writable bytes; SSE features per the callers.
    unsafe {
        let feba = _mm_shuffle_epi32(abef, 0x1B);
        let dchg = _mm_shuffle_epi32(cdgh, 0xB1);
        _mm_storeu_si128(h.as_mut_ptr().cast(), _mm_blend_epi16(feba, dchg, 0xF0));
        _mm_storeu_si128(h.as_mut_ptr().add(4).cast(), _mm_alignr_epi8(dchg, feba, 8));
    }
    h
}

/// Four rounds of every lane: `w[l]` holds the lane's next four message
/// words, `k` the four round constants.
#[inline(always)]
unsafe fn rounds4<const W: usize>(
    abef: &mut [__m128i; W],
    cdgh: &mut [__m128i; W],
    w: &[__m128i; W],
    k: &[u32],
) {
    // SAFETY: SHA and SSE features per the callers; `k` has 4 words.
    unsafe {
        let kv = _mm_loadu_si128(k.as_ptr().cast());
        let mut t = [kv; W];
        for l in 0..W {
            t[l] = _mm_add_epi32(w[l], kv);
        }
        for l in 0..W {
            cdgh[l] = _mm_sha256rnds2_epu32(cdgh[l], abef[l], t[l]);
        }
        for l in 0..W {
            t[l] = _mm_shuffle_epi32(t[l], 0x0E);
        }
        for l in 0..W {
            abef[l] = _mm_sha256rnds2_epu32(abef[l], cdgh[l], t[l]);
        }
    }
}

/// The next four schedule words of every lane from the last sixteen
/// (`w0` oldest).
#[inline(always)]
unsafe fn schedule<const W: usize>(
    w0: &[__m128i; W],
    w1: &[__m128i; W],
    w2: &[__m128i; W],
    w3: &[__m128i; W],
) -> [__m128i; W] {
    // SAFETY: SHA and SSE features per the callers.
    unsafe {
        let mut t = *w0;
        for l in 0..W {
            t[l] = _mm_sha256msg1_epu32(w0[l], w1[l]);
        }
        for l in 0..W {
            t[l] = _mm_add_epi32(t[l], _mm_alignr_epi8(w3[l], w2[l], 4));
        }
        for l in 0..W {
            t[l] = _mm_sha256msg2_epu32(t[l], w3[l]);
        }
        t
    }
}

/// One block of every lane.
#[inline(always)]
unsafe fn compress<const W: usize>(abef: &mut [__m128i; W], cdgh: &mut [__m128i; W], ptrs: &[*const u8; W]) {
    // SAFETY: every pointer is valid for 64 bytes (the callers'); SHA and
    // SSE features per the callers.
    unsafe {
        let mask = _mm_set_epi64x(0x0C0D_0E0F_0809_0A0B, 0x0405_0607_0001_0203);
        let (abef_save, cdgh_save) = (*abef, *cdgh);
        let mut w = [[_mm_setzero_si128(); W]; 4];
        for (i, wi) in w.iter_mut().enumerate() {
            for l in 0..W {
                wi[l] = _mm_shuffle_epi8(_mm_loadu_si128(ptrs[l].add(16 * i).cast()), mask);
            }
        }
        let [mut w0, mut w1, mut w2, mut w3] = w;
        // Written out (no loop) so that the schedule stays in registers.
        macro_rules! step {
            ($i:literal, $cur:ident) => {
                rounds4(abef, cdgh, &$cur, &K[4 * $i..4 * $i + 4]);
            };
            ($i:literal, $cur:ident = $a:ident, $b:ident, $c:ident, $d:ident) => {
                $cur = schedule(&$a, &$b, &$c, &$d);
                rounds4(abef, cdgh, &$cur, &K[4 * $i..4 * $i + 4]);
            };
        }
        step!(0, w0);
        step!(1, w1);
        step!(2, w2);
        step!(3, w3);
        step!(4, w0 = w0, w1, w2, w3);
        step!(5, w1 = w1, w2, w3, w0);
        step!(6, w2 = w2, w3, w0, w1);
        step!(7, w3 = w3, w0, w1, w2);
        step!(8, w0 = w0, w1, w2, w3);
        step!(9, w1 = w1, w2, w3, w0);
        step!(10, w2 = w2, w3, w0, w1);
        step!(11, w3 = w3, w0, w1, w2);
        step!(12, w0 = w0, w1, w2, w3);
        step!(13, w1 = w1, w2, w3, w0);
        step!(14, w2 = w2, w3, w0, w1);
        step!(15, w3 = w3, w0, w1, w2);
        for l in 0..W {
            abef[l] = _mm_add_epi32(abef[l], abef_save[l]);
            cdgh[l] = _mm_add_epi32(cdgh[l], cdgh_save[l]);
        }
    }
}

/// SLH-DSA-SHA2's WOTS+ chains ([`super::sha256_chains_in_place`]), `W` at a
/// time (a remainder of 1 or 2 runs 1 or 2 wide): each lane's padded block
/// stays on the stack from the first step to the last, and a step changes
/// only its hash address and its n-byte value (`n` is 16, 24 or 32).
///
/// # Safety
/// The CPU must support SHA, SSE2, SSSE3 and SSE4.1.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
pub(super) unsafe fn chains<const W: usize>(job: &Chains<'_>, n: usize, vals: &mut [u8]) {
    let count = job.heads.len();
    let mut first = 0;
    // SAFETY: the caller guarantees the features `chain_group` needs.
    unsafe {
        while first < count {
            match count - first {
                1 => chain_group::<1>(job, first, n, vals),
                2 => chain_group::<2>(job, first, n, vals),
                _ => chain_group::<W>(job, first, n, vals),
            }
            first += W;
        }
    }
}

/// Chains `first..first + W` (those that exist), `W` side by side.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
unsafe fn chain_group<const W: usize>(job: &Chains<'_>, first: usize, n: usize, vals: &mut [u8]) {
    let mut bufs = [[0u8; BLOCK]; W];
    let mut start = [0u32; W];
    let mut steps = [0u32; W];
    let (active, most) = chain_blocks::<W>(job, first, n, vals, &mut bufs, &mut start, &mut steps);
    // SAFETY: the features are enabled (this function's contract); every
    // pointer points at one of `bufs`' 64-byte blocks, which outlive the loop.
    unsafe {
        let (abef0, cdgh0) = to_abef_cdgh(&job.mid.state);
        for t in 0..most {
            for l in 0..active {
                // The hash address start + t, big-endian, in bytes 18..22.
                bufs[l][18..22].copy_from_slice(&(start[l] + t).to_be_bytes());
            }
            let ptrs: [*const u8; W] = std::array::from_fn(|l| bufs[l].as_ptr());
            let (mut abef, mut cdgh) = ([abef0; W], [cdgh0; W]);
            compress::<W>(&mut abef, &mut cdgh, &ptrs);
            for l in 0..active {
                // A lane whose chain has ended keeps its value.
                if t < steps[l] {
                    let words = from_abef_cdgh(abef[l], cdgh[l]);
                    for (j, word) in words.iter().take(n / 4).enumerate() {
                        bufs[l][22 + 4 * j..26 + 4 * j].copy_from_slice(&word.to_be_bytes());
                    }
                }
            }
        }
    }
    for l in 0..active {
        vals[(first + l) * n..][..n].copy_from_slice(&bufs[l][22..22 + n]);
    }
    wipe(bufs.as_flattened_mut());
}
