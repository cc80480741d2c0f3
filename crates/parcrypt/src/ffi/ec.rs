//! P-256 keys, ECDSA and point arithmetic from AWS-LC.
//!
//! Signing is AWS-LC's `ECDSA_do_sign` (constant-time). Verification comes
//! in two shapes: AWS-LC's `ECDSA_do_verify`, which computes u1·G + u2·Q in
//! one variable-time joint multiplication (public data only), and the two
//! separate multiplications the JCE paper runs on two threads
//! (`EC_POINT_mul` with the generator's precomputed table for u1·G, the
//! general constant-time ladder for u2·Q), added afterwards.
#![allow(unsafe_code)]

use std::os::raw::c_int;
use std::ptr;

use crate::secret::SecretBytes;
use aws_lc_sys as sys;

use super::bn::{Bn, Ctx};
use super::der::{self, ParseError, Pkey};
use super::error::{BackendError, Result, check};
use super::owned::{EcdsaSig, Owned, own};

/// The P-256 group (a static object in AWS-LC: shared read-only).
fn p256() -> *const sys::EC_GROUP {
    // SAFETY: returns a pointer to a static, immutable group.
    unsafe { sys::EC_group_p256() }
}

/// The order n of P-256 (copied once per process).
pub(crate) fn order() -> &'static Bn {
    static ORDER: std::sync::OnceLock<Bn> = std::sync::OnceLock::new();
    ORDER.get_or_init(|| {
        // SAFETY: the static group's order lives as long as the program.
        let n = unsafe { sys::EC_GROUP_get0_order(p256()) };
        // SAFETY: n is a live BIGNUM.
        unsafe { Bn::dup_of_ptr(n) }
    })
}

pub(crate) use super::owned::EcKey;

// SAFETY: parcrypt never mutates an EC_KEY after construction, and AWS-LC's
// signing and verification take it as `const EC_KEY *`.
unsafe impl Send for EcKey {}
// SAFETY: as above.
unsafe impl Sync for EcKey {}

impl std::fmt::Debug for EcKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("EcKey(P-256)")
    }
}

/// Why a point or key was refused.
fn curve_is_p256(key: *const sys::EC_KEY) -> bool {
    // SAFETY: key is live; its group is static or owned by it.
    unsafe { sys::EC_GROUP_get_curve_name(sys::EC_KEY_get0_group(key)) == sys::NID_X9_62_prime256v1 }
}

/// A point on P-256.
pub(crate) use super::owned::Point;

// SAFETY: an EC_POINT is plain memory with no thread affinity; moved, not shared.
unsafe impl Send for Point {}

impl Point {
    fn new() -> Result<Point> {
        // SAFETY: the group is static; the new point is ours.
        unsafe { own(sys::EC_POINT_new(p256())) }.ok_or(BackendError)
    }
}

/// An ECDSA signature's two integers.
pub(crate) struct Sig {
    pub(crate) r: Bn,
    pub(crate) s: Bn,
}

impl Sig {
    /// Parses strict DER `Ecdsa-Sig-Value`; `None` for anything else (BER
    /// variants, trailing bytes, negative integers).
    pub(crate) fn from_der(der: &[u8]) -> Option<Sig> {
        // SAFETY: der is a valid slice; the result is owned by us.
        let sig: Option<EcdsaSig> = unsafe { own(sys::ECDSA_SIG_from_bytes(der.as_ptr(), der.len())) };
        // SAFETY: clears the error queue of a failed parse.
        unsafe { sys::ERR_clear_error() };
        let sig = sig?;
        let (mut r, mut s) = (ptr::null(), ptr::null());
        // SAFETY: sig is live; the getters return borrowed pointers.
        unsafe { sys::ECDSA_SIG_get0(sig.as_ptr(), &mut r, &mut s) };
        // SAFETY: r and s are live while sig is; copied before it is freed.
        Some(unsafe {
            Sig {
                r: Bn::dup_of_ptr(r),
                s: Bn::dup_of_ptr(s),
            }
        })
    }

    /// DER encoding.
    pub(crate) fn to_der(&self) -> Result<Vec<u8>> {
        let sig = self.to_ecdsa_sig()?;
        let mut out: *mut u8 = ptr::null_mut();
        let mut len = 0usize;
        // SAFETY: sig is live; on success we own out.
        check(unsafe { sys::ECDSA_SIG_to_bytes(&mut out, &mut len, sig.as_ptr()) })?;
        // SAFETY: out/len came from ECDSA_SIG_to_bytes.
        Ok(unsafe { der::take_buffer(out, len) }.expose().to_vec())
    }

