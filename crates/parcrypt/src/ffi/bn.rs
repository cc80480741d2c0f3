//! Big numbers and RSA keys from AWS-LC.
//!
//! Safe wrappers over the `BIGNUM`, `BN_MONT_CTX` and `RSA` operations that
//! [`crate::rsa`] builds its parallel CRT private operation and its racing key
//! generation from. Every arithmetic step on secret values is one of AWS-LC's
//! constant-time functions — the same ones its own RSA uses.
#![allow(unsafe_code)]

use std::cmp::Ordering;
use std::os::raw::{c_int, c_void};
use std::ptr::{self, NonNull};
use std::sync::atomic::{self, AtomicBool};

use aws_lc_sys as sys;
use zeroize::Zeroizing;

use crate::rsa::Hash;

/// AWS-LC functions compiled into its libcrypto (so linked into every build of
/// aws-lc-sys) but declared only in its internal headers: the constant-time
/// steps its own RSA is made of, and the OAEP decoder, which its public API
/// only offers fused with its own private-key operation.
///
/// aws-lc-sys renames every C symbol `aws_lc_<version>_…`; the build script
/// reads that prefix from aws-lc-sys's build metadata, so each declaration
/// below links `<prefix><name>`. aws-lc-sys is pinned to one exact version
/// (see `README.md` beside this file for how to upgrade): a release that
/// renames, drops or changes one of these fails to link or is caught by the
/// RSA known-answer tests, never silently.
mod internal {
    use aws_lc_sys::{BIGNUM, BN_CTX, BN_MONT_CTX, EVP_MD};
    use std::os::raw::c_int;

    /// Declares each function under its own name, linked as
    /// `PARCRYPT_AWS_LC_SYMBOL_PREFIX` + name, and lists them all for the
    /// test that every one resolves.
    macro_rules! aws_lc_internal {
        ($(fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty;)*) => {
            unsafe extern "C" {
                $(
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
        fn bn_mod_inverse_secret_prime(
            out: *mut BIGNUM,
            a: *const BIGNUM,
            p: *const BIGNUM,
            ctx: *mut BN_CTX,
            mont_p: *const BN_MONT_CTX,
        ) -> c_int;
    }
}

/// An AWS-LC operation failed (out of memory, or an input outside what the
/// function accepts — callers check their inputs, so this is not expected).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BackendError;

pub(super) type Result<T> = std::result::Result<T, BackendError>;

pub(super) fn check(ok: c_int) -> Result<()> {
    if ok == 1 {
        Ok(())
    } else {
        // SAFETY: clears this thread's error queue; no preconditions.
        unsafe { sys::ERR_clear_error() };
        Err(BackendError)
    }
}

pub(super) fn non_null<T>(p: *mut T) -> Result<NonNull<T>> {
    NonNull::new(p).ok_or_else(|| {
        // SAFETY: as in `check`.
        unsafe { sys::ERR_clear_error() };
        BackendError
    })
}

/// An owned `BIGNUM`, wiped when dropped.
pub(crate) struct Bn(NonNull<sys::BIGNUM>);

// SAFETY: a BIGNUM is plain heap memory with no thread affinity. Shared
// references only ever pass it to AWS-LC as `const BIGNUM *`, which is read.
unsafe impl Send for Bn {}
// SAFETY: as above.
unsafe impl Sync for Bn {}

impl std::fmt::Debug for Bn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Bn({} bits)", self.bits())
    }
}

impl Drop for Bn {
    fn drop(&mut self) {
        // SAFETY: self.0 came from BN_new/BN_dup and is freed only here;
        // BN_clear_free zeroes the limbs first.
        unsafe { sys::BN_clear_free(self.0.as_ptr()) }
    }
}

impl Bn {
    /// Zero.
    pub(crate) fn new() -> Bn {
        // SAFETY: no preconditions.
        let p = unsafe { sys::BN_new() };
        Bn(NonNull::new(p).expect("BN_new: out of memory"))
    }

    pub(super) fn ptr(&self) -> *mut sys::BIGNUM {
        self.0.as_ptr()
    }

    pub(super) fn cptr(&self) -> *const sys::BIGNUM {
        self.0.as_ptr()
    }

    /// The big-endian unsigned integer in `bytes`.
    pub(crate) fn from_be_bytes(bytes: &[u8]) -> Bn {
        let bn = Bn::new();
        // SAFETY: bytes is a valid slice; bn is a live BIGNUM that BN_bin2bn fills.
        let p = unsafe { sys::BN_bin2bn(bytes.as_ptr(), bytes.len(), bn.ptr()) };
        assert!(!p.is_null(), "BN_bin2bn: out of memory");
        bn
    }

    /// `value`.
    pub(crate) fn from_u64(value: u64) -> Bn {
        let bn = Bn::new();
        // SAFETY: bn is live.
        check(unsafe { sys::BN_set_u64(bn.ptr(), value) }).expect("BN_set_u64: out of memory");
        bn
    }

    /// 2^`bit`.
    pub(crate) fn power_of_two(bit: usize) -> Bn {
        let bn = Bn::new();
        let bit = c_int::try_from(bit).expect("bit index fits an int");
        // SAFETY: bn is live; bit is non-negative.
        check(unsafe { sys::BN_set_bit(bn.ptr(), bit) }).expect("BN_set_bit: out of memory");
        bn
    }

