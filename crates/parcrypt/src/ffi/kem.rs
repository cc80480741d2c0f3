//! ML-KEM-768 (FIPS 203) through AWS-LC's EVP interface, for the parts the
//! safe `aws_lc_rs::kem` API lacks: a key pair from its 64-byte seed
//! (`d ‖ z`, as age's post-quantum keys store it) and encapsulation with
//! caller-supplied randomness (`m`), so that a file's whole header is a
//! function of the randomness handed in (tests compare files byte for
//! byte). Decapsulation is the ordinary, implicitly rejecting one.
#![allow(unsafe_code)]

use std::ptr;

use aws_lc_sys as sys;

use super::error::{BackendError, Result, check};
use super::owned::{Owned, Pkey, PkeyCtx, own};
use crate::secret::SecretKey;

/// ML-KEM-768 encapsulation key bytes.
pub(crate) const MLKEM768_PUBLIC: usize = 1184;
/// ML-KEM-768 ciphertext bytes.
pub(crate) const MLKEM768_CIPHERTEXT: usize = 1088;

impl PkeyCtx {
    fn for_key(key: &Pkey) -> Result<PkeyCtx> {
        // SAFETY: key is a live EVP_PKEY; the context takes its own reference.
        unsafe { own::<PkeyCtx>(sys::EVP_PKEY_CTX_new(key.as_ptr(), ptr::null_mut())) }.ok_or(BackendError)
    }
}

/// An ML-KEM-768 decapsulation key made from its seed (its `EVP_PKEY`
/// holds the expanded secret and the public key; freed, and cleansed by
/// AWS-LC, on drop).
pub(crate) struct MlKem768 {
    key: Pkey,
}

// SAFETY: the EVP_PKEY is not modified after key generation; every
// operation makes its own EVP_PKEY_CTX (which takes a reference) and keeps
// per-call state there.
unsafe impl Send for MlKem768 {}
// SAFETY: as above.
unsafe impl Sync for MlKem768 {}

impl MlKem768 {
    /// ML-KEM-768.KeyGen_internal(d, z) with `seed = d ‖ z`.
    pub(crate) fn from_seed(seed: &[u8; 64]) -> Result<MlKem768> {
        // SAFETY: EVP_PKEY_CTX_new_id has no preconditions.
        let ctx = unsafe { own::<PkeyCtx>(sys::EVP_PKEY_CTX_new_id(sys::EVP_PKEY_KEM, ptr::null_mut())) }
            .ok_or(BackendError)?;
        // SAFETY: ctx is live.
        check(unsafe { sys::EVP_PKEY_keygen_init(ctx.as_ptr()) })?;
        // SAFETY: ctx is live and a KEM context.
        check(unsafe { sys::EVP_PKEY_CTX_kem_set_params(ctx.as_ptr(), sys::NID_MLKEM768) })?;
        let mut out: *mut sys::EVP_PKEY = ptr::null_mut();
        let mut seed_len = seed.len();
        // SAFETY: ctx is live; out receives a new key we own; seed is
        // seed_len readable bytes (the length ML-KEM-768 requires; AWS-LC
        // checks it).
        check(unsafe {
            sys::EVP_PKEY_keygen_deterministic(ctx.as_ptr(), &mut out, seed.as_ptr(), &mut seed_len)
        })?;
        Ok(MlKem768 {
            // SAFETY: on success `out` is a new key we own.
            key: unsafe { own::<Pkey>(out) }.ok_or(BackendError)?,
        })
    }

    /// The encapsulation key.
    pub(crate) fn public_key(&self) -> Result<[u8; MLKEM768_PUBLIC]> {
        let mut out = [0u8; MLKEM768_PUBLIC];
        let mut len = out.len();
        // SAFETY: key is live; out has len writable bytes.
        check(unsafe { sys::EVP_PKEY_get_raw_public_key(self.key.as_ptr(), out.as_mut_ptr(), &mut len) })?;
        (len == MLKEM768_PUBLIC).then_some(out).ok_or(super::BackendError)
    }