    fn to_ecdsa_sig(&self) -> Result<EcdsaSig> {
        // SAFETY: no preconditions; the new signature is ours.
        let sig: EcdsaSig = unsafe { own(sys::ECDSA_SIG_new()) }.ok_or(BackendError)?;
        let (r, s) = (self.r.dup(), self.s.dup());
        // SAFETY: set0 takes ownership of r and s; we forget our handles.
        check(unsafe { sys::ECDSA_SIG_set0(sig.as_ptr(), r.ptr(), s.ptr()) })?;
        std::mem::forget(r);
        std::mem::forget(s);
        Ok(sig)
    }
}

impl EcKey {
    fn ptr(&self) -> *const sys::EC_KEY {
        self.as_ptr()
    }

    fn checked(key: EcKey) -> std::result::Result<EcKey, ParseError> {
        if !curve_is_p256(key.ptr()) {
            return Err(ParseError::NotP256);
        }
        // SAFETY: key is live; the check only reads.
        let ok = unsafe { sys::EC_KEY_check_key(key.ptr()) } == 1;
        // SAFETY: clears the error queue.
        unsafe { sys::ERR_clear_error() };
        if ok { Ok(key) } else { Err(ParseError::Malformed) }
    }

    /// A fresh random P-256 key.
    pub(crate) fn generate() -> Result<EcKey> {
        // SAFETY: no preconditions; the new key is ours.
        let key: EcKey =
            unsafe { own(sys::EC_KEY_new_by_curve_name(sys::NID_X9_62_prime256v1)) }.ok_or(BackendError)?;
        // SAFETY: key is live and ours.
        check(unsafe { sys::EC_KEY_generate_key(key.as_ptr()) })?;
        Ok(key)
    }

    /// A SEC1 `ECPrivateKey` (named curve parameters).
    pub(crate) fn from_sec1_der(der: &[u8]) -> std::result::Result<EcKey, ParseError> {
        // SAFETY: wraps EC_KEY_parse_private_key with a null group (read from the DER).
        unsafe extern "C" fn parse(cbs: *mut sys::CBS) -> *mut sys::EC_KEY {
            // SAFETY: cbs is initialised by parse_all.
            unsafe { sys::EC_KEY_parse_private_key(cbs, ptr::null()) }
        }
        let key = der::parse_all(der, parse).ok_or(ParseError::Malformed)?;
        Self::checked(key)
    }

    /// A PKCS#8 `PrivateKeyInfo` holding an EC key.
    pub(crate) fn from_pkcs8_der(der: &[u8]) -> std::result::Result<EcKey, ParseError> {
        let pkey: Pkey = der::parse_all(der, sys::EVP_parse_private_key).ok_or(ParseError::Malformed)?;
        Self::checked(pkey.into_ec()?)
    }

    /// An X.509 `SubjectPublicKeyInfo` holding an EC key.
    pub(crate) fn from_spki_der(der: &[u8]) -> std::result::Result<EcKey, ParseError> {
        let pkey: Pkey = der::parse_all(der, sys::EVP_parse_public_key).ok_or(ParseError::Malformed)?;
        Self::checked(pkey.into_ec()?)
    }

    /// A public key from a SEC1 point encoding (uncompressed `04‖x‖y` or compressed).
    pub(crate) fn from_point(bytes: &[u8]) -> std::result::Result<EcKey, ParseError> {
        // SAFETY: no preconditions; the new key is ours.
        let key: EcKey = unsafe { own(sys::EC_KEY_new_by_curve_name(sys::NID_X9_62_prime256v1)) }
            .ok_or(ParseError::Malformed)?;
        let point = Point::new().map_err(|_| ParseError::Malformed)?;
        let mut ctx = Ctx::new();
        // SAFETY: all live; bytes is a valid slice. oct2point checks the point is on the curve.
        let ok = unsafe {
            sys::EC_POINT_oct2point(p256(), point.as_ptr(), bytes.as_ptr(), bytes.len(), ctx.ptr()) == 1
                && sys::EC_KEY_set_public_key(key.as_ptr(), point.as_ptr()) == 1
        };
        // SAFETY: clears the error queue.
        unsafe { sys::ERR_clear_error() };
        if !ok {
            return Err(ParseError::Malformed);
        }
        Self::checked(key)
    }