    /// A copy of a `BIGNUM` owned by someone else.
    ///
    /// # Safety
    /// `p` must point to a live `BIGNUM` (or be null, giving `None`).
    unsafe fn dup_of(p: *const sys::BIGNUM) -> Option<Bn> {
        if p.is_null() {
            return None;
        }
        // SAFETY: p is live (caller's promise).
        let copy = unsafe { sys::BN_dup(p) };
        Some(Bn(NonNull::new(copy).expect("BN_dup: out of memory")))
    }

    /// A copy of a non-null `BIGNUM` owned by someone else.
    ///
    /// # Safety
    /// `p` must point to a live `BIGNUM`.
    pub(super) unsafe fn dup_of_ptr(p: *const sys::BIGNUM) -> Bn {
        // SAFETY: the caller's promise.
        unsafe { Bn::dup_of(p) }.expect("a non-null BIGNUM")
    }

    /// A copy.
    pub(crate) fn dup(&self) -> Bn {
        // SAFETY: self is live.
        unsafe { Bn::dup_of(self.cptr()) }.expect("non-null")
    }

    /// A copy `words` 64-bit words wide (leading zero words kept), as AWS-LC
    /// stores CRT exponents: a fixed width keeps exponentiation time
    /// independent of the exponent's leading zeros, and its dual
    /// exponentiation kernel requires it.
    pub(crate) fn with_width(&self, words: usize) -> Result<Bn> {
        let bn = self.dup();
        // SAFETY: bn is live and owned; resizing up only adds zero words.
        check(unsafe { internal::bn_resize_words(bn.ptr(), words) })?;
        Ok(bn)
    }

    /// Writes the value big-endian into all of `out`, left-padded with zeros;
    /// false if it does not fit.
    pub(crate) fn write_be_padded(&self, out: &mut [u8]) -> bool {
        // SAFETY: out is a valid writable slice of out.len() bytes.
        unsafe { sys::BN_bn2bin_padded(out.as_mut_ptr(), out.len(), self.cptr()) == 1 }
    }

    /// The value big-endian in exactly `len` bytes, or `None` if it does not fit.
    pub(crate) fn to_be_padded(&self, len: usize) -> Option<Vec<u8>> {
        let mut out = vec![0; len];
        self.write_be_padded(&mut out).then_some(out)
    }

    /// The number of significant bits.
    pub(crate) fn bits(&self) -> usize {
        // SAFETY: self is live.
        unsafe { sys::BN_num_bits(self.cptr()) as usize }
    }

    /// Compares values (variable-time: only for public values, or secrets
    /// whose comparison AWS-LC also reveals).
    pub(crate) fn cmp_vartime(&self, other: &Bn) -> Ordering {
        // SAFETY: both are live.
        unsafe { sys::BN_cmp(self.cptr(), other.cptr()) }.cmp(&0)
    }

    /// Whether the values are equal, in constant time.
    pub(crate) fn eq_consttime(&self, other: &Bn) -> bool {
        // SAFETY: both are live.
        unsafe { sys::BN_equal_consttime(self.cptr(), other.cptr()) == 1 }
    }

    /// A uniformly random value in `[1, max)`.
    pub(crate) fn random_below(max: &Bn) -> Result<Bn> {
        let r = Bn::new();
        // SAFETY: both are live; r is distinct from max.
        check(unsafe { sys::BN_rand_range_ex(r.ptr(), 1, max.cptr()) })?;
        Ok(r)
    }
}

/// A scratch context for one thread's big-number work; never shared.
pub(crate) struct Ctx(NonNull<sys::BN_CTX>);

// SAFETY: a BN_CTX is a pool of scratch BIGNUMs with no thread affinity; it is
// moved between threads, never shared (no Sync).
unsafe impl Send for Ctx {}

impl std::fmt::Debug for Ctx {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Ctx")
    }
}

impl Ctx {
    pub(crate) fn new() -> Ctx {
        // SAFETY: no preconditions.
        let p = unsafe { sys::BN_CTX_new() };
        Ctx(NonNull::new(p).expect("BN_CTX_new: out of memory"))
    }

    pub(super) fn ptr(&mut self) -> *mut sys::BN_CTX {
        self.0.as_ptr()
    }
}

impl Drop for Ctx {
    fn drop(&mut self) {
        // SAFETY: from BN_CTX_new, freed only here.
        unsafe { sys::BN_CTX_free(self.0.as_ptr()) }
    }
}

/// Montgomery constants for one modulus; read-only once made, so one can
/// serve every thread at once.
pub(crate) struct Mont {
    mont: NonNull<sys::BN_MONT_CTX>,
    modulus: Bn,
}

// SAFETY: the BN_MONT_CTX is never modified after construction; AWS-LC's
// functions take it as `const BN_MONT_CTX *`.
unsafe impl Send for Mont {}
// SAFETY: as above.
unsafe impl Sync for Mont {}

impl std::fmt::Debug for Mont {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Mont({} bits)", self.modulus.bits())
    }
}

impl Drop for Mont {
    fn drop(&mut self) {
        // SAFETY: from BN_MONT_CTX_new_*, freed only here.
        unsafe { sys::BN_MONT_CTX_free(self.mont.as_ptr()) }
    }
}

