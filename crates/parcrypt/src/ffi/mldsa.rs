//! ML-DSA-44/65/87 (FIPS 204) through AWS-LC's `EVP_PKEY_PQDSA`, for what
//! the safe `aws_lc_rs::signature` API lacks: a context string, external μ
//! (signing and verifying a 64-byte μ computed by the caller), the private
//! seed and the expanded key, and a streaming SHAKE256 for μ.
//!
//! Signing is AWS-LC's (mldsa-native's) hedged signing: fresh random bytes
//! mixed with the key and μ for each signature; signing with given
//! randomness (the deterministic variant, known-answer tests) goes through
//! AWS-LC's internal `ml_dsa_extmu_*_sign_internal` (`internal.rs`).
#![allow(unsafe_code)]

use std::os::raw::c_int;
use std::ptr;

use aws_lc_sys as sys;

use super::der::{self, ParseError};
use super::error::{BackendError, Result, check};
use super::internal;
use super::owned::{MdCtx, Owned, Pkey, PkeyCtx, own};
use crate::secret::SecretBytes;

/// μ's length (FIPS 204: 512 bits).
pub(crate) const MU_LEN: usize = 64;
/// The signing randomness `rnd`'s length (FIPS 204: 256 bits).
pub(crate) const RND_LEN: usize = 32;

/// The three parameter sets by AWS-LC's NID.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Set {
    MlDsa44,
    MlDsa65,
    MlDsa87,
}

impl Set {
    fn nid(self) -> c_int {
        match self {
            Set::MlDsa44 => sys::NID_MLDSA44,
            Set::MlDsa65 => sys::NID_MLDSA65,
            Set::MlDsa87 => sys::NID_MLDSA87,
        }
    }

    fn from_nid(nid: c_int) -> Option<Set> {
        [Set::MlDsa44, Set::MlDsa65, Set::MlDsa87]
            .into_iter()
            .find(|s| s.nid() == nid)
    }
}

/// An ML-DSA key in an `EVP_PKEY`: public only, or with its private part
/// (from the seed, or expanded only). Freed, and cleansed by AWS-LC, on drop.
pub(crate) struct MlDsaKey {
    key: Pkey,
    set: Set,
}

/// A clone shares the `EVP_PKEY` ([`Pkey::share`]): the library clones
/// only public keys ([`crate::mldsa::PublicKey`]).
impl Clone for MlDsaKey {
    fn clone(&self) -> Self {
        MlDsaKey {
            key: self.key.share(),
            set: self.set,
        }
    }
}

// SAFETY: the EVP_PKEY is not modified after it is made; every operation
// makes its own EVP_PKEY_CTX / EVP_MD_CTX (which take a reference) and keeps
// per-call state there.
unsafe impl Send for MlDsaKey {}
// SAFETY: as above.
unsafe impl Sync for MlDsaKey {}

fn raw_key(
    new: unsafe extern "C" fn(c_int, *const u8, usize) -> *mut sys::EVP_PKEY,
    set: Set,
    bytes: &[u8],
) -> Option<MlDsaKey> {
    // SAFETY: bytes is bytes.len() readable bytes; AWS-LC checks the length
    // for the set and copies them; the new key is ours.
    let key = unsafe { own::<Pkey>(new(set.nid(), bytes.as_ptr(), bytes.len())) };
    // SAFETY: clears the error queue a refused key leaves.
    unsafe { sys::ERR_clear_error() };
    Some(MlDsaKey { key: key?, set })
}

impl MlDsaKey {
    /// ML-DSA.KeyGen_internal(ξ) for a 32-byte seed ξ.
    pub(crate) fn from_seed(set: Set, seed: &[u8; 32]) -> Result<MlDsaKey> {
        raw_key(sys::EVP_PKEY_pqdsa_new_raw_private_key, set, seed).ok_or(BackendError)
    }

    /// A key from its expanded private key (FIPS 204 `skEncode`), which
    /// has no seed.
    pub(crate) fn from_expanded(set: Set, expanded: &[u8]) -> Option<MlDsaKey> {
        raw_key(sys::EVP_PKEY_pqdsa_new_raw_private_key, set, expanded)
    }