    /// SEC1 DER with the named curve and the public key, as `openssl ec` writes.
    pub(crate) fn sec1_der(&self) -> Result<SecretBytes> {
        // SAFETY: self is live; the CBB is initialised by `marshal`; flags 0
        // include the curve OID and the public key.
        der::marshal(|cbb| unsafe { sys::EC_KEY_marshal_private_key(cbb, self.ptr(), 0) })
    }

    pub(crate) fn pkcs8_der(&self) -> Result<SecretBytes> {
        let pkey = Pkey::of_ec(self)?;
        // SAFETY: as above.
        der::marshal(|cbb| unsafe { sys::EVP_marshal_private_key(cbb, pkey.as_ptr()) })
    }

    pub(crate) fn spki_der(&self) -> Result<Vec<u8>> {
        let pkey = Pkey::of_ec(self)?;
        // SAFETY: as above.
        der::marshal(|cbb| unsafe { sys::EVP_marshal_public_key(cbb, pkey.as_ptr()) })
            .map(|v| v.expose().to_vec())
    }

    /// Whether the key holds a private scalar.
    pub(crate) fn has_private(&self) -> bool {
        // SAFETY: self is live.
        !unsafe { sys::EC_KEY_get0_private_key(self.ptr()) }.is_null()
    }

    /// The public point, uncompressed (65 bytes).
    pub(crate) fn public_point(&self) -> Result<Vec<u8>> {
        // SAFETY: self is live; the point is borrowed from it.
        let point = unsafe { sys::EC_KEY_get0_public_key(self.ptr()) };
        if point.is_null() {
            return Err(BackendError);
        }
        let mut out = vec![0u8; 65];
        let mut ctx = Ctx::new();
        // SAFETY: out has room for an uncompressed P-256 point.
        let len = unsafe {
            sys::EC_POINT_point2oct(
                p256(),
                point,
                sys::point_conversion_form_t::POINT_CONVERSION_UNCOMPRESSED,
                out.as_mut_ptr(),
                out.len(),
                ctx.ptr(),
            )
        };
        if len != 65 {
            return Err(check(0).expect_err("0 is failure"));
        }
        Ok(out)
    }

    /// The public half.
    pub(crate) fn public(&self) -> Result<EcKey> {
        EcKey::from_point(&self.public_point()?).map_err(|_| BackendError)
    }

    /// Signs a digest (AWS-LC: constant-time, nonce from the RNG mixed with
    /// the key and digest).
    pub(crate) fn sign_digest(&self, digest: &[u8]) -> Result<Sig> {
        // SAFETY: digest valid; key live with a private scalar (caller).
        let sig: EcdsaSig = unsafe { own(sys::ECDSA_do_sign(digest.as_ptr(), digest.len(), self.ptr())) }
            .ok_or(BackendError)?;
        let (mut r, mut s) = (ptr::null(), ptr::null());
        // SAFETY: sig live; copies made before it is freed.
        Ok(unsafe {
            sys::ECDSA_SIG_get0(sig.as_ptr(), &mut r, &mut s);
            Sig {
                r: Bn::dup_of_ptr(r),
                s: Bn::dup_of_ptr(s),
            }
        })
    }

    /// AWS-LC's verification: one joint, variable-time u1·G + u2·Q.
    pub(crate) fn verify_joint_vartime(&self, digest: &[u8], sig: &Sig) -> bool {
        let Ok(raw) = sig.to_ecdsa_sig() else {
            return false;
        };
        // SAFETY: all live; the key is only read.
        let ok =
            unsafe { sys::ECDSA_do_verify(digest.as_ptr(), digest.len(), raw.as_ptr(), self.ptr()) } == 1;
        // SAFETY: clears the error queue of a failed verify.
        unsafe { sys::ERR_clear_error() };
        ok
    }

    /// `u·Q` for this key's public point Q (AWS-LC's constant-time ladder;
    /// its input is public here, so nothing depends on that).
    pub(crate) fn mul_public_point(&self, u: &Bn, ctx: &mut Ctx) -> Result<Point> {
        let r = Point::new()?;
        // SAFETY: all live; the key's point is borrowed for the call.
        check(unsafe {
            let q = sys::EC_KEY_get0_public_key(self.ptr());
            sys::EC_POINT_mul(p256(), r.as_ptr(), ptr::null(), q, u.cptr(), ctx.ptr())
        })?;
        Ok(r)
    }
}

