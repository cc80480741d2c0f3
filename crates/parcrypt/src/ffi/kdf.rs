//! Key derivation from AWS-LC where the safe API lacks it: scrypt, the
//! SHAKE256 extendable-output function (age's post-quantum keys expand
//! their 32-byte seed with it), and `openssl enc`'s two password
//! derivations, PBKDF2-HMAC and EVP_BytesToKey, with the digests `enc -md`
//! names (aws-lc-rs's PBKDF2 has no MD5 or SHA-224, and no EVP_BytesToKey).
#![allow(unsafe_code)]

use aws_lc_sys as sys;

use super::owned::{MdCtx, Owned, own};

/// scrypt (RFC 7914) from AWS-LC: `out` ← scrypt(password, salt, N = 2^log2_n, r, p).
/// False if AWS-LC refuses the parameters or cannot allocate. Its memory
/// cap is raised to exactly what they need, so callers bound the memory
/// first; they also check RFC 7914's rules, which AWS-LC refuses the same
/// way (r, p > 0, p·r < 2^30, N < 2^(16·r)), so that false here means only
/// an allocation that failed.
pub(crate) fn scrypt(password: &[u8], salt: &[u8], log2_n: u8, r: u32, p: u32, out: &mut [u8]) -> bool {
    if log2_n >= 64 {
        return false;
    }
    let n = 1u64 << log2_n;
    // AWS-LC allocates 128·r bytes for each of N + p + 1 blocks (V, the p
    // lanes of B, and T) and refuses unless
    // max_mem / (128·r) ≥ N + p + 1.
    let mem = 128 * u128::from(r) * (u128::from(n) + u128::from(p) + 1);
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

/// The digests `openssl enc -md` takes for its key derivations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Md {
    Md5,
    Sha1,
    Sha224,
    Sha256,
    Sha384,
    Sha512,
}

impl Md {
    fn evp(self) -> *const sys::EVP_MD {
        // SAFETY: each returns a pointer to a static table; no preconditions.
        unsafe {
            match self {
                Md::Md5 => sys::EVP_md5(),
                Md::Sha1 => sys::EVP_sha1(),
                Md::Sha224 => sys::EVP_sha224(),
                Md::Sha256 => sys::EVP_sha256(),
                Md::Sha384 => sys::EVP_sha384(),
                Md::Sha512 => sys::EVP_sha512(),
            }
        }
    }
}

/// PBKDF2-HMAC-`md` (RFC 8018) from AWS-LC: fills `out`. False if AWS-LC
/// refuses (zero iterations).
pub(crate) fn pbkdf2_hmac(md: Md, password: &[u8], salt: &[u8], iterations: u32, out: &mut [u8]) -> bool {
    // SAFETY: password and salt are readable for their lengths (an empty
    // slice's dangling pointer is never read); out is writable for its length.
    let ok = unsafe {
        sys::PKCS5_PBKDF2_HMAC(
            password.as_ptr().cast(),
            password.len(),
            salt.as_ptr(),
            salt.len(),
            iterations,
            md.evp(),
            out.len(),
            out.as_mut_ptr(),
        )
    };
    // SAFETY: clears this thread's error queue; no preconditions.
    unsafe { sys::ERR_clear_error() };
    ok == 1
}

/// OpenSSL's `EVP_BytesToKey` with one round (what `openssl enc` uses
/// without `-pbkdf2`), from AWS-LC: `key` (16, 24 or 32 bytes) and `iv` (16
/// bytes, or empty for a cipher without one, ECB) from
/// D_i = md(D_{i−1} ‖ password ‖ salt). False for other lengths.
pub(crate) fn bytes_to_key(
    md: Md,
    password: &[u8],
    salt: Option<&[u8; 8]>,
    key: &mut [u8],
    iv: &mut [u8],
) -> bool {
    // EVP_BytesToKey takes the lengths from a cipher: any AES cipher with
    // this key length and an IV (CBC) or none (ECB).
    // SAFETY: each returns a pointer to a static table; no preconditions.
    let cipher = unsafe {
        match (key.len(), iv.len()) {
            (16, 16) => sys::EVP_aes_128_cbc(),
            (24, 16) => sys::EVP_aes_192_cbc(),
            (32, 16) => sys::EVP_aes_256_cbc(),
            (16, 0) => sys::EVP_aes_128_ecb(),
            (24, 0) => sys::EVP_aes_192_ecb(),
            (32, 0) => sys::EVP_aes_256_ecb(),
            _ => return false,
        }
    };
    let salt = salt.map_or(std::ptr::null(), |s| s.as_ptr());
    // A null `data` makes EVP_BytesToKey return at once, deriving nothing;
    // an empty password is a valid (empty) input, so it gets a real pointer.
    let data: &[u8] = if password.is_empty() { &[0] } else { password };
    let iv_ptr = if iv.is_empty() {
        std::ptr::null_mut()
    } else {
        iv.as_mut_ptr()
    };
    // SAFETY: cipher and md are static tables; salt is null or 8 readable
    // bytes (PKCS5_SALT_LEN); data is readable for password.len() bytes; key
    // is writable for the cipher's key length and iv (when not null) for
    // its IV length, as matched above.
    let n = unsafe {
        sys::EVP_BytesToKey(
            cipher,
            md.evp(),
            salt,
            data.as_ptr(),
            password.len(),
            1,
            key.as_mut_ptr(),
            iv_ptr,
        )
    };
    // SAFETY: clears this thread's error queue; no preconditions.
    unsafe { sys::ERR_clear_error() };
    usize::try_from(n).is_ok_and(|n| n == key.len())
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
