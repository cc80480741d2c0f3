//! RSA keys in AWS-LC: the `RSA` object (parsing, encoding, components,
//! public operations), and the padding functions parcrypt combines with its
//! own parallel private operation (PSS, PKCS#1 v1.5, OAEP).
#![allow(unsafe_code)]

use std::os::raw::c_int;
use std::ptr;

use crate::secret::SecretBytes;
use aws_lc_sys as sys;

use super::bn::Bn;
use super::der::{ParseError, Pkey, marshal, parse_all};
use super::error::{BackendError, Result, check};
use super::internal;
use super::owned::{Owned, own};
use crate::digest::Algorithm;

pub(crate) use super::owned::RsaKey;

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

impl Pkey {
    fn into_rsa(self) -> std::result::Result<RsaKey, ParseError> {
        // SAFETY: self.0 is live.
        let id = unsafe { sys::EVP_PKEY_id(self.as_ptr()) };
        if id != sys::EVP_PKEY_RSA {
            return Err(ParseError::WrongType(id));
        }
        // SAFETY: an RSA EVP_PKEY; get1 returns a new reference we own.
        unsafe { own(sys::EVP_PKEY_get1_RSA(self.as_ptr())) }.ok_or(ParseError::Malformed)
    }

    fn of(rsa: &RsaKey) -> Result<Pkey> {
        // SAFETY: no preconditions.
        let pkey: Pkey = unsafe { own(sys::EVP_PKEY_new()) }.ok_or(BackendError)?;
        // SAFETY: both live; set1 takes its own reference to the RSA.
        check(unsafe { sys::EVP_PKEY_set1_RSA(pkey.as_ptr(), rsa.as_ptr()) })?;
        Ok(pkey)
    }
}

impl RsaKey {
    fn ptr(&self) -> *mut sys::RSA {
        self.as_ptr()
    }

    /// A PKCS#1 `RSAPrivateKey`.
    pub(crate) fn from_pkcs1_private_der(der: &[u8]) -> std::result::Result<RsaKey, ParseError> {
        parse_all(der, sys::RSA_parse_private_key).ok_or(ParseError::Malformed)
    }

    /// A PKCS#1 `RSAPublicKey`.
    pub(crate) fn from_pkcs1_public_der(der: &[u8]) -> std::result::Result<RsaKey, ParseError> {
        parse_all(der, sys::RSA_parse_public_key).ok_or(ParseError::Malformed)
    }

    /// A PKCS#8 `PrivateKeyInfo` holding an RSA key.
    pub(crate) fn from_pkcs8_der(der: &[u8]) -> std::result::Result<RsaKey, ParseError> {
        parse_all::<Pkey>(der, sys::EVP_parse_private_key)
            .ok_or(ParseError::Malformed)?
            .into_rsa()
    }

    /// An X.509 `SubjectPublicKeyInfo` holding an RSA key.
    pub(crate) fn from_spki_der(der: &[u8]) -> std::result::Result<RsaKey, ParseError> {
        parse_all::<Pkey>(der, sys::EVP_parse_public_key)
            .ok_or(ParseError::Malformed)?
            .into_rsa()
    }

    /// A public key from its modulus and exponent (AWS-LC checks them).
    pub(crate) fn from_public_components(n: &Bn, e: &Bn) -> Result<RsaKey> {
        // SAFETY: both are live BIGNUMs; AWS-LC copies them.
        let rsa = unsafe { sys::RSA_new_public_key(n.cptr(), e.cptr()) };
        // SAFETY: a new key (or null) that we own.
        unsafe { own(rsa) }.ok_or(BackendError)
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
        // SAFETY: a new key (or null) that we own.
        unsafe { own(rsa) }.ok_or(BackendError)
    }

    /// The public half.
    pub(crate) fn public(&self) -> Result<RsaKey> {
        // SAFETY: self is live; returns a new object we own.
        unsafe { own(sys::RSAPublicKey_dup(self.ptr())) }.ok_or(BackendError)
    }

