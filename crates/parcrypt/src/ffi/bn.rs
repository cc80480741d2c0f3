//! Big numbers from AWS-LC: `BIGNUM`, scratch contexts, Montgomery
//! arithmetic and the constant-time steps of RSA's CRT and key generation.
//!
//! Safe wrappers over the `BIGNUM`, `BN_CTX` and `BN_MONT_CTX` operations that
//! [`crate::rsa`] builds its parallel CRT private operation and its racing key
//! generation from. Every arithmetic step on secret values is one of AWS-LC's
//! constant-time functions — the same ones its own RSA uses.
#![allow(unsafe_code)]

use std::cmp::Ordering;
use std::os::raw::c_int;
use std::ptr::{self, NonNull};

use aws_lc_sys as sys;

use super::error::{BackendError, Result, check, non_null};
use super::internal;

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

    /// A new value written by `f`, an AWS-LC call that stores its result in
    /// the `BIGNUM` it is given and returns 1 on success.
    fn out(f: impl FnOnce(*mut sys::BIGNUM) -> c_int) -> Result<Bn> {
        let r = Bn::new();
        check(f(r.ptr()))?;
        Ok(r)
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
    pub(super) unsafe fn dup_of(p: *const sys::BIGNUM) -> Option<Bn> {
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

    /// Writes the value into all of `out` as little-endian 64-bit words,
    /// leading zero words kept (AWS-LC's `BN_bn2le_padded`, which runs in
    /// time independent of the value); false if it does not fit.
    pub(crate) fn write_le_words(&self, out: &mut [u64]) -> bool {
        let len = std::mem::size_of_val(out);
        // SAFETY: out is len initialized, writable bytes, and every byte
        // pattern is a valid u64.
        let bytes = unsafe { std::slice::from_raw_parts_mut(out.as_mut_ptr().cast::<u8>(), len) };
        // SAFETY: bytes is a valid writable slice of len bytes; self is live.
        let ok = unsafe { sys::BN_bn2le_padded(bytes.as_mut_ptr(), len, self.cptr()) } == 1;
        for w in out.iter_mut() {
            *w = u64::from_le(*w);
        }
        ok
    }

    /// The remainder of a division by `w` (AWS-LC's `BN_mod_word`:
    /// variable-time; the test oracle for `rsa::trial`).
    #[cfg(test)]
    pub(crate) fn mod_word_vartime(&self, w: u64) -> u64 {
        let w = sys::BN_ULONG::try_from(w).expect("a divisor that fits a BN_ULONG");
        assert!(w != 0);
        // SAFETY: self is live; w is not zero.
        let r = unsafe { sys::BN_mod_word(self.cptr(), w) };
        #[allow(clippy::useless_conversion)] // BN_ULONG is u32 on 32-bit targets
        u64::from(r)
    }

    /// Whether `gcd(self, other) = 1`, for `self` > 0, by AWS-LC's `BN_nnmod`
    /// (of `other`, which may be much wider) and `BN_gcd`: the test oracle
    /// for `rsa::trial`.
    #[cfg(test)]
    pub(crate) fn coprime_to_vartime(&self, other: &Bn, ctx: &mut Ctx) -> bool {
        // SAFETY: all live; r is distinct from the inputs; self is not zero.
        let r =
            Bn::out(|r| unsafe { sys::BN_nnmod(r, other.cptr(), self.cptr(), ctx.ptr()) }).expect("BN_nnmod");
        // SAFETY: all live; g is distinct from the inputs.
        let g = Bn::out(|g| unsafe { sys::BN_gcd(g, self.cptr(), r.cptr(), ctx.ptr()) }).expect("BN_gcd");
        // SAFETY: g is live.
        unsafe { sys::BN_is_one(g.cptr()) == 1 }
    }

    /// Whether AWS-LC's own trial division rejects this odd number
    /// (`bn_odd_number_is_obviously_composite`: its first 512 primes, or
    /// 1024 for numbers wider than 1024 bits), for tests of `rsa::trial`.
    #[cfg(test)]
    pub(crate) fn aws_lc_obviously_composite(&self) -> bool {
        // SAFETY: self is live.
        unsafe { internal::bn_odd_number_is_obviously_composite(self.cptr()) != 0 }
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
        // SAFETY: both are live; r is distinct from max.
        Bn::out(|r| unsafe { sys::BN_rand_range_ex(r, 1, max.cptr()) })
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
        super::owned::backend_ready();
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
        // SAFETY: all live; r is distinct from the inputs; base < m (caller).
        Bn::out(|r| unsafe {
            sys::BN_mod_exp_mont_consttime(
                r,
                base.cptr(),
                exp.cptr(),
                self.modulus.cptr(),
                ctx.ptr(),
                self.ptr(),
            )
        })
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
        // SAFETY: all live; r is distinct from the inputs.
        Bn::out(|r| unsafe {
            sys::BN_mod_exp_mont(
                r,
                base.cptr(),
                exp.cptr(),
                self.modulus.cptr(),
                ctx.ptr(),
                self.ptr(),
            )
        })
    }

    /// `a · R mod m` (into Montgomery form), `a < m`.
    pub(crate) fn to_mont(&self, a: &Bn, ctx: &mut Ctx) -> Result<Bn> {
        // SAFETY: all live.
        Bn::out(|r| unsafe { sys::BN_to_montgomery(r, a.cptr(), self.ptr(), ctx.ptr()) })
    }

    /// `a · b · R⁻¹ mod m` in constant time (`a, b < m`).
    pub(crate) fn mul_mont(&self, a: &Bn, b: &Bn, ctx: &mut Ctx) -> Result<Bn> {
        // SAFETY: all live; r is distinct from the inputs.
        Bn::out(|r| unsafe { sys::BN_mod_mul_montgomery(r, a.cptr(), b.cptr(), self.ptr(), ctx.ptr()) })
    }

    /// `a − b mod m` in constant time (`a, b < m`).
    pub(crate) fn sub(&self, a: &Bn, b: &Bn) -> Result<Bn> {
        // SAFETY: all live.
        Bn::out(|r| unsafe { sys::BN_mod_sub_quick(r, a.cptr(), b.cptr(), self.modulus.cptr()) })
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
        // SAFETY: all live; the modulus is prime (keygen's caller) and a < p.
        Bn::out(|r| unsafe {
            internal::bn_mod_inverse_secret_prime(r, a.cptr(), self.modulus.cptr(), ctx.ptr(), self.ptr())
        })
    }
}

/// `a · b` in constant time.
pub(crate) fn mul_consttime(a: &Bn, b: &Bn, ctx: &mut Ctx) -> Result<Bn> {
    // SAFETY: all live; r distinct from the inputs.
    Bn::out(|r| unsafe { internal::bn_mul_consttime(r, a.cptr(), b.cptr(), ctx.ptr()) })
}

/// `a + b` in constant time.
pub(crate) fn add_consttime(a: &Bn, b: &Bn) -> Result<Bn> {
    // SAFETY: all live.
    Bn::out(|r| unsafe { internal::bn_uadd_consttime(r, a.cptr(), b.cptr()) })
}

/// `a − b` in constant time, `a ≥ b`.
pub(crate) fn sub_consttime(a: &Bn, b: &Bn) -> Result<Bn> {
    // SAFETY: all live; a ≥ b (caller).
    Bn::out(|r| unsafe { internal::bn_usub_consttime(r, a.cptr(), b.cptr()) })
}

/// `|a − b|` in constant time.
pub(crate) fn abs_diff_consttime(a: &Bn, b: &Bn, ctx: &mut Ctx) -> Result<Bn> {
    // SAFETY: all live.
    Bn::out(|r| unsafe { internal::bn_abs_sub_consttime(r, a.cptr(), b.cptr(), ctx.ptr()) })
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
    // SAFETY: all live.
    Bn::out(|r| unsafe { internal::bn_lcm_consttime(r, a.cptr(), b.cptr(), ctx.ptr()) })
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
    let bits = u32::try_from(d_bits).map_err(|_| BackendError)?;
    // SAFETY: all live; a null quotient is allowed.
    Bn::out(|r| unsafe {
        internal::bn_div_consttime(ptr::null_mut(), r, a.cptr(), d.cptr(), bits, ctx.ptr())
    })
}

/// A uniformly random odd number of exactly `bits` bits with the top two
/// bits set: uniform over the odd numbers in `[2^(bits−1) + 2^(bits−2), 2^bits)`
/// (AWS-LC's `BN_rand` with `BN_RAND_TOP_TWO`). All of them are above
/// √2·2^(bits−1), FIPS 186-5 A.1.3's lower bound for a prime factor.
pub(crate) fn random_odd_top_two(bits: usize) -> Result<Bn> {
    let bits = c_int::try_from(bits).map_err(|_| BackendError)?;
    // SAFETY: r is live.
    Bn::out(|r| unsafe { sys::BN_rand(r, bits, sys::BN_RAND_TOP_TWO, sys::BN_RAND_BOTTOM_ODD) })
}

/// The tests' reference for [`MillerRabin`]: asks AWS-LC whether
/// `candidate` is prime with as many Miller–Rabin
/// rounds as its key generation uses (`BN_primality_test` with
/// `BN_prime_checks_for_generation`: error probability ≤ 2⁻¹²⁸ for random
/// candidates), without AWS-LC's own trial division: the caller has divided
/// by more primes already (`rsa::trial`), as AWS-LC's `generate_prime` does
/// before it calls the same test. `Ok(None)` when `stop` was raised while
/// the test ran: the callback AWS-LC calls between rounds aborts it.
#[cfg(test)]
pub(crate) fn miller_rabin(
    candidate: &Bn,
    ctx: &mut Ctx,
    stop: &std::sync::atomic::AtomicBool,
) -> Result<Option<bool>> {
    use std::os::raw::c_void;
    use std::sync::atomic::{self, AtomicBool};
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
    // SAFETY: all live; trial division is off (0).
    let ok = unsafe {
        sys::BN_primality_test(
            &mut prime,
            candidate.cptr(),
            sys::BN_prime_checks_for_generation,
            ctx.ptr(),
            0,
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

/// The Miller–Rabin rounds AWS-LC's `BN_primality_test` runs on a prime:
/// `BN_PRIME_CHECKS_BLINDED`, and until then at least
/// [`uniform_rounds_for_generation`] of them with a uniformly drawn base.
pub(crate) const BLINDED_ROUNDS: usize = 16;

/// `BN_prime_checks_for_size` of AWS-LC (FIPS 186-5 Table B.1: error
/// probability ≤ 2⁻¹²⁸ for random candidates) for the sizes of RSA primes
/// (`rsa::keygen::MIN_BITS / 2` = 512 bits and up); `None` below 476 bits,
/// where the table goes on and this module is not used.
pub(crate) fn uniform_rounds_for_generation(bits: usize) -> Option<usize> {
    match bits {
        3747.. => Some(3),
        1345.. => Some(4),
        476.. => Some(5),
        _ => None,
    }
}

/// What one round said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Round {
    /// No witness of compositeness: the candidate may be prime.
    pub(crate) possibly_prime: bool,
    /// The base was drawn uniformly (AWS-LC's constant-time draw adjusts a
    /// rare out-of-range draw instead of redrawing; such rounds still test,
    /// but only uniform ones count towards the required number).
    pub(crate) uniform: bool,
}

/// Miller–Rabin on one odd candidate, one round at a time: the steps of
/// AWS-LC's `BN_primality_test` (FIPS 186-4 C.3.1: the setup of steps 1–3
/// in [`MillerRabin::new`], each [`MillerRabin::round`] is steps 4.1–4.6
/// with a fresh secret base), taken apart so that the rounds on a likely
/// prime can run on several threads at once (`rsa::keygen`), each thread
/// with its own `MillerRabin` over the shared [`Mont`]. Every round is
/// AWS-LC's constant-time code; a composite is recognized at the round
/// that finds its witness, as in `BN_primality_test`.
pub(crate) struct MillerRabin<'a> {
    state: internal::BnMillerRabin,
    base: NonNull<sys::BIGNUM>,
    mont: &'a Mont,
    ctx: &'a mut Ctx,
}

impl std::fmt::Debug for MillerRabin<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "MillerRabin({} bits)", self.mont.modulus.bits())
    }
}

