//! AES-GCM of one message, in parallel (`gcmNew`, seal and open of arrays
//! and direct buffers); the AES errors as JCA exceptions.

use std::mem::MaybeUninit;
use std::ops::Range;

use jni::JNIEnv;
use jni::objects::{JByteArray, JByteBuffer, JClass};
use jni::sys::{jint, jlong};
use parcrypt::aes::{Error, GCM_NONCE, GCM_TAG, Gcm};
use parcrypt::par::Parallelism;
use parcrypt::secret::{SecretBytes, wipe};

use crate::{
    BAD_PADDING, BAD_TAG, BLOCK_SIZE, Direct, Fail, Handle, INVALID_KEY, INVALID_PARAM, InOut, PROVIDER,
    Pinned, Res, bytes_opt, entry, fail, free_fn, from_handle, in_out, len_of, par, range_in, read_into,
    read_region, secret_bytes, write_region, write_region_last, zeroed,
};

/// The JCA's exception for an output buffer too small for the result.
const SHORT_BUFFER: &str = "javax/crypto/ShortBufferException";

impl From<Error> for Fail {
    fn from(e: Error) -> Self {
        let msg = e.to_string();
        match e {
            Error::KeyLength(_) => Fail::Throw(INVALID_KEY, msg),
            Error::IvLength(_) => Fail::Throw(INVALID_PARAM, msg),
            Error::NotBlockAligned => Fail::Throw(BLOCK_SIZE, msg),
            Error::Decrypt => Fail::Throw(BAD_PADDING, msg),
            Error::Authentication => Fail::Throw(BAD_TAG, "Tag mismatch: ".to_string() + &msg),
            Error::OutputTooSmall { .. } => Fail::Throw(SHORT_BUFFER, msg),
            _ => Fail::Throw(PROVIDER, msg),
        }
    }
}

/// What every GCM call names besides its data: the key (a handle), the
/// nonce, the AAD (null: none) and the threads.
struct GcmCall<'h> {
    gcm: &'h Gcm,
    nonce: [u8; GCM_NONCE],
    aad: Option<Vec<u8>>,
    par: Parallelism,
}

impl GcmCall<'_> {
    /// The nonce comes as two Java primitives, its first 8 bytes and its
    /// last 4 (big-endian): reading a `byte[]` would cost two JNI calls and
    /// their exception checks per message.
    fn new(
        env: &JNIEnv<'_>,
        handle: jlong,
        nonce_head: jlong,
        nonce_tail: jint,
        aad: &JByteArray<'_>,
        threads: jint,
        strategy: jint,
    ) -> Res<Self> {
        // SAFETY: a live Gcm handle (see `from_handle`).
        let gcm = unsafe { from_handle::<Gcm>(handle)? };
        let mut nonce = [0u8; GCM_NONCE];
        let (head, tail) = nonce.split_at_mut(8);
        head.copy_from_slice(&nonce_head.to_be_bytes());
        tail.copy_from_slice(&nonce_tail.to_be_bytes());
        Ok(GcmCall {
            gcm,
            nonce,
            aad: bytes_opt(env, aad)?,
            par: par(threads, strategy)?,
        })
    }

    fn aad(&self) -> &[u8] {
        self.aad.as_deref().unwrap_or_default()
    }

    /// Encrypts `body` in place; the tag.
    fn seal(&self, body: &mut [u8]) -> [u8; GCM_TAG] {
        self.gcm.seal_in_place(&self.nonce, self.aad(), body, &self.par)
    }

    /// Checks `tag` over `body` and only then decrypts it in place.
    fn open(&self, body: &mut [u8], tag: &[u8]) -> Res<()> {
        Ok(self
            .gcm
            .open_in_place(&self.nonce, self.aad(), body, tag, &self.par)?)
    }
}

/// Where a `byte[]` call's input and output are: ranges of two arrays, or
/// of one.
struct Regions {
    input: Range<usize>,
    output: Range<usize>,
    input_len: usize,
    output_len: usize,
    same_array: bool,
}

