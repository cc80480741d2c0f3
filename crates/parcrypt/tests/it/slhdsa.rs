//! SLH-DSA against an independent implementation, RustCrypto's `slh-dsa`:
//! for every parameter set, the same seeds make the same keys, the
//! deterministic signatures are the same bytes, and each verifies the
//! other's hedged signatures (pure, with a context, and internal).
//!
//! parcrypt signs the SHAKE `s` sets in 7–11 s each in the test profile
//! (`sha3`'s Keccak permutation is `#[inline]`, so it is compiled at this
//! crate's opt-level 1), so for those CI checks the keys and parcrypt
//! verifying RustCrypto's deterministic signature; parcrypt's own SHAKE-`s`
//! signatures are compared with NIST's in `slhdsa_acvp`, and everything
//! here runs with `PARCRYPT_SLHDSA_FULL=1`.

use parcrypt::par::Parallelism;
use parcrypt::slhdsa::{Message, ParameterSet, PrivateKey, PublicKey};

use crate::common::emulated;
use crate::slhdsa_acvp::full;

fn compare<P: slh_dsa::ParameterSet>(set: ParameterSet) {
    let n = set.n();
    let seed = |tag: u8| -> Vec<u8> { (0..n as u8).map(|i| i.wrapping_mul(31) ^ tag).collect() };
    let (sk_seed, sk_prf, pk_seed) = (seed(1), seed(2), seed(3));
    let par = Parallelism::default();
    let theirs = slh_dsa::SigningKey::<P>::slh_keygen_internal(&sk_seed, &sk_prf, &pk_seed);
    let ours = PrivateKey::from_seeds(set, &sk_seed, &sk_prf, &pk_seed, &par).expect("n-byte seeds");
    assert_eq!(
        ours.to_bytes().expose(),
        theirs.to_bytes().as_slice(),
        "{set} keys"
    );
    let public = PublicKey::from_bytes(set, &ours.public_key().to_bytes()).expect("2n bytes");
    let their_public = slh_dsa::VerifyingKey::<P>::try_from(public.as_bytes()).expect("their key reader");

    let (msg, ctx) = (&b"differential test message"[..], &b"context"[..]);
    let message = Message::pure(msg, ctx).expect("ctx");
    let opt_rand = seed(4);

    // Theirs, checked by us: deterministic, hedged, internal.
    let their_det = theirs
        .try_sign_with_context(msg, ctx, None)
        .expect("ctx")
        .to_vec();
    public
        .verify(&message, &their_det)
        .expect("their deterministic signature");
    if !set.is_fast() && !set.is_sha2() && !full() {
        return;
    }
    let their_hedged = theirs
        .try_sign_with_context(msg, ctx, Some(&opt_rand))
        .expect("ctx")
        .to_vec();
    let their_internal = theirs.slh_sign_internal(&[msg], Some(&opt_rand)).to_vec();
    public
        .verify(&message, &their_hedged)
        .expect("their hedged signature");
    public
        .verify_internal(msg, &their_internal)
        .expect("their internal signature");
    assert!(public.verify(&message, &their_internal).is_err());

    // Ours, checked by them and compared byte for byte.
    let our_det = ours.sign_deterministic(&message, &par);
    assert!(our_det == their_det, "{set}: deterministic signatures differ");
    let our_hedged = ours.sign(&message, &par).expect("rng");
    let sig = slh_dsa::Signature::<P>::try_from(&our_hedged[..]).expect("their signature reader");
    their_public
        .try_verify_with_context(msg, ctx, &sig)
        .expect("they verify our hedged signature");
    if set.is_fast() || full() {
        let our_internal = ours.sign_internal(msg, &opt_rand, &par).expect("n bytes");
        assert!(
            our_internal == their_internal,
            "{set}: internal signatures differ"
        );
    }
}

#[test]
fn same_keys_and_signatures_as_rustcrypto_slh_dsa() {
    use slh_dsa::{
        Sha2_128f, Sha2_128s, Sha2_192f, Sha2_192s, Sha2_256f, Sha2_256s, Shake128f, Shake128s, Shake192f,
        Shake192s, Shake256f, Shake256s,
    };
    compare::<Sha2_128f>(ParameterSet::Sha2_128f);
    compare::<Shake128f>(ParameterSet::Shake128f);
    if emulated() && !full() {
        return;
    }
    compare::<Sha2_192f>(ParameterSet::Sha2_192f);
    compare::<Shake192f>(ParameterSet::Shake192f);
    compare::<Sha2_256f>(ParameterSet::Sha2_256f);
    compare::<Shake256f>(ParameterSet::Shake256f);
    compare::<Sha2_128s>(ParameterSet::Sha2_128s);
    compare::<Shake128s>(ParameterSet::Shake128s);
    compare::<Sha2_192s>(ParameterSet::Sha2_192s);
    compare::<Shake192s>(ParameterSet::Shake192s);
    compare::<Sha2_256s>(ParameterSet::Sha2_256s);
    compare::<Shake256s>(ParameterSet::Shake256s);
}

/// The SHA-2 sets hash F, H and T in the lanes of whichever many-message
/// SHA-256 kernel is active: each kernel this CPU has signs the same bytes
/// as RustCrypto (SHA2-128f: SHA-256 throughout; SHA2-192f: SHA-512 for H
/// and T beside it).
#[test]
fn every_sha256_kernel_signs_the_same_bytes() {
    use parcrypt::digest::Backend;
    fn one<P: slh_dsa::ParameterSet>(set: ParameterSet, backend: Backend) {
        let n = set.n();
        let seeds: Vec<Vec<u8>> = (0..3u8)
            .map(|t| (0..n as u8).map(|i| i ^ (t << 6)).collect())
            .collect();
        let theirs = slh_dsa::SigningKey::<P>::slh_keygen_internal(&seeds[0], &seeds[1], &seeds[2]);
        let want = theirs
            .try_sign_with_context(b"kernels", b"", None)
            .expect("ctx")
            .to_vec();
        let par = Parallelism::default();
        let ours = PrivateKey::from_seeds(set, &seeds[0], &seeds[1], &seeds[2], &par).expect("seeds");
        let sig = ours.sign_deterministic(&Message::pure(b"kernels", b"").expect("ctx"), &par);
        assert!(sig == want, "{set} on {backend}");
    }
    let backends = Backend::available();
    eprintln!("SLH-DSA SHA-256 kernels run: {backends:?}");
    for backend in backends {
        Backend::force(Some(backend)).expect("available");
        one::<slh_dsa::Sha2_128f>(ParameterSet::Sha2_128f, backend);
        one::<slh_dsa::Sha2_192f>(ParameterSet::Sha2_192f, backend);
    }
    Backend::force(None).expect("back to the default");
}
