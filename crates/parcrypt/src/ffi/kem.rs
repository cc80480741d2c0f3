//! ML-KEM-512/768/1024 (FIPS 203) through AWS-LC's EVP interface: key
//! pairs (random, or from the 64-byte seed `d ‖ z`), encapsulation (random,
//! or with caller-supplied randomness `m`, for known-answer tests and for
//! age, whose files are a function of the randomness handed in),
//! decapsulation (the standard's implicitly rejecting one), and the key
//! encodings: PKCS#8 in the three private-key forms of RFC 9935 (seed,
//! expanded, both), SPKI, raw encapsulation keys.
//!
//! The safe `aws_lc_rs::kem` API lacks keys from a seed, the seed form of
//! PKCS#8 and encapsulation with given randomness, which is why these are
//! here.
#![allow(unsafe_code)]

use std::os::raw::c_int;
use std::ptr;

use aws_lc_sys as sys;

use super::der::{self, ParseError};
use super::error::{BackendError, Result, check};
use super::owned::{Owned, Pkey, PkeyCtx, own};
use crate::secret::{SecretBytes, SecretKey};

/// One ML-KEM parameter set: AWS-LC's NID and FIPS 203's sizes (Table 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Kem {
    pub(crate) nid: c_int,
    /// The encapsulation key, `ek`: 384·k + 32 bytes.
    pub(crate) public_len: usize,
    /// The expanded decapsulation key, `dk = dk_PKE ‖ ek ‖ H(ek) ‖ z`.
    pub(crate) expanded_len: usize,
    pub(crate) ciphertext_len: usize,
}

/// ML-KEM-512 (k = 2).
pub(crate) const ML_KEM_512: Kem = Kem {
    nid: sys::NID_MLKEM512,
    public_len: 800,
    expanded_len: 1632,
    ciphertext_len: 768,
};
/// ML-KEM-768 (k = 3).
pub(crate) const ML_KEM_768: Kem = Kem {
    nid: sys::NID_MLKEM768,
    public_len: 1184,
    expanded_len: 2400,
    ciphertext_len: 1088,
};
/// ML-KEM-1024 (k = 4).
pub(crate) const ML_KEM_1024: Kem = Kem {
    nid: sys::NID_MLKEM1024,
    public_len: 1568,
    expanded_len: 3168,
    ciphertext_len: 1568,
};

/// The key-generation seed `d ‖ z`, every parameter set.
pub(crate) const SEED_LEN: usize = 64;
/// The shared secret, every parameter set.
pub(crate) const SHARED_SECRET_LEN: usize = 32;

/// ML-KEM-768 encapsulation key bytes (age's recipients).
pub(crate) const MLKEM768_PUBLIC: usize = ML_KEM_768.public_len;
/// ML-KEM-768 ciphertext bytes (age's recipients).
pub(crate) const MLKEM768_CIPHERTEXT: usize = ML_KEM_768.ciphertext_len;

impl Kem {
    fn of_nid(nid: c_int) -> Option<Kem> {
        [ML_KEM_512, ML_KEM_768, ML_KEM_1024]
            .into_iter()
            .find(|k| k.nid == nid)
    }

    /// The parameter set of a parsed KEM key; a key of another type is
    /// refused with its type.
    fn of_key(key: &Pkey) -> std::result::Result<Kem, ParseError> {
        // SAFETY: key is live.
        let id = unsafe { sys::EVP_PKEY_id(key.as_ptr()) };
        if id != sys::EVP_PKEY_KEM {
            return Err(ParseError::WrongType(id));
        }
        // SAFETY: key is a live KEM key (checked above).
        Kem::of_nid(unsafe { sys::EVP_PKEY_kem_get_type(key.as_ptr()) }).ok_or(ParseError::Malformed)
    }

    /// A key-generation context for this parameter set.
    fn keygen_ctx(&self) -> Result<PkeyCtx> {
        // SAFETY: EVP_PKEY_CTX_new_id has no preconditions.
        let ctx = unsafe { own::<PkeyCtx>(sys::EVP_PKEY_CTX_new_id(sys::EVP_PKEY_KEM, ptr::null_mut())) }
            .ok_or(BackendError)?;
        // SAFETY: ctx is live.
        check(unsafe { sys::EVP_PKEY_keygen_init(ctx.as_ptr()) })?;
        // SAFETY: ctx is live and a KEM context.
        check(unsafe { sys::EVP_PKEY_CTX_kem_set_params(ctx.as_ptr(), self.nid) })?;
        Ok(ctx)
    }
}

