//! C2SP chunked-encryption and Cobblestone-128/-256 (`ParcryptCobblestone`):
//! one-shot over `byte[]`s, between files, a range of a file, and the push
//! encryptor and decryptor behind its streams.
//!
//! The scheme of every call is two codes: `kdf` 0 is Cobblestone, -128 or
//! -256 picked by the key's length (16 or 32 bytes); `kdf` 256 or 512 is the
//! generic scheme with HKDF-SHA-256/512 and `aead` 0 = AES-128-GCM,
//! 1 = AES-256-GCM, 2 = ChaCha20-Poly1305.
//!
//! One-shot calls and stream updates work on the pinned Java arrays
//! ([`Pinned`]), as AES-GCM's `doFinal` does: a message's plaintext is
//! never copied into native memory, and the chunks are sealed or opened
//! straight between the arrays on all cores. A sealed input is handed to
//! the library as shared ([`Pinned::input`]: another Java thread may write
//! the array meanwhile), which copies each chunk once before opening it. Every failure to authenticate
//! (the key commitment, a chunk, a truncated or too short message) is an
//! `AEADBadTagException`.

mod push;

use jni::JNIEnv;
use jni::objects::{JByteArray, JClass, JString};
use jni::sys::{jbyteArray, jint, jlong};
use parcrypt::cobblestone::{
    Aead, Error, Input, KdfHash, SALT, Scheme, Sealer, Source, plain_len, sealed_len,
};
use parcrypt::par::Parallelism;
use parcrypt::secret::{SecretBytes, wipe};

use crate::files::{between_files, open};
use crate::{
    BAD_TAG, BLOCK_SIZE, Fail, ILLEGAL_ARG, ILLEGAL_STATE, INVALID_KEY, IO, PROVIDER, Pinned, Res, bytes,
    bytes_opt, entry, fail, guard, par, secret_bytes, unsigned,
};

impl From<Error> for Fail {
    fn from(e: Error) -> Self {
        let msg = e.to_string();
        match e {
            Error::Io(io) => Fail::Throw(IO, format!("{msg}: {io}")),
            Error::KeyLength { .. } => Fail::Throw(INVALID_KEY, msg),
            Error::Commitment
            | Error::ChunkAuthentication { .. }
            | Error::Truncated { .. }
            | Error::TooShort { .. } => Fail::Throw(BAD_TAG, msg),
            Error::TooLarge => Fail::Throw(BLOCK_SIZE, msg),
            Error::Range { .. } => Fail::Throw(ILLEGAL_ARG, msg),
            Error::Failed => Fail::Throw(ILLEGAL_STATE, msg),
            _ => Fail::Throw(PROVIDER, msg),
        }
    }
}

/// The scheme the codes name (see the module) for a key of `key_len` bytes.
fn scheme(kdf: jint, aead: jint, key_len: usize) -> Res<Scheme> {
    let kdf = match kdf {
        0 => {
            return match key_len {
                16 => Ok(Scheme::COBBLESTONE_128),
                32 => Ok(Scheme::COBBLESTONE_256),
                n => fail(
                    INVALID_KEY,
                    format!(
                        "a Cobblestone key is 16 bytes (Cobblestone-128) or 32 (Cobblestone-256), not {n}"
                    ),
                ),
            };
        }
        256 => KdfHash::Sha256,
        512 => KdfHash::Sha512,
        other => return fail(ILLEGAL_ARG, format!("unknown KDF hash code {other}")),
    };
    let aead = match aead {
        0 => Aead::Aes128Gcm,
        1 => Aead::Aes256Gcm,
        2 => Aead::ChaCha20Poly1305,
        other => return fail(ILLEGAL_ARG, format!("unknown AEAD code {other}")),
    };
    Ok(Scheme::new(kdf, aead))
}

/// A call's scheme, key (wiped when dropped) and context.
struct Keyed {
    scheme: Scheme,
    key: SecretBytes,
    context: Vec<u8>,
}

impl Keyed {
    fn read(
        env: &JNIEnv<'_>,
        kdf: jint,
        aead: jint,
        key: &JByteArray<'_>,
        context: &JByteArray<'_>,
    ) -> Res<Self> {
        // The key is a secret from the moment it is read: an error below wipes it.
        let key = secret_bytes(env, key, "key")?;
        let context = bytes(env, context, "context")?;
        let scheme = scheme(kdf, aead, key.len())?;
        Ok(Keyed { scheme, key, context })
    }

