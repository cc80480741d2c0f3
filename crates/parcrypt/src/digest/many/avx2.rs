//! AVX2: eight messages, one per 32-bit lane of a 256-bit register; the
//! round function is the textbook one with rotations as two shifts and an
//! OR. Blocks arrive as eight rows of sixteen words; two 8×8 transposes
//! turn them into the sixteen schedule words.
#![allow(clippy::cast_ptr_alignment)] // unaligned loads throughout
#![allow(clippy::needless_range_loop)] // lane loops read best indexed

use std::arch::x86_64::*;

use super::{BLOCK, Batch, Bodies, Digest, K, finish_lanes, gather, lanes};

const N: usize = 8;

/// Hashes every message of `batch` into `out`, eight at a time (the last
/// pass with idle lanes when the count is not a multiple of 8).
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn hash<B: Bodies + ?Sized>(batch: &Batch<'_, B>, out: &mut [Digest]) {
    let mut first = 0;
    while first < batch.count() {
        // SAFETY: the caller guarantees AVX2, what `group` needs.
        unsafe { group(batch, first, out) };
        first += N;
    }
}

#[target_feature(enable = "avx2")]
unsafe fn group<B: Bodies + ?Sized>(batch: &Batch<'_, B>, first: usize, out: &mut [Digest]) {
    let (blocks, steps) = lanes::<B, N>(batch, first);
    let mut bufs = [[0u8; BLOCK]; N];
    // SAFETY: AVX2 per this function's contract; every pointer from
    // `gather` is valid for 64 bytes while `batch` and `bufs` live.
    unsafe {
        let mut state = [_mm256_setzero_si256(); 8];
        for (s, h) in state.iter_mut().zip(batch.initial_state()) {
            *s = _mm256_set1_epi32(*h as i32);
        }
        for b in 0..steps {
            let ptrs = gather::<B, N>(batch, first, &blocks, b, &mut bufs);
            compress(&mut state, &ptrs);
            if blocks.contains(&(b + 1)) {
                let mut words = [[0u32; N]; 8];
                for (w, s) in words.iter_mut().zip(state) {
                    _mm256_storeu_si256(w.as_mut_ptr().cast(), s);
                }
                finish_lanes::<N>(&words, &blocks, b, out, first);
            }
        }
    }
}

/// `x` rotated right by `R` bits in every lane (`L` = 32 − `R`).
#[inline(always)]
unsafe fn ror<const R: i32, const L: i32>(x: __m256i) -> __m256i {
    // SAFETY: AVX2 per the callers.
    unsafe { _mm256_or_si256(_mm256_srli_epi32::<R>(x), _mm256_slli_epi32::<L>(x)) }
}

#[inline(always)]
unsafe fn xor3(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
    // SAFETY: AVX2 per the callers.
    unsafe { _mm256_xor_si256(_mm256_xor_si256(a, b), c) }
}

#[inline(always)]
unsafe fn add(a: __m256i, b: __m256i) -> __m256i {
    // SAFETY: AVX2 per the callers.
    unsafe { _mm256_add_epi32(a, b) }
}

/// One block of all eight lanes.
#[inline(always)]
unsafe fn compress(state: &mut [__m256i; 8], ptrs: &[*const u8; N]) {
    // SAFETY: AVX2 per the callers; each pointer is valid for 64 bytes
    // (the callers').
    unsafe {
        let bswap = _mm256_set_epi64x(
            0x0C0D_0E0F_0809_0A0B,
            0x0405_0607_0001_0203,
            0x0C0D_0E0F_0809_0A0B,
            0x0405_0607_0001_0203,
        );
        let mut lo = [_mm256_setzero_si256(); N];
        let mut hi = [_mm256_setzero_si256(); N];
        for l in 0..N {
            lo[l] = _mm256_shuffle_epi8(_mm256_loadu_si256(ptrs[l].cast()), bswap);
            hi[l] = _mm256_shuffle_epi8(_mm256_loadu_si256(ptrs[l].add(32).cast()), bswap);
        }
        let (w_lo, w_hi) = (transpose(&lo), transpose(&hi));
        let mut w = [_mm256_setzero_si256(); 16];
        w[..8].copy_from_slice(&w_lo);
        w[8..].copy_from_slice(&w_hi);

        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
        for t in 0..64 {
            let wt = if t < 16 {
                w[t]
            } else {
                let x2 = w[(t - 2) % 16];
                let x15 = w[(t - 15) % 16];
                let s1 = xor3(ror::<17, 15>(x2), ror::<19, 13>(x2), _mm256_srli_epi32::<10>(x2));
                let s0 = xor3(ror::<7, 25>(x15), ror::<18, 14>(x15), _mm256_srli_epi32::<3>(x15));
                let x = add(add(s1, w[(t - 7) % 16]), add(s0, w[t % 16]));
                w[t % 16] = x;
                x
            };
            let k = _mm256_set1_epi32(K[t] as i32);
            let sigma1 = xor3(ror::<6, 26>(e), ror::<11, 21>(e), ror::<25, 7>(e));
            // Ch(e, f, g) = g ^ (e & (f ^ g)).
            let ch = _mm256_xor_si256(g, _mm256_and_si256(e, _mm256_xor_si256(f, g)));
            let t1 = add(add(add(h, sigma1), add(ch, k)), wt);
            let sigma0 = xor3(ror::<2, 30>(a), ror::<13, 19>(a), ror::<22, 10>(a));
            // Maj(a, b, c) = b ^ ((a ^ b) & (b ^ c)).
            let maj = _mm256_xor_si256(
                b,
                _mm256_and_si256(_mm256_xor_si256(a, b), _mm256_xor_si256(b, c)),
            );
            let t2 = add(sigma0, maj);
            h = g;
            g = f;
            f = e;
            e = add(d, t1);
            d = c;
            c = b;
            b = a;
            a = add(t1, t2);
        }
        for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
            *s = add(*s, v);
        }
    }
}

/// Eight rows of eight words into eight columns.
#[inline(always)]
unsafe fn transpose(r: &[__m256i; N]) -> [__m256i; N] {
    // SAFETY: AVX2 per the callers.
    unsafe {
        let mut t = [_mm256_setzero_si256(); N];
        for k in 0..4 {
            t[2 * k] = _mm256_unpacklo_epi32(r[2 * k], r[2 * k + 1]);
            t[2 * k + 1] = _mm256_unpackhi_epi32(r[2 * k], r[2 * k + 1]);
        }
        // `u[4k + m]`, 128-bit half L, holds word 4L + m of rows 4k..4k+4.
        let mut u = [_mm256_setzero_si256(); N];
        for k in 0..2 {
            u[4 * k] = _mm256_unpacklo_epi64(t[4 * k], t[4 * k + 2]);
            u[4 * k + 1] = _mm256_unpackhi_epi64(t[4 * k], t[4 * k + 2]);
            u[4 * k + 2] = _mm256_unpacklo_epi64(t[4 * k + 1], t[4 * k + 3]);
            u[4 * k + 3] = _mm256_unpackhi_epi64(t[4 * k + 1], t[4 * k + 3]);
        }
        let mut out = [_mm256_setzero_si256(); N];
        for m in 0..4 {
            out[m] = _mm256_permute2x128_si256::<0x20>(u[m], u[4 + m]);
            out[4 + m] = _mm256_permute2x128_si256::<0x31>(u[m], u[4 + m]);
        }
        out
    }
}