/// Why a KEM key was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Refused {
    /// Not DER of the expected structure, or a key of another type.
    Parse(ParseError),
    /// Well-formed, but failing FIPS 203's key checks (§7.2, §7.3): an
    /// encapsulation key with a coefficient ≥ q, an expanded decapsulation
    /// key whose `H(ek)` or pair-wise consistency is wrong, or a "both"
    /// key whose expanded half is not the one its seed makes.
    Invalid,
}

impl From<ParseError> for Refused {
    fn from(e: ParseError) -> Self {
        Refused::Parse(e)
    }
}

impl PkeyCtx {
    fn for_key(key: &Pkey) -> Result<PkeyCtx> {
        // SAFETY: key is a live EVP_PKEY; the context takes its own reference.
        unsafe { own::<PkeyCtx>(sys::EVP_PKEY_CTX_new(key.as_ptr(), ptr::null_mut())) }.ok_or(BackendError)
    }
}

/// AWS-LC's key checks (FIPS 203 §7.2 modulus check of `ek`; for a pair,
/// also §7.3's `H(ek)` check and an encapsulate/decapsulate round trip).
fn checked(key: Pkey, public_only: bool) -> std::result::Result<Pkey, Refused> {
    let ctx = PkeyCtx::for_key(&key).map_err(|_| Refused::Invalid)?;
    // SAFETY: ctx is live and holds a KEM key.
    let ok = unsafe {
        if public_only {
            sys::EVP_PKEY_public_check(ctx.as_ptr())
        } else {
            sys::EVP_PKEY_check(ctx.as_ptr())
        }
    };
    check(ok).map_err(|_| Refused::Invalid)?;
    Ok(key)
}

/// Reads the DER of `der` as `SEQUENCE { … }` parts with AWS-LC's CBS.
struct Cbs<'a> {
    cbs: sys::CBS,
    _der: std::marker::PhantomData<&'a [u8]>,
}

impl<'a> Cbs<'a> {
    fn new(der: &'a [u8]) -> Self {
        let mut cbs = sys::CBS {
            data: ptr::null(),
            len: 0,
        };
        // SAFETY: der outlives the Cbs (its lifetime).
        unsafe { sys::CBS_init(&mut cbs, der.as_ptr(), der.len()) };
        Cbs {
            cbs,
            _der: std::marker::PhantomData,
        }
    }

    /// The next element, which must carry `tag`: its contents.
    fn get(&mut self, tag: sys::CBS_ASN1_TAG) -> Option<Cbs<'a>> {
        let mut out = Cbs::new(&[]);
        // SAFETY: both CBSs are initialised; `out` points into `self`'s
        // bytes, which live for 'a.
        (unsafe { sys::CBS_get_asn1(&mut self.cbs, &mut out.cbs, tag) } == 1).then_some(out)
    }

    fn bytes(&self) -> &'a [u8] {
        if self.cbs.len == 0 {
            return &[];
        }
        // SAFETY: a CBS's data/len describe bytes of the slice it was made
        // from, which lives for 'a.
        unsafe { std::slice::from_raw_parts(self.cbs.data, self.cbs.len) }
    }

    fn is_empty(&self) -> bool {
        self.cbs.len == 0
    }
}