impl Mont {
    /// For a secret odd modulus (a prime factor): computed in constant time.
    pub(crate) fn secret(modulus: &Bn, ctx: &mut Ctx) -> Result<Mont> {
        // SAFETY: modulus and ctx are live.
        let mont = non_null(unsafe { sys::BN_MONT_CTX_new_consttime(modulus.cptr(), ctx.ptr()) })?;
        Ok(Mont {
            mont,
            modulus: modulus.dup(),
        })
    }

    /// For a public odd modulus.
    pub(crate) fn public(modulus: &Bn, ctx: &mut Ctx) -> Result<Mont> {
        // SAFETY: modulus and ctx are live.
        let mont = non_null(unsafe { sys::BN_MONT_CTX_new_for_modulus(modulus.cptr(), ctx.ptr()) })?;
        Ok(Mont {
            mont,
            modulus: modulus.dup(),
        })
    }

    pub(crate) fn modulus(&self) -> &Bn {
        &self.modulus
    }

    fn ptr(&self) -> *const sys::BN_MONT_CTX {
        self.mont.as_ptr()
    }

    /// `x mod m` in constant time, for `x < m · 2^(64·words(m))` (for RSA: `x < p·q`
    /// with `q` no wider than `p`): a Montgomery reduction, then a Montgomery
    /// multiplication by R² — how AWS-LC reduces the input of each CRT half.
    pub(crate) fn reduce(&self, x: &Bn, ctx: &mut Ctx) -> Result<Bn> {
        let r = Bn::new();
        // SAFETY: all live; r is distinct from x.
        check(unsafe { sys::BN_from_montgomery(r.ptr(), x.cptr(), self.ptr(), ctx.ptr()) })?;
        // SAFETY: in-place conversion is allowed by BN_to_montgomery.
        check(unsafe { sys::BN_to_montgomery(r.ptr(), r.cptr(), self.ptr(), ctx.ptr()) })?;
        Ok(r)
    }

    /// `base^exp mod m` in constant time (`base < m`).
    pub(crate) fn exp_consttime(&self, base: &Bn, exp: &Bn, ctx: &mut Ctx) -> Result<Bn> {
        let r = Bn::new();
        // SAFETY: all live; r is distinct from the inputs; base < m (caller).
        check(unsafe {
            sys::BN_mod_exp_mont_consttime(
                r.ptr(),
                base.cptr(),
                exp.cptr(),
                self.modulus.cptr(),
                ctx.ptr(),
                self.ptr(),
            )
        })?;
        Ok(r)
    }

    /// `a1^e1 mod m1` and `a2^e2 mod m2` in one call to AWS-LC's dual
    /// exponentiation: on CPUs with AVX-512 IFMA and 1024/1536/2048-bit
    /// moduli (with bases and exponents as wide as the moduli) a SIMD kernel
    /// computes both at once; elsewhere it runs the two one after the other.
    pub(crate) fn exp_consttime_x2(
        m1: &Mont,
        a1: &Bn,
        e1: &Bn,
        m2: &Mont,
        a2: &Bn,
        e2: &Bn,
        ctx: &mut Ctx,
    ) -> Result<(Bn, Bn)> {
        let (r1, r2) = (Bn::new(), Bn::new());
        // SAFETY: all live; outputs distinct from inputs; bases reduced (caller).
        check(unsafe {
            sys::BN_mod_exp_mont_consttime_x2(
                r1.ptr(),
                a1.cptr(),
                e1.cptr(),
                m1.modulus.cptr(),
                m1.ptr(),
                r2.ptr(),
                a2.cptr(),
                e2.cptr(),
                m2.modulus.cptr(),
                m2.ptr(),
                ctx.ptr(),
            )
        })?;
        Ok((r1, r2))
    }

    /// `base^exp mod m`, variable-time in `exp`: for public exponents only.
    pub(crate) fn exp_public_vartime(&self, base: &Bn, exp: &Bn, ctx: &mut Ctx) -> Result<Bn> {
        let r = Bn::new();
        // SAFETY: all live; r is distinct from the inputs.
        check(unsafe {
            sys::BN_mod_exp_mont(
                r.ptr(),
                base.cptr(),
                exp.cptr(),
                self.modulus.cptr(),
                ctx.ptr(),
                self.ptr(),
            )
        })?;
        Ok(r)
    }

    /// `a · R mod m` (into Montgomery form), `a < m`.
    pub(crate) fn to_mont(&self, a: &Bn, ctx: &mut Ctx) -> Result<Bn> {
        let r = Bn::new();
        // SAFETY: all live.
        check(unsafe { sys::BN_to_montgomery(r.ptr(), a.cptr(), self.ptr(), ctx.ptr()) })?;
        Ok(r)
    }

    /// `a · b · R⁻¹ mod m` in constant time (`a, b < m`).
    pub(crate) fn mul_mont(&self, a: &Bn, b: &Bn, ctx: &mut Ctx) -> Result<Bn> {
        let r = Bn::new();
        // SAFETY: all live; r is distinct from the inputs.
        check(unsafe { sys::BN_mod_mul_montgomery(r.ptr(), a.cptr(), b.cptr(), self.ptr(), ctx.ptr()) })?;
        Ok(r)
    }

