//! What every entry point shares: [`entry`] runs its body (see
//! [`crate::guard`]: errors and panics become Java exceptions) and turns the
//! Rust value the body returns into the JNI value Java receives
//! ([`ToJava`]), so an entry point states only what is its own.

use jni::JNIEnv;
use jni::objects::JObject;
use jni::sys::{JNI_FALSE, JNI_TRUE, jboolean, jbooleanArray, jbyteArray, jint, jlong, jobjectArray};
use parcrypt::secret::SecretBytes;

use crate::{PROVIDER, Res, fail, guard, into_handle, new_array};

/// Runs an entry point's body and hands its value to Java; on an error or a
/// panic the exception is thrown and the JVM gets [`ToJava::NONE`], which it
/// ignores.
pub fn entry<'l, R: ToJava>(env: &mut JNIEnv<'l>, body: impl FnOnce(&mut JNIEnv<'l>) -> Res<R>) -> R::Raw {
    guard(env, R::NONE, |env| body(env)?.to_java(env))
}

/// A value an entry point's body returns, as the JNI value Java receives.
pub trait ToJava {
    /// The JNI type of the native method's result.
    type Raw;
    /// What the method returns when it throws instead (the JVM ignores it).
    const NONE: Self::Raw;
    /// The JNI value (a new Java object where it is one).
    fn to_java(self, env: &mut JNIEnv<'_>) -> Res<Self::Raw>;
}

impl ToJava for () {
    type Raw = ();
    const NONE: () = ();
    fn to_java(self, _: &mut JNIEnv<'_>) -> Res<()> {
        Ok(())
    }
}

impl ToJava for bool {
    type Raw = jboolean;
    const NONE: jboolean = JNI_FALSE;
    fn to_java(self, _: &mut JNIEnv<'_>) -> Res<jboolean> {
        Ok(if self { JNI_TRUE } else { JNI_FALSE })
    }
}

/// A length or a count, as Java's `int`.
impl ToJava for usize {
    type Raw = jint;
    const NONE: jint = 0;
    fn to_java(self, _: &mut JNIEnv<'_>) -> Res<jint> {
        jint::try_from(self).or_else(|_| fail(PROVIDER, format!("{self} does not fit a Java int")))
    }
}

/// A new `byte[]`.
impl ToJava for Vec<u8> {
    type Raw = jbyteArray;
    const NONE: jbyteArray = std::ptr::null_mut();
    fn to_java(self, env: &mut JNIEnv<'_>) -> Res<jbyteArray> {
        new_array(env, &self)
    }
}

/// A new `byte[]` of a fixed size (a digest, a hash).
impl<const N: usize> ToJava for [u8; N] {
    type Raw = jbyteArray;
    const NONE: jbyteArray = std::ptr::null_mut();
    fn to_java(self, env: &mut JNIEnv<'_>) -> Res<jbyteArray> {
        new_array(env, &self)
    }
}

/// A new `byte[]` of secret bytes (a plaintext, a private key's DER): the
/// native copy is wiped once Java has its own.
impl ToJava for SecretBytes {
    type Raw = jbyteArray;
    const NONE: jbyteArray = std::ptr::null_mut();
    fn to_java(self, env: &mut JNIEnv<'_>) -> Res<jbyteArray> {
        new_array(env, self.expose())
    }
}

/// A `byte[]`, or null for `None`.
impl<T: ToJava<Raw = jbyteArray>> ToJava for Option<T> {
    type Raw = jbyteArray;
    const NONE: jbyteArray = std::ptr::null_mut();
    fn to_java(self, env: &mut JNIEnv<'_>) -> Res<jbyteArray> {
        match self {
            Some(value) => value.to_java(env),
            None => Ok(std::ptr::null_mut()),
        }
    }
}

/// A new `boolean[]`.
impl ToJava for Vec<bool> {
    type Raw = jbooleanArray;
    const NONE: jbooleanArray = std::ptr::null_mut();
    fn to_java(self, env: &mut JNIEnv<'_>) -> Res<jbooleanArray> {
        let flags: Vec<jboolean> = self
            .iter()
            .map(|&b| if b { JNI_TRUE } else { JNI_FALSE })
            .collect();
        let len = flags.len().to_java(env)?;
        let array = env.new_boolean_array(len)?;
        env.set_boolean_array_region(&array, 0, &flags)?;
        Ok(array.into_raw())
    }
}

/// A new `byte[][]` of hashes.
impl<const N: usize> ToJava for Vec<[u8; N]> {
    type Raw = jobjectArray;
    const NONE: jobjectArray = std::ptr::null_mut();
    fn to_java(self, env: &mut JNIEnv<'_>) -> Res<jobjectArray> {
        self.into_iter().map(Some).collect::<Vec<_>>().to_java(env)
    }
}

/// A new `byte[][]` of hashes, null where an element is `None`.
impl<const N: usize> ToJava for Vec<Option<[u8; N]>> {
    type Raw = jobjectArray;
    const NONE: jobjectArray = std::ptr::null_mut();
    fn to_java(self, env: &mut JNIEnv<'_>) -> Res<jobjectArray> {
        arrays_to_java(env, self.iter().map(|h| h.as_ref().map(|h| &h[..])), self.len())
    }
}

/// A new `byte[][]` (signatures).
impl ToJava for Vec<Vec<u8>> {
    type Raw = jobjectArray;
    const NONE: jobjectArray = std::ptr::null_mut();
    fn to_java(self, env: &mut JNIEnv<'_>) -> Res<jobjectArray> {
        arrays_to_java(env, self.iter().map(|b| Some(b.as_slice())), self.len())
    }
}

/// A new `byte[][]` of `len` elements, null where an item is `None`.
fn arrays_to_java<'a>(
    env: &mut JNIEnv<'_>,
    items: impl Iterator<Item = Option<&'a [u8]>>,
    len: usize,
) -> Res<jobjectArray> {
    let len = len.to_java(env)?;
    let array = env.new_object_array(len, "[B", JObject::null())?;
    for (i, item) in items.enumerate() {
        if let Some(bytes) = item {
            let item = env.byte_array_from_slice(bytes)?;
            // i < len, which fits a jint (checked above).
            env.set_object_array_element(&array, i as jint, &item)?;
            env.delete_local_ref(item)?;
        }
    }
    Ok(array.into_raw())
}

/// A new native object, handed to Java as a handle (see [`into_handle`]).
#[derive(Debug)]
pub struct Handle<T>(pub T);

impl<T> ToJava for Handle<T> {
    type Raw = jlong;
    const NONE: jlong = 0;
    fn to_java(self, _: &mut JNIEnv<'_>) -> Res<jlong> {
        Ok(into_handle(self.0))
    }
}