/// RFC 9935's "both" private key, which AWS-LC does not read: PKCS#8 v1
/// or v2 whose `privateKey` is `SEQUENCE { seed OCTET STRING (64),
/// expandedKey OCTET STRING }`. Returns the parameter set, the seed and
/// the expanded key; `None` for anything else.
fn parse_both(der: &[u8]) -> Option<(Kem, &[u8], &[u8])> {
    const SEQUENCE: sys::CBS_ASN1_TAG = sys::CBS_ASN1_SEQUENCE as sys::CBS_ASN1_TAG;
    const OCTET_STRING: sys::CBS_ASN1_TAG = sys::CBS_ASN1_OCTETSTRING as sys::CBS_ASN1_TAG;
    let mut all = Cbs::new(der);
    let mut info = all.get(SEQUENCE)?;
    if !all.is_empty() {
        return None;
    }
    let version = info.get(sys::CBS_ASN1_INTEGER as sys::CBS_ASN1_TAG)?;
    if !matches!(version.bytes(), [0] | [1]) {
        return None;
    }
    let mut algorithm = info.get(SEQUENCE)?;
    let oid = algorithm.get(sys::CBS_ASN1_OBJECT as sys::CBS_ASN1_TAG)?;
    if !algorithm.is_empty() {
        // RFC 9935: the parameters are absent.
        return None;
    }
    // SAFETY: oid's CBS is initialised.
    let kem = Kem::of_nid(unsafe { sys::OBJ_cbs2nid(&oid.cbs) })?;
    let mut private = info.get(OCTET_STRING)?;
    // What follows `privateKey` (attributes, a v2 public key) is not read,
    // as AWS-LC's own parser does not.
    let mut both = private.get(SEQUENCE)?;
    let seed = both.get(OCTET_STRING)?;
    let expanded = both.get(OCTET_STRING)?;
    (private.is_empty() && both.is_empty()).then_some((kem, seed.bytes(), expanded.bytes()))
}

/// An ML-KEM decapsulation (private) key. Its `EVP_PKEY` holds the
/// expanded key, the encapsulation key and (when it was made from one) the
/// seed; freed, and cleansed by AWS-LC, on drop.
pub(crate) struct DecapsulationKey {
    key: Pkey,
    kem: Kem,
}

// SAFETY: the EVP_PKEY is not modified after it is made; every operation
// makes its own EVP_PKEY_CTX (which takes a reference) and keeps per-call
// state there.
unsafe impl Send for DecapsulationKey {}
// SAFETY: as above.
unsafe impl Sync for DecapsulationKey {}

impl DecapsulationKey {
    /// A new key pair from a random seed (AWS-LC draws it and keeps it).
    pub(crate) fn generate(kem: Kem) -> Result<DecapsulationKey> {
        let ctx = kem.keygen_ctx()?;
        let mut out: *mut sys::EVP_PKEY = ptr::null_mut();
        // SAFETY: ctx is a live KEM key-generation context; out receives a
        // new key we own.
        check(unsafe { sys::EVP_PKEY_keygen(ctx.as_ptr(), &mut out) })?;
        Ok(DecapsulationKey {
            // SAFETY: on success `out` is a new key we own.
            key: unsafe { own::<Pkey>(out) }.ok_or(BackendError)?,
            kem,
        })
    }

    /// ML-KEM.KeyGen_internal(d, z) with `seed = d ‖ z`.
    pub(crate) fn from_seed(kem: Kem, seed: &[u8; SEED_LEN]) -> Result<DecapsulationKey> {
        let ctx = kem.keygen_ctx()?;
        let mut out: *mut sys::EVP_PKEY = ptr::null_mut();
        let mut seed_len = seed.len();
        // SAFETY: ctx is live; out receives a new key we own; seed is
        // seed_len readable bytes (the length ML-KEM requires; AWS-LC
        // checks it).
        check(unsafe {
            sys::EVP_PKEY_keygen_deterministic(ctx.as_ptr(), &mut out, seed.as_ptr(), &mut seed_len)
        })?;
        Ok(DecapsulationKey {
            // SAFETY: on success `out` is a new key we own.
            key: unsafe { own::<Pkey>(out) }.ok_or(BackendError)?,
            kem,
        })
    }

