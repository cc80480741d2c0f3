//! The push encryptor and decryptor behind `ParcryptCobblestone`'s streams:
//! their handles, and updates sealed or opened between pinned arrays.

use std::sync::Mutex;

use jni::JNIEnv;
use jni::objects::{JByteArray, JClass};
use jni::sys::{jbyteArray, jint, jlong};
use parcrypt::cobblestone::{Decryptor, Encryptor, Error};
use parcrypt::io::Input;
use parcrypt::secret::SecretBytes;

use super::Keyed;
use crate::{
    Fail, Handle, ILLEGAL_ARG, ILLEGAL_STATE, Pinned, Res, ToJava, entry, fail, free_fn, from_handle, par,
    range_in,
};

/// A push encryptor (`None` once finished); the mutex keeps a stream
/// misused from several threads memory-safe.
type EncryptorHandle = Mutex<Option<Encryptor>>;
/// A push decryptor (`None` once finished).
type DecryptorHandle = Mutex<Option<Decryptor>>;

/// The message for a stream used after it finished.
const FINISHED: &str = "the stream is finished";

/// Runs `f` on the unfinished push object behind `handle`.
fn with_handle<T, R>(handle: jlong, f: impl FnOnce(&mut T) -> Res<R>) -> Res<R> {
    // SAFETY: Java passes a live handle of this type (see `from_handle`).
    let cell = unsafe { from_handle::<Mutex<Option<T>>>(handle)? };
    let mut guard = cell
        .lock()
        .or_else(|_| fail(ILLEGAL_STATE, "the stream failed earlier"))?;
    let inner = guard
        .as_mut()
        .ok_or_else(|| Fail::Throw(ILLEGAL_STATE, FINISHED.into()))?;
    f(inner)
}

/// Takes the push object behind `handle` out to finish it.
fn take_handle<T>(handle: jlong) -> Res<T> {
    // SAFETY: Java passes a live handle of this type (see `from_handle`).
    let cell = unsafe { from_handle::<Mutex<Option<T>>>(handle)? };
    let mut guard = cell
        .lock()
        .or_else(|_| fail(ILLEGAL_STATE, "the stream failed earlier"))?;
    guard
        .take()
        .ok_or_else(|| Fail::Throw(ILLEGAL_STATE, FINISHED.into()))
}

/// The input and output of one push update: `len` bytes of `input` from
/// `in_off`, and `out` from `out_off`.
struct Update<'a, 'l> {
    input: &'a JByteArray<'l>,
    in_off: jint,
    len: jint,
    out: &'a JByteArray<'l>,
    out_off: jint,
}

impl<'a, 'l> Update<'a, 'l> {
    fn new(
        input: &'a JByteArray<'l>,
        in_off: jint,
        len: jint,
        out: &'a JByteArray<'l>,
        out_off: jint,
    ) -> Self {
        Update {
            input,
            in_off,
            len,
            out,
            out_off,
        }
    }

    /// The input's length.
    fn len(&self) -> Res<usize> {
        usize::try_from(self.len).or_else(|_| fail(ILLEGAL_ARG, "negative length"))
    }

    /// Checks the ranges (`needed` bytes of output),
    /// pins both arrays and runs `f` on the ranges (the input as
    /// [`Pinned::input`] says: shared, read once by a decryption); the
    /// output is written back only if `f` succeeds. The two must be
    /// different arrays.
    fn run(
        &self,
        env: &JNIEnv<'_>,
        needed: usize,
        f: impl FnOnce(Input<'_>, &mut [u8]) -> Res<usize>,
    ) -> Res<usize> {
        let len = self.len()?;
        let (in_len, out_len) = (env.get_array_length(self.input)?, env.get_array_length(self.out)?);
        let input = range_in(self.in_off, len, in_len, "input")?;
        let output = range_in(self.out_off, needed, out_len, "output")?;
        if env.is_same_object(self.input, self.out)? {
            return fail(
                ILLEGAL_ARG,
                "the input and output of a stream update are one array",
            );
        }
        // SAFETY: each array's own length; two different arrays (checked
        // above), one pin each; no JNI call until the pins drop.
        let (mut src, mut dst) = unsafe {
            (
                Pinned::new(env, self.input, in_len as usize)?,
                Pinned::new(env, self.out, out_len as usize)?,
            )
        };
        let n = f(src.input(input), &mut dst.bytes()[output])?;
        dst.write_back();
        Ok(n)
    }
}

/// The two directions of a push stream, so that each update call is
/// written once: the encryptor seals what it is given, the decryptor
/// opens it.
trait Push: Send + 'static {
    /// What `finalize` returns: the final chunk, or its plaintext.
    type Final: ToJava<Raw = jbyteArray>;
    fn update_len(&self, len: usize) -> usize;
    fn update_into(&mut self, src: Input<'_>, dst: &mut [u8]) -> Result<usize, Error>;
    fn finalize(self) -> Result<Self::Final, Error>;
}

impl Push for Encryptor {
    type Final = Vec<u8>;

    fn update_len(&self, len: usize) -> usize {
        Encryptor::update_len(self, len)
    }

    fn update_into(&mut self, src: Input<'_>, dst: &mut [u8]) -> Result<usize, Error> {
        Encryptor::update_into(self, src.bytes(), dst)
    }

