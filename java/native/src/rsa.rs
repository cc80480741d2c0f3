//! RSA: parallel key generation, keys in and out as DER, PSS / PKCS#1 v1.5
//! signatures over digests, RSAES-OAEP.

use jni::JNIEnv;
use jni::objects::{JByteArray, JClass};
use jni::sys::{JNI_TRUE, jboolean, jbyteArray, jint, jlong};
use parcrypt::rsa::{Error, PrivateKey, PublicKey, Scheme};
use parcrypt::secret::SecretBytes;

use crate::digest::algorithm;
use crate::{
    BAD_PADDING, BLOCK_SIZE, Fail, ILLEGAL_ARG, INVALID_KEY, INVALID_PARAM, PROVIDER, Res, SIGNATURE, bytes,
    bytes_opt, encode_fn, entry, fail, from_handle, key_fns, par, secret_bytes,
};
use parcrypt::keys::{SigningKey as _, VerifyingKey as _};

impl From<Error> for Fail {
    fn from(e: Error) -> Self {
        let msg = e.to_string();
        let class = match e {
            Error::Key(_) | Error::UnsupportedKey(_) => INVALID_KEY,
            Error::KeySize(_) => INVALID_PARAM,
            Error::MessageTooLong { .. } => BLOCK_SIZE,
            Error::Decryption => BAD_PADDING,
            Error::BadSignature | Error::DigestLength { .. } => SIGNATURE,
            _ => PROVIDER,
        };
        Fail::Throw(class, msg)
    }
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
    entry(&mut env, |_| {
        let par = par(threads, strategy)?;
        let bits = usize::try_from(bits).or_else(|_| fail(INVALID_PARAM, format!("key size {bits}")))?;
        Ok(PrivateKey::generate(bits, &par)?.to_pkcs8_der()?)
    })
}

key_fns!(
    /// A private key from DER (PKCS#8 or PKCS#1).
    private Java_dev_parcrypt_jca_Native_rsaPrivateLoad,
    Java_dev_parcrypt_jca_Native_rsaPrivateFree,
    PrivateKey
);
key_fns!(
    /// A public key from DER (SubjectPublicKeyInfo or PKCS#1).
    public Java_dev_parcrypt_jca_Native_rsaPublicLoad,
    Java_dev_parcrypt_jca_Native_rsaPublicFree,
    PublicKey
);

encode_fn!(
    /// `what` 0 = PKCS#8 DER, 1 = PKCS#1 DER, 2 = the public key's SPKI DER.
    Java_dev_parcrypt_jca_Native_rsaPrivateEncode,
    PrivateKey,
    |key| {
        0 => key.to_pkcs8_der()?,
        1 => key.to_pkcs1_der()?,
        2 => SecretBytes::new(key.public_key().to_spki_der()?),
    }
);
encode_fn!(
    /// `what` 0 = SPKI DER, 1 = PKCS#1 DER.
    Java_dev_parcrypt_jca_Native_rsaPublicEncode,
    PublicKey,
    |key| {
        0 => key.to_spki_der()?,
        1 => key.to_pkcs1_der()?,
    }
);

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
    entry(&mut env, |env| {
        // SAFETY: a live RSA private key handle (see `from_handle`).
        let key = unsafe { from_handle::<PrivateKey>(handle)? };
        let par = par(threads, strategy)?;
        let digest = bytes(env, &digest, "digest")?;
        Ok(key.sign_digest(scheme(scheme_code)?, algorithm(hash)?, &digest, &par)?)
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
    entry(&mut env, |env| {
        // SAFETY: a live RSA public key handle (see `from_handle`).
        let key = unsafe { from_handle::<PublicKey>(handle)? };
        let (digest, sig) = (bytes(env, &digest, "digest")?, bytes(env, &sig, "signature")?);
        let (scheme, hash) = (scheme(scheme_code)?, algorithm(hash)?);
        let verified = match (scheme, usize::try_from(salt_len)) {
            (Scheme::Pss, Ok(salt)) => key.verify_pss_salt(hash, &digest, salt, &sig),
            _ => key.verify_digest(scheme, hash, &digest, &sig),
        };
        match verified {
            Ok(()) => Ok(true),
            Err(Error::BadSignature) => Ok(false),
            Err(e) => Err(e.into()),
        }
    })
}

/// RSAES-OAEP encryption with the given hashes and label (the JCA's names
/// and defaults are resolved on the Java side).
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_rsaEncryptOaep<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    msg: JByteArray<'l>,
    hash: jint,
    mgf1: jint,
    label: JByteArray<'l>,
) -> jbyteArray {
    entry(&mut env, |env| {
        // SAFETY: a live RSA public key handle (see `from_handle`).
        let key = unsafe { from_handle::<PublicKey>(handle)? };
        let msg = secret_bytes(env, &msg, "input")?;
        let label = bytes_opt(env, &label)?.unwrap_or_default();
        Ok(key.encrypt_oaep(msg.expose(), algorithm(hash)?, algorithm(mgf1)?, &label)?)
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
    entry(&mut env, |env| {
        // SAFETY: a live RSA private key handle (see `from_handle`).
        let key = unsafe { from_handle::<PrivateKey>(handle)? };
        let par = par(threads, strategy)?;
        let ct = bytes(env, &ct, "input")?;
        let label = bytes_opt(env, &label)?.unwrap_or_default();
        let plain = key.decrypt_oaep(&ct, algorithm(hash)?, algorithm(mgf1)?, &label, &par)?;
        Ok(plain)
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
    entry(&mut env, |_| {
        Ok(if private == JNI_TRUE {
            // SAFETY: a live RSA private key handle (see `from_handle`).
            unsafe { from_handle::<PrivateKey>(handle)? }.bits()
        } else {
            // SAFETY: a live RSA public key handle (see `from_handle`).
            unsafe { from_handle::<PublicKey>(handle)? }.bits()
        })
    })
}
