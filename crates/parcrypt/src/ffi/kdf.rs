//! Key derivation from AWS-LC where the safe API lacks it: scrypt, and the
//! SHAKE256 extendable-output function (age's post-quantum keys expand
//! their 32-byte seed with it).
#![allow(unsafe_code)]

use aws_lc_sys as sys;

use super::owned::{MdCtx, Owned, own};

/// scrypt (RFC 7914) from AWS-LC: `out` ← scrypt(password, salt, N = 2^log2_n, r, p).
/// False if AWS-LC refuses the parameters (its memory cap is raised to what
/// they need, which callers bound first).
pub(crate) fn scrypt(password: &[u8], salt: &[u8], log2_n: u8, r: u32, p: u32, out: &mut [u8]) -> bool {
    if log2_n >= 64 {
        return false;
    }
    let n = 1u64 << log2_n;
    // N·r·128 bytes of memory (plus a little); AWS-LC rejects anything over max_mem.
    let mem = (n as u128) * u128::from(r) * 128 + (1 << 20);
    let Ok(max_mem) = usize::try_from(mem) else {
        return false;
    };
    // SAFETY: all pointers are valid for the lengths given; out is writable.
    let ok = unsafe {
        sys::EVP_PBE_scrypt(
            password.as_ptr().cast(),
            password.len(),
            salt.as_ptr(),
            salt.len(),
            n,
            u64::from(r),
            u64::from(p),
            max_mem,
            out.as_mut_ptr(),
            out.len(),
        )
    };
    // SAFETY: clears this thread's error queue; no preconditions.
    unsafe { sys::ERR_clear_error() };
    ok == 1
}

/// SHAKE256 (FIPS 202) of the concatenation of `parts`, `out.len()` bytes of output.
pub(crate) fn shake256(parts: &[&[u8]], out: &mut [u8]) -> bool {
    // SAFETY: EVP_MD_CTX_new has no preconditions; the context is ours
    // (freed, and its sponge state cleansed, when `owned` drops).
    let Some(owned) = (unsafe { own::<MdCtx>(sys::EVP_MD_CTX_new()) }) else {
        return false;
    };
    let ctx = owned.as_ptr();
    // SAFETY: ctx is live; EVP_shake256 returns a static table.
    let mut ok = unsafe { sys::EVP_DigestInit_ex(ctx, sys::EVP_shake256(), std::ptr::null_mut()) } == 1;
    for part in parts {
        // SAFETY: ctx is initialised; part is part.len() readable bytes.
        ok = ok && unsafe { sys::EVP_DigestUpdate(ctx, part.as_ptr().cast(), part.len()) } == 1;
    }
    // SAFETY: ctx is initialised with an XOF; out is out.len() writable bytes.
    ok = ok && unsafe { sys::EVP_DigestFinalXOF(ctx, out.as_mut_ptr(), out.len()) } == 1;
    // SAFETY: clears this thread's error queue; no preconditions.
    unsafe { sys::ERR_clear_error() };
    ok
}

#[cfg(test)]
mod tests {
    use super::shake256;

    #[test]
    fn shake256_of_the_empty_string() {
        // FIPS 202 example: SHAKE256("", 32 bytes).
        let mut out = [0u8; 32];
        assert!(shake256(&[], &mut out));
        let want = "46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762f";
        let got: String = out.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(got, want);
        // Parts are concatenated.
        let (mut a, mut b) = ([0u8; 40], [0u8; 40]);
        assert!(shake256(&[b"ab", b"c"], &mut a));
        assert!(shake256(&[b"abc"], &mut b));
        assert_eq!(a, b);
    }
}