/// The arrays and ranges of one `doFinal` on `byte[]`s: `len` bytes of
/// `input` from `in_off`, and `out` from `out_off`.
struct Arrays<'a, 'l> {
    input: &'a JByteArray<'l>,
    in_off: jint,
    len: usize,
    out: &'a JByteArray<'l>,
    out_off: jint,
}

impl Regions {
    /// Checks the bounds before anything is pinned or written:
    /// `ArrayIndexOutOfBoundsException` for an input outside its array,
    /// `ShortBufferException` for an output that does not fit.
    fn new(env: &JNIEnv<'_>, a: &Arrays<'_, '_>, out_len: usize) -> Res<Self> {
        let (out_off, out) = (a.out_off, a.out);
        let input_len = env.get_array_length(a.input)?;
        let output_len = env.get_array_length(out)?;
        let input_range = range_in(a.in_off, a.len, input_len, "input")?;
        let output = range_in(out_off, out_len, output_len, "output").or_else(|e| {
            if out_off < 0 {
                return Err(e);
            }
            fail(
                SHORT_BUFFER,
                format!("need {out_len} bytes of output space from {out_off} in an array of {output_len}"),
            )
        })?;
        Ok(Regions {
            input: input_range,
            output,
            input_len: input_len as usize,
            output_len: output_len as usize,
            same_array: env.is_same_object(a.input, out)?,
        })
    }

    /// Whether the two ranges share bytes of one array without starting at
    /// the same one: such calls take the copying path.
    fn shifted_overlap(&self) -> bool {
        self.same_array
            && self.input.start != self.output.start
            && self.input.start < self.output.end
            && self.output.start < self.input.end
    }
}

/// The input and output ranges of one pinned array, which do not overlap.
fn split_disjoint(whole: &mut [u8], input: Range<usize>, output: Range<usize>) -> (&[u8], &mut [u8]) {
    if input.end <= output.start {
        let (head, tail) = whole.split_at_mut(output.start);
        (&head[input], &mut tail[..output.len()])
    } else {
        let (head, tail) = whole.split_at_mut(input.start);
        (&tail[..input.len()], &mut head[output])
    }
}

/// A call's bytes in the pinned arrays.
enum Span<'a> {
    /// Input and output start at the same byte of one array: the longer of
    /// the two ranges.
    InPlace(&'a mut [u8]),
    /// The input range and the output range, apart.
    Apart(&'a [u8], &'a mut [u8]),
}