    /// A public key from its raw encoding (FIPS 204 `pkEncode`).
    pub(crate) fn from_public(set: Set, public: &[u8]) -> Option<MlDsaKey> {
        raw_key(sys::EVP_PKEY_pqdsa_new_raw_public_key, set, public)
    }

    fn checked(pkey: Pkey) -> std::result::Result<MlDsaKey, ParseError> {
        // SAFETY: pkey is live.
        let id = unsafe { sys::EVP_PKEY_id(pkey.as_ptr()) };
        if id != sys::EVP_PKEY_PQDSA {
            return Err(ParseError::WrongType(id));
        }
        // SAFETY: a PQDSA key.
        let nid = unsafe { sys::EVP_PKEY_pqdsa_get_type(pkey.as_ptr()) };
        let set = Set::from_nid(nid).ok_or(ParseError::Malformed)?;
        Ok(MlDsaKey { key: pkey, set })
    }

    /// A PKCS#8 `PrivateKeyInfo` in any of the three forms RFC 9881 and
    /// OpenSSL 3.5 write: the seed, the expanded key, or both (AWS-LC
    /// checks that both agree).
    pub(crate) fn from_pkcs8_der(der: &[u8]) -> std::result::Result<MlDsaKey, ParseError> {
        let pkey: Pkey = der::parse_all(der, sys::EVP_parse_private_key).ok_or(ParseError::Malformed)?;
        Self::checked(pkey)
    }

    /// An X.509 `SubjectPublicKeyInfo`.
    pub(crate) fn from_spki_der(der: &[u8]) -> std::result::Result<MlDsaKey, ParseError> {
        let pkey: Pkey = der::parse_all(der, sys::EVP_parse_public_key).ok_or(ParseError::Malformed)?;
        Self::checked(pkey)
    }

    pub(crate) fn set(&self) -> Set {
        self.set
    }

    /// The seed-form PKCS#8 (`[0] IMPLICIT OCTET STRING ξ`), what pyca and
    /// OpenSSL write by default; fails for a key without its seed.
    pub(crate) fn pkcs8_der(&self) -> Result<SecretBytes> {
        // SAFETY: the key is live; the CBB is marshal's.
        der::marshal(|cbb| unsafe { sys::EVP_marshal_private_key(cbb, self.key.as_ptr()) })
    }

    pub(crate) fn spki_der(&self) -> Result<Vec<u8>> {
        // SAFETY: as above.
        der::marshal(|cbb| unsafe { sys::EVP_marshal_public_key(cbb, self.key.as_ptr()) })
            .map(|v| v.expose().to_vec())
    }

    fn get(
        &self,
        f: unsafe extern "C" fn(*const sys::EVP_PKEY, *mut u8, *mut usize) -> c_int,
    ) -> Option<SecretBytes> {
        let mut len = 0usize;
        // SAFETY: a null buffer asks for the length.
        if unsafe { f(self.key.as_ptr(), ptr::null_mut(), &mut len) } != 1 {
            // SAFETY: clears the error queue.
            unsafe { sys::ERR_clear_error() };
            return None;
        }
        let mut out = SecretBytes::zeroed(len);
        // SAFETY: out has len writable bytes.
        let ok = unsafe { f(self.key.as_ptr(), out.expose_mut().as_mut_ptr(), &mut len) } == 1;
        // SAFETY: clears the error queue.
        unsafe { sys::ERR_clear_error() };
        out.truncate(len);
        ok.then_some(out)
    }

    /// The 32-byte seed ξ, if the key was made from it.
    pub(crate) fn seed(&self) -> Option<SecretBytes> {
        self.get(sys::EVP_PKEY_get_private_seed)
    }

    /// The expanded private key, if this is a private key.
    pub(crate) fn expanded(&self) -> Option<SecretBytes> {
        self.get(sys::EVP_PKEY_get_raw_private_key)
    }

    /// The raw public key.
    pub(crate) fn public_raw(&self) -> Result<Vec<u8>> {
        self.get(sys::EVP_PKEY_get_raw_public_key)
            .map(|b| b.expose().to_vec())
            .ok_or(BackendError)
    }

