//! ECDSA P-256: keys, signatures over SHA-256 digests (DER or P1363), and
//! batch verification across cores.

use jni::JNIEnv;
use jni::objects::{JByteArray, JClass, JObjectArray};
use jni::sys::{jboolean, jbooleanArray, jbyteArray, jint, jlong};
use parcrypt::ecdsa::{self, Error, PrivateKey, PublicKey, Signature, VerifyStrategy};
use parcrypt::par::Parallelism;
use parcrypt::secret::SecretBytes;

use crate::{
    Fail, ILLEGAL_ARG, INVALID_KEY, PROVIDER, Res, SIGNATURE, array_of_arrays, bytes, encode_fn, entry, fail,
    from_handle, key_fns, one_each, par, parse_once,
};
use parcrypt::keys::{SigningKey as _, VerifyingKey as _};

impl From<Error> for Fail {
    fn from(e: Error) -> Self {
        let msg = e.to_string();
        let class = match e {
            Error::Key(_) => INVALID_KEY,
            Error::MalformedSignature | Error::BadSignature => SIGNATURE,
            _ => PROVIDER,
        };
        Fail::Throw(class, msg)
    }
}

/// `format` 0 = DER, 1 = IEEE P1363 (r ‖ s, 64 bytes).
fn parse_sig(bytes: &[u8], format: jint) -> Res<Result<Signature, Error>> {
    match format {
        0 => Ok(Signature::from_der(bytes)),
        1 => Ok(Signature::from_fixed(bytes)),
        other => fail(ILLEGAL_ARG, format!("unknown signature format code {other}")),
    }
}

/// A new key; its PKCS#8 DER.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_ecGenerate<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
) -> jbyteArray {
    entry(&mut env, |_| Ok(PrivateKey::generate()?.to_pkcs8_der()?))
}

key_fns!(
    /// A private key from DER (PKCS#8 or SEC1).
    private Java_dev_parcrypt_jca_Native_ecPrivateLoad,
    Java_dev_parcrypt_jca_Native_ecPrivateFree,
    PrivateKey
);
key_fns!(
    /// A public key from SPKI DER.
    public Java_dev_parcrypt_jca_Native_ecPublicLoad,
    Java_dev_parcrypt_jca_Native_ecPublicFree,
    PublicKey
);

encode_fn!(
    /// `what` 0 = PKCS#8 DER (with the public key), 1 = the public key's SPKI DER.
    Java_dev_parcrypt_jca_Native_ecPrivateEncode,
    PrivateKey,
    |key| {
        0 => key.to_pkcs8_der()?,
        1 => SecretBytes::new(key.public_key().to_spki_der()?),
    }
);

/// A signature over a SHA-256 `digest`, in `format` (0 DER, 1 P1363).
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_ecSignDigest<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    digest: JByteArray<'l>,
    format: jint,
) -> jbyteArray {
    entry(&mut env, |env| {
        // SAFETY: a live EC private key handle (see `from_handle`).
        let key = unsafe { from_handle::<PrivateKey>(handle)? };
        let digest = bytes(env, &digest, "digest")?;
        let sig = key.sign_digest(&digest)?;
        match format {
            0 => Ok(sig.to_der()?),
            1 => sig
                .to_fixed()
                .map(|fixed| fixed.to_vec())
                .ok_or_else(|| Fail::Throw(SIGNATURE, "signature does not fit the P1363 form".into())),
            other => fail(ILLEGAL_ARG, format!("unknown signature format code {other}")),
        }
    })
}

/// Verifies `sig` (`format` 0 DER, 1 P1363) over a SHA-256 `digest`: true
/// or false; a malformed signature throws `SignatureException`, as SunEC does.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_ecVerifyDigest<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    digest: JByteArray<'l>,
    sig: JByteArray<'l>,
    format: jint,
) -> jboolean {
    entry(&mut env, |env| {
        // SAFETY: a live EC public key handle (see `from_handle`).
        let key = unsafe { from_handle::<PublicKey>(handle)? };
        let digest = bytes(env, &digest, "digest")?;
        let sig = bytes(env, &sig, "signature")?;
        let sig = parse_sig(&sig, format)?
            .map_err(|_| Fail::Throw(SIGNATURE, "malformed ECDSA signature".into()))?;
        Ok(key
            .verify_digest_vartime(&digest, &sig, VerifyStrategy::Joint, &Parallelism::sequential())
            .is_ok())
    })
}

/// Verifies `messages[i]` / `signatures[i]` under `keys[i]` (SPKI DER) for
/// every i, across the threads; one boolean each (a malformed signature is
/// simply false; a malformed key throws `InvalidKeyException` naming its index).
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_ecVerifyBatch<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    keys: JObjectArray<'l>,
    messages: JObjectArray<'l>,
    signatures: JObjectArray<'l>,
    format: jint,
    threads: jint,
    strategy: jint,
) -> jbooleanArray {
    entry(&mut env, |env| {
        let par = par(threads, strategy)?;
        let key_der = array_of_arrays(env, &keys, "keys")?;
        let messages = array_of_arrays(env, &messages, "messages")?;
        let sigs = array_of_arrays(env, &signatures, "signatures")?;
        one_each(key_der.len(), messages.len(), sigs.len())?;
        let (parsed, key_at) = parse_once(&key_der, |d| PublicKey::from_bytes(d, &par))?;
        let mut signatures = Vec::with_capacity(sigs.len());
        for s in &sigs {
            signatures.push(parse_sig(s, format)?.ok());
        }
        let valid: Vec<usize> = (0..sigs.len()).filter(|&i| signatures[i].is_some()).collect();
        let items: Vec<ecdsa::BatchItem<'_>> = valid
            .iter()
            .filter_map(|&i| {
                signatures[i].as_ref().map(|signature| ecdsa::BatchItem {
                    key: &parsed[key_at[i]],
                    message: &messages[i],
                    signature,
                })
            })
            .collect();
        let results = ecdsa::verify_batch_vartime(&items, &par);
        let mut out = vec![false; sigs.len()];
        for (&i, ok) in valid.iter().zip(results) {
            out[i] = ok;
        }
        Ok(out)
    })
}
