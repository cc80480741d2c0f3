//! RSA: parallel key generation, keys in and out as DER, PSS / PKCS#1 v1.5
//! signatures over digests, RSAES-OAEP.

use jni::JNIEnv;
use jni::objects::{JByteArray, JClass};
use jni::sys::{JNI_FALSE, JNI_TRUE, jboolean, jbyteArray, jint, jlong};
use parcrypt::rsa::{Error, PrivateKey, PublicKey, Scheme};

use crate::digest::algorithm;
use crate::{
    BAD_PADDING, BLOCK_SIZE, Fail, ILLEGAL_ARG, INVALID_KEY, INVALID_PARAM, PROVIDER, Res, SIGNATURE, bytes,
    bytes_opt, fail, free_fn, from_handle, guard, into_handle, new_array, par,
};

pub fn err(e: Error) -> Fail {
    let msg = e.to_string();
    let class = match e {
        Error::MalformedKey(_) | Error::EncryptedKey | Error::WrongKeyType(_) | Error::UnsupportedKey(_) => {
            INVALID_KEY
        }
        Error::KeySize(_) => INVALID_PARAM,
        Error::MessageTooLong { .. } => BLOCK_SIZE,
        Error::Decryption => BAD_PADDING,
        Error::BadSignature | Error::DigestLength { .. } => SIGNATURE,
        _ => PROVIDER,
    };
    Fail::Throw(class, msg)
}

fn scheme(code: jint) -> Res<Scheme> {
    match code {
        0 => Ok(Scheme::Pss),
        1 => Ok(Scheme::Pkcs1v15),
        other => fail(ILLEGAL_ARG, format!("unknown RSA signature scheme code {other}")),
    }
}

/// A new `bits`-bit key (e = 65537), all threads racing candidates; its PKCS#8 DER.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_rsaGenerate<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    bits: jint,
    threads: jint,
    strategy: jint,
) -> jbyteArray {
    guard(&mut env, std::ptr::null_mut(), |env| {
        let par = par(threads, strategy)?;
        let bits = usize::try_from(bits).or_else(|_| fail(INVALID_PARAM, format!("key size {bits}")))?;
        let key = PrivateKey::generate(bits, &par).map_err(err)?;
        new_array(env, &key.to_pkcs8_der().map_err(err)?)
    })
}

/// A private key from DER (PKCS#8 or PKCS#1).
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_rsaPrivateLoad<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    der: JByteArray<'l>,
) -> jlong {
    guard(&mut env, 0, |env| {
        let mut der = bytes(env, &der, "encoded key")?;
        let key = PrivateKey::from_bytes(&der).map_err(err);
        parcrypt::secret::wipe(&mut der);
        Ok(into_handle(key?))
    })
}

/// A public key from DER (SubjectPublicKeyInfo or PKCS#1).
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_rsaPublicLoad<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    der: JByteArray<'l>,
) -> jlong {
    guard(&mut env, 0, |env| {
        let der = bytes(env, &der, "encoded key")?;
        Ok(into_handle(PublicKey::from_bytes(&der).map_err(err)?))
    })
}

free_fn!(Java_dev_parcrypt_jca_Native_rsaPrivateFree, PrivateKey);
free_fn!(Java_dev_parcrypt_jca_Native_rsaPublicFree, PublicKey);

/// `what` 0 = PKCS#8 DER, 1 = PKCS#1 DER, 2 = the public key's SPKI DER.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_rsaPrivateEncode<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    what: jint,
) -> jbyteArray {
    guard(&mut env, std::ptr::null_mut(), |env| {
        // SAFETY: a live RSA private key handle (see `from_handle`).
        let key = unsafe { from_handle::<PrivateKey>(handle)? };
        match what {
            0 => new_array(env, &key.to_pkcs8_der().map_err(err)?),
            1 => new_array(env, &key.to_pkcs1_der().map_err(err)?),
            2 => new_array(env, &key.public_key().to_spki_der().map_err(err)?),
            other => fail(ILLEGAL_ARG, format!("unknown encoding code {other}")),
        }
    })
}

