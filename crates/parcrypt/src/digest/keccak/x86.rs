//! The x86-64 kernels: Keccak-f[1600] (FIPS 202 §3) on vectors of 64-bit
//! lanes, one message per lane, and the SHAKE256 sponge around it. The
//! permutation and the sponge are written once, over [`Lanes`]; AVX2 and
//! AVX-512 supply the lane operations.
#![allow(clippy::cast_ptr_alignment)] // unaligned loads and stores throughout
#![allow(clippy::needless_range_loop)]
// lane loops read best indexed
// AVX-512 is compiled only with Rust 1.89 or later (`cfg(parcrypt_avx512)`,
// set by `build.rs`), where its intrinsics are stable.
#![allow(clippy::incompatible_msrv)]

use std::arch::x86_64::*;

use super::RATE;

/// The round constants (FIPS 202 §3.2.5, ι).
const RC: [u64; 24] = [
    0x0000_0000_0000_0001,
    0x0000_0000_0000_8082,
    0x8000_0000_0000_808a,
    0x8000_0000_8000_8000,
    0x0000_0000_0000_808b,
    0x0000_0000_8000_0001,
    0x8000_0000_8000_8081,
    0x8000_0000_0000_8009,
    0x0000_0000_0000_008a,
    0x0000_0000_0000_0088,
    0x0000_0000_8000_8009,
    0x0000_0000_8000_000a,
    0x0000_0000_8000_808b,
    0x8000_0000_0000_008b,
    0x8000_0000_0000_8089,
    0x8000_0000_0000_8003,
    0x8000_0000_0000_8002,
    0x8000_0000_0000_0080,
    0x0000_0000_0000_800a,
    0x8000_0000_8000_000a,
    0x8000_0000_8000_8081,
    0x8000_0000_0000_8080,
    0x0000_0000_8000_0001,
    0x8000_0000_8000_8008,
];

/// ρ's rotation of lane `x + 5y` (FIPS 202 Table 2).
const RHO: [u32; 25] = [
    0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14,
];

/// π: lane `(x, y)` moves to `(y, 2x + 3y mod 5)`.
const PI: [usize; 25] = {
    let mut to = [0; 25];
    let mut i = 0;
    while i < 25 {
        let (x, y) = (i % 5, i / 5);
        to[i] = y + 5 * ((2 * x + 3 * y) % 5);
        i += 1;
    }
    to
};

/// A vector of 64-bit lanes, one message per lane.
trait Lanes: Copy {
    /// Lanes per vector.
    const L: usize;
    /// `words[..L]` into the lanes.
    unsafe fn load(words: &[u64; 8]) -> Self;
    /// The lanes into `words[..L]`.
    unsafe fn store(self, words: &mut [u64; 8]);
    unsafe fn splat(w: u64) -> Self;
    unsafe fn xor(a: Self, b: Self) -> Self;
    unsafe fn xor3(a: Self, b: Self, c: Self) -> Self;
    /// Each lane rotated left by `r` (0..64).
    unsafe fn rol(a: Self, r: u32) -> Self;
    /// χ: `a ^ (!b & c)`.
    unsafe fn chi(a: Self, b: Self, c: Self) -> Self;
}

#[derive(Clone, Copy)]
struct Avx2(__m256i);

impl Lanes for Avx2 {
    const L: usize = 4;
    #[inline(always)]
    unsafe fn load(words: &[u64; 8]) -> Self {
        // SAFETY: 32 bytes of `words`; AVX2 per the kernel's contract.
        unsafe { Avx2(_mm256_loadu_si256(words.as_ptr().cast())) }
    }
    #[inline(always)]
    unsafe fn store(self, words: &mut [u64; 8]) {
        // SAFETY: as `load`.
        unsafe { _mm256_storeu_si256(words.as_mut_ptr().cast(), self.0) }
    }
    #[inline(always)]
    unsafe fn splat(w: u64) -> Self {
        // SAFETY: AVX per the kernel's contract.
        unsafe { Avx2(_mm256_set1_epi64x(w as i64)) }
    }
    #[inline(always)]
    unsafe fn xor(a: Self, b: Self) -> Self {
        // SAFETY: AVX2 per the kernel's contract.
        unsafe { Avx2(_mm256_xor_si256(a.0, b.0)) }
    }
    #[inline(always)]
    unsafe fn xor3(a: Self, b: Self, c: Self) -> Self {
        // SAFETY: as `xor`.
        unsafe { Self::xor(Self::xor(a, b), c) }
    }
    #[inline(always)]
    unsafe fn rol(a: Self, r: u32) -> Self {
        // SAFETY: AVX2 per the kernel's contract. A shift by 64 gives 0,
        // so r = 0 is `a`.
        unsafe {
            let left = _mm256_sll_epi64(a.0, _mm_cvtsi32_si128(r as i32));
            let right = _mm256_srl_epi64(a.0, _mm_cvtsi32_si128(64 - r as i32));
            Avx2(_mm256_or_si256(left, right))
        }
    }
    #[inline(always)]
    unsafe fn chi(a: Self, b: Self, c: Self) -> Self {
        // SAFETY: AVX2 per the kernel's contract.
        unsafe { Avx2(_mm256_xor_si256(a.0, _mm256_andnot_si256(b.0, c.0))) }
    }
}