    /// A PKCS#8 `PrivateKeyInfo` (or `OneAsymmetricKey`) in any of RFC
    /// 9935's three forms. A seed is expanded; an expanded key is checked
    /// as FIPS 203 §7.3 asks (`H(ek)`, the modulus check, a round trip);
    /// the "both" form must agree with its seed, as OpenSSL 3.5 requires.
    pub(crate) fn from_pkcs8_der(der: &[u8]) -> std::result::Result<DecapsulationKey, Refused> {
        let Some(key) = der::parse_all::<Pkey>(der, sys::EVP_parse_private_key) else {
            let (kem, seed, expanded) = parse_both(der).ok_or(ParseError::Malformed)?;
            let seed: &[u8; SEED_LEN] = seed.try_into().map_err(|_| Refused::Invalid)?;
            let key = Self::from_seed(kem, seed).map_err(|_| Refused::Invalid)?;
            let made = key.expanded().map_err(|_| Refused::Invalid)?;
            return aws_lc_rs::constant_time::verify_slices_are_equal(made.expose(), expanded)
                .map(|()| key)
                .map_err(|_| Refused::Invalid);
        };
        let kem = Kem::of_key(&key)?;
        let seeded = DecapsulationKey { key, kem };
        if seeded.seed().is_some() {
            return Ok(seeded);
        }
        // The expanded form: AWS-LC keeps only dk; ek is inside it, at
        // 384·k (FIPS 203 Algorithm 16), and the pair is checked whole.
        let dk = seeded.expanded().map_err(|_| Refused::Invalid)?;
        let start = kem.public_len - 32;
        let ek = &dk.expose()[start..start + kem.public_len];
        // SAFETY: ek and dk are readable for their lengths (AWS-LC checks
        // both lengths against the parameter set and copies them).
        let pair = unsafe {
            own::<Pkey>(sys::EVP_PKEY_kem_new_raw_key(
                kem.nid,
                ek.as_ptr(),
                ek.len(),
                dk.expose().as_ptr(),
                dk.len(),
            ))
        }
        .ok_or(Refused::Invalid)?;
        Ok(DecapsulationKey {
            key: checked(pair, false)?,
            kem,
        })
    }

    pub(crate) fn kem(&self) -> Kem {
        self.kem
    }

    /// The encapsulation key, `ek`.
    pub(crate) fn public_key(&self) -> Result<EncapsulationKey> {
        let mut raw = vec![0u8; self.kem.public_len];
        let mut len = raw.len();
        // SAFETY: key is live; raw has len writable bytes.
        check(unsafe { sys::EVP_PKEY_get_raw_public_key(self.key.as_ptr(), raw.as_mut_ptr(), &mut len) })?;
        if len != self.kem.public_len {
            return Err(BackendError);
        }
        // The key was made (or checked) whole: its ek passes the checks.
        EncapsulationKey::from_raw(self.kem, &raw).map_err(|_| BackendError)
    }

    /// The seed `d ‖ z`, when the key was made from one (not for a key
    /// read in the expanded form).
    pub(crate) fn seed(&self) -> Option<SecretKey<SEED_LEN>> {
        SecretKey::generate(|seed| {
            let mut len = seed.len();
            // SAFETY: key is live; seed has len writable bytes.
            check(unsafe { sys::EVP_PKEY_get_private_seed(self.key.as_ptr(), seed.as_mut_ptr(), &mut len) })?;
            (len == SEED_LEN).then_some(()).ok_or(BackendError)
        })
        .ok()
    }

    /// The expanded decapsulation key `dk` (FIPS 203's encoding).
    pub(crate) fn expanded(&self) -> Result<SecretBytes> {
        let mut dk = SecretBytes::zeroed(self.kem.expanded_len);
        let mut len = dk.len();
        // SAFETY: key is live; dk has len writable bytes.
        check(unsafe {
            sys::EVP_PKEY_get_raw_private_key(self.key.as_ptr(), dk.expose_mut().as_mut_ptr(), &mut len)
        })?;
        (len == self.kem.expanded_len).then_some(dk).ok_or(BackendError)
    }

    /// PKCS#8: the seed form (`[0] IMPLICIT OCTET STRING`, what pyca and
    /// OpenSSL 3.5 write) for a key with a seed, else the expanded form.
    pub(crate) fn pkcs8_der(&self) -> Result<SecretBytes> {
        // SAFETY: key is live; the CBB is initialised by `marshal`.
        der::marshal(|cbb| unsafe { sys::EVP_marshal_private_key(cbb, self.key.as_ptr()) })
    }

    /// ML-KEM.Decaps: the shared secret (a pseudorandom one for a
    /// ciphertext made for another key: implicit rejection). The caller
    /// checks the ciphertext's length.
    pub(crate) fn decapsulate(&self, ciphertext: &[u8]) -> Result<SecretKey<SHARED_SECRET_LEN>> {
        if ciphertext.len() != self.kem.ciphertext_len {
            return Err(BackendError);
        }
        let ctx = PkeyCtx::for_key(&self.key)?;
        SecretKey::generate(|ss| {
            let mut len = ss.len();
            // SAFETY: ctx is live; ss has len writable bytes; the ciphertext
            // is ciphertext.len() readable bytes (AWS-LC checks the length).
            check(unsafe {
                sys::EVP_PKEY_decapsulate(
                    ctx.as_ptr(),
                    ss.as_mut_ptr(),
                    &mut len,
                    ciphertext.as_ptr(),
                    ciphertext.len(),
                )
            })?;
            (len == SHARED_SECRET_LEN).then_some(()).ok_or(BackendError)
        })
    }
}