/// Pins the arrays of `r` (one pin when both ranges are in one array) and
/// runs `f` on its ranges; the output is written back only if `f`
/// succeeds. `None` for ranges of one array that overlap shifted (the
/// caller copies instead).
fn with_pinned<T>(
    env: &JNIEnv<'_>,
    r: &Regions,
    a: &Arrays<'_, '_>,
    f: impl FnOnce(Span<'_>) -> Res<T>,
) -> Res<Option<T>> {
    let (input, out) = (a.input, a.out);
    if r.shifted_overlap() {
        return Ok(None);
    }
    if r.same_array {
        // SAFETY: the array's length; the only pin of it.
        let mut pin = unsafe { Pinned::new(env, out, r.output_len)? };
        let whole = pin.bytes();
        let result = if r.input.start == r.output.start {
            f(Span::InPlace(
                &mut whole[r.input.start..r.input.end.max(r.output.end)],
            ))?
        } else {
            let (src, dst) = split_disjoint(whole, r.input.clone(), r.output.clone());
            f(Span::Apart(src, dst))?
        };
        pin.write_back();
        return Ok(Some(result));
    }
    // SAFETY: each array's own length; two different arrays, one pin each.
    let (mut src, mut dst) = unsafe {
        (
            Pinned::new(env, input, r.input_len)?,
            Pinned::new(env, out, r.output_len)?,
        )
    };
    let result = f(Span::Apart(
        &src.bytes()[r.input.clone()],
        &mut dst.bytes()[r.output.clone()],
    ))?;
    dst.write_back();
    Ok(Some(result))
}

/// [`Java_dev_parcrypt_jca_Native_gcmSeal`] on the pinned arrays: the
/// ciphertext and tag written straight into `out`. `None` for ranges of one
/// array that overlap shifted (the caller copies instead).
fn seal_pinned(env: &JNIEnv<'_>, call: &GcmCall<'_>, a: &Arrays<'_, '_>) -> Res<Option<usize>> {
    let len = a.len;
    let r = Regions::new(env, a, len + GCM_TAG)?;
    with_pinned(env, &r, a, |span| {
        let (tag, slot) = match span {
            Span::InPlace(buf) => {
                let (body, slot) = buf.split_at_mut(len);
                (call.seal(body), slot)
            }
            Span::Apart(src, dst) => {
                let (body, slot) = dst.split_at_mut(len);
                (
                    call.gcm.seal_into(&call.nonce, call.aad(), src, body, &call.par),
                    slot,
                )
            }
        };
        slot.copy_from_slice(&tag);
        Ok(len + GCM_TAG)
    })
}

/// [`Java_dev_parcrypt_jca_Native_gcmOpen`] on the pinned arrays: the
/// plaintext written straight into `out` while the tag is computed (one
/// pass, `GcmOpen::OnePass`); on a wrong tag `out` is wiped (in place: the
/// ciphertext restored) before the exception is thrown. `None` for ranges
/// of one array that overlap shifted (the caller copies instead).
fn open_pinned(env: &JNIEnv<'_>, call: &GcmCall<'_>, a: &Arrays<'_, '_>) -> Res<Option<usize>> {
    let Some(n) = a.len.checked_sub(GCM_TAG) else {
        return fail(BAD_TAG, SHORT);
    };
    let r = Regions::new(env, a, n)?;
    with_pinned(env, &r, a, |span| {
        match span {
            Span::InPlace(buf) => {
                let (body, tag) = buf.split_at_mut(n);
                call.open(body, tag)?;
            }
            Span::Apart(src, dst) => {
                let (body, tag) = src.split_at(n);
                call.gcm
                    .open_into(&call.nonce, call.aad(), body, tag, dst, &call.par)?;
            }
        }
        Ok(n)
    })
}

/// Messages of up to this many bytes are sealed on a copy on the stack
/// (`Get`/`SetByteArrayRegion`, three JNI calls with the exception check
/// between them) instead of on the pinned arrays (seven: both arrays'
/// lengths, whether they are one array, a pin and a release of each).
/// The copies also make every overlap of input and output safe as it is.
/// Measured on the 2-vCPU Zen 4 VM (docs/JAVA.md): level at 1 KiB, the pins
/// ahead from 2 KiB.
const SEAL_COPY_MAX: usize = 1024;

/// [`SEAL_COPY_MAX`] for opening (the plaintext's length): copied, the
/// message is opened by one AWS-LC call into a stack buffer, where on the
/// pinned arrays the library's `open` goes through a scratch buffer of its
/// own. The copies were ahead at 1 and 2 KiB, the pins at 4 KiB.
const OPEN_COPY_MAX: usize = 2048;

/// The larger of the two: the stack room each copy needs.
const COPY_MAX: usize = if SEAL_COPY_MAX > OPEN_COPY_MAX {
    SEAL_COPY_MAX
} else {
    OPEN_COPY_MAX
};

/// Room on the stack for a message's bytes, left uninitialised: zeroing
/// [`COPY_MAX`] bytes per call would cost more than the copies themselves.
type StackRoom = [MaybeUninit<u8>; COPY_MAX + GCM_TAG];

/// Plaintext in a [`StackRoom`], wiped when dropped.
struct StackPlain<'a>(&'a mut [u8]);

impl Drop for StackPlain<'_> {
    fn drop(&mut self) {
        wipe(self.0);
    }
}