    /// The sealer of one message: a fresh random salt, or `salt` when it is
    /// not null (tests only: a salt must never repeat under one key).
    fn sealer(&self, env: &JNIEnv<'_>, salt: &JByteArray<'_>) -> Res<Sealer> {
        let Some(salt) = bytes_opt(env, salt)? else {
            return Ok(self.scheme.sealer(self.key.expose(), &self.context)?);
        };
        let salt: &[u8; SALT] = salt
            .as_slice()
            .try_into()
            .or_else(|_| fail(ILLEGAL_ARG, format!("a salt is {SALT} bytes, not {}", salt.len())))?;
        Ok(self
            .scheme
            .sealer_with_salt(self.key.expose(), salt, &self.context)?)
    }
}

/// The length of a Java array, as `usize`.
fn array_len(env: &JNIEnv<'_>, array: &JByteArray<'_>) -> Res<usize> {
    Ok(usize::try_from(env.get_array_length(array)?).unwrap_or(0))
}

/// A new Java `byte[]` of `len` bytes for a result (not yet filled).
fn new_output<'l>(env: &JNIEnv<'l>, len: u64) -> Res<JByteArray<'l>> {
    let len = jint::try_from(len).or_else(|_| {
        fail(
            ILLEGAL_ARG,
            format!("the result ({len} bytes) does not fit a Java array: use the Path or stream methods"),
        )
    })?;
    Ok(env.new_byte_array(len)?)
}

/// A one-shot call of either direction: `run` seals or opens the `n`
/// bytes of the pinned `input` straight into a new pinned `byte[]` of
/// `len` bytes, which is written back only if `run` succeeds (on a failure
/// the library has wiped it).
fn into_new_array<'l, T>(
    env: &JNIEnv<'l>,
    input: &JByteArray<'_>,
    n: usize,
    len: u64,
    run: impl FnOnce(Input<'_>, &mut [u8]) -> Result<T, Error>,
) -> Res<JByteArray<'l>> {
    let out = new_output(env, len)?;
    {
        // SAFETY: each array's own length; `out` is a new array, so the
        // two are different arrays, one pin each; no JNI call until the
        // pins drop.
        let (mut src, mut dst) =
            unsafe { (Pinned::new(env, input, n)?, Pinned::new(env, &out, len as usize)?) };
        run(src.input(0..n), dst.bytes())?;
        dst.write_back();
    }
    Ok(out)
}

/// Encrypts all of `input` into a new `byte[]` (a fresh random salt, or
/// `salt` if not null: see [`Keyed::sealer`]),
/// sealing the chunks on all cores straight from the pinned input into the
/// pinned result.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_cobEncrypt<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    kdf: jint,
    aead: jint,
    key: JByteArray<'l>,
    context: JByteArray<'l>,
    salt: JByteArray<'l>,
    input: JByteArray<'l>,
    threads: jint,
    strategy: jint,
) -> jbyteArray {
    guard(&mut env, std::ptr::null_mut(), |env| {
        let par = par(threads, strategy)?;
        let k = Keyed::read(env, kdf, aead, &key, &context)?;
        let sealer = k.sealer(env, &salt)?;
        let n = array_len(env, &input)?;
        let len = sealed_len(n as u64).ok_or(Error::TooLarge)?;
        let out = into_new_array(env, &input, n, len, |src, dst| {
            sealer.encrypt_into(src.bytes(), dst, &par)
        })?;
        Ok(out.into_raw())
    })
}

/// Decrypts all of `input` into a new `byte[]`, opening the chunks on all
/// cores straight from the pinned input into the pinned result; all or
/// nothing (on a failure the result is wiped and dropped).
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_cobDecrypt<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    kdf: jint,
    aead: jint,
    key: JByteArray<'l>,
    context: JByteArray<'l>,
    input: JByteArray<'l>,
    threads: jint,
    strategy: jint,
) -> jbyteArray {
    guard(&mut env, std::ptr::null_mut(), |env| {
        let par = par(threads, strategy)?;
        let k = Keyed::read(env, kdf, aead, &key, &context)?;
        let n = array_len(env, &input)?;
        let decrypt = |src: Input<'_>, dst: &mut [u8]| {
            k.scheme.decrypt_into(k.key.expose(), &k.context, src, dst, &par)
        };
        let len = match plain_len(n as u64) {
            Ok(len) => len,
            Err(_) => {
                // No message has this length; the library reports why in
                // its own order (the key commitment first).
                // SAFETY: the array's own length; its only pin.
                let mut src = unsafe { Pinned::new(env, &input, n)? };
                decrypt(src.input(0..n), &mut [])?;
                return fail(PROVIDER, "a message of impossible length was accepted");
            }
        };
        // Another Java thread may write `input` meanwhile: the library
        // reads it once, each chunk copied before it is opened.
        let out = into_new_array(env, &input, n, len, decrypt)?;
        Ok(out.into_raw())
    })
}

