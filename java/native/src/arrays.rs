//! Java arrays to and from native memory: copies in and out (regions),
//! pinned arrays for the calls that work on them in place ([`Pinned`]),
//! lengths and offsets checked against the array.

use std::mem::MaybeUninit;
use std::ops::Range;

use jni::JNIEnv;
use jni::objects::{JByteArray, JObject, JObjectArray};
use jni::sys::{jbyte, jint, jlong};
use parcrypt::io::Input;
use parcrypt::secret::SecretBytes;

use crate::*;

/// `u8` bytes as JNI's `jbyte` (`i8`).
pub fn as_jbytes(b: &[u8]) -> &[jbyte] {
    // SAFETY: u8 and i8 have the same size and alignment; every bit pattern
    // is valid for both; the lifetime and length are carried over.
    unsafe { std::slice::from_raw_parts(b.as_ptr().cast::<jbyte>(), b.len()) }
}

/// `u8` bytes as JNI's `jbyte` (`i8`), writable.
pub fn as_jbytes_mut(b: &mut [u8]) -> &mut [jbyte] {
    // SAFETY: as in `as_jbytes`; the exclusive borrow is carried over.
    unsafe { std::slice::from_raw_parts_mut(b.as_mut_ptr().cast::<jbyte>(), b.len()) }
}

pub fn len_of(len: jint, what: &str) -> Res<usize> {
    usize::try_from(len).or_else(|_| fail(ILLEGAL_ARG, format!("{what}: negative length {len}")))
}

/// `len` bytes of `array` from `off` into a new native buffer with `extra`
/// zero bytes after them (JNI checks the bounds:
/// `ArrayIndexOutOfBoundsException`).
pub fn read_region(
    env: &JNIEnv<'_>,
    array: &JByteArray<'_>,
    off: jint,
    len: jint,
    extra: usize,
) -> Res<Vec<u8>> {
    let n = len_of(len, "input")?;
    let mut buf = vec![0u8; n + extra];
    env.get_byte_array_region(array, off, as_jbytes_mut(&mut buf[..n]))?;
    Ok(buf)
}

/// `len` bytes of `array` from `off` into the front of `room`, which may be
/// uninitialised, and zeros after them (JNI checks the bounds:
/// `ArrayIndexOutOfBoundsException`): the whole of `room`, initialised.
/// Nothing is zeroed first, where [`read_region`]'s new buffer would be.
///
/// # Panics
/// If `room` is shorter than `len`.
pub fn read_into<'b>(
    env: &JNIEnv<'_>,
    array: &JByteArray<'_>,
    off: jint,
    len: usize,
    room: &'b mut [MaybeUninit<u8>],
) -> Res<&'b mut [u8]> {
    if array.is_null() {
        return fail("java/lang/NullPointerException", "null argument (array)");
    }
    let (head, tail) = room.split_at_mut(len);
    let n =
        jint::try_from(len).or_else(|_| fail(ILLEGAL_ARG, format!("{len} bytes do not fit a Java array")))?;
    let raw = env.get_native_interface();
    // SAFETY: `raw` is this thread's live JNIEnv, whose function table JNI
    // guarantees; `array` is a live, non-null local reference to a byte[];
    // `head` has room for `n` bytes, which JNI writes (raw bytes: MaybeUninit
    // is fine) or, out of bounds, leaves alone and throws.
    let copied = unsafe {
        match (**raw).GetByteArrayRegion {
            Some(get) => {
                get(raw, array.as_raw(), off, n, head.as_mut_ptr().cast());
                true
            }
            None => false,
        }
    };
    // Without the copy `head` is still uninitialised: it must not be
    // handed out as bytes.
    if !copied {
        return fail(PROVIDER, "JNI has no GetByteArrayRegion");
    }
    // A JNI without ExceptionCheck is an error here too (jni-rs reports the
    // missing function), never taken as "no exception".
    if env.exception_check()? {
        return Err(Fail::Pending);
    }
    for b in tail {
        b.write(0);
    }
    // SAFETY: every byte of `room` is initialised: the head by JNI (no
    // exception is pending, so all of it was copied), the tail just above;
    // `[MaybeUninit<u8>]` and `[u8]` have the same layout.
    Ok(unsafe { &mut *(std::ptr::from_mut(room) as *mut [u8]) })
}

/// `room` filled with zeros, as initialised bytes.
pub fn zeroed(room: &mut [MaybeUninit<u8>]) -> &mut [u8] {
    for b in room.iter_mut() {
        b.write(0);
    }
    // SAFETY: every byte was just written; same layout as in `read_into`.
    unsafe { &mut *(std::ptr::from_mut(room) as *mut [u8]) }
}