    /// `a − b mod m` in constant time (`a, b < m`).
    pub(crate) fn sub(&self, a: &Bn, b: &Bn) -> Result<Bn> {
        let r = Bn::new();
        // SAFETY: all live.
        check(unsafe { sys::BN_mod_sub_quick(r.ptr(), a.cptr(), b.cptr(), self.modulus.cptr()) })?;
        Ok(r)
    }

    /// `a⁻¹ mod m` for a public modulus and a random (secret) `a`, computed
    /// with AWS-LC's blinded inversion; `None` if `a` has no inverse.
    pub(crate) fn inverse_blinded(&self, a: &Bn, ctx: &mut Ctx) -> Result<Option<Bn>> {
        let r = Bn::new();
        let mut no_inverse: c_int = 0;
        // SAFETY: all live; a < m (caller).
        let ok =
            unsafe { sys::BN_mod_inverse_blinded(r.ptr(), &mut no_inverse, a.cptr(), self.ptr(), ctx.ptr()) };
        if ok != 1 && no_inverse != 0 {
            // SAFETY: as in `check`.
            unsafe { sys::ERR_clear_error() };
            return Ok(None);
        }
        check(ok)?;
        Ok(Some(r))
    }

    /// `a⁻¹ mod p` for a secret prime modulus, in constant time (Fermat).
    pub(crate) fn inverse_secret_prime(&self, a: &Bn, ctx: &mut Ctx) -> Result<Bn> {
        let r = Bn::new();
        // SAFETY: all live; the modulus is prime (keygen's caller) and a < p.
        check(unsafe {
            internal::bn_mod_inverse_secret_prime(
                r.ptr(),
                a.cptr(),
                self.modulus.cptr(),
                ctx.ptr(),
                self.ptr(),
            )
        })?;
        Ok(r)
    }
}

/// `a · b` in constant time.
pub(crate) fn mul_consttime(a: &Bn, b: &Bn, ctx: &mut Ctx) -> Result<Bn> {
    let r = Bn::new();
    // SAFETY: all live; r distinct from the inputs.
    check(unsafe { internal::bn_mul_consttime(r.ptr(), a.cptr(), b.cptr(), ctx.ptr()) })?;
    Ok(r)
}

/// `a + b` in constant time.
pub(crate) fn add_consttime(a: &Bn, b: &Bn) -> Result<Bn> {
    let r = Bn::new();
    // SAFETY: all live.
    check(unsafe { internal::bn_uadd_consttime(r.ptr(), a.cptr(), b.cptr()) })?;
    Ok(r)
}

/// `a − b` in constant time, `a ≥ b`.
pub(crate) fn sub_consttime(a: &Bn, b: &Bn) -> Result<Bn> {
    let r = Bn::new();
    // SAFETY: all live; a ≥ b (caller).
    check(unsafe { internal::bn_usub_consttime(r.ptr(), a.cptr(), b.cptr()) })?;
    Ok(r)
}

/// `|a − b|` in constant time.
pub(crate) fn abs_diff_consttime(a: &Bn, b: &Bn, ctx: &mut Ctx) -> Result<Bn> {
    let r = Bn::new();
    // SAFETY: all live.
    check(unsafe { internal::bn_abs_sub_consttime(r.ptr(), a.cptr(), b.cptr(), ctx.ptr()) })?;
    Ok(r)
}

/// Whether `gcd(x, y) = 1`, in constant time.
pub(crate) fn relatively_prime(x: &Bn, y: &Bn, ctx: &mut Ctx) -> Result<bool> {
    let mut out: c_int = 0;
    // SAFETY: all live.
    check(unsafe { internal::bn_is_relatively_prime(&mut out, x.cptr(), y.cptr(), ctx.ptr()) })?;
    Ok(out != 0)
}

/// `lcm(a, b)` in constant time.
pub(crate) fn lcm_consttime(a: &Bn, b: &Bn, ctx: &mut Ctx) -> Result<Bn> {
    let r = Bn::new();
    // SAFETY: all live.
    check(unsafe { internal::bn_lcm_consttime(r.ptr(), a.cptr(), b.cptr(), ctx.ptr()) })?;
    Ok(r)
}

/// `a⁻¹ mod n` in constant time; `None` if there is none.
pub(crate) fn inverse_consttime(a: &Bn, n: &Bn, ctx: &mut Ctx) -> Result<Option<Bn>> {
    let r = Bn::new();
    let mut no_inverse: c_int = 0;
    // SAFETY: all live.
    let ok = unsafe {
        internal::bn_mod_inverse_consttime(r.ptr(), &mut no_inverse, a.cptr(), n.cptr(), ctx.ptr())
    };
    if ok != 1 && no_inverse != 0 {
        // SAFETY: as in `check`.
        unsafe { sys::ERR_clear_error() };
        return Ok(None);
    }
    check(ok)?;
    Ok(Some(r))
}

/// `a mod d` in constant time, for a divisor of at least `d_bits` bits.
pub(crate) fn rem_consttime(a: &Bn, d: &Bn, d_bits: usize, ctx: &mut Ctx) -> Result<Bn> {
    let r = Bn::new();
    let bits = u32::try_from(d_bits).map_err(|_| BackendError)?;
    // SAFETY: all live; a null quotient is allowed.
    check(unsafe {
        internal::bn_div_consttime(ptr::null_mut(), r.ptr(), a.cptr(), d.cptr(), bits, ctx.ptr())
    })?;
    Ok(r)
}

