//! AWS-LC functions compiled into its libcrypto (so linked into every build of
//! aws-lc-sys) but declared only in its internal headers: the constant-time
//! steps its own RSA is made of, the OAEP decoder, which its public API
//! only offers fused with its own private-key operation, and ML-DSA's
//! signing with given randomness, which its `EVP` API only offers hedged.
//!
//! aws-lc-sys renames every C symbol `aws_lc_<version>_…`; the build script
//! reads that prefix from aws-lc-sys's build metadata, so each declaration
//! below links `<prefix><name>`. aws-lc-sys is pinned to one exact version
//! (see `README.md` beside this file for how to upgrade): a release that
//! renames, drops or changes one of these fails to link or is caught by the
//! RSA known-answer tests, never silently.
#![allow(unsafe_code)]

use aws_lc_sys::{AES_KEY, BIGNUM, BN_CTX, BN_MONT_CTX, BN_ULONG, EVP_MD};
use std::os::raw::c_int;

/// Declares each function under its own name, linked as
/// `PARCRYPT_AWS_LC_SYMBOL_PREFIX` + name, and lists them all for the
/// test that every one resolves.
macro_rules! aws_lc_internal {
    ($($(#[$attr:meta])* fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty;)*) => {
        unsafe extern "C" {
            $(
                $(#[$attr])*
                #[link_name = concat!(env!("PARCRYPT_AWS_LC_SYMBOL_PREFIX"), stringify!($name))]
                pub(super) fn $name($($arg: $ty),*) -> $ret;
            )*
        }

        /// Every function's linked name and address.
        #[cfg(test)]
        pub(super) fn all() -> Vec<(&'static str, *const ())> {
            vec![$((
                concat!(env!("PARCRYPT_AWS_LC_SYMBOL_PREFIX"), stringify!($name)),
                $name as *const (),
            )),*]
        }
    };
}

/// AWS-LC's `block128_f`: one AES block.
pub(super) type Block128 = unsafe extern "C" fn(input: *const u8, output: *mut u8, key: *const AES_KEY);
/// AWS-LC's `ctr128_f`: AES-CTR over whole blocks with a 32-bit counter.
pub(super) type Ctr128 = unsafe extern "C" fn(
    input: *const u8,
    output: *mut u8,
    blocks: usize,
    key: *const AES_KEY,
    ivec: *const u8,
);

// The layouts below (sizes and offsets of AWS-LC structs written by hand)
// are those of a 64-bit target: three pointers in `GCM128_KEY`, `size_t`
// lengths. A 32-bit target must not build with them.
const _: () = assert!(
    std::mem::size_of::<usize>() == 8,
    "ffi/internal.rs: AWS-LC's GCM128 layouts are written for 64-bit targets"
);

/// AWS-LC's `GCM128_KEY` (crypto/fipsmodule/modes/internal.h in the pinned
/// version): `Htable` (16 × 16 bytes), `gmult`, `ghash` and `block` (three
/// pointers) and a one-bit flag, 288 bytes; aligned as `Htable` wants.
#[repr(C, align(16))]
pub(super) struct Gcm128Key(pub(super) [u8; 288]);

/// AWS-LC's `GCM128_CONTEXT`: `Yi`, `EKi`, `EK0`, the two lengths, `Xi` at
/// byte 64, the `GCM128_KEY` at 80, then `mres` and `ares` at 368 and 372:
/// 384 bytes with its 16-byte alignment. `ffi::cipher`'s tests check the
/// size (a canary after it stays untouched) and the offsets (the tag they
/// give equals AWS-LC's one-shot tag).
#[repr(C, align(16))]
pub(super) struct Gcm128Context(pub(super) [u8; GCM128_CONTEXT_SIZE]);

/// The size of [`Gcm128Context`].
pub(super) const GCM128_CONTEXT_SIZE: usize = 384;
/// Where `Xi`, the GHASH accumulator, lies in a [`Gcm128Context`].
pub(super) const GCM128_XI: usize = 64;
/// Where the `GCM128_KEY` lies in a [`Gcm128Context`].
pub(super) const GCM128_KEY_AT: usize = 80;
/// Where `mres`, the bytes of a partial block not yet multiplied in, lies.
pub(super) const GCM128_MRES: usize = 368;

aws_lc_internal! {
    fn RSA_padding_check_PKCS1_OAEP_mgf1(
        out: *mut u8,
        out_len: *mut usize,
        max_out: usize,
        from: *const u8,
        from_len: usize,
        param: *const u8,
        param_len: usize,
        md: *const EVP_MD,
        mgf1md: *const EVP_MD,
    ) -> c_int;
    fn RSA_padding_add_PKCS1_type_1(
        to: *mut u8,
        to_len: usize,
        from: *const u8,
        from_len: usize,
    ) -> c_int;
    fn bn_mul_consttime(
        r: *mut BIGNUM,
        a: *const BIGNUM,
        b: *const BIGNUM,
        ctx: *mut BN_CTX,
    ) -> c_int;
    fn bn_uadd_consttime(r: *mut BIGNUM, a: *const BIGNUM, b: *const BIGNUM) -> c_int;
    fn bn_usub_consttime(r: *mut BIGNUM, a: *const BIGNUM, b: *const BIGNUM) -> c_int;
    fn bn_abs_sub_consttime(
        r: *mut BIGNUM,
        a: *const BIGNUM,
        b: *const BIGNUM,
        ctx: *mut BN_CTX,
    ) -> c_int;
    fn bn_is_relatively_prime(
        out_relatively_prime: *mut c_int,
        x: *const BIGNUM,
        y: *const BIGNUM,
        ctx: *mut BN_CTX,
    ) -> c_int;
    fn bn_lcm_consttime(
        r: *mut BIGNUM,
        a: *const BIGNUM,
        b: *const BIGNUM,
        ctx: *mut BN_CTX,
    ) -> c_int;
    fn bn_mod_inverse_consttime(
        r: *mut BIGNUM,
        out_no_inverse: *mut c_int,
        a: *const BIGNUM,
        n: *const BIGNUM,
        ctx: *mut BN_CTX,
    ) -> c_int;
    fn bn_div_consttime(
        quotient: *mut BIGNUM,
        remainder: *mut BIGNUM,
        numerator: *const BIGNUM,
        divisor: *const BIGNUM,
        divisor_min_bits: u32,
        ctx: *mut BN_CTX,
    ) -> c_int;
    fn bn_resize_words(bn: *mut BIGNUM, words: usize) -> c_int;
    fn aes_ctr_set_key(
        aes_key: *mut AES_KEY,
        gcm_key: *mut Gcm128Key,
        out_block: *mut Option<Block128>,
        key: *const u8,
        key_bytes: usize,
    ) -> Option<Ctr128>;
    fn CRYPTO_gcm128_setiv(ctx: *mut Gcm128Context, key: *const AES_KEY, iv: *const u8, len: usize) -> ();
    fn CRYPTO_gcm128_decrypt_ctr32(
        ctx: *mut Gcm128Context,
        key: *const AES_KEY,
        input: *const u8,
        output: *mut u8,
        len: usize,
        stream: Ctr128,
    ) -> c_int;
    fn bn_mod_inverse_secret_prime(
        out: *mut BIGNUM,
        a: *const BIGNUM,
        p: *const BIGNUM,
        ctx: *mut BN_CTX,
        mont_p: *const BN_MONT_CTX,
    ) -> c_int;
    /// AWS-LC's trial division: the reference in the tests of key
    /// generation's own (`rsa::trial`).
    #[cfg_attr(not(test), allow(dead_code))]
    fn bn_odd_number_is_obviously_composite(bn: *const BIGNUM) -> c_int;
    /// The pieces of `BN_primality_test` (crypto/fipsmodule/bn/prime.c),
    /// for its rounds one at a time (`bn::MillerRabin`).
    fn bn_miller_rabin_init(miller_rabin: *mut BnMillerRabin, mont: *const BN_MONT_CTX, ctx: *mut BN_CTX) -> c_int;
    fn bn_miller_rabin_iteration(
        miller_rabin: *const BnMillerRabin,
        out_is_possibly_prime: *mut c_int,
        b: *const BIGNUM,
        mont: *const BN_MONT_CTX,
        ctx: *mut BN_CTX,
    ) -> c_int;
    fn bn_rand_secret_range(
        r: *mut BIGNUM,
        out_is_uniform: *mut c_int,
        min_inclusive: BN_ULONG,
        max_exclusive: *const BIGNUM,
    ) -> c_int;
    /// ML-DSA.Sign_internal on an external μ with given randomness `rnd`
    /// (crypto/fipsmodule/ml_dsa/ml_dsa.h; FIPS 204 Algorithm 7), one per
    /// parameter set: the deterministic variant and the known-answer tests
    /// (`ffi::mldsa`). `private_key` is the expanded key.
    fn ml_dsa_extmu_44_sign_internal(
        private_key: *const u8,
        sig: *mut u8,
        sig_len: *mut usize,
        mu: *const u8,
        mu_len: usize,
        pre: *const u8,
        pre_len: usize,
        rnd: *const u8,
    ) -> c_int;
    fn ml_dsa_extmu_65_sign_internal(
        private_key: *const u8,
        sig: *mut u8,
        sig_len: *mut usize,
        mu: *const u8,
        mu_len: usize,
        pre: *const u8,
        pre_len: usize,
        rnd: *const u8,
    ) -> c_int;
    fn ml_dsa_extmu_87_sign_internal(
        private_key: *const u8,
        sig: *mut u8,
        sig_len: *mut usize,
        mu: *const u8,
        mu_len: usize,
        pre: *const u8,
        pre_len: usize,
        rnd: *const u8,
    ) -> c_int;
}

/// AWS-LC's `BN_MILLER_RABIN` (crypto/fipsmodule/bn/internal.h in the
/// pinned version): the state every Miller–Rabin round on one candidate
/// shares, its numbers borrowed from the `BN_CTX` scope it was set up in.
#[repr(C)]
pub(super) struct BnMillerRabin {
    pub(super) w1: *mut BIGNUM,
    pub(super) m: *mut BIGNUM,
    pub(super) one_mont: *mut BIGNUM,
    pub(super) w1_mont: *mut BIGNUM,
    pub(super) w_bits: c_int,
    pub(super) a: c_int,
}
