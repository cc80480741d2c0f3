//! Password-protected private keys: PKCS#8 `EncryptedPrivateKeyInfo`
//! (PBES2) decrypted to and encrypted from a `PrivateKeyInfo`, for
//! `ParcryptKeys`.

use jni::JNIEnv;
use jni::objects::{JByteArray, JClass};
use jni::sys::{jbyteArray, jint};
use parcrypt::pkcs8::{self, Cipher, Error, Options};
use parcrypt::secret::SecretBytes;

use crate::{Fail, ILLEGAL_ARG, INVALID_KEY, INVALID_PARAM, PROVIDER, bytes, entry, fail, secret_bytes};

impl From<Error> for Fail {
    fn from(e: Error) -> Self {
        let msg = e.to_string();
        let class = match e {
            Error::Options(_) => INVALID_PARAM,
            Error::Backend => PROVIDER,
            // A wrong password is an InvalidKeyException, as the JDK's
            // EncryptedPrivateKeyInfo.getKeySpec(Key) throws.
            _ => INVALID_KEY,
        };
        Fail::Throw(class, msg)
    }
}

/// The DER `PrivateKeyInfo` inside the DER `EncryptedPrivateKeyInfo`
/// `encrypted`, decrypted with `password` (UTF-8, as the JDK's PBKDF2).
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_pkcs8Decrypt<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    encrypted: JByteArray<'l>,
    password: JByteArray<'l>,
) -> jbyteArray {
    entry(&mut env, |env| {
        let encrypted = bytes(env, &encrypted, "encrypted key")?;
        let password: SecretBytes = secret_bytes(env, &password, "password")?;
        Ok(pkcs8::decrypt_der(&encrypted, password.expose())?)
    })
}

/// `key` (a DER `PrivateKeyInfo`) encrypted under `password`: `cipher` 0,
/// 1, 2 = AES-128/192/256-CBC, `iterations` of PBKDF2-HMAC-SHA256 (0 =
/// OpenSSL's 2048).
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_pkcs8Encrypt<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    key: JByteArray<'l>,
    password: JByteArray<'l>,
    cipher: jint,
    iterations: jint,
) -> jbyteArray {
    entry(&mut env, |env| {
        let key = secret_bytes(env, &key, "key")?;
        let password = secret_bytes(env, &password, "password")?;
        let cipher = match cipher {
            0 => Cipher::Aes128Cbc,
            1 => Cipher::Aes192Cbc,
            2 => Cipher::Aes256Cbc,
            other => return fail(ILLEGAL_ARG, format!("unknown cipher code {other}")),
        };
        let mut options = Options::with_cipher(cipher);
        if iterations != 0 {
            let Ok(iterations) = u32::try_from(iterations) else {
                return fail(INVALID_PARAM, format!("{iterations} iterations"));
            };
            options.kdf = pkcs8::Kdf::Pbkdf2 {
                prf: pkcs8::Prf::HmacSha256,
                iterations,
            };
        }
        Ok(pkcs8::encrypt_der(key.expose(), password.expose(), &options)?)
    })
}