/// A random odd number of exactly `bits` bits (top bit set).
pub(crate) fn random_odd(bits: usize) -> Result<Bn> {
    let r = Bn::new();
    let bits = c_int::try_from(bits).map_err(|_| BackendError)?;
    // SAFETY: r is live.
    check(unsafe { sys::BN_rand(r.ptr(), bits, sys::BN_RAND_TOP_ONE, sys::BN_RAND_BOTTOM_ODD) })?;
    Ok(r)
}

/// Asks AWS-LC whether `candidate` is prime: trial division, then as many
/// Miller–Rabin rounds as its key generation uses (`BN_prime_checks_for_generation`,
/// error probability ≤ 2⁻¹²⁸ for random candidates). `Ok(None)` when `stop`
/// was raised while the test ran: the callback AWS-LC calls between rounds
/// aborts it.
pub(crate) fn is_probable_prime(candidate: &Bn, ctx: &mut Ctx, stop: &AtomicBool) -> Result<Option<bool>> {
    /// Called by AWS-LC between rounds; returning 0 aborts the test.
    unsafe extern "C" fn keep_going(_event: c_int, _n: c_int, cb: *mut sys::BN_GENCB) -> c_int {
        // SAFETY: the argument was set below to a &AtomicBool that outlives
        // the BN_GENCB (freed before `is_probable_prime` returns).
        let stop = unsafe { &*(sys::BN_GENCB_get_arg(cb) as *const AtomicBool) };
        c_int::from(!stop.load(atomic::Ordering::Relaxed))
    }
    struct Gencb(NonNull<sys::BN_GENCB>);
    impl Drop for Gencb {
        fn drop(&mut self) {
            // SAFETY: from BN_GENCB_new, freed only here.
            unsafe { sys::BN_GENCB_free(self.0.as_ptr()) }
        }
    }
    // SAFETY: no preconditions.
    let cb = Gencb(non_null(unsafe { sys::BN_GENCB_new() })?);
    // SAFETY: cb is live; the argument outlives it (see keep_going).
    unsafe {
        sys::BN_GENCB_set(
            cb.0.as_ptr(),
            Some(keep_going),
            ptr::from_ref(stop) as *mut c_void,
        )
    };
    let mut prime: c_int = 0;
    // SAFETY: all live; trial division is on (1).
    let ok = unsafe {
        sys::BN_primality_test(
            &mut prime,
            candidate.cptr(),
            sys::BN_prime_checks_for_generation,
            ctx.ptr(),
            1,
            cb.0.as_ptr(),
        )
    };
    if ok != 1 && stop.load(atomic::Ordering::Relaxed) {
        // SAFETY: as in `check`.
        unsafe { sys::ERR_clear_error() };
        return Ok(None);
    }
    check(ok)?;
    Ok(Some(prime != 0))
}

fn md(hash: Hash) -> *const sys::EVP_MD {
    // SAFETY: the EVP_sha* functions return pointers to static tables.
    unsafe {
        match hash {
            Hash::Sha1 => sys::EVP_sha1(),
            Hash::Sha256 => sys::EVP_sha256(),
            Hash::Sha384 => sys::EVP_sha384(),
            Hash::Sha512 => sys::EVP_sha512(),
        }
    }
}

fn nid(hash: Hash) -> c_int {
    match hash {
        Hash::Sha1 => sys::NID_sha1,
        Hash::Sha256 => sys::NID_sha256,
        Hash::Sha384 => sys::NID_sha384,
        Hash::Sha512 => sys::NID_sha512,
    }
}

/// Why a key could not be parsed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ParseError {
    /// Not DER of the expected structure.
    Malformed,
    /// A well-formed key of another algorithm (the `EVP_PKEY` type id).
    WrongType(c_int),
    /// An EC key on a curve other than P-256.
    NotP256,
}

/// A key of `EVP_PKEY` type `id`, for messages: "an RSA key", "an EC key".
pub(crate) fn key_type_name(id: c_int) -> String {
    let name = match id {
        sys::EVP_PKEY_RSA => "an RSA key",
        sys::EVP_PKEY_RSA_PSS => "an RSA-PSS key (restricted RSA, not supported)",
        sys::EVP_PKEY_EC => "an EC key",
        sys::EVP_PKEY_DSA => "a DSA key",
        sys::EVP_PKEY_ED25519 => "an Ed25519 key",
        sys::EVP_PKEY_X25519 => "an X25519 key",
        sys::EVP_PKEY_ED448 => "an Ed448 key",
        other => return format!("a key of type #{other}"),
    };
    name.to_owned()
}

/// An owned AWS-LC `RSA` key, public or private.
pub(crate) struct RsaKey(NonNull<sys::RSA>);

// SAFETY: AWS-LC RSA objects are safe to use from several threads at once for
// every operation taking `const RSA *` or documented as thread-safe (its
// lazily made Montgomery caches are behind a lock); parcrypt never mutates one
// after construction.
unsafe impl Send for RsaKey {}
// SAFETY: as above.
unsafe impl Sync for RsaKey {}

impl std::fmt::Debug for RsaKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "RsaKey({} bits)", self.bits())
    }
}

