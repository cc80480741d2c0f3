//! ECDSA P-256: keys, signatures over SHA-256 digests (DER or P1363), and
//! batch verification across cores.

use jni::JNIEnv;
use jni::objects::{JByteArray, JClass, JObjectArray};
use jni::sys::{JNI_FALSE, JNI_TRUE, jboolean, jbooleanArray, jbyteArray, jint, jlong};
use parcrypt::ecdsa::{self, Error, Signature, SigningKey, VerifyStrategy, VerifyingKey};
use parcrypt::par::Parallelism;

use crate::{
    Fail, ILLEGAL_ARG, INVALID_KEY, PROVIDER, Res, SIGNATURE, array_of_arrays, bytes, fail, free_fn,
    from_handle, guard, into_handle, new_array, par,
};

fn err(e: Error) -> Fail {
    let msg = e.to_string();
    let class = match e {
        Error::MalformedKey(_) | Error::EncryptedKey | Error::WrongKeyType(_) => INVALID_KEY,
        Error::MalformedSignature | Error::BadSignature => SIGNATURE,
        _ => PROVIDER,
    };
    Fail::Throw(class, msg)
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
    guard(&mut env, std::ptr::null_mut(), |env| {
        let key = SigningKey::generate().map_err(err)?;
        new_array(env, &key.to_pkcs8_der().map_err(err)?)
    })
}

/// A private key from DER (PKCS#8 or SEC1).
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_ecPrivateLoad<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    der: JByteArray<'l>,
) -> jlong {
    guard(&mut env, 0, |env| {
        let mut der = bytes(env, &der, "encoded key")?;
        let key = SigningKey::from_bytes(&der).map_err(err);
        parcrypt::secret::wipe(&mut der);
        Ok(into_handle(key?))
    })
}

/// A public key from SPKI DER.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_ecPublicLoad<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    der: JByteArray<'l>,
) -> jlong {
    guard(&mut env, 0, |env| {
        let der = bytes(env, &der, "encoded key")?;
        Ok(into_handle(VerifyingKey::from_bytes(&der).map_err(err)?))
    })
}

free_fn!(Java_dev_parcrypt_jca_Native_ecPrivateFree, SigningKey);
free_fn!(Java_dev_parcrypt_jca_Native_ecPublicFree, VerifyingKey);

/// `what` 0 = PKCS#8 DER (with the public key), 1 = the public key's SPKI DER.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_ecPrivateEncode<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    what: jint,
) -> jbyteArray {
    guard(&mut env, std::ptr::null_mut(), |env| {
        // SAFETY: a live EC private key handle (see `from_handle`).
        let key = unsafe { from_handle::<SigningKey>(handle)? };
        match what {
            0 => new_array(env, &key.to_pkcs8_der().map_err(err)?),
            1 => new_array(env, &key.verifying_key().to_spki_der().map_err(err)?),
            other => fail(ILLEGAL_ARG, format!("unknown encoding code {other}")),
        }
    })
}

/// A signature over a SHA-256 `digest`, in `format` (0 DER, 1 P1363).
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_ecSignDigest<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    digest: JByteArray<'l>,
    format: jint,
) -> jbyteArray {
    guard(&mut env, std::ptr::null_mut(), |env| {
        // SAFETY: a live EC private key handle (see `from_handle`).
        let key = unsafe { from_handle::<SigningKey>(handle)? };
        let digest = bytes(env, &digest, "digest")?;
        let sig = key.sign_digest(&digest).map_err(err)?;
        match format {
            0 => new_array(env, &sig.to_der().map_err(err)?),
            1 => {
                let fixed = sig
                    .to_fixed()
                    .ok_or_else(|| Fail::Throw(SIGNATURE, "signature does not fit the P1363 form".into()))?;
                new_array(env, &fixed)
            }
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
    guard(&mut env, JNI_FALSE, |env| {
        // SAFETY: a live EC public key handle (see `from_handle`).
        let key = unsafe { from_handle::<VerifyingKey>(handle)? };
        let digest = bytes(env, &digest, "digest")?;
        let sig = bytes(env, &sig, "signature")?;
        let sig = parse_sig(&sig, format)?
            .map_err(|_| Fail::Throw(SIGNATURE, "malformed ECDSA signature".into()))?;
        let ok = key
            .verify_digest_vartime(&digest, &sig, VerifyStrategy::Joint, &Parallelism::sequential())
            .is_ok();
        Ok(if ok { JNI_TRUE } else { JNI_FALSE })
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
    guard(&mut env, std::ptr::null_mut(), |env| {
        let par = par(threads, strategy)?;
        let key_der = array_of_arrays(env, &keys, "keys")?;
        let messages = array_of_arrays(env, &messages, "messages")?;
        let sigs = array_of_arrays(env, &signatures, "signatures")?;
        if key_der.len() != messages.len() || key_der.len() != sigs.len() {
            return fail(
                ILLEGAL_ARG,
                format!(
                    "{} keys, {} messages and {} signatures: give one of each per item",
                    key_der.len(),
                    messages.len(),
                    sigs.len()
                ),
            );
        }
        // Equal encoded keys are parsed once (a batch is usually few signers).
        let mut parsed: Vec<VerifyingKey> = Vec::new();
        let mut index_of: std::collections::HashMap<&[u8], usize> = std::collections::HashMap::new();
        let mut key_at = Vec::with_capacity(key_der.len());
        for (i, der) in key_der.iter().enumerate() {
            let k = match index_of.get(der.as_slice()) {
                Some(&k) => k,
                None => {
                    let key = VerifyingKey::from_bytes(der)
                        .map_err(|e| Fail::Throw(INVALID_KEY, format!("keys[{i}]: {e}")))?;
                    parsed.push(key);
                    index_of.insert(der, parsed.len() - 1);
                    parsed.len() - 1
                }
            };
            key_at.push(k);
        }
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
        let mut out = vec![JNI_FALSE; sigs.len()];
        for (&i, ok) in valid.iter().zip(results) {
            out[i] = if ok { JNI_TRUE } else { JNI_FALSE };
        }
        let array = env.new_boolean_array(out.len() as jint)?;
        env.set_boolean_array_region(&array, 0, &out)?;
        Ok(array.into_raw())
    })
}