    fn finalize(self) -> Result<Vec<u8>, Error> {
        Encryptor::finalize(self)
    }
}

impl Push for Decryptor {
    type Final = SecretBytes;

    fn update_len(&self, len: usize) -> usize {
        Decryptor::update_len(self, len)
    }

    fn update_into(&mut self, src: Input<'_>, dst: &mut [u8]) -> Result<usize, Error> {
        Decryptor::update_into(self, src, dst)
    }

    fn finalize(self) -> Result<SecretBytes, Error> {
        Decryptor::finalize(self)
    }
}

/// `UpdateLen` of either direction: the bytes an update of `len` more
/// input bytes writes.
fn update_len<P: Push>(env: &mut JNIEnv<'_>, handle: jlong, len: jint) -> jint {
    entry(env, |_| {
        let len = usize::try_from(len).or_else(|_| fail(ILLEGAL_ARG, "negative length"))?;
        with_handle(handle, |p: &mut P| Ok(p.update_len(len)))
    })
}

/// `Update` of either direction: `io`'s input sealed or opened into its
/// output; returns the count written.
fn update<P: Push>(env: &mut JNIEnv<'_>, handle: jlong, io: &Update<'_, '_>) -> jint {
    entry(env, |env| {
        with_handle(handle, |p: &mut P| {
            let needed = p.update_len(io.len()?);
            io.run(env, needed, |src, dst| Ok(p.update_into(src, dst)?))
        })
    })
}

/// `Finish` of either direction: the stream's last bytes.
fn finish<P: Push>(env: &mut JNIEnv<'_>, handle: jlong) -> jbyteArray {
    entry(env, |_| Ok(take_handle::<P>(handle)?.finalize()?))
}

/// A push encryptor for one message (a fresh random salt), sealing full
/// chunks on `threads`.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_cobEncryptorNew<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    kdf: jint,
    aead: jint,
    key: JByteArray<'l>,
    context: JByteArray<'l>,
    salt: JByteArray<'l>,
    threads: jint,
    strategy: jint,
) -> jlong {
    entry(&mut env, |env| {
        let par = par(threads, strategy)?;
        let k = Keyed::read(env, kdf, aead, &key, &context)?;
        let enc = k.sealer(env, &salt)?.encryptor(&par);
        Ok(Handle::<EncryptorHandle>(Mutex::new(Some(enc))))
    })
}

free_fn!(Java_dev_parcrypt_jca_Native_cobEncryptorFree, EncryptorHandle);

/// The bytes `cobEncryptorUpdate` writes for `len` more input bytes.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_cobEncryptorUpdateLen<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    len: jint,
) -> jint {
    update_len::<Encryptor>(&mut env, handle, len)
}

/// Encrypts `len` bytes of `input` from `in_off`: writes the header (first
/// call) and every chunk they complete into `out` from `out_off` (sized by
/// `cobEncryptorUpdateLen`); returns the count.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_cobEncryptorUpdate<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    input: JByteArray<'l>,
    in_off: jint,
    len: jint,
    out: JByteArray<'l>,
    out_off: jint,
) -> jint {
    let io = Update::new(&input, in_off, len, &out, out_off);
    update::<Encryptor>(&mut env, handle, &io)
}

/// Ends the message: the header if no update wrote it, and the final chunk.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_cobEncryptorFinish<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
) -> jbyteArray {
    finish::<Encryptor>(&mut env, handle)
}

/// A push decryptor for one message, opening full chunks on `threads`.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_cobDecryptorNew<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    kdf: jint,
    aead: jint,
    key: JByteArray<'l>,
    context: JByteArray<'l>,
    threads: jint,
    strategy: jint,
) -> jlong {
    entry(&mut env, |env| {
        let par = par(threads, strategy)?;
        let k = Keyed::read(env, kdf, aead, &key, &context)?;
        let dec = k.scheme.decryptor(k.key.expose(), &k.context, &par)?;
        Ok(Handle::<DecryptorHandle>(Mutex::new(Some(dec))))
    })
}

free_fn!(Java_dev_parcrypt_jca_Native_cobDecryptorFree, DecryptorHandle);

/// The bytes `cobDecryptorUpdate` writes for `len` more input bytes.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_cobDecryptorUpdateLen<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    len: jint,
) -> jint {
    update_len::<Decryptor>(&mut env, handle, len)
}

/// Decrypts `len` bytes of `input` from `in_off`: writes the plaintext of
/// every chunk they complete, each authenticated, into `out` from
/// `out_off` (sized by `cobDecryptorUpdateLen`); returns the count. On a
/// failure nothing of this call is released (the library wiped it) and the
/// decryptor refuses everything after.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_cobDecryptorUpdate<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    input: JByteArray<'l>,
    in_off: jint,
    len: jint,
    out: JByteArray<'l>,
    out_off: jint,
) -> jint {
    let io = Update::new(&input, in_off, len, &out, out_off);
    update::<Decryptor>(&mut env, handle, &io)
}

/// Ends the message: opens the final chunk and returns its plaintext
/// (`AEADBadTagException` for a truncated message).
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_cobDecryptorFinish<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
) -> jbyteArray {
    finish::<Decryptor>(&mut env, handle)
}