impl Drop for RsaKey {
    fn drop(&mut self) {
        // SAFETY: we own one reference; RSA_free wipes private components.
        unsafe { sys::RSA_free(self.0.as_ptr()) }
    }
}

/// The parts of an RSA key, copied out of AWS-LC.
#[derive(Debug)]
pub(crate) struct Components {
    pub(crate) n: Bn,
    pub(crate) e: Bn,
    pub(crate) d: Option<Bn>,
    pub(crate) p: Option<Bn>,
    pub(crate) q: Option<Bn>,
    pub(crate) dp: Option<Bn>,
    pub(crate) dq: Option<Bn>,
    pub(crate) qinv: Option<Bn>,
}

/// Copies an AWS-LC allocated buffer into a zeroizing Vec, then wipes and frees it.
///
/// # Safety
/// `p` must be an OPENSSL_malloc'ed buffer of `len` bytes, owned by the caller.
pub(super) unsafe fn take_buffer(p: *mut u8, len: usize) -> Zeroizing<Vec<u8>> {
    // SAFETY: p holds len initialised bytes (caller).
    let v = Zeroizing::new(unsafe { std::slice::from_raw_parts(p, len) }.to_vec());
    // SAFETY: p/len are the caller's buffer, freed only here.
    unsafe {
        sys::OPENSSL_cleanse(p.cast(), len);
        sys::OPENSSL_free(p.cast());
    }
    v
}

/// Runs an AWS-LC parser over all of `der` with a CBS; trailing bytes fail.
pub(super) fn parse_all<T>(
    der: &[u8],
    parse: unsafe extern "C" fn(*mut sys::CBS) -> *mut T,
) -> Option<NonNull<T>> {
    let mut cbs = sys::CBS {
        data: ptr::null(),
        len: 0,
    };
    // SAFETY: der outlives cbs.
    unsafe { sys::CBS_init(&mut cbs, der.as_ptr(), der.len()) };
    // SAFETY: cbs is initialised; the parser only reads through it.
    let p = unsafe { parse(&mut cbs) };
    let p = NonNull::new(p);
    // SAFETY: clears the error queue left by a failed parse.
    unsafe { sys::ERR_clear_error() };
    p.filter(|_| cbs.len == 0)
}

/// Serialises with a CBB.
pub(super) fn marshal(f: impl FnOnce(*mut sys::CBB) -> c_int) -> Result<Zeroizing<Vec<u8>>> {
    let mut cbb = std::mem::MaybeUninit::<sys::CBB>::zeroed();
    // SAFETY: CBB_init initialises the zeroed CBB.
    check(unsafe { sys::CBB_init(cbb.as_mut_ptr(), 0) })?;
    let cbb = cbb.as_mut_ptr();
    if f(cbb) != 1 {
        // SAFETY: cbb was initialised.
        unsafe { sys::CBB_cleanup(cbb) };
        return Err(check(0).expect_err("0 is failure"));
    }
    let mut out: *mut u8 = ptr::null_mut();
    let mut len = 0usize;
    // SAFETY: cbb was initialised; on success we own out.
    check(unsafe { sys::CBB_finish(cbb, &mut out, &mut len) })?;
    // SAFETY: out/len came from CBB_finish.
    Ok(unsafe { take_buffer(out, len) })
}

/// An owned EVP_PKEY, freed on drop.
pub(super) struct Pkey(pub(super) NonNull<sys::EVP_PKEY>);

impl Drop for Pkey {
    fn drop(&mut self) {
        // SAFETY: owned reference.
        unsafe { sys::EVP_PKEY_free(self.0.as_ptr()) }
    }
}

impl Pkey {
    fn into_rsa(self) -> std::result::Result<RsaKey, ParseError> {
        // SAFETY: self.0 is live.
        let id = unsafe { sys::EVP_PKEY_id(self.0.as_ptr()) };
        if id != sys::EVP_PKEY_RSA {
            return Err(ParseError::WrongType(id));
        }
        // SAFETY: an RSA EVP_PKEY; get1 returns a new reference we own.
        let rsa = unsafe { sys::EVP_PKEY_get1_RSA(self.0.as_ptr()) };
        NonNull::new(rsa).map(RsaKey).ok_or(ParseError::Malformed)
    }

    fn of(rsa: &RsaKey) -> Result<Pkey> {
        // SAFETY: no preconditions.
        let pkey = Pkey(non_null(unsafe { sys::EVP_PKEY_new() })?);
        // SAFETY: both live; set1 takes its own reference to the RSA.
        check(unsafe { sys::EVP_PKEY_set1_RSA(pkey.0.as_ptr(), rsa.0.as_ptr()) })?;
        Ok(pkey)
    }
}

impl RsaKey {
    fn ptr(&self) -> *mut sys::RSA {
        self.0.as_ptr()
    }

    /// A PKCS#1 `RSAPrivateKey`.
    pub(crate) fn from_pkcs1_private_der(der: &[u8]) -> std::result::Result<RsaKey, ParseError> {
        parse_all(der, sys::RSA_parse_private_key)
            .map(RsaKey)
            .ok_or(ParseError::Malformed)
    }