/// `u·G` with AWS-LC's precomputed table for the generator.
pub(crate) fn mul_generator(u: &Bn, ctx: &mut Ctx) -> Result<Point> {
    let r = Point::new()?;
    // SAFETY: all live.
    check(unsafe { sys::EC_POINT_mul(p256(), r.as_ptr(), u.cptr(), ptr::null(), ptr::null(), ctx.ptr()) })?;
    Ok(r)
}

/// Whether `a + b` is a finite point whose x coordinate mod n equals `r`.
pub(crate) fn sum_x_matches(a: &Point, b: &Point, r: &Bn, n: &Bn, ctx: &mut Ctx) -> Result<bool> {
    let sum = Point::new()?;
    let x = Bn::new();
    // SAFETY: all live.
    check(unsafe { sys::EC_POINT_add(p256(), sum.as_ptr(), a.as_ptr(), b.as_ptr(), ctx.ptr()) })?;
    // SAFETY: sum is live.
    if unsafe { sys::EC_POINT_is_at_infinity(p256(), sum.as_ptr()) } == 1 {
        return Ok(false);
    }
    // SAFETY: all live; a null y is allowed.
    check(unsafe {
        sys::EC_POINT_get_affine_coordinates_GFp(p256(), sum.as_ptr(), x.ptr(), ptr::null_mut(), ctx.ptr())
    })?;
    let x_mod_n = Bn::new();
    // SAFETY: all live.
    check(unsafe { sys::BN_nnmod(x_mod_n.ptr(), x.cptr(), n.cptr(), ctx.ptr()) })?;
    Ok(x_mod_n.cmp_vartime(r) == std::cmp::Ordering::Equal)
}

/// The verification scalars `u1 = e·s⁻¹`, `u2 = r·s⁻¹` (mod n) of a digest
/// and signature, or `None` unless 0 < r, s < n. `e` is the digest's leftmost
/// 256 bits, as ECDSA specifies (public values: variable-time is fine).
pub(crate) fn verify_scalars_vartime(
    digest: &[u8],
    sig: &Sig,
    n: &Bn,
    ctx: &mut Ctx,
) -> Result<Option<(Bn, Bn)>> {
    let zero = Bn::new();
    let in_range = |v: &Bn| {
        v.cmp_vartime(&zero) == std::cmp::Ordering::Greater && v.cmp_vartime(n) == std::cmp::Ordering::Less
    };
    if !in_range(&sig.r) || !in_range(&sig.s) {
        return Ok(None);
    }
    let e = Bn::from_be_bytes(&digest[..digest.len().min(32)]);
    let (w, u1, u2) = (Bn::new(), Bn::new(), Bn::new());
    let mut no_inverse: c_int = 0;
    // SAFETY: all live; n is odd (a prime order) and s < n.
    check(unsafe { sys::BN_mod_inverse_odd(w.ptr(), &mut no_inverse, sig.s.cptr(), n.cptr(), ctx.ptr()) })?;
    // SAFETY: all live.
    check(unsafe { sys::BN_mod_mul(u1.ptr(), e.cptr(), w.cptr(), n.cptr(), ctx.ptr()) })?;
    // SAFETY: all live.
    check(unsafe { sys::BN_mod_mul(u2.ptr(), sig.r.cptr(), w.cptr(), n.cptr(), ctx.ptr()) })?;
    Ok(Some((u1, u2)))
}

impl Pkey {
    fn into_ec(self) -> std::result::Result<EcKey, ParseError> {
        // SAFETY: self.0 is live.
        let id = unsafe { sys::EVP_PKEY_id(self.as_ptr()) };
        if id != sys::EVP_PKEY_EC {
            return Err(ParseError::WrongType(id));
        }
        // SAFETY: an EC EVP_PKEY; get1 returns a new reference we own.
        unsafe { own(sys::EVP_PKEY_get1_EC_KEY(self.as_ptr())) }.ok_or(ParseError::Malformed)
    }

    fn of_ec(key: &EcKey) -> Result<Pkey> {
        // SAFETY: no preconditions.
        let pkey: Pkey = unsafe { own(sys::EVP_PKEY_new()) }.ok_or(BackendError)?;
        // SAFETY: both live; set1 takes its own reference to the key.
        check(unsafe { sys::EVP_PKEY_set1_EC_KEY(pkey.as_ptr(), key.as_ptr()) })?;
        Ok(pkey)
    }
}
