//! AES-GCM (one message, parallel) and the streaming CTR / CBC crypter.

use std::sync::Mutex;

use jni::JNIEnv;
use jni::objects::{JByteArray, JByteBuffer, JClass};
use jni::sys::{jbyteArray, jint, jlong};
use parcrypt::aes::{Crypter, Error, GCM_NONCE, GCM_TAG, Gcm};

use crate::{
    BAD_PADDING, BAD_TAG, BLOCK_SIZE, Fail, ILLEGAL_ARG, ILLEGAL_STATE, INVALID_KEY, INVALID_PARAM, PROVIDER,
    Res, bytes, bytes_opt, direct, fail, free_fn, from_handle, guard, into_handle, new_array, par,
    read_region, write_region,
};

fn err(e: Error) -> Fail {
    let msg = e.to_string();
    match e {
        Error::KeyLength(_) => Fail::Throw(INVALID_KEY, msg),
        Error::IvLength(_) => Fail::Throw(INVALID_PARAM, msg),
        Error::NotBlockAligned => Fail::Throw(BLOCK_SIZE, msg),
        Error::Decrypt => Fail::Throw(BAD_PADDING, msg),
        Error::Authentication => Fail::Throw(BAD_TAG, "Tag mismatch: ".to_string() + &msg),
        Error::OutputTooSmall { .. } => Fail::Throw("javax/crypto/ShortBufferException", msg),
        _ => Fail::Throw(PROVIDER, msg),
    }
}

fn nonce_of(nonce: &[u8]) -> Res<&[u8; GCM_NONCE]> {
    nonce.try_into().or_else(|_| {
        fail(
            INVALID_PARAM,
            format!("GCM nonce must be {GCM_NONCE} bytes, got {}", nonce.len()),
        )
    })
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_gcmNew<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    key: JByteArray<'l>,
) -> jlong {
    guard(&mut env, 0, |env| {
        let mut key = bytes(env, &key, "key")?;
        let gcm = Gcm::new(&key).map_err(|e| match e {
            Error::KeyLength(n) => Fail::Throw(
                INVALID_KEY,
                format!("AES-GCM key must be 16 or 32 bytes (AES-128/256), got {n}"),
            ),
            other => err(other),
        });
        parcrypt::secret::wipe(&mut key);
        Ok(into_handle(gcm?))
    })
}

free_fn!(Java_dev_parcrypt_jca_Native_gcmFree, Gcm);

/// Seals `len` bytes of `input` from `in_off`; writes ciphertext ‖ tag
/// (`len + 16` bytes) into `out` at `out_off`.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_gcmSeal<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    nonce: JByteArray<'l>,
    aad: JByteArray<'l>,
    input: JByteArray<'l>,
    in_off: jint,
    len: jint,
    out: JByteArray<'l>,
    out_off: jint,
    threads: jint,
    strategy: jint,
) -> jint {
    guard(&mut env, 0, |env| {
        // SAFETY: a live Gcm handle (see `from_handle`).
        let gcm = unsafe { from_handle::<Gcm>(handle)? };
        let par = par(threads, strategy)?;
        let nonce = bytes(env, &nonce, "nonce")?;
        let aad = bytes_opt(env, &aad)?.unwrap_or_default();
        let mut buf = read_region(env, &input, in_off, len, GCM_TAG)?;
        let n = buf.len() - GCM_TAG;
        let tag = gcm.seal_in_place(nonce_of(&nonce)?, &aad, &mut buf[..n], &par);
        buf[n..].copy_from_slice(&tag);
        write_region(env, &out, out_off, &buf)?;
        Ok(buf.len() as jint)
    })
}

/// Checks the tag of the `len` bytes (ciphertext ‖ tag) of `input` from
/// `in_off`, and only then writes the plaintext (`len − 16` bytes) into
/// `out` at `out_off`. A wrong tag throws `AEADBadTagException` and writes nothing.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_gcmOpen<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    nonce: JByteArray<'l>,
    aad: JByteArray<'l>,
    input: JByteArray<'l>,
    in_off: jint,
    len: jint,
    out: JByteArray<'l>,
    out_off: jint,
    threads: jint,
    strategy: jint,
) -> jint {
    guard(&mut env, 0, |env| {
        // SAFETY: a live Gcm handle (see `from_handle`).
        let gcm = unsafe { from_handle::<Gcm>(handle)? };
        let par = par(threads, strategy)?;
        let nonce = bytes(env, &nonce, "nonce")?;
        let aad = bytes_opt(env, &aad)?.unwrap_or_default();
        let mut buf = read_region(env, &input, in_off, len, 0)?;
        let Some(n) = buf.len().checked_sub(GCM_TAG) else {
            return fail(BAD_TAG, "Tag mismatch: the input is shorter than a tag");
        };
        let (body, tag) = buf.split_at_mut(n);
        let opened = gcm.open_in_place(nonce_of(&nonce)?, &aad, body, tag, &par);
        let written = opened
            .map_err(err)
            .and_then(|()| write_region(env, &out, out_off, body));
        parcrypt::secret::wipe(&mut buf);
        written.map(|()| n as jint)
    })
}

/// [`gcmSeal`] between direct buffers, in place when `out` and `input` are
/// the same memory: no copy at all.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_gcmSealDirect<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    nonce: JByteArray<'l>,
    aad: JByteArray<'l>,
    input: JByteBuffer<'l>,
    in_pos: jint,
    len: jint,
    out: JByteBuffer<'l>,
    out_pos: jint,
    threads: jint,
    strategy: jint,
) -> jint {
    guard(&mut env, 0, |env| {
        // SAFETY: a live Gcm handle (see `from_handle`).
        let gcm = unsafe { from_handle::<Gcm>(handle)? };
        let par = par(threads, strategy)?;
        let nonce = bytes(env, &nonce, "nonce")?;
        let aad = bytes_opt(env, &aad)?.unwrap_or_default();
        let src = direct(env, &input, in_pos, len)?;
        let dst = direct(env, &out, out_pos, len.saturating_add(GCM_TAG as jint))?;
        let (body, tag) = dst.split_at_mut(src.len());
        copy_unless_same(src, body)?;
        tag.copy_from_slice(&gcm.seal_in_place(nonce_of(&nonce)?, &aad, body, &par));
        Ok(dst.len() as jint)
    })
}

