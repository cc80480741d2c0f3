//! DER in and out of AWS-LC: parsing a whole buffer with a `CBS`,
//! serialising with a `CBB`, `EVP_PKEY` (PKCS#8 / SPKI) wrappers shared by
//! the RSA and EC keys, and why a key was refused.
#![allow(unsafe_code)]

use std::os::raw::c_int;
use std::ptr;

use crate::secret::SecretBytes;
use aws_lc_sys as sys;

use super::error::{Result, check};
use super::owned::{Owned, own};

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
        sys::EVP_PKEY_KEM => "an ML-KEM key",
        other => return format!("a key of type #{other}"),
    };
    name.to_owned()
}

/// Copies an AWS-LC allocated buffer into [`SecretBytes`], then wipes and frees it.
///
/// # Safety
/// `p` must be an OPENSSL_malloc'ed buffer of `len` bytes, owned by the caller.
pub(super) unsafe fn take_buffer(p: *mut u8, len: usize) -> SecretBytes {
    // SAFETY: p holds len initialised bytes (caller).
    let v = SecretBytes::from(unsafe { std::slice::from_raw_parts(p, len) });
    // SAFETY: p/len are the caller's buffer, freed only here.
    unsafe {
        sys::OPENSSL_cleanse(p.cast(), len);
        sys::OPENSSL_free(p.cast());
    }
    v
}

/// Runs an AWS-LC parser over all of `der` with a CBS; trailing bytes fail.
/// What the parser made is owned (`W`) before anything is checked, so an
/// object parsed from a prefix of `der` is freed, and cleansed, when the
/// trailing bytes refuse it.
pub(super) fn parse_all<W: Owned>(
    der: &[u8],
    parse: unsafe extern "C" fn(*mut sys::CBS) -> *mut W::Raw,
) -> Option<W> {
    let mut cbs = sys::CBS {
        data: ptr::null(),
        len: 0,
    };
    // SAFETY: der outlives cbs.
    unsafe { sys::CBS_init(&mut cbs, der.as_ptr(), der.len()) };
    // SAFETY: cbs is initialised; the parser only reads through it, and
    // returns a new object the caller owns, or null.
    let parsed: Option<W> = unsafe { own(parse(&mut cbs)) };
    // SAFETY: clears the error queue left by a failed parse.
    unsafe { sys::ERR_clear_error() };
    parsed.filter(|_| cbs.len == 0)
}

/// Serialises with a CBB.
pub(super) fn marshal(f: impl FnOnce(*mut sys::CBB) -> c_int) -> Result<SecretBytes> {
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

pub(super) use super::owned::Pkey;
