//! The native side of the Java provider `Parcrypt` (`java/`): JNI entry
//! points over the parcrypt library, called from `dev.parcrypt.jca.Native`.
//!
//! Rules every entry point keeps:
//! - **Nothing reaches the JVM as a crash.** Each body runs inside [`guard`]
//!   (through [`entry`]): a panic is caught (`catch_unwind`) and becomes a
//!   `ProviderException`; a library error becomes the exception the JCA
//!   names for it (`AEADBadTagException`, `BadPaddingException`,
//!   `InvalidKeyException`, …) through the `From<Error> for Fail` each
//!   module gives its library's error type, so bodies just use `?`.
//! - **An entry point states only what is its own**: its body returns a Rust
//!   value (bytes, a `bool`, a length, a [`Handle`], hashes: see
//!   [`ToJava`]) and [`entry`] makes it the JNI value.
//! - **Secrets are never printed**: messages name sizes and kinds, never
//!   key bytes; plaintext copies are wiped.
//! - **Handles** are `Box`es handed to Java as a `long`; the Java class that
//!   holds one frees it exactly once (a `Cleaner`) and keeps its owner
//!   reachable for the length of every call.
//! - **Java arrays are copied once into native memory** (`GetByteArrayRegion`)
//!   and the parallel work runs on that copy: no JVM array is pinned while
//!   other threads work. Direct `ByteBuffer`s are used in place. The
//!   exceptions are AES-GCM's `doFinal` on `byte[]`s and Cobblestone's
//!   one-shot calls and stream updates, which run on the arrays themselves
//!   inside a JNI critical region ([`Pinned`]): there the two copies cost
//!   more than the cipher — except for GCM messages of 1–2 KiB and less,
//!   copied onto the stack ([`read_into`]), where pinning's JNI calls cost
//!   more than the copies.

use std::marker::PhantomData;
use std::mem::MaybeUninit;
use std::ops::Range;
use std::panic::{AssertUnwindSafe, catch_unwind};

use jni::JNIEnv;
use jni::objects::{JByteArray, JByteBuffer, JObject, JObjectArray};
use jni::sys::{jbyte, jint, jlong};
use parcrypt::par::{Parallelism, Strategy};
use parcrypt::secret::SecretBytes;

mod aes;
mod cobblestone;
mod crypter;
mod digest;
mod ecdsa;
mod entry;
mod files;
mod merkle;
mod pkcs8;
mod rsa;
mod stream;

