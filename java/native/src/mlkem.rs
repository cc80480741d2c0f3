//! ML-KEM (FIPS 203) for `PqKeys` and the `KEM` service (Java 21+): keys
//! as PKCS#8 / SPKI DER, encapsulation and decapsulation.

use jni::JNIEnv;
use jni::objects::{JByteArray, JClass, JString};
use jni::sys::{jbyteArray, jlong};
use parcrypt::mlkem::{Error, Params, PrivateKey, PublicKey};
use parcrypt::secret::SecretBytes;

use crate::{
    Fail, Handle, INVALID_KEY, INVALID_PARAM, PROVIDER, bytes, encode_fn, entry, free_fn, from_handle,
    load_key,
};

/// What `KEM.Decapsulator.decapsulate` throws for a ciphertext of the wrong length.
const DECAPSULATE: &str = "javax/crypto/DecapsulateException";

impl From<Error> for Fail {
    fn from(e: Error) -> Self {
        let msg = e.to_string();
        let class = match e {
            Error::SeedLength(_) => INVALID_PARAM,
            Error::CiphertextLength { .. } => DECAPSULATE,
            Error::Backend => PROVIDER,
            _ => INVALID_KEY,
        };
        Fail::Throw(class, msg)
    }
}

/// A new key of parameter set `set` (`ML-KEM-768` …), as a handle.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_kemGenerate<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    set: JString<'l>,
) -> jlong {
    entry(&mut env, |env| {
        let set: String = env.get_string(&set)?.into();
        let params = Params::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(&set))
            .ok_or_else(|| Fail::Throw(INVALID_PARAM, format!("unknown ML-KEM parameter set {set:?}")))?;
        Ok(Handle(PrivateKey::generate(params)?))
    })
}

/// A private key from PKCS#8 DER in any of its three forms (wiped once parsed).
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_kemPrivateLoad<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    der: JByteArray<'l>,
) -> jlong {
    entry(&mut env, |env| {
        load_key(env, &der, true, PrivateKey::from_pkcs8_der)
    })
}

/// A public key from SPKI DER.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_kemPublicLoad<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    der: JByteArray<'l>,
) -> jlong {
    entry(&mut env, |env| {
        load_key(env, &der, false, PublicKey::from_spki_der)
    })
}

/// The public key of a private key handle, as a public key handle (the
/// checked key shared, nothing parsed or checked again).
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_kemPublicOf<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
) -> jlong {
    entry(&mut env, |_| {
        // SAFETY: a live ML-KEM private key handle (see `from_handle`).
        let key = unsafe { from_handle::<PrivateKey>(handle)? };
        Ok(Handle(key.public_key().clone()))
    })
}

free_fn!(Java_dev_parcrypt_jca_Native_kemPrivateFree, PrivateKey);
free_fn!(Java_dev_parcrypt_jca_Native_kemPublicFree, PublicKey);

encode_fn!(
    /// `what` 0 = PKCS#8 DER (the seed form, or the expanded one for a key
    /// read without its seed), 2 = the raw expanded decapsulation key. The
    /// public key: `kemPublicOf`.
    Java_dev_parcrypt_jca_Native_kemPrivateEncode,
    PrivateKey,
    |key| {
        0 => key.to_pkcs8_der()?,
        2 => key.to_expanded_bytes()?,
    }
);

encode_fn!(
    /// `what` 0 = SPKI DER.
    Java_dev_parcrypt_jca_Native_kemPublicEncode,
    PublicKey,
    |key| {
        0 => key.to_spki_der()?,
    }
);

/// ML-KEM.Encaps: the ciphertext followed by the 32-byte shared secret, in
/// one array (the native copy of the secret is wiped).
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_kemEncapsulate<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
) -> jbyteArray {
    entry(&mut env, |_| {
        // SAFETY: a live ML-KEM public key handle (see `from_handle`).
        let key = unsafe { from_handle::<PublicKey>(handle)? };
        let (secret, ciphertext) = key.encapsulate()?;
        let mut out = SecretBytes::new(vec![0u8; ciphertext.len() + secret.expose().len()]);
        let (ct, ss) = out.expose_mut().split_at_mut(ciphertext.len());
        ct.copy_from_slice(&ciphertext);
        ss.copy_from_slice(secret.expose());
        Ok(out)
    })
}

/// ML-KEM.Decaps: the 32-byte shared secret of `ciphertext` (implicit
/// rejection: a foreign ciphertext of the right length gives a pseudorandom
/// secret); a ciphertext of the wrong length throws `DecapsulateException`.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_kemDecapsulate<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    ciphertext: JByteArray<'l>,
) -> jbyteArray {
    entry(&mut env, |env| {
        // SAFETY: a live ML-KEM private key handle (see `from_handle`).
        let key = unsafe { from_handle::<PrivateKey>(handle)? };
        let ciphertext = bytes(env, &ciphertext, "ciphertext")?;
        let secret = key.decapsulate(&ciphertext)?;
        Ok(SecretBytes::new(secret.expose().to_vec()))
    })
}