/// `len` bytes from `off` of an array of `array_len`: the range, or
/// `ArrayIndexOutOfBoundsException` (what `GetByteArrayRegion` throws).
pub fn range_in(off: jint, len: usize, array_len: jint, what: &str) -> Res<Range<usize>> {
    let (off_u, array_u) = (usize::try_from(off).ok(), usize::try_from(array_len).unwrap_or(0));
    match off_u.and_then(|o| Some(o..o.checked_add(len)?)) {
        Some(r) if r.end <= array_u => Ok(r),
        _ => fail(
            "java/lang/ArrayIndexOutOfBoundsException",
            format!("{what}: {len} bytes from {off} past an array of {array_len}"),
        ),
    }
}

/// A Java `byte[]`'s elements, pinned with `GetPrimitiveArrayCritical`
/// until dropped: native code reads and writes the Java array itself.
///
/// While one is alive the thread must make no JNI call and must not wait on
/// a Java thread (the collector may be held off): read every argument
/// before pinning, and let exceptions be thrown after the drop (entry
/// points return a [`Fail`], which [`guard`] throws once the body is done).
/// Worker threads of the parallel code are not Java threads and never call
/// into the JVM.
pub struct Pinned<'a> {
    env: *mut jni::sys::JNIEnv,
    /// Null when nothing was pinned (an empty array the JVM gave no address).
    array: jni::sys::jarray,
    ptr: *mut u8,
    len: usize,
    /// Whether a copy (if the JVM made one) is written back on release.
    write_back: bool,
    /// Whether the JVM handed over a copy of its own (then nobody else
    /// writes these bytes) rather than the array itself (which other Java
    /// threads may write while native code reads it).
    copied: bool,
    _array: std::marker::PhantomData<&'a ()>,
}

impl<'a> Pinned<'a> {
    /// Pins `array`, whose length (read before) is `len`. Nothing is written
    /// back to the Java array unless [`Pinned::write_back`] is called.
    ///
    /// # Safety
    /// `len` must be the array's length, and no other pin of the same array
    /// may be alive (the slices handed out are exclusive).
    pub unsafe fn new(env: &JNIEnv<'_>, array: &'a JByteArray<'_>, len: usize) -> Res<Self> {
        let raw = env.get_native_interface();
        let mut is_copy = 0;
        // SAFETY: `raw` is this thread's live JNIEnv, whose function table
        // JNI guarantees; `array` is a live local reference to a byte[].
        let ptr = unsafe {
            match (**raw).GetPrimitiveArrayCritical {
                Some(get) => get(raw, array.as_raw(), &mut is_copy),
                None => std::ptr::null_mut(),
            }
        };
        if ptr.is_null() {
            if len == 0 {
                // A JVM may have no address for an empty array; there is
                // nothing to read or write, and nothing to release.
                return Ok(Pinned {
                    env: raw,
                    array: std::ptr::null_mut(),
                    ptr: std::ptr::NonNull::dangling().as_ptr(),
                    len,
                    write_back: false,
                    copied: true,
                    _array: std::marker::PhantomData,
                });
            }
            // Out of memory for a copy (the JVM may have an OutOfMemoryError
            // pending, which `guard` then lets through instead).
            return fail(PROVIDER, "GetPrimitiveArrayCritical failed: out of memory");
        }
        Ok(Pinned {
            env: raw,
            array: array.as_raw(),
            ptr: ptr.cast(),
            len,
            write_back: false,
            copied: is_copy != 0,
            _array: std::marker::PhantomData,
        })
    }

    /// The elements.
    pub fn bytes(&mut self) -> &mut [u8] {
        // SAFETY: the JVM keeps `len` elements at `ptr` until the release in
        // `drop` (or `len` is 0 and `ptr` is dangling but non-null and
        // aligned, which an empty slice allows); `new`'s contract makes this
        // the only view of them, and the `&mut self` borrow keeps it so.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) }
    }

    /// The elements `range` as a call's input, as the library's rule
    /// wants it said ([`Input`]): shared when the JVM pinned the array
    /// itself (HotSpot does), since another Java thread may write it while
    /// the call reads it; private for a copy the JVM made for this call.
    /// An authenticated decryption reads a shared input once, through a
    /// private copy.
    ///
    /// # Panics
    /// If `range` is outside the array.
    pub fn input(&mut self, range: Range<usize>) -> Input<'_> {
        let copied = self.copied;
        Input::new(&self.bytes()[range], copied)
    }

    /// Writes a copy back to the Java array on release (a no-op when the
    /// JVM pinned the array itself, as HotSpot does).
    pub fn write_back(&mut self) {
        self.write_back = true;
    }
}

impl std::fmt::Debug for Pinned<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The bytes may be plaintext: only the length.
        f.debug_struct("Pinned")
            .field("len", &self.len)
            .finish_non_exhaustive()
    }
}