/// Why an entry point stopped.
#[derive(Debug)]
pub enum Fail {
    /// Throw a new exception of this class (JNI name) with this message.
    Throw(&'static str, String),
    /// A JNI call already left an exception pending: let it propagate.
    Pending,
}

pub const PROVIDER: &str = "java/security/ProviderException";
pub const INVALID_KEY: &str = "java/security/InvalidKeyException";
pub const INVALID_KEY_SPEC: &str = "java/security/spec/InvalidKeySpecException";
pub const INVALID_PARAM: &str = "java/security/InvalidAlgorithmParameterException";
pub const SIGNATURE: &str = "java/security/SignatureException";
pub const BAD_TAG: &str = "javax/crypto/AEADBadTagException";
pub const BAD_PADDING: &str = "javax/crypto/BadPaddingException";
pub const BLOCK_SIZE: &str = "javax/crypto/IllegalBlockSizeException";
pub const ILLEGAL_ARG: &str = "java/lang/IllegalArgumentException";
pub const ILLEGAL_STATE: &str = "java/lang/IllegalStateException";
pub const IO: &str = "java/io/IOException";

pub type Res<T> = Result<T, Fail>;

pub use entry::{Handle, ToJava, entry};

pub fn fail<T>(class: &'static str, msg: impl Into<String>) -> Res<T> {
    Err(Fail::Throw(class, msg.into()))
}

impl From<jni::errors::Error> for Fail {
    fn from(e: jni::errors::Error) -> Self {
        match e {
            jni::errors::Error::JavaException => Fail::Pending,
            jni::errors::Error::NullPtr(what) | jni::errors::Error::NullDeref(what) => Fail::Throw(
                "java/lang/NullPointerException",
                format!("null argument ({what})"),
            ),
            other => Fail::Throw(PROVIDER, format!("JNI call failed: {other}")),
        }
    }
}

/// Runs an entry point's body: its value, or `default` with an exception
/// thrown (a panic becomes a `ProviderException`).
pub fn guard<'l, T>(env: &mut JNIEnv<'l>, default: T, body: impl FnOnce(&mut JNIEnv<'l>) -> Res<T>) -> T {
    // PARCRYPT_CPU_MASK reaches AWS-LC before the first entry point uses it
    // (one load once applied; see `parcrypt::cpu`).
    let _ = parcrypt::cpu::enabled();
    let outcome = catch_unwind(AssertUnwindSafe(|| body(env)));
    let (class, msg) = match outcome {
        Ok(Ok(value)) => return value,
        Ok(Err(Fail::Pending)) => return default,
        Ok(Err(Fail::Throw(class, msg))) => (class, msg),
        Err(_) => (
            PROVIDER,
            "internal error in parcrypt's native code (a Rust panic: please report it)".to_string(),
        ),
    };
    if !env.exception_check().unwrap_or(true) {
        // If even this fails there is nothing left to report with.
        let _ = env.throw_new(class, msg);
    }
    default
}

/// The `Parallelism` a call asked for: `threads` ≤ 0 is every core the
/// process may use; `strategy` 0 = seq, 1 = static, 2 = steal.
pub fn par(threads: jint, strategy: jint) -> Res<Parallelism> {
    let strategy = match strategy {
        0 => Strategy::Sequential,
        1 => Strategy::Static,
        2 => Strategy::WorkStealing,
        other => return fail(ILLEGAL_ARG, format!("unknown strategy code {other}")),
    };
    let threads = usize::try_from(threads)
        .ok()
        .filter(|&t| t > 0)
        .unwrap_or_else(parcrypt::par::available_threads);
    Ok(Parallelism::new(threads, strategy))
}

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

/// `len` bytes of a direct `ByteBuffer` from `pos`, held as an address and
/// a length: no Rust reference to them exists until one is asked for. Two
/// of them may cover the same memory (one buffer passed twice, or two views
/// of it), so a call with an input and an output decides how they share it
/// from the addresses alone ([`sharing`]) and makes its references through
/// [`in_out`], never two that alias: a call makes at most an input and an
/// output `Direct`, and uses [`Direct::bytes`] only where it has no output.
///
/// The caller (the Java side) keeps the buffer reachable for the call, and
/// must not let another thread write the same bytes meanwhile (as for any
/// Java array handed to a cipher).
#[derive(Debug)]
pub struct Direct<'b> {
    ptr: *mut u8,
    len: usize,
    /// Borrows the buffer's local reference, which keeps its memory alive.
    _buffer: PhantomData<&'b ()>,
}

