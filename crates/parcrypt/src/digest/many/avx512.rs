//! AVX-512: sixteen messages, one per 32-bit lane. Each register holds one
//! state or schedule word of all sixteen messages, so every instruction
//! advances sixteen hashes; the rotations are single instructions
//! (`vprord`) and the three-input functions (Ch, Maj, the XORs of Σ and σ)
//! one `vpternlogd` each.
//!
//! Blocks arrive as sixteen rows of sixteen words; a 16×16 transpose (four
//! rounds of unpacks and lane shuffles) turns them into the sixteen
//! schedule words.
//!
//! One group of sixteen is bound by the latency of a round (about four
//! dependent operations), not by the vector units: so full passes run two
//! groups, 32 messages, with their rounds interleaved.
#![allow(clippy::cast_ptr_alignment)] // unaligned loads throughout
#![allow(clippy::needless_range_loop)]
// lane loops read best indexed
// Compiled only with Rust 1.89 or later (`cfg(parcrypt_avx512)`, set by
// `build.rs`), where these intrinsics are stable.
#![allow(clippy::incompatible_msrv)]

use std::arch::x86_64::*;

use zeroize::Zeroize as _;

use super::{BLOCK, Batch, Bodies, Chains, Digest, K, chain_blocks, finish_lanes, gather, lanes};
use crate::secret::wipe;

/// Messages per group.
const N: usize = 16;

/// Hashes every message of `batch` into `out`: 32 at a time (two groups
/// interleaved), then 16 (the last pass with idle lanes when the count is
/// not a multiple of 16).
///
/// # Safety
/// The CPU must support AVX-512 F and BW.
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) unsafe fn hash<B: Bodies + ?Sized>(batch: &Batch<'_, B>, out: &mut [Digest]) {
    let mut first = 0;
    // SAFETY: the caller guarantees the features `group` needs.
    unsafe {
        while first + 2 * N <= batch.count() {
            group::<B, 32, 2>(batch, first, out);
            first += 2 * N;
        }
        while first < batch.count() {
            group::<B, 16, 1>(batch, first, out);
            first += N;
        }
    }
}

/// Messages `first..first + L` (those that exist) in `G` groups of 16.
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn group<B: Bodies + ?Sized, const L: usize, const G: usize>(
    batch: &Batch<'_, B>,
    first: usize,
    out: &mut [Digest],
) {
    const { assert!(L == N * G) };
    let (blocks, steps) = lanes::<B, L>(batch, first);
    let mut bufs = [[0u8; BLOCK]; L];
    // SAFETY: AVX-512 F/BW per this function's contract; every pointer from
    // `gather` is valid for 64 bytes while `batch` and `bufs` live.
    unsafe {
        let mut state = [[_mm512_setzero_si512(); 8]; G];
        for group in &mut state {
            for (s, h) in group.iter_mut().zip(batch.initial_state()) {
                *s = _mm512_set1_epi32(*h as i32);
            }
        }
        for b in 0..steps {
            let ptrs = gather::<B, L>(batch, first, &blocks, b, &mut bufs);
            compress::<L, G>(&mut state, &ptrs);
            if blocks.contains(&(b + 1)) {
                let mut words = [[0u32; L]; 8];
                for (g, group) in state.iter().enumerate() {
                    for (w, s) in words.iter_mut().zip(group) {
                        _mm512_storeu_si512(w[N * g..].as_mut_ptr().cast(), *s);
                    }
                }
                finish_lanes::<L>(&words, &blocks, b, out, first);
            }
        }
    }
}

/// `x` rotated right by `n` bits in every lane.
macro_rules! ror {
    ($x:expr, $n:literal) => {
        _mm512_ror_epi32::<$n>($x)
    };
}

/// Σ0, Σ1, σ0, σ1.
#[inline(always)]
unsafe fn big_sigma0(a: __m512i) -> __m512i {
    // SAFETY: AVX-512 F per the callers.
    unsafe { _mm512_ternarylogic_epi32::<0x96>(ror!(a, 2), ror!(a, 13), ror!(a, 22)) }
}