/// [`Java_dev_parcrypt_jca_Native_gcmSeal`] for at most
/// [`SEAL_COPY_MAX`] bytes: the input copied onto the stack, sealed there
/// in place, and ciphertext ‖ tag copied out. Java has checked both ranges
/// (JNI checks them again: `ArrayIndexOutOfBoundsException`, nothing
/// written).
fn seal_copied(env: &JNIEnv<'_>, call: &GcmCall<'_>, a: &Arrays<'_, '_>) -> Res<usize> {
    let len = a.len;
    let mut room: StackRoom = [MaybeUninit::uninit(); COPY_MAX + GCM_TAG];
    let sealed = read_into(env, a.input, a.in_off, len, &mut room[..len + GCM_TAG])?;
    let (body, slot) = sealed.split_at_mut(len);
    // The plaintext on the stack becomes ciphertext: nothing to wipe.
    slot.copy_from_slice(&call.seal(body));
    write_region_last(env, a.out, a.out_off, sealed)?;
    Ok(sealed.len())
}

/// [`Java_dev_parcrypt_jca_Native_gcmOpen`] for at most
/// [`OPEN_COPY_MAX`] bytes of plaintext: the sealed input copied onto the
/// stack, opened by one AWS-LC call into a second stack buffer (wiped on
/// return), and the plaintext copied out only once the tag matched (a wrong
/// tag writes nothing).
fn open_copied(env: &JNIEnv<'_>, call: &GcmCall<'_>, a: &Arrays<'_, '_>) -> Res<usize> {
    let Some(n) = a.len.checked_sub(GCM_TAG) else {
        return fail(BAD_TAG, SHORT);
    };
    let mut room: StackRoom = [MaybeUninit::uninit(); COPY_MAX + GCM_TAG];
    let sealed = read_into(env, a.input, a.in_off, a.len, &mut room[..a.len])?;
    let (body, tag) = sealed.split_at(n);
    let mut plain_room: StackRoom = [MaybeUninit::uninit(); COPY_MAX + GCM_TAG];
    let wiped = StackPlain(zeroed(&mut plain_room[..n]));
    let plain = &mut *wiped.0;
    // `open_private_into` may write plaintext before the tag is checked: it
    // goes to this stack buffer, which nobody else sees (and which is wiped
    // on a wrong tag, and on return).
    call.gcm
        .open_private_into(&call.nonce, call.aad(), body, tag, plain, &call.par)?;
    write_region_last(env, a.out, a.out_off, plain)?;
    Ok(n)
}

/// The message for input shorter than a tag.
const SHORT: &str = "Tag mismatch: the input is shorter than a tag";

#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_gcmNew<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    key: JByteArray<'l>,
) -> jlong {
    entry(&mut env, |env| {
        let key = secret_bytes(env, &key, "key")?;
        match Gcm::new(key.expose()) {
            Ok(gcm) => Ok(Handle(gcm)),
            Err(Error::KeyLength(n)) => fail(
                INVALID_KEY,
                format!("AES-GCM key must be 16 or 32 bytes (AES-128/256), got {n}"),
            ),
            Err(other) => Err(other.into()),
        }
    })
}

free_fn!(Java_dev_parcrypt_jca_Native_gcmFree, Gcm);

