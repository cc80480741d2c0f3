//! The streaming AES-CTR / AES-CBC crypter behind `Cipher.update`/`doFinal`
//! (`crypterNew`, `crypterUpdate`, `crypterFinish`).

use std::sync::Mutex;

use jni::JNIEnv;
use jni::objects::{JByteArray, JClass};
use jni::sys::{jbyteArray, jint, jlong};
use parcrypt::aes::Crypter;

use parcrypt::secret::SecretBytes;

use crate::{
    Fail, Handle, ILLEGAL_ARG, ILLEGAL_STATE, Res, bytes, entry, fail, free_fn, from_handle, par,
    read_region, secret_bytes, write_region,
};

/// The message for a CTR / CBC cipher used after `doFinal`.
const FINISHED: &str = "the cipher is finished; initialise it again";

/// A CTR or CBC crypter; the mutex keeps a misused Cipher shared between
/// threads memory-safe (the JCA does not promise more).
type CrypterHandle = Mutex<Option<Crypter>>;

/// `mode` 0 = CTR, 1 = CBC encrypt (PKCS#7), 2 = CBC decrypt (PKCS#7).
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_crypterNew<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    mode: jint,
    key: JByteArray<'l>,
    iv: JByteArray<'l>,
) -> jlong {
    entry(&mut env, |env| {
        let key = secret_bytes(env, &key, "key")?;
        let iv = bytes(env, &iv, "iv")?;
        let crypter = match mode {
            0 => Crypter::ctr(key.expose(), &iv),
            1 => Crypter::cbc_encrypt(key.expose(), &iv),
            2 => Crypter::cbc_decrypt(key.expose(), &iv),
            other => return fail(ILLEGAL_ARG, format!("unknown crypter mode {other}")),
        }?;
        Ok(Handle::<CrypterHandle>(Mutex::new(Some(crypter))))
    })
}

free_fn!(Java_dev_parcrypt_jca_Native_crypterFree, CrypterHandle);

/// Runs `f` on the crypter behind `handle` (`None` once finished).
fn with_crypter<T>(handle: jlong, f: impl FnOnce(&mut Option<Crypter>) -> Res<T>) -> Res<T> {
    // SAFETY: a live crypter handle (see `from_handle`).
    let cell = unsafe { from_handle::<CrypterHandle>(handle)? };
    let mut guard = cell
        .lock()
        .or_else(|_| fail(ILLEGAL_STATE, "the cipher failed earlier; initialise it again"))?;
    f(&mut guard)
}

/// The crypter, unless it is finished.
fn unfinished(c: &mut Option<Crypter>) -> Res<&mut Crypter> {
    c.as_mut()
        .ok_or_else(|| Fail::Throw(ILLEGAL_STATE, FINISHED.into()))
}

/// The bytes `crypterUpdate` would write for `len` more input bytes.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_crypterUpdateLen<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    len: jint,
) -> jint {
    entry(&mut env, |_| {
        let len = usize::try_from(len).or_else(|_| fail(ILLEGAL_ARG, "negative length"))?;
        with_crypter(handle, |c| Ok(unfinished(c)?.update_len(len)))
    })
}

/// Processes `len` bytes of `input`; writes what is ready into `out` at
/// `out_off` (the caller sized it with `crypterUpdateLen`); returns the count.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_crypterUpdate<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    input: JByteArray<'l>,
    in_off: jint,
    len: jint,
    out: JByteArray<'l>,
    out_off: jint,
    threads: jint,
    strategy: jint,
) -> jint {
    entry(&mut env, |env| {
        let par = par(threads, strategy)?;
        let src = SecretBytes::new(read_region(env, &input, in_off, len, 0)?);
        with_crypter(handle, |c| {
            let c = unfinished(c)?;
            let mut dst = SecretBytes::zeroed(c.update_len(src.len()));
            let n = c.update_into(src.expose(), dst.expose_mut(), &par)?;
            write_region(env, &out, out_off, &dst.expose()[..n])?;
            Ok(n)
        })
    })
}

/// Ends the message: returns the last bytes (padding added, or checked and
/// removed: `BadPaddingException` / `IllegalBlockSizeException`).
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_crypterFinish<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
) -> jbyteArray {
    entry(&mut env, |_| {
        let crypter = with_crypter(handle, |c| {
            c.take()
                .ok_or_else(|| Fail::Throw(ILLEGAL_STATE, FINISHED.into()))
        })?;
        Ok(SecretBytes::new(crypter.finish()?))
    })
}