#[inline(always)]
unsafe fn big_sigma1(e: __m512i) -> __m512i {
    // SAFETY: AVX-512 F per the callers.
    unsafe { _mm512_ternarylogic_epi32::<0x96>(ror!(e, 6), ror!(e, 11), ror!(e, 25)) }
}

#[inline(always)]
unsafe fn small_sigma0(x: __m512i) -> __m512i {
    // SAFETY: AVX-512 F per the callers.
    unsafe { _mm512_ternarylogic_epi32::<0x96>(ror!(x, 7), ror!(x, 18), _mm512_srli_epi32::<3>(x)) }
}

#[inline(always)]
unsafe fn small_sigma1(x: __m512i) -> __m512i {
    // SAFETY: AVX-512 F per the callers.
    unsafe { _mm512_ternarylogic_epi32::<0x96>(ror!(x, 17), ror!(x, 19), _mm512_srli_epi32::<10>(x)) }
}

/// One block of every lane of `G` groups, the groups' rounds interleaved.
#[inline(always)]
unsafe fn compress<const L: usize, const G: usize>(state: &mut [[__m512i; 8]; G], ptrs: &[*const u8; L]) {
    // SAFETY: AVX-512 F/BW and valid pointers per the callers.
    unsafe { rounds::<G>(state, load_words::<L, G>(ptrs)) }
}

/// The sixteen message words of every lane's block at `ptrs`, one register
/// per word and group: loaded, byte-swapped to big-endian words, transposed.
#[inline(always)]
unsafe fn load_words<const L: usize, const G: usize>(ptrs: &[*const u8; L]) -> [[__m512i; N]; G] {
    // SAFETY: AVX-512 F/BW per the callers; each pointer is valid for 64
    // bytes (the callers').
    unsafe {
        // Big-endian words: reverse the bytes of each 32-bit word.
        let bswap = _mm512_broadcast_i32x4(_mm_set_epi64x(0x0C0D_0E0F_0809_0A0B, 0x0405_0607_0001_0203));
        let mut w = [[_mm512_setzero_si512(); N]; G];
        for g in 0..G {
            let mut rows = [_mm512_setzero_si512(); N];
            for (l, row) in rows.iter_mut().enumerate() {
                *row = _mm512_shuffle_epi8(_mm512_loadu_si512(ptrs[N * g + l].cast()), bswap);
            }
            w[g] = transpose(&rows);
        }
        w
    }
}

/// The 64 rounds of one block (message words `w`, one register per word)
/// in every lane of `G` groups, their rounds interleaved, added into `state`.
#[inline(always)]
unsafe fn rounds<const G: usize>(state: &mut [[__m512i; 8]; G], mut w: [[__m512i; N]; G]) {
    // SAFETY: AVX-512 F per the callers.
    unsafe {
        let mut s = *state;
        for t in 0..64 {
            let k = _mm512_set1_epi32(K[t] as i32);
            for g in 0..G {
                let wt = if t < 16 {
                    w[g][t]
                } else {
                    let x = _mm512_add_epi32(
                        _mm512_add_epi32(small_sigma1(w[g][(t - 2) % 16]), w[g][(t - 7) % 16]),
                        _mm512_add_epi32(small_sigma0(w[g][(t - 15) % 16]), w[g][t % 16]),
                    );
                    w[g][t % 16] = x;
                    x
                };
                let [a, b, c, d, e, f, gg, h] = s[g];
                // h + K + W does not wait for this round's e: the chain
                // from e to the next e is Σ1, two adds.
                let hkw = _mm512_add_epi32(_mm512_add_epi32(h, k), wt);
                let ch = _mm512_ternarylogic_epi32::<0xCA>(e, f, gg);
                let t1 = _mm512_add_epi32(_mm512_add_epi32(hkw, ch), big_sigma1(e));
                let maj = _mm512_ternarylogic_epi32::<0xE8>(a, b, c);
                let t2 = _mm512_add_epi32(big_sigma0(a), maj);
                s[g] = [
                    _mm512_add_epi32(t1, t2),
                    a,
                    b,
                    c,
                    _mm512_add_epi32(d, t1),
                    e,
                    f,
                    gg,
                ];
            }
        }
        for g in 0..G {
            for (x, v) in state[g].iter_mut().zip(s[g]) {
                *x = _mm512_add_epi32(*x, v);
            }
        }
    }
}

