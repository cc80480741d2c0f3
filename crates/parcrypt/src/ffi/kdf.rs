//! Key derivation from AWS-LC: scrypt, which the safe API lacks.
#![allow(unsafe_code)]

use aws_lc_sys as sys;

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