/// Declares a GCM entry point, `$name(long handle, long nonceHead, int
/// nonceTail, byte[] aad, $buf input, int inOff, int len, $buf out, int
/// outOff, int threads, int strategy) -> int`: the call (key, nonce, AAD,
/// threads) read, then `$body(env, &call, Io { input, in_off, len, out,
/// out_off })`, which returns the bytes written. `$buf` is
/// `byte[]` or a direct `ByteBuffer`: the same parameters, one body for each.
macro_rules! gcm_fn {
    ($(#[$doc:meta])* $name:ident, $buf:ident, $body:ident) => {
        $(#[$doc])*
        #[unsafe(no_mangle)]
        #[allow(clippy::too_many_arguments)]
        pub extern "system" fn $name<'l>(
            mut env: JNIEnv<'l>,
            _class: JClass<'l>,
            handle: jlong,
            nonce_head: jlong,
            nonce_tail: jint,
            aad: JByteArray<'l>,
            input: $buf<'l>,
            in_off: jint,
            len: jint,
            out: $buf<'l>,
            out_off: jint,
            threads: jint,
            strategy: jint,
        ) -> jint {
            entry(&mut env, |env| {
                let call = GcmCall::new(env, handle, nonce_head, nonce_tail, &aad, threads, strategy)?;
                let io = Io {
                    input: &input,
                    in_off,
                    len,
                    out: &out,
                    out_off,
                };
                $body(env, &call, io)
            })
        }
    };
}

gcm_fn!(
    /// Seals `len` bytes of `input` from `in_off`; writes ciphertext ‖ tag
    /// (`len + 16` bytes) into `out` at `out_off`.
    ///
    /// Works on the pinned arrays ([`Pinned`]), not on a native copy: copying
    /// in and out costs more than AES-GCM itself (AWS-LC seals at 10+ GB/s a
    /// core). Measured with `AesGcmBench` (JMH, 2-vCPU VM, init + doFinal):
    /// pinned from 64 KiB on and copied below, 16 KiB took 3.1 µs to encrypt
    /// and 4.6 µs to decrypt, pinned at every size 2.2 and 3.5 µs; at 4 KiB
    /// decryption 1.23 against 0.92 µs; at 256 B – 2 KiB the two were within
    /// the noise (pinned a little ahead). So every size above
    /// [`SEAL_COPY_MAX`] is pinned, and only a call whose ranges share one
    /// array and overlap shifted takes the copy. Up to it the JNI calls that
    /// pinning needs cost more than copying: [`seal_copied`].
    Java_dev_parcrypt_jca_Native_gcmSeal,
    JByteArray,
    seal_arrays
);

gcm_fn!(
    /// Opens the `len` bytes (ciphertext ‖ tag) of `input` from `in_off`:
    /// the plaintext (`len − 16` bytes) into `out` at `out_off`. The output
    /// is unspecified until decryption succeeds and is zeroed on a wrong tag
    /// (`AEADBadTagException`); in place it holds the ciphertext again.
    /// Never plaintext of a message whose tag failed. Up to
    /// [`OPEN_COPY_MAX`] bytes of plaintext copied ([`open_copied`]: there a
    /// wrong tag leaves `out` as it was); above, pinned, or copied for
    /// shifted overlaps, as [`Java_dev_parcrypt_jca_Native_gcmSeal`].
    Java_dev_parcrypt_jca_Native_gcmOpen,
    JByteArray,
    open_arrays
);

gcm_fn!(
    /// [`gcmSeal`] between direct buffers, in place when `out` starts where
    /// `input` does: no copy at all. Buffers that overlap otherwise are
    /// refused (`IllegalArgumentException`), before anything is read or
    /// written.
    Java_dev_parcrypt_jca_Native_gcmSealDirect,
    JByteBuffer,
    seal_direct
);

gcm_fn!(
    /// [`gcmOpen`] between direct buffers, in place when `out` starts where
    /// `input` does. The output is unspecified until decryption succeeds and
    /// is zeroed on a wrong tag (in place, it holds the ciphertext again).
    /// Buffers that overlap otherwise are refused
    /// (`IllegalArgumentException`), before anything is read or written.
    Java_dev_parcrypt_jca_Native_gcmOpenDirect,
    JByteBuffer,
    open_direct
);

/// A GCM call's data: `len` bytes of `input` from `in_off`, and `out` from
/// `out_off` (offsets in arrays, positions in direct buffers).
struct Io<'a, B> {
    input: &'a B,
    in_off: jint,
    len: jint,
    out: &'a B,
    out_off: jint,
}

impl<'a, 'l> Arrays<'a, 'l> {
    fn new(io: &Io<'a, JByteArray<'l>>) -> Res<Self> {
        Ok(Arrays {
            input: io.input,
            in_off: io.in_off,
            len: len_of(io.len, "input")?,
            out: io.out,
            out_off: io.out_off,
        })
    }
}