#[cfg(parcrypt_avx512)]
#[derive(Clone, Copy)]
struct Avx512(__m512i);

#[cfg(parcrypt_avx512)]
impl Lanes for Avx512 {
    const L: usize = 8;
    #[inline(always)]
    unsafe fn load(words: &[u64; 8]) -> Self {
        // SAFETY: 64 bytes of `words`; AVX-512 F per the kernel's contract.
        unsafe { Avx512(_mm512_loadu_si512(words.as_ptr().cast())) }
    }
    #[inline(always)]
    unsafe fn store(self, words: &mut [u64; 8]) {
        // SAFETY: as `load`.
        unsafe { _mm512_storeu_si512(words.as_mut_ptr().cast(), self.0) }
    }
    #[inline(always)]
    unsafe fn splat(w: u64) -> Self {
        // SAFETY: AVX-512 F per the kernel's contract.
        unsafe { Avx512(_mm512_set1_epi64(w as i64)) }
    }
    #[inline(always)]
    unsafe fn xor(a: Self, b: Self) -> Self {
        // SAFETY: AVX-512 F per the kernel's contract.
        unsafe { Avx512(_mm512_xor_si512(a.0, b.0)) }
    }
    #[inline(always)]
    unsafe fn xor3(a: Self, b: Self, c: Self) -> Self {
        // SAFETY: AVX-512 F per the kernel's contract. 0x96: a ^ b ^ c.
        unsafe { Avx512(_mm512_ternarylogic_epi64::<0x96>(a.0, b.0, c.0)) }
    }
    #[inline(always)]
    unsafe fn rol(a: Self, r: u32) -> Self {
        // SAFETY: AVX-512 F per the kernel's contract (`vprolvq`, the
        // immediate form once the permutation is unrolled).
        unsafe { Avx512(_mm512_rolv_epi64(a.0, _mm512_set1_epi64(i64::from(r)))) }
    }
    #[inline(always)]
    unsafe fn chi(a: Self, b: Self, c: Self) -> Self {
        // SAFETY: AVX-512 F per the kernel's contract. 0xD2: a ^ (!b & c).
        unsafe { Avx512(_mm512_ternarylogic_epi64::<0xD2>(a.0, b.0, c.0)) }
    }
}