    /// ML-KEM-768.Decaps: the shared secret (a pseudorandom one for a
    /// ciphertext made for another key: implicit rejection).
    pub(crate) fn decapsulate(&self, ciphertext: &[u8; MLKEM768_CIPHERTEXT]) -> Result<SecretKey<32>> {
        let ctx = PkeyCtx::for_key(&self.key)?;
        SecretKey::generate(|ss| {
            let mut len = ss.len();
            // SAFETY: ctx is live; ss has len writable bytes; the ciphertext
            // is MLKEM768_CIPHERTEXT readable bytes.
            check(unsafe {
                sys::EVP_PKEY_decapsulate(
                    ctx.as_ptr(),
                    ss.as_mut_ptr(),
                    &mut len,
                    ciphertext.as_ptr(),
                    ciphertext.len(),
                )
            })?;
            (len == 32).then_some(()).ok_or(super::BackendError)
        })
    }
}

/// ML-KEM-768.Encaps_internal(ek, m): the ciphertext and shared secret for
/// the encapsulation key `public` and the randomness `m`. Fails for a key
/// AWS-LC refuses (FIPS 203's modulus check of the encapsulation key).
pub(crate) fn mlkem768_encapsulate(
    public: &[u8; MLKEM768_PUBLIC],
    m: &[u8; 32],
) -> Result<([u8; MLKEM768_CIPHERTEXT], SecretKey<32>)> {
    // SAFETY: public is MLKEM768_PUBLIC readable bytes; AWS-LC copies them.
    let key = unsafe {
        own::<Pkey>(sys::EVP_PKEY_kem_new_raw_public_key(
            sys::NID_MLKEM768,
            public.as_ptr(),
            public.len(),
        ))
    }
    .ok_or(BackendError)?;
    let ctx = PkeyCtx::for_key(&key)?;
    let mut ct = [0u8; MLKEM768_CIPHERTEXT];
    let ss = SecretKey::generate(|ss| {
        let (mut ct_len, mut ss_len, mut m_len) = (ct.len(), ss.len(), m.len());
        // SAFETY: ctx is live; ct and ss are writable for their lengths, m
        // readable for its length (AWS-LC checks all three).
        check(unsafe {
            sys::EVP_PKEY_encapsulate_deterministic(
                ctx.as_ptr(),
                ct.as_mut_ptr(),
                &mut ct_len,
                ss.as_mut_ptr(),
                &mut ss_len,
                m.as_ptr(),
                &mut m_len,
            )
        })?;
        (ct_len == MLKEM768_CIPHERTEXT && ss_len == 32)
            .then_some(())
            .ok_or(super::BackendError)
    })?;
    Ok((ct, ss))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn a_seeded_key_pair_round_trips_and_rejects_implicitly() {
        let seed: [u8; 64] = std::array::from_fn(|i| i as u8);
        let key = MlKem768::from_seed(&seed).unwrap();
        let public = key.public_key().unwrap();
        // Deterministic: the same seed gives the same key.
        assert_eq!(MlKem768::from_seed(&seed).unwrap().public_key().unwrap(), public);
        let (ct, ss) = mlkem768_encapsulate(&public, &[7; 32]).unwrap();
        assert_eq!(mlkem768_encapsulate(&public, &[7; 32]).unwrap().0, ct);
        assert_eq!(key.decapsulate(&ct).unwrap(), ss);
        let mut bad = ct;
        bad[0] ^= 1;
        let rejected = key.decapsulate(&bad).unwrap();
        assert_ne!(rejected, ss);
        // An encapsulation key with a coefficient ≥ q is refused.
        let mut overflow = public;
        overflow[0] = 0xff;
        overflow[1] |= 0x0f;
        assert!(mlkem768_encapsulate(&overflow, &[7; 32]).is_err());
    }
}