/// An ML-KEM encapsulation (public) key, checked as FIPS 203 §7.2 asks
/// when it is made. A clone shares the `EVP_PKEY` ([`Pkey::share`]).
pub(crate) struct EncapsulationKey {
    key: Pkey,
    kem: Kem,
}

impl Clone for EncapsulationKey {
    fn clone(&self) -> Self {
        EncapsulationKey {
            key: self.key.share(),
            kem: self.kem,
        }
    }
}

// SAFETY: as for DecapsulationKey.
unsafe impl Send for EncapsulationKey {}
// SAFETY: as above.
unsafe impl Sync for EncapsulationKey {}

impl EncapsulationKey {
    /// The raw encoding `ek` (`public_bytes_raw`), of `kem.public_len` bytes.
    pub(crate) fn from_raw(kem: Kem, raw: &[u8]) -> std::result::Result<EncapsulationKey, Refused> {
        if raw.len() != kem.public_len {
            return Err(Refused::Parse(ParseError::Malformed));
        }
        // SAFETY: raw is raw.len() readable bytes; AWS-LC copies them.
        let key = unsafe {
            own::<Pkey>(sys::EVP_PKEY_kem_new_raw_public_key(
                kem.nid,
                raw.as_ptr(),
                raw.len(),
            ))
        }
        .ok_or(Refused::Parse(ParseError::Malformed))?;
        Ok(EncapsulationKey {
            key: checked(key, true)?,
            kem,
        })
    }

    /// An X.509 `SubjectPublicKeyInfo` (RFC 9935 §4).
    pub(crate) fn from_spki_der(der: &[u8]) -> std::result::Result<EncapsulationKey, Refused> {
        let key: Pkey = der::parse_all(der, sys::EVP_parse_public_key).ok_or(ParseError::Malformed)?;
        let kem = Kem::of_key(&key)?;
        Ok(EncapsulationKey {
            key: checked(key, true)?,
            kem,
        })
    }

    pub(crate) fn kem(&self) -> Kem {
        self.kem
    }

    /// The raw encoding `ek`.
    pub(crate) fn raw(&self) -> Result<Vec<u8>> {
        let mut out = vec![0u8; self.kem.public_len];
        let mut len = out.len();
        // SAFETY: key is live; out has len writable bytes.
        check(unsafe { sys::EVP_PKEY_get_raw_public_key(self.key.as_ptr(), out.as_mut_ptr(), &mut len) })?;
        (len == self.kem.public_len).then_some(out).ok_or(BackendError)
    }

    pub(crate) fn spki_der(&self) -> Result<Vec<u8>> {
        // SAFETY: key is live; the CBB is initialised by `marshal`.
        der::marshal(|cbb| unsafe { sys::EVP_marshal_public_key(cbb, self.key.as_ptr()) })
            .map(|v| v.expose().to_vec())
    }

    /// ML-KEM.Encaps: `(shared secret, ciphertext)`, with AWS-LC's
    /// randomness.
    pub(crate) fn encapsulate(&self) -> Result<(SecretKey<SHARED_SECRET_LEN>, Vec<u8>)> {
        self.encapsulate_with(None)
    }

    /// ML-KEM.Encaps_internal(ek, m): deterministic in `m`, for
    /// known-answer tests and age's reproducible files.
    pub(crate) fn encapsulate_deterministic(
        &self,
        m: &[u8; 32],
    ) -> Result<(SecretKey<SHARED_SECRET_LEN>, Vec<u8>)> {
        self.encapsulate_with(Some(m))
    }