/// [`Java_dev_parcrypt_jca_Native_gcmSeal`]: copied up to
/// [`SEAL_COPY_MAX`], pinned above, copied for shifted overlaps.
fn seal_arrays(env: &JNIEnv<'_>, call: &GcmCall<'_>, io: Io<'_, JByteArray<'_>>) -> Res<usize> {
    let a = Arrays::new(&io)?;
    if a.len <= SEAL_COPY_MAX {
        return seal_copied(env, call, &a);
    }
    if let Some(written) = seal_pinned(env, call, &a)? {
        return Ok(written);
    }
    let mut buf = read_region(env, io.input, io.in_off, io.len, GCM_TAG)?;
    let n = buf.len() - GCM_TAG;
    let tag = call.seal(&mut buf[..n]);
    buf[n..].copy_from_slice(&tag);
    write_region(env, io.out, io.out_off, &buf)?;
    Ok(buf.len())
}

/// [`Java_dev_parcrypt_jca_Native_gcmOpen`]: copied up to
/// [`OPEN_COPY_MAX`] bytes of plaintext, pinned above, copied for shifted
/// overlaps.
fn open_arrays(env: &JNIEnv<'_>, call: &GcmCall<'_>, io: Io<'_, JByteArray<'_>>) -> Res<usize> {
    let a = Arrays::new(&io)?;
    if a.len <= OPEN_COPY_MAX + GCM_TAG {
        return open_copied(env, call, &a);
    }
    if let Some(written) = open_pinned(env, call, &a)? {
        return Ok(written);
    }
    let mut buf = SecretBytes::new(read_region(env, io.input, io.in_off, io.len, 0)?);
    let Some(n) = buf.len().checked_sub(GCM_TAG) else {
        return fail(BAD_TAG, SHORT);
    };
    let (body, tag) = buf.expose_mut().split_at_mut(n);
    call.open(body, tag)?;
    write_region(env, io.out, io.out_off, body)?;
    Ok(n)
}

/// [`Java_dev_parcrypt_jca_Native_gcmSealDirect`]: in place when `out`
/// starts where `input` does, else from one buffer into the other; a
/// partial overlap is refused before anything is read or written.
fn seal_direct(env: &JNIEnv<'_>, call: &GcmCall<'_>, io: Io<'_, JByteBuffer<'_>>) -> Res<usize> {
    let mut src = Direct::new(env, io.input, io.in_off, io.len)?;
    let mut dst = Direct::new(env, io.out, io.out_off, io.len.saturating_add(GCM_TAG as jint))?;
    let (n, written) = (src.len(), dst.len());
    match in_out(&mut src, &mut dst)? {
        InOut::InPlace(buf) => {
            let (body, slot) = buf.split_at_mut(n);
            slot.copy_from_slice(&call.seal(body));
        }
        InOut::Apart(src, dst) => {
            let (body, slot) = dst.split_at_mut(n);
            slot.copy_from_slice(&call.gcm.seal_into(&call.nonce, call.aad(), src, body, &call.par));
        }
    }
    Ok(written)
}

/// [`Java_dev_parcrypt_jca_Native_gcmOpenDirect`]: in place when `out`
/// starts where `input` does, else the ciphertext copied into `out` and
/// opened there (zeroed on a wrong tag); a partial overlap is refused before
/// anything is read or written.
fn open_direct(env: &JNIEnv<'_>, call: &GcmCall<'_>, io: Io<'_, JByteBuffer<'_>>) -> Res<usize> {
    let mut src = Direct::new(env, io.input, io.in_off, io.len)?;
    let Some(n) = src.len().checked_sub(GCM_TAG) else {
        return fail(BAD_TAG, SHORT);
    };
    // n < io.len, a jint.
    let mut dst = Direct::new(env, io.out, io.out_off, n as jint)?;
    match in_out(&mut src, &mut dst)? {
        InOut::InPlace(buf) => {
            let (body, tag) = buf.split_at_mut(n);
            call.open(body, tag)
        }
        InOut::Apart(src, dst) => {
            let (body, tag) = src.split_at(n);
            dst.copy_from_slice(body);
            let opened = call.open(dst, tag);
            if opened.is_err() {
                dst.fill(0);
            }
            opened
        }
    }?;
    Ok(n)
}