/// `what` 0 = SPKI DER, 1 = PKCS#1 DER.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_rsaPublicEncode<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    what: jint,
) -> jbyteArray {
    guard(&mut env, std::ptr::null_mut(), |env| {
        // SAFETY: a live RSA public key handle (see `from_handle`).
        let key = unsafe { from_handle::<PublicKey>(handle)? };
        match what {
            0 => new_array(env, &key.to_spki_der().map_err(err)?),
            1 => new_array(env, &key.to_pkcs1_der().map_err(err)?),
            other => fail(ILLEGAL_ARG, format!("unknown encoding code {other}")),
        }
    })
}

/// A signature over `digest` (of hash `hash`); PSS salts are as long as the digest.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_rsaSignDigest<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    scheme_code: jint,
    hash: jint,
    digest: JByteArray<'l>,
    threads: jint,
    strategy: jint,
) -> jbyteArray {
    guard(&mut env, std::ptr::null_mut(), |env| {
        // SAFETY: a live RSA private key handle (see `from_handle`).
        let key = unsafe { from_handle::<PrivateKey>(handle)? };
        let par = par(threads, strategy)?;
        let digest = bytes(env, &digest, "digest")?;
        let sig = key
            .sign_digest(scheme(scheme_code)?, algorithm(hash)?, &digest, &par)
            .map_err(err)?;
        new_array(env, &sig)
    })
}

/// True if `sig` is a valid signature over `digest`; `salt_len` ≥ 0 pins a
/// PSS salt length (−1: any).
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_rsaVerifyDigest<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    scheme_code: jint,
    hash: jint,
    digest: JByteArray<'l>,
    sig: JByteArray<'l>,
    salt_len: jint,
) -> jboolean {
    guard(&mut env, JNI_FALSE, |env| {
        // SAFETY: a live RSA public key handle (see `from_handle`).
        let key = unsafe { from_handle::<PublicKey>(handle)? };
        let (digest, sig) = (bytes(env, &digest, "digest")?, bytes(env, &sig, "signature")?);
        let (scheme, hash) = (scheme(scheme_code)?, algorithm(hash)?);
        let verified = match (scheme, usize::try_from(salt_len)) {
            (Scheme::Pss, Ok(salt)) => key.verify_pss_salt(hash, &digest, salt, &sig),
            _ => key.verify_digest(scheme, hash, &digest, &sig),
        };
        match verified {
            Ok(()) => Ok(JNI_TRUE),
            Err(Error::BadSignature) => Ok(JNI_FALSE),
            Err(e) => Err(err(e)),
        }
    })
}

/// RSAES-OAEP encryption with SHA-256, MGF1-SHA-256 and an empty label.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_rsaEncryptOaep<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    msg: JByteArray<'l>,
) -> jbyteArray {
    guard(&mut env, std::ptr::null_mut(), |env| {
        // SAFETY: a live RSA public key handle (see `from_handle`).
        let key = unsafe { from_handle::<PublicKey>(handle)? };
        let mut msg = bytes(env, &msg, "input")?;
        let ct = key.encrypt(&msg).map_err(err);
        parcrypt::secret::wipe(&mut msg);
        new_array(env, &ct?)
    })
}

/// RSAES-OAEP decryption with the given hashes and label; any failure is
/// one opaque `BadPaddingException`.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_rsaDecryptOaep<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    ct: JByteArray<'l>,
    hash: jint,
    mgf1: jint,
    label: JByteArray<'l>,
    threads: jint,
    strategy: jint,
) -> jbyteArray {
    guard(&mut env, std::ptr::null_mut(), |env| {
        // SAFETY: a live RSA private key handle (see `from_handle`).
        let key = unsafe { from_handle::<PrivateKey>(handle)? };
        let par = par(threads, strategy)?;
        let ct = bytes(env, &ct, "input")?;
        let label = bytes_opt(env, &label)?.unwrap_or_default();
        let plain = key
            .decrypt_oaep(&ct, algorithm(hash)?, algorithm(mgf1)?, &label, &par)
            .map_err(err)?;
        new_array(env, &plain)
    })
}

/// The modulus size in bits; `private` picks the handle's type.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_rsaBits<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    private: jboolean,
) -> jint {
    guard(&mut env, 0, |_| {
        let bits = if private == JNI_TRUE {
            // SAFETY: a live RSA private key handle (see `from_handle`).
            unsafe { from_handle::<PrivateKey>(handle)? }.bits()
        } else {
            // SAFETY: a live RSA public key handle (see `from_handle`).
            unsafe { from_handle::<PublicKey>(handle)? }.bits()
        };
        Ok(bits as jint)
    })
}