impl Drop for Pinned<'_> {
    fn drop(&mut self) {
        if self.array.is_null() {
            return;
        }
        let mode = if self.write_back { 0 } else { jni::sys::JNI_ABORT };
        // SAFETY: releases exactly what `new` pinned, once, on the same thread.
        unsafe {
            if let Some(release) = (**self.env).ReleasePrimitiveArrayCritical {
                release(self.env, self.array, self.ptr.cast(), mode);
            }
        }
    }
}

/// The whole of `array`; `None` for a null array.
pub fn bytes_opt(env: &JNIEnv<'_>, array: &JByteArray<'_>) -> Res<Option<Vec<u8>>> {
    if array.is_null() {
        return Ok(None);
    }
    Ok(Some(env.convert_byte_array(array)?))
}

/// The whole of a non-null `array`.
pub fn bytes(env: &JNIEnv<'_>, array: &JByteArray<'_>, what: &str) -> Res<Vec<u8>> {
    bytes_opt(env, array)?
        .ok_or_else(|| Fail::Throw("java/lang/NullPointerException", format!("{what} is null")))
}

/// The whole of a non-null `array` holding a secret (a key, a plaintext):
/// wiped when dropped.
pub fn secret_bytes(env: &JNIEnv<'_>, array: &JByteArray<'_>, what: &str) -> Res<SecretBytes> {
    Ok(SecretBytes::new(bytes(env, array, what)?))
}

/// The whole of `array` holding a secret (a key, a passphrase), or `None`
/// for a null array: wiped when dropped from the moment it is read, so an
/// error in a later argument wipes it too.
pub fn secret_bytes_opt(env: &JNIEnv<'_>, array: &JByteArray<'_>) -> Res<Option<SecretBytes>> {
    Ok(bytes_opt(env, array)?.map(SecretBytes::new))
}

/// A Java `long` that must not be negative (an index, a size), as `u64`.
pub fn unsigned(value: jlong, what: &str) -> Res<u64> {
    u64::try_from(value).or_else(|_| fail(ILLEGAL_ARG, format!("negative {what} {value}")))
}

/// Writes `data` into `array` at `off` (bounds checked by JNI).
pub fn write_region(env: &JNIEnv<'_>, array: &JByteArray<'_>, off: jint, data: &[u8]) -> Res<()> {
    env.set_byte_array_region(array, off, as_jbytes(data))?;
    Ok(())
}

/// [`write_region`] as an entry point's last JNI call: out of bounds, JNI
/// leaves an `ArrayIndexOutOfBoundsException` pending (and writes nothing),
/// which Java receives when the native method returns; no exception check
/// here, which would be one more JNI call per message. Make no JNI call
/// after this one.
pub fn write_region_last(env: &JNIEnv<'_>, array: &JByteArray<'_>, off: jint, data: &[u8]) -> Res<()> {
    if array.is_null() {
        return fail("java/lang/NullPointerException", "null argument (array)");
    }
    let n = jint::try_from(data.len()).or_else(|_| {
        fail(
            ILLEGAL_ARG,
            format!("{} bytes do not fit a Java array", data.len()),
        )
    })?;
    let raw = env.get_native_interface();
    // SAFETY: `raw` is this thread's live JNIEnv, whose function table JNI
    // guarantees; `array` is a live, non-null local reference to a byte[];
    // JNI reads `n` bytes from `data`, which holds them.
    unsafe {
        match (**raw).SetByteArrayRegion {
            Some(set) => set(raw, array.as_raw(), off, n, data.as_ptr().cast()),
            None => return fail(PROVIDER, "JNI has no SetByteArrayRegion"),
        }
    }
    Ok(())
}

/// A new Java `byte[]` holding `data`, as the raw reference a native method returns.
pub fn new_array(env: &JNIEnv<'_>, data: &[u8]) -> Res<jni::sys::jbyteArray> {
    Ok(env.byte_array_from_slice(data)?.into_raw())
}

/// The elements of a `byte[][]`.
pub fn array_of_arrays(env: &mut JNIEnv<'_>, arrays: &JObjectArray<'_>, what: &str) -> Res<Vec<Vec<u8>>> {
    if arrays.is_null() {
        return fail("java/lang/NullPointerException", format!("{what} is null"));
    }
    let n = env.get_array_length(arrays)?;
    let mut out = Vec::with_capacity(usize::try_from(n).unwrap_or(0));
    for i in 0..n {
        let item = env.get_object_array_element(arrays, i)?;
        let item = JByteArray::from(item);
        out.push(bytes(env, &item, &format!("{what}[{i}]"))?);
        env.delete_local_ref(JObject::from(item))?;
    }
    Ok(out)
}