impl<'b> Direct<'b> {
    /// Checks that `pos + len` lies within `buf`'s capacity
    /// (`IndexOutOfBoundsException` if not); makes no reference.
    pub fn new(env: &JNIEnv<'_>, buf: &'b JByteBuffer<'_>, pos: jint, len: jint) -> Res<Self> {
        let (pos, len) = (len_of(pos, "position")?, len_of(len, "length")?);
        let address = env.get_direct_buffer_address(buf)?;
        let capacity = env.get_direct_buffer_capacity(buf)?;
        if pos.checked_add(len).is_none_or(|end| end > capacity) {
            return fail(
                "java/lang/IndexOutOfBoundsException",
                format!("{pos} + {len} bytes past a direct buffer of {capacity}"),
            );
        }
        Ok(Direct {
            // In bounds (checked above): `address` is the start of `capacity` bytes.
            ptr: address.wrapping_add(pos),
            len,
            _buffer: PhantomData,
        })
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The addresses the bytes occupy.
    fn span(&self) -> Range<usize> {
        let start = self.ptr as usize;
        start..start + self.len
    }

    /// The bytes, read-only: for a buffer that is a call's only one (a
    /// Merkle tree's input). Where an output may share its memory, use
    /// [`in_out`].
    pub fn bytes(&self) -> &[u8] {
        // SAFETY: the JVM keeps the buffer's memory (non-null, checked by
        // jni-rs) for as long as its local reference lives, which `'b`
        // outlives this borrow; `new` checked the range lies within its
        // capacity. A call with an output makes its views through
        // `in_out` instead (see the type), so no mutable view of these
        // bytes exists.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}

/// How an input and an output range share memory.
#[derive(Debug, PartialEq, Eq)]
pub enum Sharing {
    /// No byte in common (or one of them empty).
    Disjoint,
    /// Both start at the same address: in-place processing.
    InPlace,
    /// Any other overlap, which no call accepts.
    Overlapping,
}

/// Whether `input` and `output` share memory, decided from addresses alone
/// (before any Rust reference to either exists).
pub fn sharing(input: &Direct<'_>, output: &Direct<'_>) -> Sharing {
    let (a, b) = (input.span(), output.span());
    if a.is_empty() || b.is_empty() || a.end <= b.start || b.end <= a.start {
        Sharing::Disjoint
    } else if a.start == b.start {
        Sharing::InPlace
    } else {
        Sharing::Overlapping
    }
}

/// A call's input and output, as Rust references that never alias.
#[derive(Debug)]
pub enum InOut<'a> {
    /// The output starts where the input does: one view, the longer of the
    /// two ranges (the shorter is its front).
    InPlace(&'a mut [u8]),
    /// The input and the output, apart.
    Apart(&'a [u8], &'a mut [u8]),
}

/// The references to `input` and `output` that [`sharing`] allows: one for
/// in-place work, two disjoint ones otherwise; an
/// `IllegalArgumentException` for a partial overlap, before any reference
/// exists.
pub fn in_out<'a>(input: &'a mut Direct<'_>, output: &'a mut Direct<'_>) -> Res<InOut<'a>> {
    match sharing(input, output) {
        Sharing::InPlace => {
            let len = input.len.max(output.len);
            // SAFETY: the longer of two ranges that start at `output.ptr` is
            // live memory of its own buffer (see `Direct::bytes`) and covers
            // the shorter; it is the only reference made to either, and the
            // exclusive borrows of both `Direct`s keep it so.
            Ok(InOut::InPlace(unsafe {
                std::slice::from_raw_parts_mut(output.ptr, len)
            }))
        }
        // SAFETY: both ranges are live memory (see `Direct::bytes`) with no
        // byte in common (an empty one has none), so the shared view of the
        // input and the exclusive one of the output do not alias; the
        // exclusive borrows of both `Direct`s keep these the only views.
        Sharing::Disjoint => Ok(unsafe {
            InOut::Apart(
                std::slice::from_raw_parts(input.ptr, input.len),
                std::slice::from_raw_parts_mut(output.ptr, output.len),
            )
        }),
        Sharing::Overlapping => fail(
            ILLEGAL_ARG,
            "input and output buffers overlap without starting at the same byte: \
             use separate buffers, or the same bytes (in place)",
        ),
    }
}

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
/// `$free(long)` (see [`free_fn!`]).
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
                $crate::load_key(env, &der, $crate::key_fns!(@secret $kind), <$ty>::from_bytes)
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

/// Panics on purpose, inside [`guard`]: lets the Java tests check that a Rust
/// panic reaches Java as a `ProviderException` and the JVM carries on.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_panicForTest<'l>(
    mut env: JNIEnv<'l>,
    _class: jni::objects::JClass<'l>,
) -> jint {
    guard(&mut env, 0, |_| -> Res<jint> {
        panic!("deliberate panic (test of the panic guard)")
    })
}