impl<'a> MillerRabin<'a> {
    /// Sets up the rounds for the odd modulus of `mont` (made with
    /// [`Mont::secret`]) in a scope of `ctx`, closed when this is dropped.
    pub(crate) fn new(mont: &'a Mont, ctx: &'a mut Ctx) -> Result<MillerRabin<'a>> {
        // SAFETY: ctx is live; the scope is closed in Drop (also on the
        // error paths below, which drop `this`).
        unsafe { sys::BN_CTX_start(ctx.ptr()) };
        // SAFETY: inside the scope just opened.
        let base = unsafe { sys::BN_CTX_get(ctx.ptr()) };
        let mut this = MillerRabin {
            state: internal::BnMillerRabin {
                w1: ptr::null_mut(),
                m: ptr::null_mut(),
                one_mont: ptr::null_mut(),
                w1_mont: ptr::null_mut(),
                w_bits: 0,
                a: 0,
            },
            base: NonNull::dangling(),
            mont,
            ctx,
        };
        this.base = non_null(base)?;
        // SAFETY: state is writable; mont and ctx are live, ctx's scope is
        // open and outlives every use of the state (Drop closes it).
        check(unsafe { internal::bn_miller_rabin_init(&mut this.state, this.mont.ptr(), this.ctx.ptr()) })?;
        Ok(this)
    }

    /// One round with a fresh random base in [2, w − 1).
    pub(crate) fn round(&mut self) -> Result<Round> {
        let mut uniform: c_int = 0;
        let mut possibly_prime: c_int = 0;
        // SAFETY: base and state.w1 live in the open scope of ctx.
        check(unsafe { internal::bn_rand_secret_range(self.base.as_ptr(), &mut uniform, 2, self.state.w1) })?;
        // SAFETY: the state was set up by bn_miller_rabin_init for this mont
        // and ctx; base is live; ctx's scope is still open.
        check(unsafe {
            internal::bn_miller_rabin_iteration(
                &self.state,
                &mut possibly_prime,
                self.base.as_ptr(),
                self.mont.ptr(),
                self.ctx.ptr(),
            )
        })?;
        Ok(Round {
            possibly_prime: possibly_prime != 0,
            uniform: uniform != 0,
        })
    }
}

impl Drop for MillerRabin<'_> {
    fn drop(&mut self) {
        // SAFETY: closes the scope `new` opened. The state's numbers and the
        // base (secret once the candidate is a prime) go back to the context
        // for reuse, as after `BN_primality_test`, which uses the caller's
        // context the same way; when the context is freed, AWS-LC's
        // OPENSSL_free wipes every allocation it releases.
        unsafe { sys::BN_CTX_end(self.ctx.ptr()) }
    }
}