/// Sixteen rows of sixteen words into sixteen columns: `out[j]` lane `i` =
/// `rows[i]` lane `j`.
#[inline(always)]
unsafe fn transpose(r: &[__m512i; N]) -> [__m512i; N] {
    // SAFETY: AVX-512 F per the callers.
    unsafe {
        // Pairs of rows interleaved word by word, then quads: afterwards
        // `u[4k + m]`, 128-bit lane L, holds word 4L + m of rows 4k..4k+4.
        let mut t = [_mm512_setzero_si512(); N];
        for k in 0..8 {
            t[2 * k] = _mm512_unpacklo_epi32(r[2 * k], r[2 * k + 1]);
            t[2 * k + 1] = _mm512_unpackhi_epi32(r[2 * k], r[2 * k + 1]);
        }
        let mut u = [_mm512_setzero_si512(); N];
        for k in 0..4 {
            u[4 * k] = _mm512_unpacklo_epi64(t[4 * k], t[4 * k + 2]);
            u[4 * k + 1] = _mm512_unpackhi_epi64(t[4 * k], t[4 * k + 2]);
            u[4 * k + 2] = _mm512_unpacklo_epi64(t[4 * k + 1], t[4 * k + 3]);
            u[4 * k + 3] = _mm512_unpackhi_epi64(t[4 * k + 1], t[4 * k + 3]);
        }
        // A 4×4 transpose of 128-bit lanes for each m.
        let mut out = [_mm512_setzero_si512(); N];
        for m in 0..4 {
            let v0 = _mm512_shuffle_i32x4::<0x44>(u[m], u[4 + m]);
            let v1 = _mm512_shuffle_i32x4::<0xEE>(u[m], u[4 + m]);
            let v2 = _mm512_shuffle_i32x4::<0x44>(u[8 + m], u[12 + m]);
            let v3 = _mm512_shuffle_i32x4::<0xEE>(u[8 + m], u[12 + m]);
            out[m] = _mm512_shuffle_i32x4::<0x88>(v0, v2);
            out[4 + m] = _mm512_shuffle_i32x4::<0xDD>(v0, v2);
            out[8 + m] = _mm512_shuffle_i32x4::<0x88>(v1, v3);
            out[12 + m] = _mm512_shuffle_i32x4::<0xDD>(v1, v3);
        }
        out
    }
}

/// SLH-DSA-SHA2's WOTS+ chains ([`super::sha256_chains_in_place`]), 32 or
/// 16 at a time: each lane's block stays in registers, transposed, from the
/// first step to the last. A step is one compression from the midstate;
/// between steps only the hash address (bytes 18..22 of the block) and the
/// value (bytes 22..22 + n, the previous digest's first n bytes, two bytes
/// off the word grid) change, so each is a few shifts per word instead of
/// a store, a reload and a transpose per lane.
///
/// # Safety
/// The CPU must support AVX-512 F and BW.
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) unsafe fn chains<const NW: usize>(job: &Chains<'_>, vals: &mut [u8]) {
    let count = job.heads.len();
    let mut first = 0;
    // SAFETY: the caller guarantees the features `chain_group` needs.
    unsafe {
        while first + 2 * N <= count {
            chain_group::<NW, 32, 2>(job, first, vals);
            first += 2 * N;
        }
        while first < count {
            chain_group::<NW, 16, 1>(job, first, vals);
            first += N;
        }
    }
}