/// Keccak-f[1600]: 24 rounds of θ, ρ, π, χ, ι on every lane. The steps
/// over the 25 lanes are spelled out (`lanes!`), so every index and
/// rotation is a constant and the state can stay in registers.
#[inline(always)]
unsafe fn permute<V: Lanes>(a: &mut [V; 25]) {
    /// `$step!(i)` for each lane i.
    macro_rules! lanes {
        ($step:ident) => {
            $step!(0);
            $step!(1);
            $step!(2);
            $step!(3);
            $step!(4);
            $step!(5);
            $step!(6);
            $step!(7);
            $step!(8);
            $step!(9);
            $step!(10);
            $step!(11);
            $step!(12);
            $step!(13);
            $step!(14);
            $step!(15);
            $step!(16);
            $step!(17);
            $step!(18);
            $step!(19);
            $step!(20);
            $step!(21);
            $step!(22);
            $step!(23);
            $step!(24);
        };
    }
    // SAFETY: the lane operations need what the caller guarantees.
    unsafe {
        for rc in RC {
            // θ: the column parities, then each lane XOR its neighbours'.
            // (Spelled out: `array::map` here is not always inlined.)
            let column = |x: usize| V::xor3(V::xor3(a[x], a[x + 5], a[x + 10]), a[x + 15], a[x + 20]);
            let c = [column(0), column(1), column(2), column(3), column(4)];
            let d = [
                V::xor(c[4], V::rol(c[1], 1)),
                V::xor(c[0], V::rol(c[2], 1)),
                V::xor(c[1], V::rol(c[3], 1)),
                V::xor(c[2], V::rol(c[4], 1)),
                V::xor(c[3], V::rol(c[0], 1)),
            ];
            // ρ and π.
            let mut b = *a;
            macro_rules! rho_pi {
                ($i:literal) => {
                    b[PI[$i]] = V::rol(V::xor(a[$i], d[$i % 5]), RHO[$i]);
                };
            }
            lanes!(rho_pi);
            // χ along each row.
            macro_rules! chi {
                ($i:literal) => {
                    a[$i] = V::chi(
                        b[$i],
                        b[$i - $i % 5 + ($i + 1) % 5],
                        b[$i - $i % 5 + ($i + 2) % 5],
                    );
                };
            }
            lanes!(chi);
            // ι.
            a[0] = V::xor(a[0], V::splat(rc));
        }
    }
}

/// SHAKE256 of `group` (at most `V::L` messages of one length) into
/// `out`, `out_len` bytes each. Idle lanes hash the first message again,
/// and their output is dropped.
#[inline(always)]
unsafe fn sponge<V: Lanes>(group: &[&[u8]], out_len: usize, out: &mut [u8]) {
    let lanes = group.len();
    debug_assert!(lanes >= 1 && lanes <= V::L);
    let len = group[0].len();
    let msg = |l: usize| group[if l < lanes { l } else { 0 }];
    // SAFETY: the lane operations need what the caller guarantees.
    unsafe {
        let mut state = [V::splat(0); 25];
        let mut words = [0u64; 8];
        // Whole blocks, then the last (partial or empty) one padded:
        // 0x1F after the message, 0x80 in the block's last byte.
        let full = len / RATE;
        let mut last = [[0u8; RATE]; 8];
        for l in 0..V::L {
            let tail = &msg(l)[full * RATE..];
            last[l][..tail.len()].copy_from_slice(tail);
            last[l][tail.len()] ^= 0x1F;
            last[l][RATE - 1] ^= 0x80;
        }
        for b in 0..=full {
            for w in 0..RATE / 8 {
                for l in 0..V::L {
                    let bytes = if b < full {
                        &msg(l)[b * RATE + 8 * w..][..8]
                    } else {
                        &last[l][8 * w..][..8]
                    };
                    words[l] = u64::from_le_bytes(bytes.try_into().unwrap_or_default());
                }
                state[w] = V::xor(state[w], V::load(&words));
            }
            permute(&mut state);
        }
        // Squeeze: `RATE` bytes per permutation.
        let mut done = 0;
        while done < out_len {
            let take = (out_len - done).min(RATE);
            for w in 0..take.div_ceil(8) {
                state[w].store(&mut words);
                for l in 0..lanes {
                    let bytes = words[l].to_le_bytes();
                    let at = done + 8 * w;
                    let n = (take - 8 * w).min(8);
                    out[l * out_len + at..][..n].copy_from_slice(&bytes[..n]);
                }
            }
            done += take;
            if done < out_len {
                permute(&mut state);
            }
        }
        last.iter_mut().for_each(|b| crate::secret::wipe(b));
    }
}

/// Four messages of one length (or fewer) on AVX2.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn avx2(group: &[&[u8]], out_len: usize, out: &mut [u8]) {
    // SAFETY: AVX2 per this function's contract.
    unsafe { sponge::<Avx2>(group, out_len, out) }
}

/// Eight messages of one length (or fewer) on AVX-512.
///
/// # Safety
/// The CPU must support AVX-512 F.
#[cfg(parcrypt_avx512)]
#[target_feature(enable = "avx512f")]
pub(super) unsafe fn avx512(group: &[&[u8]], out_len: usize, out: &mut [u8]) {
    // SAFETY: AVX-512 F per this function's contract.
    unsafe { sponge::<Avx512>(group, out_len, out) }
}
