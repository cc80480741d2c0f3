//! One owning wrapper per AWS-LC object type: a pointer AWS-LC handed over
//! becomes a wrapper the moment it exists, and the wrapper's `Drop` frees
//! it (AWS-LC's `*_free` cleanses private material: `RSA_free`,
//! `EC_KEY_free`, `EVP_PKEY_free`, `EVP_MD_CTX_free`). No path — a parse
//! that leaves trailing bytes, a check that fails, an early `?` — can then
//! forget an object: freeing is the wrapper's, never the caller's.
//!
//! Types whose wrapper needs more than a free (`Bn`, `Ctx`, `Mont`,
//! `AeadKey`, the cipher contexts) keep their own in the file that uses
//! them; each is still the one owner of its type.
#![allow(unsafe_code)]

use std::ptr::NonNull;

use aws_lc_sys as sys;

/// A wrapper that owns one AWS-LC object of type `Raw`.
pub(crate) trait Owned: Sized {
    /// The AWS-LC type owned.
    type Raw;
    /// Takes ownership of `raw`.
    ///
    /// # Safety
    /// `raw` must be a live object the caller owns (one reference), with
    /// nothing else freeing it.
    unsafe fn from_raw(raw: NonNull<Self::Raw>) -> Self;
    /// The pointer, still owned by the wrapper.
    fn as_ptr(&self) -> *mut Self::Raw;
}

/// Declares `struct $name(NonNull<$raw>)`, freed by `sys::$free` on drop.
macro_rules! owned {
    ($($(#[$meta:meta])* $vis:vis struct $name:ident($raw:ty) = $free:ident;)*) => {$(
        $(#[$meta])*
        $vis struct $name(NonNull<$raw>);

        impl Owned for $name {
            type Raw = $raw;
            unsafe fn from_raw(raw: NonNull<$raw>) -> Self {
                $name(raw)
            }
            fn as_ptr(&self) -> *mut $raw {
                self.0.as_ptr()
            }
        }

        impl Drop for $name {
            fn drop(&mut self) {
                // SAFETY: the wrapper owns one reference (`from_raw`'s
                // contract) and drops it once, here.
                unsafe { sys::$free(self.0.as_ptr()) }
            }
        }
    )*};
}

owned! {
    /// An owned AWS-LC `RSA` key, public or private (`RSA_free` wipes the
    /// private components).
    pub(crate) struct RsaKey(sys::RSA) = RSA_free;
    /// An owned `EC_KEY` on P-256 (`EC_KEY_free` wipes the private scalar).
    pub(crate) struct EcKey(sys::EC_KEY) = EC_KEY_free;
    /// An owned `EVP_PKEY` (PKCS#8, SPKI).
    pub(crate) struct Pkey(sys::EVP_PKEY) = EVP_PKEY_free;
    /// An owned `EVP_PKEY_CTX`.
    pub(crate) struct PkeyCtx(sys::EVP_PKEY_CTX) = EVP_PKEY_CTX_free;
    /// An owned `EC_POINT`.
    pub(crate) struct Point(sys::EC_POINT) = EC_POINT_free;
    /// An owned `ECDSA_SIG`.
    pub(crate) struct EcdsaSig(sys::ECDSA_SIG) = ECDSA_SIG_free;
    /// An owned `EVP_MD_CTX` (`EVP_MD_CTX_free` cleanses its state).
    pub(crate) struct MdCtx(sys::EVP_MD_CTX) = EVP_MD_CTX_free;
}

impl Pkey {
    /// Another owner of the same key (`EVP_PKEY_up_ref`). For keys that are
    /// never modified once made (every `EVP_PKEY` here: operations keep
    /// their state in their own contexts), so both owners may use it from
    /// any thread.
    pub(crate) fn share(&self) -> Pkey {
        // SAFETY: the key is live; up_ref adds the reference the new
        // wrapper owns (and frees once, on drop). It cannot fail.
        unsafe { sys::EVP_PKEY_up_ref(self.0.as_ptr()) };
        Pkey(self.0)
    }
}

/// Makes sure AWS-LC runs as masked (`PARCRYPT_CPU_MASK`) before it is
/// used: the first call of [`crate::cpu::enabled`] applies the mask (its
/// docs say why it cannot be applied at load time). Every door of `ffi`
/// that makes an AWS-LC object or context calls this; it costs one load.
pub(crate) fn backend_ready() {
    let _ = crate::cpu::enabled();
}

/// `raw` as its owning wrapper, or `None` when AWS-LC returned null.
///
/// # Safety
/// As [`Owned::from_raw`] for a non-null `raw`.
pub(crate) unsafe fn own<W: Owned>(raw: *mut W::Raw) -> Option<W> {
    backend_ready();
    // SAFETY: the caller's contract.
    NonNull::new(raw).map(|raw| unsafe { W::from_raw(raw) })
}