    pub(crate) fn pkcs1_private_der(&self) -> Result<SecretBytes> {
        // SAFETY: self is live; the CBB is initialised by `marshal`.
        marshal(|cbb| unsafe { sys::RSA_marshal_private_key(cbb, self.ptr()) })
    }

    pub(crate) fn pkcs1_public_der(&self) -> Result<Vec<u8>> {
        // SAFETY: as above.
        marshal(|cbb| unsafe { sys::RSA_marshal_public_key(cbb, self.ptr()) }).map(|v| v.expose().to_vec())
    }

    pub(crate) fn pkcs8_der(&self) -> Result<SecretBytes> {
        let pkey = Pkey::of(self)?;
        // SAFETY: as above.
        marshal(|cbb| unsafe { sys::EVP_marshal_private_key(cbb, pkey.as_ptr()) })
    }

    pub(crate) fn spki_der(&self) -> Result<Vec<u8>> {
        let pkey = Pkey::of(self)?;
        // SAFETY: as above.
        marshal(|cbb| unsafe { sys::EVP_marshal_public_key(cbb, pkey.as_ptr()) }).map(|v| v.expose().to_vec())
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
    pub(crate) fn pss_encode(&self, em: &mut [u8], digest: &[u8], hash: Algorithm) -> Result<()> {
        assert_eq!(em.len(), self.size());
        // AWS-LC reads the hash's length from `digest` without knowing its
        // length: a shorter digest would be read past its end.
        if digest.len() != hash.len() {
            return Err(BackendError);
        }
        // SAFETY: em holds RSA_size bytes; digest has the hash's length (checked).
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
    pub(crate) fn verify_pss(
        &self,
        digest: &[u8],
        hash: Algorithm,
        salt_len: Option<usize>,
        sig: &[u8],
    ) -> bool {
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
    pub(crate) fn verify_pkcs1(&self, digest: &[u8], hash: Algorithm, sig: &[u8]) -> bool {
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

/// EME-OAEP encoding of `msg` with `label`, `hash` and MGF1-`mgf1` into all of `em`.
pub(crate) fn oaep_encode(
    em: &mut [u8],
    msg: &[u8],
    label: &[u8],
    hash: Algorithm,
    mgf1: Algorithm,
) -> Result<()> {
    // SAFETY: em, msg and label are valid slices (an empty label's pointer
    // is dangling but never read at length 0).
    check(unsafe {
        sys::RSA_padding_add_PKCS1_OAEP_mgf1(
            em.as_mut_ptr(),
            em.len(),
            msg.as_ptr(),
            msg.len(),
            label.as_ptr(),
            label.len(),
            md(hash),
            md(mgf1),
        )
    })
}

/// EME-OAEP decoding of `em` with `label`, in constant time; the message
/// length, or `None` for any decoding error (which are not told apart).
pub(crate) fn oaep_decode(
    out: &mut [u8],
    em: &[u8],
    label: &[u8],
    hash: Algorithm,
    mgf1: Algorithm,
) -> Option<usize> {
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
pub(crate) fn pkcs1_sig_encode(em: &mut [u8], digest: &[u8], hash: Algorithm) -> Result<()> {
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

/// The `EVP_MD` of a hash, for the padding functions.
fn md(hash: Algorithm) -> *const sys::EVP_MD {
    // SAFETY: the EVP_sha* functions return pointers to static tables.
    unsafe {
        match hash {
            Algorithm::Sha1 => sys::EVP_sha1(),
            Algorithm::Sha256 => sys::EVP_sha256(),
            Algorithm::Sha384 => sys::EVP_sha384(),
            Algorithm::Sha512 => sys::EVP_sha512(),
        }
    }
}

/// The NID of a hash, for PKCS#1 v1.5 `DigestInfo`.
fn nid(hash: Algorithm) -> c_int {
    match hash {
        Algorithm::Sha1 => sys::NID_sha1,
        Algorithm::Sha256 => sys::NID_sha256,
        Algorithm::Sha384 => sys::NID_sha384,
        Algorithm::Sha512 => sys::NID_sha512,
    }
}
