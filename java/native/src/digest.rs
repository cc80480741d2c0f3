//! Incremental hashing for the signature engines (the message is hashed as
//! `Signature.update` feeds it, never buffered).

use std::sync::Mutex;

use jni::JNIEnv;
use jni::objects::{JByteArray, JClass};
use jni::sys::{jbyteArray, jint, jlong};
use parcrypt::digest::{Algorithm, Hasher};

use crate::{
    ILLEGAL_ARG, ILLEGAL_STATE, Res, fail, free_fn, from_handle, guard, into_handle, new_array, read_region,
};

/// The hash a Java call names by its bit length: 1 (SHA-1), 256, 384, 512.
pub fn algorithm(code: jint) -> Res<Algorithm> {
    match code {
        1 => Ok(Algorithm::Sha1),
        256 => Ok(Algorithm::Sha256),
        384 => Ok(Algorithm::Sha384),
        512 => Ok(Algorithm::Sha512),
        other => fail(ILLEGAL_ARG, format!("unknown hash code {other}")),
    }
}

type HasherHandle = Mutex<Option<Hasher>>;

#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_hasherNew<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    hash: jint,
) -> jlong {
    guard(&mut env, 0, |_| {
        let handle: HasherHandle = Mutex::new(Some(Hasher::new(algorithm(hash)?)));
        Ok(into_handle(handle))
    })
}

free_fn!(Java_dev_parcrypt_jca_Native_hasherFree, HasherHandle);

fn with<T>(handle: jlong, f: impl FnOnce(&mut Option<Hasher>) -> Res<T>) -> Res<T> {
    // SAFETY: a live hasher handle (see `from_handle`).
    let cell = unsafe { from_handle::<HasherHandle>(handle)? };
    let mut guard = cell
        .lock()
        .or_else(|_| fail(ILLEGAL_STATE, "the hasher failed earlier"))?;
    f(&mut guard)
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_hasherUpdate<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    input: JByteArray<'l>,
    off: jint,
    len: jint,
) {
    guard(&mut env, (), |env| {
        let data = read_region(env, &input, off, len, 0)?;
        with(handle, |h| match h {
            Some(h) => {
                h.update(&data);
                Ok(())
            }
            None => fail(ILLEGAL_STATE, "the hasher is finished"),
        })
    })
}

/// The digest so far; the hasher starts again empty (as `MessageDigest.digest()`).
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_hasherFinish<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
) -> jbyteArray {
    guard(&mut env, std::ptr::null_mut(), |env| {
        let digest = with(handle, |h| match h.take() {
            Some(old) => {
                let alg = old.algorithm();
                *h = Some(Hasher::new(alg));
                Ok(old.finish())
            }
            None => fail(ILLEGAL_STATE, "the hasher is finished"),
        })?;
        new_array(env, &digest)
    })
}