    fn encapsulate_with(&self, m: Option<&[u8; 32]>) -> Result<(SecretKey<SHARED_SECRET_LEN>, Vec<u8>)> {
        let ctx = PkeyCtx::for_key(&self.key)?;
        let mut ct = vec![0u8; self.kem.ciphertext_len];
        let ss = SecretKey::generate(|ss| {
            let (mut ct_len, mut ss_len) = (ct.len(), ss.len());
            let ok = match m {
                Some(m) => {
                    let mut m_len = m.len();
                    // SAFETY: ctx is live; ct and ss are writable for their
                    // lengths, m readable for its length (AWS-LC checks all
                    // three).
                    unsafe {
                        sys::EVP_PKEY_encapsulate_deterministic(
                            ctx.as_ptr(),
                            ct.as_mut_ptr(),
                            &mut ct_len,
                            ss.as_mut_ptr(),
                            &mut ss_len,
                            m.as_ptr(),
                            &mut m_len,
                        )
                    }
                }
                // SAFETY: ctx is live; ct and ss are writable for their
                // lengths (AWS-LC checks both).
                None => unsafe {
                    sys::EVP_PKEY_encapsulate(
                        ctx.as_ptr(),
                        ct.as_mut_ptr(),
                        &mut ct_len,
                        ss.as_mut_ptr(),
                        &mut ss_len,
                    )
                },
            };
            check(ok)?;
            (ct_len == self.kem.ciphertext_len && ss_len == SHARED_SECRET_LEN)
                .then_some(())
                .ok_or(BackendError)
        })?;
        Ok((ss, ct))
    }
}

/// ML-KEM-768.Encaps_internal(ek, m) for age's recipients: the ciphertext
/// and shared secret for the encapsulation key `public` and the randomness
/// `m`. Fails for a key FIPS 203's modulus check refuses.
pub(crate) fn mlkem768_encapsulate(
    public: &[u8; MLKEM768_PUBLIC],
    m: &[u8; 32],
) -> Result<([u8; MLKEM768_CIPHERTEXT], SecretKey<SHARED_SECRET_LEN>)> {
    let key = EncapsulationKey::from_raw(ML_KEM_768, public).map_err(|_| BackendError)?;
    let (ss, ct) = key.encapsulate_deterministic(m)?;
    Ok((ct.try_into().map_err(|_| BackendError)?, ss))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn a_seeded_key_pair_round_trips_and_rejects_implicitly() {
        let seed: [u8; 64] = std::array::from_fn(|i| i as u8);
        for kem in [ML_KEM_512, ML_KEM_768, ML_KEM_1024] {
            let key = DecapsulationKey::from_seed(kem, &seed).unwrap();
            let public = key.public_key().unwrap().raw().unwrap();
            // Deterministic: the same seed gives the same key.
            let again = DecapsulationKey::from_seed(kem, &seed).unwrap();
            assert_eq!(again.public_key().unwrap().raw().unwrap(), public);
            let ek = EncapsulationKey::from_raw(kem, &public).unwrap();
            let (ss, ct) = ek.encapsulate_deterministic(&[7; 32]).unwrap();
            assert_eq!(ek.encapsulate_deterministic(&[7; 32]).unwrap().1, ct);
            assert_eq!(key.decapsulate(&ct).unwrap(), ss);
            let mut bad = ct.clone();
            bad[0] ^= 1;
            assert_ne!(key.decapsulate(&bad).unwrap(), ss);
            // An encapsulation key with a coefficient ≥ q is refused.
            let mut overflow = public.clone();
            overflow[0] = 0xff;
            overflow[1] |= 0x0f;
            assert_eq!(
                EncapsulationKey::from_raw(kem, &overflow).err(),
                Some(Refused::Invalid)
            );
            // Every form of PKCS#8 reads back as the same key.
            let der = key.pkcs8_der().unwrap();
            let back = DecapsulationKey::from_pkcs8_der(der.expose()).unwrap();
            assert_eq!(back.seed().unwrap(), key.seed().unwrap());
            assert_eq!(back.kem(), kem);
        }
        let (ct, ss) = mlkem768_encapsulate(
            &DecapsulationKey::from_seed(ML_KEM_768, &seed)
                .unwrap()
                .public_key()
                .unwrap()
                .raw()
                .unwrap()
                .try_into()
                .unwrap(),
            &[7; 32],
        )
        .unwrap();
        let key = DecapsulationKey::from_seed(ML_KEM_768, &seed).unwrap();
        assert_eq!(key.decapsulate(&ct).unwrap(), ss);
    }
}
