//! GF(2¹²⁸) in GCM's bit order: products through RustCrypto's constant-time
//! `ghash` (the GHASH of one block X under key A is X·A), powers, the
//! inverse of H and length blocks.

use ghash::GHash;
use ghash::universal_hash::{KeyInit, UniversalHash};

/// One 16-byte block, a field element.
pub(super) type Block = [u8; 16];

/// The field's multiplicative identity in GCM's bit order.
pub(super) const ONE: Block = {
    let mut b = [0u8; 16];
    b[0] = 0x80;
    b
};

/// `a · b` in GF(2¹²⁸), GCM's representation.
pub(super) fn mul(a: &Block, b: &Block) -> Block {
    let mut g = GHash::new(&(*a).into());
    g.update(&[(*b).into()]);
    g.finalize().into()
}

pub(super) fn xor(a: &Block, b: &Block) -> Block {
    std::array::from_fn(|i| a[i] ^ b[i])
}

/// `h^e`.
pub(super) fn pow(h: &Block, mut e: u128) -> Block {
    let (mut acc, mut base) = (ONE, *h);
    while e > 0 {
        if e & 1 == 1 {
            acc = mul(&acc, &base);
        }
        base = mul(&base, &base);
        e >>= 1;
    }
    acc
}

/// `h⁻¹ = h^(2¹²⁸−2)` (the multiplicative group has 2¹²⁸−1 elements; H ≠ 0),
/// by an addition chain: with `e_k = h^(2^k − 1)`, `e_(2k) = e_k^(2^k)·e_k`
/// and `e_(k+1) = e_k²·h`, from `e_1 = h` up to `e_127`, then one squaring:
/// 127 squarings and 12 products, where square-and-multiply takes 254
/// products (each product re-keys a `GHash`, so their count is the cost).
pub(super) fn inverse(h: &Block) -> Block {
    let square_times = |x: &Block, n: usize| (0..n).fold(*x, |y, _| mul(&y, &y));
    let (mut e, mut k) = (*h, 1);
    while k < 127 {
        e = if k == 1 || k % 2 == 0 || 2 * k > 127 {
            k += 1;
            mul(&square_times(&e, 1), h)
        } else {
            let doubled = mul(&square_times(&e, k), &e);
            k *= 2;
            doubled
        };
    }
    mul(&e, &e)
}

/// A length block: two 64-bit big-endian bit counts.
pub(super) fn lengths(first_bytes: u64, second_bytes: u64) -> Block {
    let mut b = [0u8; 16];
    b[..8].copy_from_slice(&(first_bytes * 8).to_be_bytes());
    b[8..].copy_from_slice(&(second_bytes * 8).to_be_bytes());
    b
}