    /// A PKCS#1 `RSAPublicKey`.
    pub(crate) fn from_pkcs1_public_der(der: &[u8]) -> std::result::Result<RsaKey, ParseError> {
        parse_all(der, sys::RSA_parse_public_key)
            .map(RsaKey)
            .ok_or(ParseError::Malformed)
    }

    /// A PKCS#8 `PrivateKeyInfo` holding an RSA key.
    pub(crate) fn from_pkcs8_der(der: &[u8]) -> std::result::Result<RsaKey, ParseError> {
        let pkey = parse_all(der, sys::EVP_parse_private_key).ok_or(ParseError::Malformed)?;
        Pkey(pkey).into_rsa()
    }

    /// An X.509 `SubjectPublicKeyInfo` holding an RSA key.
    pub(crate) fn from_spki_der(der: &[u8]) -> std::result::Result<RsaKey, ParseError> {
        let pkey = parse_all(der, sys::EVP_parse_public_key).ok_or(ParseError::Malformed)?;
        Pkey(pkey).into_rsa()
    }

    /// A private key from all its parts (AWS-LC checks them).
    pub(crate) fn from_private_components(c: &Components) -> Result<RsaKey> {
        let get = |b: &Option<Bn>| b.as_ref().map_or(Err(BackendError), |b| Ok(b.cptr()));
        // SAFETY: all pointers are live BIGNUMs; AWS-LC copies them.
        let rsa = unsafe {
            sys::RSA_new_private_key(
                c.n.cptr(),
                c.e.cptr(),
                get(&c.d)?,
                get(&c.p)?,
                get(&c.q)?,
                get(&c.dp)?,
                get(&c.dq)?,
                get(&c.qinv)?,
            )
        };
        Ok(RsaKey(non_null(rsa)?))
    }

    /// The public half.
    pub(crate) fn public(&self) -> Result<RsaKey> {
        // SAFETY: self is live; returns a new object we own.
        Ok(RsaKey(non_null(unsafe { sys::RSAPublicKey_dup(self.ptr()) })?))
    }

    pub(crate) fn pkcs1_private_der(&self) -> Result<Zeroizing<Vec<u8>>> {
        // SAFETY: self is live; the CBB is initialised by `marshal`.
        marshal(|cbb| unsafe { sys::RSA_marshal_private_key(cbb, self.ptr()) })
    }

    pub(crate) fn pkcs1_public_der(&self) -> Result<Vec<u8>> {
        // SAFETY: as above.
        marshal(|cbb| unsafe { sys::RSA_marshal_public_key(cbb, self.ptr()) }).map(|v| v.to_vec())
    }

    pub(crate) fn pkcs8_der(&self) -> Result<Zeroizing<Vec<u8>>> {
        let pkey = Pkey::of(self)?;
        // SAFETY: as above.
        marshal(|cbb| unsafe { sys::EVP_marshal_private_key(cbb, pkey.0.as_ptr()) })
    }

    pub(crate) fn spki_der(&self) -> Result<Vec<u8>> {
        let pkey = Pkey::of(self)?;
        // SAFETY: as above.
        marshal(|cbb| unsafe { sys::EVP_marshal_public_key(cbb, pkey.0.as_ptr()) }).map(|v| v.to_vec())
    }

    /// Copies of the key's parts.
    pub(crate) fn components(&self) -> Components {
        let r = self.ptr();
        // SAFETY: r is live; the getters return borrowed pointers or null,
        // which `dup_of` copies.
        unsafe {
            Components {
                n: Bn::dup_of(sys::RSA_get0_n(r)).expect("an RSA key has n"),
                e: Bn::dup_of(sys::RSA_get0_e(r)).unwrap_or_else(Bn::new),
                d: Bn::dup_of(sys::RSA_get0_d(r)),
                p: Bn::dup_of(sys::RSA_get0_p(r)),
                q: Bn::dup_of(sys::RSA_get0_q(r)),
                dp: Bn::dup_of(sys::RSA_get0_dmp1(r)),
                dq: Bn::dup_of(sys::RSA_get0_dmq1(r)),
                qinv: Bn::dup_of(sys::RSA_get0_iqmp(r)),
            }
        }
    }

    /// The modulus length in bytes.
    pub(crate) fn size(&self) -> usize {
        // SAFETY: self is live.
        unsafe { sys::RSA_size(self.ptr()) as usize }
    }

    /// The modulus length in bits.
    pub(crate) fn bits(&self) -> usize {
        // SAFETY: self is live.
        unsafe { sys::RSA_bits(self.ptr()) as usize }
    }

    /// AWS-LC's consistency check of a private key (primes multiply to n,
    /// d·e ≡ 1, CRT values right).
    pub(crate) fn check(&self) -> bool {
        // SAFETY: self is live.
        let ok = unsafe { sys::RSA_check_key(self.ptr()) } == 1;
        // SAFETY: as in `check`.
        unsafe { sys::ERR_clear_error() };
        ok
    }

    /// The EMSA-PSS encoding of `digest` (random salt of the digest's length)
    /// into `em` (`size()` bytes).
    pub(crate) fn pss_encode(&self, em: &mut [u8], digest: &[u8], hash: Hash) -> Result<()> {
        assert_eq!(em.len(), self.size());
        // SAFETY: em holds RSA_size bytes; digest has the hash's length (caller).
        check(unsafe {
            sys::RSA_padding_add_PKCS1_PSS_mgf1(
                self.ptr(),
                em.as_mut_ptr(),
                digest.as_ptr(),
                md(hash),
                md(hash),
                sys::RSA_PSS_SALTLEN_DIGEST,
            )
        })
    }