/// Encrypts the file `input` to the file `output` (which appears only
/// complete); returns the plaintext length.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_cobEncryptFile<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    kdf: jint,
    aead: jint,
    key: JByteArray<'l>,
    context: JByteArray<'l>,
    salt: JByteArray<'l>,
    input: JString<'l>,
    output: JString<'l>,
    threads: jint,
    strategy: jint,
) -> jlong {
    guard(&mut env, 0, |env| {
        let par = par(threads, strategy)?;
        let k = Keyed::read(env, kdf, aead, &key, &context)?;
        let sealer = k.sealer(env, &salt)?;
        between_files(env, &input, &output, |file, w| {
            Ok(sealer.encrypt_file(file, w, &par, |_| {})?)
        })
    })
}

/// Decrypts the file `input` to the file `output`, which appears only once
/// every chunk authenticated; returns the plaintext length.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_cobDecryptFile<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    kdf: jint,
    aead: jint,
    key: JByteArray<'l>,
    context: JByteArray<'l>,
    input: JString<'l>,
    output: JString<'l>,
    threads: jint,
    strategy: jint,
) -> jlong {
    guard(&mut env, 0, |env| {
        let par = par(threads, strategy)?;
        let k = Keyed::read(env, kdf, aead, &key, &context)?;
        between_files(env, &input, &output, |file, w| {
            Ok(k.scheme
                .decrypt_file(k.key.expose(), &k.context, file, w, &par, |_| {})?)
        })
    })
}

/// Plaintext bytes `offset .. offset + length` of the message in the file
/// `input`: only the chunks holding them are opened, and the final chunk,
/// which proves the message's length.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_cobDecryptRange<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    kdf: jint,
    aead: jint,
    key: JByteArray<'l>,
    context: JByteArray<'l>,
    input: JString<'l>,
    offset: jlong,
    length: jint,
    threads: jint,
    strategy: jint,
) -> jbyteArray {
    entry(&mut env, |env| {
        let par = par(threads, strategy)?;
        let offset = unsigned(offset, "offset")?;
        let length = unsigned(length.into(), "length")?;
        let k = Keyed::read(env, kdf, aead, &key, &context)?;
        let (path, file) = open(env, &input)?;
        let sealed_len = file.metadata().map(|m| m.len()).unwrap_or(0);
        range(&k, Source::File(&file), sealed_len, offset, length, &par).map_err(|e| match e {
            Error::Io(io) => Fail::Throw(IO, format!("{path}: {io}")),
            e => e.into(),
        })
    })
}

/// [`Java_dev_parcrypt_jca_Native_cobDecryptRange`] of the message in the
/// array `input`, read while pinned.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_cobDecryptRangeBytes<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    kdf: jint,
    aead: jint,
    key: JByteArray<'l>,
    context: JByteArray<'l>,
    input: JByteArray<'l>,
    offset: jlong,
    length: jint,
    threads: jint,
    strategy: jint,
) -> jbyteArray {
    entry(&mut env, |env| {
        let par = par(threads, strategy)?;
        let offset = unsigned(offset, "offset")?;
        let length = unsigned(length.into(), "length")?;
        let k = Keyed::read(env, kdf, aead, &key, &context)?;
        let n = array_len(env, &input)?;
        // SAFETY: the array's own length; its only pin; no JNI call until
        // it drops (the result becomes a Java array after, in `entry`).
        let mut src = unsafe { Pinned::new(env, &input, n)? };
        Ok(range(
            &k,
            Source::from(src.input(0..n)),
            n as u64,
            offset,
            length,
            &par,
        )?)
    })
}

/// Plaintext bytes `offset .. offset + length` of the message in `source`
/// (`sealed_len` bytes long), wiped on failure.
fn range(
    k: &Keyed,
    source: Source<'_>,
    sealed_len: u64,
    offset: u64,
    length: u64,
    par: &Parallelism,
) -> Result<SecretBytes, Error> {
    // Room for all of the range that exists, so the plaintext is never
    // moved (and left behind) by a reallocation.
    let total = plain_len(sealed_len).unwrap_or(0);
    let room = length.min(total.saturating_sub(offset));
    let mut plain = Vec::with_capacity(usize::try_from(room).unwrap_or(0));
    match k.scheme.decrypt_range(
        k.key.expose(),
        &k.context,
        source,
        offset,
        length,
        &mut plain,
        par,
    ) {
        Ok(_) => Ok(SecretBytes::new(plain)),
        Err(e) => {
            wipe(&mut plain);
            Err(e)
        }
    }
}
