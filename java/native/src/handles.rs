//! Handles (`Box`es handed to Java as a `long`) and the macros that free
//! them and load and encode keys for every key type alike.

use jni::JNIEnv;
use jni::objects::JByteArray;
use jni::sys::jlong;

use crate::*;

/// Moves `value` to the heap and returns it as a handle for Java.
pub fn into_handle<T>(value: T) -> jlong {
    Box::into_raw(Box::new(value)) as jlong
}

/// The object behind a handle from [`into_handle`].
///
/// # Safety
/// `handle` must come from `into_handle::<T>` and not have been freed; the
/// Java owner guarantees this (it frees once, after its last use).
pub unsafe fn from_handle<'h, T>(handle: jlong) -> Res<&'h T> {
    if handle == 0 {
        return fail(ILLEGAL_STATE, "the native object was already released");
    }
    // SAFETY: per this function's contract the pointer is a live Box<T>.
    Ok(unsafe { &*(handle as *const T) })
}

/// Frees a handle from [`into_handle`]; 0 is ignored.
///
/// # Safety
/// As [`from_handle`], and no other use of `handle` may follow.
pub unsafe fn free_handle<T>(handle: jlong) {
    if handle != 0 {
        // SAFETY: per this function's contract the pointer is a live Box<T>
        // that nothing uses afterwards.
        drop(unsafe { Box::from_raw(handle as *mut T) });
    }
}

/// Declares `extern "system" fn Java_dev_parcrypt_jca_Native_<name>` for a
/// handle type: frees the handle.
#[macro_export]
macro_rules! free_fn {
    ($jname:ident, $ty:ty) => {
        #[unsafe(no_mangle)]
        pub extern "system" fn $jname(
            mut env: jni::JNIEnv<'_>,
            _class: jni::objects::JClass<'_>,
            handle: jni::sys::jlong,
        ) {
            $crate::guard(&mut env, (), |_| {
                // SAFETY: the Java owner frees each handle once, after its
                // last use (see `from_handle`).
                unsafe { $crate::free_handle::<$ty>(handle) };
                Ok(())
            })
        }
    };
}

/// Parses a key from the DER of `der` with `parse`; a private key's bytes
/// (`secret`) are wiped once parsed.
pub fn load_key<T, E>(
    env: &JNIEnv<'_>,
    der: &JByteArray<'_>,
    secret: bool,
    parse: impl FnOnce(&[u8]) -> Result<T, E>,
) -> Res<Handle<T>>
where
    Fail: From<E>,
{
    let parsed = if secret {
        parse(secret_bytes(env, der, "encoded key")?.expose())
    } else {
        parse(&bytes(env, der, "encoded key")?)
    };
    Ok(Handle(parsed?))
}

/// Declares the entry points of a key type: `$load(byte[] der) -> long`
/// (the type's `from_bytes`; `private` keys' DER is wiped once parsed) and
/// `$free(long)` (see [`free_fn!`]). For RSA and ECDSA keys, which are only
/// parsed: their readers are given one thread (SLH-DSA's, which rebuild a
/// tree, take the provider's: `sigPrivateLoad`).
#[macro_export]
macro_rules! key_fns {
    ($(#[$doc:meta])* $kind:ident $load:ident, $free:ident, $ty:ty) => {
        $(#[$doc])*
        #[unsafe(no_mangle)]
        pub extern "system" fn $load<'l>(
            mut env: jni::JNIEnv<'l>,
            _class: jni::objects::JClass<'l>,
            der: jni::objects::JByteArray<'l>,
        ) -> jni::sys::jlong {
            $crate::entry(&mut env, |env| {
                $crate::load_key(env, &der, $crate::key_fns!(@secret $kind), |d| {
                    <$ty>::from_bytes(d, &parcrypt::par::Parallelism::sequential())
                })
            })
        }

        $crate::free_fn!($free, $ty);
    };
    (@secret private) => {
        true
    };
    (@secret public) => {
        false
    };
}

/// Declares `$name(long handle, int what) -> byte[]`: the key behind a
/// handle of `$ty` in the encoding numbered `what`, one arm per code
/// (`|key| { 0 => …, 1 => … }`); another code is an
/// `IllegalArgumentException`.
#[macro_export]
macro_rules! encode_fn {
    ($(#[$doc:meta])* $name:ident, $ty:ty, |$key:ident| { $($code:literal => $encode:expr),+ $(,)? }) => {
        $(#[$doc])*
        #[unsafe(no_mangle)]
        pub extern "system" fn $name<'l>(
            mut env: jni::JNIEnv<'l>,
            _class: jni::objects::JClass<'l>,
            handle: jni::sys::jlong,
            what: jni::sys::jint,
        ) -> jni::sys::jbyteArray {
            $crate::entry(&mut env, |_| {
                // SAFETY: Java passes a live handle of this key type (see `from_handle`).
                let $key = unsafe { $crate::from_handle::<$ty>(handle)? };
                match what {
                    $($code => Ok($encode),)+
                    other => $crate::fail($crate::ILLEGAL_ARG, format!("unknown encoding code {other}")),
                }
            })
        }
    };
}

/// Public keys of a batch parsed once each: the distinct keys, and for each
/// encoding in `ders` the index of its key (a batch is usually few signers).
/// A key that does not parse is an `InvalidKeyException` naming its index.
pub fn parse_once<T, E: std::fmt::Display>(
    ders: &[Vec<u8>],
    parse: impl Fn(&[u8]) -> Result<T, E>,
) -> Res<(Vec<T>, Vec<usize>)> {
    let mut parsed: Vec<T> = Vec::new();
    let mut index_of: std::collections::HashMap<&[u8], usize> = std::collections::HashMap::new();
    let mut key_at = Vec::with_capacity(ders.len());
    for (i, der) in ders.iter().enumerate() {
        let k = match index_of.get(der.as_slice()) {
            Some(&k) => k,
            None => {
                let key = parse(der).map_err(|e| Fail::Throw(INVALID_KEY, format!("keys[{i}]: {e}")))?;
                parsed.push(key);
                index_of.insert(der, parsed.len() - 1);
                parsed.len() - 1
            }
        };
        key_at.push(k);
    }
    Ok((parsed, key_at))
}

/// Refuses a batch without one key, one message and one signature per item.
pub fn one_each(keys: usize, messages: usize, signatures: usize) -> Res<()> {
    if keys != messages || keys != signatures {
        return fail(
            ILLEGAL_ARG,
            format!(
                "{keys} keys, {messages} messages and {signatures} signatures: give one of each per item"
            ),
        );
    }
    Ok(())
}