    /// Verifies an RSASSA-PSS signature over `digest`; `salt_len` `None`
    /// accepts any salt length (what `openssl` signs with by default varies).
    pub(crate) fn verify_pss(&self, digest: &[u8], hash: Hash, salt_len: Option<usize>, sig: &[u8]) -> bool {
        let salt = match salt_len {
            None => sys::RSA_PSS_SALTLEN_AUTO,
            Some(n) => match c_int::try_from(n) {
                Ok(n) => n,
                Err(_) => return false,
            },
        };
        // SAFETY: all slices valid; the RSA is only read.
        let ok = unsafe {
            sys::RSA_verify_pss_mgf1(
                self.ptr(),
                digest.as_ptr(),
                digest.len(),
                md(hash),
                md(hash),
                salt,
                sig.as_ptr(),
                sig.len(),
            )
        } == 1;
        // SAFETY: as in `check`.
        unsafe { sys::ERR_clear_error() };
        ok
    }

    /// Verifies an RSASSA-PKCS1-v1_5 signature over `digest`.
    pub(crate) fn verify_pkcs1(&self, digest: &[u8], hash: Hash, sig: &[u8]) -> bool {
        // SAFETY: all slices valid; the RSA is only read.
        let ok = unsafe {
            sys::RSA_verify(
                nid(hash),
                digest.as_ptr(),
                digest.len(),
                sig.as_ptr(),
                sig.len(),
                self.ptr(),
            )
        } == 1;
        // SAFETY: as in `check`.
        unsafe { sys::ERR_clear_error() };
        ok
    }

    /// The raw public operation `em^e mod n` (`em` is `size()` bytes, < n).
    pub(crate) fn public_raw(&self, em: &[u8]) -> Result<Vec<u8>> {
        let mut out = vec![0; self.size()];
        let mut len = 0usize;
        // SAFETY: out has RSA_size bytes; em is valid.
        check(unsafe {
            sys::RSA_encrypt(
                self.ptr(),
                &mut len,
                out.as_mut_ptr(),
                out.len(),
                em.as_ptr(),
                em.len(),
                sys::RSA_NO_PADDING,
            )
        })?;
        out.truncate(len);
        Ok(out)
    }
}

/// EME-OAEP encoding of `msg` with an empty label into all of `em`.
pub(crate) fn oaep_encode(em: &mut [u8], msg: &[u8], hash: Hash) -> Result<()> {
    // SAFETY: em and msg are valid slices; a null label of length 0 is allowed.
    check(unsafe {
        sys::RSA_padding_add_PKCS1_OAEP_mgf1(
            em.as_mut_ptr(),
            em.len(),
            msg.as_ptr(),
            msg.len(),
            ptr::null(),
            0,
            md(hash),
            md(hash),
        )
    })
}

/// EME-OAEP decoding of `em` with `label`, in constant time; the message
/// length, or `None` for any decoding error (which are not told apart).
pub(crate) fn oaep_decode(out: &mut [u8], em: &[u8], label: &[u8], hash: Hash, mgf1: Hash) -> Option<usize> {
    let mut len = 0usize;
    // SAFETY: out/em/label are valid slices.
    let ok = unsafe {
        internal::RSA_padding_check_PKCS1_OAEP_mgf1(
            out.as_mut_ptr(),
            &mut len,
            out.len(),
            em.as_ptr(),
            em.len(),
            label.as_ptr(),
            label.len(),
            md(hash),
            md(mgf1),
        )
    };
    // SAFETY: as in `check`.
    unsafe { sys::ERR_clear_error() };
    (ok == 1).then_some(len)
}

/// EMSA-PKCS1-v1_5 encoding of `digest` (DigestInfo, then 00 01 FF… 00) into all of `em`.
pub(crate) fn pkcs1_sig_encode(em: &mut [u8], digest: &[u8], hash: Hash) -> Result<()> {
    let mut prefixed: *mut u8 = ptr::null_mut();
    let mut len = 0usize;
    let mut alloced: c_int = 0;
    // SAFETY: digest is valid; the outputs are written by the function.
    check(unsafe {
        sys::RSA_add_pkcs1_prefix(
            &mut prefixed,
            &mut len,
            &mut alloced,
            nid(hash),
            digest.as_ptr(),
            digest.len(),
        )
    })?;
    // SAFETY: prefixed points to len bytes (allocated iff alloced).
    let info = unsafe { std::slice::from_raw_parts(prefixed, len) }.to_vec();
    if alloced != 0 {
        // SAFETY: allocated by RSA_add_pkcs1_prefix for us.
        unsafe { sys::OPENSSL_free(prefixed.cast()) };
    }
    // SAFETY: em and info are valid slices.
    check(unsafe {
        internal::RSA_padding_add_PKCS1_type_1(em.as_mut_ptr(), em.len(), info.as_ptr(), info.len())
    })
}

/// The linked name and address of every internal AWS-LC function used.
#[cfg(test)]
pub(super) fn internal_symbols() -> Vec<(&'static str, *const ())> {
    internal::all()
}