    /// ML-DSA.Sign (hedged) of `message` under `context` (0–255 bytes; the
    /// caller checks), the signature in `sig` (the set's length).
    pub(crate) fn sign(&self, message: &[u8], context: &[u8], sig: &mut [u8]) -> Result<()> {
        let md = self.digest_ctx(context, true)?;
        let mut len = sig.len();
        // SAFETY: md is initialised for signing; sig is len writable bytes;
        // message is message.len() readable bytes.
        check(unsafe {
            sys::EVP_DigestSign(
                md.as_ptr(),
                sig.as_mut_ptr(),
                &mut len,
                message.as_ptr(),
                message.len(),
            )
        })?;
        (len == sig.len()).then_some(()).ok_or(BackendError)
    }

    /// ML-DSA.Verify of `sig` over `message` under `context`.
    pub(crate) fn verify(&self, message: &[u8], context: &[u8], sig: &[u8]) -> Result<bool> {
        let md = self.digest_ctx(context, false)?;
        // SAFETY: md is initialised for verifying; the slices are readable.
        let ok = unsafe {
            sys::EVP_DigestVerify(
                md.as_ptr(),
                sig.as_ptr(),
                sig.len(),
                message.as_ptr(),
                message.len(),
            )
        };
        // SAFETY: clears the error queue a failed verification leaves.
        unsafe { sys::ERR_clear_error() };
        Ok(ok == 1)
    }

    /// An `EVP_MD_CTX` set up to sign (or verify) with this key and `context`.
    fn digest_ctx(&self, context: &[u8], signing: bool) -> Result<MdCtx> {
        // SAFETY: no preconditions; the context is ours.
        let md = unsafe { own::<MdCtx>(sys::EVP_MD_CTX_new()) }.ok_or(BackendError)?;
        let mut pctx: *mut sys::EVP_PKEY_CTX = ptr::null_mut();
        // SAFETY: md is live; the key is live (the context takes a
        // reference); pctx receives a context owned by md.
        check(unsafe {
            if signing {
                sys::EVP_DigestSignInit(
                    md.as_ptr(),
                    &mut pctx,
                    ptr::null(),
                    ptr::null_mut(),
                    self.key.as_ptr(),
                )
            } else {
                sys::EVP_DigestVerifyInit(
                    md.as_ptr(),
                    &mut pctx,
                    ptr::null(),
                    ptr::null_mut(),
                    self.key.as_ptr(),
                )
            }
        })?;
        if !context.is_empty() {
            // SAFETY: pctx is md's live context; AWS-LC copies the context
            // (and refuses one over 255 bytes).
            check(unsafe {
                sys::EVP_PKEY_CTX_set1_signature_context_string(pctx, context.as_ptr(), context.len())
            })?;
        }
        Ok(md)
    }

    fn pkey_ctx(&self) -> Result<PkeyCtx> {
        // SAFETY: the key is live; the context takes its own reference.
        unsafe { own::<PkeyCtx>(sys::EVP_PKEY_CTX_new(self.key.as_ptr(), ptr::null_mut())) }
            .ok_or(BackendError)
    }

    /// ML-DSA.Sign_internal on an external μ (hedged).
    pub(crate) fn sign_mu(&self, mu: &[u8; MU_LEN], sig: &mut [u8]) -> Result<()> {
        let ctx = self.pkey_ctx()?;
        // SAFETY: ctx is live.
        check(unsafe { sys::EVP_PKEY_sign_init(ctx.as_ptr()) })?;
        let mut len = sig.len();
        // SAFETY: ctx is initialised for signing; sig is len writable bytes,
        // mu MU_LEN readable.
        check(unsafe {
            sys::EVP_PKEY_sign(ctx.as_ptr(), sig.as_mut_ptr(), &mut len, mu.as_ptr(), mu.len())
        })?;
        (len == sig.len()).then_some(()).ok_or(BackendError)
    }