/// [`gcmOpen`] between direct buffers. On a wrong tag `out` is zeroed if
/// it is separate from `input` (in place, the ciphertext stays).
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_gcmOpenDirect<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    nonce: JByteArray<'l>,
    aad: JByteArray<'l>,
    input: JByteBuffer<'l>,
    in_pos: jint,
    len: jint,
    out: JByteBuffer<'l>,
    out_pos: jint,
    threads: jint,
    strategy: jint,
) -> jint {
    guard(&mut env, 0, |env| {
        // SAFETY: a live Gcm handle (see `from_handle`).
        let gcm = unsafe { from_handle::<Gcm>(handle)? };
        let par = par(threads, strategy)?;
        let nonce = bytes(env, &nonce, "nonce")?;
        let aad = bytes_opt(env, &aad)?.unwrap_or_default();
        let src = direct(env, &input, in_pos, len)?;
        let Some(n) = src.len().checked_sub(GCM_TAG) else {
            return fail(BAD_TAG, "Tag mismatch: the input is shorter than a tag");
        };
        let mut tag = [0u8; GCM_TAG];
        tag.copy_from_slice(&src[n..]);
        let dst = direct(env, &out, out_pos, n as jint)?;
        let in_place = src.as_ptr() == dst.as_ptr();
        copy_unless_same(&src[..n], dst)?;
        let opened = gcm.open_in_place(nonce_of(&nonce)?, &aad, dst, &tag, &par);
        if opened.is_err() && !in_place {
            dst.fill(0);
        }
        opened.map_err(err)?;
        Ok(n as jint)
    })
}

/// Copies `src` into `dst` (same length) unless they are the same memory;
/// refuses a partial overlap.
fn copy_unless_same(src: &[u8], dst: &mut [u8]) -> Res<()> {
    let (s, d) = (src.as_ptr() as usize, dst.as_ptr() as usize);
    if s == d {
        return Ok(());
    }
    if s < d + dst.len() && d < s + src.len() {
        return fail(
            ILLEGAL_ARG,
            "input and output buffers overlap without starting at the same byte",
        );
    }
    dst.copy_from_slice(src);
    Ok(())
}

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
    guard(&mut env, 0, |env| {
        let mut key = bytes(env, &key, "key")?;
        let iv = bytes(env, &iv, "iv")?;
        let crypter = match mode {
            0 => Crypter::ctr(&key, &iv),
            1 => Crypter::cbc_encrypt(&key, &iv),
            2 => Crypter::cbc_decrypt(&key, &iv),
            other => {
                parcrypt::secret::wipe(&mut key);
                return fail(ILLEGAL_ARG, format!("unknown crypter mode {other}"));
            }
        };
        parcrypt::secret::wipe(&mut key);
        let handle: CrypterHandle = Mutex::new(Some(crypter.map_err(err)?));
        Ok(into_handle(handle))
    })
}

free_fn!(Java_dev_parcrypt_jca_Native_crypterFree, CrypterHandle);

fn with_crypter<T>(handle: jlong, f: impl FnOnce(&mut Option<Crypter>) -> Res<T>) -> Res<T> {
    // SAFETY: a live crypter handle (see `from_handle`).
    let cell = unsafe { from_handle::<CrypterHandle>(handle)? };
    let mut guard = cell
        .lock()
        .or_else(|_| fail(ILLEGAL_STATE, "the cipher failed earlier; initialise it again"))?;
    f(&mut guard)
}

/// The bytes `crypterUpdate` would write for `len` more input bytes.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_crypterUpdateLen<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    len: jint,
) -> jint {
    guard(&mut env, 0, |_| {
        let len = usize::try_from(len).or_else(|_| fail(ILLEGAL_ARG, "negative length"))?;
        with_crypter(handle, |c| match c {
            Some(c) => Ok(c.update_len(len) as jint),
            None => fail(ILLEGAL_STATE, "the cipher is finished; initialise it again"),
        })
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
    guard(&mut env, 0, |env| {
        let par = par(threads, strategy)?;
        let mut src = read_region(env, &input, in_off, len, 0)?;
        let result = with_crypter(handle, |c| {
            let c = c.as_mut().ok_or_else(|| {
                Fail::Throw(
                    ILLEGAL_STATE,
                    "the cipher is finished; initialise it again".into(),
                )
            })?;
            let mut dst = vec![0u8; c.update_len(src.len())];
            let n = c.update_into(&src, &mut dst, &par).map_err(err)?;
            let written = write_region(env, &out, out_off, &dst[..n]);
            parcrypt::secret::wipe(&mut dst);
            written.map(|()| n as jint)
        });
        parcrypt::secret::wipe(&mut src);
        result
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
    guard(&mut env, std::ptr::null_mut(), |env| {
        let crypter = with_crypter(handle, |c| {
            c.take().ok_or_else(|| {
                Fail::Throw(
                    ILLEGAL_STATE,
                    "the cipher is finished; initialise it again".into(),
                )
            })
        })?;
        let mut out = Vec::new();
        let finished = crypter.finish(&mut out).map_err(err);
        let array = finished.and_then(|()| new_array(env, &out));
        parcrypt::secret::wipe(&mut out);
        array
    })
}