/// Chains `first..first + L` (those that exist; idle lanes take no step)
/// in `G` groups of 16, `NW` = n / 4 words of value each.
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn chain_group<const NW: usize, const L: usize, const G: usize>(
    job: &Chains<'_>,
    first: usize,
    vals: &mut [u8],
) {
    const { assert!(L == N * G && NW >= 4 && NW <= 8) };
    let n = 4 * NW;
    let mut bufs = [[0u8; BLOCK]; L];
    let mut start = [0u32; L];
    let mut steps = [0u32; L];
    let (active, most) = chain_blocks::<L>(job, first, n, vals, &mut bufs, &mut start, &mut steps);
    // The value's words after the last step: words 5..=5 + NW of the block.
    let mut words = [[0u32; L]; 9];
    // SAFETY: AVX-512 F/BW per this function's contract; every pointer
    // points at one of `bufs`' 64-byte blocks.
    unsafe {
        let ptrs: [*const u8; L] = std::array::from_fn(|l| bufs[l].as_ptr());
        let mut w = load_words::<L, G>(&ptrs);
        let mid = job.mid.state.map(|h| _mm512_set1_epi32(h as i32));
        let start: [__m512i; G] = std::array::from_fn(|g| _mm512_loadu_si512(start[N * g..].as_ptr().cast()));
        let steps: [__m512i; G] = std::array::from_fn(|g| _mm512_loadu_si512(steps[N * g..].as_ptr().cast()));
        let low = _mm512_set1_epi32(0xFFFF);
        let pad = _mm512_set1_epi32(0x8000);
        for t in 0..most {
            let tv = _mm512_set1_epi32(t as i32);
            let mut running = [0u16; G];
            for g in 0..G {
                // The hash address start + t, big-endian, in bytes 18..22:
                // the low half of word 4 and the high half of word 5.
                let at = _mm512_add_epi32(start[g], tv);
                w[g][4] = _mm512_or_si512(_mm512_andnot_si512(low, w[g][4]), _mm512_srli_epi32::<16>(at));
                w[g][5] = _mm512_or_si512(_mm512_slli_epi32::<16>(at), _mm512_and_si512(w[g][5], low));
                running[g] = _mm512_cmpgt_epu32_mask(steps[g], tv);
            }
            let mut state = [mid; G];
            rounds::<G>(&mut state, w);
            for g in 0..G {
                // The digest's first n bytes into bytes 22..22 + n, then the
                // padding's 0x80: each word is half of one digest word and
                // half of the next. Lanes whose chain has ended keep theirs.
                let (d, m) = (&state[g], running[g]);
                let keep = _mm512_andnot_si512(low, w[g][5]);
                let next5 = _mm512_or_si512(keep, _mm512_srli_epi32::<16>(d[0]));
                w[g][5] = _mm512_mask_blend_epi32(m, w[g][5], next5);
                for j in 1..NW {
                    let next =
                        _mm512_or_si512(_mm512_slli_epi32::<16>(d[j - 1]), _mm512_srli_epi32::<16>(d[j]));
                    w[g][5 + j] = _mm512_mask_blend_epi32(m, w[g][5 + j], next);
                }
                let last = _mm512_or_si512(_mm512_slli_epi32::<16>(d[NW - 1]), pad);
                w[g][5 + NW] = _mm512_mask_blend_epi32(m, w[g][5 + NW], last);
            }
        }
        for g in 0..G {
            for j in 0..=NW {
                _mm512_storeu_si512(words[j][N * g..].as_mut_ptr().cast(), w[g][5 + j]);
            }
        }
    }
    for l in 0..active {
        // Bytes 20..24 + 4·NW of the block; the value starts at byte 22.
        let mut bytes = [0u8; 36];
        for j in 0..=NW {
            bytes[4 * j..4 * j + 4].copy_from_slice(&words[j][l].to_be_bytes());
        }
        vals[(first + l) * n..][..n].copy_from_slice(&bytes[2..2 + n]);
        wipe(&mut bytes);
    }
    wipe(bufs.as_flattened_mut());
    words.as_flattened_mut().zeroize();
}