    /// ML-DSA.Sign_internal on an external μ with the given randomness
    /// `rnd` (all zero: FIPS 204's deterministic variant), which the
    /// `EVP` API does not take.
    pub(crate) fn sign_mu_with(&self, mu: &[u8; MU_LEN], rnd: &[u8; RND_LEN], sig: &mut [u8]) -> Result<()> {
        let sign = match self.set {
            Set::MlDsa44 => internal::ml_dsa_extmu_44_sign_internal,
            Set::MlDsa65 => internal::ml_dsa_extmu_65_sign_internal,
            Set::MlDsa87 => internal::ml_dsa_extmu_87_sign_internal,
        };
        let expanded = self.expanded().ok_or(BackendError)?;
        let mut len = sig.len();
        // SAFETY: `expanded` is the set's expanded private key (AWS-LC
        // wrote it, of the set's length); sig is len writable bytes, which
        // the caller sized to the set's signature; mu is MU_LEN readable
        // bytes, rnd RND_LEN; no prefix (null, 0).
        check(unsafe {
            sign(
                expanded.expose().as_ptr(),
                sig.as_mut_ptr(),
                &mut len,
                mu.as_ptr(),
                mu.len(),
                ptr::null(),
                0,
                rnd.as_ptr(),
            )
        })?;
        (len == sig.len()).then_some(()).ok_or(BackendError)
    }

    /// ML-DSA.Verify_internal on an external μ.
    pub(crate) fn verify_mu(&self, mu: &[u8; MU_LEN], sig: &[u8]) -> Result<bool> {
        let ctx = self.pkey_ctx()?;
        // SAFETY: ctx is live.
        check(unsafe { sys::EVP_PKEY_verify_init(ctx.as_ptr()) })?;
        // SAFETY: ctx is initialised for verifying; the slices are readable.
        let ok =
            unsafe { sys::EVP_PKEY_verify(ctx.as_ptr(), sig.as_ptr(), sig.len(), mu.as_ptr(), mu.len()) };
        // SAFETY: clears the error queue a failed verification leaves.
        unsafe { sys::ERR_clear_error() };
        Ok(ok == 1)
    }
}

/// SHAKE256, absorbed piece by piece (ML-DSA's μ over a streamed message).
pub(crate) struct Shake256 {
    ctx: MdCtx,
}

// SAFETY: the context is owned by this value alone and used through `&mut`.
unsafe impl Send for Shake256 {}

impl Shake256 {
    pub(crate) fn new() -> Result<Shake256> {
        // SAFETY: no preconditions; the context is ours.
        let ctx = unsafe { own::<MdCtx>(sys::EVP_MD_CTX_new()) }.ok_or(BackendError)?;
        // SAFETY: ctx is live; EVP_shake256 is a static table.
        check(unsafe { sys::EVP_DigestInit_ex(ctx.as_ptr(), sys::EVP_shake256(), ptr::null_mut()) })?;
        Ok(Shake256 { ctx })
    }

    pub(crate) fn update(&mut self, data: &[u8]) {
        // SAFETY: ctx is initialised; data is readable. Absorbing cannot
        // fail on an initialised SHAKE context.
        unsafe { sys::EVP_DigestUpdate(self.ctx.as_ptr(), data.as_ptr().cast(), data.len()) };
    }

    /// An independent copy of the state absorbed so far.
    pub(crate) fn try_clone(&self) -> Result<Shake256> {
        // SAFETY: no preconditions; the context is ours.
        let ctx = unsafe { own::<MdCtx>(sys::EVP_MD_CTX_new()) }.ok_or(BackendError)?;
        // SAFETY: both contexts are live; the source is initialised.
        check(unsafe { sys::EVP_MD_CTX_copy_ex(ctx.as_ptr(), self.ctx.as_ptr()) })?;
        Ok(Shake256 { ctx })
    }

    pub(crate) fn finish(self, out: &mut [u8]) -> Result<()> {
        // SAFETY: ctx is initialised with an XOF; out is writable.
        check(unsafe { sys::EVP_DigestFinalXOF(self.ctx.as_ptr(), out.as_mut_ptr(), out.len()) })
    }
}
